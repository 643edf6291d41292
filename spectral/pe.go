package spectral

import (
	"fmt"
	"sort"
)

// MaxLapPENodes is the largest graph ComputeLapPE accepts: it diagonalises a dense
// n×n matrix (O(n²) memory, O(n³) time).
const MaxLapPENodes = 8192

// LapPEOptions selects the Laplacian and which eigenpairs ComputeLapPE keeps.
type LapPEOptions struct {
	// Normalized selects the symmetric normalised Laplacian I − D^{-1/2} A D^{-1/2}
	// (with L_ii = 1 for isolated nodes, as PyG's get_laplacian); false selects the
	// combinatorial Laplacian D − A (GraphGPS's laplacian_norm "none").
	Normalized bool
	// IncludeTrivial keeps the eigenvectors of eigenvalue 0 (one per connected
	// component), as GraphGPS does; false skips them and keeps the k smallest
	// non-trivial eigenpairs.
	IncludeTrivial bool
}

// LapPE holds Laplacian eigenpairs of one graph for positional encodings.
type LapPE struct {
	// K is the number of eigenpair slots.
	K int
	// NumValid is the number of slots holding real eigenpairs (≤ K); the other slots are
	// zero padding (small graphs).
	NumValid int
	// Vecs holds n×K values, row-major: Vecs[i*K+c] is entry i of eigenvector c (unit
	// L2 norm, signed as DenseEigen signs them).
	Vecs []float32
	// Vals holds the K eigenvalues, ascending (clamped at 0).
	Vals []float32
}

// ComputeLapPE returns the k smallest eigenpairs of the Laplacian of the graph with n
// nodes and the given edges, the Laplacian positional encodings of graph transformers.
// Edges are taken as undirected: (u, v) and (v, u) are the same edge, duplicates are
// merged and self loops ignored (SimpleGraph), so A is a symmetric 0/1 matrix. The
// eigenpairs come from the dense solver of DenseEigen (float64), and the zero-eigenvalue
// (trivial) pairs are identified exactly by counting connected components.
func ComputeLapPE(n int, src, dst []int32, k int, opts LapPEOptions) (LapPE, error) {
	if k <= 0 {
		return LapPE{}, fmt.Errorf("lap pe: k must be positive, got %d", k)
	}
	if n > MaxLapPENodes {
		return LapPE{}, fmt.Errorf("lap pe: graph has %d nodes, more than MaxLapPENodes=%d", n, MaxLapPENodes)
	}
	g, err := SimpleGraph(n, src, dst)
	if err != nil {
		return LapPE{}, fmt.Errorf("lap pe: %w", err)
	}
	pe := LapPE{K: k, Vecs: make([]float32, n*k), Vals: make([]float32, k)}
	if n == 0 {
		return pe, nil
	}
	kind := Laplacian
	if opts.Normalized {
		kind = NormalizedLaplacian
	}
	vals, vecs, err := eigenWithSigns(denseMatrix(g, kind), n, kind)
	if err != nil {
		return LapPE{}, fmt.Errorf("lap pe: %w", err)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] < vals[order[b]] })
	skip := 0
	if !opts.IncludeTrivial {
		// Eigenvalue 0 has one eigenvector per connected component; an isolated node of
		// the normalised Laplacian (diagonal 1) contributes eigenvalue 1 instead.
		skip = Components(g)
		if opts.Normalized {
			for u := range n {
				if g.Degree(u) == 0 {
					skip--
				}
			}
		}
	}
	pe.NumValid = min(k, n-skip)
	for c := range pe.NumValid {
		col := order[skip+c]
		pe.Vals[c] = float32(max(0, vals[col]))
		for i := range n {
			pe.Vecs[i*k+c] = float32(vecs.At(i, col))
		}
	}
	return pe, nil
}

