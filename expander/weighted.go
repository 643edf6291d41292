package expander

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// SampleInEdgesByWeight draws, for every node of h, k of its incoming edges without
// replacement with probabilities proportional to weights (one per edge of h, ≥ 0;
// Efraimidis–Spirakis keys u^(1/w)); a node with at most k incoming edges keeps them
// all, and an edge of weight 0 is drawn only after every positive one. It returns the
// kept edges' indices into h's edges, grouped by destination and ascending within a
// node. The same seed gives the same edges. It is how Spexphormer (gexph's
// AttentionScores.Sparsify) sparsifies H by a layer's attention scores.
func SampleInEdgesByWeight(h *Interaction, weights []float32, k int, seed uint64) ([]int64, error) {
	switch {
	case k < 1:
		return nil, fmt.Errorf("sample by weight: k = %d, want ≥ 1", k)
	case len(h.Offsets) != h.NumNodes+1:
		return nil, fmt.Errorf("sample by weight: the interaction graph has %d offsets for %d nodes", len(h.Offsets), h.NumNodes)
	case len(weights) != h.NumEdges():
		return nil, fmt.Errorf("sample by weight: %d weights for %d edges", len(weights), h.NumEdges())
	}
	type keyed struct {
		key float64
		e   int64
	}
	var cand []keyed
	rng := rand.New(rand.NewPCG(seed, 0x5fe))
	var edges []int64
	for v := range h.NumNodes {
		lo, hi := h.Offsets[v], h.Offsets[v+1]
		if hi-lo <= int64(k) {
			for e := lo; e < hi; e++ {
				edges = append(edges, e)
			}
			continue
		}
		cand = cand[:0]
		for e := lo; e < hi; e++ {
			// log(u)/w orders as u^(1/w); a zero weight never wins over a positive one.
			key := math.Inf(-1)
			if wt := float64(weights[e]); wt > 0 {
				key = math.Log(1-rng.Float64()) / wt
			}
			cand = append(cand, keyed{key, e})
		}
		slices.SortFunc(cand, func(a, b keyed) int {
			if a.key != b.key {
				if a.key > b.key {
					return -1
				}
				return 1
			}
			return int(a.e - b.e)
		})
		kept := make([]int64, k)
		for i := range kept {
			kept[i] = cand[i].e
		}
		slices.Sort(kept)
		edges = append(edges, kept...)
	}
	return edges, nil
}
