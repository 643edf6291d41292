package data

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/npy"
)

// sparseFixtures are the files of testdata/sparse written by scipy.sparse.save_npz
// (see make_fixtures.py): CSR, CSC and COO with unsorted and duplicate indices,
// explicit zeros, entries that cancel, int32 and int64 indices, float, integer and
// boolean values (deflated, as save_npz writes by default), and an empty matrix.
var sparseFixtures = []string{"csr_unsorted_dups_i32_f64", "csr_unsorted_dups_i64_f32", "csc_unsorted_dups_i32_i64",
	"coo_dups_i32_f32", "coo_dups_i64_i16_wide", "coo_dups_bool", "csr_empty"}

// A row without duplicates keeps the file's order, as scipy keeps unsorted indices
// (the same matrix; the order of a file's features is part of its data set's
// fingerprint); a row with duplicates is sorted, as scipy's sum_duplicates sorts it.
func TestToCSRSumsDuplicatesKeepsOtherRowsOrder(t *testing.T) {
	tr := triplets{row: []int32{1, 0, 0, 1, 1, 2}, col: []int32{3, 2, 0, 0, 3, 1}, val: []float32{1, 2, 3, 4, 5, 6}}
	m := tr.toCSR(3, 4)
	want := &csrMatrix{rows: 3, cols: 4, indptr: []int64{0, 2, 4, 5}, indices: []int32{2, 0, 0, 3, 1}, data: []float32{2, 3, 4, 6, 6}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("toCSR = %+v, want %+v", m, want)
	}
}

