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
// named after the directory ("ogbn_arxiv" becomes "ogbn-arxiv"). Errors name the file
// and line.
func LoadOGBNode(dir string) (*Dataset, error) {
	raw := filepath.Join(dir, "raw")
	labels, err := readFile(filepath.Join(raw, "node-label.csv.gz"), readLabelColumn)
	if err != nil {
		return nil, err
	}
	n := len(labels)
	countPath := filepath.Join(raw, "num-node-list.csv.gz")
	if _, err := os.Stat(countPath); err == nil {
		counts, err := readFile(countPath, func(r io.Reader, name string) ([]int, error) {
			return readIndexCSV(r, name, maxNodes)
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
		if g.Node, err = readFile(featPath, func(r io.Reader, name string) (Features, error) {
			return readDenseCSV(r, name, n)
		}); err != nil {
			return nil, err
		}
	}
	edges, err := readFile(filepath.Join(raw, "edge.csv.gz"), func(r io.Reader, name string) (*edgeList, error) {
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
	for _, part := range []struct {
		file string
		dst  *[]int
	}{{"train.csv.gz", &d.Split.Train}, {"valid.csv.gz", &d.Split.Val}, {"test.csv.gz", &d.Split.Test}} {
		if *part.dst, err = readFile(filepath.Join(splitDir, part.file), func(r io.Reader, name string) ([]int, error) {
			return readIndexCSV(r, name, n)
		}); err != nil {
			return nil, err
		}
	}
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

// readLabelColumn reads one class label per line.
func readLabelColumn(r io.Reader, name string) ([]int32, error) {
	c := newCSVReader(r, name)
	var labels []int32
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
		y, err := c.label(fields, 0)
		if err != nil {
			return nil, err
		}
		labels = append(labels, y)
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("%s: no labels", name)
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
