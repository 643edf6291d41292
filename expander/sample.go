package expander

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Fanout caps, per EdgeType, how many of a node's incoming interaction edges one
// sampling hop keeps: Fanout[EdgeExpander] = 3 keeps at most 3 expander edges into each
// node of the hop's frontier, drawn uniformly without replacement. A negative entry
// keeps every edge of its type, zero none.
type Fanout [NumEdgeTypes]int

// AllEdges keeps every incoming edge of every type.
var AllEdges = Fanout{-1, -1, -1, -1}

// SampleOptions configures SampleNeighbours.
type SampleOptions struct {
	// Hops holds one Fanout per hop, the first for the seeds' own incoming edges (the
	// model's last layer), the next for their sampled neighbours', and so on: a model of
	// L layers samples L hops.
	Hops []Fanout
	// Seed drives the draws: the same seed, seeds and graph give the same sample.
	Seed uint64
}

// Sample is a subgraph of an interaction graph H sampled around seed nodes: the nodes
// reached and the sampled edges between them, in local numbering.
type Sample struct {
	// Nodes lists the sampled nodes as ids of H, the seeds first (in the order given),
	// then the nodes in the order they were reached.
	Nodes []int32
	// NumSeeds is the number of seeds, Nodes[:NumSeeds].
	NumSeeds int
	// Src → Dst are the sampled edges as indices into Nodes, grouped by hop (HopOffset),
	// each hop's edges in the order of their destination in the frontier.
	Src, Dst []int32
	// Edge is each sampled edge's index in H (into H.Src, H.Dst, H.Type, …).
	Edge []int64
	// HopOffset (len(Hops)+1 entries) bounds each hop's edges.
	HopOffset []int
	// Depth (len(Hops)+2 entries) bounds the nodes by the hop that reached them:
	// Nodes[Depth[k]:Depth[k+1]] were first reached by hop k−1 (the seeds for k = 0) and
	// form hop k's frontier.
	Depth []int
}

// SampleNeighbours samples the subgraph of h around seeds (distinct node ids of h) over
// len(opts.Hops) hops: hop k takes, for each node of its frontier (the seeds at hop 0,
// then the nodes first reached at hop k−1), up to opts.Hops[k][t] of its incoming edges
// of each type t, and their sources not yet sampled form the next frontier. Every
// sampled edge is an edge of h, sampled once; a node's edges of one type are drawn
// uniformly without replacement.
func (h *Interaction) SampleNeighbours(seeds []int32, opts SampleOptions) (*Sample, error) {
	if len(h.Offsets) != h.NumNodes+1 {
		return nil, fmt.Errorf("sample: the interaction graph has %d offsets for %d nodes", len(h.Offsets), h.NumNodes)
	}
	local := make(map[int32]int32, len(seeds)*4)
	s := &Sample{NumSeeds: len(seeds), HopOffset: []int{0}, Depth: []int{0, len(seeds)}}
	for i, v := range seeds {
		if v < 0 || int(v) >= h.NumNodes {
			return nil, fmt.Errorf("sample: seed %d (index %d) outside [0, %d)", v, i, h.NumNodes)
		}
		if _, dup := local[v]; dup {
			return nil, fmt.Errorf("sample: seed %d repeated (index %d)", v, i)
		}
		local[v] = int32(i)
		s.Nodes = append(s.Nodes, v)
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x5a3f1e))
	var byType [NumEdgeTypes][]int64
	frontier := 0 // Nodes[frontier:] is the current hop's frontier.
	for k, fan := range opts.Hops {
		end := len(s.Nodes)
		for li := frontier; li < end; li++ {
			v := s.Nodes[li]
			for t := range byType {
				byType[t] = byType[t][:0]
			}
			for e := h.Offsets[v]; e < h.Offsets[v+1]; e++ {
				if t := h.Type[e]; int(t) < NumEdgeTypes && fan[t] != 0 {
					byType[t] = append(byType[t], e)
				}
			}
			for t, edges := range byType {
				if n := fan[t]; n >= 0 && len(edges) > n {
					// A partial Fisher–Yates shuffle draws n edges without replacement;
					// sorting them keeps the sample in H's order.
					for i := range n {
						j := i + rng.IntN(len(edges)-i)
						edges[i], edges[j] = edges[j], edges[i]
					}
					edges = edges[:n]
					slices.Sort(edges)
				}
				for _, e := range edges {
					u := h.Src[e]
					lu, ok := local[u]
					if !ok {
						lu = int32(len(s.Nodes))
						local[u] = lu
						s.Nodes = append(s.Nodes, u)
					}
					s.Src, s.Dst, s.Edge = append(s.Src, lu), append(s.Dst, int32(li)), append(s.Edge, e)
				}
			}
		}
		frontier = end
		s.HopOffset = append(s.HopOffset, len(s.Src))
		s.Depth = append(s.Depth, len(s.Nodes))
		if k < len(opts.Hops)-1 && frontier == len(s.Nodes) {
			// Nothing new reached: the remaining hops add nothing.
			for range opts.Hops[k+1:] {
				s.HopOffset = append(s.HopOffset, len(s.Src))
				s.Depth = append(s.Depth, len(s.Nodes))
			}
			break
		}
	}
	return s, nil
}
