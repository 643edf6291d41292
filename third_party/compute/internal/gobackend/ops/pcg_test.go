// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestPCGFillIsRandPCGStream holds pcgFill's bytes and final state to math/rand/v2's PCG
// drawing Uint64s from the same state, low byte first, for lengths below, at and above
// the vectors' threshold, multiples of their 64-byte blocks and not, of 8 bytes and not,
// from several states (high bits set, zero): eight draws at a time with AVX-512 (which
// the test checks the vectors take), one at a time elsewhere.
func TestPCGFillIsRandPCGStream(t *testing.T) {
	var h, l uint64
	if n := pcgFillSIMD(&h, &l, make([]byte, pcgBlockBytes)); compareLanes() == 16 && n != pcgBlockBytes {
		t.Fatalf("with AVX-512 the vectors drew %d of %d bytes", n, pcgBlockBytes)
	}
	states := [][2]uint64{{0, 0}, {1, 2}, {0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_fffe}, {0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321}}
	for _, st := range states {
		for _, n := range []int{0, 5, 8, 64, 4095, 4096, 4097, 4160, 4168, 10007, 65536} {
			got := make([]byte, n)
			hi, lo := pcgFill(st[0], st[1], got)
			want := make([]byte, n+8)
			rng := rand.NewPCG(st[0], st[1])
			for i := 0; i < n; i += 8 {
				binary.LittleEndian.PutUint64(want[i:], rng.Uint64())
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("state %#x, %d bytes: byte %d = %#x, want %#x", st, n, i, got[i], want[i])
				}
			}
			wantState, _ := rng.MarshalBinary()
			if h, l := binary.BigEndian.Uint64(wantState[4:]), binary.BigEndian.Uint64(wantState[12:]); hi != h || lo != l {
				t.Fatalf("state %#x, %d bytes: new state %#x %#x, want %#x %#x", st, n, hi, lo, h, l)
			}
		}
	}
}

// TestPCGFillChainsIsRandPCGStream holds the four chains' bytes and final state to
// math/rand/v2's PCG on every CPU (with AVX-512, pcgFill leaves them only the tails
// after the vectors' blocks), for lengths of whole blocks and not.
func TestPCGFillChainsIsRandPCGStream(t *testing.T) {
	for _, st := range [][2]uint64{{0, 0}, {0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_fffe}, {0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321}} {
		for _, n := range []int{32, 40, 256, 1000, 4096} {
			got := make([]byte, n)
			done, s := pcgFillChains(u128{st[0], st[1]}, got)
			if done != n/32*32 {
				t.Fatalf("%d bytes: the chains drew %d", n, done)
			}
			rng := rand.NewPCG(st[0], st[1])
			want := make([]byte, done)
			for i := 0; i < done; i += 8 {
				binary.LittleEndian.PutUint64(want[i:], rng.Uint64())
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("state %#x, %d bytes: byte %d = %#x, want %#x", st, n, i, got[i], want[i])
				}
			}
			wantState, _ := rng.MarshalBinary()
			if h, l := binary.BigEndian.Uint64(wantState[4:]), binary.BigEndian.Uint64(wantState[12:]); s.hi != h || s.lo != l {
				t.Fatalf("state %#x, %d bytes: new state %#x %#x, want %#x %#x", st, n, s.hi, s.lo, h, l)
			}
		}
	}
}

// BenchmarkPCGFill draws 4 MB of random bits: pcgFill, one chain of draws (pcgFill's
// loop before pcgFillChains) and rand.PCG's Uint64s.
func BenchmarkPCGFill(b *testing.B) {
	buf := make([]byte, 1<<22)
	b.Run("pcgFill", func(b *testing.B) {
		for b.Loop() {
			pcgFill(1, 2, buf)
		}
	})
	b.Run("oneChain", func(b *testing.B) {
		for b.Loop() {
			s := u128{1, 2}
			for i := 0; i < len(buf); i += 8 {
				s = s.step()
				binary.LittleEndian.PutUint64(buf[i:], pcgOutput(s.hi, s.lo))
			}
		}
	})
	b.Run("randPCG", func(b *testing.B) {
		for b.Loop() {
			rng := rand.NewPCG(1, 2)
			for i := 0; i < len(buf); i += 8 {
				binary.LittleEndian.PutUint64(buf[i:], rng.Uint64())
			}
		}
	})
}
