// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"simd"
	"testing"
)

// TestGatheredDotsSumEachHead holds the per-head sums of gathered dot products of this
// CPU's SIMD width (segsum_amd64.go; none off amd64) to float64 sums of the same
// products: heads of 1 to 40 values, in rows of whole vectors and not, heads that span
// vectors and share them, a last vector of heads left partly empty (edge counts not a
// multiple of the heads per vector), worker ranges that start mid-table, and indices out
// of range (clamped).
func TestGatheredDotsSumEachHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	ran := 0
	shapes := [][2]int{{4, 10}, {8, 4}, {2, 8}, {1, 7}, {3, 5}, {2, 40}, {2, 36}, {2, 32}, {4, 16}, {20, 3}, {1, 1}, {5, 4}, {6, 8}, {3, 17}, {1, 16}, {2, 9}, {4, 2}, {3, 6}}
	for _, sh := range shapes {
		heads, b := sh[0], sh[1]
		w := heads * b
		for _, e := range []int{1, 3, 7, 64, 101} {
			n1, n2 := 9, 13
			d := dotRows{x1: randomFloats(rng, n1*w), x2: randomFloats(rng, n2*w), heads: heads, b: b,
				i1: randomIndices(rng, n1, e, false), i2: randomIndices(rng, n2, e, true), last1: int32(n1 - 1), last2: int32(n2 - 1)}
			d.i1[0], d.i2[e-1] = -3, int32(n2+5)
			lo := e / 3
			out := make([]float32, (e-lo)*heads+1)
			out[len(out)-1] = 42 // Nothing past the range is written.
			if !gatheredDotsSIMD(out[:len(out)-1], &d, lo, e) {
				if w >= segmentSumLanes() && segmentSumLanes() > 0 {
					t.Fatalf("heads %d of %d: no SIMD segment sums on rows of a vector or more", heads, b)
				}
				continue // Rows shorter than a vector: the scalar loop (TestGatheredDotEqualsUnfused).
			}
			ran++
			if out[len(out)-1] != 42 {
				t.Fatalf("heads %d of %d, %d edges: wrote past the range", heads, b, e)
			}
			for k := lo; k < e; k++ {
				r1, r2 := d.rows(k)
				for h := range heads {
					var want, mag float64
					for j := h * b; j < (h+1)*b; j++ {
						p := float64(r1[j]) * float64(r2[j])
						want, mag = want+p, mag+math.Abs(p)
					}
					got := float64(out[(k-lo)*heads+h])
					// A float32 sum of b products in any order, with or without fused
					// multiply-adds, is within b·2⁻²⁴ of the magnitudes' sum of the exact one.
					if math.Abs(got-want) > float64(b+1)*6e-8*mag {
						t.Fatalf("heads %d of %d, %d edges, edge %d head %d: %v, float64 %v", heads, b, e, k, h, got, want)
					}
				}
			}
		}
	}
	if ran == 0 {
		t.Skipf("no SIMD segment sums on this CPU (vectors of %d lanes)", simd.BroadcastFloat32s(0).Len())
	}
}
