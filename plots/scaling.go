package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ScalingCurve is one curve of ScalingCurves: a cost (Y) against a size (X), and
// optionally the size at which the measurement failed (ran out of memory).
type ScalingCurve struct {
	Series
	// FailedAt, if positive, is the size at which the measurement failed; it is
	// marked by a cross at the curve's last value, labelled "out of memory".
	FailedAt float64
}

// Limit is a horizontal reference line of ScalingCurves (a memory budget, a time
// budget) or RunCurves (a published figure), labelled in the legend.
type Limit struct {
	Label string
	Y     float64
}

// ScalingCurves draws costs against sizes on log–log axes, as scaling figures do: one
// line with point marks per curve, a cross where a curve failed, a dashed grey line
// per limit, and a dotted line of slope 1 and one of slope 2 through the first point
// of the first curve (linear and quadratic growth) for reference. Every value must be
// positive.
func ScalingCurves(title, xLabel, yLabel string, curves []ScalingCurve, limits []Limit) (*plot.Plot, error) {
	if len(curves) == 0 {
		return nil, fmt.Errorf("plots: scaling curves: no curves")
	}
	p := newPlot(title, xLabel, yLabel)
	p.X.Tick.Marker = log10Ticks{}
	useLogY(p)
	m := &marks{}
	xMin, xMax, yMin, yMax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	var lines []*plotter.Line
	var scatters []*plotter.Scatter
	var fails plotter.XYs
	for i, c := range curves {
		if c.X == nil {
			return nil, fmt.Errorf("plots: scaling curves: curve %d (%q) has no sizes", i, c.Label)
		}
		xys := make(plotter.XYs, len(c.Y))
		for j := range c.Y {
			x, y := c.X[j], c.Y[j]
			if !(x > 0) || !(y > 0) || !isFinite(x) || !isFinite(y) {
				return nil, fmt.Errorf("plots: scaling curves: curve %d (%q) point %d is (%v, %v), want positive finite values", i, c.Label, j, x, y)
			}
			xys[j] = plotter.XY{X: math.Log10(x), Y: math.Log10(y)}
			xMin, xMax = min(xMin, xys[j].X), max(xMax, xys[j].X)
			yMin, yMax = min(yMin, xys[j].Y), max(yMax, xys[j].Y)
		}
		if len(xys) == 0 {
			if c.FailedAt > 0 {
				continue
			}
			return nil, fmt.Errorf("plots: scaling curves: curve %d (%q) has no points", i, c.Label)
		}
		l := newSeriesLine(xys, i)
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: scaling curves: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: seriesColor(i), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		lines, scatters = append(lines, l), append(scatters, s)
		m.line(xys)
		if c.FailedAt > 0 {
			if !(c.FailedAt > 0) || !isFinite(c.FailedAt) {
				return nil, fmt.Errorf("plots: scaling curves: curve %d (%q) FailedAt = %v", i, c.Label, c.FailedAt)
			}
			fx := math.Log10(c.FailedAt)
			fails = append(fails, plotter.XY{X: fx, Y: xys[len(xys)-1].Y})
			xMax = max(xMax, fx)
		}
	}
	var refs []*refLine
	for _, lim := range limits {
		if !(lim.Y > 0) || !isFinite(lim.Y) {
			return nil, fmt.Errorf("plots: scaling curves: limit %q at %v, want a positive value", lim.Label, lim.Y)
		}
		r := newRefLine(false, math.Log10(lim.Y), rgb(targetRGB), dashed())
		refs = append(refs, r)
		yMax = max(yMax, r.at)
	}
	p.X.Min, p.X.Max = xMin-0.1, xMax+0.1
	p.Y.Min, p.Y.Max = yMin-0.3, yMax+0.3
	// Reference slopes through the first curve's first point.
	if len(lines) > 0 && len(lines[0].XYs) > 0 {
		x0, y0 := lines[0].XYs[0].X, lines[0].XYs[0].Y
		for _, ref := range []struct {
			k      float64
			dashes []vg.Length
		}{{1, dotted()}, {2, []vg.Length{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}} {
			k := ref.k
			f := &plotter.Function{F: func(x float64) float64 { return y0 + k*(x-x0) }, XMin: x0, XMax: p.X.Max, Samples: 2,
				LineStyle: lineStyle(rgb(theoryRGB), 1, ref.dashes)}
			p.Add(f)
			addLegend(p, []string{"", "linear growth", "quadratic growth"}[int(k)], f)
		}
	}
	for i, l := range lines {
		p.Add(l, scatters[i])
		addLegend(p, curves[i].Label, l, scatters[i])
	}
	if len(fails) > 0 {
		s, err := plotter.NewScatter(fails)
		if err != nil {
			return nil, fmt.Errorf("plots: scaling curves: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: rgb(boundRGB), Radius: vg.Points(5), Shape: draw.CrossGlyph{}}
		p.Add(s)
		addLegend(p, "ran out of memory", s)
		m.pointsOf(fails)
	}
	for i, r := range refs {
		p.Add(r)
		addLegend(p, limits[i].Label, r)
		m.ref(p, r)
	}
	finishLegend(p, m)
	return p, nil
}
