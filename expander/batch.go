package expander

import (
	"fmt"
	"math"
)

// BuildBatch builds the interaction graph of the disjoint union of graphs (see
// Interaction for the node and edge layout). Graph g's expander is drawn with seed
// DeriveSeed(opts.Seed, graphs[g].Seed); a graph with n ≤ ExpanderDegree+1 nodes gets
// the complete graph K_n when AllowCompleteFallback is set and is an error otherwise
// when n ≤ ExpanderDegree. Time and memory are O(total nodes + total edges), apart from
// certification when Certify is set (which Draws.BuildBatch runs once per graph).
func BuildBatch(graphs []InputGraph, opts InteractionOptions) (*Interaction, error) {
	return buildBatch(graphs, opts, nil)
}

// buildBatch is BuildBatch with the expanders remembered in draws (nil: none).
func buildBatch(graphs []InputGraph, opts InteractionOptions, draws *Draws) (*Interaction, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if len(graphs) == 0 {
		return nil, fmt.Errorf("expander: empty batch")
	}
	h, err := Layout(graphs, opts)
	if err != nil {
		return nil, err
	}
	var parts batchEdges
	if opts.Local && opts.SymmetrizeLocal {
		parts.addReverses(graphs)
	}
	if opts.Expander {
		if err := parts.addExpanders(h, graphs, opts, draws); err != nil {
			return nil, err
		}
	}
	offsets := parts.countInEdges(h, graphs, opts.Local)
	parts.place(h, graphs, opts.Local, offsets)
	return h, nil
}

// Layout checks the graphs and lays out the batch's nodes as BuildBatch does, without
// drawing any edge: each graph's real nodes in order (graph g's from NodeOffset[g], its
// input edges from EdgeOffset[g]), then every graph's virtual nodes (VirtualNodes per
// graph with Global). It is the one layout of a batch: a batch whose attention does
// not run over H reads its offsets from it too.
func Layout(graphs []InputGraph, opts InteractionOptions) (*Interaction, error) {
	k := 0
	if opts.Global {
		k = opts.VirtualNodes
	}
	numGraphs := len(graphs)
	h := &Interaction{
		NumGraphs: numGraphs, VirtualPerGraph: k,
		NodeOffset: make([]int32, numGraphs+1), EdgeOffset: make([]int32, numGraphs+1),
	}
	realNodes, inputEdges := 0, 0
	for g := range graphs {
		if err := validateInput(&graphs[g]); err != nil {
			return nil, fmt.Errorf("expander: graph %d: %w", g, err)
		}
		if opts.Expander {
			if err := validateSize(graphs[g].NumNodes, opts.ExpanderDegree, opts.AllowCompleteFallback); err != nil {
				return nil, fmt.Errorf("expander: graph %d: %w", g, err)
			}
		}
		realNodes += graphs[g].NumNodes
		inputEdges += len(graphs[g].Src)
		if realNodes+numGraphs*k > math.MaxInt32 || inputEdges > math.MaxInt32 {
			return nil, fmt.Errorf("expander: batch exceeds the int32 index range at graph %d (%d nodes, %d input edges)", g, realNodes, inputEdges)
		}
		h.NodeOffset[g+1] = int32(realNodes)
		h.EdgeOffset[g+1] = int32(inputEdges)
	}
	h.NumReal = realNodes
	h.NumNodes = realNodes + numGraphs*k
	return h, nil
}

// batchEdges holds the edges a batch adds to its input edges: the missing reverses of
// local edges (graph-local input edge indices, graph g's at rev[revOff[g]:revOff[g+1]])
// and the expander edges (batch node ids, graph g's at expOff[g]:expOff[g+1]).
type batchEdges struct {
	rev, revOff    []int32
	expSrc, expDst []int32
	expOff         []int
}

// addReverses finds the reverse of every input edge that lacks one.
func (b *batchEdges) addReverses(graphs []InputGraph) {
	b.revOff = make([]int32, len(graphs)+1)
	var s symScratch
	for g := range graphs {
		b.rev = s.appendMissingReverses(b.rev, &graphs[g])
		b.revOff[g+1] = int32(len(b.rev))
	}
}

