package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Size of the data area of a DefaultWidth × DefaultHeight figure, in points, used to
// weigh the legend against the data when placing it.
const (
	dataAreaWidth  = 370
	dataAreaHeight = 215
)

// marks collects, in data coordinates, where a figure draws, so that the legend can
// be kept off it.
type marks struct {
	lines   []plotter.XYs // polylines: segments between points count too
	points  []plotter.XY  // isolated marks
	columns []plotter.XY  // bar tops: everything below counts
}

// line records a polyline.
func (m *marks) line(xys plotter.XYs) { m.lines = append(m.lines, xys) }

// pointsOf records isolated marks.
func (m *marks) pointsOf(xys plotter.XYs) { m.points = append(m.points, xys...) }

// column records a filled bar from the bottom of the axis up to (x, top).
func (m *marks) column(x, top float64) { m.columns = append(m.columns, plotter.XY{X: x, Y: top}) }

// samples returns the marks as normalised axis coordinates in [0, 1]² (points off
// the axes are dropped). Segments and columns are sampled finely. The axes must be
// linear.
func (m *marks) samples(p *plot.Plot) [][2]float64 {
	norm := func(x, y float64) ([2]float64, bool) {
		if !isFinite(x) || !isFinite(y) || !inAxis(&p.X, x) || !inAxis(&p.Y, y) {
			return [2]float64{}, false
		}
		return [2]float64{p.X.Norm(x), p.Y.Norm(y)}, true
	}
	var out [][2]float64
	add := func(x, y float64) {
		if q, ok := norm(x, y); ok {
			out = append(out, q)
		}
	}
	const steps = 24
	for _, l := range m.lines {
		for i := range l {
			add(l[i].X, l[i].Y)
			if i == 0 {
				continue
			}
			a, okA := norm(clampAxis(&p.X, l[i-1].X), clampAxis(&p.Y, l[i-1].Y))
			b, okB := norm(clampAxis(&p.X, l[i].X), clampAxis(&p.Y, l[i].Y))
			if !okA || !okB {
				continue
			}
			for s := 1; s < steps; s++ {
				f := float64(s) / steps
				out = append(out, [2]float64{a[0] + f*(b[0]-a[0]), a[1] + f*(b[1]-a[1])})
			}
		}
	}
	for _, pt := range m.points {
		add(pt.X, pt.Y)
	}
	for _, c := range m.columns {
		top, ok := norm(c.X, clampAxis(&p.Y, c.Y))
		if !ok {
			continue
		}
		for s := 0; s <= steps; s++ {
			out = append(out, [2]float64{top[0], top[1] * float64(s) / steps})
		}
	}
	return out
}

// inAxis reports whether v lies within the axis range.
func inAxis(a *plot.Axis, v float64) bool { return v >= a.Min && v <= a.Max }

// clampAxis moves v into the axis range.
func clampAxis(a *plot.Axis, v float64) float64 { return min(a.Max, max(a.Min, v)) }

// finishLegend places the legend of p in the corner where it covers the fewest of
// the marks (top right first on ties, then top left, bottom right, bottom left).
// When every corner is taken it picks the best top corner and raises the y axis
// until the legend clears the data below it.
// Call it after the axis ranges are final.
func finishLegend(p *plot.Plot, m *marks) {
	size := p.Legend.Rectangle(draw.Canvas{}).Size()
	if size.X <= 0 || size.Y <= 0 {
		return
	}
	const margin = 0.03
	fw := min(0.95, float64(size.X)/dataAreaWidth+margin)
	fh := min(0.9, float64(size.Y)/dataAreaHeight+margin)
	pts := m.samples(p)
	type corner struct{ top, left bool }
	corners := [...]corner{{true, false}, {true, true}, {false, false}, {false, true}}
	inCorner := func(c corner, q [2]float64) bool {
		inX := q[0] >= 1-fw
		if c.left {
			inX = q[0] <= fw
		}
		inY := q[1] >= 1-fh
		if !c.top {
			inY = q[1] <= fh
		}
		return inX && inY
	}
	best, bestCount := corners[0], math.MaxInt
	for _, c := range corners {
		n := 0
		for _, q := range pts {
			if inCorner(c, q) {
				n++
			}
		}
		if n < bestCount {
			best, bestCount = c, n
		}
	}
	if bestCount > 0 {
		// Raise the top of the y axis so that the marks under the best top corner end
		// below the legend.
		best, bestCount = corners[0], math.MaxInt
		var bestHigh float64
		for _, c := range corners[:2] {
			n, high := 0, 0.0
			for _, q := range pts {
				if inCorner(c, q) {
					n++
				}
				if (c.left && q[0] <= fw) || (!c.left && q[0] >= 1-fw) {
					high = max(high, q[1])
				}
			}
			if n < bestCount {
				best, bestCount, bestHigh = c, n, high
			}
		}
		raiseTop(&p.Y, bestHigh, 1-fh)
	}
	p.Legend.Top, p.Legend.Left = best.top, best.left
}

// raiseTop widens the axis upwards so that the normalised position high moves down
// to at most target.
func raiseTop(a *plot.Axis, high, target float64) {
	if high <= target || target <= 0 {
		return
	}
	a.Max = a.Min + (a.Max-a.Min)*high/target
}

// addLegend adds a legend entry to p; the first entry also carries the legend's
// backdrop.
func addLegend(p *plot.Plot, name string, thumbs ...plot.Thumbnailer) {
	if p.Legend.Rectangle(draw.Canvas{}).Size().Y == 0 {
		thumbs = append([]plot.Thumbnailer{&legendBackdrop{legend: &p.Legend}}, thumbs...)
	}
	p.Legend.Add(name, thumbs...)
}

// legendBackdrop fills the area of a legend with translucent white, so that its text
// stays legible over the data. It is the first thumbnail of the legend's first
// entry: the legend draws after all plotters and starts with that thumbnail, whose
// canvas fixes where the legend is.
type legendBackdrop struct{ legend *plot.Legend }

// Thumbnail implements plot.Thumbnailer.
func (b *legendBackdrop) Thumbnail(c *draw.Canvas) {
	l := b.legend
	size := l.Rectangle(*c).Size()
	descent := l.TextStyle.FontExtents().Descent
	pad := vg.Points(3)
	// The first entry's icon is the top one: its top plus the descent is the
	// legend's top. The icon sits at the legend's left edge, or at its right edge
	// for a legend on the right.
	top := c.Max.Y + descent + pad
	bottom := c.Max.Y - size.Y - pad
	left := c.Min.X - pad
	right := c.Min.X + size.X + pad
	if !l.Left {
		left, right = c.Max.X-size.X-pad, c.Max.X+pad
	}
	c.FillPolygon(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8}, []vg.Point{
		{X: left, Y: bottom}, {X: right, Y: bottom}, {X: right, Y: top}, {X: left, Y: top},
	})
}

// ref records a reference line across the current axis range.
func (m *marks) ref(p *plot.Plot, r *refLine) {
	if r.vertical {
		m.line(plotter.XYs{{X: r.at, Y: p.Y.Min}, {X: r.at, Y: p.Y.Max}})
		return
	}
	m.line(plotter.XYs{{X: p.X.Min, Y: r.at}, {X: p.X.Max, Y: r.at}})
}

// function records the curve of f.
func (m *marks) function(f *plotter.Function) {
	const samples = 100
	xys := make(plotter.XYs, 0, samples+1)
	for i := 0; i <= samples; i++ {
		x := f.XMin + (f.XMax-f.XMin)*float64(i)/samples
		xys = append(xys, plotter.XY{X: x, Y: f.F(x)})
	}
	m.line(xys)
}
