package expander

import (
	"slices"
	"strings"
	"testing"
)

// TestEdgeTypes checks the numbering of the learned edge types: expander edges and,
// for each of k virtual nodes, the edges into and out of it get distinct numbers that
// fill [0, NumLearnedEdgeTypes(k)); local edges have none.
func TestEdgeTypes(t *testing.T) {
	seen := map[int32]bool{LearnedEdgeType(EdgeExpander, 0): true}
	if got := LearnedEdgeType(EdgeExpander, 2); got != 0 {
		t.Errorf("expander edges: type %d with virtual 2, want 0 (virtual ignored)", got)
	}
	if got := LearnedEdgeType(EdgeLocal, 1); got != -1 {
		t.Errorf("local edges: type %d, want −1", got)
	}
	for k := range 3 {
		for _, ty := range []int32{LearnedEdgeType(EdgeGlobalIn, k), LearnedEdgeType(EdgeGlobalOut, k)} {
			if seen[ty] || ty < 0 || int(ty) >= NumLearnedEdgeTypes(3) {
				t.Errorf("edge type %d (virtual node %d) repeated or out of [0, %d)", ty, k, NumLearnedEdgeTypes(3))
			}
			seen[ty] = true
		}
	}
	if len(seen) != NumLearnedEdgeTypes(3) {
		t.Errorf("%d distinct types, NumLearnedEdgeTypes(3) = %d", len(seen), NumLearnedEdgeTypes(3))
	}
	// The documented numbers.
	if LearnedEdgeType(EdgeGlobalIn, 2) != 5 || LearnedEdgeType(EdgeGlobalOut, 2) != 6 || NumLearnedEdgeTypes(0) != 1 {
		t.Errorf("numbering: in(2) = %d, out(2) = %d, NumLearnedEdgeTypes(0) = %d; want 5, 6, 1",
			LearnedEdgeType(EdgeGlobalIn, 2), LearnedEdgeType(EdgeGlobalOut, 2), NumLearnedEdgeTypes(0))
	}
}

// learnedBatch is a batch of three graphs of different sizes with all three components
// and two virtual nodes per graph.
func learnedBatch(t *testing.T) ([]InputGraph, *Interaction) {
	t.Helper()
	graphs := []InputGraph{randomInput(5, 0.5, 31), randomInput(9, 0.4, 32), randomInput(7, 0.4, 33)}
	o := DefaultInteractionOptions()
	o.VirtualNodes = 2
	o.Seed = 5
	h, err := BuildBatch(graphs, o)
	if err != nil {
		t.Fatal(err)
	}
	return graphs, h
}

func TestEdgeSources(t *testing.T) {
	graphs, h := learnedBatch(t)
	numInput := 0
	for _, g := range graphs {
		numInput += len(g.Src)
	}
	sources, err := h.EdgeSources()
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) != h.NumEdges() {
		t.Fatalf("%d sources for %d edges", len(sources), h.NumEdges())
	}
	counts := map[EdgeType]int{}
	seenVirtual := map[[2]int]bool{}
	for e, s := range sources {
		typ := EdgeType(h.Type[e])
		counts[typ]++
		switch typ {
		case EdgeLocal:
			if s < 0 || int(s) >= numInput || s != h.LocalEdge[e] {
				t.Fatalf("local edge %d: source %d, want its input edge %d", e, s, h.LocalEdge[e])
			}
		case EdgeExpander:
			if s != -1 {
				t.Fatalf("expander edge %d: source %d, want −1 (type 0)", e, s)
			}
		case EdgeGlobalIn, EdgeGlobalOut:
			v := int(h.Virtual[e])
			want := int32(-2 - 2*v) // −1 − (1 + 2v)
			if typ == EdgeGlobalOut {
				want-- // −1 − (2 + 2v)
			}
			if s != want {
				t.Fatalf("%v edge %d of virtual node %d: source %d, want %d", typ, e, v, s, want)
			}
			seenVirtual[[2]int{int(typ), v}] = true
		default:
			t.Fatalf("edge %d has type %d", e, typ)
		}
	}
	for _, typ := range []EdgeType{EdgeLocal, EdgeExpander, EdgeGlobalIn, EdgeGlobalOut} {
		if counts[typ] == 0 {
			t.Errorf("no %v edge: the test does not exercise it", typ)
		}
	}
	for _, typ := range []EdgeType{EdgeGlobalIn, EdgeGlobalOut} {
		for v := range 2 {
			if !seenVirtual[[2]int{int(typ), v}] {
				t.Errorf("no %v edge of virtual node %d", typ, v)
			}
		}
	}
	// An unknown type is an error.
	bad := *h
	bad.Type = append([]uint8(nil), h.Type...)
	bad.Type[len(bad.Type)/2] = 9
	if _, err := bad.EdgeSources(); err == nil || !strings.Contains(err.Error(), "unknown type") {
		t.Errorf("unknown edge type: got error %v", err)
	}
}

