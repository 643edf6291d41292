// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build !goexperiment.simd

package ops

// simdAddVVFloat32 sets out = lhs + rhs element by element: for builds without
// GOEXPERIMENT=simd, the pure-Go stand-in of binaryops_simd.go's SIMD function, which
// rows.go's ScatterSum calls (gexph patch, see PATCHES.md at the module root). Each
// element is the same float32 sum: equal bit for bit.
func simdAddVVFloat32(lhs, rhs, out []float32) {
	for i := range out {
		out[i] = lhs[i] + rhs[i]
	}
}
