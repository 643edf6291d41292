package spectral

import "fmt"

// Graph is an undirected simple or multi graph on the nodes 0..N-1 in compressed
// sparse row form. Every undirected edge {u, v} appears twice, once in the row of u and
// once in the row of v; a self loop {u, u} appears twice in the row of u.
//
// Neighbours of node u are Adj[Offsets[u]:Offsets[u+1]]. Memory is O(N + |E|).
type Graph struct {
	// N is the number of nodes.
	N int
	// Offsets has N+1 entries: row u spans Adj[Offsets[u]:Offsets[u+1]].
	Offsets []int64
	// Adj lists the neighbours of every node, row after row.
	Adj []int32
}

// FromEdges builds a Graph on n nodes from undirected edges given once each as
// (src[i], dst[i]); both directions are stored. It fails when an index is out of range
// or the slices differ in length.
func FromEdges(n int, src, dst []int32) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("spectral: negative node count %d", n)
	}
	if len(src) != len(dst) {
		return nil, fmt.Errorf("spectral: %d sources but %d destinations", len(src), len(dst))
	}
	deg := make([]int64, n+1)
	for i := range src {
		u, v := src[i], dst[i]
		if u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return nil, fmt.Errorf("spectral: edge %d (%d, %d) out of range [0, %d)", i, u, v, n)
		}
		deg[u+1]++
		deg[v+1]++
	}
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	adj := make([]int32, deg[n])
	next := make([]int64, n)
	copy(next, deg[:n])
	for i := range src {
		u, v := src[i], dst[i]
		adj[next[u]] = v
		next[u]++
		adj[next[v]] = u
		next[v]++
	}
	return &Graph{N: n, Offsets: deg, Adj: adj}, nil
}

// Degree returns the number of entries in row u (a self loop counts twice).
func (g *Graph) Degree(u int) int { return int(g.Offsets[u+1] - g.Offsets[u]) }

// Neighbors returns the row of u; the slice aliases the graph's storage.
func (g *Graph) Neighbors(u int) []int32 { return g.Adj[g.Offsets[u]:g.Offsets[u+1]] }

// NumEdges returns the number of undirected edges (half the stored entries).
func (g *Graph) NumEdges() int { return len(g.Adj) / 2 }

// Validate checks the CSR arrays: N+1 non-decreasing offsets from 0 to len(Adj) and every
// neighbour in [0, N). It does not check that the rows are symmetric.
func (g *Graph) Validate() error {
	if g.N < 0 || len(g.Offsets) != g.N+1 || g.Offsets[0] != 0 || g.Offsets[g.N] != int64(len(g.Adj)) {
		return fmt.Errorf("spectral: malformed graph: %d offsets for %d nodes and %d entries",
			len(g.Offsets), g.N, len(g.Adj))
	}
	for u := range g.N {
		if g.Offsets[u+1] < g.Offsets[u] {
			return fmt.Errorf("spectral: malformed graph: offsets decrease at node %d", u)
		}
	}
	for i, v := range g.Adj {
		if v < 0 || int(v) >= g.N {
			return fmt.Errorf("spectral: malformed graph: entry %d is node %d, outside [0, %d)", i, v, g.N)
		}
	}
	return nil
}

// DegreeRange returns the least and the largest degree; both are 0 for an empty graph.
func (g *Graph) DegreeRange() (lo, hi int) {
	for u := range g.N {
		d := g.Degree(u)
		if u == 0 || d < lo {
			lo = d
		}
		hi = max(hi, d)
	}
	return lo, hi
}
