package spectral

import (
	"math"
	"testing"
)

func TestMixingBound(t *testing.T) {
	if got, want := MixingBound(100, 0.5, 0.1), math.Log(1e4); math.Abs(got-want) > 1e-12 {
		t.Errorf("MixingBound(100, 0.5, 0.1) = %v, want %v", got, want)
	}
	if !math.IsInf(MixingBound(10, 1, 0.1), 1) {
		t.Error("ε = 1 gives a finite bound")
	}
	if !math.IsNaN(MixingBound(0, 0.5, 0.1)) || !math.IsNaN(MixingBound(10, 0.5, 0)) {
		t.Error("invalid n or δ gives a number")
	}
}

func TestMixingWithinBoundOnExpanders(t *testing.T) {
	for _, c := range []struct{ n, d int }{{500, 4}, {2000, 6}, {1000, 10}} {
		g := randomRegular(t, c.n, c.d, uint64(c.n))
		ext, err := Lanczos(g, Adjacency, LanczosOptions{Tol: 1e-9, DeflateTrivial: true})
		if err != nil || !ext.Converged {
			t.Fatalf("n=%d: %+v, %v", c.n, ext, err)
		}
		eps := Epsilon(ext.Top[0], ext.Bottom[0], c.d)
		for _, delta := range []float64{0.1, 1e-3} {
			bound := MixingBound(c.n, eps, delta)
			mix, err := MixingTime(g, MixingOptions{Delta: delta, Sources: 3, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if mix.Steps < 1 || float64(mix.Steps) > bound {
				t.Fatalf("n=%d d=%d δ=%g: measured %d steps, bound %.2f (ε = %.3f)", c.n, c.d, delta, mix.Steps, bound, eps)
			}
			for i := 1; i < len(mix.Curve); i++ {
				if mix.Curve[i] > mix.Curve[i-1]+1e-12 {
					t.Fatalf("distance grew at step %d: %v", i, mix.Curve)
				}
			}
		}
	}
}

func TestMixingCompleteGraph(t *testing.T) {
	// From a point mass on K_n one step gives 1/(n-1) on every other node: L1 distance 2/n.
	const n = 10
	mix, err := MixingTime(complete(t, n), MixingOptions{Delta: 0.5, Starts: []int32{3}})
	if err != nil {
		t.Fatal(err)
	}
	if mix.Steps != 1 || math.Abs(mix.Curve[0]-2*(1-1.0/n)) > 1e-12 || math.Abs(mix.Curve[1]-2.0/n) > 1e-12 {
		t.Fatalf("%+v", mix)
	}
}

func TestMixingBipartiteAndLazy(t *testing.T) {
	g := cycle(t, 8)
	mix, err := MixingTime(g, MixingOptions{Delta: 0.01, MaxSteps: 300, Sources: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The walk alternates sides: the distance to uniform stays 1.
	if mix.Steps != -1 || len(mix.Curve) != 301 || math.Abs(mix.Curve[300]-1) > 1e-9 {
		t.Fatalf("bipartite walk mixed: steps %d, last %v", mix.Steps, mix.Curve[len(mix.Curve)-1])
	}
	lazy, err := MixingTime(g, MixingOptions{Delta: 0.01, MaxSteps: 300, Sources: 1, Lazy: true})
	if err != nil || lazy.Steps < 1 {
		t.Fatalf("lazy walk: %+v, %v", lazy, err)
	}
	// Star K_{1,3}, lazy: stationary is deg/2|E| = (1/2, 1/6, 1/6, 1/6), not uniform.
	star := mustGraph(t, 4, [2]int32{0, 1}, [2]int32{0, 2}, [2]int32{0, 3})
	mix, err = MixingTime(star, MixingOptions{Delta: 1e-6, Starts: []int32{1, 0}, Lazy: true})
	if err != nil || mix.Steps < 1 {
		t.Fatalf("star: %+v, %v", mix, err)
	}
	// A point mass on leaf 1 is |1−1/6| + 1/2 + 2·1/6 = 5/3 away, one on the centre 1.
	if got := mix.Curve[0]; math.Abs(got-5.0/3) > 1e-12 {
		t.Fatalf("star: initial distance %v", got)
	}
}

func TestMixingIsolatedStart(t *testing.T) {
	g := mustGraph(t, 3, [2]int32{0, 1})
	mix, err := MixingTime(g, MixingOptions{Starts: []int32{2}, MaxSteps: 5})
	if err != nil {
		t.Fatal(err)
	}
	if mix.Steps != -1 || mix.Curve[5] != 2 {
		t.Fatalf("walk left an isolated node: %+v", mix)
	}
}

func TestMixingErrors(t *testing.T) {
	g := cycle(t, 5)
	for name, opts := range map[string]MixingOptions{
		"negative delta":  {Delta: -1},
		"NaN delta":       {Delta: math.NaN()},
		"negative steps":  {MaxSteps: -1},
		"negative source": {Sources: -2},
		"start range":     {Starts: []int32{5}},
		"negative start":  {Starts: []int32{-1}},
	} {
		if _, err := MixingTime(g, opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := MixingTime(&Graph{N: 2, Offsets: make([]int64, 3)}, MixingOptions{}); err == nil {
		t.Error("no edges: no error")
	}
	if _, err := MixingTime(nil, MixingOptions{}); err == nil {
		t.Error("nil graph: no error")
	}
}
