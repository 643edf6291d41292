package data

import (
	"fmt"
)

// UndirectedEdges returns the simple undirected graph underlying the directed edges
// src[i] → dst[i] on numNodes nodes: self loops and duplicates are dropped and every
// remaining edge {u, v} is stored in both directions, sorted by (source, destination).
func UndirectedEdges(numNodes int, src, dst []int32) (usrc, udst []int32, err error) {
	if err := checkEdges(numNodes, src, dst); err != nil {
		return nil, nil, err
	}
	m := 0
	for i := range src {
		if src[i] != dst[i] {
			m += 2
		}
	}
	// Both directions of every non-loop edge, then a two-pass counting sort: by
	// destination, then stably by source, gives (source, destination) order.
	a, b := make([]int32, m), make([]int32, m)
	k := 0
	for i := range src {
		if u, v := src[i], dst[i]; u != v {
			a[k], b[k], a[k+1], b[k+1] = u, v, v, u
			k += 2
		}
	}
	s1, d1 := make([]int32, m), make([]int32, m)
	pos := countingSort(nil, numNodes, b, a, d1, s1) // by destination
	countingSort(pos, numNodes, s1, d1, a, b)        // stably by source
	// Drop duplicates.
	k = 0
	for i := range a {
		if i > 0 && a[i] == a[i-1] && b[i] == b[i-1] {
			continue
		}
		a[k], b[k] = a[i], b[i]
		k++
	}
	return a[:k:k], b[:k:k], nil
}

// countingSort writes (key, val) pairs to (outKey, outVal), stably sorted by key in
// [0, n), counting in pos (reused when it holds n+1 entries, else allocated) and
// returning it for the next call.
func countingSort(pos []int, n int, key, val, outKey, outVal []int32) []int {
	if cap(pos) < n+1 {
		pos = make([]int, n+1)
	}
	pos = pos[:n+1]
	clear(pos)
	for _, k := range key {
		pos[k+1]++
	}
	for i := range n {
		pos[i+1] += pos[i]
	}
	for i, k := range key {
		p := pos[k]
		outKey[p], outVal[p] = k, val[i]
		pos[k]++
	}
	return pos
}

func checkEdges(numNodes int, src, dst []int32) error {
	if numNodes < 0 || numNodes > maxNodes {
		return fmt.Errorf("node count %d outside [0, %d]", numNodes, maxNodes)
	}
	if len(src) != len(dst) {
		return fmt.Errorf("edge index: %d sources but %d destinations", len(src), len(dst))
	}
	for i := range src {
		if s, t := src[i], dst[i]; s < 0 || int(s) >= numNodes || t < 0 || int(t) >= numNodes {
			return fmt.Errorf("edge index: edge %d (%d → %d) outside [0, %d)", i, s, t, numNodes)
		}
	}
	return nil
}

// maxNodes is the largest node count int32 node indices allow.
const maxNodes = 1<<31 - 1

