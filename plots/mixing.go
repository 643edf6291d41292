package plots

import (
	"fmt"
	"math"

	"github.com/gexph/gexph/spectral"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// maxL1 is the largest L1 distance between two probability distributions.
const maxL1 = 2

// MixingCurves draws measured random-walk mixing, the L1 distance to stationarity
// after t steps, against Lemma 4.2 of the paper for a d-regular ε-expander on n
// nodes. Each curve is a Series whose Y[t] is the distance after t steps, such as
// a spectral.Mixing's Curve:
//
//	m, _ := spectral.MixingTime(g, spectral.MixingOptions{Delta: delta})
//	eps := spectral.Epsilon(lambda2, lambdaN, d)
//	p, err := plots.MixingCurves([]plots.Series{{Label: "d = 4", Y: m.Curve}}, g.N, eps, delta, true)
//
// The Lemma's marks are
//   - a dashed vertical line at t = log(n/δ²)/(2(1−ε)) (spectral.MixingBound),
//     the number of steps after which every start distribution is within δ;
//   - the implied guarantee for every t, δ(t) = √n·exp(−t(1−ε)), the δ that solves
//     the same formula for t, capped at 2 (the largest possible L1 distance);
//   - a dotted horizontal line at the target δ.
//
// logY draws the distance on a log scale (zero distances are then left out). The
// Lemma needs ε in [0, 1) and δ in (0, 2].
func MixingCurves(curves []Series, n int, eps, delta float64, logY bool) (*plot.Plot, error) {
	if len(curves) == 0 {
		return nil, fmt.Errorf("plots: mixing curves: no curves")
	}
	if n < 1 {
		return nil, fmt.Errorf("plots: mixing curves: %d nodes", n)
	}
	if !(eps >= 0 && eps < 1) {
		return nil, fmt.Errorf("plots: mixing curves: ε = %v is outside [0, 1)", eps)
	}
	if !(delta > 0 && delta <= maxL1) {
		return nil, fmt.Errorf("plots: mixing curves: δ = %v is outside (0, 2]", delta)
	}
	tBound := spectral.MixingBound(n, eps, delta)
	if !isFinite(tBound) {
		return nil, fmt.Errorf("plots: mixing curves: Lemma 4.2 bound is %v for n = %d, ε = %v, δ = %v",
			tBound, n, eps, delta)
	}

	p := newPlot(fmt.Sprintf("Random-walk mixing vs Lemma 4.2 (n = %d, ε = %.3g)", n, eps),
		"step t", "L1 distance to stationarity")
	p.X.Tick.Marker = linearTicks{integer: true}
	if logY {
		useLogY(p)
	}
	xMax, yMin := tBound, yValue(delta, logY)
	var lines []*plotter.Line
	for i, s := range curves {
		xys, err := s.points("mixing curve", i, logY)
		if err != nil {
			return nil, err
		}
		for _, pt := range xys {
			xMax, yMin = max(xMax, pt.X), min(yMin, pt.Y)
		}
		lines = append(lines, newSeriesLine(xys, i))
	}
	xMax = math.Ceil(xMax * 1.05)

	implied := &plotter.Function{
		F: func(t float64) float64 {
			return yValue(min(maxL1, math.Sqrt(float64(n))*math.Exp(-t*(1-eps))), logY)
		},
		XMin:      0,
		XMax:      xMax,
		Samples:   400,
		LineStyle: lineStyle(rgb(theoryRGB), 1.3, []vg.Length{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}),
	}
	target := newRefLine(false, yValue(delta, logY), rgb(targetRGB), dotted())
	target.style.Width = vg.Points(1.3)
	bound := newRefLine(true, tBound, rgb(boundRGB), dashed())
	bound.style.Width = vg.Points(1.8)
	p.Add(implied, target, bound)
	for i, l := range lines {
		p.Add(l)
		if curves[i].Label != "" {
			addLegend(p, curves[i].Label, l)
		}
	}
	addLegend(p, fmt.Sprintf("Lemma 4.2: t = log(n/δ²)/(2(1−ε)) = %.1f", tBound), bound)
	addLegend(p, "Lemma 4.2: δ(t) = √n·exp(−t(1−ε))", implied)
	addLegend(p, fmt.Sprintf("target δ = %g", delta), target)

	p.X.Min, p.X.Max = 0, xMax
	if logY {
		p.Y.Min, p.Y.Max = yMin-0.3, math.Log10(maxL1)+0.15
	} else {
		p.Y.Min, p.Y.Max = 0, maxL1*1.05
	}
	m := &marks{}
	for _, l := range lines {
		m.line(l.XYs)
	}
	m.function(implied)
	m.ref(p, target)
	m.ref(p, bound)
	finishLegend(p, m)
	return p, nil
}
