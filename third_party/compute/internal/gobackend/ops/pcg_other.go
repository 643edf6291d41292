// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build !(goexperiment.simd && amd64)

package ops

// pcgFillSIMD writes nothing off amd64's SIMD builds (pcg_amd64.go): pcgFill draws one
// at a time.
func pcgFillSIMD(hi, lo *uint64, dst []byte) int { return 0 }
