// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

package ops

// The tall dense and Gram kernels' passes in assembly: AVX-512's in talldense_amd64.s,
// AVX2's in talldense_avx2_amd64.s. Their callers, denseBlocksAsm and gramAsm
// (talldense_amd64.go), check the CPU and the bounds. The dense passes take out and w at
// the pass's first column, the last vector at column cLast (c3, c4) of it, and blocks
// blocks of four rows; the Gram passes take x and g at their first row and column.

//go:noescape
func dense4x2AVX512(out, x, w *float32, k, n, c2, blocks int)

//go:noescape
func dense4x3AVX512(out, x, w *float32, k, n, c3, blocks int)

//go:noescape
func dense4x4AVX512(out, x, w *float32, k, n, c4, blocks int)

//go:noescape
func gram4x2AVX512(sums, x, grad *float32, rows, m, n, c2 int)

//go:noescape
func gram4x3AVX512(sums, x, grad *float32, rows, m, n, c3 int)

//go:noescape
func gram4x4AVX512(sums, x, grad *float32, rows, m, n int)

//go:noescape
func dense4x2AVX2(out, x, w *float32, k, n, cLast, blocks int)

//go:noescape
func dense4x3AVX2(out, x, w *float32, k, n, cLast, blocks int)

//go:noescape
func gram4x2AVX2(sums, x, grad *float32, rows, m, n, cLast int)

//go:noescape
func gram4x3AVX2(sums, x, grad *float32, rows, m, n, cLast int)
