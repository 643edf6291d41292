package data

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gexph/gexph/data/npy"
)

// csrMatrix is a sparse matrix in CSR form without duplicates: the column indices of
// each row distinct.
type csrMatrix struct {
	rows, cols int
	indptr     []int64
	indices    []int32
	data       []float32
}

// sparseFormats are the layouts of a scipy sparse matrix that readSparse reads.
var sparseFormats = []string{"csr", "csc", "coo"}

// readSparse reads the sparse matrix stored in z under prefix as scipy stores one
// (scipy.sparse.save_npz, or the gnn-benchmark files' adj_* and attr_* entries):
// <prefix>_format ("csr", "csc" or "coo"; csr when absent), <prefix>_shape, and
// <prefix>_{data,indices,indptr} (csr, csc) or <prefix>_{data,row,col} (coo); an empty
// prefix reads the bare names. The matrix is returned as scipy reads it, in CSR form:
// duplicate entries summed into one (their sum kept even when 0, as scipy's
// sum_duplicates keeps it; booleans or'ed), the rows that held them sorted by column,
// the others in the file's order (unsorted indices mean the same matrix).
// Indices and offsets may be of any integer type, values of any numeric type (summed
// as float32).
func readSparse(z *npy.NPZ, prefix string) (*csrMatrix, error) {
	e := sparseEntries{z: z, prefix: prefix}
	format, err := e.format()
	if err != nil {
		return nil, err
	}
	rows, cols, err := e.shape()
	if err != nil {
		return nil, err
	}
	dataArr, err := e.array("data")
	if err != nil {
		return nil, err
	}
	data, err := dataArr.Float32s()
	if err != nil {
		return nil, err
	}
	var t triplets
	switch format {
	case "csr":
		t, err = e.compressed(rows, cols, data, false)
	case "csc":
		t, err = e.compressed(cols, rows, data, true)
	default:
		t, err = e.coo(rows, cols, data)
	}
	if err != nil {
		return nil, err
	}
	m := t.toCSR(rows, cols)
	if strings.HasSuffix(dataArr.DType, "b1") {
		// Booleans sum as a logical or.
		for i, v := range m.data {
			m.data[i] = min(v, 1)
		}
	}
	return m, nil
}

// sparseEntries names and reads the entries of one sparse matrix of an archive.
type sparseEntries struct {
	z      *npy.NPZ
	prefix string
}

// name returns the entry name of a part ("data", "indptr", …).
func (e sparseEntries) name(part string) string {
	if e.prefix == "" {
		return part
	}
	return e.prefix + "_" + part
}

// array returns the one-dimensional array of a part.
func (e sparseEntries) array(part string) (*npy.Array, error) {
	a, err := e.z.Array(e.name(part))
	if err == nil && len(a.Shape) != 1 {
		err = fmt.Errorf("%s: entry %s: shape %v, want one dimension", e.z.Name, e.name(part), a.Shape)
	}
	return a, err
}

// format returns the matrix's layout: its format entry, or csr without one.
func (e sparseEntries) format() (string, error) {
	a, ok := e.z.Arrays[e.name("format")]
	if !ok {
		if err, skipped := e.z.Skipped[e.name("format")]; skipped {
			return "", err
		}
		return "csr", nil
	}
	s, err := a.Strings()
	if err != nil || len(s) != 1 {
		return "", fmt.Errorf("%s: entry %s: want one string (%s), got %v of shape %v", e.z.Name, e.name("format"), quoted(sparseFormats), a.DType, a.Shape)
	}
	if !slices.Contains(sparseFormats, s[0]) {
		return "", fmt.Errorf("%s: entry %s: sparse format %q not supported (want %s)", e.z.Name, e.name("format"), s[0], quoted(sparseFormats))
	}
	return s[0], nil
}

// shape returns the matrix's rows and columns.
func (e sparseEntries) shape() (rows, cols int, err error) {
	a, err := e.array("shape")
	if err != nil {
		return 0, 0, err
	}
	shape, err := a.Int64s()
	if err != nil {
		return 0, 0, err
	}
	if len(shape) != 2 || shape[0] < 0 || shape[1] < 0 || shape[0] > maxNodes || shape[1] > maxNodes {
		return 0, 0, fmt.Errorf("%s: entry %s: %v is not a valid matrix shape", e.z.Name, e.name("shape"), shape)
	}
	return int(shape[0]), int(shape[1]), nil
}

// indices returns the values of an index part, checked to lie in [0, n).
func (e sparseEntries) indices(part string, n, count int) ([]int32, error) {
	a, err := e.array(part)
	if err != nil {
		return nil, err
	}
	idx, err := a.Int32s()
	if err != nil {
		return nil, err
	}
	if len(idx) != count {
		return nil, fmt.Errorf("%s: entry %s: %d indices for %d values (entry %s)", e.z.Name, e.name(part), len(idx), count, e.name("data"))
	}
	for i, c := range idx {
		if c < 0 || int(c) >= n {
			return nil, fmt.Errorf("%s: entry %s: element %d value %d outside [0, %d)", e.z.Name, e.name(part), i, c, n)
		}
	}
	return idx, nil
}

