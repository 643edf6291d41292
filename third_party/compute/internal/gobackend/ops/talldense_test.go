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

// runTallDense computes x [r, k] · w (w [k, n], or [n, k] contracted on its axis 1 when
// transposed) on a backend of the given config and returns it and the number of fused
// nodes.
func runTallDense(t *testing.T, config string, r, k, n int, transposed bool, x, w []float32) ([]float32, int) {
	t.Helper()
	raw, err := gobackend.New(config)
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("dense").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	xs, ws, wAxis := shapes.Make(dtypes.Float32, r, k), shapes.Make(dtypes.Float32, k, n), 0
	if transposed {
		ws, wAxis = shapes.Make(dtypes.Float32, n, k), 1
	}
	px, _ := f.Parameter("x", xs, nil)
	pw, _ := f.Parameter("w", ws, nil)
	out := must(t)(f.DotGeneral(px, []int{1}, nil, pw, []int{wAxis}, nil, compute.DotGeneralConfig{}))
	if err := f.Return([]compute.Value{out}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	fused := 0
	for _, node := range f.Nodes {
		if _, ok := node.Data.(*tallDense); ok {
			fused++
		}
	}
	bx, _ := be.BufferFromFlatData(0, append([]float32(nil), x...), xs)
	bw, _ := be.BufferFromFlatData(0, append([]float32(nil), w...), ws)
	res, err := exec.Execute([]compute.Buffer{bx, bw}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	return append([]float32(nil), res[0].(*gobackend.Buffer).Flat.([]float32)...), fused
}

// TestTallDenseEqualsUnfused holds the fused x · w and x · wᵀ to the backend's GEMM and
// to a float64 sum computed here, to float32 rounding: a GatedGCN layer's width (40: two
// column vectors of AVX-512 and a partial one), 64 by 24, 40 by 42 (pairs of vectors and
// a partial one on every SIMD width), 160 by 40 transposed, odd sizes (rows not a
// multiple of four, a row block split across workers) where this CPU's kernel takes them
// (gobackend.TallDenseFuses); products too wide (128 columns), of whole SIMD vectors (32
// columns on every width, 40 and 24 on arm64's narrower vectors), any width with AVX2's
// GEMM, or too short stay unfused.
func TestTallDenseEqualsUnfused(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	for _, c := range []struct {
		r, k, n    int
		transposed bool
		fused      bool // Tall and narrow enough: fused where this CPU's kernel takes n.
	}{
		{r: 20001, k: 40, n: 40, fused: true},
		{r: 9001, k: 64, n: 24, fused: true},
		{r: 9001, k: 40, n: 42, fused: true},
		{r: 9001, k: 64, n: 32, fused: false},
		{r: 4099, k: 160, n: 40, transposed: true, fused: true},
		{r: 5003, k: 17, n: 7, transposed: true, fused: true},
		{r: 9001, k: 64, n: 128, fused: false},
		{r: 500, k: 40, n: 40, fused: false},
	} {
		x, w := randomFloats(rng, c.r*c.k), randomFloats(rng, c.k*c.n)
		got, nf := runTallDense(t, "", c.r, c.k, c.n, c.transposed, x, w)
		plain, np := runTallDense(t, "no_fusion", c.r, c.k, c.n, c.transposed, x, w)
		if want := map[bool]int{true: 1, false: 0}[c.fused && gobackend.TallDenseFuses(c.n, float32Lanes())]; nf != want || np != 0 {
			t.Fatalf("%+v: %d fused nodes (no_fusion: %d), want %d (0)", c, nf, np, want)
		}
		for row := range c.r {
			for j := range c.n {
				var exact, mag float64
				for kk := range c.k {
					wv := w[kk*c.n+j]
					if c.transposed {
						wv = w[j*c.k+kk]
					}
					p := float64(x[row*c.k+kk]) * float64(wv)
					exact += p
					mag += math.Abs(p)
				}
				tol := 2 * float64(c.k) * 6e-8 * mag
				i := row*c.n + j
				if math.Abs(float64(got[i])-exact) > tol || math.Abs(float64(plain[i])-exact) > tol {
					t.Fatalf("%+v: [%d,%d] fused %g, unfused %g, float64 %g (tolerance %g)", c, row, j, got[i], plain[i], exact, tol)
				}
			}
		}
	}
}

// TestTallDenseChoiceGivesEqualProducts holds the run-time choice between the tall dense
// kernel and the GEMM (gobackend.TallDenseFuses, by the CPU's features): for widths on
// either side of it (multiples of 8, 16 and 4 columns and none), the kernel, run here on
// every width, and the GEMM agree to float32 rounding, and the fusion takes exactly the
// widths the choice gives the kernel.
func TestTallDenseChoiceGivesEqualProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 74))
	const r, k = 4097, 40
	for _, n := range []int{8, 16, 24, 32, 40, 48, 20, 7} {
		x, w := randomFloats(rng, r*k), randomFloats(rng, k*n)
		chosen, nf := runTallDense(t, "", r, k, n, false, x, w)
		gemm, _ := runTallDense(t, "no_fusion", r, k, n, false, x, w)
		if want := map[bool]int{true: 1, false: 0}[gobackend.TallDenseFuses(n, float32Lanes())]; nf != want {
			t.Fatalf("%d columns: %d fused nodes, want %d", n, nf, want)
		}
		kernel := make([]float32, r*n)
		p := &tallDense{r: r, k: k, n: n}
		for b := 0; b < r; b += 4 {
			denseRowBlock(kernel, x, w, p, b, min(r, b+4))
		}
		for row := range r {
			for j := range n {
				var mag float64
				for kk := range k {
					mag += math.Abs(float64(x[row*k+kk]) * float64(w[kk*n+j]))
				}
				i, tol := row*n+j, 2*float64(k)*6e-8*mag
				if math.Abs(float64(kernel[i])-float64(gemm[i])) > tol || math.Abs(float64(chosen[i])-float64(gemm[i])) > tol {
					t.Fatalf("%d columns, [%d,%d]: kernel %g, GEMM %g, chosen %g (tolerance %g)", n, row, j, kernel[i], gemm[i], chosen[i], tol)
				}
			}
		}
	}
}
