// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build !(goexperiment.simd && amd64)

package ops

// compareScalarSIMD sets nothing off amd64's SIMD builds (compare_amd64.go): the caller
// compares every value.
func compareScalarSIMD(p comparison, x []float32, c float32, out []bool) int { return 0 }

// compareScalarUint32SIMD sets nothing off amd64's SIMD builds (compare_amd64.go).
func compareScalarUint32SIMD(p comparison, x []uint32, c uint32, out []bool) int { return 0 }

// compareVectorsSIMD sets nothing off amd64's SIMD builds (compare_amd64.go).
func compareVectorsSIMD(p comparison, x, y []float32, out []bool) int { return 0 }

// compareLanes is 0: no SIMD comparisons off amd64's SIMD builds.
func compareLanes() int { return 0 }
