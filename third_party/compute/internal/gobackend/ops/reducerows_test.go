// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/internal/gobackend"
)

// rowOrderSums is the loop sumTrailingRows replaced: one row at a time, in index order.
func rowOrderSums[T gobackend.PODNumericConstraints](in, out []T, b int) {
	for a := range out {
		var s T
		for _, v := range in[a*b : a*b+b] {
			s += v
		}
		out[a] = s
	}
}

// TestSumTrailingRowsEqualsRowOrder holds the four-row sums to the one-row loop bit for
// bit: float32 values of mixed magnitudes (whose sums depend on the order), infinities,
// NaNs and signed zeros, and int32, for row lengths 0 to 20 and row counts off four.
func TestSumTrailingRowsEqualsRowOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for b := 0; b <= 20; b++ {
		for _, rows := range []int{0, 1, 3, 4, 5, 9, 64, 67} {
			in := make([]float32, rows*b)
			ints := make([]int32, rows*b)
			for i := range in {
				in[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4)))
				ints[i] = rng.Int32N(1<<20) - 1<<19
				switch rng.IntN(40) {
				case 0:
					in[i] = float32(math.Inf(1 - 2*rng.IntN(2)))
				case 1:
					in[i] = float32(math.NaN())
				case 2:
					in[i] = float32(math.Copysign(0, -1))
				}
			}
			got, want := make([]float32, rows), make([]float32, rows)
			sumTrailingRows(in, got, b)
			rowOrderSums(in, want, b)
			for a := range want {
				if math.Float32bits(got[a]) != math.Float32bits(want[a]) {
					t.Fatalf("b=%d, %d rows, row %d: %v (%#x), want %v (%#x)", b, rows, a, got[a], math.Float32bits(got[a]), want[a], math.Float32bits(want[a]))
				}
			}
			gi, wi := make([]int32, rows), make([]int32, rows)
			sumTrailingRows(ints, gi, b)
			rowOrderSums(ints, wi, b)
			for a := range wi {
				if gi[a] != wi[a] {
					t.Fatalf("int32, b=%d, %d rows, row %d: %d, want %d", b, rows, a, gi[a], wi[a])
				}
			}
		}
	}
}

// BenchmarkSumTrailingRows sums attention's per-head rows of MNIST's step ([22750, 4,
// 10] over the last axis): the four-row loop and the one-row loop it replaced.
func BenchmarkSumTrailingRows(b *testing.B) {
	const rows, width = 22750 * 4, 10
	in, out := make([]float32, rows*width), make([]float32, rows)
	for i := range in {
		in[i] = float32(i%97) * 0.01
	}
	b.Run("four-rows", func(b *testing.B) {
		for b.Loop() {
			sumTrailingRows(in, out, width)
		}
	})
	b.Run("one-row", func(b *testing.B) {
		for b.Loop() {
			rowOrderSums(in, out, width)
		}
	})
}
