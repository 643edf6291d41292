package data

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// LoadOGBNode loads an Open Graph Benchmark node property prediction data set with one
// label per node (such as ogbn-arxiv) from its directory as OGB distributes it:
//
//   - raw/edge.csv.gz: one edge "source,destination" per line;
//   - raw/node-label.csv.gz: one class label per line, one line per node;
//   - raw/node-feat.csv.gz (optional): the node's features per line;
//   - raw/num-node-list.csv.gz (optional): the number of nodes;
//   - split/<name>/{train,valid,test}.csv.gz: one node index per line, where <name> (such
//     as "time" for ogbn-arxiv) is the only directory under split/.
//
// Edges are made undirected, as graph transformers use these graphs: self loops and
// duplicates are dropped and every edge is stored in both directions. The data set is
// named after the directory ("ogbn_arxiv" becomes "ogbn-arxiv"). The files are read as
// LoadEdgeListDir reads its own (a UTF-8 byte order mark is dropped, blank and '#' lines
// are skipped), but only the split files may start with a header row. A label is a 0-based
// class index in [0, MaxClasses) and below the number of nodes; a graph without edges is
// valid; each split file must list at least one node, none twice, and no node may be in
// two splits. Errors name the file and line. A file of more than opts.MaxBytes of text
// (decompressed; 0: DefaultMaxBytes) is refused; no other field of opts is read.
func LoadOGBNode(dir string, opts LoadOptions) (*Dataset, error) {
	limit := opts.MaxBytes
	raw := filepath.Join(dir, "raw")
	labels, err := readFile(filepath.Join(raw, "node-label.csv.gz"), limit, readLabelColumn)
	if err != nil {
		return nil, err
	}
	n := len(labels)
	countPath := filepath.Join(raw, "num-node-list.csv.gz")
	if _, err := os.Stat(countPath); err == nil {
		counts, err := readFile(countPath, limit, func(r io.Reader, name string) ([]int, error) {
			counts, _, err := readIndexCSV(r, name, maxNodes)
			return counts, err
		})
		if err != nil {
			return nil, err
		}
		if len(counts) != 1 || counts[0] != n {
			return nil, fmt.Errorf("%s: node counts %v, but %s has %d labels", countPath, counts, filepath.Join(raw, "node-label.csv.gz"), n)
		}
	}
	g := Graph{NumNodes: n, NodeLabels: labels}
	featPath := filepath.Join(raw, "node-feat.csv.gz")
	if _, err := os.Stat(featPath); err == nil {
		if g.Node, err = readFile(featPath, limit, func(r io.Reader, name string) (Features, error) {
			return readDenseCSV(r, name, n)
		}); err != nil {
			return nil, err
		}
	}
	edges, err := readFile(filepath.Join(raw, "edge.csv.gz"), limit, func(r io.Reader, name string) (*edgeList, error) {
		return readPairCSV(r, name, n)
	})
	if err != nil {
		return nil, err
	}
	if g.Src, g.Dst, err = UndirectedEdges(n, edges.src, edges.dst); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	numClasses := 0
	for _, y := range labels {
		numClasses = max(numClasses, int(y)+1)
	}
	name := strings.ReplaceAll(filepath.Base(filepath.Clean(dir)), "_", "-")
	d := &Dataset{Name: name, Task: NodeClassification, NumClasses: numClasses, Transductive: true,
		Graphs: []Graph{g}}
	splitDir, err := ogbSplitDir(dir)
	if err != nil {
		return nil, err
	}
	var parts [3]*splitFile
	for i, file := range []string{"train.csv.gz", "valid.csv.gz", "test.csv.gz"} {
		if parts[i], err = readFile(filepath.Join(splitDir, file), limit, func(r io.Reader, name string) (*splitFile, error) {
			return readSplitFile(r, name, n)
		}); err != nil {
			return nil, err
		}
	}
	if err := checkDisjoint(parts, n); err != nil {
		return nil, err
	}
	d.Split = Split{Train: parts[0].idx, Val: parts[1].idx, Test: parts[2].idx}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return d, nil
}

// ogbSplitDir returns the one directory under dir/split.
func ogbSplitDir(dir string) (string, error) {
	splitRoot := filepath.Join(dir, "split")
	entries, err := os.ReadDir(splitRoot)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) != 1 {
		slices.Sort(names)
		return "", fmt.Errorf("%s: want exactly one split directory, found %d %v", splitRoot, len(names), names)
	}
	return filepath.Join(splitRoot, names[0]), nil
}

// readLabelColumn reads one class label per line: at least one, each an integer in
// [0, MaxClasses) and below the number of labels (of nodes).
func readLabelColumn(r io.Reader, name string) ([]int32, error) {
	c := newCSVReader(r, name)
	var labels []int32
	var stats labelStats
	for {
		fields, err := c.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(fields) != 1 {
			return nil, c.errorf("%d fields, want one label (multi-task labels are not supported)", len(fields))
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
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("%s: no labels (a graph needs at least one node)", name)
	}
	if err := stats.check(name, len(labels)); err != nil {
		return nil, err
	}
	return labels, nil
}

// readDenseCSV reads n rows of the same number of finite numbers.
func readDenseCSV(r io.Reader, name string, n int) (Features, error) {
	c := newCSVReader(r, name)
	f := Features{Kind: Dense, Rows: n, Cols: -1}
	rows := 0
	for {
		fields, err := c.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Features{}, err
		}
		if f.Cols < 0 {
			f.Cols = len(fields)
			f.Dense = make([]float32, 0, n*f.Cols)
		} else if len(fields) != f.Cols {
			return Features{}, c.errorf("%d features, want %d like the first row", len(fields), f.Cols)
		}
		if rows == n {
			return Features{}, c.errorf("more feature rows than the %d nodes", n)
		}
		rows++
		for i := range fields {
			x, err := c.float(fields, i)
			if err != nil {
				return Features{}, err
			}
			f.Dense = append(f.Dense, x)
		}
	}
	if rows == 0 {
		return Features{}, fmt.Errorf("%s: no feature rows, so no feature columns; remove the file for a graph without node features, or give one row per node (%d)", name, n)
	}
	if rows != n {
		return Features{}, fmt.Errorf("%s: %d feature rows for %d nodes", name, rows, n)
	}
	return f, nil
}

// readPairCSV reads lines "u,v" of node indices in [0, n).
func readPairCSV(r io.Reader, name string, n int) (*edgeList, error) {
	c := newCSVReader(r, name)
	el := &edgeList{}
	for {
		fields, err := c.next()
		if err == io.EOF {
			return el, nil
		}
		if err != nil {
			return nil, err
		}
		if len(fields) != 2 {
			return nil, c.errorf("%d fields, want source,destination", len(fields))
		}
		u, err := c.index(fields, 0, n)
		if err != nil {
			return nil, err
		}
		v, err := c.index(fields, 1, n)
		if err != nil {
			return nil, err
		}
		el.src, el.dst = append(el.src, u), append(el.dst, v)
	}
}
