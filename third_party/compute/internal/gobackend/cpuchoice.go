// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

// TallDenseFuses tells whether ops/talldense.go's kernel, rather than the GEMM, takes a
// tall dense product of cols output columns (at most 48) on this CPU, whose kernels run
// vectors of lanes float32 values. It is chosen by the CPU's features, not measured at
// start (a measurement would choose differently from run to run, and the two differ in
// float32 rounding), from what was measured on each kind:
//   - AVX-512 with 16-lane vectors: the kernel, for widths off whole vectors, where the
//     GEMM pads its tiles (x · w at 187,570 × 40 by 40: 5.1 against 9.8 ms on an AMD
//     EPYC), and the GEMM on whole vectors (32 columns: 0.74 against 0.88 ms).
//   - AVX2 (or AVX-512 running 8-lane vectors), where the assembly GEMM runs too: the GEMM.
//     Under callgrind, the 8-lane kernel took 3.5 to 4.4 times the GEMM's instructions
//     (40,000 rows by 40 into 24, 40 and 42 columns; docs/PERFORMANCE.md).
//   - No assembly GEMM (arm64): the kernel, for widths off whole vectors, as with AVX-512.
func TallDenseFuses(cols, lanes int) bool {
	switch {
	case IsAVX512Allowed && lanes == 16:
		return cols%16 != 0
	case IsAVX512Allowed || IsAVX2Allowed:
		return false
	}
	return cols%lanes != 0
}
