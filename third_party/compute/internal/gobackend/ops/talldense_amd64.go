// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import "simd"

// The tall dense kernel's three-vector pass in assembly (gexph patch, see PATCHES.md at
// the module root): Go's compiler gives a multiply-add of archsimd's vectors the form
// whose result overwrites a multiplicand (VFMADD213PS), so dense4x3's twelve
// accumulators came with a register copy for each multiply-add and a dozen more at the
// loop's end, about three instructions for each one that computes; on a core with two
// 256-bit pipes (AMD's Zen 4) a 512-bit copy takes a pipe as a multiply-add does. The
// assembly keeps the accumulators in place (VFMADD231PS) and adds the same products in
// the same order: the same bits.

// tallDenseAsm reports whether products of n output columns take the assembly kernel:
// AVX-512 (the SIMD segment sums' 16 lanes) and one pass of three vectors, 32 < n ≤ 48.
func tallDenseAsm(n int) bool { return n > 32 && n <= 48 && segmentSumLanes() == 16 }

// denseBlocksAsm writes the output rows of the blocks [lo, hi) of four rows of x · w
// (w [k, n] not transposed) with the assembly kernel and returns true, or returns false
// (writing nothing) where the kernel does not take p or a block lies past x's rows.
func denseBlocksAsm(out, x, w []float32, p *tallDense, lo, hi int) bool {
	if !tallDenseAsm(p.n) || lo < 0 || 4*hi > p.r || len(x) < p.r*p.k || len(out) < p.r*p.n || len(w) < p.k*p.n || p.k < 1 {
		return false
	}
	if hi > lo {
		dense4x3AVX512(&out[4*lo*p.n], &x[4*lo*p.k], &w[0], p.k, p.n, p.n-16, hi-lo)
	}
	return true
}

// gramAsm sets s to the sums that gramFull2, gramFull3 or gramFull4 return for the rows
// [lo, hi) of x [·, m] at column a and the vectors of g [·, n] at the columns cols (two:
// any; three: c, c+16 and the row's last; four: consecutive), computed by the AVX-512
// assembly pass of as many vectors, and returns true; or returns false (s untouched)
// where no pass takes them (no AVX-512, other columns, rows past the operands).
func gramAsm(s []simd.Float32s, x, g []float32, lo, hi, m, n, a int, cols ...int) bool {
	if segmentSumLanes() != 16 || len(s) != 4*len(cols) || lo < 0 || hi <= lo || a < 0 || a+4 > m ||
		len(x) < hi*m || len(g) < hi*n {
		return false
	}
	for _, c := range cols {
		if c < 0 || c+16 > n {
			return false
		}
	}
	var sums [16 * 16]float32
	px, pg := &x[lo*m+a], &g[lo*n+cols[0]]
	switch c := cols; {
	case len(c) == 2:
		gram4x2AVX512(&sums[0], px, pg, hi-lo, m, n, c[1]-c[0])
	case len(c) == 3 && c[1] == c[0]+16 && c[2] >= c[1]:
		gram4x3AVX512(&sums[0], px, pg, hi-lo, m, n, c[2]-c[0])
	case len(c) == 4 && c[1] == c[0]+16 && c[2] == c[0]+32 && c[3] == c[0]+48:
		gram4x4AVX512(&sums[0], px, pg, hi-lo, m, n)
	default:
		return false
	}
	for i := range s {
		s[i] = simd.LoadFloat32s(sums[16*i:])
	}
	return true
}
