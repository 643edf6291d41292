// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// TestPlanBlocksTakesOnlyWholeBlockBroadcasts checks which operand shapes the block
// executor takes: broadcasts over middle axes with a trailing block of at least
// blockMinWidth elements, and nothing with a narrower block or a mismatched axis.
func TestPlanBlocksTakesOnlyWholeBlockBroadcasts(t *testing.T) {
	f32 := func(dims ...int) shapes.Shape { return shapes.Make(dtypes.Float32, dims...) }
	for _, c := range []struct {
		lhs, rhs, out shapes.Shape
		want          bool
		width         int
	}{
		{f32(50, 1, 4, 10), f32(1, 10, 4, 10), f32(50, 10, 4, 10), true, 40},
		{f32(50, 10, 4, 10), f32(50, 1, 4, 10), f32(50, 10, 4, 10), true, 40},
		{f32(50, 1, 4, 10), f32(50, 10, 1, 10), f32(50, 10, 4, 10), true, 10},
		{f32(50, 1, 4), f32(1, 10, 4), f32(50, 10, 4), false, 0},
		{f32(50, 10, 40), f32(50, 10, 40), f32(50, 10, 40), false, 0},
		{f32(50, 3, 40), f32(1, 10, 40), f32(50, 10, 40), false, 0},
		{f32(10, 40), f32(10, 1, 40), f32(10, 10, 40), false, 0},
	} {
		p, ok := planBlocks(c.lhs, c.rhs, c.out)
		if ok != c.want || (ok && p.width != c.width) {
			t.Errorf("%s, %s → %s: taken %v with width %d, want %v with width %d", c.lhs, c.rhs, c.out, ok, p.width, c.want, c.width)
		}
	}
}

// TestBlockBroadcastEqualsLoop runs Add, Sub, Mul and Div of operands that broadcast over
// middle axes (the layouts of an attention layer's per-type query products, and one with
// a block too narrow for the executor) through the backend and holds every element to
// the operation computed here with explicit broadcast indices, bit for bit; the output
// is large enough to split across workers.
func TestBlockBroadcastEqualsLoop(t *testing.T) {
	const a, ty, h, d = 900, 10, 4, 10
	rng := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		op       func(*gobackend.Function, compute.Value, compute.Value) (compute.Value, error)
		apply    func(x, y float32) float32
		lhs, rhs []int
	}{
		{Mul, func(x, y float32) float32 { return x * y }, []int{a, 1, h, d}, []int{1, ty, h, d}},
		{Mul, func(x, y float32) float32 { return x * y }, []int{a, ty, h, d}, []int{a, 1, h, d}},
		{Sub, func(x, y float32) float32 { return x - y }, []int{1, ty, h, d}, []int{a, 1, h, d}},
		{Add, func(x, y float32) float32 { return x + y }, []int{a, 1, h, d}, []int{a, ty, 1, d}},
		{Div, func(x, y float32) float32 { return x / y }, []int{a, ty, h, d}, []int{1, ty, 1, d}},
		{Mul, func(x, y float32) float32 { return x * y }, []int{a, 1, 4}, []int{1, ty, 4}},
	}
	raw, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	for ci, c := range cases {
		builder := be.Builder("blocks").(*gobackend.Builder)
		f := builder.Main().(*gobackend.Function)
		ls, rs := shapes.Make(dtypes.Float32, c.lhs...), shapes.Make(dtypes.Float32, c.rhs...)
		pl, _ := f.Parameter("lhs", ls, nil)
		pr, _ := f.Parameter("rhs", rs, nil)
		out := must(t)(c.op(f, pl, pr))
		if err := f.Return([]compute.Value{out}, nil); err != nil {
			t.Fatal(err)
		}
		exec, err := builder.Compile()
		if err != nil {
			t.Fatalf("case %d: compile: %+v", ci, err)
		}
		x, y := randomFloats(rng, ls.Size()), randomFloats(rng, rs.Size())
		for i := range y {
			y[i] += 3 // away from zero for Div
		}
		bx, _ := be.BufferFromFlatData(0, append([]float32(nil), x...), ls)
		by, _ := be.BufferFromFlatData(0, append([]float32(nil), y...), rs)
		res, err := exec.Execute([]compute.Buffer{bx, by}, nil, 0)
		if err != nil {
			t.Fatalf("case %d: execute: %+v", ci, err)
		}
		buf := res[0].(*gobackend.Buffer)
		got := buf.Flat.([]float32)
		dims := buf.RawShape.Dimensions
		idx := make([]int, len(dims))
		for k := range got {
			rem := k
			for axis := len(dims) - 1; axis >= 0; axis-- {
				idx[axis] = rem % dims[axis]
				rem /= dims[axis]
			}
			want := c.apply(x[broadcastFlat(idx, c.lhs)], y[broadcastFlat(idx, c.rhs)])
			if math.Float32bits(got[k]) != math.Float32bits(want) {
				t.Fatalf("case %d (%v, %v), element %v: %v, want %v", ci, c.lhs, c.rhs, idx, got[k], want)
			}
		}
	}
}

// broadcastFlat returns the flat index into an operand of dimensions dims of the output
// element at idx (axes of size 1 broadcast).
func broadcastFlat(idx, dims []int) int {
	flat := 0
	for axis, n := range dims {
		i := idx[axis]
		if n == 1 {
			i = 0
		}
		flat = flat*n + i
	}
	return flat
}
