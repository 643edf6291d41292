package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one named curve: Y[i] is drawn against X[i]. A nil X stands for the
// steps 0, 1, 2, …, len(Y)-1.
type Series struct {
	// Label names the curve in the legend; empty labels are left out of the legend.
	Label string
	// X holds the abscissae, or nil for 0, 1, 2, ….
	X []float64
	// Y holds the values.
	Y []float64
}

// Floats converts integers (ball sizes, degrees, counts) to float64 values for a
// Series.
func Floats(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// points checks s and returns its points. With logY the points carry log10 of Y
// (see useLogY) and only those with Y > 0 are kept. It fails on empty series,
// length mismatches and non-finite values.
func (s Series) points(what string, idx int, logY bool) (plotter.XYs, error) {
	name := fmt.Sprintf("%s %d (%q)", what, idx, s.Label)
	if len(s.Y) == 0 {
		return nil, fmt.Errorf("plots: %s has no values", name)
	}
	if s.X != nil && len(s.X) != len(s.Y) {
		return nil, fmt.Errorf("plots: %s has %d x values but %d y values", name, len(s.X), len(s.Y))
	}
	xys := make(plotter.XYs, 0, len(s.Y))
	for i, y := range s.Y {
		x := float64(i)
		if s.X != nil {
			x = s.X[i]
		}
		if !isFinite(x) || !isFinite(y) {
			return nil, fmt.Errorf("plots: %s point %d is (%v, %v), not finite", name, i, x, y)
		}
		if logY {
			if y <= 0 {
				continue
			}
			y = math.Log10(y)
		}
		xys = append(xys, plotter.XY{X: x, Y: y})
	}
	if len(xys) == 0 {
		return nil, fmt.Errorf("plots: %s has no positive values to draw on a log scale", name)
	}
	return xys, nil
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// seriesColor returns the i-th colour of a ten-colour qualitative palette (the
// "tab10" colours), cycling after ten.
func seriesColor(i int) color.Color {
	palette := [...]color.RGBA{
		{0x1f, 0x77, 0xb4, 0xff}, // blue
		{0xff, 0x7f, 0x0e, 0xff}, // orange
		{0x2c, 0xa0, 0x2c, 0xff}, // green
		{0x94, 0x67, 0xbd, 0xff}, // purple
		{0x8c, 0x56, 0x4b, 0xff}, // brown
		{0xe3, 0x77, 0xc2, 0xff}, // pink
		{0x17, 0xbe, 0xcf, 0xff}, // cyan
		{0xbc, 0xbd, 0x22, 0xff}, // olive
		{0x7f, 0x7f, 0x7f, 0xff}, // grey
		{0xd6, 0x27, 0x28, 0xff}, // red
	}
	if i < 0 {
		i = -i
	}
	return palette[i%len(palette)]
}

// Colours of reference marks (0xRRGGBB), kept apart from the series palette.
const (
	boundRGB   = 0xd62728 // red: theoretical bounds
	markRGB    = 0x2ca02c // green: trivial eigenvalue
	theoryRGB  = 0x202020 // near black: theory curves
	targetRGB  = 0x7f7f7f // grey: targets and thresholds
	gridRGB    = 0xdddddd
	barFillRGB = 0x9ec5e6 // light blue
	barLineRGB = 0x1f77b4
)

// rgb turns 0xRRGGBB into an opaque colour.
func rgb(hex uint32) color.RGBA {
	return color.RGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 0xff}
}

// Dash patterns.
func dashed() []vg.Length { return []vg.Length{vg.Points(6), vg.Points(3)} }
func dotted() []vg.Length { return []vg.Length{vg.Points(2), vg.Points(2)} }

// newPlot returns a plot with the package's common look: title, axis labels, a
// light grid and a slightly smaller legend font.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Tick.Marker = linearTicks{}
	p.Y.Tick.Marker = linearTicks{}
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.Top = true
	p.Legend.Padding = vg.Points(1)
	p.Legend.ThumbnailWidth = vg.Points(22)
	grid := plotter.NewGrid()
	grid.Vertical.Color = rgb(gridRGB)
	grid.Horizontal.Color = rgb(gridRGB)
	p.Add(grid)
	return p
}

// useLogY prepares the y axis of p for a log scale: the figure plots log10 of its
// values on a linear axis whose ticks are labelled with the values themselves.
// (plot.LogScale would do the same, but gonum/plot then reserves its axis label's
// space at the arithmetic middle of the range, leaving a wide gap under the title.)
func useLogY(p *plot.Plot) {
	p.Y.Tick.Marker = log10Ticks{}
}

// yValue returns y as drawn on an axis prepared by useLogY (logY) or a linear one.
func yValue(y float64, logY bool) float64 {
	if logY {
		return math.Log10(y)
	}
	return y
}

// refLine is a horizontal or vertical reference line across the whole data area
// (a bound, a threshold). It widens the axis range so that the line is always in
// view.
type refLine struct {
	vertical bool
	at       float64
	style    draw.LineStyle
}

func newRefLine(vertical bool, at float64, c color.Color, dashes []vg.Length) *refLine {
	return &refLine{vertical: vertical, at: at, style: lineStyle(c, 1.5, dashes)}
}

// Plot implements plot.Plotter.
func (r *refLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var a, b vg.Point
	if r.vertical {
		x := trX(r.at)
		a, b = vg.Point{X: x, Y: c.Min.Y}, vg.Point{X: x, Y: c.Max.Y}
	} else {
		y := trY(r.at)
		a, b = vg.Point{X: c.Min.X, Y: y}, vg.Point{X: c.Max.X, Y: y}
	}
	c.StrokeLines(r.style, c.ClipLinesXY([]vg.Point{a, b})...)
}

// DataRange implements plot.DataRanger: the line's position joins the axis range,
// the other axis is left alone.
func (r *refLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	inf := math.Inf(1)
	if r.vertical {
		return r.at, r.at, inf, -inf
	}
	return inf, -inf, r.at, r.at
}

// Thumbnail implements plot.Thumbnailer.
func (r *refLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(r.style, c.Min.X, y, c.Max.X, y)
}

// newSeriesLine returns the styled line of the i-th data series.
func newSeriesLine(xys plotter.XYs, i int) *plotter.Line {
	return &plotter.Line{
		XYs:       xys,
		LineStyle: draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1.6)},
	}
}

// newSeriesScatter returns styled markers of the i-th data series.
func newSeriesScatter(xys plotter.XYs, i int, radius vg.Length) *plotter.Scatter {
	// Filled shapes first: they stay visible over shaded regions and each other.
	shapes := [...]draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
		draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
		draw.CrossGlyph{}, draw.PlusGlyph{},
	}
	return &plotter.Scatter{
		XYs: xys,
		GlyphStyle: draw.GlyphStyle{
			Color:  seriesColor(i),
			Radius: radius,
			Shape:  shapes[i%len(shapes)],
		},
	}
}

// padRange widens [lo, hi] by frac of its width on each side (or by 1 when the range
// is a single point).
func padRange(lo, hi, frac float64) (float64, float64) {
	w := hi - lo
	if w <= 0 {
		return lo - 1, hi + 1
	}
	return lo - frac*w, hi + frac*w
}

// lineStyle returns a solid or dashed line style.
func lineStyle(c color.Color, widthPt float64, dashes []vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(widthPt), Dashes: dashes}
}
