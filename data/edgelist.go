package data

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gexph/gexph/internal/regfile"
)

// LoadEdgeListDir loads a user's own graph for transductive node classification from a
// directory of comma-separated text files (each may also be gzip-compressed, named with
// a further ".gz"):
//
//   - nodes.csv (required): row i describes node i: its class label followed by any
//     number of numeric node features, the same number on every row. A label is a 0-based
//     class index: an integer (written "3" or "3.0") in [0, MaxClasses) and below the
//     number of nodes, or -1 for an unlabelled node (semi-supervised classification:
//     the node takes part in message passing and attention, but in no split); the data
//     set has 1 + the largest label classes.
//   - edges.csv (required): one undirected edge per row: two node indices (0-based)
//     followed by any number of numeric edge features, the same number on every row. Each
//     edge is stored in both directions with its features; a self loop is stored once.
//     A row that repeats an earlier edge (the same two nodes in either direction, with
//     the same features), as a dump of PyG's edge_index holding both directions does, is
//     dropped, and LoadOptions.Warn hears how many; a pair repeated with other features
//     is kept as a parallel edge. The file may hold no edges: a graph of isolated nodes
//     is valid.
//   - train.csv, val.csv, test.csv (optional, all three or none): one node index per row.
//     Each must list at least one node (an empty test split would report a test metric
//     of 0), no file may list a node twice or an unlabelled node, and no node may be in
//     two files. Without them the labelled nodes are split 60/20/20 at random, drawn
//     from opts.Seed.
//
// Every file is read by the same rules. A UTF-8 byte order mark at the start of the file
// is dropped (a UTF-16 file is an error). Blank lines and lines starting with '#' are
// ignored. The first remaining row is a header, and skipped, exactly when none of its
// fields is a number (as strconv.ParseFloat reads numbers, so "nan" and "inf" count as
// numbers): "label,f1,f2" and "src,dst" are headers, "0,1.5,2" is data, and a row that
// mixes numbers and text, such as "x,1,2" or "label,0", is data and fails on its first
// field that is not a valid value. No later row is a header. Features must be finite.
// Errors name the file and line, and the field or node where there is one. Labels that
// look like node ids (a permutation of them, or as many classes as labelled nodes: an
// id column before the label) are reported to opts.Warn. Node ids are the rows of
// nodes.csv and stay so: opts.BinaryFeatures (positive node features set to 1) and
// opts.LargestComponent (only the largest connected component kept, Graph.NodeIDs
// holding the kept nodes' rows, split files' nodes outside it left out) apply only when
// set. A file of more than opts.MaxBytes of text (decompressed; 0: DefaultMaxBytes) is
// refused. Load reads edgelist:DIR so.
func LoadEdgeListDir(dir string, opts LoadOptions) (*Dataset, error) {
	g, transforms, err := readEdgeListGraph(dir, opts)
	if err != nil {
		return nil, err
	}
	n := g.NumNodes
	numClasses := 0
	for _, y := range g.NodeLabels {
		numClasses = max(numClasses, int(y)+1)
	}
	var newID []int32 // old → new index after the largest component, −1: dropped
	if opts.LargestComponent {
		sub, t, err := largestComponent(&g)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		newID = make([]int32, n)
		for i := range newID {
			newID[i] = -1
		}
		for i, v := range sub.NodeIDs {
			newID[v] = int32(i)
		}
		g, transforms = sub, append(transforms, t)
	}
	d := &Dataset{Name: filepath.Base(filepath.Clean(dir)), Task: NodeClassification,
		NumClasses: numClasses, Transductive: true, Graphs: []Graph{g}, Transforms: transforms}
	if d.Split, err = edgeListSplit(dir, n, g.NodeLabels, newID, opts); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return d, nil
}

