// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// TestWhereRowsEqualsElementwiseSelection runs Where with one condition a row ([3, 1]
// against [3, 5], [2, 4, 1] against [2, 4, 7], [1000, 1] against [1000, 40]; float32 and
// int32; a value operand full or scalar; the value operands donated, so that the output
// may take their buffer) through the backend, and holds each element to cond[row] ?
// onTrue : onFalse; whereRows takes exactly those shapes and leaves the rest (a
// condition of the output's shape, or broadcast on another axis) to the other paths.
func TestWhereRowsEqualsElementwiseSelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	be, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	backend := be.(*gobackend.Backend)
	for _, dims := range [][]int{{3, 5}, {2, 4, 7}, {1000, 40}} {
		for _, dt := range []dtypes.DType{dtypes.Float32, dtypes.Int32} {
			for _, scalars := range [][2]bool{{false, false}, {true, false}, {false, true}} { // (two scalars: the output is the condition's shape)
				out := shapes.Make(dt, dims...)
				condDims := append(append([]int{}, dims[:len(dims)-1]...), 1)
				condShape := shapes.Make(dtypes.Bool, condDims...)
				valueShape := func(scalar bool) shapes.Shape {
					if scalar {
						return shapes.Make(dt)
					}
					return out
				}
				ts, fs := valueShape(scalars[0]), valueShape(scalars[1])
				cond := make([]bool, condShape.Size())
				for i := range cond {
					cond[i] = rng.IntN(2) == 0
				}
				values := func(s shapes.Shape) (any, func(i int) float64) {
					if dt == dtypes.Float32 {
						v := make([]float32, s.Size())
						for i := range v {
							v[i] = rng.Float32()
						}
						return v, func(i int) float64 { return float64(v[i]) }
					}
					v := make([]int32, s.Size())
					for i := range v {
						v[i] = rng.Int32()
					}
					return v, func(i int) float64 { return float64(v[i]) }
				}
				tv, tAt := values(ts)
				fv, fAt := values(fs)
				got := runWhere(t, backend, condShape, ts, fs, cond, tv, fv)
				width := dims[len(dims)-1]
				for i := range out.Size() {
					want := fAt(min(i, fs.Size()-1))
					if cond[i/width] {
						want = tAt(min(i, ts.Size()-1))
					}
					if got(i) != want {
						t.Fatalf("%v %s, scalars %v: element %d = %v, want %v", dims, dt, scalars, i, got(i), want)
					}
				}
			}
		}
	}
	buf := func(s shapes.Shape) *gobackend.Buffer {
		b, err := backend.GetBuffer(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	f := func(d ...int) shapes.Shape { return shapes.Make(dtypes.Float32, d...) }
	for _, c := range []struct {
		cond, value, out shapes.Shape
		want             bool
	}{
		{shapes.Make(dtypes.Bool, 4, 1), f(4, 8), f(4, 8), true},
		{shapes.Make(dtypes.Bool, 4, 8), f(4, 8), f(4, 8), false},
		{shapes.Make(dtypes.Bool, 1, 8), f(4, 8), f(4, 8), false},
		{shapes.Make(dtypes.Bool, 4, 1), f(4, 1), f(4, 1), false},
		{shapes.Make(dtypes.Bool, 4, 1), f(1, 8), f(4, 8), false},
		{shapes.Make(dtypes.Bool), f(4, 8), f(4, 8), false},
	} {
		if got := whereRows[float32](buf(c.cond), buf(c.value), buf(c.value), buf(c.out)); got != c.want {
			t.Errorf("whereRows(%s, %s → %s) = %v, want %v", c.cond, c.value, c.out, got, c.want)
		}
	}
}

// runWhere compiles and runs Where(cond, onTrue, onFalse) on backend, the value operands
// donated, and returns the output's elements as float64.
func runWhere(t *testing.T, backend *gobackend.Backend, cs, ts, fs shapes.Shape, cond []bool, tv, fv any) func(int) float64 {
	t.Helper()
	builder := backend.Builder("where_rows").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	pc, _ := f.Parameter("cond", cs, nil)
	pt, _ := f.Parameter("t", ts, nil)
	pf, _ := f.Parameter("f", fs, nil)
	out, err := Where(f, pc, pt, pf)
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
	bc, _ := backend.BufferFromFlatData(0, cond, cs)
	bt, _ := backend.BufferFromFlatData(0, tv, ts)
	bf, _ := backend.BufferFromFlatData(0, fv, fs)
	res, err := exec.Execute([]compute.Buffer{bc, bt, bf}, []bool{false, true, true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	switch v := res[0].(*gobackend.Buffer).Flat.(type) {
	case []float32:
		return func(i int) float64 { return float64(v[i]) }
	case []int32:
		return func(i int) float64 { return float64(v[i]) }
	}
	t.Fatalf("output of type %T", res[0].(*gobackend.Buffer).Flat)
	return nil
}
