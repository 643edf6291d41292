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

// TestGatheredOperandsEqualUnfused holds Add, Sub and Mul with gathered operands to the
// unfused ops bit for bit: both operands gathered, one gathered (on either side, one
// through a reshape), and a gather with another consumer (kept as it is); indices out of
// range are clamped; the edges are enough to split across workers; rows of [4, 10] and
// [5, 7] (a whole SIMD vector and a tail) and of [1, 3] (less than a vector).
func TestGatheredOperandsEqualUnfused(t *testing.T) {
	for _, hd := range [][2]int{{4, 10}, {5, 7}, {1, 3}} {
		testGatheredOperands(t, hd[0], hd[1])
	}
}

// testGatheredOperands is TestGatheredOperandsEqualUnfused on rows of [h, d].
func testGatheredOperands(t *testing.T, h, d int) {
	const n, e = 300, 30000
	w := h * d
	rng := rand.New(rand.NewPCG(15, 16))
	x1, x2, y := randomFloats(rng, n*w), randomFloats(rng, n*w), randomFloats(rng, e*w)
	i1, i2 := randomIndices(rng, n, e, true), randomIndices(rng, n, e, false)
	i1[0], i2[1] = -2, n+7
	run := func(config string) ([][]float32, int) {
		raw, err := gobackend.New(config)
		if err != nil {
			t.Fatal(err)
		}
		be := raw.(*gobackend.Backend)
		builder := be.Builder("gathered").(*gobackend.Builder)
		f := builder.Main().(*gobackend.Function)
		m := must(t)
		xs, ys, is := shapes.Make(dtypes.Float32, n, w), shapes.Make(dtypes.Float32, e, h, d), shapes.Make(dtypes.Int32, e, 1)
		p1, _ := f.Parameter("x1", xs, nil)
		p2, _ := f.Parameter("x2", xs, nil)
		py, _ := f.Parameter("y", ys, nil)
		q1, _ := f.Parameter("i1", is, nil)
		q2, _ := f.Parameter("i2", is, nil)
		gather := func(x, idx compute.Value) compute.Value {
			g := m(Gather(f, x, idx, 1, []int{1}, []int{0}, []int{0}, []int{1, w}, false))
			return m(Reshape(f, g, e, h, d))
		}
		both := m(Add(f, gather(p1, q1), gather(p2, q2)))
		left := m(Mul(f, gather(p2, q1), py))
		right := m(Sub(f, py, gather(p1, q2)))
		shared := gather(p2, q2)
		kept := m(Mul(f, shared, py))
		if err := f.Return([]compute.Value{both, left, right, kept, shared}, nil); err != nil {
			t.Fatal(err)
		}
		exec, err := builder.Compile()
		if err != nil {
			t.Fatalf("compile: %+v", err)
		}
		fused := 0
		for _, node := range f.Nodes {
			if _, ok := node.Data.(*gatheredBinary); ok {
				fused++
			}
		}
		buf := func(flat any, s shapes.Shape) compute.Buffer {
			b, err := be.BufferFromFlatData(0, flat, s)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		res, err := exec.Execute([]compute.Buffer{buf(append([]float32(nil), x1...), xs), buf(append([]float32(nil), x2...), xs),
			buf(append([]float32(nil), y...), ys), buf(append([]int32(nil), i1...), is), buf(append([]int32(nil), i2...), is)}, nil, 0)
		if err != nil {
			t.Fatalf("execute: %+v", err)
		}
		out := make([][]float32, len(res))
		for i, r := range res {
			out[i] = append([]float32(nil), r.(*gobackend.Buffer).Flat.([]float32)...)
		}
		return out, fused
	}
	fused, nf := run("")
	plain, np := run("no_fusion")
	if nf != 3 || np != 0 {
		t.Fatalf("%d fused nodes (no_fusion: %d), want 3 (0)", nf, np)
	}
	for o := range plain {
		for i := range plain[o] {
			if math.Float32bits(fused[o][i]) != math.Float32bits(plain[o][i]) {
				t.Fatalf("rows [%d, %d] output %d element %d: fused %v, unfused %v", h, d, o, i, fused[o][i], plain[o][i])
			}
		}
	}
	// The first output against a sum computed here (clamped indices).
	for k := range e {
		r1, r2 := int(max(0, min(n-1, i1[k]))), int(max(0, min(n-1, i2[k])))
		for j := range w {
			if want := x1[r1*w+j] + x2[r2*w+j]; fused[0][k*w+j] != want {
				t.Fatalf("edge %d element %d: %v, want %v", k, j, fused[0][k*w+j], want)
			}
		}
	}
}
