package expander

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// randomInput returns an undirected G(n, p) graph stored in both directions.
func randomInput(n int, p float64, seed uint64) InputGraph {
	r := rand.New(rand.NewPCG(seed, 77))
	g := InputGraph{NumNodes: n, Seed: seed}
	for u := range n {
		for v := u + 1; v < n; v++ {
			if r.Float64() < p {
				g.Src = append(g.Src, int32(u), int32(v))
				g.Dst = append(g.Dst, int32(v), int32(u))
			}
		}
	}
	return g
}

// edgeTuple is one interaction edge with all its attributes.
type edgeTuple struct {
	src, dst int32
	typ      uint8
	virtual  int16
	local    int32
}

func tuples(h *Interaction) []edgeTuple {
	out := make([]edgeTuple, h.NumEdges())
	for e := range out {
		out[e] = edgeTuple{h.Src[e], h.Dst[e], h.Type[e], h.Virtual[e], h.LocalEdge[e]}
	}
	return out
}

func compareTuples(a, b edgeTuple) int {
	for _, d := range []int{int(a.src) - int(b.src), int(a.dst) - int(b.dst), int(a.typ) - int(b.typ),
		int(a.virtual) - int(b.virtual), int(a.local) - int(b.local)} {
		if d != 0 {
			return d
		}
	}
	return 0
}

// referenceEdges builds the interaction edges of a batch naively: per-graph Generate,
// GlobalEdges, and a map for missing reverses.
func referenceEdges(t *testing.T, graphs []InputGraph, o InteractionOptions) []edgeTuple {
	t.Helper()
	numReal := 0
	for _, g := range graphs {
		numReal += g.NumNodes
	}
	k := 0
	if o.Global {
		k = o.VirtualNodes
	}
	var out []edgeTuple
	off, eoff := int32(0), int32(0)
	for gi, g := range graphs {
		if o.Local {
			stored := map[[2]int32]bool{}
			for e := range g.Src {
				stored[[2]int32{g.Src[e], g.Dst[e]}] = true
			}
			for e := range g.Src {
				out = append(out, edgeTuple{g.Src[e] + off, g.Dst[e] + off, uint8(EdgeLocal), -1, eoff + int32(e)})
				if o.SymmetrizeLocal && !stored[[2]int32{g.Dst[e], g.Src[e]}] {
					out = append(out, edgeTuple{g.Dst[e] + off, g.Src[e] + off, uint8(EdgeLocal), -1, eoff + int32(e)})
				}
			}
		}
		if o.Expander {
			ex, err := Generate(Options{N: g.NumNodes, D: o.ExpanderDegree, Algo: o.ExpanderAlgo,
				Seed: DeriveSeed(o.Seed, g.Seed), Tol: o.Tol, MaxAttempts: o.MaxAttempts, Certify: o.Certify,
				DedupParallel: o.DedupParallel, AllowCompleteFallback: o.AllowCompleteFallback})
			if err != nil {
				t.Fatal(err)
			}
			for i := range ex.Src {
				a, b := ex.Src[i]+off, ex.Dst[i]+off
				out = append(out, edgeTuple{a, b, uint8(EdgeExpander), -1, -1}, edgeTuple{b, a, uint8(EdgeExpander), -1, -1})
			}
		}
		if k > 0 {
			src, dst, virt, err := GlobalEdges(g.NumNodes, k)
			if err != nil {
				t.Fatal(err)
			}
			id := func(v int32) int32 {
				if int(v) < g.NumNodes {
					return v + off
				}
				return int32(numReal + gi*k + int(v) - g.NumNodes)
			}
			for i := range src {
				typ := EdgeGlobalIn
				if int(src[i]) >= g.NumNodes {
					typ = EdgeGlobalOut
				}
				out = append(out, edgeTuple{id(src[i]), id(dst[i]), uint8(typ), virt[i], -1})
			}
		}
		off += int32(g.NumNodes)
		eoff += int32(len(g.Src))
	}
	return out
}

