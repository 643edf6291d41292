// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gomlx/compute/dtypes"
)

// TestConvertUint32ToFloat32IsGosConversion holds the SIMD conversion to Go's scalar
// float32(x), bit for bit: the values where rounding changes (around 2²⁴, halfway
// cases that round to even, 2³¹, the largest uint32), random bits, and a length with a
// partial vector at the end; and checks that the backend's ConvertDType runs it.
func TestConvertUint32ToFloat32IsGosConversion(t *testing.T) {
	in := []uint32{0, 1, 0xFFFF, 0x10000, 1<<24 - 1, 1 << 24, 1<<24 + 1, 1<<24 + 3, 1<<25 + 2, 1<<25 + 6,
		1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<31 + 128, 1<<31 + 384, math.MaxUint32 - 127, math.MaxUint32 - 128, math.MaxUint32}
	rng := rand.New(rand.NewPCG(61, 62))
	for range 100_003 {
		in = append(in, rng.Uint32())
	}
	out := make([]float32, len(in))
	convertUint32ToFloat32(in, out)
	for i, x := range in {
		if want := float32(x); math.Float32bits(out[i]) != math.Float32bits(want) {
			t.Fatalf("float32(%d): %v, want %v", x, out[i], want)
		}
	}
	fn, err := ConvertDTypePairMap.Get(dtypes.Uint32, dtypes.Float32)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.ValueOf(fn).Pointer() != reflect.ValueOf(execConvertUint32ToFloat32).Pointer() {
		t.Error("ConvertDType from uint32 to float32 does not run the SIMD conversion")
	}
}
