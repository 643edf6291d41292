package data

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/gexph/gexph/data/npy"
)

// LoadGNNBenchmark loads a transductive node classification data set in the npz format of
// the gnn-benchmark suite (Shchur et al., "Pitfalls of GNN evaluation": Amazon Computers
// and Photo, Coauthor CS and Physics, Cora, CiteSeer) from a .npz file or a .zip holding
// one. The graph is built as the Exphormer paper uses it: edges made undirected (stored
// in both directions) without self loops or duplicates, reduced to its largest connected
// component with nodes renumbered in their original order. Node features are the sparse
// attr_* matrix made binary, every positive entry set to 1, as PyTorch Geometric (on
// which the paper's code runs) reads these files: the Coauthor sets store keyword counts
// (CS up to 10 and more), the other sets are binary already. The split is a random
// 60/20/20 split of the labelled nodes drawn from opts.Seed (see LabelledSplit), which needs
// a component of at least 3 nodes. Labels are 0-based class indices in [0, MaxClasses)
// and below the number of nodes of the file's graph, or -1 (Unlabelled) for a node of no
// split; the attr_* matrix needs at least one column.
// The adj_* and attr_* matrices are read as scipy reads them (see readSparse): CSR by
// default, CSC or COO when an adj_format or attr_format entry says so, indices in any
// order and of any integer type, duplicate entries summed; every stored entry of adj is
// an edge whatever its value, as scipy's tocoo (and so PyG) gives them.
// opts.AllNodes, opts.DoubledEdges and opts.SelfLoops read the graph as the reference
// code does instead, and opts.NormalizeFeatures normalises the features (see
// LoadOptions). LoadGNNBenchmark is how the data sets known by name load: it turns on
// opts.BinaryFeatures and opts.LargestComponent; LoadNPZ reads a file as given. The data
// set is named after the file (Load names a set known by name by that name).
func LoadGNNBenchmark(path string, opts LoadOptions) (*Dataset, error) {
	opts.BinaryFeatures, opts.LargestComponent = true, true
	return LoadNPZ(path, opts)
}

// LoadNPZ loads a transductive node classification data set from a .npz file (or a .zip
// holding one) in the gnn-benchmark layout (adj_*, attr_*, labels; see LoadGNNBenchmark
// for the entries and their checks), as Load reads npz:PATH: the features and nodes as
// given, edges made undirected without self loops or duplicates, unless opts asks for
// BinaryFeatures, LargestComponent, DoubledEdges, SelfLoops or NormalizeFeatures; the
// data set's Transforms list those applied. opts.Seed draws the split. Labels that look
// like node ids are reported to opts.Warn. The data set is named after the file.
func LoadNPZ(path string, opts LoadOptions) (*Dataset, error) {
	z, err := npy.ReadNPZFile(path)
	if err != nil {
		return nil, err
	}
	return gnnBenchmarkFromNPZ(z, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), opts)
}

