package spectral

import (
	"errors"
	"slices"
	"testing"
)

func TestDiameterKnownGraphs(t *testing.T) {
	for name, c := range map[string]struct {
		g    *Graph
		want int
	}{
		"P1":  {mustGraph(t, 1), 0},
		"P10": {path(t, 10), 9},
		"C9":  {cycle(t, 9), 4},
		"C10": {cycle(t, 10), 5},
		"K6":  {complete(t, 6), 1},
		"Q1":  {hypercube(t, 1), 1},
		"Q4":  {hypercube(t, 4), 4},
		"Q7":  {hypercube(t, 7), 7},
	} {
		res, err := Diameter(c.g, DiameterOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !res.Exact || res.Diameter != c.want || res.Upper != c.want {
			t.Errorf("%s: %+v, want exact %d", name, res, c.want)
		}
	}
}

// floydDiameter is the reference: Floyd–Warshall over all pairs.
func floydDiameter(g *Graph) int {
	const inf = 1 << 30
	n := g.N
	d := make([][]int, n)
	for u := range d {
		d[u] = make([]int, n)
		for v := range d[u] {
			d[u][v] = inf
		}
		d[u][u] = 0
		for _, v := range g.Neighbors(u) {
			if int(v) != u {
				d[u][v] = 1
			}
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				d[i][j] = min(d[i][j], d[i][k]+d[k][j])
			}
		}
	}
	best := 0
	for i := range n {
		best = max(best, slices.Max(d[i]))
	}
	return best
}

func TestDiameterMatchesFloyd(t *testing.T) {
	for seed := range uint64(4) {
		g := randomIrregular(t, 120, 0.01, seed)
		res, err := Diameter(g, DiameterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := floydDiameter(g); res.Diameter != want || !res.Exact {
			t.Fatalf("seed %d: %+v, want %d", seed, res, want)
		}
		est, err := Diameter(g, DiameterOptions{ExactMaxNodes: -1, Samples: 3, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if est.Exact || est.Diameter > res.Diameter || est.Upper < res.Diameter || est.Searches != 6 {
			t.Fatalf("seed %d: estimate %+v does not bracket %d", seed, est, res.Diameter)
		}
	}
}

func TestDiameterEstimateOnCycle(t *testing.T) {
	// Every node of a cycle has eccentricity ⌊n/2⌋, so the sweep is exact (though not
	// known to be) and the upper bound is twice that.
	res, err := Diameter(cycle(t, 5001), DiameterOptions{ExactMaxNodes: 100, Samples: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || res.Diameter != 2500 || res.Upper != 5000 {
		t.Fatalf("%+v", res)
	}
}

func TestDiameterDisconnected(t *testing.T) {
	g := mustGraph(t, 4, [2]int32{0, 1}, [2]int32{2, 3})
	for _, exact := range []int{0, -1} {
		if _, err := Diameter(g, DiameterOptions{ExactMaxNodes: exact}); !errors.Is(err, ErrDisconnected) {
			t.Errorf("exact=%d: err = %v, want ErrDisconnected", exact, err)
		}
	}
	if _, err := Diameter(nil, DiameterOptions{}); err == nil {
		t.Error("nil graph: no error")
	}
	if _, err := Diameter(g, DiameterOptions{Samples: -1}); err == nil {
		t.Error("negative samples: no error")
	}
}

func TestBallGrowth(t *testing.T) {
	balls, err := BallGrowth(cycle(t, 11), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range balls {
		if !slices.Equal(b.Sizes, []int{1, 3, 5, 7, 9, 11}) {
			t.Fatalf("C11 from %d: %v", b.Source, b.Sizes)
		}
	}
	// In Q4 the sphere of radius k has C(4, k) nodes.
	balls, err = BallGrowth(hypercube(t, 4), 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(balls[0].Sizes, []int{1, 5, 11, 15, 16}) {
		t.Fatalf("Q4: %v", balls[0].Sizes)
	}
	// A component of 3 nodes (a path) beside an edge.
	balls, err = BallGrowth(mustGraph(t, 5, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{3, 4}), 20, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range balls {
		if last := b.Sizes[len(b.Sizes)-1]; (b.Source < 3 && last != 3) || (b.Source >= 3 && last != 2) {
			t.Fatalf("from %d: %v", b.Source, b.Sizes)
		}
	}
	if _, err := BallGrowth(cycle(t, 4), 0, 1); err == nil {
		t.Error("zero sources: no error")
	}
	if _, err := BallGrowth(nil, 1, 1); err == nil {
		t.Error("nil graph: no error")
	}
}
