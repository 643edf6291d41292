// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

// pcg.go's stream eight draws at a time in AVX-512's 64-bit lanes.

import (
	"simd/archsimd"
	"unsafe"
)

// pcgFillSIMD writes the leading whole blocks of 64 bytes of dst (eight draws) with
// AVX-512, advances (*hi, *lo) past them and returns their length; 0 without AVX-512 or
// for fewer than pcgBlockBytes bytes.
func pcgFillSIMD(hi, lo *uint64, dst []byte) int {
	blocks := len(dst) / 64
	if !archsimd.X86.AVX512() || len(dst) < pcgBlockBytes {
		return 0
	}
	// Lane j starts at the state after j+1 steps.
	var sh, sl [8]uint64
	s := u128{*hi, *lo}
	for j := range 8 {
		s = s.step()
		sh[j], sl[j] = s.hi, s.lo
	}
	a, c := pcgJump(8)
	vh, vl := archsimd.LoadUint64x8Array(&sh), archsimd.LoadUint64x8Array(&sl)
	aHi, aLo := archsimd.BroadcastUint64x8(a.hi), archsimd.BroadcastUint64x8(a.lo)
	aLo0, aLo1 := archsimd.BroadcastUint64x8(a.lo&0xffffffff), archsimd.BroadcastUint64x8(a.lo>>32)
	cHi, cLo := archsimd.BroadcastUint64x8(c.hi), archsimd.BroadcastUint64x8(c.lo)
	low32 := archsimd.BroadcastUint64x8(0xffffffff)
	one := archsimd.BroadcastUint64x8(1)
	cheap := archsimd.BroadcastUint64x8(pcgCheapMul)
	base := unsafe.Pointer(unsafe.SliceData(dst))
	var lastH, lastL archsimd.Uint64x8
	for b := range blocks {
		// The DXSM output of each lane's state.
		x := vh.Xor(vh.ShiftAllRight(32)).Mul(cheap)
		x = x.Xor(x.ShiftAllRight(48)).Mul(vl.Or(one))
		x.StoreArray((*[8]uint64)(unsafe.Add(base, 64*b)))
		lastH, lastL = vh, vl
		// s ← A₈·s + C₈ mod 2¹²⁸: the high half of lo·A.lo from 32-bit halves.
		l0, l1 := vl.And(low32), vl.ShiftAllRight(32)
		t := l0.Mul(aLo0)
		u := l1.Mul(aLo0).Add(t.ShiftAllRight(32))
		v := l0.Mul(aLo1).Add(u.And(low32))
		high := l1.Mul(aLo1).Add(u.ShiftAllRight(32)).Add(v.ShiftAllRight(32))
		newLo := vl.Mul(aLo).Add(cLo)
		carry := one.Masked(newLo.Less(cLo))
		vh = high.Add(vh.Mul(aLo)).Add(vl.Mul(aHi)).Add(cHi).Add(carry)
		vl = newLo
	}
	lastH.StoreArray(&sh)
	lastL.StoreArray(&sl)
	*hi, *lo = sh[7], sl[7]
	return 64 * blocks
}
