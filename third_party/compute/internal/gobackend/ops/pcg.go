// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

// The RNGBitGenerator's PCG stream without math/rand/v2's PCG value (gexph patch, see
// PATCHES.md at the module root): the same 128-bit linear congruential generator and
// DXSM output function as Go's rand.PCG, its state in registers rather than written back
// to memory after each draw, four chains of draws stepped side by side (pcgFillChains),
// and on amd64 with AVX-512 eight draws at once (pcg_amd64.go): lane j of a vector holds the state of draw t+j, and every lane steps
// eight draws at a time (s ← A₈·s + C₈, the generator's step composed eight times). The
// same bytes and the same final state as rand.PCG's Uint64 draws, low byte first: dropout
// masks, and so every training run, are unchanged.

import (
	"encoding/binary"
	"math/bits"
)

// The PCG step s ← s·pcgMul + pcgInc (mod 2¹²⁸) and output constant, as math/rand/v2's.
const (
	pcgMulHi    = 2549297995355413924
	pcgMulLo    = 4865540595714422341
	pcgIncHi    = 6364136223846793005
	pcgIncLo    = 1442695040888963407
	pcgCheapMul = 0xda942042e4dd58b5
)

// pcgBlockBytes is the least output worth the vectors' set-up (pcg_amd64.go): 512 draws.
const pcgBlockBytes = 4096

// u128 is a 128-bit unsigned value.
type u128 struct{ hi, lo uint64 }

// mul returns a·b mod 2¹²⁸.
func (a u128) mul(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

// add returns a+b mod 2¹²⁸.
func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// step returns the PCG state after s: s·pcgMul + pcgInc.
func (s u128) step() u128 { return s.mul(u128{pcgMulHi, pcgMulLo}).add(u128{pcgIncHi, pcgIncLo}) }

// pcgJump returns (A, C) with s_{n+k} = A·s_n + C for the PCG step.
func pcgJump(k int) (a, c u128) {
	a = u128{0, 1}
	for range k {
		a, c = a.mul(u128{pcgMulHi, pcgMulLo}), c.step()
	}
	return a, c
}

// pcgOutput is the DXSM output of a state after its step.
func pcgOutput(hi, lo uint64) uint64 {
	hi ^= hi >> 32
	hi *= pcgCheapMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}

// pcgFill writes the PCG stream of state (hi, lo) into dst, eight bytes a draw, low byte
// first (the last draw's leading bytes where len(dst) is no multiple of 8), and returns
// the state after its draws: rand.NewPCG(hi, lo)'s Uint64s and state.
func pcgFill(hi, lo uint64, dst []byte) (uint64, uint64) {
	i := pcgFillSIMD(&hi, &lo, dst)
	s := u128{hi, lo}
	if len(dst)-i >= pcgChainsBytes {
		var n int
		n, s = pcgFillChains(s, dst[i:])
		i += n
	}
	for ; i+8 <= len(dst); i += 8 {
		s = s.step()
		binary.LittleEndian.PutUint64(dst[i:], pcgOutput(s.hi, s.lo))
	}
	if i < len(dst) {
		s = s.step()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], pcgOutput(s.hi, s.lo))
		copy(dst[i:], b[:])
	}
	return s.hi, s.lo
}

// pcgChainsBytes is the least output pcgFillChains draws: its set-up is a dozen steps.
const pcgChainsBytes = 256

// pcgFillChains writes the leading whole blocks of 32 bytes of dst (four draws) from
// state s and returns their length and the state after them. The four draws of a block
// come from four chains of states, each stepped four draws at a time (s ← A₄·s + C₄), so
// that the processor overlaps their multiplications: one chain's step waits on its last
// (a 128-bit product), and the stream one draw at a time is as slow as that wait.
func pcgFillChains(s u128, dst []byte) (int, u128) {
	s0 := s.step()
	s1 := s0.step()
	s2 := s1.step()
	s3 := s2.step()
	a, c := pcgJump(4)
	n := len(dst) / 32 * 32
	for i := 0; i < n; i += 32 {
		b := (*[32]byte)(dst[i : i+32])
		binary.LittleEndian.PutUint64(b[0:], pcgOutput(s0.hi, s0.lo))
		binary.LittleEndian.PutUint64(b[8:], pcgOutput(s1.hi, s1.lo))
		binary.LittleEndian.PutUint64(b[16:], pcgOutput(s2.hi, s2.lo))
		binary.LittleEndian.PutUint64(b[24:], pcgOutput(s3.hi, s3.lo))
		s = s3
		s0, s1, s2, s3 = s0.mul(a).add(c), s1.mul(a).add(c), s2.mul(a).add(c), s3.mul(a).add(c)
	}
	return n, s
}