// ConnectedComponents labels the weakly connected components of the graph on numNodes
// nodes with edges src[i] → dst[i]: comp[v] is v's component, numbered 0, 1, … in order
// of each component's smallest node, and sizes[c] the size of component c.
func ConnectedComponents(numNodes int, src, dst []int32) (comp []int32, sizes []int, err error) {
	if err := checkEdges(numNodes, src, dst); err != nil {
		return nil, nil, err
	}
	// Union-find with path halving; the root of a set is its smallest node.
	parent := make([]int32, numNodes)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(v int32) int32 {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	for i := range src {
		ru, rv := find(src[i]), find(dst[i])
		if ru != rv {
			parent[max(ru, rv)] = min(ru, rv)
		}
	}
	comp = make([]int32, numNodes)
	for v := range numNodes {
		r := find(int32(v))
		if r == int32(v) {
			comp[v] = int32(len(sizes))
			sizes = append(sizes, 0)
		} else {
			comp[v] = comp[r] // r < v was labelled already
		}
		sizes[comp[v]]++
	}
	return comp, sizes, nil
}

// LargestComponent returns the subgraph of g induced by its largest (weakly) connected
// component — the one with the smallest node on a tie — with nodes renumbered in their
// original order, and the original index of each kept node.
func LargestComponent(g *Graph) (Graph, []int32, error) {
	comp, sizes, err := ConnectedComponents(g.NumNodes, g.Src, g.Dst)
	if err != nil {
		return Graph{}, nil, err
	}
	if len(sizes) == 0 {
		return Graph{}, nil, fmt.Errorf("largest component: empty graph")
	}
	best := 0
	for c, s := range sizes {
		if s > sizes[best] {
			best = c
		}
	}
	nodes := make([]int32, 0, sizes[best])
	for v, c := range comp {
		if int(c) == best {
			nodes = append(nodes, int32(v))
		}
	}
	sub, err := InducedSubgraph(g, nodes)
	return sub, nodes, err
}

// InducedSubgraph returns the subgraph of g on the given distinct nodes: node nodes[i]
// becomes node i, and edges between kept nodes are kept in their order with their
// features. Node features, labels and original ids (NodeIDs) follow their nodes;
// graph-level fields are copied.
func InducedSubgraph(g *Graph, nodes []int32) (Graph, error) {
	newID := make([]int32, g.NumNodes)
	for i := range newID {
		newID[i] = -1
	}
	for i, v := range nodes {
		if v < 0 || int(v) >= g.NumNodes {
			return Graph{}, fmt.Errorf("induced subgraph: node %d outside [0, %d)", v, g.NumNodes)
		}
		if newID[v] >= 0 {
			return Graph{}, fmt.Errorf("induced subgraph: node %d listed twice", v)
		}
		newID[v] = int32(i)
	}
	if err := checkEdges(g.NumNodes, g.Src, g.Dst); err != nil {
		return Graph{}, fmt.Errorf("induced subgraph: %w", err)
	}
	var kept []int32
	for e := range g.Src {
		if newID[g.Src[e]] >= 0 && newID[g.Dst[e]] >= 0 {
			kept = append(kept, int32(e))
		}
	}
	sub := Graph{
		NumNodes: len(nodes),
		Src:      make([]int32, len(kept)),
		Dst:      make([]int32, len(kept)),
		Label:    g.Label,
	}
	for i, e := range kept {
		sub.Src[i], sub.Dst[i] = newID[g.Src[e]], newID[g.Dst[e]]
	}
	var err error
	if sub.Node, err = g.Node.SelectRows(nodes); err != nil {
		return Graph{}, fmt.Errorf("induced subgraph: node features: %w", err)
	}
	if sub.Edge, err = g.Edge.SelectRows(kept); err != nil {
		return Graph{}, fmt.Errorf("induced subgraph: edge features: %w", err)
	}
	if g.NodeLabels != nil {
		if len(g.NodeLabels) != g.NumNodes {
			return Graph{}, fmt.Errorf("induced subgraph: %d node labels for %d nodes", len(g.NodeLabels), g.NumNodes)
		}
		sub.NodeLabels = make([]int32, len(nodes))
		for i, v := range nodes {
			sub.NodeLabels[i] = g.NodeLabels[v]
		}
	}
	if g.Targets != nil {
		sub.Targets = append([]float32(nil), g.Targets...)
	}
	if g.NodeIDs != nil {
		sub.NodeIDs = make([]int64, len(nodes))
		for i, v := range nodes {
			sub.NodeIDs[i] = g.NodeIDs[v]
		}
	}
	return sub, nil
}

// AddDenseTo adds f's values to dst, which holds f's Rows×Cols values row-major (or
// more: the rest is left alone): the way a dense or sparse (CSR) matrix is written dense;
// categorical codes and absent features add nothing.
func (f *Features) AddDenseTo(dst []float32) {
	switch f.Kind {
	case Dense:
		for i, v := range f.Dense {
			dst[i] += v
		}
	case Sparse:
		for r := range f.Rows {
			row := dst[r*f.Cols : (r+1)*f.Cols]
			for p := f.Indptr[r]; p < f.Indptr[r+1]; p++ {
				row[f.Indices[p]] += f.Values[p]
			}
		}
	}
}

// ToDense returns dense or sparse features as a dense matrix (the same values); other
// kinds are returned as they are.
func (f *Features) ToDense() Features {
	if f.Kind != Sparse {
		return *f
	}
	out := Features{Kind: Dense, Rows: f.Rows, Cols: f.Cols, Dense: make([]float32, f.Rows*f.Cols)}
	f.AddDenseTo(out.Dense)
	return out
}

// ToSparse returns dense or sparse features as a CSR matrix of the non-zero values (the
// same matrix); other kinds are returned as they are.
func (f *Features) ToSparse() Features {
	if f.Kind != Dense {
		return *f
	}
	out := Features{Kind: Sparse, Rows: f.Rows, Cols: f.Cols, Indptr: make([]int64, 1, f.Rows+1)}
	for r := range f.Rows {
		for c, v := range f.Dense[r*f.Cols : (r+1)*f.Cols] {
			if v != 0 {
				out.Indices, out.Values = append(out.Indices, int32(c)), append(out.Values, v)
			}
		}
		out.Indptr = append(out.Indptr, int64(len(out.Indices)))
	}
	return out
}

// SelectRows returns the features of the given rows, in that order (a row may repeat);
// an index outside [0, Rows) is an error.
func (f *Features) SelectRows(rows []int32) (Features, error) {
	out := Features{Kind: f.Kind, Rows: len(rows), Cols: f.Cols}
	if f.Kind == NoFeatures {
		return out, nil
	}
	if err := f.checkLayout(); err != nil {
		return Features{}, err
	}
	for _, r := range rows {
		if r < 0 || int(r) >= f.Rows {
			return Features{}, fmt.Errorf("row %d outside [0, %d)", r, f.Rows)
		}
	}
	c := f.Cols
	switch f.Kind {
	case Dense:
		out.Dense = make([]float32, len(rows)*c)
		for i, r := range rows {
			copy(out.Dense[i*c:(i+1)*c], f.Dense[int(r)*c:(int(r)+1)*c])
		}
	case Categorical:
		out.Categorical = make([]int32, len(rows)*c)
		for i, r := range rows {
			copy(out.Categorical[i*c:(i+1)*c], f.Categorical[int(r)*c:(int(r)+1)*c])
		}
		out.Cardinality = append([]int(nil), f.Cardinality...)
	case Sparse:
		out.Indptr = make([]int64, len(rows)+1)
		for i, r := range rows {
			out.Indptr[i+1] = out.Indptr[i] + f.Indptr[r+1] - f.Indptr[r]
		}
		nnz := out.Indptr[len(rows)]
		out.Indices, out.Values = make([]int32, nnz), make([]float32, nnz)
		for i, r := range rows {
			copy(out.Indices[out.Indptr[i]:out.Indptr[i+1]], f.Indices[f.Indptr[r]:f.Indptr[r+1]])
			copy(out.Values[out.Indptr[i]:out.Indptr[i+1]], f.Values[f.Indptr[r]:f.Indptr[r+1]])
		}
	}
	return out, nil
}

// checkLayout checks that the storage matches Rows and Cols (but not the values), so
// that rows can be sliced safely.
func (f *Features) checkLayout() error {
	if f.Rows < 0 || f.Cols < 0 {
		return fmt.Errorf("negative shape %d×%d", f.Rows, f.Cols)
	}
	switch f.Kind {
	case Dense:
		if len(f.Dense) != f.Rows*f.Cols {
			return fmt.Errorf("%d values for %d×%d", len(f.Dense), f.Rows, f.Cols)
		}
	case Categorical:
		if len(f.Categorical) != f.Rows*f.Cols {
			return fmt.Errorf("%d codes for %d×%d", len(f.Categorical), f.Rows, f.Cols)
		}
	case Sparse:
		if len(f.Indptr) != f.Rows+1 || f.Indptr[0] != 0 || f.Indptr[f.Rows] != int64(len(f.Indices)) || len(f.Indices) != len(f.Values) {
			return fmt.Errorf("malformed CSR (indptr %d entries for %d rows, %d indices, %d values)", len(f.Indptr), f.Rows, len(f.Indices), len(f.Values))
		}
		for r := range f.Rows {
			if f.Indptr[r+1] < f.Indptr[r] {
				return fmt.Errorf("malformed CSR: indptr decreases at row %d", r)
			}
		}
	default:
		return fmt.Errorf("unknown kind %d", f.Kind)
	}
	return nil
}
