// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// compareValues returns n float32 values drawn from specials (NaNs, infinities, zeros of
// both signs, subnormals, ±5 and values next to them) and uniform values in [−8, 8).
func compareValues(rng *rand.Rand, n int) []float32 {
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0,
		float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		5, -5, math.Nextafter32(5, 6), math.Nextafter32(-5, -6), 1, -1}
	v := make([]float32, n)
	for i := range v {
		if rng.IntN(4) == 0 {
			v[i] = specials[rng.IntN(len(specials))]
		} else {
			v[i] = 16*rng.Float32() - 8
		}
	}
	return v
}

// TestCompareFloat32EqualsGoOperators runs GreaterOrEqual, GreaterThan, LessOrEqual and
// LessThan on float32 operands through the backend (equal shapes, a scalar on either
// side, a broadcast [4, 1] against [4, 9] that the generic executor keeps; lengths off
// and on whole vectors; NaNs, infinities, signed zeros, subnormals) and holds every bool
// to Go's operator on the same two values, on the CPU's own vectors and on the portable
// loop.
func TestCompareFloat32EqualsGoOperators(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	be, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := be.(*gobackend.Backend)
	ops := []struct {
		name  string
		build func(*gobackend.Function, compute.Value, compute.Value) (compute.Value, error)
		p     comparison
	}{
		{"GreaterOrEqual", GreaterOrEqual, cmpGE}, {"GreaterThan", GreaterThan, cmpGT},
		{"LessOrEqual", LessOrEqual, cmpLE}, {"LessThan", LessThan, cmpLT},
	}
	f := func(d ...int) shapes.Shape { return shapes.Make(dtypes.Float32, d...) }
	for _, op := range ops {
		for _, c := range [][2]shapes.Shape{
			{f(1000), f(1000)}, {f(7), f(7)}, {f(3, 35), f(3, 35)}, {f(0), f(0)},
			{f(1000), f()}, {f(), f(1003)}, {f(17), f(1)}, {f(4, 9), f(4, 1)},
		} {
			x, y := compareValues(rng, c[0].Size()), compareValues(rng, c[1].Size())
			got, outShape := runCompare(t, backend, op.build, c[0], c[1], x, y)
			for i := range outShape.Size() {
				xi, yi := pick(x, c[0], outShape, i), pick(y, c[1], outShape, i)
				if want := holds(op.p, xi, yi); got[i] != want {
					t.Fatalf("%s(%s, %s) element %d: %v %s %v = %v, want %v", op.name, c[0], c[1], i, xi, op.name, yi, got[i], want)
				}
			}
		}
		x, y := compareValues(rng, 67), compareValues(rng, 67)
		if lanes := compareLanes(); lanes > 0 {
			if n := compareScalarSIMD(op.p, x, y[0], make([]bool, len(x))); n != len(x)/lanes*lanes {
				t.Fatalf("%s: the SIMD kernel set %d of 67 values with %d lanes", op.name, n, lanes)
			}
		}
		for _, scalar := range []bool{false, true} {
			want, got := make([]bool, len(x)), make([]bool, len(x))
			for i := range x {
				if scalar {
					want[i] = holds(op.p, x[i], y[0])
				} else {
					want[i] = holds(op.p, x[i], y[i])
				}
			}
			if scalar {
				compareScalar(op.p, x, y[0], got)
			} else {
				compareVectors(op.p, x, y, got)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s kernels, scalar %v: %v, want %v", op.name, scalar, got, want)
			}
		}
	}
}

