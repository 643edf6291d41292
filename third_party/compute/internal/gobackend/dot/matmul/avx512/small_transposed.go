// Copyright 2023-2026 The GoMLX Authors. SPDX-License-Identifier: Apache-2.0

//go:build amd64 && goexperiment.simd

package avx512

import (
	"unsafe"
	//alt:bf16 "github.com/gomlx/compute/dtypes/bfloat16"
	//alt:f16 "github.com/gomlx/compute/dtypes/float16"
)

// avx512SmallFloat32TransposedAsm uses the handwritten AVX-512 assembly 4x4 tile microkernel
// for full tiles, and scalar loops in registers for remainder rows/columns.
func avx512SmallFloat32TransposedAsm( //alt:f32
	//alt:bf16 func avx512SmallBFloat16TransposedAsm(
	//alt:f16 func avx512SmallFloat16TransposedAsm(
	//alt:f64 func avx512SmallFloat64TransposedAsm(
	lhs, rhs []float32, //alt:f32
	//alt:bf16 lhs, rhs []bfloat16.BFloat16,
	//alt:f16 lhs, rhs []float16.Float16,
	//alt:f64 lhs, rhs []float64,
	batchStart, batchCount, lhsCrossSize, rhsCrossSize, contractingSize int,
	output []float32) { //alt:f32|bf16|f16
	//alt:f64 output []float64) {

	if batchCount == 0 || lhsCrossSize == 0 || rhsCrossSize == 0 || contractingSize == 0 {
		return
	}

	lhsStride := lhsCrossSize * contractingSize
	rhsStride := contractingSize * rhsCrossSize
	outputStride := lhsCrossSize * rhsCrossSize

	lhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(lhs)))
	rhsPtr := uintptr(unsafe.Pointer(unsafe.SliceData(rhs)))
	outputPtr := uintptr(unsafe.Pointer(unsafe.SliceData(output)))

	const elemSize = 4 //alt:f32
	//alt:bf16 const elemSize = 2
	//alt:f16 const elemSize = 2
	//alt:f64 const elemSize = 8

	const outputElemSize = 4 //alt:f32|bf16|f16
	//alt:f64 const outputElemSize = 8

	lhsByteStride := uintptr(lhsStride) * elemSize
	rhsByteStride := uintptr(rhsStride) * elemSize
	outputByteStride := uintptr(outputStride) * outputElemSize

	lhsBase := lhsPtr + uintptr(batchStart)*lhsByteStride
	rhsBase := rhsPtr + uintptr(batchStart)*rhsByteStride
	outputBase := outputPtr + uintptr(batchStart)*outputByteStride

	for range batchCount {
		row := 0
		for ; row+3 < lhsCrossSize; row += 4 {
			lRow0 := unsafe.Pointer(lhsBase + uintptr((row+0)*contractingSize)*elemSize)
			lRow1 := unsafe.Pointer(lhsBase + uintptr((row+1)*contractingSize)*elemSize)
			lRow2 := unsafe.Pointer(lhsBase + uintptr((row+2)*contractingSize)*elemSize)
			lRow3 := unsafe.Pointer(lhsBase + uintptr((row+3)*contractingSize)*elemSize)

			col := 0
			for ; col+3 < rhsCrossSize; col += 4 {
				rCol0 := unsafe.Pointer(rhsBase + uintptr((col+0)*contractingSize)*elemSize)
				rCol1 := unsafe.Pointer(rhsBase + uintptr((col+1)*contractingSize)*elemSize)
				rCol2 := unsafe.Pointer(rhsBase + uintptr((col+2)*contractingSize)*elemSize)
				rCol3 := unsafe.Pointer(rhsBase + uintptr((col+3)*contractingSize)*elemSize)

				outRow0 := unsafe.Pointer(outputBase + uintptr((row+0)*rhsCrossSize+col)*outputElemSize)
				outRow1 := unsafe.Pointer(outputBase + uintptr((row+1)*rhsCrossSize+col)*outputElemSize)
				outRow2 := unsafe.Pointer(outputBase + uintptr((row+2)*rhsCrossSize+col)*outputElemSize)
				outRow3 := unsafe.Pointer(outputBase + uintptr((row+3)*rhsCrossSize+col)*outputElemSize)

				avx512SmallTransposedTile4x4Float32Asm( //alt:f32
					//alt:bf16 avx512SmallTransposedTile4x4BFloat16Asm(
					//alt:f16 avx512SmallTransposedTile4x4Float16Asm(
					//alt:f64 avx512SmallTransposedTile4x4Float64Asm(
					lRow0, lRow1, lRow2, lRow3,
					rCol0, rCol1, rCol2, rCol3,
					contractingSize,
					outRow0, outRow1, outRow2, outRow3)
			}

			// Remainder columns for these 4 rows
			for ; col < rhsCrossSize; col++ {
				rCol := rhsBase + uintptr(col*contractingSize)*elemSize
				var s0, s1, s2, s3 float32 //alt:f32|bf16|f16
				//alt:f64 var s0, s1, s2, s3 float64
				for k := range contractingSize {
					kOffset := uintptr(k) * elemSize
					l0 := *(*float32)(unsafe.Pointer(uintptr(lRow0) + kOffset)) //alt:f32
					//alt:bf16 l0 := (*(*bfloat16.BFloat16)(unsafe.Pointer(uintptr(lRow0) + kOffset))).Float32()
					//alt:f16 l0 := (*(*float16.Float16)(unsafe.Pointer(uintptr(lRow0) + kOffset))).Float32()
					//alt:f64 l0 := *(*float64)(unsafe.Pointer(uintptr(lRow0) + kOffset))
					l1 := *(*float32)(unsafe.Pointer(uintptr(lRow1) + kOffset)) //alt:f32
					//alt:bf16 l1 := (*(*bfloat16.BFloat16)(unsafe.Pointer(uintptr(lRow1) + kOffset))).Float32()
					//alt:f16 l1 := (*(*float16.Float16)(unsafe.Pointer(uintptr(lRow1) + kOffset))).Float32()
					//alt:f64 l1 := *(*float64)(unsafe.Pointer(uintptr(lRow1) + kOffset))
					l2 := *(*float32)(unsafe.Pointer(uintptr(lRow2) + kOffset)) //alt:f32
					//alt:bf16 l2 := (*(*bfloat16.BFloat16)(unsafe.Pointer(uintptr(lRow2) + kOffset))).Float32()
					//alt:f16 l2 := (*(*float16.Float16)(unsafe.Pointer(uintptr(lRow2) + kOffset))).Float32()
					//alt:f64 l2 := *(*float64)(unsafe.Pointer(uintptr(lRow2) + kOffset))
					l3 := *(*float32)(unsafe.Pointer(uintptr(lRow3) + kOffset)) //alt:f32
					//alt:bf16 l3 := (*(*bfloat16.BFloat16)(unsafe.Pointer(uintptr(lRow3) + kOffset))).Float32()
					//alt:f16 l3 := (*(*float16.Float16)(unsafe.Pointer(uintptr(lRow3) + kOffset))).Float32()
					//alt:f64 l3 := *(*float64)(unsafe.Pointer(uintptr(lRow3) + kOffset))

					r0 := *(*float32)(unsafe.Pointer(rCol + kOffset)) //alt:f32
					//alt:bf16 r0 := (*(*bfloat16.BFloat16)(unsafe.Pointer(rCol + kOffset))).Float32()
					//alt:f16 r0 := (*(*float16.Float16)(unsafe.Pointer(rCol + kOffset))).Float32()
					//alt:f64 r0 := *(*float64)(unsafe.Pointer(rCol + kOffset))

					s0 += l0 * r0
					s1 += l1 * r0
					s2 += l2 * r0
					s3 += l3 * r0
				}
				*(*float32)(unsafe.Pointer(outputBase + uintptr((row+0)*rhsCrossSize+col)*outputElemSize)) = s0 //alt:f32|bf16|f16
				//alt:f64 *(*float64)(unsafe.Pointer(outputBase + uintptr((row+0)*rhsCrossSize+col)*outputElemSize)) = s0
				*(*float32)(unsafe.Pointer(outputBase + uintptr((row+1)*rhsCrossSize+col)*outputElemSize)) = s1 //alt:f32|bf16|f16
				//alt:f64 *(*float64)(unsafe.Pointer(outputBase + uintptr((row+1)*rhsCrossSize+col)*outputElemSize)) = s1
				*(*float32)(unsafe.Pointer(outputBase + uintptr((row+2)*rhsCrossSize+col)*outputElemSize)) = s2 //alt:f32|bf16|f16
				//alt:f64 *(*float64)(unsafe.Pointer(outputBase + uintptr((row+2)*rhsCrossSize+col)*outputElemSize)) = s2
				*(*float32)(unsafe.Pointer(outputBase + uintptr((row+3)*rhsCrossSize+col)*outputElemSize)) = s3 //alt:f32|bf16|f16
				//alt:f64 *(*float64)(unsafe.Pointer(outputBase + uintptr((row+3)*rhsCrossSize+col)*outputElemSize)) = s3
			}
		}

		// Remainder rows
		for ; row < lhsCrossSize; row++ {
			lRow := lhsBase + uintptr(row*contractingSize)*elemSize
			for col := range rhsCrossSize {
				rCol := rhsBase + uintptr(col*contractingSize)*elemSize
				var s float32 //alt:f32|bf16|f16
				//alt:f64 var s float64
				for k := range contractingSize {
					kOffset := uintptr(k) * elemSize
					lVal := *(*float32)(unsafe.Pointer(lRow + kOffset)) //alt:f32
					//alt:bf16 lVal := (*(*bfloat16.BFloat16)(unsafe.Pointer(lRow + kOffset))).Float32()
					//alt:f16 lVal := (*(*float16.Float16)(unsafe.Pointer(lRow + kOffset))).Float32()
					//alt:f64 lVal := *(*float64)(unsafe.Pointer(lRow + kOffset))

					rVal := *(*float32)(unsafe.Pointer(rCol + kOffset)) //alt:f32
					//alt:bf16 rVal := (*(*bfloat16.BFloat16)(unsafe.Pointer(rCol + kOffset))).Float32()
					//alt:f16 rVal := (*(*float16.Float16)(unsafe.Pointer(rCol + kOffset))).Float32()
					//alt:f64 rVal := *(*float64)(unsafe.Pointer(rCol + kOffset))

					s += lVal * rVal
				}
				*(*float32)(unsafe.Pointer(outputBase + uintptr(row*rhsCrossSize+col)*outputElemSize)) = s //alt:f32|bf16|f16
				//alt:f64 *(*float64)(unsafe.Pointer(outputBase + uintptr(row*rhsCrossSize+col)*outputElemSize)) = s
			}
		}

		lhsBase += lhsByteStride
		rhsBase += rhsByteStride
		outputBase += outputByteStride
	}
}
