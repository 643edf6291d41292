// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddRowEqualsElementwiseSum holds addRow's o += u, on every width it takes with this
// CPU's vectors (16 to 256 values with AVX-512, 8 to 128 with AVX2), to the elementwise
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
	for width := 1; width <= 16*max(lanes, 1)+20; width++ {
		l := addRowLanes(width)
		if want := lanes != 0 && width >= lanes && width <= 16*lanes; (l != 0) != want || (l != 0 && l != lanes) {
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

// BenchmarkAddRow scatters 20,000 rows into 1,200 (an MNIST batch's edges into its
// nodes) with addRow and with the SIMD add of any length, at the widths of CLUSTER (32),
// MNIST and PATTERN (40) and Peptides-func (64).
func BenchmarkAddRow(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, width := range []int{32, 40, 64} {
		out, upd := make([]float32, 1200*width), make([]float32, 20000*width)
		dst := make([]int, 20000)
		for e := range dst {
			dst[e] = rng.IntN(1200)
		}
		lanes := addRowLanes(width)
		b.Run(fmt.Sprintf("width=%d/addRow", width), func(b *testing.B) {
			if lanes == 0 {
				b.Skip("addRow does not take this width on this CPU")
			}
			for b.Loop() {
				for e, d := range dst {
					addRow(lanes, out[d*width:][:width], upd[e*width:])
				}
			}
		})
		b.Run(fmt.Sprintf("width=%d/simdAdd", width), func(b *testing.B) {
			for b.Loop() {
				for e, d := range dst {
					o := out[d*width:][:width]
					simdAddVVFloat32(o, upd[e*width:][:width], o)
				}
			}
		})
	}
}
