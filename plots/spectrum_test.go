package plots

import (
	"fmt"
	"math"
	"testing"
)

func TestKestenMcKayDensityIsADensity(t *testing.T) {
	for _, d := range []int{2, 3, 4, 8, 20} {
		b := 2 * math.Sqrt(float64(d-1))
		// Midpoint rule over the support; the density is symmetric and vanishes
		// outside [−b, b].
		const steps = 400000
		h := 2 * b / steps
		total := 0.0
		for i := range steps {
			total += KestenMcKayDensity(d, -b+(float64(i)+0.5)*h) * h
		}
		tol := 1e-3
		if d == 2 { // the arcsine law has integrable singularities at ±2
			tol = 5e-3
		}
		if math.Abs(total-1) > tol {
			t.Errorf("d = %d: density integrates to %.5f, want 1", d, total)
		}
		for _, x := range []float64{0.3, 1.1, b * 0.9} {
			if a, c := KestenMcKayDensity(d, x), KestenMcKayDensity(d, -x); math.Abs(a-c) > 1e-15 || a <= 0 {
				t.Errorf("d = %d: density at ±%g is %g and %g, want equal and positive", d, x, a, c)
			}
		}
		if v := KestenMcKayDensity(d, b*1.01); v != 0 {
			t.Errorf("d = %d: density outside the support is %g", d, v)
		}
	}
	if KestenMcKayDensity(1, 0) != 0 || KestenMcKayDensity(0, 0) != 0 {
		t.Error("density of d < 2 is not 0")
	}
}

func TestBinValuesCountsEveryValueOnce(t *testing.T) {
	values := []float64{-3, -2.5, -1, 0, 0.1, 0.99, 1, 2.999, 3, 7, -9}
	bins := binValues(values, -3, 3, 6)
	total := 0.0
	for i, b := range bins {
		total += b.Weight
		if math.Abs(b.Max-b.Min-1) > 1e-12 {
			t.Errorf("bin %d spans [%g, %g], want width 1", i, b.Min, b.Max)
		}
	}
	if total != float64(len(values)) {
		t.Errorf("bins hold %g values, want %d", total, len(values))
	}
	// Reference: count each bin directly (end bins take the values beyond them).
	for i, b := range bins {
		want := 0
		for _, v := range values {
			in := v >= b.Min && v < b.Max
			if i == 0 {
				in = v < b.Max
			}
			if i == len(bins)-1 {
				in = v >= b.Min
			}
			want += btoi(in)
		}
		if b.Weight != float64(want) {
			t.Errorf("bin %d [%g, %g) holds %g, want %d", i, b.Min, b.Max, b.Weight, want)
		}
	}
}

func TestSpectrumHistogram(t *testing.T) {
	const n, d = 300, 4
	eigs := testEigenvalues(t, testExpander(t, n, d, 3))
	p, err := SpectrumHistogram(eigs, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := renderPNG(t, p, 6, 4, 100)
	requireColour(t, s, "Ramanujan bound lines", boundRGB, 200)
	requireColour(t, s, "trivial eigenvalue line", markRGB, 100)
	requireColour(t, s, "histogram bars", barFillRGB, 20000)

	// The legend counts the nontrivial eigenvalues beyond 2√(d−1), counted here
	// from the eigenvalues sorted by the solver (ascending: the last is d).
	b := 2 * math.Sqrt(d-1)
	outside := 0
	for _, v := range eigs[:n-1] {
		if math.Abs(v) > b+1e-9 {
			outside++
		}
	}
	texts := renderSVG(t, p)
	requireText(t, texts, fmt.Sprintf("(%d of %d outside)", outside, n-1))
	requireText(t, texts, "Adjacency spectrum (n = 300, d = 4)")
}

func TestSpectrumHistogramErrors(t *testing.T) {
	for name, c := range map[string]struct {
		eigs []float64
		d    int
		bins int
	}{
		"no eigenvalues": {nil, 4, 0},
		"zero degree":    {[]float64{1, 2}, 0, 0},
		"NaN eigenvalue": {[]float64{1, math.NaN()}, 4, 0},
		"infinite":       {[]float64{math.Inf(-1), 2}, 4, 0},
		"too many bins":  {[]float64{1, 2}, 4, maxBins + 1},
	} {
		if _, err := SpectrumHistogram(c.eigs, c.d, c.bins); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestExtremeEigenvalues(t *testing.T) {
	const d = 4
	b := 2 * math.Sqrt(d-1)
	var series []ExtremeSeries
	for _, n := range []int{60, 200} {
		s := ExtremeSeries{Label: fmt.Sprintf("n = %d", n)}
		for seed := range 6 {
			c := testExpander(t, n, d, uint64(seed)).Certificate
			s.Lambda2 = append(s.Lambda2, c.Lambda2)
			s.LambdaN = append(s.LambdaN, c.LambdaMin)
		}
		series = append(series, s)
	}
	// One point far outside the bound, so that the count is not trivially full.
	series[0].Lambda2[0] = b + 0.2
	p, err := ExtremeEigenvalues(series, d)
	if err != nil {
		t.Fatal(err)
	}
	st := renderPNG(t, p, 6, 4, 100)
	requireColour(t, st, "bound lines", boundRGB, 200)
	requireColour(t, st, "first series", 0x1f77b4, 50)
	requireColour(t, st, "second series", 0xff7f0e, 20)
	texts := renderSVG(t, p)
	for _, s := range series {
		inside := 0
		for i := range s.Lambda2 {
			inside += btoi(s.Lambda2[i] <= b+1e-9 && s.LambdaN[i] >= -b-1e-9)
		}
		requireText(t, texts, fmt.Sprintf("%s (%d/%d within bound)", s.Label, inside, len(s.Lambda2)))
	}
}

func TestExtremeEigenvaluesErrors(t *testing.T) {
	ok := ExtremeSeries{Label: "ok", Lambda2: []float64{3}, LambdaN: []float64{-3}}
	for name, c := range map[string]struct {
		series []ExtremeSeries
		d      int
	}{
		"no series":   {nil, 4},
		"zero degree": {[]ExtremeSeries{ok}, 0},
		"empty":       {[]ExtremeSeries{ok, {Label: "empty"}}, 4},
		"mismatch":    {[]ExtremeSeries{{Lambda2: []float64{1, 2}, LambdaN: []float64{1}}}, 4},
		"NaN":         {[]ExtremeSeries{{Lambda2: []float64{math.NaN()}, LambdaN: []float64{1}}}, 4},
	} {
		if _, err := ExtremeEigenvalues(c.series, c.d); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