func TestPaddedEndpoints(t *testing.T) {
	_, h := learnedBatch(t)
	k := h.VirtualPerGraph
	src, dst, err := h.PaddedEndpoints(h.NumReal)
	if err != nil {
		t.Fatal(err)
	}
	for e := range h.Src {
		if src[e] != h.Src[e] || dst[e] != h.Dst[e] {
			t.Fatalf("PaddedEndpoints(NumReal) changes edge %d: %d→%d, want %d→%d", e, src[e], dst[e], h.Src[e], h.Dst[e])
		}
	}
	origSrc, origDst := slices.Clone(h.Src), slices.Clone(h.Dst)
	const pad = 4
	realSlots := h.NumReal + pad
	src, dst, err = h.PaddedEndpoints(realSlots)
	if err != nil {
		t.Fatal(err)
	}
	if len(src) != h.NumEdges() || len(dst) != h.NumEdges() {
		t.Fatalf("%d and %d endpoints for %d edges", len(src), len(dst), h.NumEdges())
	}
	// Expected new id of every node: real ids unchanged, virtual node t of graph g at
	// realSlots + g·k + t.
	newID := make([]int32, h.NumNodes)
	for i := range h.NumReal {
		newID[i] = int32(i)
	}
	for g := range h.NumGraphs {
		for tt := range k {
			newID[h.VirtualNode(g, tt)] = int32(realSlots + g*k + tt)
		}
	}
	moved := 0
	for e := range h.Src {
		if src[e] != newID[h.Src[e]] || dst[e] != newID[h.Dst[e]] {
			t.Fatalf("edge %d (%d→%d): padded %d→%d, want %d→%d", e, h.Src[e], h.Dst[e], src[e], dst[e],
				newID[h.Src[e]], newID[h.Dst[e]])
		}
		// Endpoints of global edges are the right graph's virtual node.
		if typ := EdgeType(h.Type[e]); typ == EdgeGlobalIn || typ == EdgeGlobalOut {
			real, virt := h.Src[e], dst[e]
			if typ == EdgeGlobalOut {
				real, virt = h.Dst[e], src[e]
			}
			g := int(h.GraphOf[real])
			if want := int32(realSlots + g*k + int(h.Virtual[e])); virt != want {
				t.Fatalf("global edge %d of graph %d: virtual endpoint %d, want %d", e, g, virt, want)
			}
			moved++
		}
	}
	if moved == 0 {
		t.Fatalf("no global edge: the test is not sensitive")
	}
	if !slices.Equal(h.Src, origSrc) || !slices.Equal(h.Dst, origDst) {
		t.Errorf("PaddedEndpoints changed h.Src or h.Dst")
	}
	if _, _, err := h.PaddedEndpoints(h.NumReal - 1); err == nil {
		t.Errorf("realSlots < NumReal accepted")
	}
}
