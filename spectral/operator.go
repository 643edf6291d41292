package spectral

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
)

// MatrixKind names a symmetric matrix built from a Graph.
type MatrixKind int

const (
	// Adjacency is A, with A[u][v] the number of stored entries v in row u; a self loop
	// therefore contributes 2 to A[u][u], so every row of A sums to the degree.
	Adjacency MatrixKind = iota
	// Laplacian is L = D − A with D the diagonal degree matrix.
	Laplacian
	// NormalizedLaplacian is I − D^-1/2 A D^-1/2. An isolated node (degree 0) has an all
	// zero row and column in D^-1/2 A D^-1/2, so it contributes the eigenvalue 1 (the
	// convention of PyG's get_laplacian(normalization="sym") used by Laplacian positional
	// encodings).
	NormalizedLaplacian
)

// String returns the kind's name: "adjacency", "laplacian" or "normalized-laplacian".
func (k MatrixKind) String() string {
	switch k {
	case Adjacency:
		return "adjacency"
	case Laplacian:
		return "laplacian"
	case NormalizedLaplacian:
		return "normalized-laplacian"
	}
	return fmt.Sprintf("MatrixKind(%d)", int(k))
}

func (k MatrixKind) valid() error {
	if k < Adjacency || k > NormalizedLaplacian {
		return fmt.Errorf("spectral: unknown matrix kind %d", int(k))
	}
	return nil
}

// minChunkEntries is the least number of adjacency entries worth a goroutine of its own.
const minChunkEntries = 1 << 15

// operator applies a MatrixKind of a graph to vectors without forming the matrix; rows
// are split into chunks of about equal entry counts that run on separate goroutines.
type operator struct {
	g       *Graph
	kind    MatrixKind
	invSqrt []float64 // 1/sqrt(deg), 0 for isolated nodes; NormalizedLaplacian only
	bounds  []int     // chunk c covers rows bounds[c]..bounds[c+1]
}

func newOperator(g *Graph, kind MatrixKind) (*operator, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if err := kind.valid(); err != nil {
		return nil, err
	}
	op := &operator{g: g, kind: kind}
	if kind == NormalizedLaplacian {
		op.invSqrt = make([]float64, g.N)
		for u := range g.N {
			if d := g.Degree(u); d > 0 {
				op.invSqrt[u] = 1 / math.Sqrt(float64(d))
			}
		}
	}
	nnz := len(g.Adj)
	chunks := min(runtime.GOMAXPROCS(0), nnz/minChunkEntries+1)
	op.bounds = make([]int, chunks+1)
	for c := 1; c < chunks; c++ {
		target := int64(nnz) * int64(c) / int64(chunks)
		op.bounds[c] = sort.Search(g.N, func(u int) bool { return g.Offsets[u] >= target })
	}
	op.bounds[chunks] = g.N
	return op, nil
}

// apply sets y = M x and returns the dot product x·y, summed in a fixed order.
func (op *operator) apply(x, y []float64) float64 {
	chunks := len(op.bounds) - 1
	if chunks == 1 {
		return op.applyRows(x, y, 0, op.g.N)
	}
	partial := make([]float64, chunks)
	var wg sync.WaitGroup
	for c := 1; c < chunks; c++ {
		wg.Go(func() { partial[c] = op.applyRows(x, y, op.bounds[c], op.bounds[c+1]) })
	}
	partial[0] = op.applyRows(x, y, op.bounds[0], op.bounds[1])
	wg.Wait()
	s := 0.0
	for _, p := range partial {
		s += p
	}
	return s
}

func (op *operator) applyRows(x, y []float64, lo, hi int) (xy float64) {
	off, adj := op.g.Offsets, op.g.Adj
	switch op.kind {
	case Adjacency:
		for u := lo; u < hi; u++ {
			s := 0.0
			for _, v := range adj[off[u]:off[u+1]] {
				s += x[v]
			}
			y[u] = s
			xy += x[u] * s
		}
	case Laplacian:
		for u := lo; u < hi; u++ {
			s := 0.0
			for _, v := range adj[off[u]:off[u+1]] {
				s += x[v]
			}
			y[u] = float64(off[u+1]-off[u])*x[u] - s
			xy += x[u] * y[u]
		}
	case NormalizedLaplacian:
		inv := op.invSqrt
		for u := lo; u < hi; u++ {
			s := 0.0
			for _, v := range adj[off[u]:off[u+1]] {
				s += x[v] * inv[v]
			}
			y[u] = x[u] - inv[u]*s
			xy += x[u] * y[u]
		}
	}
	return xy
}

// checkGraph rejects a nil or empty graph and one that fails Validate.
func checkGraph(g *Graph) error {
	if g == nil {
		return fmt.Errorf("spectral: nil graph")
	}
	if g.N <= 0 {
		return fmt.Errorf("spectral: empty graph (%d nodes)", g.N)
	}
	return g.Validate()
}