// readEdgeListGraph reads nodes.csv and edges.csv of dir into a graph (node features
// made binary when opts.BinaryFeatures, repeated edges collapsed) and the transforms
// applied.
func readEdgeListGraph(dir string, opts LoadOptions) (Graph, []string, error) {
	limit := opts.MaxBytes
	path, err := findText(dir, "nodes.csv")
	if err != nil {
		return Graph{}, nil, err
	}
	nodes, err := readFile(path, limit, readNodeCSV)
	if err != nil {
		return Graph{}, nil, err
	}
	warnLabels(nodes.labels, path+": field 1 (the label)", opts.Warn)
	var transforms []string
	if opts.BinaryFeatures {
		binaryDense(&nodes.feat)
		transforms = append(transforms, TransformBinaryFeatures)
	}
	n := len(nodes.labels)
	if path, err = findText(dir, "edges.csv"); err != nil {
		return Graph{}, nil, err
	}
	el, err := readFile(path, limit, func(r io.Reader, name string) (*edgeList, error) {
		el, err := readEdgeCSV(r, name)
		if err == nil {
			err = el.checkRange(name, n)
		}
		return el, err
	})
	if err != nil {
		return Graph{}, nil, err
	}
	el.collapseRepeats(path, opts.Warn)
	g := Graph{NumNodes: n, NodeLabels: nodes.labels, Node: nodes.feat}
	g.Src, g.Dst, g.Edge = el.bothDirections()
	return g, transforms, nil
}

// edgeListSplit returns the split of an edge-list directory of n nodes: its split files,
// renumbered through newID when it is not nil (the largest component: nodes outside it
// leave the split, and opts.Warn hears how many), else a random 60/20/20 split of the
// labelled nodes of labels.
func edgeListSplit(dir string, n int, labels []int32, newID []int32, opts LoadOptions) (Split, error) {
	var parts [3]*splitFile
	found := 0
	for i, part := range []string{"train.csv", "val.csv", "test.csv"} {
		path, err := findText(dir, part)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return Split{}, err
		}
		found++
		if parts[i], err = readFile(path, opts.MaxBytes, func(r io.Reader, name string) (*splitFile, error) {
			return readSplitFile(r, name, n)
		}); err != nil {
			return Split{}, err
		}
	}
	switch found {
	case 0:
		return LabelledSplit(labels, 0.6, 0.2, opts.Seed)
	case 3:
		if err := checkDisjoint(parts, n); err != nil {
			return Split{}, err
		}
		s := Split{Train: parts[0].idx, Val: parts[1].idx, Test: parts[2].idx}
		if newID == nil {
			return s, nil
		}
		return componentSplit(dir, s, newID, opts.Warn)
	default:
		return Split{}, fmt.Errorf("%s: found %d of the split files train.csv, val.csv, test.csv; give all three or none", dir, found)
	}
}

// componentSplit renumbers the split files' nodes s to the largest component (newID),
// warning how many fell outside it; a split left empty is an error.
func componentSplit(dir string, s Split, newID []int32, warn func(string)) (Split, error) {
	dropped := remapSplit(&s, newID)
	for i, part := range [][]int{s.Train, s.Val, s.Test} {
		if len(part) == 0 {
			return Split{}, fmt.Errorf("%s: none of the nodes of %s.csv is in the largest connected component (LoadOptions.LargestComponent, -largest-component); load every node instead", dir, splitNames[i])
		}
	}
	if dropped > 0 && warn != nil {
		warn(fmt.Sprintf("%s: %d nodes of the split files are outside the largest connected component and left out of the splits", dir, dropped))
	}
	return s, nil
}

// findText returns dir/name, or dir/name.gz when only that exists; the error wraps
// os.ErrNotExist when neither does.
func findText(dir, name string) (string, error) {
	for _, p := range []string{filepath.Join(dir, name), filepath.Join(dir, name+".gz")} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: no %s or %s.gz: %w", dir, name, name, os.ErrNotExist)
}

// DefaultMaxBytes is LoadOptions.MaxBytes when 0, the most text a loader reads from
// one file (decompressed) and the most memory a generated graph may take: above the
// largest OGB file gexph reads (ogbn-products' node features, about 2.5 GB), below what
// would fill the memory of a workstation.
const DefaultMaxBytes = 8 << 30

