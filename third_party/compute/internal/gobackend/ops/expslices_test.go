// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"simd"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/compute/support/simdmath"
)

// expValues returns n float32 values: compareValues' specials and values in [−8, 8),
// and a quarter drawn from the exponential's whole range and beyond it (±100).
func expValues(rng *rand.Rand, n int) []float32 {
	v := compareValues(rng, n)
	for i := range v {
		if rng.IntN(4) == 0 {
			v[i] = 200*rng.Float32() - 100
		}
	}
	return v
}

// sameBits reports the first index where got and want differ in their bits, or −1.
func sameBits(got, want []float32) int {
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			return i
		}
	}
	return -1
}

// TestExpSlicesEqualSIMDMathBitForBit holds the slice kernels to simdmath's per-vector
// ExpFloat32 and SigmoidFloat32 through the generic unary loop, bit for bit, for lengths
// off and on whole vectors, NaNs, infinities, signed zeros, subnormals and values beyond
// the exponential's range.
func TestExpSlicesEqualSIMDMathBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 1000, 4099} {
		in := expValues(rng, n)
		for _, k := range []struct {
			name  string
			slice func(in, out []float32)
			vec   func(simd.Float32s) simd.Float32s
		}{{"exp", expFloat32Slice, simdmath.ExpFloat32}, {"sigmoid", sigmoidFloat32Slice, simdmath.SigmoidFloat32}} {
			got, want := make([]float32, n), make([]float32, n)
			k.slice(in, got)
			simdUnaryFloat32(in, want, k.vec)
			if i := sameBits(got, want); i >= 0 {
				t.Fatalf("%s, %d values, element %d: %s(%v) = %v, want %v", k.name, n, i, k.name, in[i], got[i], want[i])
			}
		}
	}
}

// TestExpSlicesExecutorSplitsAcrossWorkersToTheSameBits runs Exp and Logistic of float32
// tensors large enough to be split across the backend's workers (and one too small to be)
// through the backend, the input donated so that the output may reuse it, and holds each
// element to simdmath's per-vector function; float64 falls back to the generic kernel.
func TestExpSlicesExecutorSplitsAcrossWorkersToTheSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	be, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := be.(*gobackend.Backend)
	for _, op := range []struct {
		name  string
		build func(*gobackend.Function, compute.Value) (compute.Value, error)
		vec   func(simd.Float32s) simd.Float32s
	}{{"Exp", Exp, simdmath.ExpFloat32}, {"Logistic", Logistic, simdmath.SigmoidFloat32}} {
		for _, dims := range [][]int{{5*expMinChunk + 3}, {1993, 32}, {9}} {
			s := shapes.Make(dtypes.Float32, dims...)
			in := expValues(rng, s.Size())
			want := make([]float32, len(in))
			simdUnaryFloat32(in, want, op.vec)
			got := runUnary(t, backend, op.build, s, append([]float32(nil), in...)).([]float32)
			if i := sameBits(got, want); i >= 0 {
				t.Fatalf("%s %s, element %d: %v → %v, want %v", op.name, s, i, in[i], got[i], want[i])
			}
		}
		got := runUnary(t, backend, op.build, shapes.Make(dtypes.Float64, 3), []float64{0, 1, -1}).([]float64)
		if op.name == "Exp" && (got[0] != 1 || math.Abs(got[1]-math.E) > 1e-12) {
			t.Fatalf("Exp float64 = %v", got)
		}
	}
}

// runUnary compiles and runs one unary op on x of shape s (donated) and returns its
// output's flat values.
func runUnary(t *testing.T, backend *gobackend.Backend, build func(*gobackend.Function, compute.Value) (compute.Value, error), s shapes.Shape, x any) any {
	t.Helper()
	builder := backend.Builder("unary").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	px, _ := f.Parameter("x", s, nil)
	out, err := build(f, px)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Return([]compute.Value{out}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	bx, err := backend.BufferFromFlatData(0, x, s)
	if err != nil {
		t.Fatal(err)
	}
	res, err := exec.Execute([]compute.Buffer{bx}, []bool{true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return res[0].(*gobackend.Buffer).Flat
}

// BenchmarkExpSlices times a GatedGCN gate's sigmoid over CLUSTER's edges ([76830, 32])
// on one core: the slice kernel against the per-vector loop it replaced.
func BenchmarkExpSlices(b *testing.B) {
	in := expValues(rand.New(rand.NewPCG(65, 66)), 76830*32)
	out := make([]float32, len(in))
	b.Run("sigmoid-slice", func(b *testing.B) {
		for b.Loop() {
			sigmoidFloat32Slice(in, out)
		}
	})
	b.Run("sigmoid-per-vector", func(b *testing.B) {
		for b.Loop() {
			simdUnaryFloat32(in, out, simdmath.SigmoidFloat32)
		}
	})
	b.Run("exp-slice", func(b *testing.B) {
		for b.Loop() {
			expFloat32Slice(in, out)
		}
	})
	b.Run("exp-per-vector", func(b *testing.B) {
		for b.Loop() {
			simdUnaryFloat32(in, out, simdmath.ExpFloat32)
		}
	})
}
