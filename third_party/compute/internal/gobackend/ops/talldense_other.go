// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && !amd64

package ops

import "simd"

// asmLanes is zero off amd64: no assembly passes (talldense_amd64.go).
func asmLanes() (lanes, maxVecs int) { return 0, 0 }

// denseBlocksAsm writes nothing off amd64 (talldense_amd64.go): denseRowBlock computes
// every block.
func denseBlocksAsm(out, x, w []float32, p *tallDense, lo, hi int) bool { return false }

// gramAsm computes nothing off amd64 (talldense_amd64.go): gramFull2, gramFull3 and
// gramFull4 sum the rows.
func gramAsm(s []simd.Float32s, x, g []float32, lo, hi, m, n, a int, cols ...int) bool { return false }