func gnnBenchmarkFromNPZ(z *npy.NPZ, name string, opts LoadOptions) (*Dataset, error) {
	adj, err := readSparse(z, "adj")
	if err != nil {
		return nil, err
	}
	n := adj.rows
	if adj.cols != n {
		return nil, fmt.Errorf("%s: entry adj_shape: adjacency is %d×%d, not square", z.Name, adj.rows, adj.cols)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: entry adj_shape: graph has no nodes", z.Name)
	}
	attr, err := readSparse(z, "attr")
	if err != nil {
		return nil, err
	}
	if err := checkFeatures(attr, z.Name, opts.BinaryFeatures); err != nil {
		return nil, err
	}
	if opts.NormalizeFeatures {
		if err := normalizeRows(attr, z.Name); err != nil {
			return nil, err
		}
	}
	if attr.cols == 0 {
		return nil, fmt.Errorf("%s: entry attr_shape: the feature matrix is %d×0, with no columns; a node feature matrix needs at least one", z.Name, attr.rows)
	}
	if attr.rows != n {
		return nil, fmt.Errorf("%s: entry attr_shape: %d feature rows for %d nodes", z.Name, attr.rows, n)
	}
	labelArr, err := z.Array("labels")
	if err != nil {
		return nil, err
	}
	if len(labelArr.Shape) != 1 || labelArr.Len() != n {
		return nil, fmt.Errorf("%s: entry labels: shape %v, want (%d,) (one label per node)", z.Name, labelArr.Shape, n)
	}
	labels, err := labelArr.Int32s()
	if err != nil {
		return nil, err
	}
	numClasses := 0
	for i, y := range labels {
		switch {
		case y == Unlabelled:
			continue
		case y < 0:
			return nil, fmt.Errorf("%s: entry labels: node %d has negative label %d (only -1, unlabelled, is allowed)", z.Name, i, y)
		case y >= MaxClasses:
			return nil, fmt.Errorf("%s: entry labels: node %d has label %d, not below MaxClasses = %d (labels are 0-based class indices)", z.Name, i, y, MaxClasses)
		case int(y) >= n:
			return nil, fmt.Errorf("%s: entry labels: node %d has label %d, not below the node count %d (labels are 0-based class indices, and %d nodes hold at most %d classes)", z.Name, i, y, n, n, n)
		}
		numClasses = max(numClasses, int(y)+1)
	}
	warnLabels(labels, z.Name+": entry labels", opts.Warn)
	src := make([]int32, len(adj.indices))
	for r := range n {
		for k := adj.indptr[r]; k < adj.indptr[r+1]; k++ {
			src[k] = int32(r)
		}
	}
	src, dst, err := UndirectedEdges(n, src, adj.indices)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", z.Name, err)
	}
	full := Graph{
		NumNodes: n, Src: src, Dst: dst, NodeLabels: labels,
		Node: Features{Kind: Sparse, Rows: n, Cols: attr.cols, Indptr: attr.indptr,
			Indices: attr.indices, Values: attr.data},
	}
	var transforms []string
	if opts.BinaryFeatures {
		transforms = append(transforms, TransformBinaryFeatures)
	}
	if opts.NormalizeFeatures {
		transforms = append(transforms, TransformNormalizedFeatures)
	}
	g := full
	if opts.LargestComponent && !opts.AllNodes {
		var t string
		if g, t, err = largestComponent(&full); err != nil {
			return nil, fmt.Errorf("%s: %w", z.Name, err)
		}
		transforms = append(transforms, t)
	}
	transforms = append(transforms, referenceEdges(&g, opts)...)
	if g.NumNodes < 3 {
		return nil, fmt.Errorf("%s: the largest connected component has %d node(s) (the graph has %d undirected edges), too few for a train/val/test split",
			z.Name, g.NumNodes, len(src)/2)
	}
	split, err := LabelledSplit(g.NodeLabels, 0.6, 0.2, opts.Seed)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: name, Task: NodeClassification, NumClasses: numClasses, Transductive: true,
		Graphs: []Graph{g}, Split: split, Transforms: transforms}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", z.Name, err)
	}
	return d, nil
}

// normalizeRows divides each row of the feature matrix m by the sum of its values where
// that exceeds 1, x / max(Σ x, 1), as PyTorch Geometric's T.NormalizeFeatures does to a
// non-negative matrix; a negative value is refused with an error naming the archive,
// row and column.
func normalizeRows(m *csrMatrix, archive string) error {
	for r := range m.rows {
		lo, hi := m.indptr[r], m.indptr[r+1]
		sum := 0.0
		for k := lo; k < hi; k++ {
			if m.data[k] < 0 {
				return fmt.Errorf("%s: entry attr_data: row %d, column %d is %v: normalize_features divides non-negative features by their sum (PyG's NormalizeFeatures would subtract the minimum from every entry first)",
					archive, r, m.indices[k], m.data[k])
			}
			sum += float64(m.data[k])
		}
		if sum <= 1 {
			continue
		}
		for k := lo; k < hi; k++ {
			m.data[k] = float32(float64(m.data[k]) / sum)
		}
	}
	return nil
}

// checkFeatures checks that every value of the feature matrix m is finite (an error
// names the archive, row and column) and, with binary, makes m binary as PyTorch
// Geometric reads these files (x[x > 0] = 1 on the dense matrix): the Coauthor sets
// store keyword counts, the others are binary already. Negative values stay; zero values
// (explicit zeros, duplicates that cancel) are dropped, being no feature of the dense
// matrix.
func checkFeatures(m *csrMatrix, archive string, binary bool) error {
	out := 0
	for r := range m.rows {
		start := out
		for k := m.indptr[r]; k < m.indptr[r+1]; k++ {
			v := m.data[k]
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s: entry attr_data: row %d, column %d is %v", archive, r, m.indices[k], v)
			}
			if v == 0 {
				continue
			}
			if binary && v > 0 {
				v = 1
			}
			m.indices[out], m.data[out] = m.indices[k], v
			out++
		}
		m.indptr[r] = int64(start)
	}
	m.indptr[m.rows] = int64(out)
	m.indices, m.data = m.indices[:out], m.data[:out]
	return nil
}
