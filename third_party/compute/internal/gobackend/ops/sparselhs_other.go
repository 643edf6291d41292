// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && !amd64

package ops

// appendNonZeroVectors looks at no values off amd64 (sparselhs_amd64.go): the caller
// scans the row eight values at a time.
func (s *sparseRows) appendNonZeroVectors(row []float32) int { return 0 }

// sparseRowTileSIMD is false off amd64 (sparselhs_amd64.go): sparseRowTile sums the row.
func sparseRowTileSIMD(acc []float32, cols []int32, vals []float32, tile []float32) bool {
	return false
}
