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

// ExampleAdjacencyEigenvalues finds the repeated top eigenvalue of two disjoint stars
// K_{1,3}: each has the spectrum ±√3, 0, 0, so the union has λ₁ = λ₂ = √3, which a
// single Lanczos run (one copy of each distinct eigenvalue) would miss.
func ExampleAdjacencyEigenvalues() {
	src := []int32{0, 0, 0, 4, 4, 4}
	dst := []int32{1, 2, 3, 5, 6, 7}
	g, err := spectral.FromEdges(8, src, dst)
	if err != nil {
		log.Fatal(err)
	}
	s, err := spectral.AdjacencyEigenvalues(g, spectral.AdjacencyOptions{Tol: 1e-10, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("λ₁=%.4f λ₂=%.4f λₙ=%.4f components=%d converged=%v\n",
		s.Lambda1, s.Lambda2, s.LambdaMin, s.Components, s.Converged)
	// Output:
	// λ₁=1.7321 λ₂=1.7321 λₙ=-1.7321 components=2 converged=true
}
