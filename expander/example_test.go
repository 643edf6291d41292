package expander_test

import (
	"fmt"
	"log"
	"slices"

	"github.com/gexph/gexph/expander"
)

// ExampleGenerate draws a certified 4-regular expander on 100 nodes: the draw is
// accepted when max(|λ₂|, |λₙ|) is within Tol of the Ramanujan bound 2√(d−1), and the
// same seed gives the same graph on every machine.
func ExampleGenerate() {
	e, err := expander.Generate(expander.DefaultOptions(100, 4, 7))
	if err != nil {
		log.Fatal(err)
	}
	c := e.Certificate
	fmt.Printf("n=%d d=%d algorithm=%v\n", e.N, c.D, c.Algo)
	fmt.Printf("near-Ramanujan: %v (bound 2√(d−1) = %.3f, tolerance %.1f)\n", c.Accepted, c.Bound, c.Tol)
	fmt.Printf("spectral radius within the bound: %v\n", c.SpectralRadius() <= c.Bound+c.Tol)
	fmt.Printf("edges: %d of n·d/2 = %d (self loops removed: %d)\n", e.NumEdges(), e.N*c.D/2, c.SelfLoopsRemoved)
	// Output:
	// n=100 d=4 algorithm=standard
	// near-Ramanujan: true (bound 2√(d−1) = 3.464, tolerance 0.1)
	// spectral radius within the bound: true
	// edges: 199 of n·d/2 = 200 (self loops removed: 1)
}

// ExampleInteraction_SampleNeighbours samples two hops around node 0 of a path with one
// virtual node: every local edge, and at most one virtual-node edge per node.
func ExampleInteraction_SampleNeighbours() {
	path := expander.InputGraph{NumNodes: 5, Src: []int32{0, 1, 1, 2, 2, 3, 3, 4}, Dst: []int32{1, 0, 2, 1, 3, 2, 4, 3}}
	opts := expander.DefaultInteractionOptions()
	opts.Expander = false
	h, err := expander.BuildInteraction(path, opts)
	if err != nil {
		panic(err)
	}
	fan := expander.Fanout{expander.EdgeLocal: -1, expander.EdgeGlobalOut: 1}
	s, err := h.SampleNeighbours([]int32{0}, expander.SampleOptions{Hops: []expander.Fanout{fan, fan}, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("nodes:", s.Nodes, "edges per hop:", s.HopOffset)
	// Output: nodes: [0 1 5 2] edges per hop: [0 2 5]
}

// ExampleDraws batches the same two graphs twice, as two epochs do: the second batch
// redraws each graph's kept expander without certifying it again, and equals the
// first edge for edge.
func ExampleDraws() {
	cycle := func(n int, seed uint64) expander.InputGraph {
		g := expander.InputGraph{NumNodes: n, Seed: seed}
		for v := range n {
			g.Src = append(g.Src, int32(v))
			g.Dst = append(g.Dst, int32((v+1)%n))
		}
		return g
	}
	graphs := []expander.InputGraph{cycle(30, 0), cycle(40, 1)}
	opts := expander.DefaultInteractionOptions()
	var draws expander.Draws
	first, err := draws.BuildBatch(graphs, opts)
	if err != nil {
		log.Fatal(err)
	}
	again, err := draws.BuildBatch(graphs, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("certified expanders kept:", draws.Len())
	fmt.Println("the same edges:", slices.Equal(first.Src, again.Src) && slices.Equal(first.Dst, again.Dst))
	fmt.Println("the same certificates:", slices.Equal(first.Certificates, again.Certificates))
	// Output:
	// certified expanders kept: 2
	// the same edges: true
	// the same certificates: true
}