// readFile opens path (decompressing it when its name ends in ".gz") and hands it to
// read, which may read at most limit bytes of text (≤ 0: DefaultMaxBytes): a longer
// file or a decompression bomb fails there with an error naming the bound, instead of
// growing until memory runs out. A path that is not a regular file (a directory, a
// named pipe, a device) is refused before it is opened (regfile.Open).
func readFile[T any](path string, limit int64, read func(r io.Reader, name string) (T, error)) (T, error) {
	var zero T
	f, _, err := regfile.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<16)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return zero, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	return read(&limitedText{r: r, left: limit, limit: limit}, path)
}

// readWhole reads the file at path into memory: at most limit bytes (≤ 0:
// DefaultMaxBytes) of a regular file; a device, pipe or directory (regfile.Open) or a
// larger file is refused, naming the path and the bound, before anything is read.
func readWhole(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	f, st, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a file may have (%w)", path, st.Size(), limit, ErrTooLarge)
	}
	return readAllLimit(f, limit)
}

// readAllLimit reads r to its end, failing (with ErrTooLarge) once more than limit
// bytes (≤ 0: DefaultMaxBytes) came: a decompression bomb stops there.
func readAllLimit(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	return io.ReadAll(&limitedText{r: r, left: limit, limit: limit})
}

// limitedText reads at most limit bytes from r; a byte more is an error.
type limitedText struct {
	r           io.Reader
	left, limit int64
}

// Read reads from r, failing once more than limit bytes would have been read.
func (l *limitedText) Read(p []byte) (int, error) {
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > l.left {
		n, l.left = int(l.left), 0
		return n, fmt.Errorf("more than the %d bytes a file may have (%w)", l.limit, ErrTooLarge)
	}
	l.left -= int64(n)
	return n, err
}

// csvReader reads comma-separated lines, skipping blank and '#' lines and a UTF-8 byte
// order mark at the start, and counts lines for error messages.
type csvReader struct {
	name   string
	sc     *bufio.Scanner
	line   int
	fields []string
	// rows counts the rows row has returned or skipped as the header.
	rows int
	// mixedLine is the line of the first row when it mixes numbers and text (so it was
	// read as data, not as a header), else 0.
	mixedLine int
}

func newCSVReader(r io.Reader, name string) *csvReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	return &csvReader{name: name, sc: sc}
}

// utf8BOM is the UTF-8 encoding of U+FEFF, which some editors write at the start of a
// text file.
const utf8BOM = "\uFEFF"

// next returns the fields of the next data line (valid until the following call), or
// io.EOF at the end. It applies no header rule; see row.
func (c *csvReader) next() ([]string, error) {
	for c.sc.Scan() {
		c.line++
		text := c.sc.Text()
		if c.line == 1 {
			if strings.HasPrefix(text, "\xff\xfe") || strings.HasPrefix(text, "\xfe\xff") {
				return nil, fmt.Errorf("%s: the file is UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8", c.name)
			}
			text = strings.TrimPrefix(text, utf8BOM)
		}
		text = strings.TrimSpace(text)
		if text == "" || text[0] == '#' {
			continue
		}
		c.fields = c.fields[:0]
		for {
			field, rest, more := strings.Cut(text, ",")
			c.fields = append(c.fields, strings.TrimSpace(field))
			if !more {
				break
			}
			text = rest
		}
		return c.fields, nil
	}
	if err := c.sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", c.name, c.line+1, err)
	}
	return nil, io.EOF
}

// row is next with the header rule: the first row is skipped as a header when none of
// its fields is a number (see isNumber); a first row with a number in it is data.
func (c *csvReader) row() ([]string, error) {
	fields, err := c.next()
	if err != nil {
		return nil, err
	}
	c.rows++
	if c.rows > 1 {
		return fields, nil
	}
	numbers := 0
	for _, f := range fields {
		if isNumber(f) {
			numbers++
		}
	}
	switch {
	case numbers == 0:
		return c.row() // the header
	case numbers < len(fields):
		c.mixedLine = c.line
	}
	return fields, nil
}

