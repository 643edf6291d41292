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
// 60/20/20 split of the labelled nodes drawn from seed (see LabelledSplit), which needs
// a component of at least 3 nodes. Labels are 0-based class indices in [0, MaxClasses)
// and below the number of nodes of the file's graph, or -1 (Unlabelled) for a node of no
// split; the attr_* matrix needs at least one column.
// opts.Seed draws the split; opts.AllNodes, opts.DoubledEdges and opts.SelfLoops read the
// graph as the reference code does instead (see LoadOptions). An empty name is taken
// from the file name.
func LoadGNNBenchmark(path, name string, opts LoadOptions) (*Dataset, error) {
	z, err := npy.ReadNPZFile(path)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return gnnBenchmarkFromNPZ(z, name, opts)
}

func gnnBenchmarkFromNPZ(z *npy.NPZ, name string, opts LoadOptions) (*Dataset, error) {
	adj, err := readCSR(z, "adj")
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
	attr, err := readCSR(z, "attr")
	if err != nil {
		return nil, err
	}
	if attr.cols == 0 {
		return nil, fmt.Errorf("%s: entry attr_shape: the feature matrix is %d×0, with no columns; a node feature matrix needs at least one", z.Name, attr.rows)
	}
	if attr.rows != n {
		return nil, fmt.Errorf("%s: entry attr_shape: %d feature rows for %d nodes", z.Name, attr.rows, n)
	}
	for i, v := range attr.data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("%s: entry attr_data: element %d is %v", z.Name, i, v)
		}
		// Binary features, as PyTorch Geometric reads these files (x[x > 0] = 1): the
		// Coauthor sets store keyword counts, the others are binary already.
		if v > 0 {
			attr.data[i] = 1
		}
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
	g := full
	if !opts.AllNodes {
		if g, _, err = LargestComponent(&full); err != nil {
			return nil, fmt.Errorf("%s: %w", z.Name, err)
		}
	}
	if opts.DoubledEdges {
		g.Src, g.Dst = append(g.Src, g.Src...), append(g.Dst, g.Dst...)
	}
	if opts.SelfLoops {
		for i := range int32(g.NumNodes) {
			g.Src, g.Dst = append(g.Src, i), append(g.Dst, i)
		}
	}
	if g.NumNodes < 3 {
		return nil, fmt.Errorf("%s: the largest connected component has %d node(s) (the graph has %d undirected edges), too few for a train/val/test split",
			z.Name, g.NumNodes, len(src)/2)
	}
	split, err := LabelledSplit(g.NodeLabels, 0.6, 0.2, opts.Seed)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: name, Task: NodeClassification, NumClasses: numClasses, Transductive: true,
		Graphs: []Graph{g}, Split: split}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", z.Name, err)
	}
	return d, nil
}

// csrMatrix is a sparse matrix read from the <prefix>_{data,indices,indptr,shape} entries.
type csrMatrix struct {
	rows, cols int
	indptr     []int64
	indices    []int32
	data       []float32
}

// readCSR reads and checks a CSR matrix: shape of two sizes, indptr of rows+1
// non-decreasing offsets from 0 to nnz, indices in [0, cols), one value per index.
func readCSR(z *npy.NPZ, prefix string) (*csrMatrix, error) {
	entry := func(suffix string) (*npy.Array, string, error) {
		name := prefix + "_" + suffix
		a, err := z.Array(name)
		if err == nil && len(a.Shape) != 1 {
			err = fmt.Errorf("%s: entry %s: shape %v, want one dimension", z.Name, name, a.Shape)
		}
		return a, name, err
	}
	shapeArr, shapeName, err := entry("shape")
	if err != nil {
		return nil, err
	}
	shape, err := shapeArr.Int64s()
	if err != nil {
		return nil, err
	}
	if len(shape) != 2 || shape[0] < 0 || shape[1] < 0 || shape[0] > maxNodes || shape[1] > maxNodes {
		return nil, fmt.Errorf("%s: entry %s: %v is not a valid matrix shape", z.Name, shapeName, shape)
	}
	m := &csrMatrix{rows: int(shape[0]), cols: int(shape[1])}
	indptrArr, indptrName, err := entry("indptr")
	if err != nil {
		return nil, err
	}
	if m.indptr, err = indptrArr.Int64s(); err != nil {
		return nil, err
	}
	indicesArr, indicesName, err := entry("indices")
	if err != nil {
		return nil, err
	}
	if m.indices, err = indicesArr.Int32s(); err != nil {
		return nil, err
	}
	dataArr, dataName, err := entry("data")
	if err != nil {
		return nil, err
	}
	if m.data, err = dataArr.Float32s(); err != nil {
		return nil, err
	}
	if len(m.indptr) != m.rows+1 {
		return nil, fmt.Errorf("%s: entry %s: %d offsets for %d rows, want %d", z.Name, indptrName, len(m.indptr), m.rows, m.rows+1)
	}
	if m.indptr[0] != 0 {
		return nil, fmt.Errorf("%s: entry %s: first offset is %d, want 0", z.Name, indptrName, m.indptr[0])
	}
	for r := range m.rows {
		if m.indptr[r+1] < m.indptr[r] {
			return nil, fmt.Errorf("%s: entry %s: offset %d (%d) is below offset %d (%d)", z.Name, indptrName, r+1, m.indptr[r+1], r, m.indptr[r])
		}
	}
	if nnz := m.indptr[m.rows]; nnz != int64(len(m.indices)) {
		return nil, fmt.Errorf("%s: entry %s: last offset %d but %s holds %d indices", z.Name, indptrName, nnz, indicesName, len(m.indices))
	}
	if len(m.data) != len(m.indices) {
		return nil, fmt.Errorf("%s: entry %s: %d values for %d indices", z.Name, dataName, len(m.data), len(m.indices))
	}
	for i, c := range m.indices {
		if c < 0 || int(c) >= m.cols {
			return nil, fmt.Errorf("%s: entry %s: element %d value %d outside [0, %d)", z.Name, indicesName, i, c, m.cols)
		}
	}
	return m, nil
}