// addExpanders draws every graph's expander (seeded by the options' seed and the
// graph's), through draws (nil: none), and records its certificate in h.
func (b *batchEdges) addExpanders(h *Interaction, graphs []InputGraph, opts InteractionOptions, draws *Draws) error {
	b.expOff = make([]int, len(graphs)+1)
	h.Certificates = make([]Certificate, len(graphs))
	var gen generator
	for g := range graphs {
		eo := Options{
			N: graphs[g].NumNodes, D: opts.ExpanderDegree, Algo: opts.ExpanderAlgo,
			Seed: DeriveSeed(opts.Seed, graphs[g].Seed), Tol: opts.Tol, MaxAttempts: opts.MaxAttempts,
			Certify: opts.Certify, DedupParallel: opts.DedupParallel,
			AllowCompleteFallback: opts.AllowCompleteFallback,
		}
		var src, dst []int32
		if useComplete(eo.N, eo.D, eo.AllowCompleteFallback) {
			src, dst = completeGraph(eo.N)
			h.Certificates[g] = completeCertificate(&eo)
		} else {
			best, cert, err := gen.generateWith(draws, &eo)
			if err != nil {
				return fmt.Errorf("expander: graph %d: %w", g, err)
			}
			src, dst = best.src, best.dst
			h.Certificates[g] = cert
		}
		off := h.NodeOffset[g]
		for i := range src {
			b.expSrc = append(b.expSrc, src[i]+off)
			b.expDst = append(b.expDst, dst[i]+off)
		}
		b.expOff[g+1] = len(b.expSrc)
	}
	return nil
}

// reverses returns graph g's missing reverses (none when there are none to add).
func (b *batchEdges) reverses(g int) []int32 {
	if b.revOff == nil {
		return nil
	}
	return b.rev[b.revOff[g]:b.revOff[g+1]]
}

// expanderEdges returns the range of graph g's expander edges.
func (b *batchEdges) expanderEdges(g int) (from, to int) {
	if b.expOff == nil {
		return 0, 0
	}
	return b.expOff[g], b.expOff[g+1]
}

// countInEdges returns the offsets of every node's incoming edges: node v's edges will
// be v's slots offsets[v]:offsets[v+1] (a counting sort by destination).
func (b *batchEdges) countInEdges(h *Interaction, graphs []InputGraph, local bool) []int64 {
	k := h.VirtualPerGraph
	offsets := make([]int64, h.NumNodes+1)
	for g := range graphs {
		in := &graphs[g]
		off := h.NodeOffset[g]
		if local {
			for _, v := range in.Dst {
				offsets[int(v+off)+1]++
			}
			for _, e := range b.reverses(g) {
				offsets[int(in.Src[e]+off)+1]++
			}
		}
		if k > 0 {
			for v := h.NodeOffset[g]; v < h.NodeOffset[g+1]; v++ {
				offsets[int(v)+1] += int64(k)
			}
			for t := range k {
				offsets[int(h.VirtualNode(g, t))+1] += int64(in.NumNodes)
			}
		}
	}
	for i := range b.expSrc {
		offsets[int(b.expSrc[i])+1]++
		offsets[int(b.expDst[i])+1]++
	}
	for v := 1; v <= h.NumNodes; v++ {
		offsets[v] += offsets[v-1]
	}
	return offsets
}

// place puts every edge into its destination's slots (stably, graph by graph: local
// edges, their reverses, expander edges, virtual-node edges) and fills h's edge arrays.
func (b *batchEdges) place(h *Interaction, graphs []InputGraph, local bool, offsets []int64) {
	total := offsets[h.NumNodes]
	f := filler{
		next: make([]int64, h.NumNodes),
		src:  make([]int32, total), dst: make([]int32, total), typ: make([]uint8, total),
		virtual: make([]int16, total), local: make([]int32, total),
	}
	copy(f.next, offsets)
	h.GraphOf = make([]int32, h.NumNodes)
	for g := range graphs {
		in := &graphs[g]
		off, eoff := h.NodeOffset[g], h.EdgeOffset[g]
		for v := off; v < h.NodeOffset[g+1]; v++ {
			h.GraphOf[v] = int32(g)
		}
		if local {
			for e := range in.Src {
				f.put(in.Src[e]+off, in.Dst[e]+off, EdgeLocal, -1, eoff+int32(e))
			}
			for _, e := range b.reverses(g) {
				f.put(in.Dst[e]+off, in.Src[e]+off, EdgeLocal, -1, eoff+e)
			}
		}
		from, to := b.expanderEdges(g)
		for i := from; i < to; i++ {
			f.put(b.expSrc[i], b.expDst[i], EdgeExpander, -1, -1)
			f.put(b.expDst[i], b.expSrc[i], EdgeExpander, -1, -1)
		}
		for t := range h.VirtualPerGraph {
			vt := h.VirtualNode(g, t)
			h.GraphOf[vt] = int32(g)
			for v := off; v < h.NodeOffset[g+1]; v++ {
				f.put(v, vt, EdgeGlobalIn, int16(t), -1)
			}
			for v := off; v < h.NodeOffset[g+1]; v++ {
				f.put(vt, v, EdgeGlobalOut, int16(t), -1)
			}
		}
	}
	h.Src, h.Dst, h.Type, h.Virtual, h.LocalEdge, h.Offsets = f.src, f.dst, f.typ, f.virtual, f.local, offsets
}

