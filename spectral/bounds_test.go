package spectral

import (
	"math"
	"testing"
)

// On random regular expanders every measured ball lies between Tanner's lower and the
// Moore upper bound, and the diameter between the Moore and Chung bounds.
func TestBoundsHoldOnExpanders(t *testing.T) {
	for _, tc := range []struct{ n, d int }{{500, 4}, {1200, 6}, {1200, 10}} {
		g := randomRegular(t, tc.n, tc.d, 7)
		ev, err := DenseEigenvalues(g, Adjacency)
		if err != nil {
			t.Fatal(err)
		}
		// ev ascending: λₙ first, λ₁ = d last.
		eps := math.Max(math.Abs(ev[len(ev)-2]), math.Abs(ev[0])) / float64(tc.d)
		balls, err := BallGrowth(g, 20, 3)
		if err != nil {
			t.Fatal(err)
		}
		maxK := 0
		for _, b := range balls {
			maxK = max(maxK, len(b.Sizes)-1)
		}
		lower, upper, err := BallBounds(tc.n, tc.d, eps, maxK)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range balls {
			for k := 0; k <= maxK; k++ {
				size := float64(tc.n)
				if k < len(b.Sizes) {
					size = float64(b.Sizes[k])
				}
				if size < lower[k]-1e-9 || size > upper[k]+1e-9 {
					t.Errorf("n=%d d=%d source %d: |B(v,%d)| = %v outside [%.2f, %.2f]", tc.n, tc.d, b.Source, k, size, lower[k], upper[k])
				}
			}
		}
		diam, err := Diameter(g, DiameterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, err := DiameterBounds(tc.n, tc.d, eps)
		if err != nil {
			t.Fatal(err)
		}
		if !diam.Exact || diam.Diameter < lo || diam.Diameter > hi {
			t.Errorf("n=%d d=%d: diameter %d (exact %v) outside [%d, %d]", tc.n, tc.d, diam.Diameter, diam.Exact, lo, hi)
		}
	}
}

// The Moore bound is attained by the Petersen graph (3-regular, diameter 2, 10 nodes)
// and by the complete graph, whose ε = 1/(n−1) gives Chung's bound 1.
func TestBoundsKnownGraphs(t *testing.T) {
	_, upper, err := BallBounds(10, 3, 0.5, 2)
	if err != nil {
		t.Fatal(err)
	}
	if upper[0] != 1 || upper[1] != 4 || upper[2] != 10 {
		t.Errorf("Moore bounds for d=3: %v, want [1 4 10]", upper)
	}
	lo, _, err := DiameterBounds(10, 3, 2.0/3)
	if err != nil || lo != 2 {
		t.Errorf("Moore diameter bound of the Petersen graph: %d (%v), want 2", lo, err)
	}
	lo, hi, err := DiameterBounds(8, 7, 1.0/7)
	if err != nil || lo != 1 || hi != 1 {
		t.Errorf("K_8 diameter bounds [%d, %d] (%v), want [1, 1]", lo, hi, err)
	}
	lower, _, _ := BallBounds(100, 4, 0, 2)
	if lower[1] != 100 {
		t.Errorf("ε = 0 (complete-graph-like) should reach every node in one step, got %v", lower)
	}
}

func TestBoundsErrors(t *testing.T) {
	for _, tc := range []struct {
		n, d int
		eps  float64
		maxK int
	}{{0, 3, 0.5, 2}, {10, 0, 0.5, 2}, {10, 3, -0.1, 2}, {10, 3, math.NaN(), 2}, {10, 3, 0.5, -1}} {
		if _, _, err := BallBounds(tc.n, tc.d, tc.eps, tc.maxK); err == nil {
			t.Errorf("BallBounds(%d, %d, %v, %d): no error", tc.n, tc.d, tc.eps, tc.maxK)
		}
	}
	for _, tc := range []struct {
		n, d int
		eps  float64
	}{{1, 3, 0.5}, {10, 0, 0.5}, {10, 3, 1.5}, {10, 1, 0.5}} {
		if _, _, err := DiameterBounds(tc.n, tc.d, tc.eps); err == nil {
			t.Errorf("DiameterBounds(%d, %d, %v): no error", tc.n, tc.d, tc.eps)
		}
	}
}
