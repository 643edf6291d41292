package expander

import (
	"slices"
	"testing"
)

// On a star's interaction graph (every leaf's edges into the centre, and back), the
// centre keeps k of its incoming edges, never one of weight 0 while a positive one is
// left, the leaves keep their only edge, and one seed gives one draw.
func TestSampleInEdgesByWeightKeepsKByWeight(t *testing.T) {
	const leaves, k = 8, 3
	g := InputGraph{NumNodes: leaves + 1, Seed: 1}
	for v := int32(1); v <= leaves; v++ {
		g.Src, g.Dst = append(g.Src, v, 0), append(g.Dst, 0, v)
	}
	h, err := BuildBatch([]InputGraph{g}, InteractionOptions{Local: true})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float32, h.NumEdges())
	for e := range w {
		if h.Dst[e] == 0 && h.Src[e]%2 == 0 { // the centre's even leaves only
			w[e] = 1
		}
	}
	edges, err := SampleInEdgesByWeight(h, w, k, 7)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := SampleInEdgesByWeight(h, w, k, 7)
	if !slices.Equal(edges, again) {
		t.Errorf("one seed, two draws: %v and %v", edges, again)
	}
	perNode := make([]int, h.NumNodes)
	for _, e := range edges {
		perNode[h.Dst[e]]++
		if h.Dst[e] == 0 && w[e] == 0 {
			t.Errorf("the centre kept edge %d of weight 0 (from %d)", e, h.Src[e])
		}
	}
	if perNode[0] != k {
		t.Errorf("the centre kept %d edges, want %d", perNode[0], k)
	}
	for v := 1; v <= leaves; v++ {
		if perNode[v] != 1 {
			t.Errorf("leaf %d kept %d edges, want its one", v, perNode[v])
		}
	}
	if _, err := SampleInEdgesByWeight(h, w, 0, 7); err == nil {
		t.Error("k = 0: no error")
	}
	if _, err := SampleInEdgesByWeight(h, w[1:], k, 7); err == nil {
		t.Error("a weight short: no error")
	}
}