// checkLayout verifies the CSR-by-destination view and the node bookkeeping.
func checkLayout(t *testing.T, h *Interaction, graphs []InputGraph) {
	t.Helper()
	if len(h.Offsets) != h.NumNodes+1 || h.Offsets[0] != 0 || h.Offsets[h.NumNodes] != int64(h.NumEdges()) {
		t.Fatalf("offsets: len %d, first %d, last %d for %d edges", len(h.Offsets), h.Offsets[0], h.Offsets[len(h.Offsets)-1], h.NumEdges())
	}
	for v := range h.NumNodes {
		for e := h.Offsets[v]; e < h.Offsets[v+1]; e++ {
			if h.Dst[e] != int32(v) {
				t.Fatalf("edge %d in node %d's range has destination %d", e, v, h.Dst[e])
			}
		}
	}
	if len(h.NodeOffset) != len(graphs)+1 || len(h.EdgeOffset) != len(graphs)+1 || len(h.GraphOf) != h.NumNodes {
		t.Fatal("per-graph slices have the wrong length")
	}
	nodes, edges := 0, 0
	for g, in := range graphs {
		if int(h.NodeOffset[g]) != nodes || int(h.EdgeOffset[g]) != edges {
			t.Fatalf("graph %d: offsets %d/%d, want %d/%d", g, h.NodeOffset[g], h.EdgeOffset[g], nodes, edges)
		}
		for v := nodes; v < nodes+in.NumNodes; v++ {
			if h.GraphOf[v] != int32(g) {
				t.Fatalf("real node %d: GraphOf %d, want %d", v, h.GraphOf[v], g)
			}
		}
		for tt := range h.VirtualPerGraph {
			if v := h.VirtualNode(g, tt); h.GraphOf[v] != int32(g) {
				t.Fatalf("virtual node %d of graph %d: GraphOf %d", v, g, h.GraphOf[v])
			}
		}
		nodes += in.NumNodes
		edges += len(in.Src)
	}
	if h.NumReal != nodes || h.NumNodes != nodes+len(graphs)*h.VirtualPerGraph {
		t.Fatalf("NumReal %d NumNodes %d, want %d and %d", h.NumReal, h.NumNodes, nodes, nodes+len(graphs)*h.VirtualPerGraph)
	}
	for e := range h.Src {
		if h.GraphOf[h.Src[e]] != h.GraphOf[h.Dst[e]] {
			t.Fatalf("edge %d (%d → %d) joins graphs %d and %d", e, h.Src[e], h.Dst[e], h.GraphOf[h.Src[e]], h.GraphOf[h.Dst[e]])
		}
	}
}

func TestInteractionCountsByType(t *testing.T) {
	const n, d, k = 120, 6, 3
	g := randomInput(n, 0.05, 1)
	o := DefaultInteractionOptions()
	o.ExpanderDegree, o.VirtualNodes, o.Seed = d, k, 9
	h, err := BuildInteraction(g, o)
	if err != nil {
		t.Fatal(err)
	}
	c := h.Certificates[0]
	counts := [NumEdgeTypes]int{}
	for _, ty := range h.Type {
		counts[ty]++
	}
	// Input stored in both directions: nothing to add. Expander: nd directed edges less
	// two per removed self loop. Global: kn each way.
	want := [NumEdgeTypes]int{len(g.Src), n*d - 2*c.SelfLoopsRemoved, k * n, k * n}
	if counts != want || h.CountByType() != want {
		t.Fatalf("counts %v (CountByType %v), want %v", counts, h.CountByType(), want)
	}
	if h.NumNodes != n+k {
		t.Fatalf("%d nodes, want %d", h.NumNodes, n+k)
	}
	checkLayout(t, h, []InputGraph{g})
	got, ref := tuples(h), referenceEdges(t, []InputGraph{g}, o)
	slices.SortFunc(got, compareTuples)
	slices.SortFunc(ref, compareTuples)
	if !slices.Equal(got, ref) {
		t.Fatal("interaction edges differ from the reference construction")
	}
	// Components switch off independently.
	o.Expander, o.Global = false, false
	h, err = BuildInteraction(g, o)
	if err != nil || h.CountByType() != [NumEdgeTypes]int{len(g.Src), 0, 0, 0} || h.NumNodes != n {
		t.Fatalf("local only: %v nodes, counts %v, err %v", h.NumNodes, h.CountByType(), err)
	}
	o.Local, o.Expander = false, true
	h, err = BuildInteraction(g, o)
	if err != nil || h.CountByType()[EdgeLocal] != 0 || h.CountByType()[EdgeExpander] == 0 || h.Certificates == nil {
		t.Fatalf("expander only: counts %v, err %v", h.CountByType(), err)
	}
}

