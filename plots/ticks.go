package plots

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// maxTicks is the most labelled ticks an axis gets.
const maxTicks = 8

// formatTick writes a tick value in its shortest form.
func formatTick(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// linearTicks labels multiples of a step of 1, 2 or 5 times a power of ten, at most
// maxTicks of them, written with exactly the decimals the step needs, and puts
// unlabelled minor ticks between. With integer set the step is at least 1 (for
// steps, radii, degrees, epochs and counts).
type linearTicks struct{ integer bool }

// Ticks implements plot.Ticker.
func (t linearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !isFinite(lo) || !isFinite(hi) {
		return nil
	}
	exp := int(math.Floor(math.Log10((hi - lo) / maxTicks)))
	if t.integer {
		exp = max(0, exp)
	}
	// step = mant·10^exp, kept as integers so that labels come out exact.
	mant := 1
	for _, m := range [...]int{1, 2, 5, 10, 20, 50} {
		mant = m
		if (hi-lo)/(float64(m)*math.Pow10(exp)) <= maxTicks-1 {
			break
		}
	}
	if mant >= 10 {
		mant, exp = mant/10, exp+1
	}
	step := float64(mant) * math.Pow10(exp)
	decimals := max(0, -exp)
	minorPer := 5
	if mant == 2 {
		minorPer = 4
	}
	if t.integer && step/float64(minorPer) < 1 {
		minorPer = int(step)
	}
	first, last := int64(math.Ceil(lo/step-1e-9)), int64(math.Floor(hi/step+1e-9))
	var ticks []plot.Tick
	for i := first; i <= last; i++ {
		v := float64(i) * step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	if minorPer > 1 {
		minor := step / float64(minorPer)
		for i := int64(math.Ceil(lo / minor)); float64(i)*minor <= hi; i++ {
			if i%int64(minorPer) != 0 {
				ticks = append(ticks, plot.Tick{Value: float64(i) * minor})
			}
		}
	}
	return ticks
}

// log10Ticks marks an axis whose values are base-10 logarithms (see useLogY): it
// labels the powers of ten within the range (every second or third one over many
// decades) with their values, adds labels at 2× and 5× when fewer than two powers
// fall inside, and leaves unlabelled minor ticks at the other multiples.
type log10Ticks struct{}

// Ticks implements plot.Ticker.
func (log10Ticks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi >= lo) || !isFinite(lo) || !isFinite(hi) {
		return nil
	}
	first, last := int(math.Floor(lo)), int(math.Ceil(hi))
	every := max(1, (last-first+maxTicks-1)/maxTicks)
	const tol = 1e-9
	powers := 0
	for e := first; e <= last; e++ {
		if v := float64(e); v >= lo-tol && v <= hi+tol {
			powers++
		}
	}
	// One notation per axis: plain numbers while every label is short (10⁻⁴ to 10⁴);
	// otherwise powers of ten for all labels: 10⁶ and 2×10⁵ on an axis of positive
	// exponents, 1e-6 and 2e-3 where exponents go negative (the plot fonts have no
	// superscript minus).
	powerNotation := first < -4 || last > 4
	eNotation := powerNotation && first < 0
	var ticks []plot.Tick
	for e := first; e <= last; e++ {
		for m := 1; m < 10; m++ {
			v := float64(e) + math.Log10(float64(m))
			if v < lo-tol || v > hi+tol {
				continue
			}
			label := ""
			if (m == 1 && (e-first)%every == 0) || (powers < 2 && (m == 2 || m == 5)) {
				label = formatTick(float64(m) * math.Pow10(e))
				switch {
				case eNotation:
					label = fmt.Sprintf("%de%d", m, e)
				case powerNotation:
					label = powerOfTen(m, e)
				}
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: label})
		}
	}
	return ticks
}

// powerOfTen writes m·10^e, e ≥ 0, as "10⁶" (m = 1) or "2×10⁵", and m·10⁰ as "m" (the
// plot fonts have no superscript zero either).
func powerOfTen(m, e int) string {
	if e == 0 {
		return strconv.Itoa(m)
	}
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	sup := ""
	for _, d := range strconv.Itoa(e) {
		sup += string([]rune(digits)[d-'0'])
	}
	if m == 1 {
		return "10" + sup
	}
	return strconv.Itoa(m) + "×10" + sup
}
