package expander

import (
	"reflect"
	"strings"
	"testing"
)

// sampleGraph is the interaction graph of a 60-node G(n, p) graph with a degree-6
// expander and two virtual nodes.
func sampleGraph(t *testing.T) *Interaction {
	t.Helper()
	opts := DefaultInteractionOptions()
	opts.ExpanderDegree, opts.VirtualNodes, opts.Seed = 6, 2, 3
	h, err := BuildInteraction(randomInput(60, 0.12, 4), opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestSampleNeighboursEdgesAreEdgesOfHWithinFanouts(t *testing.T) {
	h := sampleGraph(t)
	hops := []Fanout{{3, 2, 1, 1}, {2, -1, 0, 1}, {1, 1, 1, 0}}
	seeds := []int32{5, 17, 60, 33} // 60 is a virtual node.
	s, err := h.SampleNeighbours(seeds, SampleOptions{Hops: hops, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if s.NumSeeds != 4 || !reflect.DeepEqual(s.Nodes[:4], seeds) || len(s.HopOffset) != len(hops)+1 ||
		len(s.Depth) != len(hops)+2 || s.Depth[1] != 4 || s.Depth[len(hops)+1] != len(s.Nodes) {
		t.Fatalf("seeds %v, %d hop offsets", s.Nodes[:s.NumSeeds], len(s.HopOffset))
	}
	seen := map[int64]bool{}
	index := map[int32]int{}
	for i, v := range s.Nodes {
		if _, dup := index[v]; dup {
			t.Fatalf("node %d sampled twice", v)
		}
		index[v] = i
	}
	for i, e := range s.Edge {
		if h.Src[e] != s.Nodes[s.Src[i]] || h.Dst[e] != s.Nodes[s.Dst[i]] {
			t.Fatalf("sampled edge %d (%d → %d) is not H's edge %d (%d → %d)",
				i, s.Nodes[s.Src[i]], s.Nodes[s.Dst[i]], e, h.Src[e], h.Dst[e])
		}
		if seen[e] {
			t.Fatalf("edge %d sampled twice", e)
		}
		seen[e] = true
	}
	// Per hop, each frontier node keeps min(fan-out, available) edges of each type; the
	// frontier of hop k+1 is exactly the nodes first reached at hop k.
	for k, fan := range hops {
		start, end := s.Depth[k], s.Depth[k+1]
		for li := start; li < end; li++ {
			v := s.Nodes[li]
			var have, kept [NumEdgeTypes]int
			for e := h.Offsets[v]; e < h.Offsets[v+1]; e++ {
				have[h.Type[e]]++
			}
			for i := s.HopOffset[k]; i < s.HopOffset[k+1]; i++ {
				if int(s.Dst[i]) == li {
					kept[h.Type[s.Edge[i]]]++
				}
			}
			for ty := range NumEdgeTypes {
				want := have[ty]
				if fan[ty] >= 0 {
					want = min(want, fan[ty])
				}
				if kept[ty] != want {
					t.Errorf("hop %d, node %d, %s edges: kept %d of %d, want %d (fan-out %d)",
						k, v, EdgeType(ty), kept[ty], have[ty], want, fan[ty])
				}
			}
		}
		for i := s.HopOffset[k]; i < s.HopOffset[k+1]; i++ {
			if d := int(s.Dst[i]); d < start || d >= end {
				t.Fatalf("hop %d edge into node index %d outside its frontier [%d, %d)", k, d, start, end)
			}
		}
		for i := s.HopOffset[k]; i < s.HopOffset[k+1]; i++ {
			if int(s.Src[i]) >= s.Depth[k+2] {
				t.Fatalf("hop %d reaches node index %d beyond its new nodes (< %d)", k, s.Src[i], s.Depth[k+2])
			}
		}
	}
}

func TestSampleNeighboursSameSeedSameSample(t *testing.T) {
	h := sampleGraph(t)
	opts := SampleOptions{Hops: []Fanout{{2, 2, 1, 1}, {2, 2, 1, 1}}, Seed: 1}
	a, err := h.SampleNeighbours([]int32{1, 2, 3}, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h.SampleNeighbours([]int32{1, 2, 3}, opts)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different samples")
	}
	opts.Seed = 2
	c, _ := h.SampleNeighbours([]int32{1, 2, 3}, opts)
	if reflect.DeepEqual(a.Edge, c.Edge) {
		t.Error("seeds 1 and 2 gave the same sample")
	}
	// Keeping every edge for one hop samples exactly the seeds' incoming edges.
	all, _ := h.SampleNeighbours([]int32{7}, SampleOptions{Hops: []Fanout{AllEdges}})
	if want := h.Offsets[8] - h.Offsets[7]; int64(len(all.Edge)) != want {
		t.Errorf("all edges into node 7: sampled %d, want %d", len(all.Edge), want)
	}
}

func TestSampleNeighboursErrors(t *testing.T) {
	h := sampleGraph(t)
	for _, c := range []struct {
		seeds []int32
		want  string
	}{
		{[]int32{-1}, "seed -1"},
		{[]int32{int32(h.NumNodes)}, "outside"},
		{[]int32{4, 4}, "repeated"},
	} {
		if _, err := h.SampleNeighbours(c.seeds, SampleOptions{Hops: []Fanout{AllEdges}}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("seeds %v: error %v, want %q", c.seeds, err, c.want)
		}
	}
}
