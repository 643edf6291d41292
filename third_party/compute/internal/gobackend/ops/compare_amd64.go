// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

// compare.go's comparisons in AVX-512's or AVX2's vectors: each vector compared at once
// (an ordered predicate: a NaN lane is false, as with Go's operators), its mask stored
// as bools eight lanes at a time.

import (
	"simd/archsimd"
	"unsafe"
)

// compareLanes is the vector width of the comparisons: 16 with AVX-512, 8 with AVX2, 0
// for neither.
func compareLanes() int {
	if n := segmentSumLanes(); n == 16 || n == 8 {
		return n
	}
	return 0
}

// compareScalarSIMD sets out[i] = x[i] p c for the leading whole vectors of x and
// returns how many values it set: 0 where the CPU has neither AVX-512 nor AVX2.
func compareScalarSIMD(p comparison, x []float32, c float32, out []bool) int {
	switch compareLanes() {
	case 16:
		vc := archsimd.BroadcastFloat32x16(c)
		i := 0
		for ; i+16 <= len(x); i += 16 {
			store16Bools(out, i, compare16(p, load16(x, i), vc))
		}
		return i
	case 8:
		vc := archsimd.BroadcastFloat32x8(c)
		i := 0
		for ; i+8 <= len(x); i += 8 {
			storeBools(out, i, compare8(p, load8(x, i), vc).ToBits())
		}
		return i
	}
	return 0
}

// compareScalarUint32SIMD sets out[i] = x[i] p c for the leading whole vectors of x
// and returns how many values it set: 0 where the CPU has neither AVX-512 nor AVX2.
func compareScalarUint32SIMD(p comparison, x []uint32, c uint32, out []bool) int {
	base := unsafe.Pointer(unsafe.SliceData(x))
	switch compareLanes() {
	case 16:
		vc := archsimd.BroadcastUint32x16(c)
		i := 0
		for ; i+16 <= len(x); i += 16 {
			v := archsimd.LoadUint32x16Array((*[16]uint32)(unsafe.Add(base, 4*i)))
			store16Bools(out, i, compareUint32x16(p, v, vc))
		}
		return i
	case 8:
		vc := archsimd.BroadcastUint32x8(c)
		i := 0
		for ; i+8 <= len(x); i += 8 {
			v := archsimd.LoadUint32x8Array((*[8]uint32)(unsafe.Add(base, 4*i)))
			storeBools(out, i, compareUint32x8(p, v, vc).ToBits())
		}
		return i
	}
	return 0
}

// compareVectorsSIMD sets out[i] = x[i] p y[i] for the leading whole vectors and returns
// how many values it set: 0 where the CPU has neither AVX-512 nor AVX2.
func compareVectorsSIMD(p comparison, x, y []float32, out []bool) int {
	y = y[:len(x)]
	switch compareLanes() {
	case 16:
		i := 0
		for ; i+16 <= len(x); i += 16 {
			store16Bools(out, i, compare16(p, load16(x, i), load16(y, i)))
		}
		return i
	case 8:
		i := 0
		for ; i+8 <= len(x); i += 8 {
			storeBools(out, i, compare8(p, load8(x, i), load8(y, i)).ToBits())
		}
		return i
	}
	return 0
}

// store16Bools writes m's 16 lanes as bools at out[i:] (AVX-512: the mask's bits as
// bytes of all ones or zeros, and-ed with 1).
func store16Bools(out []bool, i int, m archsimd.Mask32x16) {
	dst := (*[16]int8)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(out)), i))
	archsimd.Mask8x16FromBits(m.ToBits()).ToInt8x16().And(archsimd.BroadcastInt8x16(1)).StoreArray(dst)
}

func compare16(p comparison, x, y archsimd.Float32x16) archsimd.Mask32x16 {
	switch p {
	case cmpGE:
		return x.GreaterEqual(y)
	case cmpGT:
		return x.Greater(y)
	case cmpLE:
		return x.LessEqual(y)
	}
	return x.Less(y)
}

func compare8(p comparison, x, y archsimd.Float32x8) archsimd.Mask32x8 {
	switch p {
	case cmpGE:
		return x.GreaterEqual(y)
	case cmpGT:
		return x.Greater(y)
	case cmpLE:
		return x.LessEqual(y)
	}
	return x.Less(y)
}

func compareUint32x16(p comparison, x, y archsimd.Uint32x16) archsimd.Mask32x16 {
	switch p {
	case cmpGE:
		return x.GreaterEqual(y)
	case cmpGT:
		return x.Greater(y)
	case cmpLE:
		return x.LessEqual(y)
	}
	return x.Less(y)
}

func compareUint32x8(p comparison, x, y archsimd.Uint32x8) archsimd.Mask32x8 {
	switch p {
	case cmpGE:
		return x.GreaterEqual(y)
	case cmpGT:
		return x.Greater(y)
	case cmpLE:
		return x.LessEqual(y)
	}
	return x.Less(y)
}