func TestSymmetrizeLocal(t *testing.T) {
	// Stored: 0→1 twice, 1→2, 3→3 (loop), 5→6 and 6→5, 2→4. Missing reverses: both
	// copies of 0→1, 1→2 and 2→4: four added, each pointing at the edge it reverses.
	g := InputGraph{NumNodes: 7,
		Src: []int32{0, 0, 1, 3, 5, 6, 2},
		Dst: []int32{1, 1, 2, 3, 6, 5, 4}}
	o := InteractionOptions{Local: true, SymmetrizeLocal: true}
	h, err := BuildInteraction(g, o)
	if err != nil {
		t.Fatal(err)
	}
	if h.NumEdges() != 11 {
		t.Fatalf("%d local edges, want 7 stored + 4 reverses", h.NumEdges())
	}
	added := map[[3]int32]int{}
	for e := range h.Src {
		if h.Type[e] != uint8(EdgeLocal) || h.Virtual[e] != -1 {
			t.Fatalf("edge %d has type %d virtual %d", e, h.Type[e], h.Virtual[e])
		}
		i := h.LocalEdge[e]
		if g.Src[i] == h.Src[e] && g.Dst[i] == h.Dst[e] {
			continue
		}
		if g.Src[i] != h.Dst[e] || g.Dst[i] != h.Src[e] {
			t.Fatalf("edge %d (%d→%d) neither is nor reverses input edge %d", e, h.Src[e], h.Dst[e], i)
		}
		added[[3]int32{h.Src[e], h.Dst[e], i}]++
	}
	want := map[[3]int32]int{{1, 0, 0}: 1, {1, 0, 1}: 1, {2, 1, 2}: 1, {4, 2, 6}: 1}
	if len(added) != len(want) {
		t.Fatalf("added reverses %v, want %v", added, want)
	}
	for k, c := range want {
		if added[k] != c {
			t.Fatalf("added reverses %v, want %v", added, want)
		}
	}
	// An input already stored in both directions gains nothing.
	both := randomInput(40, 0.2, 3)
	h, err = BuildInteraction(both, o)
	if err != nil || h.NumEdges() != len(both.Src) {
		t.Fatalf("symmetric input: %d edges, want %d (err %v)", h.NumEdges(), len(both.Src), err)
	}
}

func TestBatch(t *testing.T) {
	graphs := []InputGraph{
		randomInput(1, 0, 10), randomInput(3, 1, 11), randomInput(5, 0.5, 12),
		randomInput(30, 0.2, 13), randomInput(118, 0.4, 14), randomInput(7, 0.5, 15),
	}
	// One graph stored in one direction only, to exercise symmetrisation in a batch.
	half := randomInput(20, 0.3, 16)
	for e := 0; e < len(half.Src); e += 2 {
		graphs[3].Src, graphs[3].Dst = append(graphs[3].Src, half.Src[e]), append(graphs[3].Dst, half.Dst[e])
	}
	graphs[3].NumNodes = max(graphs[3].NumNodes, 20)
	for _, algo := range algorithms {
		o := DefaultInteractionOptions()
		o.ExpanderDegree, o.ExpanderAlgo, o.VirtualNodes, o.SymmetrizeLocal, o.Seed = 4, algo, 2, true, 5
		h, err := BuildBatch(graphs, o)
		if err != nil {
			t.Fatal(err)
		}
		checkLayout(t, h, graphs)
		got, ref := tuples(h), referenceEdges(t, graphs, o)
		slices.SortFunc(got, compareTuples)
		slices.SortFunc(ref, compareTuples)
		if !slices.Equal(got, ref) {
			t.Fatalf("%v: batch edges differ from the per-graph reference", algo)
		}
		for g, c := range h.Certificates {
			if c.Fallback != (graphs[g].NumNodes <= 5) {
				t.Fatalf("%v: graph %d (n=%d) fallback %v", algo, g, graphs[g].NumNodes, c.Fallback)
			}
		}
		// Same graphs in another order: each graph keeps its expander.
		rev := slices.Clone(graphs)
		slices.Reverse(rev)
		hr, err := BuildBatch(rev, o)
		if err != nil {
			t.Fatal(err)
		}
		for g := range graphs {
			if hr.Certificates[len(graphs)-1-g] != h.Certificates[g] {
				t.Fatalf("%v: graph %d's expander changed with its position in the batch", algo, g)
			}
		}
		// Determinism, and a different run seed changes the expanders.
		again, err := BuildBatch(graphs, o)
		if err != nil || !slices.Equal(tuples(again), tuples(h)) {
			t.Fatalf("%v: rebuilding gave a different batch (err %v)", algo, err)
		}
		o.Seed++
		other, err := BuildBatch(graphs, o)
		if err != nil || slices.Equal(other.Src, h.Src) {
			t.Fatalf("%v: a different seed gave the same batch (err %v)", algo, err)
		}
	}
}

