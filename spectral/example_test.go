package spectral_test

import (
	"fmt"
	"log"

	"github.com/gexph/gexph/spectral"
)

// ExampleAnalyze analyses the cycle on 10 nodes, whose adjacency eigenvalues are
// 2cos(2πk/10): λ₂ = 2cos(π/5) is the golden ratio, and λₙ = −2 since an even cycle is
// bipartite, so ε = 1 and a plain random walk never mixes. Its diameter is 5.
func ExampleAnalyze() {
	const n = 10
	src, dst := make([]int32, n), make([]int32, n)
	for i := range n {
		src[i], dst[i] = int32(i), int32((i+1)%n)
	}
	g, err := spectral.FromEdges(n, src, dst)
	if err != nil {
		log.Fatal(err)
	}
	s, err := spectral.Analyze(g, spectral.AnalyzeOptions{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("n=%d edges=%d degree %d..%d\n", s.N, s.Edges, s.DegreeMin, s.DegreeMax)
	fmt.Printf("λ₂=%.3f λₙ=%.3f ε=%.3f\n", s.Lambda2, s.LambdaMin, s.Epsilon)
	fmt.Printf("diameter=%d (exact: %v), measured mixing time %d\n", s.Diameter, s.DiameterExact, s.MixingMeasured)
	// Output:
	// n=10 edges=10 degree 2..2
	// λ₂=1.618 λₙ=-2.000 ε=1.000
	// diameter=5 (exact: true), measured mixing time -1
}
