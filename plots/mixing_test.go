package plots

import (
	"fmt"
	"math"
	"testing"

	"github.com/gexph/gexph/spectral"
)

func TestMixingCurves(t *testing.T) {
	const n, d, delta = 400, 4, 0.01
	e := testExpander(t, n, d, 5)
	g := e.Graph()
	eps := spectral.Epsilon(e.Certificate.Lambda2, e.Certificate.LambdaMin, d)
	var curves []Series
	for _, lazy := range []bool{false, true} {
		m, err := spectral.MixingTime(g, spectral.MixingOptions{Delta: delta, Sources: 2, Seed: 1, Lazy: lazy})
		if err != nil {
			t.Fatal(err)
		}
		curves = append(curves, Series{Label: fmt.Sprintf("lazy %v", lazy), Y: m.Curve})
	}
	// The Lemma's step count, from its formula.
	tBound := math.Log(n/(delta*delta)) / (2 * (1 - eps))
	for _, logY := range []bool{false, true} {
		p, err := MixingCurves(curves, n, eps, delta, logY)
		if err != nil {
			t.Fatalf("logY %v: %v", logY, err)
		}
		s := renderPNG(t, p, 6, 4, 100)
		requireColour(t, s, "Lemma 4.2 bound line", boundRGB, 150)
		requireColour(t, s, "first curve", 0x1f77b4, 100)
		requireColour(t, s, "second curve", 0xff7f0e, 100)
		texts := renderSVG(t, p)
		requireText(t, texts, fmt.Sprintf("= %.1f", tBound))
		requireText(t, texts, "target δ = 0.01")
		if logY {
			requireText(t, texts, "0.01") // a power-of-ten tick
			if lo, hi := math.Pow(10, p.Y.Min), math.Pow(10, p.Y.Max); lo > delta || hi < 2 {
				t.Errorf("log y axis spans %g to %g, want δ = %g and 2 inside", lo, hi, delta)
			}
		}
		if p.X.Max < tBound {
			t.Errorf("x axis ends at %g, before the bound %g", p.X.Max, tBound)
		}
	}
	// Zero distances are left out of a log scale, but a curve of zeros cannot be drawn.
	if _, err := MixingCurves([]Series{{Y: []float64{2, 0.5, 0}}}, n, eps, delta, true); err != nil {
		t.Errorf("curve ending at 0 on a log scale: %v", err)
	}
	if _, err := MixingCurves([]Series{{Y: []float64{0, 0}}}, n, eps, delta, true); err == nil {
		t.Error("curve of zeros on a log scale: no error")
	}
}

func TestMixingCurvesErrors(t *testing.T) {
	ok := []Series{{Y: []float64{2, 1, 0.1}}}
	for name, c := range map[string]struct {
		curves     []Series
		n          int
		eps, delta float64
	}{
		"no curves":     {nil, 100, 0.5, 0.01},
		"no nodes":      {ok, 0, 0.5, 0.01},
		"eps 1":         {ok, 100, 1, 0.01},
		"eps negative":  {ok, 100, -0.1, 0.01},
		"eps NaN":       {ok, 100, math.NaN(), 0.01},
		"delta 0":       {ok, 100, 0.5, 0},
		"delta above 2": {ok, 100, 0.5, 2.5},
		"delta NaN":     {ok, 100, 0.5, math.NaN()},
		"empty curve":   {[]Series{{Label: "e"}}, 100, 0.5, 0.01},
		"NaN value":     {[]Series{{Y: []float64{2, math.NaN()}}}, 100, 0.5, 0.01},
		"x mismatch":    {[]Series{{X: []float64{0}, Y: []float64{2, 1}}}, 100, 0.5, 0.01},
		"infinite x":    {[]Series{{X: []float64{0, math.Inf(1)}, Y: []float64{2, 1}}}, 100, 0.5, 0.01},
	} {
		if _, err := MixingCurves(c.curves, c.n, c.eps, c.delta, false); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