// Every scipy sparse file reads as the dense matrix scipy reads from it (toarray()),
// in CSR form without duplicates: the column indices of each row distinct, and sorted
// where duplicates were summed.
func TestReadSparseAsScipyReadsIt(t *testing.T) {
	for _, name := range sparseFixtures {
		z, err := npy.ReadNPZFile(filepath.Join("testdata", "sparse", name+".npz"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := readSparse(z, "")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want := readDense(t, filepath.Join("testdata", "sparse", name+".dense.npy"))
		if got := m.dense(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read as\n%v\nscipy reads\n%v", name, got, want)
		}
		for r := range m.rows {
			row := m.indices[m.indptr[r]:m.indptr[r+1]]
			sorted := slices.Sorted(slices.Values(row))
			if len(slices.Compact(sorted)) != len(row) {
				t.Errorf("%s: row %d holds column indices %v, not distinct", name, r, row)
			}
		}
	}
}

// A gnn-benchmark archive whose adjacency is CSC and features COO (named by their
// _format entries), with duplicates, unsorted indices, cancelling entries and a self
// loop, loads as PyTorch Geometric reads it: x = attr.todense(), x[x > 0] = 1, the
// edges those of adj.tocoo() without self loops, made undirected.
func TestLoadGNNBenchmarkFormatsAsPyGReadsThem(t *testing.T) {
	dir := filepath.Join("testdata", "sparse")
	d, err := LoadGNNBenchmark(filepath.Join(dir, "gnn_formats.npz"), LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graphs[0]
	x := readDense(t, filepath.Join(dir, "gnn_formats.x.npy"))
	f := g.Node
	got := (&csrMatrix{rows: f.Rows, cols: f.Cols, indptr: f.Indptr, indices: f.Indices, data: f.Values}).dense()
	if !reflect.DeepEqual(got, x) {
		t.Errorf("features\n%v\nPyG reads\n%v", got, x)
	}
	if slices.Contains(f.Values, 0) {
		t.Errorf("features store zero values: %v", f.Values)
	}
	edgeArr, err := npy.ReadFile(filepath.Join(dir, "gnn_formats.edges.npy"))
	if err != nil {
		t.Fatal(err)
	}
	flat, err := edgeArr.Int32s()
	if err != nil {
		t.Fatal(err)
	}
	var want, have [][2]int32
	for i := 0; i < len(flat); i += 2 {
		want = append(want, [2]int32{flat[i], flat[i+1]})
	}
	for k := range g.Src {
		have = append(have, [2]int32{g.Src[k], g.Dst[k]})
	}
	slices.SortFunc(have, func(a, b [2]int32) int { return slices.Compare(a[:], b[:]) })
	if !reflect.DeepEqual(have, want) {
		t.Errorf("edges %v; PyG reads %v", have, want)
	}
}

// Defects of a sparse matrix's entries are errors naming the archive, the entry and
// the value.
func TestReadSparseErrorsNameTheEntry(t *testing.T) {
	coo := func(format []byte, row, col []byte) []npzEntry {
		return []npzEntry{
			{"m_format.npy", format}, {"m_shape.npy", npyOf([]int64{2, 3})},
			{"m_data.npy", npyOf([]float32{1, 2})}, {"m_row.npy", row}, {"m_col.npy", col},
		}
	}
	str := func(s string) []byte { return npyBytes(fmt.Sprintf("|S%d", len(s)), false, nil, []byte(s)) }
	for _, tc := range []struct {
		name    string
		entries []npzEntry
		want    []string
	}{
		{"unknown format", coo(str("dia"), npyOf([]int32{0, 1}), npyOf([]int32{0, 2})), []string{"m_format", `"dia"`, `"csr", "csc", "coo"`}},
		{"numeric format", coo(npyOf([]int32{1}), npyOf([]int32{0, 1}), npyOf([]int32{0, 2})), []string{"m_format", "want one string"}},
		{"row out of range", coo(str("coo"), npyOf([]int32{0, 2}), npyOf([]int32{0, 2})), []string{"m_row", "value 2", "[0, 2)"}},
		{"col out of range", coo(str("coo"), npyOf([]int32{0, 1}), npyOf([]int64{0, -1})), []string{"m_col", "value -1", "[0, 3)"}},
		{"row count", coo(str("coo"), npyOf([]int32{0}), npyOf([]int32{0, 2})), []string{"m_row", "1 indices for 2 values"}},
		{"missing col", coo(str("coo"), npyOf([]int32{0, 1}), nil), []string{`no entry "m_col"`}},
		{"csc indices out of range", []npzEntry{
			{"m_format.npy", str("csc")}, {"m_shape.npy", npyOf([]int64{2, 3})}, {"m_data.npy", npyOf([]float32{1, 2})},
			{"m_indptr.npy", npyOf([]int64{0, 1, 1, 2})}, {"m_indices.npy", npyOf([]int32{0, 5})},
		}, []string{"m_indices", "value 5", "[0, 2)"}},
		{"csc indptr length", []npzEntry{
			{"m_format.npy", str("csc")}, {"m_shape.npy", npyOf([]int64{2, 3})}, {"m_data.npy", npyOf([]float32{1, 2})},
			{"m_indptr.npy", npyOf([]int64{0, 1, 2})}, {"m_indices.npy", npyOf([]int32{0, 1})},
		}, []string{"m_indptr", "3 offsets for 3 rows, want 4"}},
	} {
		var entries []npzEntry
		for _, e := range tc.entries {
			if e.data != nil {
				entries = append(entries, e)
			}
		}
		b := zipBytes(false, entries...)
		z, err := npy.ReadNPZ(bytes.NewReader(b), int64(len(b)), "bad.npz")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err = readSparse(z, "m")
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range append(tc.want, "bad.npz") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}

// dense returns m as a dense row-major matrix of float32 values.
func (m *csrMatrix) dense() [][]float32 {
	out := make([][]float32, m.rows)
	for r := range out {
		out[r] = make([]float32, m.cols)
		for k := m.indptr[r]; k < m.indptr[r+1]; k++ {
			out[r][m.indices[k]] += m.data[k]
		}
	}
	return out
}

// readDense reads a two-dimensional .npy array as rows of float32 values.
func readDense(t *testing.T, path string) [][]float32 {
	t.Helper()
	a, err := npy.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := a.Float32s()
	if err != nil || len(a.Shape) != 2 {
		t.Fatalf("%s: shape %v: %v", path, a.Shape, err)
	}
	out := make([][]float32, a.Shape[0])
	for r := range out {
		out[r] = v[r*a.Shape[1] : (r+1)*a.Shape[1]]
	}
	return out
}
