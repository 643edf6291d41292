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

// weightGradient runs Transpose(DotGeneral(Transpose(g), x)), autodiff's form of the
// weight gradient xᵀ · g, on a backend of the given config, for x [k, f] and g [k, a];
// with alsoProduct the inner product is returned too, so that the fusion cannot take it.
// It returns xᵀ · g, the fused nodes by kind and the sparse products run.
func weightGradient(t *testing.T, config string, alsoProduct bool, k, f, a int, x, g []float32) ([]float32, map[string]int, int64) {
	t.Helper()
	raw, err := gobackend.New(config)
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("gradient").(*gobackend.Builder)
	fn := builder.Main().(*gobackend.Function)
	xs, gs := shapes.Make(dtypes.Float32, k, f), shapes.Make(dtypes.Float32, k, a)
	px, _ := fn.Parameter("x", xs, nil)
	pg, _ := fn.Parameter("g", gs, nil)
	gT := must(t)(fn.Transpose(pg, 1, 0))
	prod := must(t)(fn.DotGeneral(gT, []int{1}, nil, px, []int{0}, nil, compute.DotGeneralConfig{}))
	outs := []compute.Value{must(t)(fn.Transpose(prod, 1, 0))}
	if alsoProduct {
		outs = append(outs, prod)
	}
	if err := fn.Return(outs, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	bx, _ := be.BufferFromFlatData(0, append([]float32(nil), x...), xs)
	bg, _ := be.BufferFromFlatData(0, append([]float32(nil), g...), gs)
	res, err := exec.Execute([]compute.Buffer{bx, bg}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	got := append([]float32(nil), res[0].(*gobackend.Buffer).Flat.([]float32)...)
	return got, exec.(*gobackend.Executable).Fusions(), be.SparseProducts.Load()
}

// TestSparseGradientEqualsTransposedProducts holds the fused weight gradient xᵀ · g to
// the ops it replaces: bit for bit to the same graph whose inner product is also an
// output (so not fused: the sparse product of sparselhs.go and two transposes), and, on
// dense operands, to the GEMM under no_fusion; and a fifth of the entries to a float64
// sum within float32 rounding. A sparse x (1.5 % non-zero, a column without entries, widths off whole
// vectors) takes the sparse product, so does a sparse g beside a dense x (30 %); two
// dense ones the GEMM. The fusion fails this test when it
// stops matching autodiff's form (SparseGradient missing from the fused nodes).
func TestSparseGradientEqualsTransposedProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(87, 88))
	for _, c := range []struct {
		name              string
		k, f, a           int
		density, gDensity float64
		sparse            bool
	}{
		{name: "bag of words", k: 1500, f: 700, a: 150, density: 0.015, gDensity: 1, sparse: true},
		{name: "wide gradient", k: 1100, f: 300, a: 520, density: 0.02, gDensity: 1, sparse: true},
		{name: "sparse other operand", k: 1200, f: 300, a: 400, density: 0.3, gDensity: 0.02, sparse: true},
		{name: "dense features", k: 1200, f: 400, a: 70, density: 0.3, gDensity: 1, sparse: false},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, _ := sparseMatrix(rng, c.k, c.f, c.density)
			for r := range c.k {
				x[r*c.f+3] = 0
			}
			g, _ := sparseMatrix(rng, c.k, c.a, c.gDensity)
			got, fused, runs := weightGradient(t, "", false, c.k, c.f, c.a, x, g)
			if fused["SparseGradient"] != 1 {
				t.Fatalf("fused nodes %v: want one SparseGradient", fused)
			}
			if c.sparse != (runs == 1) {
				t.Fatalf("sparse products run: %d, want sparse=%v", runs, c.sparse)
			}
			want, unfused, _ := weightGradient(t, "", true, c.k, c.f, c.a, x, g)
			if unfused["SparseGradient"] != 0 {
				t.Fatalf("fused a product that is also an output: %v", unfused)
			}
			if !c.sparse {
				gemm, _, _ := weightGradient(t, "no_fusion", false, c.k, c.f, c.a, x, g)
				assertSameBits(t, "no_fusion", got, gemm)
			}
			assertSameBits(t, "unfused", got, want)
			for j := range c.f {
				for o := (j * 3) % 5; o < c.a; o += 5 { // A fifth of the entries, every column and row.
					var sum, mag float64
					for r := range c.k {
						p := float64(x[r*c.f+j]) * float64(g[r*c.a+o])
						sum, mag = sum+p, mag+math.Abs(p)
					}
					tol := 2*float64(c.k)*0x1p-24*mag + 1e-30
					if d := math.Abs(float64(got[j*c.a+o]) - sum); d > tol {
						t.Fatalf("[%d, %d] = %g, float64 sum %g (bound %g)", j, o, got[j*c.a+o], sum, tol)
					}
				}
			}
		})
	}
}

// A weight gradient over a tall x [4,096, 256] (a layer over edges) is the tall Gram
// kernel's, faster than either of this fusion's paths: the fusion leaves it.
func TestTallWeightGradientsStayWithTheGramKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(89, 90))
	const k, f, a = 4096, 256, 16
	x, g := randomFloats(rng, k*f), randomFloats(rng, k*a)
	_, fused, _ := weightGradient(t, "", false, k, f, a, x, g)
	if fused["SparseGradient"] != 0 || fused["TallGram"] != 1 {
		t.Fatalf("fused nodes %v: want the tall Gram product and no SparseGradient", fused)
	}
}

// assertSameBits fails unless got and want hold the same float32 values bit for bit.
func assertSameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: value %d is %g, want %g bit for bit", what, i, got[i], want[i])
		}
	}
}
