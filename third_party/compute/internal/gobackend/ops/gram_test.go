// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// runGram computes xᵀ·g (DotGeneral contracting axis 0 of x [k, m] and g [k, n]) on a
// backend of the given config and returns it and the number of fused nodes.
func runGram(t *testing.T, config string, k, m, n int, x, g []float32) ([]float32, int) {
	t.Helper()
	raw, err := gobackend.New(config)
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("gram").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	xs, gs := shapes.Make(dtypes.Float32, k, m), shapes.Make(dtypes.Float32, k, n)
	px, _ := f.Parameter("x", xs, nil)
	pg, _ := f.Parameter("g", gs, nil)
	out := must(t)(f.DotGeneral(px, []int{0}, nil, pg, []int{0}, nil, compute.DotGeneralConfig{}))
	if err := f.Return([]compute.Value{out}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	fused := 0
	for _, node := range f.Nodes {
		if _, ok := node.Data.(*tallGram); ok {
			fused++
		}
	}
	bx, _ := be.BufferFromFlatData(0, append([]float32(nil), x...), xs)
	bg, _ := be.BufferFromFlatData(0, append([]float32(nil), g...), gs)
	res, err := exec.Execute([]compute.Buffer{bx, bg}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	return append([]float32(nil), res[0].(*gobackend.Buffer).Flat.([]float32)...), fused
}

// TestTallGramEqualsUnfused holds the fused xᵀ·g to the unfused transpose and matrix
// product and to a float64 sum computed here, to float32 rounding: widths of a GEMM
// layer (40, 64, 96, 136: columns taken four, three, two and one SIMD vector at a time,
// the row's last vector a whole one overlapping the vector before it), odd ones (rows of
// x not a multiple of four, rows shorter than a SIMD vector), rows
// split across workers and a chunk left over, the same result bit for bit on one worker;
// a product too short to fuse stays unfused.
func TestTallGramEqualsUnfused(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		k, m, n int
		fused   bool
	}{
		{k: 20000, m: 40, n: 40, fused: true},
		{k: 300000, m: 8, n: 8, fused: true}, // More blocks than maxGramBlocks: longer blocks.
		{k: 4099, m: 7, n: 17, fused: true},
		{k: 3000, m: 33, n: 3, fused: true},
		{k: 9000, m: 12, n: 136, fused: true}, // Columns in blocks of four and of one vector, and a partial one.
		{k: 5000, m: 64, n: 96, fused: true},  // Blocks of four and of two vectors.
		{k: 4099, m: 8, n: 20, fused: true},   // A whole vector and the row's last one, overlapping it (16 lanes).
		{k: 4099, m: 4, n: 44, fused: true},   // Two whole vectors and the last (16 lanes), five and the last (8).
		{k: 4099, m: 4, n: 48, fused: true},   // Three whole vectors in one pass (16 lanes).
		{k: 500, m: 40, n: 40, fused: false},
	} {
		x, g := randomFloats(rng, c.k*c.m), randomFloats(rng, c.k*c.n)
		got, nf := runGram(t, "", c.k, c.m, c.n, x, g)
		plain, np := runGram(t, "no_fusion", c.k, c.m, c.n, x, g)
		if one, _ := runGram(t, "parallelism=1", c.k, c.m, c.n, x, g); !slices.Equal(one, got) {
			t.Fatalf("%+v: the result depends on the number of workers", c)
		}
		if want := map[bool]int{true: 1, false: 0}[c.fused]; nf != want || np != 0 {
			t.Fatalf("%+v: %d fused nodes (no_fusion: %d), want %d (0)", c, nf, np, want)
		}
		for a := 0; a < c.m; a++ {
			for b := 0; b < c.n; b++ {
				var exact, mag float64
				for r := 0; r < c.k; r++ {
					p := float64(x[r*c.m+a]) * float64(g[r*c.n+b])
					exact += p
					mag += math.Abs(p)
				}
				i := a*c.n + b
				// float32 sums of k terms: error within k·ε of the sum of magnitudes.
				tol := float64(c.k) * 6e-8 * mag / math.Sqrt(float64(c.k))
				if math.Abs(float64(got[i])-exact) > tol || math.Abs(float64(plain[i])-exact) > tol {
					t.Fatalf("%+v: [%d,%d] fused %g, unfused %g, float64 %g (tolerance %g)", c, a, b, got[i], plain[i], exact, tol)
				}
			}
		}
	}
}
