package expander

import (
	"fmt"
	"testing"
)

// BenchmarkGenerate draws 6-regular expanders. Target: standard, n = 10⁶, uncertified,
// ≤ 0.3 s on 2 cores. The certified runs include the Lanczos eigenvalue solve (one
// attempt when the first draw passes, as it nearly always does).
func BenchmarkGenerate(b *testing.B) {
	cases := []struct {
		algo    Algorithm
		n       int
		certify bool
	}{
		{Standard, 1e4, false}, {Standard, 1e5, false}, {Standard, 1e6, false},
		{Simple, 1e6, false}, {Hamiltonian, 1e6, false},
		{Standard, 1e4, true}, {Standard, 1e5, true}, {Standard, 1e6, true},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%v/n=%d/certify=%v", c.algo, c.n, c.certify)
		b.Run(name, func(b *testing.B) {
			o := DefaultOptions(c.n, 6, 1)
			o.Algo, o.Certify = c.algo, c.certify
			for i := 0; b.Loop(); i++ {
				o.Seed = uint64(i)
				if _, err := Generate(o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("standard/n=1000000/csr", func(b *testing.B) {
		o := DefaultOptions(1e6, 6, 1)
		o.Certify = false
		for b.Loop() {
			e, err := Generate(o)
			if err != nil || e.Graph() == nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkInteractionBatch builds the interaction graph of 32 PATTERN-sized graphs
// (n = 110..125, about 6,000 directed input edges each) with a degree-14 standard
// expander and 4 virtual nodes per graph.
func BenchmarkInteractionBatch(b *testing.B) {
	graphs := make([]InputGraph, 32)
	edges := 0
	for g := range graphs {
		graphs[g] = randomInput(110+g%16, 0.43, uint64(g))
		edges += len(graphs[g].Src)
	}
	for _, certify := range []bool{false, true} {
		b.Run(fmt.Sprintf("certify=%v", certify), func(b *testing.B) {
			o := DefaultInteractionOptions()
			o.ExpanderDegree, o.VirtualNodes, o.Certify = 14, 4, certify
			b.ReportAllocs()
			var h *Interaction
			for b.Loop() {
				var err error
				if h, err = BuildBatch(graphs, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(edges)/32, "input-edges/graph")
			b.ReportMetric(float64(h.NumEdges()), "H-edges")
		})
	}
}
