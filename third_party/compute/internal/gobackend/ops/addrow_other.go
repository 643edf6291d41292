// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build !(goexperiment.simd && amd64)

package ops

// addRowLanes is 0 off amd64's SIMD builds (addrow_amd64.go): the caller adds each row.
func addRowLanes(width int) int { return 0 }

// addRow is never called off amd64's SIMD builds (addRowLanes is 0); it adds the row.
func addRow(lanes int, o, u []float32) {
	for i := range o {
		o[i] += u[i]
	}
}
