// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

import "simd"

// The tall dense and Gram kernels' passes in assembly, AVX-512's and AVX2's (gexph
// patch, see PATCHES.md at the module root): Go's compiler gives a multiply-add of
// archsimd's vectors the form whose result overwrites a multiplicand (VFMADD213PS), so
// the Go kernels' twelve or sixteen accumulators came with a register copy for each
// multiply-add and a dozen more at each loop's end, about three instructions for each
// one that computes; on a core with two 256-bit pipes (AMD's Zen 4) a 512-bit copy takes
// the pipes as a multiply-add does. The assembly keeps the accumulators in place
// (VFMADD231PS) and adds the same products in the same order as the Go kernels: the
// same bits.

// asmLanes returns the vector width of this CPU's assembly passes and the most vectors
// a pass holds: 16 lanes and four vectors with AVX-512, 8 and three with AVX2 and FMA3
// (16 registers), 0 where the SIMD kernels run neither.
func asmLanes() (lanes, maxVecs int) {
	switch segmentSumLanes() {
	case 16:
		return 16, 4
	case 8:
		return 8, 3
	}
	return 0, 0
}

// denseBlocksAsm writes the output rows of the blocks [lo, hi) of four rows of x · w
// (w [k, n] not transposed) with p's assembly passes and returns true, or returns false
// (writing nothing) where p has none or a block lies past x's rows.
func denseBlocksAsm(out, x, w []float32, p *tallDense, lo, hi int) bool {
	if p.passes == nil || lo < 0 || 4*hi > p.r || len(x) < p.r*p.k || len(out) < p.r*p.n || len(w) < p.k*p.n || p.k < 1 {
		return false
	}
	if hi <= lo {
		return true
	}
	o, xs, avx512 := 4*lo*p.n, &x[4*lo*p.k], segmentSumLanes() == 16
	for _, ps := range p.passes {
		po, pw, last := &out[o+ps.c], &w[ps.c], ps.last-ps.c
		switch {
		case avx512 && ps.vecs == 4:
			dense4x4AVX512(po, xs, pw, p.k, p.n, last, hi-lo)
		case avx512 && ps.vecs == 3:
			dense4x3AVX512(po, xs, pw, p.k, p.n, last, hi-lo)
		case avx512:
			dense4x2AVX512(po, xs, pw, p.k, p.n, last, hi-lo)
		case ps.vecs == 3:
			dense4x3AVX2(po, xs, pw, p.k, p.n, last, hi-lo)
		default:
			dense4x2AVX2(po, xs, pw, p.k, p.n, last, hi-lo)
		}
	}
	return true
}

// gramAsm sets s to the sums that gramFull2, gramFull3 or gramFull4 return for the rows
// [lo, hi) of x [·, m] at column a and the vectors of g [·, n] at the columns cols
// (consecutive but for the last), computed by this CPU's assembly pass of as many
// vectors, and returns true; or returns false (s untouched) where no pass takes them (no
// assembly passes, other columns, rows past the operands).
func gramAsm(s []simd.Float32s, x, g []float32, lo, hi, m, n, a int, cols ...int) bool {
	l, v := asmLanes()
	if l == 0 || len(cols) < 2 || len(cols) > v || len(s) != 4*len(cols) || lo < 0 || hi <= lo || a < 0 || a+4 > m ||
		len(x) < hi*m || len(g) < hi*n {
		return false
	}
	last := cols[len(cols)-1]
	for i, c := range cols {
		if c < 0 || c+l > n || (i < len(cols)-1 && c != cols[0]+i*l) || c > last {
			return false
		}
	}
	var sums [16 * 16]float32
	px, pg, cl := &x[lo*m+a], &g[lo*n+cols[0]], last-cols[0]
	switch {
	case l == 16 && len(cols) == 4 && cl == 48:
		gram4x4AVX512(&sums[0], px, pg, hi-lo, m, n)
	case l == 16 && len(cols) == 4:
		return false // gram4x4AVX512's vectors are consecutive
	case l == 16 && len(cols) == 3:
		gram4x3AVX512(&sums[0], px, pg, hi-lo, m, n, cl)
	case l == 16:
		gram4x2AVX512(&sums[0], px, pg, hi-lo, m, n, cl)
	case len(cols) == 3:
		gram4x3AVX2(&sums[0], px, pg, hi-lo, m, n, cl)
	default:
		gram4x2AVX2(&sums[0], px, pg, hi-lo, m, n, cl)
	}
	for i := range s {
		s[i] = simd.LoadFloat32s(sums[l*i:])
	}
	return true
}