func TestBatchCountsFormula(t *testing.T) {
	graphs := []InputGraph{randomInput(50, 0.1, 1), randomInput(80, 0.1, 2), randomInput(4, 1, 3)}
	o := DefaultInteractionOptions()
	o.ExpanderDegree, o.VirtualNodes, o.DedupParallel, o.Certify = 4, 3, true, false
	h, err := BuildBatch(graphs, o)
	if err != nil {
		t.Fatal(err)
	}
	var want [NumEdgeTypes]int
	for g, in := range graphs {
		c := h.Certificates[g]
		n := in.NumNodes
		want[EdgeLocal] += len(in.Src)
		if c.Fallback {
			want[EdgeExpander] += n * (n - 1)
		} else {
			want[EdgeExpander] += n*o.ExpanderDegree - 2*c.SelfLoopsRemoved - 2*c.ParallelEdges
		}
		want[EdgeGlobalIn] += o.VirtualNodes * n
		want[EdgeGlobalOut] += o.VirtualNodes * n
	}
	if h.CountByType() != want {
		t.Fatalf("counts %v, want %v", h.CountByType(), want)
	}
	if !h.Certificates[2].Fallback || h.Certificates[0].Certified {
		t.Fatalf("certificates %+v", h.Certificates)
	}
}

func TestGlobalEdges(t *testing.T) {
	const n, k = 9, 3
	src, dst, virt, err := GlobalEdges(n, k)
	if err != nil {
		t.Fatal(err)
	}
	if len(src) != 2*k*n {
		t.Fatalf("%d edges, want %d", len(src), 2*k*n)
	}
	seen := map[[2]int32]bool{}
	for e := range src {
		s, d := src[e], dst[e]
		real, vt := s, d
		if s >= n {
			real, vt = d, s
		}
		if real < 0 || real >= n || vt < n || vt >= n+k || int(virt[e]) != int(vt)-n || seen[[2]int32{s, d}] {
			t.Fatalf("edge %d: %d → %d virtual %d", e, s, d, virt[e])
		}
		seen[[2]int32{s, d}] = true
	}
	for _, c := range []struct{ n, k int }{{0, 1}, {5, -1}, {5, MaxVirtualNodes + 1}} {
		if _, _, _, err := GlobalEdges(c.n, c.k); err == nil {
			t.Errorf("GlobalEdges(%d, %d) gave no error", c.n, c.k)
		}
	}
}