// validateInput checks one input graph's node count and edge indices.
func validateInput(g *InputGraph) error {
	if g.NumNodes < 1 {
		return fmt.Errorf("node count %d must be at least 1", g.NumNodes)
	}
	if g.NumNodes > math.MaxInt32 {
		return fmt.Errorf("node count %d exceeds the int32 index range", g.NumNodes)
	}
	if len(g.Src) != len(g.Dst) {
		return fmt.Errorf("%d edge sources but %d destinations", len(g.Src), len(g.Dst))
	}
	n := int32(g.NumNodes)
	for e := range g.Src {
		if s, t := g.Src[e], g.Dst[e]; s < 0 || s >= n || t < 0 || t >= n {
			return fmt.Errorf("edge %d (%d → %d) outside [0, %d)", e, s, t, n)
		}
	}
	return nil
}

// filler places edges into their destination's slot range.
type filler struct {
	next    []int64
	src     []int32
	dst     []int32
	typ     []uint8
	virtual []int16
	local   []int32
}

func (f *filler) put(s, d int32, t EdgeType, virtual int16, local int32) {
	p := f.next[d]
	f.next[d]++
	f.src[p], f.dst[p], f.typ[p], f.virtual[p], f.local[p] = s, d, uint8(t), virtual, local
}

// symScratch holds buffers for finding missing reverse edges, reused across graphs.
type symScratch struct {
	outOff, inOff  []int32
	outAdj, inEdge []int32
	mark           []int32
	missing        []bool
}

// appendMissingReverses appends to rev, in increasing order, the indices e of g's edges
// u → v such that no edge v → u is stored. O(n + m): the out-neighbours of each node v
// are stamped, then v's incoming edges are checked against the stamps.
func (s *symScratch) appendMissingReverses(rev []int32, g *InputGraph) []int32 {
	n, m := g.NumNodes, len(g.Src)
	s.outOff, s.outAdj = bucketBy(s.outOff, s.outAdj, n, g.Src, g.Dst, false)
	s.inOff, s.inEdge = bucketBy(s.inOff, s.inEdge, n, g.Dst, nil, true)
	s.mark = resize(s.mark, n)
	for i := range s.mark {
		s.mark[i] = -1
	}
	s.missing = resizeBool(s.missing, m)
	clear(s.missing)
	found := false
	for v := range int32(n) {
		for _, w := range s.outAdj[s.outOff[v]:s.outOff[v+1]] {
			s.mark[w] = v
		}
		for _, e := range s.inEdge[s.inOff[v]:s.inOff[v+1]] {
			if s.mark[g.Src[e]] != v {
				s.missing[e] = true
				found = true
			}
		}
	}
	if found {
		for e, miss := range s.missing {
			if miss {
				rev = append(rev, int32(e))
			}
		}
	}
	return rev
}

// bucketBy groups the m = len(keys) items by key in [0, n) (stable counting sort) and
// returns the n+1 bucket offsets and the items: vals[e] for each e, or e itself when
// indices is set.
func bucketBy(off, items []int32, n int, keys, vals []int32, indices bool) ([]int32, []int32) {
	off = resize(off, n+1)
	clear(off)
	items = resize(items, len(keys))
	for _, k := range keys {
		off[k+1]++
	}
	for v := 1; v <= n; v++ {
		off[v] += off[v-1]
	}
	for e, k := range keys {
		if indices {
			items[off[k]] = int32(e)
		} else {
			items[off[k]] = vals[e]
		}
		off[k]++
	}
	// off[v] now ends bucket v; shift back to starts.
	copy(off[1:], off[:n])
	off[0] = 0
	return off, items
}