// offsets reads indptr: major+1 non-decreasing offsets from 0 to nnz.
func (e sparseEntries) offsets(major, nnz int) ([]int64, error) {
	a, err := e.array("indptr")
	if err != nil {
		return nil, err
	}
	indptr, err := a.Int64s()
	if err != nil {
		return nil, err
	}
	name := e.name("indptr")
	if len(indptr) != major+1 {
		return nil, fmt.Errorf("%s: entry %s: %d offsets for %d rows, want %d", e.z.Name, name, len(indptr), major, major+1)
	}
	if indptr[0] != 0 {
		return nil, fmt.Errorf("%s: entry %s: first offset is %d, want 0", e.z.Name, name, indptr[0])
	}
	for r := range major {
		if indptr[r+1] < indptr[r] {
			return nil, fmt.Errorf("%s: entry %s: offset %d (%d) is below offset %d (%d)", e.z.Name, name, r+1, indptr[r+1], r, indptr[r])
		}
	}
	if last := indptr[major]; last != int64(nnz) {
		return nil, fmt.Errorf("%s: entry %s: last offset %d but %s holds %d values", e.z.Name, name, last, e.name("data"), nnz)
	}
	return indptr, nil
}

// compressed reads a CSR matrix (major = rows) or a CSC one (transposed: major =
// columns, the indices rows) as triplets.
func (e sparseEntries) compressed(major, minor int, data []float32, csc bool) (triplets, error) {
	indptr, err := e.offsets(major, len(data))
	if err != nil {
		return triplets{}, err
	}
	idx, err := e.indices("indices", minor, len(data))
	if err != nil {
		return triplets{}, err
	}
	t := triplets{row: make([]int32, len(data)), col: idx, val: data}
	for r := range major {
		for k := indptr[r]; k < indptr[r+1]; k++ {
			t.row[k] = int32(r)
		}
	}
	if csc {
		t.row, t.col = t.col, t.row
	}
	return t, nil
}

// coo reads a COO matrix's row and col entries.
func (e sparseEntries) coo(rows, cols int, data []float32) (triplets, error) {
	row, err := e.indices("row", rows, len(data))
	if err != nil {
		return triplets{}, err
	}
	col, err := e.indices("col", cols, len(data))
	if err != nil {
		return triplets{}, err
	}
	return triplets{row: row, col: col, val: data}, nil
}

// triplets are the entries of a sparse matrix in any order, duplicates allowed.
type triplets struct {
	row, col []int32
	val      []float32
}

// toCSR returns the entries as a CSR matrix without duplicates: grouped by row in
// storage order; a row holding a column twice is sorted by column and the values of
// each repeated column summed in storage order, as scipy's sum_duplicates does (other
// rows keep their order, as scipy keeps unsorted indices: the same matrix).
func (t triplets) toCSR(rows, cols int) *csrMatrix {
	m := &csrMatrix{rows: rows, cols: cols, indptr: make([]int64, rows+1)}
	for _, r := range t.row {
		m.indptr[r+1]++
	}
	for r := range rows {
		m.indptr[r+1] += m.indptr[r]
	}
	order := make([]int32, len(t.row)) // entries grouped by row, a stable counting sort
	next := slices.Clone(m.indptr[:rows])
	for k, r := range t.row {
		order[next[r]] = int32(k)
		next[r]++
	}
	seen := make([]int32, cols) // seen[c] = 1 + the last row holding column c
	byCol := func(a, b int32) int { return cmp.Compare(t.col[a], t.col[b]) }
	m.indices, m.data = make([]int32, 0, len(order)), make([]float32, 0, len(order))
	for r := range rows {
		seg := order[m.indptr[r]:m.indptr[r+1]]
		m.indptr[r] = int64(len(m.indices))
		dup := false
		for _, k := range seg {
			c := t.col[k]
			dup = dup || seen[c] == int32(r)+1
			seen[c] = int32(r) + 1
		}
		if dup {
			slices.SortStableFunc(seg, byCol)
		}
		start := len(m.indices)
		for _, k := range seg {
			if n := len(m.indices); dup && n > start && m.indices[n-1] == t.col[k] {
				m.data[n-1] += t.val[k]
				continue
			}
			m.indices, m.data = append(m.indices, t.col[k]), append(m.data, t.val[k])
		}
	}
	m.indptr[rows] = int64(len(m.indices))
	return m
}

// quoted returns the strings quoted and comma-separated.
func quoted(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}
