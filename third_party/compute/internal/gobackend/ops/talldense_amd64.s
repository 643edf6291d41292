// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64

#include "textflag.h"

// The tall dense kernel's pass of three 16-lane vectors in AVX-512 assembly (gexph
// patch, see PATCHES.md at the module root and talldense_amd64.go): the Go kernel's
// twelve accumulators took VFMADD213PS, whose result overwrites a multiplicand, so
// each multiply-add came with a register copy and each iteration with a dozen more.

// func dense4x3AVX512(out, x, w *float32, k, n, c3, blocks int)
//
// For each of blocks blocks of four rows (x's rows k floats apart, out's n), the
// output columns [0, 16), [16, 32) and [c3, c3+16) of x · w (w [k, n], rows n floats
// apart): each element the sum over kk in order of x[r, kk]·w[kk, j], fused
// multiply-adds from zero, as dense4x3 adds them. k ≥ 1; 32 < n ≤ 48, c3 = n − 16.
TEXT ·dense4x3AVX512(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ k+24(FP), CX
	MOVQ n+32(FP), R8
	MOVQ c3+40(FP), R9
	MOVQ blocks+48(FP), R13
	SHLQ $2, R8                // a row of w and of out, in bytes
	SHLQ $2, R9                // the third vector's offset, in bytes
	TESTQ R13, R13
	JLE done

block:
	MOVQ w+16(FP), DX
	MOVQ SI, R10
	LEAQ (SI)(CX*4), R11       // x's rows are k floats apart
	LEAQ (R11)(CX*4), R12
	LEAQ (R12)(CX*4), BX
	MOVQ CX, AX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11

loop:
	VMOVUPS (DX), Z12
	VMOVUPS 64(DX), Z13
	VMOVUPS (DX)(R9*1), Z14
	VBROADCASTSS (R10), Z16
	VBROADCASTSS (R11), Z17
	VBROADCASTSS (R12), Z18
	VBROADCASTSS (BX), Z19
	VFMADD231PS Z16, Z12, Z0
	VFMADD231PS Z16, Z13, Z4
	VFMADD231PS Z16, Z14, Z8
	VFMADD231PS Z17, Z12, Z1
	VFMADD231PS Z17, Z13, Z5
	VFMADD231PS Z17, Z14, Z9
	VFMADD231PS Z18, Z12, Z2
	VFMADD231PS Z18, Z13, Z6
	VFMADD231PS Z18, Z14, Z10
	VFMADD231PS Z19, Z12, Z3
	VFMADD231PS Z19, Z13, Z7
	VFMADD231PS Z19, Z14, Z11
	ADDQ $4, R10
	ADDQ $4, R11
	ADDQ $4, R12
	ADDQ $4, BX
	ADDQ R8, DX
	DECQ AX
	JNZ loop

	// Row by row: the vectors at 0, 16 and c3 (the last overlaps the second where
	// n < 48; both hold the same sums there).
	VMOVUPS Z0, (DI)
	VMOVUPS Z4, 64(DI)
	VMOVUPS Z8, (DI)(R9*1)
	ADDQ R8, DI
	VMOVUPS Z1, (DI)
	VMOVUPS Z5, 64(DI)
	VMOVUPS Z9, (DI)(R9*1)
	ADDQ R8, DI
	VMOVUPS Z2, (DI)
	VMOVUPS Z6, 64(DI)
	VMOVUPS Z10, (DI)(R9*1)
	ADDQ R8, DI
	VMOVUPS Z3, (DI)
	VMOVUPS Z7, 64(DI)
	VMOVUPS Z11, (DI)(R9*1)
	ADDQ R8, DI
	LEAQ (BX), SI              // BX ends at row 3's end: row 0 of the next block is after it
	DECQ R13
	JNZ block

done:
	VZEROUPPER
	RET

// func gram4x3AVX512(sums, x, grad *float32, rows, m, n, c3 int)
//
// The tall Gram kernel's pass of three 16-lane vectors: for the rows r of a chunk (rows
// ≥ 1; x's rows m floats apart, grad's n), the sums over r in order of x[r, i]·grad[r, j] for
// the four values i of x's row at x and the vectors j at grad's offsets 0, 16 and c3,
// fused multiply-adds from zero, as gramFull3 adds them; written to sums as twelve
// vectors: i = 0…3 at offset 0, then at 16, then at c3.
TEXT ·gram4x3AVX512(SB), NOSPLIT, $0-56
	MOVQ sums+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ grad+16(FP), DX
	MOVQ rows+24(FP), CX
	MOVQ m+32(FP), R8
	MOVQ n+40(FP), R9
	MOVQ c3+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	TESTQ CX, CX
	JLE gram3store

gram3loop:
	VMOVUPS (DX), Z12
	VMOVUPS 64(DX), Z13
	VMOVUPS (DX)(R10*1), Z14
	VBROADCASTSS (SI), Z16
	VBROADCASTSS 4(SI), Z17
	VBROADCASTSS 8(SI), Z18
	VBROADCASTSS 12(SI), Z19
	VFMADD231PS Z16, Z12, Z0
	VFMADD231PS Z16, Z13, Z4
	VFMADD231PS Z16, Z14, Z8
	VFMADD231PS Z17, Z12, Z1
	VFMADD231PS Z17, Z13, Z5
	VFMADD231PS Z17, Z14, Z9
	VFMADD231PS Z18, Z12, Z2
	VFMADD231PS Z18, Z13, Z6
	VFMADD231PS Z18, Z14, Z10
	VFMADD231PS Z19, Z12, Z3
	VFMADD231PS Z19, Z13, Z7
	VFMADD231PS Z19, Z14, Z11
	ADDQ R8, SI
	ADDQ R9, DX
	DECQ CX
	JNZ gram3loop

gram3store:
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VMOVUPS Z8, 512(DI)
	VMOVUPS Z9, 576(DI)
	VMOVUPS Z10, 640(DI)
	VMOVUPS Z11, 704(DI)
	VZEROUPPER
	RET

// func gram4x2AVX512(sums, x, grad *float32, rows, m, n, c2 int)
//
// gram4x3AVX512 for the two vectors at grad's offsets 0 and c2 (gramFull2's sums): eight
// vectors, i = 0…3 at 0, then at c2.
TEXT ·gram4x2AVX512(SB), NOSPLIT, $0-56
	MOVQ sums+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ grad+16(FP), DX
	MOVQ rows+24(FP), CX
	MOVQ m+32(FP), R8
	MOVQ n+40(FP), R9
	MOVQ c2+48(FP), R10
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JLE gram2store

gram2loop:
	VMOVUPS (DX), Z12
	VMOVUPS (DX)(R10*1), Z13
	VBROADCASTSS (SI), Z16
	VBROADCASTSS 4(SI), Z17
	VBROADCASTSS 8(SI), Z18
	VBROADCASTSS 12(SI), Z19
	VFMADD231PS Z16, Z12, Z0
	VFMADD231PS Z16, Z13, Z4
	VFMADD231PS Z17, Z12, Z1
	VFMADD231PS Z17, Z13, Z5
	VFMADD231PS Z18, Z12, Z2
	VFMADD231PS Z18, Z13, Z6
	VFMADD231PS Z19, Z12, Z3
	VFMADD231PS Z19, Z13, Z7
	ADDQ R8, SI
	ADDQ R9, DX
	DECQ CX
	JNZ gram2loop

gram2store:
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VZEROUPPER
	RET

// func gram4x4AVX512(sums, x, grad *float32, rows, m, n int)
//
// gram4x3AVX512 for the four consecutive vectors at grad's offsets 0, 16, 32 and 48
// (gramFull4's sums): sixteen vectors, i = 0…3 at 0, then at 16, 32 and 48.
TEXT ·gram4x4AVX512(SB), NOSPLIT, $0-48
	MOVQ sums+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ grad+16(FP), DX
	MOVQ rows+24(FP), CX
	MOVQ m+32(FP), R8
	MOVQ n+40(FP), R9
	SHLQ $2, R8
	SHLQ $2, R9
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	TESTQ CX, CX
	JLE gram4store

gram4loop:
	VMOVUPS (DX), Z12
	VMOVUPS 64(DX), Z13
	VMOVUPS 128(DX), Z14
	VMOVUPS 192(DX), Z24
	VBROADCASTSS (SI), Z16
	VBROADCASTSS 4(SI), Z17
	VBROADCASTSS 8(SI), Z18
	VBROADCASTSS 12(SI), Z19
	VFMADD231PS Z16, Z12, Z0
	VFMADD231PS Z16, Z13, Z4
	VFMADD231PS Z16, Z14, Z8
	VFMADD231PS Z16, Z24, Z20
	VFMADD231PS Z17, Z12, Z1
	VFMADD231PS Z17, Z13, Z5
	VFMADD231PS Z17, Z14, Z9
	VFMADD231PS Z17, Z24, Z21
	VFMADD231PS Z18, Z12, Z2
	VFMADD231PS Z18, Z13, Z6
	VFMADD231PS Z18, Z14, Z10
	VFMADD231PS Z18, Z24, Z22
	VFMADD231PS Z19, Z12, Z3
	VFMADD231PS Z19, Z13, Z7
	VFMADD231PS Z19, Z14, Z11
	VFMADD231PS Z19, Z24, Z23
	ADDQ R8, SI
	ADDQ R9, DX
	DECQ CX
	JNZ gram4loop

gram4store:
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VMOVUPS Z8, 512(DI)
	VMOVUPS Z9, 576(DI)
	VMOVUPS Z10, 640(DI)
	VMOVUPS Z11, 704(DI)
	VMOVUPS Z20, 768(DI)
	VMOVUPS Z21, 832(DI)
	VMOVUPS Z22, 896(DI)
	VMOVUPS Z23, 960(DI)
	VZEROUPPER
	RET
