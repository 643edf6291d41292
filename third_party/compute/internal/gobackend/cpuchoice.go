// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package gobackend

// TallDenseFuses tells whether ops/talldense.go's kernel, rather than the GEMM, takes a
// tall dense product of cols output columns (at most 128) on this CPU, whose kernels run
// vectors of lanes float32 values. It is chosen by the CPU's features, not measured at
// start (a measurement would choose differently from run to run, and the two differ in
// float32 rounding), from what was measured on each kind:
//   - AVX-512 with 16-lane vectors, whose kernel passes are assembly: the kernel, for
//     every width but 16 (a whole vector: the GEMM). One core of an AMD EPYC, 40,000
//     rows (2026-11-29): 32 columns by 32 0.73 against the GEMM's 0.91 ms, 40 by 40 1.38
//     against 3.2, 64 by 64 3.0 against 4.3, 64 by 128 7.1 against 8.0, 128 by 64 7.4
//     against 8.8, 80 by 80 6.9 against 8.7 ms; on two cores 2 to 3 times faster still
//     (the GEMM splits these shapes poorly).
//   - AVX2 (or AVX-512 running 8-lane vectors), where the assembly GEMM runs too: the GEMM.
//     Under callgrind, the 8-lane kernel took 3.5 to 4.4 times the GEMM's instructions
//     (40,000 rows by 40 into 24, 40 and 42 columns; docs/PERFORMANCE.md).
//   - No assembly GEMM (arm64): the Go kernel, for widths off whole vectors up to 48.
func TallDenseFuses(cols, lanes int) bool {
	switch {
	case cols > 128:
		return false
	case IsAVX512Allowed && lanes == 16:
		return cols != 16
	case IsAVX512Allowed || IsAVX2Allowed:
		return false
	}
	return cols <= 48 && cols%lanes != 0
}
