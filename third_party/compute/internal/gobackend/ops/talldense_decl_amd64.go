// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

package ops

// dense4x3AVX512 is the tall dense kernel's pass of three 16-lane vectors for blocks
// blocks of four rows, in AVX-512 assembly (talldense_amd64.s; its caller is
// denseBlocksAsm, which checks the CPU and the bounds).
//
//go:noescape
func dense4x3AVX512(out, x, w *float32, k, n, c3, blocks int)

// gram4x2AVX512, gram4x3AVX512 and gram4x4AVX512 are the tall Gram kernel's passes of
// two, three and four 16-lane vectors over rows rows, in AVX-512 assembly
// (talldense_amd64.s; their caller is gramAsm, which checks the CPU and the bounds).
//
//go:noescape
func gram4x2AVX512(sums, x, grad *float32, rows, m, n, c2 int)

//go:noescape
func gram4x3AVX512(sums, x, grad *float32, rows, m, n, c3 int)

//go:noescape
func gram4x4AVX512(sums, x, grad *float32, rows, m, n int)

// dense4x2AVX512 and dense4x4AVX512 are dense4x3AVX512's passes of two and four vectors
// (talldense_amd64.s), given out and w at the pass's first column.
//
//go:noescape
func dense4x2AVX512(out, x, w *float32, k, n, c2, blocks int)

//go:noescape
func dense4x4AVX512(out, x, w *float32, k, n, blocks int)
