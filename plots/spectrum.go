package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/gexph/gexph/spectral"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxBins bounds histogram bin counts.
const maxBins = 10000

// KestenMcKayDensity returns the Kesten–McKay density at x,
//
//	f(x) = d·√(4(d−1) − x²) / (2π(d² − x²))  for |x| < 2√(d−1), 0 elsewhere,
//
// the limit of the adjacency eigenvalue distribution of random d-regular graphs as
// the number of nodes grows. It is 0 for d < 2.
func KestenMcKayDensity(d int, x float64) float64 {
	if d < 2 {
		return 0
	}
	fd := float64(d)
	r := 4*(fd-1) - x*x
	if r <= 0 {
		return 0
	}
	return fd * math.Sqrt(r) / (2 * math.Pi * (fd*fd - x*x))
}

// SpectrumHistogram draws the histogram of all adjacency eigenvalues of a d-regular
// graph (as from a dense eigensolver), with dashed lines at ±2√(d−1) (the
// Ramanujan bound), a dotted line at the trivial eigenvalue d, and, for d ≥ 2, the
// Kesten–McKay density scaled to counts. The bound's legend entry counts the
// nontrivial eigenvalues (all but the largest) outside the bound. bins ≤ 0 picks
// √n bins, clamped to [10, 80].
func SpectrumHistogram(eigenvalues []float64, d int, bins int) (*plot.Plot, error) {
	n := len(eigenvalues)
	if n == 0 {
		return nil, fmt.Errorf("plots: spectrum histogram: no eigenvalues")
	}
	if d < 1 {
		return nil, fmt.Errorf("plots: spectrum histogram: degree %d is not positive", d)
	}
	if bins > maxBins {
		return nil, fmt.Errorf("plots: spectrum histogram: %d bins, more than %d", bins, maxBins)
	}
	for i, v := range eigenvalues {
		if !isFinite(v) {
			return nil, fmt.Errorf("plots: spectrum histogram: eigenvalue %d is %v", i, v)
		}
	}
	if bins <= 0 {
		bins = min(80, max(10, int(math.Round(math.Sqrt(float64(n))))))
	}
	b := spectral.RamanujanBound(d)
	fd := float64(d)
	lo, hi := slices.Min(eigenvalues), slices.Max(eigenvalues)
	lo, hi = min(lo, -b), max(hi, b)
	if hi-lo < 1e-9 {
		lo, hi = lo-0.5, hi+0.5
	}

	hist := &plotter.Histogram{
		Bins:      binValues(eigenvalues, lo, hi, bins),
		Width:     (hi - lo) / float64(bins),
		FillColor: rgb(barFillRGB),
		LineStyle: draw.LineStyle{Color: rgb(barLineRGB), Width: vg.Points(0.5)},
	}

	p := newPlot(fmt.Sprintf("Adjacency spectrum (n = %d, d = %d)", n, d),
		"eigenvalue λ", "count")
	p.Add(hist)
	addLegend(p, "eigenvalues", hist)

	var km *plotter.Function
	if d >= 2 {
		scale := float64(n) * hist.Width
		km = &plotter.Function{
			F:         func(x float64) float64 { return scale * KestenMcKayDensity(d, x) },
			XMin:      -b,
			XMax:      b,
			Samples:   400,
			LineStyle: draw.LineStyle{Color: rgb(theoryRGB), Width: vg.Points(1.2)},
		}
		p.Add(km)
		addLegend(p, "Kesten–McKay density", km)
	}

	outside := 0
	sorted := slices.Sorted(slices.Values(eigenvalues))
	tol := 1e-9 * max(1, b)
	for _, v := range sorted[:n-1] {
		if math.Abs(v) > b+tol {
			outside++
		}
	}
	lower := newRefLine(true, -b, rgb(boundRGB), dashed())
	upper := newRefLine(true, b, rgb(boundRGB), dashed())
	p.Add(lower, upper)
	addLegend(p, fmt.Sprintf("±2√(d−1) = ±%.3g (%d of %d outside)", b, outside, n-1), upper)

	trivial := newRefLine(true, fd, rgb(markRGB), dotted())
	trivial.style.Width = vg.Points(2)
	p.Add(trivial)
	addLegend(p, fmt.Sprintf("trivial λ₁ = d = %d", d), trivial)
	p.X.Min, p.X.Max = padRange(min(lo, fd), max(hi, fd), 0.03)
	m := &marks{}
	for _, bin := range hist.Bins {
		m.column(bin.Min, bin.Weight)
		m.column((bin.Min+bin.Max)/2, bin.Weight)
		m.column(bin.Max, bin.Weight)
	}
	for _, r := range []*refLine{lower, upper, trivial} {
		m.ref(p, r)
	}
	if km != nil {
		m.function(km)
	}
	finishLegend(p, m)
	return p, nil
}

