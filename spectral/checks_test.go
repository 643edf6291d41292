package spectral

import (
	"math"
	"testing"
)

func TestRamanujanAndEpsilon(t *testing.T) {
	if got := RamanujanBound(6); math.Abs(got-2*math.Sqrt(5)) > 1e-15 {
		t.Errorf("RamanujanBound(6) = %v", got)
	}
	if got := RamanujanBound(3); math.Abs(got-2*math.Sqrt2) > 1e-15 {
		t.Errorf("RamanujanBound(3) = %v", got)
	}
	if !math.IsNaN(RamanujanBound(0)) {
		t.Error("RamanujanBound(0) is a number")
	}
	if !IsNearRamanujan(4.4, -4.47, 6, 0) || IsNearRamanujan(4.4, -4.5, 6, 0) || !IsNearRamanujan(4.4, -4.5, 6, 0.03) {
		t.Error("IsNearRamanujan misjudges the bound 2√5 ≈ 4.4721")
	}
	if got := Epsilon(3, -4.5, 6); got != 0.75 {
		t.Errorf("Epsilon = %v, want 0.75", got)
	}
	if !math.IsInf(Epsilon(1, -1, 0), 1) {
		t.Error("Epsilon with d = 0 is finite")
	}
	if got := SpectralGap(6, 4.5); got != 1.5 {
		t.Errorf("SpectralGap = %v", got)
	}
}

func TestApproximateCompleteEigen(t *testing.T) {
	// K_n with d = n: L_G/d = L_K/n exactly.
	a, err := ApproximateCompleteEigen(complete(t, 9), 9)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Lo-1) > 1e-12 || math.Abs(a.Hi-1) > 1e-12 || !a.Holds(1e-9) {
		t.Fatalf("K9: %+v", a)
	}
	// For a d-regular graph the Laplacian route must match the adjacency spectrum:
	// μ = d − λ, so Lo = 1 − λ₂/d and Hi = 1 − λₙ/d.
	g := randomRegular(t, 300, 6, 4)
	adj, err := DenseEigenvalues(g, Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	a, err = ApproximateCompleteEigen(g, 6)
	if err != nil {
		t.Fatal(err)
	}
	l2, ln := adj[g.N-2], adj[0]
	if math.Abs(a.Lo-(1-l2/6)) > 1e-9 || math.Abs(a.Hi-(1-ln/6)) > 1e-9 {
		t.Fatalf("Lo, Hi = %v, %v; want %v, %v", a.Lo, a.Hi, 1-l2/6, 1-ln/6)
	}
	eps := Epsilon(l2, ln, 6)
	if math.Abs(a.Epsilon()-eps) > 1e-9 || !a.Holds(eps+1e-9) || a.Holds(eps-1e-3) {
		t.Fatalf("ε = %v, want %v", a.Epsilon(), eps)
	}
}

func TestApproximateCompleteEigenLanczos(t *testing.T) {
	if testing.Short() {
		t.Skip("Lanczos on 3000 nodes")
	}
	g := randomRegular(t, 3000, 6, 5)
	a, err := ApproximateCompleteEigen(g, 6)
	if err != nil {
		t.Fatal(err)
	}
	l2, ln, err := ExpanderEigenvalues(g)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Lo-(1-l2/6)) > 2*ExpanderTol/6 || math.Abs(a.Hi-(1-ln/6)) > 2*ExpanderTol/6 {
		t.Fatalf("Laplacian route %+v vs adjacency λ₂ = %v, λₙ = %v", a, l2, ln)
	}
}

func TestApproximateCompleteSampledWithinEigenBounds(t *testing.T) {
	// Two K10 joined by one edge: a cut of one edge against |S||S̄| = 100 in K20.
	var e [][2]int32
	for u := range 10 {
		for v := u + 1; v < 10; v++ {
			e = append(e, [2]int32{int32(u), int32(v)}, [2]int32{int32(u + 10), int32(v + 10)})
		}
	}
	barbell := mustGraph(t, 20, append(e, [2]int32{0, 10})...)
	for name, c := range map[string]struct {
		g *Graph
		d float64
	}{
		"regular":   {randomRegular(t, 300, 6, 6), 6},
		"irregular": {randomIrregular(t, 200, 0.05, 6), 10},
		"barbell":   {barbell, 9},
	} {
		eig, err := ApproximateCompleteEigen(c.g, c.d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ApproximateCompleteSampled(c.g, c.d, 30, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.Lo > s.Hi || s.Lo < eig.Lo-1e-12 || s.Hi > eig.Hi+1e-12 {
			t.Fatalf("%s: sampled [%v, %v] outside eigen [%v, %v]", name, s.Lo, s.Hi, eig.Lo, eig.Hi)
		}
		again, _ := ApproximateCompleteSampled(c.g, c.d, 30, 1)
		if again != s {
			t.Fatalf("%s: same seed, different result", name)
		}
	}
	// K_n with d = n: every ratio is exactly 1.
	s, err := ApproximateCompleteSampled(complete(t, 12), 12, 9, 3)
	if err != nil || math.Abs(s.Lo-1) > 1e-12 || math.Abs(s.Hi-1) > 1e-12 {
		t.Fatalf("K12: %+v, %v", s, err)
	}
}

func TestApproximateCompleteErrors(t *testing.T) {
	g := cycle(t, 6)
	for name, f := range map[string]func() error{
		"eigen nil":      func() error { _, err := ApproximateCompleteEigen(nil, 2); return err },
		"eigen d=0":      func() error { _, err := ApproximateCompleteEigen(g, 0); return err },
		"eigen d=NaN":    func() error { _, err := ApproximateCompleteEigen(g, math.NaN()); return err },
		"eigen one node": func() error { _, err := ApproximateCompleteEigen(mustGraph(t, 1), 1); return err },
		"sampled nil":    func() error { _, err := ApproximateCompleteSampled(nil, 2, 3, 0); return err },
		"sampled d<0":    func() error { _, err := ApproximateCompleteSampled(g, -2, 3, 0); return err },
		"sampled d=Inf":  func() error { _, err := ApproximateCompleteSampled(g, math.Inf(1), 3, 0); return err },
		"sampled trials": func() error { _, err := ApproximateCompleteSampled(g, 2, 0, 0); return err },
		"sampled 1 node": func() error { _, err := ApproximateCompleteSampled(mustGraph(t, 1), 2, 3, 0); return err },
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
