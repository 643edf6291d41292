package plots

import (
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// RunSeries is one curve of RunCurves: a label and the training logs (records of
// ReadTrainingLog) of the runs it summarises, typically one per seed.
type RunSeries struct {
	Label string
	Runs  [][]map[string]float64
	// Planned, if positive, is the number of epochs the runs plan: the x axis spans at
	// least epochs 1 to Planned, so that a run still going shows how far it has come.
	Planned int
}

// RunCurves draws key (a field of the records, such as val_metric) against the epoch,
// one line per series: the mean over its runs at each epoch, with a band of ± one
// standard deviation where more than one run has the epoch (runs that stopped early
// simply end). title and yLabel name the figure and the quantity. Each of refs is a
// dashed grey line across the figure, labelled in the legend (a published figure, a
// target); the y axis always shows it.
func RunCurves(series []RunSeries, key, title, yLabel string, refs ...Limit) (*plot.Plot, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("plots: run curves: no series")
	}
	for _, r := range refs {
		if !isFinite(r.Y) {
			return nil, fmt.Errorf("plots: run curves: reference %q at %v, want a finite value", r.Label, r.Y)
		}
	}
	p := newPlot(title, "epoch", yLabel)
	p.X.Tick.Marker = linearTicks{integer: true}
	m := &marks{}
	for i, s := range series {
		byEpoch := map[float64][]float64{}
		for _, run := range s.Runs {
			for j, r := range run {
				y, ok := r[key]
				if !ok {
					continue
				}
				x := float64(j + 1)
				if e, ok := r["epoch"]; ok {
					x = e
				}
				if !isFinite(x) || !isFinite(y) {
					return nil, fmt.Errorf("plots: run curves: %s: %s = %v at epoch %v", s.Label, key, y, x)
				}
				byEpoch[x] = append(byEpoch[x], y)
			}
		}
		if len(byEpoch) == 0 {
			return nil, fmt.Errorf("plots: run curves: %s: no record has a %s", s.Label, key)
		}
		epochs := make([]float64, 0, len(byEpoch))
		for e := range byEpoch {
			epochs = append(epochs, e)
		}
		sort.Float64s(epochs)
		var mean, upper, lower plotter.XYs
		for _, e := range epochs {
			ys := byEpoch[e]
			mu, sd := ys[0], 0.0
			if len(ys) > 1 {
				mu, sd = stat.MeanStdDev(ys, nil)
			}
			mean = append(mean, plotter.XY{X: e, Y: mu})
			if len(ys) > 1 {
				upper = append(upper, plotter.XY{X: e, Y: mu + sd})
				lower = append(lower, plotter.XY{X: e, Y: mu - sd})
			}
		}
		if len(upper) > 1 {
			band := append(plotter.XYs{}, upper...)
			for k := len(lower) - 1; k >= 0; k-- {
				band = append(band, lower[k])
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, fmt.Errorf("plots: run curves: %w", err)
			}
			c := color.NRGBAModel.Convert(seriesColor(i)).(color.NRGBA)
			c.A = 50 // translucent (non-premultiplied alpha)
			poly.Color, poly.LineStyle.Width = c, 0
			p.Add(poly)
			m.line(upper)
			m.line(lower)
		}
		l := newSeriesLine(mean, i)
		pts := newSeriesScatter(mean, i, vg.Points(2))
		p.Add(l, pts)
		label := s.Label
		if len(s.Runs) > 1 {
			label = fmt.Sprintf("%s (%d runs, mean ± std)", s.Label, len(s.Runs))
		}
		addLegend(p, label, l, pts)
		m.line(mean)
	}
	for _, s := range series {
		if s.Planned > 0 {
			p.X.Min, p.X.Max = min(p.X.Min, 1), max(p.X.Max, float64(s.Planned))
		}
	}
	lines := make([]*refLine, len(refs))
	for i, r := range refs {
		lines[i] = newRefLine(false, r.Y, rgb(targetRGB), dashed())
		p.Add(lines[i])
		addLegend(p, r.Label, lines[i])
	}
	if len(refs) > 0 {
		p.Y.Min, p.Y.Max = padRange(p.Y.Min, p.Y.Max, 0.03) // keep the lines off the frame
	}
	for _, l := range lines {
		m.ref(p, l)
	}
	finishLegend(p, m)
	return p, nil
}