// binValues counts values into bins equal-width bins over [lo, hi]; values outside
// the range go to the nearest end bin.
func binValues(values []float64, lo, hi float64, bins int) []plotter.HistogramBin {
	width := (hi - lo) / float64(bins)
	out := make([]plotter.HistogramBin, bins)
	for i := range out {
		out[i].Min = lo + float64(i)*width
		out[i].Max = lo + float64(i+1)*width
	}
	for _, v := range values {
		i := int(math.Floor((v - lo) / width))
		out[min(bins-1, max(0, i))].Weight++
	}
	return out
}

// ExtremeSeries holds, for one family of graphs (a construction at one size), the
// second largest (Lambda2) and smallest (LambdaN) adjacency eigenvalue of each
// sampled graph, one entry per seed, as from a Lanczos solver.
type ExtremeSeries struct {
	// Label names the family in the legend.
	Label string
	// Lambda2[i] is λ₂ of the i-th graph.
	Lambda2 []float64
	// LambdaN[i] is λₙ of the i-th graph.
	LambdaN []float64
}

// ExtremeEigenvalues draws λₙ against λ₂, one point per sampled graph and one colour
// and marker per series, over the Ramanujan region λ₂ ≤ 2√(d−1), λₙ ≥ −2√(d−1)
// (shaded, bounded by dashed lines). Each legend entry counts the graphs of its
// series inside the region.
func ExtremeEigenvalues(series []ExtremeSeries, d int) (*plot.Plot, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("plots: extreme eigenvalues: no series")
	}
	if d < 1 {
		return nil, fmt.Errorf("plots: extreme eigenvalues: degree %d is not positive", d)
	}
	b := spectral.RamanujanBound(d)
	tol := 1e-9 * max(1, b)
	xlo, xhi, ylo, yhi := b, b, -b, -b
	p := newPlot(fmt.Sprintf("Extreme eigenvalues vs Ramanujan bound (d = %d)", d),
		"λ₂ (second largest eigenvalue)", "λ_n (smallest eigenvalue)")
	p.Add(&quadrant{xMax: b, yMin: -b, fill: color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0x20}})
	type scatter struct {
		s     *plotter.Scatter
		label string
	}
	var scatters []scatter
	for si, s := range series {
		if len(s.Lambda2) == 0 || len(s.Lambda2) != len(s.LambdaN) {
			return nil, fmt.Errorf("plots: extreme eigenvalues: series %d (%q) has %d λ₂ and %d λₙ values",
				si, s.Label, len(s.Lambda2), len(s.LambdaN))
		}
		xys := make(plotter.XYs, len(s.Lambda2))
		inside := 0
		for i := range xys {
			x, y := s.Lambda2[i], s.LambdaN[i]
			if !isFinite(x) || !isFinite(y) {
				return nil, fmt.Errorf("plots: extreme eigenvalues: series %d (%q) point %d is (%v, %v)",
					si, s.Label, i, x, y)
			}
			xys[i] = plotter.XY{X: x, Y: y}
			if x <= b+tol && y >= -b-tol {
				inside++
			}
			xlo, xhi, ylo, yhi = min(xlo, x), max(xhi, x), min(ylo, y), max(yhi, y)
		}
		sc := newSeriesScatter(xys, si, vg.Points(3.5))
		scatters = append(scatters, scatter{sc, fmt.Sprintf("%s (%d/%d within bound)", s.Label, inside, len(xys))})
	}
	vline := newRefLine(true, b, rgb(boundRGB), dashed())
	hline := newRefLine(false, -b, rgb(boundRGB), dashed())
	p.Add(vline, hline)
	addLegend(p, fmt.Sprintf("Ramanujan bound ±2√(d−1) = ±%.3g", b), vline)
	for _, sc := range scatters {
		p.Add(sc.s)
		addLegend(p, sc.label, sc.s)
	}
	p.X.Min, p.X.Max = padRange(xlo, xhi, 0.15)
	p.Y.Min, p.Y.Max = padRange(ylo, yhi, 0.15)
	m := &marks{}
	m.ref(p, vline)
	m.ref(p, hline)
	for _, sc := range scatters {
		m.pointsOf(sc.s.XYs)
	}
	finishLegend(p, m)
	return p, nil
}

// quadrant fills the part of the data area with x ≤ xMax and y ≥ yMin.
type quadrant struct {
	xMax, yMin float64
	fill       color.Color
}

// Plot implements plot.Plotter.
func (q *quadrant) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x := min(c.Max.X, max(c.Min.X, trX(q.xMax)))
	y := min(c.Max.Y, max(c.Min.Y, trY(q.yMin)))
	pts := []vg.Point{{X: c.Min.X, Y: y}, {X: x, Y: y}, {X: x, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(q.fill, pts)
}
