package plots

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

func TestLinearTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi  float64
		integer bool
	}{
		{0, 1, false}, {-3.7, 4.2, false}, {-3.48, -3.39, false}, {0, 2.1, false},
		{1e-6, 3e-6, false}, {0, 75, true}, {1, 3, true}, {0, 0.5, true}, {10, 20, true},
		{0, 613, true}, {-1e6, 1e6, false},
	} {
		ticks := linearTicks{integer: c.integer}.Ticks(c.lo, c.hi)
		labelled := 0
		for _, tk := range ticks {
			if tk.Value < c.lo-1e-12 || tk.Value > c.hi+1e-12 {
				t.Errorf("[%g, %g]: tick %g outside the range", c.lo, c.hi, tk.Value)
			}
			if tk.Label == "" {
				continue
			}
			labelled++
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || math.Abs(v-tk.Value) > 1e-9*max(1, math.Abs(tk.Value)) {
				t.Errorf("[%g, %g]: tick at %g labelled %q", c.lo, c.hi, tk.Value, tk.Label)
			}
			if c.integer && tk.Value != math.Trunc(tk.Value) {
				t.Errorf("[%g, %g]: integer axis labels %g", c.lo, c.hi, tk.Value)
			}
		}
		minLabels := 2
		if c.integer && c.hi-c.lo < 1 {
			minLabels = 0 // no integer inside
		}
		if labelled < minLabels || labelled > maxTicks {
			t.Errorf("[%g, %g] integer %v: %d labels, want %d to %d", c.lo, c.hi, c.integer, labelled, minLabels, maxTicks)
		}
	}
	if ticks := (linearTicks{}).Ticks(1, 1); ticks != nil {
		t.Errorf("empty range: %v", ticks)
	}
}

func TestLog10Ticks(t *testing.T) {
	for _, c := range []struct {
		lo, hi    float64 // values, not exponents
		minLabels int
	}{
		{1, 600, 3}, {0.005, 3, 3}, {0.15, 2, 2}, {1e-12, 2, 6}, {3, 7, 1}, {1000, 1e6, 4}, {0.003, 50, 4}, {1, 1e5, 4},
	} {
		notations := map[bool]int{}
		ticks := log10Ticks{}.Ticks(math.Log10(c.lo), math.Log10(c.hi))
		labelled := 0
		for _, tk := range ticks {
			v := math.Pow(10, tk.Value)
			if v < c.lo*(1-1e-9) || v > c.hi*(1+1e-9) {
				t.Errorf("[%g, %g]: tick at %g outside the range", c.lo, c.hi, v)
			}
			mant := v / math.Pow10(int(math.Floor(tk.Value+1e-9)))
			if math.Abs(mant-math.Round(mant)) > 1e-6 {
				t.Errorf("[%g, %g]: tick at %g is not a whole multiple of a power of ten", c.lo, c.hi, v)
			}
			if tk.Label == "" {
				continue
			}
			labelled++
			if strings.ContainsAny(tk.Label, "⁻⁰") {
				t.Errorf("[%g, %g]: label %q uses a superscript minus or zero, which the plot fonts lack", c.lo, c.hi, tk.Label)
			}
			lv, power, err := parseTickLabel(tk.Label)
			if len(tk.Label) > 1 { // 1 to 9 read the same in either notation
				notations[power]++
			}
			if err != nil || math.Abs(lv-v) > 1e-9*v {
				t.Errorf("[%g, %g]: tick at %g labelled %q (%v)", c.lo, c.hi, v, tk.Label, err)
			}
		}
		if len(notations) > 1 {
			t.Errorf("[%g, %g]: labels mix plain numbers and powers of ten", c.lo, c.hi)
		}
		if labelled < c.minLabels || labelled > maxTicks {
			t.Errorf("[%g, %g]: %d labels, want %d to %d", c.lo, c.hi, labelled, c.minLabels, maxTicks)
		}
	}
}

func TestFinishLegendAvoidsData(t *testing.T) {
	// A curve in the top right leaves the top left free.
	p := newPlot("t", "x", "y")
	xys := plotter.XYs{{X: 0, Y: 0}, {X: 6, Y: 9}, {X: 10, Y: 10}}
	l := newSeriesLine(xys, 0)
	p.Add(l)
	addLegend(p, "curve", l)
	m := &marks{}
	m.line(xys)
	finishLegend(p, m)
	if !p.Legend.Top || !p.Legend.Left {
		t.Errorf("legend top %v left %v, want top left", p.Legend.Top, p.Legend.Left)
	}
	// A horizontal line along the top and one along the bottom leave no corner:
	// the y axis grows until the top right is free.
	p = newPlot("t", "x", "y")
	addLegend(p, "a longer legend entry", l)
	addLegend(p, "another legend entry", l)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 10, 0, 10
	m = &marks{}
	m.line(plotter.XYs{{X: 0, Y: 10}, {X: 10, Y: 10}})
	m.line(plotter.XYs{{X: 0, Y: 0}, {X: 10, Y: 0}})
	finishLegend(p, m)
	if !p.Legend.Top || p.Legend.Left || p.Y.Max <= 10 {
		t.Fatalf("legend top %v left %v, y max %g: want top right over a raised axis", p.Legend.Top, p.Legend.Left, p.Y.Max)
	}
	size := p.Legend.Rectangle(draw.Canvas{}).Size()
	if free := (p.Y.Max - 10) / (p.Y.Max - p.Y.Min) * dataAreaHeight; free < size.Y.Points() {
		t.Errorf("raised axis leaves %.1f points over the data, legend needs %.1f", free, size.Y.Points())
	}
}

// parseTickLabel reads a tick label, "0.01", "1e-6" or "2×10⁵", and tells whether it
// was written as a power of ten.
func parseTickLabel(label string) (float64, bool, error) {
	if strings.Contains(label, "e") {
		v, err := strconv.ParseFloat(label, 64)
		return v, true, err
	}
	mant, pow, ok := strings.Cut(label, "10")
	if !ok || !strings.ContainsAny(pow, "¹²³⁴⁵⁶⁷⁸⁹") {
		v, err := strconv.ParseFloat(label, 64)
		return v, false, err
	}
	m := 1.0
	if mant != "" {
		var err error
		if m, err = strconv.ParseFloat(strings.TrimSuffix(mant, "×"), 64); err != nil {
			return 0, true, err
		}
	}
	e, sign := 0, 1
	for _, r := range pow {
		if r == '⁻' {
			sign = -1
			continue
		}
		d := strings.IndexRune("⁰¹²³⁴⁵⁶⁷⁸⁹", r)
		if d < 0 {
			return 0, true, fmt.Errorf("bad exponent %q", pow)
		}
		e = e*10 + len([]rune("⁰¹²³⁴⁵⁶⁷⁸⁹"[:d]))
	}
	return m * math.Pow10(sign*e), true, nil
}
