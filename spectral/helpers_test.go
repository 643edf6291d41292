package spectral

import (
	"math/rand/v2"
	"testing"
)

// randomRegular builds the d-regular multigraph of d/2 uniform random permutations π:
// edges (i, π(i)); fixed points become self loops, which keep the degree d.
func randomRegular(tb testing.TB, n, d int, seed uint64) *Graph {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	src := make([]int32, 0, n*d/2)
	dst := make([]int32, 0, n*d/2)
	for range d / 2 {
		perm := rng.Perm(n)
		for i, p := range perm {
			src = append(src, int32(i))
			dst = append(dst, int32(p))
		}
	}
	g, err := FromEdges(n, src, dst)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// randomIrregular builds a connected graph: a random spanning path plus extra random
// edges with probability p per pair.
func randomIrregular(tb testing.TB, n int, p float64, seed uint64) *Graph {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	perm := rng.Perm(n)
	var src, dst []int32
	for i := 1; i < n; i++ {
		src, dst = append(src, int32(perm[i-1])), append(dst, int32(perm[i]))
	}
	for u := range n {
		for v := u + 1; v < n; v++ {
			if rng.Float64() < p {
				src, dst = append(src, int32(u)), append(dst, int32(v))
			}
		}
	}
	g, err := FromEdges(n, src, dst)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// mustGraph builds a graph from an edge list given as pairs.
func mustGraph(tb testing.TB, n int, edges ...[2]int32) *Graph {
	tb.Helper()
	src, dst := make([]int32, len(edges)), make([]int32, len(edges))
	for i, e := range edges {
		src[i], dst[i] = e[0], e[1]
	}
	g, err := FromEdges(n, src, dst)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
