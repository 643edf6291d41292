// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddRowEqualsElementwiseSum holds addRow's o += u, on every width it takes with this
// CPU's vectors (16 to 64 values with AVX-512, 8 to 32 with AVX2), to the elementwise
// float32 sums bit for bit, with infinities, NaNs and signed zeros among the values, and
// the values around the row untouched; addRowLanes takes exactly those widths.
func TestAddRowEqualsElementwiseSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	specials := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), float32(math.Copysign(0, -1)), 0}
	value := func() float32 {
		if rng.IntN(8) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return float32(rng.NormFloat64())
	}
	lanes := compareLanes()
	took := 0
	for width := 1; width <= 80; width++ {
		l := addRowLanes(width)
		if want := lanes != 0 && width >= lanes && width <= 4*lanes; (l != 0) != want || (l != 0 && l != lanes) {
			t.Fatalf("addRowLanes(%d) = %d with %d-lane vectors", width, l, lanes)
		}
		if l == 0 {
			continue
		}
		took++
		buf, u := make([]float32, width+2), make([]float32, width+3)
		for i := range buf {
			buf[i] = value()
		}
		for i := range u {
			u[i] = value()
		}
		want := append([]float32(nil), buf...)
		for i := range width {
			want[1+i] = buf[1+i] + u[i]
		}
		addRow(l, buf[1:1+width], u)
		for i := range buf {
			if math.Float32bits(buf[i]) != math.Float32bits(want[i]) && !(isNaN32(buf[i]) && isNaN32(want[i])) {
				t.Fatalf("width %d: element %d = %v, want %v", width, i-1, buf[i], want[i])
			}
		}
	}
	if lanes != 0 && took == 0 {
		t.Fatalf("addRow took no width with %d-lane vectors", lanes)
	}
}

func isNaN32(x float32) bool { return x != x }