// SimpleGraph returns the simple undirected graph on n nodes of the given edges: (u, v)
// and (v, u) are the same edge, duplicates are merged and self loops dropped. Indices
// must lie in [0, n).
func SimpleGraph(n int, src, dst []int32) (*Graph, error) {
	if err := checkEdgeList(n, src, dst); err != nil {
		return nil, err
	}
	seen := make(map[[2]int32]bool, len(src))
	var us, vs []int32
	for i := range src {
		u, v := min(src[i], dst[i]), max(src[i], dst[i])
		if u == v || seen[[2]int32{u, v}] {
			continue
		}
		seen[[2]int32{u, v}] = true
		us, vs = append(us, u), append(vs, v)
	}
	return FromEdges(n, us, vs)
}

// Components returns the number of connected components of g, isolated nodes
// included.
func Components(g *Graph) int {
	if g.N == 0 {
		return 0
	}
	s := newBFS(g.N)
	count := 0
	for u := range g.N {
		if s.dist[u] >= 0 {
			continue
		}
		count++
		// A fresh search would reset the previous component's marks: keep them by
		// forgetting its queue first.
		s.queue = s.queue[:0]
		s.run(g, u)
	}
	return count
}

// ComputeRWSE returns random-walk structural encodings, n×steps values row-major: entry
// (i, k−1) is diag(P^k)_ii, the probability that a random walk from node i is back at i
// after k steps, for k = 1..steps. P = D⁻¹A with A the directed adjacency of the edges
// as given (duplicates add up, self loops count) and D the out-degrees; a node without
// out-edges has a zero row, as in GraphGPS. Exact (float64 propagation from each node,
// touching only the nodes reached).
func ComputeRWSE(n int, src, dst []int32, steps int) ([]float32, error) {
	if err := checkEdgeList(n, src, dst); err != nil {
		return nil, fmt.Errorf("rwse: %w", err)
	}
	if steps <= 0 {
		return nil, fmt.Errorf("rwse: steps must be positive, got %d", steps)
	}
	// Out-edges in CSR form.
	offsets := make([]int, n+1)
	for _, u := range src {
		offsets[u+1]++
	}
	for i := range n {
		offsets[i+1] += offsets[i]
	}
	targets := make([]int32, len(src))
	next := append([]int(nil), offsets[:n]...)
	for i, u := range src {
		targets[next[u]] = dst[i]
		next[u]++
	}
	out := make([]float32, n*steps)
	cur, nxt := make([]float64, n), make([]float64, n)
	inNext := make([]bool, n)
	var curNodes, nextNodes []int32
	for s := range n {
		cur[s] = 1
		curNodes = append(curNodes[:0], int32(s))
		for k := range steps {
			nextNodes = nextNodes[:0]
			for _, u := range curNodes {
				p := cur[u]
				cur[u] = 0
				deg := offsets[u+1] - offsets[u]
				if deg == 0 || p == 0 {
					continue
				}
				share := p / float64(deg)
				for _, v := range targets[offsets[u]:offsets[u+1]] {
					if !inNext[v] {
						inNext[v] = true
						nextNodes = append(nextNodes, v)
					}
					nxt[v] += share
				}
			}
			for _, v := range nextNodes {
				inNext[v] = false
			}
			out[s*steps+k] = float32(nxt[s])
			cur, nxt = nxt, cur
			curNodes, nextNodes = nextNodes, curNodes
		}
		for _, u := range curNodes {
			cur[u] = 0
		}
	}
	return out, nil
}

// checkEdgeList validates an edge list on n nodes.
func checkEdgeList(n int, src, dst []int32) error {
	if n < 0 {
		return fmt.Errorf("negative node count %d", n)
	}
	if len(src) != len(dst) {
		return fmt.Errorf("%d sources but %d destinations", len(src), len(dst))
	}
	for i := range src {
		if src[i] < 0 || int(src[i]) >= n || dst[i] < 0 || int(dst[i]) >= n {
			return fmt.Errorf("edge %d (%d → %d) out of range [0, %d)", i, src[i], dst[i], n)
		}
	}
	return nil
}
