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
	"strconv"
	"strings"
)

// LoadEdgeListDir loads a user's own graph for transductive node classification from a
// directory of comma-separated text files (each may also be gzip-compressed, named with
// a further ".gz"):
//
//   - nodes.csv (required): row i describes node i: its class label (an integer ≥ 0)
//     followed by any number of numeric node features, the same number on every row.
//   - edges.csv (required): one undirected edge per row: two node indices (0-based)
//     followed by any number of numeric edge features, the same number on every row. Each
//     edge is stored in both directions with its features; a self loop is stored once.
//   - train.csv, val.csv, test.csv (optional, all three or none): one node index per row.
//     Without them the nodes are split 60/20/20 at random, drawn from seed.
//
// In every file, blank lines and lines starting with '#' are ignored, and a first line
// whose first field is not a number is taken as a header and skipped. Features must be
// finite. Errors name the file and line.
func LoadEdgeListDir(dir string, seed uint64) (*Dataset, error) {
	path, err := findText(dir, "nodes.csv")
	if err != nil {
		return nil, err
	}
	nodes, err := readFile(path, readNodeCSV)
	if err != nil {
		return nil, err
	}
	labels, n := nodes.labels, len(nodes.labels)
	if path, err = findText(dir, "edges.csv"); err != nil {
		return nil, err
	}
	el, err := readFile(path, func(r io.Reader, name string) (*edgeList, error) {
		el, err := readEdgeCSV(r, name)
		if err == nil {
			err = el.checkRange(name, n)
		}
		return el, err
	})
	if err != nil {
		return nil, err
	}
	g := Graph{NumNodes: n, NodeLabels: labels, Node: nodes.feat}
	g.Src, g.Dst, g.Edge = el.bothDirections()
	numClasses := 0
	for _, y := range labels {
		numClasses = max(numClasses, int(y)+1)
	}
	d := &Dataset{Name: filepath.Base(filepath.Clean(dir)), Task: NodeClassification,
		NumClasses: numClasses, Transductive: true, Graphs: []Graph{g}}
	var parts [3][]int
	found := 0
	for i, part := range []string{"train.csv", "val.csv", "test.csv"} {
		path, err := findText(dir, part)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		found++
		if parts[i], err = readFile(path, func(r io.Reader, name string) ([]int, error) {
			return readIndexCSV(r, name, n)
		}); err != nil {
			return nil, err
		}
	}
	switch found {
	case 0:
		if d.Split, err = RandomSplit(n, 0.6, 0.2, seed); err != nil {
			return nil, err
		}
	case 3:
		d.Split = Split{Train: parts[0], Val: parts[1], Test: parts[2]}
	default:
		return nil, fmt.Errorf("%s: found %d of the split files train.csv, val.csv, test.csv; give all three or none", dir, found)
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return d, nil
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

// readFile opens path (decompressing it when its name ends in ".gz") and hands it to read.
func readFile[T any](path string, read func(r io.Reader, name string) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
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
	return read(r, path)
}

// csvReader reads comma-separated lines, skipping blank and '#' lines, and counts lines
// for error messages.
type csvReader struct {
	name   string
	sc     *bufio.Scanner
	line   int
	fields []string
}

func newCSVReader(r io.Reader, name string) *csvReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	return &csvReader{name: name, sc: sc}
}

// next returns the fields of the next data line (valid until the following call), or
// io.EOF at the end.
func (c *csvReader) next() ([]string, error) {
	for c.sc.Scan() {
		c.line++
		text := strings.TrimSpace(c.sc.Text())
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

func (c *csvReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", c.name, c.line, fmt.Sprintf(format, args...))
}

// isHeader reports whether fields, the first data line, are column names.
func isHeader(fields []string) bool {
	_, err := strconv.ParseFloat(fields[0], 64)
	return err != nil
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

// label parses field i as a class label: a non-negative integer (written "3" or "3.0").
func (c *csvReader) label(fields []string, i int) (int32, error) {
	v, err := strconv.ParseFloat(fields[i], 64)
	if err != nil || v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, c.errorf("field %d: label %q is not an integer ≥ 0", i+1, fields[i])
	}
	return int32(v), nil
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
	for first := true; ; first = false {
		fields, err := c.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if first && isHeader(fields) {
			continue
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

// readNodeCSV reads nodes.csv rows "label[,features…]".
func readNodeCSV(r io.Reader, name string) (*nodeTable, error) {
	c := newCSVReader(r, name)
	var labels []int32
	feat := Features{Cols: -1}
	for first := true; ; first = false {
		fields, err := c.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if first && isHeader(fields) {
			continue
		}
		if feat.Cols < 0 {
			feat.Cols = len(fields) - 1
		} else if len(fields)-1 != feat.Cols {
			return nil, c.errorf("%d fields, want %d like the first node", len(fields), feat.Cols+1)
		}
		if len(labels) == maxNodes {
			return nil, c.errorf("more than %d nodes", maxNodes)
		}
		y, err := c.label(fields, 0)
		if err != nil {
			return nil, err
		}
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
		return nil, fmt.Errorf("%s: no nodes", name)
	}
	if feat.Cols > 0 {
		feat.Kind, feat.Rows = Dense, len(labels)
	} else {
		feat = Features{}
	}
	return &nodeTable{labels, feat}, nil
}

// readIndexCSV reads one index in [0, n) per line.
func readIndexCSV(r io.Reader, name string, n int) ([]int, error) {
	c := newCSVReader(r, name)
	idx := []int{}
	for first := true; ; first = false {
		fields, err := c.next()
		if err == io.EOF {
			return idx, nil
		}
		if err != nil {
			return nil, err
		}
		if first && isHeader(fields) {
			continue
		}
		if len(fields) != 1 {
			return nil, c.errorf("%d fields, want one index", len(fields))
		}
		v, err := c.index(fields, 0, n)
		if err != nil {
			return nil, err
		}
		idx = append(idx, int(v))
	}
}
