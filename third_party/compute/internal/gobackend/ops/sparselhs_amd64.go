// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

// sparselhs.go's two inner loops in amd64's SIMD vectors, without bounds checks (gexph
// patch, see PATCHES.md at the module root): the listing of a bag-of-words matrix's
// non-zero entries (Coauthor CS's [18,333, 6,805], 500 MB, listed on every product),
// whose scan of eight values at a time, their bits or-ed, was bound by instructions, not
// by reading memory; and a row's sums over a tile, whose checked loads and reloads of
// spilled slice headers took most of its instructions.

import (
	"math/bits"
	"simd/archsimd"
	"unsafe"
)

// appendNonZeroVectors appends the non-zero entries of row's leading whole vectors to s
// (as appendNonZero, in order; a negative zero is zero, a NaN is not) and returns how many
// of row's values it looked at: a vector of 16 values (AVX-512) or 8 (AVX2) compared
// with zero at a time, only the lanes its mask sets looked into; the same choice of
// vectors as the SIMD segment sums' (segmentSumLanes). 0 where the CPU has neither.
func (s *sparseRows) appendNonZeroVectors(row []float32) int {
	switch segmentSumLanes() {
	case 16:
		zero := archsimd.BroadcastFloat32x16(0)
		j := 0
		for ; j+16 <= len(row); j += 16 {
			if m := uint32(load16(row, j).NotEqual(zero).ToBits()); m != 0 {
				s.appendLanes(row, j, m)
			}
		}
		return j
	case 8:
		zero := archsimd.BroadcastFloat32x8(0)
		j := 0
		for ; j+8 <= len(row); j += 8 {
			if m := uint32(load8(row, j).NotEqual(zero).ToBits()); m != 0 {
				s.appendLanes(row, j, m)
			}
		}
		return j
	}
	return 0
}

// appendLanes appends row[j+l] for each bit l set in mask, in order of l.
func (s *sparseRows) appendLanes(row []float32, j int, mask uint32) {
	for ; mask != 0; mask &= mask - 1 {
		c := j + bits.TrailingZeros32(mask)
		s.cols = append(s.cols, int32(c))
		s.vals = append(s.vals, row[c])
	}
}

// sparseRowTileSIMD sets acc [4·lanes] to Σ vals[e] · tile[cols[e], …] over the entries
// of a row, in order of e, as sparseRowTile does (the same fused multiply-adds in the
// same order: the same bits), with AVX-512's or AVX2's vectors loaded without bounds
// checks: every column is below the tile's K rows (the listing's own). false where the
// CPU's vectors are neither.
func sparseRowTileSIMD(acc []float32, cols []int32, vals []float32, tile []float32) bool {
	switch segmentSumLanes() {
	case 16:
		rowTile16(acc, cols, vals, tile)
	case 8:
		rowTile8(acc, cols, vals, tile)
	default:
		return false
	}
	return true
}

func rowTile16(acc []float32, cols []int32, vals []float32, tile []float32) {
	a0 := archsimd.BroadcastFloat32x16(0)
	a1, a2, a3 := a0, a0, a0
	base := unsafe.Pointer(unsafe.SliceData(tile))
	vals = vals[:len(cols)]
	for e, c := range cols {
		v := archsimd.BroadcastFloat32x16(vals[e])
		row := unsafe.Add(base, 256*int(c))
		a0 = archsimd.LoadFloat32x16Array((*[16]float32)(row)).MulAdd(v, a0)
		a1 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Add(row, 64))).MulAdd(v, a1)
		a2 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Add(row, 128))).MulAdd(v, a2)
		a3 = archsimd.LoadFloat32x16Array((*[16]float32)(unsafe.Add(row, 192))).MulAdd(v, a3)
	}
	a0.StoreArray(at16(acc, 0))
	a1.StoreArray(at16(acc, 16))
	a2.StoreArray(at16(acc, 32))
	a3.StoreArray(at16(acc, 48))
}

func rowTile8(acc []float32, cols []int32, vals []float32, tile []float32) {
	a0 := archsimd.BroadcastFloat32x8(0)
	a1, a2, a3 := a0, a0, a0
	base := unsafe.Pointer(unsafe.SliceData(tile))
	vals = vals[:len(cols)]
	for e, c := range cols {
		v := archsimd.BroadcastFloat32x8(vals[e])
		row := unsafe.Add(base, 128*int(c))
		a0 = archsimd.LoadFloat32x8Array((*[8]float32)(row)).MulAdd(v, a0)
		a1 = archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Add(row, 32))).MulAdd(v, a1)
		a2 = archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Add(row, 64))).MulAdd(v, a2)
		a3 = archsimd.LoadFloat32x8Array((*[8]float32)(unsafe.Add(row, 96))).MulAdd(v, a3)
	}
	a0.StoreArray(at8(acc, 0))
	a1.StoreArray(at8(acc, 8))
	a2.StoreArray(at8(acc, 16))
	a3.StoreArray(at8(acc, 24))
}