func TestInteractionErrors(t *testing.T) {
	good := randomInput(20, 0.3, 1)
	cases := []struct {
		name, want string
		graphs     []InputGraph
		edit       func(*InteractionOptions)
	}{
		{"negative k", "VirtualNodes=-1", nil, func(o *InteractionOptions) { o.VirtualNodes = -1 }},
		{"negative k, global off", "VirtualNodes=-2", nil, func(o *InteractionOptions) { o.Global, o.VirtualNodes = false, -2 }},
		{"global without nodes", "VirtualNodes ≥ 1", nil, func(o *InteractionOptions) { o.VirtualNodes = 0 }},
		{"odd degree", "d=5", nil, func(o *InteractionOptions) { o.ExpanderDegree = 5 }},
		{"degree zero", "d=0", nil, func(o *InteractionOptions) { o.ExpanderDegree = 0 }},
		{"unknown algorithm", "unknown algorithm", nil, func(o *InteractionOptions) { o.ExpanderAlgo = 3 }},
		{"no attempts", "MaxAttempts=0", nil, func(o *InteractionOptions) { o.MaxAttempts = 0 }},
		{"nothing enabled", "no component", nil, func(o *InteractionOptions) { o.Local, o.Expander, o.Global = false, false, false }},
		{"empty batch", "empty batch", []InputGraph{}, nil},
		{"no nodes", "graph 1: node count 0", []InputGraph{good, {NumNodes: 0}}, nil},
		{"edge out of range", "graph 0: edge 1 (2 → 5) outside [0, 5)", []InputGraph{{NumNodes: 5, Src: []int32{0, 2}, Dst: []int32{1, 5}}}, nil},
		{"negative edge", "edge 0 (-1 → 1)", []InputGraph{{NumNodes: 5, Src: []int32{-1}, Dst: []int32{1}}}, nil},
		{"length mismatch", "2 edge sources but 1 destinations", []InputGraph{{NumNodes: 5, Src: []int32{0, 1}, Dst: []int32{1}}}, nil},
		{"tiny graph without fallback", "graph 1: degree d=4 must be below the node count n=3",
			[]InputGraph{good, {NumNodes: 3}}, func(o *InteractionOptions) { o.AllowCompleteFallback = false }},
	}
	for _, c := range cases {
		o := DefaultInteractionOptions()
		if c.edit != nil {
			c.edit(&o)
		}
		graphs := c.graphs
		if graphs == nil {
			graphs = []InputGraph{good}
		}
		if _, err := BuildBatch(graphs, o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if EdgeGlobalOut.String() != "global-out" || EdgeType(9).String() != "EdgeType(9)" {
		t.Error("EdgeType names")
	}
}

// TestPaddedEdgesPadWithTheFirstPaddingRow checks the padded edge lists: the edges'
// shifted endpoints and source codes first, then padding edges that join the first
// padding row to itself with the expander type's code; too few slots is an error.
func TestPaddedEdgesPadWithTheFirstPaddingRow(t *testing.T) {
	opts := DefaultInteractionOptions()
	opts.ExpanderDegree, opts.VirtualNodes = 2, 1
	h, err := BuildBatch([]InputGraph{{NumNodes: 5, Src: []int32{0, 1}, Dst: []int32{1, 2}, Seed: 1}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	m := h.NumEdges()
	src, dst, source, err := h.PaddedEdges(8, m+3)
	if err != nil {
		t.Fatal(err)
	}
	ends, ende, _ := h.PaddedEndpoints(8)
	codes, _ := h.EdgeSources()
	for e := range m {
		if src[e] != ends[e] || dst[e] != ende[e] || source[e] != codes[e] {
			t.Fatalf("edge %d: (%d, %d, %d), want (%d, %d, %d)", e, src[e], dst[e], source[e], ends[e], ende[e], codes[e])
		}
	}
	for e := m; e < m+3; e++ {
		if src[e] != 5 || dst[e] != 5 || source[e] != LearnedSource(EdgeExpander, 0) {
			t.Errorf("padding edge %d: (%d, %d, %d), want (5, 5, %d)", e, src[e], dst[e], source[e], LearnedSource(EdgeExpander, 0))
		}
	}
	if _, _, _, err := h.PaddedEdges(8, m-1); err == nil {
		t.Error("fewer edge slots than edges gave no error")
	}
}

// TestEdgeBoundIsTheEdgesBeforeCleanUp holds EdgeBound to the interaction graphs it
// bounds: it equals their edges plus both directions of every self loop (and, with
// DedupParallel, every surplus parallel edge) the expander's draw removed, for local
// edges alone, symmetrized, with expanders (the complete fallback included) and with
// virtual nodes.
func TestEdgeBoundIsTheEdgesBeforeCleanUp(t *testing.T) {
	directed := InputGraph{NumNodes: 9, Src: []int32{0, 1, 2, 2, 5}, Dst: []int32{1, 0, 3, 4, 5}}
	loops := 0
	for i, o := range []InteractionOptions{
		{Local: true},
		{Local: true, SymmetrizeLocal: true},
		DefaultInteractionOptions(),
		{Local: true, Expander: true, ExpanderDegree: 6, Tol: DefaultTol, MaxAttempts: 1, DedupParallel: true, AllowCompleteFallback: true, Global: true, VirtualNodes: 3},
		{Expander: true, ExpanderDegree: 8, Tol: DefaultTol, MaxAttempts: 3, Certify: true, AllowCompleteFallback: true},
	} {
		for seed, g := range []InputGraph{randomInput(5, 0.5, 1), randomInput(40, 0.2, 2), randomInput(120, 0.05, 3), directed} {
			g.Seed = uint64(seed)
			h, err := BuildInteraction(g, o)
			if err != nil {
				t.Fatal(err)
			}
			removed := 0
			for _, c := range h.Certificates {
				removed += c.SelfLoopsRemoved
				if o.DedupParallel {
					removed += c.ParallelEdges
				}
			}
			loops += removed
			if got, want := EdgeBound(g, o), h.NumEdges()+2*removed; got != want {
				t.Errorf("options %d, graph %d: bound %d, want %d edges + 2·%d removed", i, seed, got, h.NumEdges(), removed)
			}
		}
	}
	if loops == 0 {
		t.Error("no draw removed a self loop: the bound's slack was not tested")
	}
}
