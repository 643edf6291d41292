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

// TestThresholdProductsEqualUnfused holds the fused products of a threshold pattern P =
// [s ⊙ w + b ≥ c] [E, D] (P·t and Pᵀ·g) to the unfused ops within float32 rounding, and to
// a float64 computation here: enough edges to split across workers and a number that is
// no multiple of the SIMD width, a pattern as wide as a hidden layer (40) and narrower
// than a vector (5), thresholds 0 and 0.3, values of s that hit the threshold exactly.
func TestThresholdProductsEqualUnfused(t *testing.T) {
	for _, c := range []struct {
		e, d   int
		thresh float32
	}{{20003, 40, 0}, {37, 5, 0.3}} {
		testThresholdProducts(t, c.e, c.d, c.thresh)
	}
}

// testThresholdProducts is TestThresholdProductsEqualUnfused on e edges, patterns of width d
// and threshold thresh.
func testThresholdProducts(t *testing.T, e, d int, thresh float32) {
	rng := rand.New(rand.NewPCG(23, 24))
	s, w, b, col, g := randomFloats(rng, e), randomFloats(rng, d), randomFloats(rng, d), randomFloats(rng, d), randomFloats(rng, e)
	w[0], b[0], s[1] = 1, 0, thresh // s[1]·w[0] + b[0] = c: on the threshold
	perEdge, perCol, column, edges := shapes.Make(dtypes.Float32, e, 1), shapes.Make(dtypes.Float32, 1, d), shapes.Make(dtypes.Float32, d, 1), shapes.Make(dtypes.Float32, e, 1)
	run := func(config string) ([][]float32, int) {
		raw, err := gobackend.New(config)
		if err != nil {
			t.Fatal(err)
		}
		be := raw.(*gobackend.Backend)
		builder := be.Builder("threshold").(*gobackend.Builder)
		f := builder.Main().(*gobackend.Function)
		m := must(t)
		ps, _ := f.Parameter("s", perEdge, nil)
		pw, _ := f.Parameter("w", perCol, nil)
		pb, _ := f.Parameter("b", perCol, nil)
		pt, _ := f.Parameter("t", column, nil)
		pg, _ := f.Parameter("g", edges, nil)
		pc := m(f.Constant([]float32{thresh}))
		pattern := m(f.ConvertDType(m(GreaterOrEqual(f, m(Add(f, m(Mul(f, ps, pw)), pb)), pc)), dtypes.Float32))
		prod := m(f.DotGeneral(pattern, []int{1}, nil, pt, []int{0}, nil, compute.DotGeneralConfig{}))
		gram := m(f.DotGeneral(pattern, []int{0}, nil, pg, []int{0}, nil, compute.DotGeneralConfig{}))
		if err := f.Return([]compute.Value{prod, gram}, nil); err != nil {
			t.Fatal(err)
		}
		exec, err := builder.Compile()
		if err != nil {
			t.Fatalf("compile: %+v", err)
		}
		fused := 0
		for _, node := range f.Nodes {
			if _, ok := node.Data.(*thresholdProduct); ok {
				fused++
			}
		}
		buf := func(flat []float32, s shapes.Shape) compute.Buffer {
			b, err := be.BufferFromFlatData(0, append([]float32(nil), flat...), s)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		res, err := exec.Execute([]compute.Buffer{buf(s, perEdge), buf(w, perCol), buf(b, perCol), buf(col, column), buf(g, edges)}, nil, 0)
		if err != nil {
			t.Fatalf("execute: %+v", err)
		}
		out := make([][]float32, len(res))
		for i, x := range res {
			out[i] = append([]float32(nil), x.(*gobackend.Buffer).Flat.([]float32)...)
		}
		return out, fused
	}
	fused, nf := run("")
	plain, np := run("no_fusion")
	if nf != 2 || np != 0 {
		t.Fatalf("%d fused products (no_fusion: %d), want 2 (0)", nf, np)
	}
	on := func(i, k int) bool { return float32(s[i]*w[k])+b[k] >= thresh } // rounded as the ops round
	want := [2][]float64{make([]float64, e), make([]float64, d)}
	for i := range e {
		for k := range d {
			if on(i, k) {
				want[0][i] += float64(col[k])
				want[1][k] += float64(g[i])
			}
		}
	}
	for o, name := range []string{"P·t", "Pᵀ·g"} {
		for i, v := range want[o] {
			if tol := 1e-4 * (1 + math.Abs(v)); math.Abs(float64(fused[o][i])-v) > tol || math.Abs(float64(plain[o][i])-v) > tol {
				t.Fatalf("%s [%d, %d] element %d: fused %v, unfused %v, float64 %v", name, e, d, i, fused[o][i], plain[o][i], v)
			}
		}
	}
}
