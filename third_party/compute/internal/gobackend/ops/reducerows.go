// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

// Sums of short trailing rows (gexph patch, see PATCHES.md at the module root).
//
// ReduceSum over the last axis of rows too short for the SIMD reductions (attention's
// per-head sums of [E, H, Dh] over Dh = 4 or 10) ran one row at a time: each row's sum a
// chain of dependent additions, with a bounds check a value. sumTrailingRows adds four
// rows side by side, each still in index order from zero, so the sums are the same bit
// for bit.

import "github.com/gomlx/compute/internal/gobackend"

// sumTrailingRows sets out[a] = in[a·b] + in[a·b+1] + … + in[a·b+b−1], added in that
// order from zero, for each of the len(out) rows of b values of in.
func sumTrailingRows[T gobackend.PODNumericConstraints](in, out []T, b int) {
	a := 0
	for ; a+4 <= len(out); a += 4 {
		r0 := in[a*b : a*b+b]
		r1 := in[(a+1)*b : (a+1)*b+b][:len(r0)]
		r2 := in[(a+2)*b : (a+2)*b+b][:len(r0)]
		r3 := in[(a+3)*b : (a+3)*b+b][:len(r0)]
		var s0, s1, s2, s3 T
		for k, v := range r0 {
			s0 += v
			s1 += r1[k]
			s2 += r2[k]
			s3 += r3[k]
		}
		out[a], out[a+1], out[a+2], out[a+3] = s0, s1, s2, s3
	}
	for ; a < len(out); a++ {
		var s T
		for _, v := range in[a*b : a*b+b] {
			s += v
		}
		out[a] = s
	}
}
