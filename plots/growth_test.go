package plots

import (
	"fmt"
	"math"
	"testing"

	"github.com/gexph/gexph/spectral"
)

func TestBallSeries(t *testing.T) {
	balls := []spectral.Ball{{Source: 7, Sizes: []int{1, 5, 17}}, {Source: 2, Sizes: []int{1, 4}}}
	got := BallSeries(balls)
	if len(got) != 2 || got[0].Label != "v = 7" || got[1].Label != "v = 2" {
		t.Fatalf("BallSeries = %+v", got)
	}
	for i, b := range balls {
		if got[i].X != nil || len(got[i].Y) != len(b.Sizes) {
			t.Fatalf("series %d = %+v, want Y = %v", i, got[i], b.Sizes)
		}
		for k, size := range b.Sizes {
			if got[i].Y[k] != float64(size) {
				t.Errorf("series %d Y[%d] = %g, want %d", i, k, got[i].Y[k], size)
			}
		}
	}
}

func TestBallGrowth(t *testing.T) {
	const n, d = 500, 4
	e := testExpander(t, n, d, 2)
	eps := spectral.Epsilon(e.Certificate.Lambda2, e.Certificate.LambdaMin, d)
	balls, err := spectral.BallGrowth(e.Graph(), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	lower, upper, err := spectral.BallBounds(n, d, eps, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, logY := range []bool{false, true} {
		p, err := BallGrowth(BallSeries(balls), lower, upper, logY)
		if err != nil {
			t.Fatal(err)
		}
		s := renderPNG(t, p, 6, 4, 100)
		requireColour(t, s, "Moore bound", boundRGB, 100)
		texts := renderSVG(t, p)
		requireText(t, texts, "upper bound (Moore)")
		requireText(t, texts, "lower bound (Tanner)")
		requireText(t, texts, fmt.Sprintf("v = %d", balls[0].Source))
	}
	// The eccentricity line is a lower bound on the exact diameter.
	diam, err := spectral.Diameter(e.Graph(), spectral.DiameterOptions{})
	if err != nil || !diam.Exact {
		t.Fatalf("Diameter = %+v, %v", diam, err)
	}
	ecc := 0
	for _, b := range balls {
		ecc = max(ecc, len(b.Sizes)-1)
	}
	if ecc > diam.Diameter {
		t.Fatalf("sampled eccentricity %d exceeds the diameter %d", ecc, diam.Diameter)
	}
	p, err := BallGrowth(BallSeries(balls), lower, upper, true)
	if err != nil {
		t.Fatal(err)
	}
	requireText(t, renderSVG(t, p), fmt.Sprintf("largest eccentricity %d (diameter ≥ %d)", ecc, ecc))
	// On the path 0–1–…–5, node 0 has eccentricity 5 (the diameter) and node 2 has 3;
	// a curve padded with its final size keeps its eccentricity.
	path := []Series{
		{Label: "v = 2", Y: []float64{1, 3, 5, 6, 6, 6, 6}},
		{Label: "v = 0", Y: []float64{1, 2, 3, 4, 5, 6}},
	}
	for _, curves := range [][]Series{path, path[:1]} {
		want := 5
		if len(curves) == 1 {
			want = 3
		}
		p, err := BallGrowth(curves, nil, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		requireText(t, renderSVG(t, p), fmt.Sprintf("largest eccentricity %d (diameter ≥ %d)", want, want))
	}
	// Bounds are optional.
	if _, err := BallGrowth(BallSeries(balls), nil, nil, true); err != nil {
		t.Errorf("without bounds: %v", err)
	}
	for name, c := range map[string]struct {
		curves       []Series
		lower, upper []float64
		logY         bool
	}{
		"no curves":      {nil, lower, upper, false},
		"empty curve":    {[]Series{{}}, nil, nil, false},
		"NaN bound":      {BallSeries(balls), []float64{1, math.NaN()}, nil, false},
		"zero log bound": {BallSeries(balls), nil, []float64{0, 0}, true},
		"infinite size":  {[]Series{{Y: []float64{1, math.Inf(1)}}}, nil, nil, false},
		"x mismatch":     {[]Series{{X: []float64{1}, Y: []float64{1, 2}}}, nil, nil, false},
	} {
		if _, err := BallGrowth(c.curves, c.lower, c.upper, c.logY); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestGraphDegreesAndDistribution(t *testing.T) {
	g, err := spectral.FromEdges(5, []int32{0, 0, 0, 1, 2}, []int32{1, 2, 3, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	degs, err := GraphDegrees(g)
	if err != nil {
		t.Fatal(err)
	}
	// Node 2 has a self loop (counted twice); node 4 is isolated.
	want := []int{3, 2, 4, 1, 0}
	for i := range want {
		if degs[i] != want[i] {
			t.Fatalf("degrees = %v, want %v", degs, want)
		}
	}
	if _, err := GraphDegrees(nil); err == nil {
		t.Error("nil graph: no error")
	}
	if _, err := GraphDegrees(&spectral.Graph{N: 2, Offsets: []int64{0, 1}}); err == nil {
		t.Error("corrupt graph: no error")
	}

	e := testExpander(t, 300, 4, 1)
	degs, err = GraphDegrees(e.Graph())
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, d := range degs {
		sum += d
	}
	if sum != 2*e.NumEdges() {
		t.Errorf("degrees sum to %d, want twice the %d edges", sum, e.NumEdges())
	}
	p, err := DegreeDistribution(degs)
	if err != nil {
		t.Fatal(err)
	}
	s := renderPNG(t, p, 6, 4, 100)
	requireColour(t, s, "bars", barFillRGB, 5000)
	counts := map[int]int{}
	for _, d := range degs {
		counts[d]++
	}
	texts := renderSVG(t, p)
	for _, c := range counts {
		requireText(t, texts, fmt.Sprint(c)) // the count over each bar
	}
	requireText(t, texts, fmt.Sprintf("mean degree %.3g", float64(sum)/float64(len(degs))))

	for name, degrees := range map[string][]int{
		"empty":    nil,
		"negative": {1, -1},
		"too wide": {0, maxBins + 5},
	} {
		if _, err := DegreeDistribution(degrees); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
