package spectral

import (
	"math/rand/v2"
	"testing"
)

// hamiltonianCycleExpander builds the Hamiltonian-cycle variant of the random regular
// construction: d/2 random Hamiltonian cycles, returned with the graph.
func hamiltonianCycleExpander(tb testing.TB, n, d int, seed uint64) (*Graph, [][]int32) {
	rng := rand.New(rand.NewPCG(seed, 5))
	var e [][2]int32
	var cycles [][]int32
	for range d / 2 {
		order := make([]int32, n)
		for i, v := range rng.Perm(n) {
			order[i] = int32(v)
		}
		for i := range n {
			e = append(e, [2]int32{order[i], order[(i+1)%n]})
		}
		cycles = append(cycles, order)
	}
	return mustGraph(tb, n, e...), cycles
}

func TestVerifyHamiltonianCycle(t *testing.T) {
	g, cycles := hamiltonianCycleExpander(t, 200, 6, 1)
	for i, c := range cycles {
		if err := VerifyHamiltonianCycle(g, c); err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		if err := VerifyHamiltonianPath(g, c); err != nil {
			t.Fatalf("cycle %d as path: %v", i, err)
		}
	}
	c8 := cycle(t, 8)
	good := []int32{0, 1, 2, 3, 4, 5, 6, 7}
	reversed := []int32{7, 6, 5, 4, 3, 2, 1, 0}
	for name, order := range map[string][]int32{"identity": good, "reversed": reversed} {
		if err := VerifyHamiltonianCycle(c8, order); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := map[string][]int32{
		"swapped":      {0, 1, 3, 2, 4, 5, 6, 7},
		"repeated":     {0, 1, 2, 3, 4, 5, 6, 6},
		"short":        {0, 1, 2, 3, 4, 5, 6},
		"out of range": {0, 1, 2, 3, 4, 5, 6, 8},
		"negative":     {-1, 1, 2, 3, 4, 5, 6, 7},
	}
	for name, order := range bad {
		if err := VerifyHamiltonianCycle(c8, order); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// P8 has the Hamiltonian path 0..7 but no Hamiltonian cycle.
	if err := VerifyHamiltonianPath(path(t, 8), good); err != nil {
		t.Errorf("P8 path: %v", err)
	}
	if err := VerifyHamiltonianCycle(path(t, 8), good); err == nil {
		t.Error("P8 cycle accepted")
	}
	if err := VerifyHamiltonianPath(path(t, 8), bad["swapped"]); err == nil {
		t.Error("P8 swapped path accepted")
	}
	// Degenerate sizes: one node needs a loop, two nodes a double edge.
	small := []struct {
		g    *Graph
		ok   bool
		name string
	}{
		{mustGraph(t, 1), false, "one node"},
		{mustGraph(t, 1, [2]int32{0, 0}), true, "one node with loop"},
		{mustGraph(t, 2, [2]int32{0, 1}), false, "single edge"},
		{mustGraph(t, 2, [2]int32{0, 1}, [2]int32{1, 0}), true, "double edge"},
	}
	for _, c := range small {
		order := []int32{0, 1}[:c.g.N]
		if err := VerifyHamiltonianCycle(c.g, order); (err == nil) != c.ok {
			t.Errorf("%s: err = %v", c.name, err)
		}
	}
	if err := VerifyHamiltonianCycle(nil, nil); err == nil {
		t.Error("nil graph accepted")
	}
}

// bruteHamiltonianPath tries every permutation.
func bruteHamiltonianPath(g *Graph) bool {
	n := g.N
	order := make([]int32, n)
	used := make([]bool, n)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == n {
			return true
		}
		for v := range n {
			if used[v] || (i > 0 && multiplicity(g, order[i-1], int32(v)) == 0) {
				continue
			}
			used[v], order[i] = true, int32(v)
			if rec(i + 1) {
				return true
			}
			used[v] = false
		}
		return false
	}
	return rec(0)
}

func TestHasHamiltonianPath(t *testing.T) {
	petersen := mustGraph(t, 10,
		[2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 3}, [2]int32{3, 4}, [2]int32{4, 0},
		[2]int32{0, 5}, [2]int32{1, 6}, [2]int32{2, 7}, [2]int32{3, 8}, [2]int32{4, 9},
		[2]int32{5, 7}, [2]int32{7, 9}, [2]int32{9, 6}, [2]int32{6, 8}, [2]int32{8, 5})
	hc, _ := hamiltonianCycleExpander(t, 20, 4, 2)
	cases := map[string]struct {
		g    *Graph
		want bool
	}{
		"one node":     {mustGraph(t, 1), true},
		"P12":          {path(t, 12), true},
		"star K1,3":    {mustGraph(t, 4, [2]int32{0, 1}, [2]int32{0, 2}, [2]int32{0, 3}), false},
		"petersen":     {petersen, true},
		"disconnected": {mustGraph(t, 4, [2]int32{0, 1}, [2]int32{2, 3}), false},
		"loops only":   {mustGraph(t, 2, [2]int32{0, 0}, [2]int32{1, 1}), false},
		"cycle expand": {hc, true},
	}
	for name, c := range cases {
		p, ok, err := HasHamiltonianPath(c.g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ok != c.want {
			t.Fatalf("%s: %v, want %v", name, ok, c.want)
		}
		if ok {
			if err := VerifyHamiltonianPath(c.g, p); err != nil {
				t.Fatalf("%s: returned path %v: %v", name, p, err)
			}
		}
	}
	// Against brute force on random graphs, with both answers represented.
	seen := map[bool]int{}
	for seed := range uint64(60) {
		g := sparseRandom(t, 7, 0.25+0.25*float64(seed%3), seed)
		_, ok, err := HasHamiltonianPath(g)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteHamiltonianPath(g); ok != want {
			t.Fatalf("seed %d: DP says %v, brute force %v", seed, ok, want)
		}
		seen[ok]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("random graphs gave only one answer: %v", seen)
	}
	if _, _, err := HasHamiltonianPath(cycle(t, MaxHamiltonNodes+1)); err == nil {
		t.Error("oversized graph: no error")
	}
	if _, _, err := HasHamiltonianPath(nil); err == nil {
		t.Error("nil graph: no error")
	}
}

// sparseRandom is an Erdős–Rényi graph G(n, p), possibly disconnected.
func sparseRandom(tb testing.TB, n int, p float64, seed uint64) *Graph {
	rng := rand.New(rand.NewPCG(seed, 13))
	var e [][2]int32
	for u := range n {
		for v := u + 1; v < n; v++ {
			if rng.Float64() < p {
				e = append(e, [2]int32{int32(u), int32(v)})
			}
		}
	}
	return mustGraph(tb, n, e...)
}
