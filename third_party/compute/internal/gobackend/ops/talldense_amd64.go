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

// densePass is one assembly pass over the columns of a tall dense product: vecs (2, 3
// or 4) vectors of 16 columns from c, consecutive but for the last, which starts at
// last (it may overlap the one before it: both hold the same sums there).
type densePass struct{ vecs, c, last int }

// denseAsmPasses returns the passes that cover n output columns with AVX-512's 16-lane
// vectors (four vectors at a time, then four, three or two ending at the row's end), or
// nil where the CPU has no AVX-512 or n is 16 or less.
func denseAsmPasses(n int) []densePass {
	if n <= 16 || segmentSumLanes() != 16 {
		return nil
	}
	var passes []densePass
	c := 0
	for ; n-c >= 64; c += 64 {
		passes = append(passes, densePass{4, c, c + 48})
	}
	switch rem := n - c; {
	case rem == 0:
	case rem > 48 && n >= 64: // Four vectors ending at the row's end.
		passes = append(passes, densePass{4, n - 64, n - 16})
	case rem > 48: // 48 < n < 64: two pairs.
		passes = append(passes, densePass{2, 0, 16}, densePass{2, 32, n - 16})
	case rem > 32:
		passes = append(passes, densePass{3, c, n - 16})
	case rem > 16:
		passes = append(passes, densePass{2, c, n - 16})
	default: // The last few columns, with the vector before them again.
		passes = append(passes, densePass{2, n - 32, n - 16})
	}
	return passes
}

// tallDenseAsm reports whether products of n output columns take the assembly passes.
func tallDenseAsm(n int) bool { return denseAsmPasses(n) != nil }

// denseBlocksAsm writes the output rows of the blocks [lo, hi) of four rows of x · w
// (w [k, n] not transposed) with the assembly passes and returns true, or returns false
// (writing nothing) where they do not take p or a block lies past x's rows.
func denseBlocksAsm(out, x, w []float32, p *tallDense, lo, hi int) bool {
	passes := denseAsmPasses(p.n)
	if passes == nil || lo < 0 || 4*hi > p.r || len(x) < p.r*p.k || len(out) < p.r*p.n || len(w) < p.k*p.n || p.k < 1 {
		return false
	}
	if hi <= lo {
		return true
	}
	o, xs := 4*lo*p.n, &x[4*lo*p.k]
	for _, ps := range passes {
		switch ps.vecs {
		case 4:
			dense4x4AVX512(&out[o+ps.c], xs, &w[ps.c], p.k, p.n, hi-lo)
		case 3:
			dense4x3AVX512(&out[o+ps.c], xs, &w[ps.c], p.k, p.n, ps.last-ps.c, hi-lo)
		case 2:
			dense4x2AVX512(&out[o+ps.c], xs, &w[ps.c], p.k, p.n, ps.last-ps.c, hi-lo)
		}
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
