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
//   - AVX2 (or AVX-512 running 8-lane vectors), whose kernel passes are assembly too (of
//     at most three vectors: 16 registers): the kernel for 17 to 48 columns but 32, the
//     GEMM for the rest. One core of an AMD EPYC on the AVX2 path, 40,000 rows
//     (2026-11-29): 40 by 24 0.71 against the GEMM's 1.30 ms, 40 by 40 1.56 against 2.08,
//     but 32 by 32 0.95 against 0.87, 64 by 128 8.8 against 7.2 and 128 by 64 14.6 against
//     8.6 ms (three passes read w three times); 64 by 64 and 80 by 80 won (3.1 against 3.7,
//     5.5 against 6.2 ms) but are left to the GEMM with the rest. Before the passes were
//     assembly, the 8-lane Go kernel took 3.5 to 4.4 times the GEMM's instructions.
//   - No assembly GEMM (arm64): the Go kernel, for widths off whole vectors up to 48.
func TallDenseFuses(cols, lanes int) bool {
	switch {
	case cols > 128:
		return false
	case IsAVX512Allowed && lanes == 16:
		return cols != 16
	case (IsAVX512Allowed || IsAVX2Allowed) && lanes == 8:
		return cols > 16 && cols <= 48 && cols != 32
	case IsAVX512Allowed || IsAVX2Allowed:
		return false
	}
	return cols <= 48 && cols%lanes != 0
}