// TestCompareUint32WithAScalarEqualsGoOperators runs the four order comparisons of uint32
// operands against a single value on either side through the backend (lengths off and on
// whole vectors; 0, 2³¹ − 1, 2³¹, 2³¹ + 1 and 2³² − 1 among the values and as the scalar:
// AVX2 has only signed comparisons) and holds every bool to Go's operator; operands of
// one shape, which the generic executor keeps, too.
func TestCompareUint32WithAScalarEqualsGoOperators(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	be, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := be.(*gobackend.Backend)
	specials := []uint32{0, 1, math.MaxInt32, math.MaxInt32 + 1, math.MaxInt32 + 2, math.MaxUint32 - 1, math.MaxUint32}
	values := func(n int) []uint32 {
		v := make([]uint32, n)
		for i := range v {
			if rng.IntN(3) == 0 {
				v[i] = specials[rng.IntN(len(specials))]
			} else {
				v[i] = rng.Uint32()
			}
		}
		return v
	}
	u := func(d ...int) shapes.Shape { return shapes.Make(dtypes.Uint32, d...) }
	ops := []struct {
		name  string
		build func(*gobackend.Function, compute.Value, compute.Value) (compute.Value, error)
		p     comparison
	}{
		{"GreaterOrEqual", GreaterOrEqual, cmpGE}, {"GreaterThan", GreaterThan, cmpGT},
		{"LessOrEqual", LessOrEqual, cmpLE}, {"LessThan", LessThan, cmpLT},
	}
	for _, op := range ops {
		for _, c := range specials {
			for _, sh := range [][2]shapes.Shape{{u(1000), u()}, {u(), u(1003)}, {u(17), u(1)}, {u(40), u(40)}} {
				x, y := values(sh[0].Size()), values(sh[1].Size())
				if len(x) == 1 {
					x[0] = c
				} else if len(y) == 1 {
					y[0] = c
				}
				got, outShape := runCompare(t, backend, op.build, sh[0], sh[1], x, y)
				for i := range outShape.Size() {
					xi, yi := x[min(i, len(x)-1)], y[min(i, len(y)-1)]
					if want := holds(op.p, xi, yi); got[i] != want {
						t.Fatalf("%s(%s, %s) element %d: %d %s %d = %v, want %v", op.name, sh[0], sh[1], i, xi, op.name, yi, got[i], want)
					}
				}
			}
		}
	}
}

// pick returns the value of operand v (of shape s) that output element i of shape out
// reads under broadcasting: the scalar, the same element, or a [R, 1] operand's row.
func pick(v []float32, s, out shapes.Shape, i int) float32 {
	switch {
	case len(v) == 1:
		return v[0]
	case s.Size() == out.Size():
		return v[i]
	}
	return v[i/out.Dimensions[out.Rank()-1]]
}

// runCompare compiles and runs build(x, y) on backend and returns its bools and shape.
func runCompare(t *testing.T, backend *gobackend.Backend, build func(*gobackend.Function, compute.Value, compute.Value) (compute.Value, error),
	xs, ys shapes.Shape, x, y any) ([]bool, shapes.Shape) {
	t.Helper()
	builder := backend.Builder("compare").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	px, _ := f.Parameter("x", xs, nil)
	py, _ := f.Parameter("y", ys, nil)
	out, err := build(f, px, py)
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
	bx, _ := backend.BufferFromFlatData(0, x, xs)
	by, _ := backend.BufferFromFlatData(0, y, ys)
	res, err := exec.Execute([]compute.Buffer{bx, by}, []bool{true, true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := res[0].(*gobackend.Buffer)
	return b.Flat.([]bool), b.RawShape
}

// TestLogicalAndWordsEqualsElementwiseAnd runs LogicalAnd of two bool operands of one
// shape (lengths off and on whole words, the operands donated so that the output may take
// either buffer) and holds each element to x && y.
func TestLogicalAndWordsEqualsElementwiseAnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	be, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := be.(*gobackend.Backend)
	for _, n := range []int{0, 1, 7, 8, 9, 64, 1001} {
		s := shapes.Make(dtypes.Bool, n)
		x, y := make([]bool, n), make([]bool, n)
		for i := range x {
			x[i], y[i] = rng.IntN(2) == 0, rng.IntN(2) == 0
		}
		builder := backend.Builder("and").(*gobackend.Builder)
		f := builder.Main().(*gobackend.Function)
		px, _ := f.Parameter("x", s, nil)
		py, _ := f.Parameter("y", s, nil)
		out, err := LogicalAnd(f, px, py)
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
		bx, _ := backend.BufferFromFlatData(0, append([]bool(nil), x...), s)
		by, _ := backend.BufferFromFlatData(0, append([]bool(nil), y...), s)
		res, err := exec.Execute([]compute.Buffer{bx, by}, []bool{true, true}, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := res[0].(*gobackend.Buffer).Flat.([]bool)
		for i := range x {
			if got[i] != (x[i] && y[i]) {
				t.Fatalf("n=%d: element %d = %v, want %v && %v", n, i, got[i], x[i], y[i])
			}
		}
		exec.Finalize()
	}
}

// BenchmarkCompareScalar compares 2²⁰ float32 values with a scalar (a rectifier's
// gradient over [E, D]), with the CPU's vectors and with the portable loop.
func BenchmarkCompareScalar(b *testing.B) {
	x := compareValues(rand.New(rand.NewPCG(1, 2)), 1<<20)
	out := make([]bool, len(x))
	b.Run("simd", func(b *testing.B) {
		for b.Loop() {
			compareScalar(cmpGE, x, 0, out)
		}
	})
	b.Run("loop", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				out[i] = v >= 0
			}
		}
	})
}