// isNumber reports whether field reads as a number (strconv.ParseFloat syntax, so "nan"
// and "inf" are numbers, and so are values too large for a float64).
func isNumber(field string) bool {
	_, err := strconv.ParseFloat(field, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

func (c *csvReader) errorf(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if c.line == c.mixedLine {
		msg += " (the first row mixes numbers and text, so it is data, not a header: a header row has no numeric field)"
	}
	return fmt.Errorf("%s:%d: %s", c.name, c.line, msg)
}

// index parses field i as a node index in [0, limit).
func (c *csvReader) index(fields []string, i, limit int) (int32, error) {
	v, err := strconv.ParseInt(fields[i], 10, 64)
	if err != nil || v < 0 || v >= int64(limit) {
		return 0, c.errorf("field %d: %q is not an index in [0, %d)", i+1, fields[i], limit)
	}
	return int32(v), nil
}

// float parses field i as a finite number.
func (c *csvReader) float(fields []string, i int) (float32, error) {
	v, err := strconv.ParseFloat(fields[i], 32)
	if err != nil {
		return 0, c.errorf("field %d: %q is not a number", i+1, fields[i])
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, c.errorf("field %d: value %s is not finite", i+1, fields[i])
	}
	return float32(v), nil
}

// label parses field i, node's label, as a class label: an integer (written "3" or
// "3.0") in [0, MaxClasses).
func (c *csvReader) label(fields []string, i, node int) (int32, error) {
	v, err := strconv.ParseFloat(fields[i], 64)
	if err == nil && v == float64(Unlabelled) {
		return Unlabelled, nil
	}
	if err != nil || !(v >= 0) || v != math.Trunc(v) {
		return 0, c.errorf("node %d: field %d: label %q is not an integer ≥ 0 (nor -1, unlabelled)", node, i+1, fields[i])
	}
	if v >= MaxClasses {
		return 0, c.errorf("node %d: field %d: label %s is not below MaxClasses = %d (labels are 0-based class indices)", node, i+1, fields[i], MaxClasses)
	}
	return int32(v), nil
}

// labelStats tracks the largest label read and where, to check it against the node
// count once that is known.
type labelStats struct {
	max, node, line int
}

func (s *labelStats) add(y int32, node, line int) {
	if node == 0 || int(y) > s.max {
		*s = labelStats{int(y), node, line}
	}
}

// check fails when the largest label is not below the n nodes read from name: the
// labels of a transductive graph are 0-based class indices, and n nodes show at most n
// classes.
func (s *labelStats) check(name string, n int) error {
	if s.max >= n {
		return fmt.Errorf("%s:%d: node %d: label %d is not below the node count %d (labels are 0-based class indices, and %d nodes hold at most %d classes)",
			name, s.line, s.node, s.max, n, n, n)
	}
	return nil
}

// edgeList is an edges.csv file: undirected edges with optional dense features.
type edgeList struct {
	src, dst []int32
	cols     int
	feat     []float32 // len(src) × cols
	lines    []int     // line of each edge, for range errors
}

// readEdgeCSV reads edges.csv rows "src,dst[,features…]".
func readEdgeCSV(r io.Reader, name string) (*edgeList, error) {
	c := newCSVReader(r, name)
	el := &edgeList{cols: -1}
	for {
		fields, err := c.row()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(fields) < 2 {
			return nil, c.errorf("%d fields, want source,destination[,features…]", len(fields))
		}
		if el.cols < 0 {
			el.cols = len(fields) - 2
		} else if len(fields)-2 != el.cols {
			return nil, c.errorf("%d fields, want %d like the first edge", len(fields), el.cols+2)
		}
		u, err := c.index(fields, 0, maxNodes)
		if err != nil {
			return nil, err
		}
		v, err := c.index(fields, 1, maxNodes)
		if err != nil {
			return nil, err
		}
		el.src, el.dst, el.lines = append(el.src, u), append(el.dst, v), append(el.lines, c.line)
		for i := 2; i < len(fields); i++ {
			x, err := c.float(fields, i)
			if err != nil {
				return nil, err
			}
			el.feat = append(el.feat, x)
		}
	}
	el.cols = max(el.cols, 0)
	return el, nil
}

// checkRange fails when an edge names a node outside [0, n).
func (el *edgeList) checkRange(name string, n int) error {
	for i := range el.src {
		if u, v := el.src[i], el.dst[i]; int(u) >= n || int(v) >= n {
			return fmt.Errorf("%s:%d: edge %d–%d names a node outside [0, %d) (the nodes file has %d rows)", name, el.lines[i], u, v, n, n)
		}
	}
	return nil
}

// collapseRepeats drops each row that repeats an earlier edge: the same node pair, in
// either direction, with the same features (as an edge list holding both directions, a
// PyG edge_index dump, has every edge twice), and tells warn how many rows it dropped,
// naming the file. A pair that repeats with other features is kept, a parallel edge,
// and warned about too.
func (el *edgeList) collapseRepeats(name string, warn func(string)) {
	order := make([]int32, len(el.src))
	for i := range order {
		order[i] = int32(i)
	}
	pair := func(i int32) (int32, int32) {
		return min(el.src[i], el.dst[i]), max(el.src[i], el.dst[i])
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		a0, a1 := pair(a)
		b0, b1 := pair(b)
		if a0 != b0 {
			return int(a0) - int(b0)
		}
		return int(a1) - int(b1)
	})
	drop := make([]bool, len(el.src))
	repeats, parallel := 0, 0
	for start := 0; start < len(order); {
		end := start + 1
		u0, u1 := pair(order[start])
		for end < len(order) {
			if v0, v1 := pair(order[end]); v0 != u0 || v1 != u1 {
				break
			}
			end++
		}
		r, p := el.markRepeats(order[start:end], drop)
		repeats, parallel, start = repeats+r, parallel+p, end
	}
	el.dropRows(drop)
	if warn == nil {
		return
	}
	if repeats > 0 {
		warn(fmt.Sprintf("%s: %d of %d rows repeat an edge listed before (the same two nodes, in either direction, with the same features), as an edge list holding both directions (a PyG edge_index dump) does; each edge is kept once and stored in both directions",
			name, repeats, len(drop)))
	}
	if parallel > 0 {
		warn(fmt.Sprintf("%s: %d rows repeat a node pair listed before with other edge features; they are kept as parallel edges", name, parallel))
	}
}

// markRepeats marks in drop the rows of group (rows of one node pair, in file order)
// whose features equal an earlier kept row's, and returns how many it marked and how
// many other rows of the group came after the first (parallel edges).
func (el *edgeList) markRepeats(group []int32, drop []bool) (repeats, parallel int) {
	c := el.cols
	row := func(i int32) []float32 { return el.feat[int(i)*c : (int(i)+1)*c] }
	for k, i := range group {
		for _, j := range group[:k] {
			if !drop[j] && slices.Equal(row(i), row(j)) {
				drop[i] = true
				repeats++
				break
			}
		}
		if !drop[i] && k > 0 {
			parallel++
		}
	}
	return repeats, parallel
}

// dropRows removes the edges marked in drop, keeping the others in order.
func (el *edgeList) dropRows(drop []bool) {
	c, out := el.cols, 0
	for i := range el.src {
		if drop[i] {
			continue
		}
		el.src[out], el.dst[out], el.lines[out] = el.src[i], el.dst[i], el.lines[i]
		copy(el.feat[out*c:(out+1)*c], el.feat[i*c:(i+1)*c])
		out++
	}
	el.src, el.dst, el.lines, el.feat = el.src[:out], el.dst[:out], el.lines[:out], el.feat[:out*c]
}

// bothDirections stores every edge in both directions (a self loop once), each copy with
// the edge's features.
func (el *edgeList) bothDirections() (src, dst []int32, feat Features) {
	c := el.cols
	for i := range el.src {
		u, v := el.src[i], el.dst[i]
		src, dst = append(src, u), append(dst, v)
		row := el.feat[i*c : (i+1)*c]
		feat.Dense = append(feat.Dense, row...)
		if u != v {
			src, dst = append(src, v), append(dst, u)
			feat.Dense = append(feat.Dense, row...)
		}
	}
	if c > 0 {
		feat.Kind, feat.Rows, feat.Cols = Dense, len(src), c
	} else {
		feat.Dense = nil
	}
	return src, dst, feat
}

// nodeTable is a nodes.csv file: labels and optional dense features.
type nodeTable struct {
	labels []int32
	feat   Features
}

// readNodeCSV reads nodes.csv rows "label[,features…]": at least one node, each label an
// integer in [0, MaxClasses) and below the number of nodes.
func readNodeCSV(r io.Reader, name string) (*nodeTable, error) {
	c := newCSVReader(r, name)
	var labels []int32
	var stats labelStats
	feat := Features{Cols: -1}
	for {
		fields, err := c.row()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if feat.Cols < 0 {
			feat.Cols = len(fields) - 1
		} else if len(fields)-1 != feat.Cols {
			return nil, c.errorf("%d fields, want %d like the first node", len(fields), feat.Cols+1)
		}
		if len(labels) == maxNodes {
			return nil, c.errorf("more than %d nodes", maxNodes)
		}
		y, err := c.label(fields, 0, len(labels))
		if err != nil {
			return nil, err
		}
		stats.add(y, len(labels), c.line)
		labels = append(labels, y)
		for i := 1; i < len(fields); i++ {
			x, err := c.float(fields, i)
			if err != nil {
				return nil, err
			}
			feat.Dense = append(feat.Dense, x)
		}
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("%s: no nodes (a graph needs at least one node)", name)
	}
	if err := stats.check(name, len(labels)); err != nil {
		return nil, err
	}
	if feat.Cols > 0 {
		feat.Kind, feat.Rows = Dense, len(labels)
	} else {
		feat = Features{}
	}
	return &nodeTable{labels, feat}, nil
}

// readIndexCSV reads one index in [0, n) per row (the first row a header when it is
// not a number) and returns them with their lines.
func readIndexCSV(r io.Reader, name string, n int) (idx, lines []int, err error) {
	c := newCSVReader(r, name)
	idx = []int{}
	for {
		fields, err := c.row()
		if err == io.EOF {
			return idx, lines, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if len(fields) != 1 {
			return nil, nil, c.errorf("%d fields, want one index", len(fields))
		}
		v, err := c.index(fields, 0, n)
		if err != nil {
			return nil, nil, err
		}
		idx, lines = append(idx, int(v)), append(lines, c.line)
	}
}

// splitFile is a split file: its node indices, each with its line.
type splitFile struct {
	name  string
	idx   []int
	lines []int
}

// readSplitFile reads a split file: one node index in [0, n) per row (the first row a
// header when it is not a number), at least one, none repeated.
func readSplitFile(r io.Reader, name string, n int) (*splitFile, error) {
	idx, lines, err := readIndexCSV(r, name, n)
	if err != nil {
		return nil, err
	}
	if len(idx) == 0 {
		return nil, fmt.Errorf("%s: no node indices: the split is empty (a split file must list at least one node; an empty test split would report a test metric of 0)", name)
	}
	firstLine := make(map[int]int, len(idx))
	for k, v := range idx {
		if first, ok := firstLine[v]; ok {
			return nil, fmt.Errorf("%s:%d: node %d repeats line %d; a split file lists each node once", name, lines[k], v, first)
		}
		firstLine[v] = lines[k]
	}
	return &splitFile{name: name, idx: idx, lines: lines}, nil
}

// checkDisjoint fails when a node of [0, n) is in two of the train, val and test split
// files, naming both files and lines.
func checkDisjoint(parts [3]*splitFile, n int) error {
	owner := make([]uint8, n) // 1 + the part holding the node, or 0
	for p, f := range parts {
		for k, i := range f.idx {
			if q := owner[i]; q != 0 && int(q-1) != p {
				o := parts[q-1]
				return fmt.Errorf("%s:%d: node %d is also in the %s split (%s:%d); the train, val and test splits must not overlap",
					f.name, f.lines[k], i, splitNames[q-1], o.name, o.lines[slices.Index(o.idx, i)])
			}
			owner[i] = uint8(p + 1)
		}
	}
	return nil
}
