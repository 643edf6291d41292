// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && !amd64

package ops

// segmentSumLanes is 0: there are no SIMD segment sums off amd64 (segsum_amd64.go).
func segmentSumLanes() int { return 0 }

// gatheredDotsSIMD has no SIMD segment sums off amd64 (segsum_amd64.go): the caller adds
// each head's products in index order.
func gatheredDotsSIMD(out []float32, d *dotRows, lo, hi int) bool { return false }

// spreadLanes is 0: weights are spread by blending broadcasts off amd64.
func spreadLanes() int { return 0 }

// addSpreadProductsSIMD is not called off amd64 (spreadLanes is 0).
func addSpreadProductsSIMD(_ int, out, w []float32, nw int, x []float32, heads []int32) {
	addSpreadProducts(out, w[:nw], x, heads, (len(out)+nw-1)/nw)
}
