package plots

import (
	"fmt"
	"math"

	"github.com/gexph/gexph/spectral"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BallSeries turns the ball growth of spectral.BallGrowth into one Series per
// centre v, with Y[k] = |B(v, k)|, labelled "v = <centre>" — up to three centres; with
// more, whose curves on an expander lie on top of each other, the first is labelled
// for all ("v = 447 and 7 other centres") and the others are left out of the legend.
func BallSeries(balls []spectral.Ball) []Series {
	out := make([]Series, len(balls))
	for i, b := range balls {
		out[i] = Series{Y: Floats(b.Sizes)}
		switch {
		case len(balls) <= 3:
			out[i].Label = fmt.Sprintf("v = %d", b.Source)
		case i == 0:
			out[i].Label = fmt.Sprintf("v = %d and %d other centres", b.Source, len(balls)-1)
		}
	}
	return out
}

// BallGrowth draws ball sizes |B(v, k)| against the radius k, one curve per Series
// (Y[k] = |B(v, k)|; see BallSeries), with optional bounds lower[k] and upper[k]
// for k = 0, 1, … (nil to leave one out), such as those of spectral.BallBounds:
// Tanner's expansion bound below and the Moore bound above. A dotted vertical line
// marks the largest eccentricity among the curves' centres (the first k at which a
// curve reaches its final size), a lower bound on the diameter. logY draws sizes on
// a log scale, where geometric growth is a straight line.
func BallGrowth(curves []Series, lower, upper []float64, logY bool) (*plot.Plot, error) {
	if len(curves) == 0 {
		return nil, fmt.Errorf("plots: ball growth: no curves")
	}
	p := newPlot("Ball growth |B(v, k)|", "radius k", "nodes within distance k")
	p.X.Tick.Marker = linearTicks{integer: true}
	if logY {
		useLogY(p)
	}
	m := &marks{}
	for i, b := range [...]struct {
		name   string
		values []float64
		rgb    uint32
		dashes []vg.Length
	}{
		{"upper bound (Moore)", upper, boundRGB, dashed()},
		{"lower bound (Tanner)", lower, theoryRGB, []vg.Length{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}},
	} {
		if b.values == nil {
			continue
		}
		xys, err := Series{Label: b.name, Y: b.values}.points("bound", i, logY)
		if err != nil {
			return nil, err
		}
		l := &plotter.Line{XYs: xys, LineStyle: lineStyle(rgb(b.rgb), 1.8, b.dashes)}
		p.Add(l)
		addLegend(p, b.name, l)
		m.line(xys)
	}
	ecc := math.Inf(-1)
	for i, s := range curves {
		xys, err := s.points("ball curve", i, logY)
		if err != nil {
			return nil, err
		}
		ecc = max(ecc, eccentricity(xys))
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: ball curve %d (%q): %w", i, s.Label, err)
		}
		l.LineStyle = newSeriesLine(nil, i).LineStyle
		pts.GlyphStyle = newSeriesScatter(nil, i, vg.Points(2.5)).GlyphStyle
		p.Add(l, pts)
		if s.Label != "" {
			addLegend(p, s.Label, l, pts)
		}
		m.line(xys)
	}
	diam := newRefLine(true, ecc, rgb(targetRGB), dotted())
	diam.style.Width = vg.Points(1.5)
	p.Add(diam)
	addLegend(p, fmt.Sprintf("largest eccentricity %g (diameter ≥ %g)", ecc, ecc), diam)
	p.X.Min, p.X.Max = padRange(p.X.Min, p.X.Max, 0.02) // keep the line off the frame
	m.ref(p, diam)
	finishLegend(p, m)
	return p, nil
}

// eccentricity returns the x of the first point of xys whose y equals the last
// point's y: where the ball stops growing.
func eccentricity(xys plotter.XYs) float64 {
	last := xys[len(xys)-1].Y
	for _, pt := range xys {
		if pt.Y == last {
			return pt.X
		}
	}
	return xys[len(xys)-1].X
}

// GraphDegrees returns the degree of every node of g (a self loop counts twice).
func GraphDegrees(g *spectral.Graph) ([]int, error) {
	if g == nil {
		return nil, fmt.Errorf("plots: graph degrees: nil graph")
	}
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("plots: graph degrees: %w", err)
	}
	out := make([]int, g.N)
	for u := range out {
		out[u] = g.Degree(u)
	}
	return out, nil
}

// DegreeDistribution draws the number of nodes of each degree as bars, one per
// degree between the least and the largest, with the mean degree in the title.
func DegreeDistribution(degrees []int) (*plot.Plot, error) {
	if len(degrees) == 0 {
		return nil, fmt.Errorf("plots: degree distribution: no degrees")
	}
	lo, hi, sum := degrees[0], degrees[0], 0
	for i, d := range degrees {
		if d < 0 {
			return nil, fmt.Errorf("plots: degree distribution: node %d has degree %d", i, d)
		}
		lo, hi, sum = min(lo, d), max(hi, d), sum+d
	}
	if hi-lo >= maxBins {
		return nil, fmt.Errorf("plots: degree distribution: degrees span %d to %d, more than %d bars",
			lo, hi, maxBins)
	}
	bins := make([]plotter.HistogramBin, hi-lo+1)
	for i := range bins {
		bins[i].Min, bins[i].Max = float64(lo+i)-0.5, float64(lo+i)+0.5
	}
	for _, d := range degrees {
		bins[d-lo].Weight++
	}
	hist := &plotter.Histogram{
		Bins:      bins,
		Width:     1,
		FillColor: rgb(barFillRGB),
		LineStyle: lineStyle(rgb(barLineRGB), 0.8, nil),
	}
	p := newPlot(fmt.Sprintf("Degree distribution (%d nodes, mean degree %.3g)",
		len(degrees), float64(sum)/float64(len(degrees))), "degree", "nodes")
	p.X.Tick.Marker = linearTicks{integer: true}
	p.Y.Tick.Marker = linearTicks{integer: true}
	p.Add(hist)
	if len(bins) <= maxNodeLabels {
		// Counts over the bars, so that rare degrees next to common ones show.
		xys := make(plotter.XYs, len(bins))
		text := make([]string, len(bins))
		for i, b := range bins {
			xys[i] = plotter.XY{X: float64(lo + i), Y: b.Weight}
			text[i] = fmt.Sprint(b.Weight)
		}
		counts, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: text})
		if err != nil {
			return nil, fmt.Errorf("plots: degree distribution: count labels: %w", err)
		}
		for i := range counts.TextStyle {
			counts.TextStyle[i].Font.Size = vg.Points(9)
			counts.TextStyle[i].XAlign = draw.XCenter
		}
		counts.Offset = vg.Point{Y: vg.Points(3)}
		p.Add(counts)
	}
	p.X.Min, p.X.Max = float64(lo)-1, float64(hi)+1
	p.Y.Min = 0
	p.Y.Max *= 1.08
	return p, nil
}
