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

// runProduct computes x · w on a backend of the given config, where x is [r, k]
// contracted on xAxis (1: x · w; 0: xᵀ · w, the weight gradient's form) and w [k, n]
// contracted on its axis 0, or [n, k] on its axis 1 when transposed; it returns the
// product and how many products the backend ran on a sparse left operand.
func runProduct(t *testing.T, config string, xs shapes.Shape, xAxis int, ws shapes.Shape, wAxis int, x, w []float32) ([]float32, int64) {
	t.Helper()
	return runProductOrder(t, config, false, xs, xAxis, ws, wAxis, x, w)
}

// runProductOrder is runProduct with x the right operand when xRight: w · x, contracted
// on wAxis and xAxis.
func runProductOrder(t *testing.T, config string, xRight bool, xs shapes.Shape, xAxis int, ws shapes.Shape, wAxis int, x, w []float32) ([]float32, int64) {
	t.Helper()
	raw, err := gobackend.New(config)
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("sparse").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	px, _ := f.Parameter("x", xs, nil)
	pw, _ := f.Parameter("w", ws, nil)
	out := must(t)(f.DotGeneral(px, []int{xAxis}, nil, pw, []int{wAxis}, nil, compute.DotGeneralConfig{}))
	if xRight {
		out = must(t)(f.DotGeneral(pw, []int{wAxis}, nil, px, []int{xAxis}, nil, compute.DotGeneralConfig{}))
	}
	if err := f.Return([]compute.Value{out}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	bx, _ := be.BufferFromFlatData(0, append([]float32(nil), x...), xs)
	bw, _ := be.BufferFromFlatData(0, append([]float32(nil), w...), ws)
	res, err := exec.Execute([]compute.Buffer{bx, bw}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	return append([]float32(nil), res[0].(*gobackend.Buffer).Flat.([]float32)...), be.SparseProducts.Load()
}

// sparseMatrix returns r·k values of which about density are non-zero (uniform in ±1,
// some negative zeros among the zeros), and how many are.
func sparseMatrix(rng *rand.Rand, r, k int, density float64) ([]float32, int) {
	x, nnz := make([]float32, r*k), 0
	for i := range x {
		switch {
		case rng.Float64() < density:
			x[i], nnz = float32(2*rng.Float64()-1), nnz+1
		case rng.IntN(7) == 0:
			x[i] = float32(math.Copysign(0, -1))
		}
	}
	return x, nnz
}

// TestSparseRHSProductEqualsGEMM holds g · x for a sparse x [K, N] (a dense layer's
// weight gradient on bag-of-words features, with g [M, K] the transposed gradient of the
// layer's output) to the backend's GEMM and to a float64 sum, to float32 rounding: g
// given as [M, K] (the backend's non-transposed layout, x read by columns) and as
// [K, M] contracted on its first axis (the transposed layout, x transposed first), M
// over several tiles of the kernel and off whole vectors, with an empty column of x; a
// dense x stays with the GEMM.
func TestSparseRHSProductEqualsGEMM(t *testing.T) {
	rng := rand.New(rand.NewPCG(83, 84))
	for _, c := range []struct {
		k, n, m, gAxis int
		density        float64
		sparse         bool
	}{
		{k: 1200, n: 700, m: 300, gAxis: 1, density: 0.013, sparse: true},
		{k: 1200, n: 700, m: 300, gAxis: 0, density: 0.013, sparse: true},
		{k: 1000, n: 300, m: 37, gAxis: 1, density: 0.02, sparse: true},
		{k: 1000, n: 300, m: 37, gAxis: 1, density: 0.3, sparse: false},
	} {
		x, _ := sparseMatrix(rng, c.k, c.n, c.density)
		for r := range c.k {
			x[r*c.n+5] = 0
		}
		g := make([]float32, c.k*c.m)
		for i := range g {
			g[i] = float32(rng.NormFloat64())
		}
		gAt := func(o, r int) float64 { return float64(g[o*c.k+r]) } // g [M, K]
		gs := shapes.Make(dtypes.Float32, c.m, c.k)
		if c.gAxis == 0 {
			gAt = func(o, r int) float64 { return float64(g[r*c.m+o]) } // g [K, M]
			gs = shapes.Make(dtypes.Float32, c.k, c.m)
		}
		xs := shapes.Make(dtypes.Float32, c.k, c.n)
		got, runs := runProductOrder(t, "", true, xs, 0, gs, c.gAxis, x, g)
		want, _ := runProductOrder(t, "no_fusion", true, xs, 0, gs, c.gAxis, x, g)
		if c.sparse != (runs == 1) {
			t.Fatalf("%+v: sparse products run: %d, want sparse=%v", c, runs, c.sparse)
		}
		for o := range c.m {
			for j := range c.n {
				var sum, mag float64
				for r := range c.k {
					p := gAt(o, r) * float64(x[r*c.n+j])
					sum, mag = sum+p, mag+math.Abs(p)
				}
				tol := 2*float64(c.k)*0x1p-24*mag + 1e-30
				if d := math.Abs(float64(got[o*c.n+j]) - sum); d > tol {
					t.Fatalf("%+v: [%d, %d] = %g, float64 sum %g (bound %g)", c, o, j, got[o*c.n+j], sum, tol)
				}
				if d := math.Abs(float64(want[o*c.n+j]) - sum); d > tol {
					t.Fatalf("%+v: GEMM [%d, %d] = %g, float64 sum %g (bound %g)", c, o, j, want[o*c.n+j], sum, tol)
				}
			}
		}
	}
}

// TestSparseLHSProductEqualsGEMM holds the product on a sparse left operand to the
// backend's GEMM (the same graph under no_fusion) and to a float64 sum computed here, to
// float32 rounding: x · w and x · wᵀ of a bag-of-words matrix (1 % non-zero, Cora's
// shape and a narrower one), xᵀ · g (the weight gradient: the contracted axis is x's
// first), an output width off whole vectors, and a row with no non-zero entry. Operands
// denser than the bound (a rectified layer after dropout: 25 %), narrower than 256
// columns or smaller than 2¹⁸ entries are left to the GEMM.
func TestSparseLHSProductEqualsGEMM(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	for _, c := range []struct {
		name       string
		r, k, n    int
		xAxis      int // x's contracted axis: 1 for x · w, 0 for xᵀ · w.
		transposed bool
		density    float64
		sparse     bool
	}{
		{name: "features · w (Cora's shape)", r: 2708, k: 1433, n: 64, xAxis: 1, density: 0.013, sparse: true},
		{name: "features · wᵀ", r: 1200, k: 700, n: 45, xAxis: 1, transposed: true, density: 0.01, sparse: true},
		{name: "featuresᵀ · g (weight gradient)", r: 2000, k: 300, n: 33, xAxis: 0, density: 0.02, sparse: true},
		{name: "activations after dropout", r: 2000, k: 512, n: 64, xAxis: 1, density: 0.25, sparse: false},
		{name: "narrow rows", r: 20000, k: 128, n: 32, xAxis: 1, density: 0.01, sparse: false},
		{name: "small operand", r: 500, k: 300, n: 16, xAxis: 1, density: 0.01, sparse: false},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, _ := sparseMatrix(rng, c.r, c.k, c.density)
			if c.sparse {
				for j := range c.k { // A row of the (transposed) operand without entries.
					if c.xAxis == 1 {
						x[j] = 0
					} else {
						x[j*c.k] = 0
					}
				}
			}
			m, kk := c.r, c.k // Rows and contracted width of the product's left operand.
			if c.xAxis == 0 {
				m, kk = c.k, c.r
			}
			w := make([]float32, kk*c.n)
			for i := range w {
				w[i] = float32(rng.NormFloat64())
			}
			xs := shapes.Make(dtypes.Float32, c.r, c.k)
			ws, wAxis := shapes.Make(dtypes.Float32, kk, c.n), 0
			if c.transposed {
				ws, wAxis = shapes.Make(dtypes.Float32, c.n, kk), 1
			}
			got, runs := runProduct(t, "", xs, c.xAxis, ws, wAxis, x, w)
			want, gemmRuns := runProduct(t, "no_fusion", xs, c.xAxis, ws, wAxis, x, w)
			if gemmRuns != 0 {
				t.Fatalf("no_fusion ran %d sparse products, want 0", gemmRuns)
			}
			if c.sparse != (runs == 1) {
				t.Fatalf("sparse products run: %d, want sparse=%v", runs, c.sparse)
			}
			at := func(i, j int) float64 { // (x or xᵀ)[i, j]
				if c.xAxis == 1 {
					return float64(x[i*c.k+j])
				}
				return float64(x[j*c.k+i])
			}
			wt := func(j, o int) float64 {
				if c.transposed {
					return float64(w[o*kk+j])
				}
				return float64(w[j*c.n+o])
			}
			for i := range m {
				for o := range c.n {
					var sum, mag float64
					for j := range kk {
						if a := at(i, j); a != 0 {
							sum += a * wt(j, o)
							mag += math.Abs(a * wt(j, o))
						}
					}
					tol := 2*float64(kk)*0x1p-24*mag + 1e-30
					if g := float64(got[i*c.n+o]); math.Abs(g-sum) > tol {
						t.Fatalf("[%d, %d] = %g, float64 sum %g (bound %g)", i, o, g, sum, tol)
					}
					if g := float64(want[i*c.n+o]); math.Abs(g-sum) > tol {
						t.Fatalf("GEMM [%d, %d] = %g, float64 sum %g (bound %g)", i, o, g, sum, tol)
					}
				}
			}
		})
	}
}

// BenchmarkSparseProductsCoauthorCS times the two sparse products of a cs-plus training
// step at their shapes: the first layer's three input maps x · w (x the [18,333, 6,805]
// bag-of-words features at 0.9 % non-zero, binary and divided by their row sum; w
// [6,805, 1,536]) and their weight gradient gᵀ · x (gᵀ [1,536, 18,333]).
func BenchmarkSparseProductsCoauthorCS(b *testing.B) {
	const width = 1536
	rng := rand.New(rand.NewPCG(85, 86))
	x, nodes, feats := coauthorCSFeatures(rng)
	dense := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	xs := shapes.Make(dtypes.Float32, nodes, feats)
	for _, c := range []struct {
		name   string
		xRight bool
		xAxis  int
		other  shapes.Shape
		oAxis  int
	}{
		{"x·w", false, 1, shapes.Make(dtypes.Float32, feats, width), 0},
		{"gᵀ·x", true, 0, shapes.Make(dtypes.Float32, width, nodes), 1},
	} {
		b.Run(c.name, func(b *testing.B) {
			raw, err := gobackend.New("")
			if err != nil {
				b.Fatal(err)
			}
			be := raw.(*gobackend.Backend)
			builder := be.Builder("bench").(*gobackend.Builder)
			f := builder.Main().(*gobackend.Function)
			px, _ := f.Parameter("x", xs, nil)
			po, _ := f.Parameter("o", c.other, nil)
			out, err := f.DotGeneral(px, []int{c.xAxis}, nil, po, []int{c.oAxis}, nil, compute.DotGeneralConfig{})
			if c.xRight {
				out, err = f.DotGeneral(po, []int{c.oAxis}, nil, px, []int{c.xAxis}, nil, compute.DotGeneralConfig{})
			}
			if err != nil {
				b.Fatal(err)
			}
			if err := f.Return([]compute.Value{out}, nil); err != nil {
				b.Fatal(err)
			}
			exec, err := builder.Compile()
			if err != nil {
				b.Fatal(err)
			}
			bx, _ := be.BufferFromFlatData(0, x, xs)
			bo, _ := be.BufferFromFlatData(0, dense(c.other.Size()), c.other)
			b.ResetTimer()
			for b.Loop() {
				res, err := exec.Execute([]compute.Buffer{bx, bo}, []bool{false, false}, 0)
				if err != nil {
					b.Fatal(err)
				}
				be.PutBuffer(res[0].(*gobackend.Buffer))
			}
			if be.SparseProducts.Load() == 0 {
				b.Fatal("the product ran on the GEMM")
			}
		})
	}
}

// TestSparseListingEqualsScalarScan holds the listing of a row's non-zero entries (in SIMD
// vectors where the CPU has them: sparselhs_amd64.go) to a scan of every value one by
// one: the same columns and values in the same order, on rows of every length up to
// three vectors and past, with negative zeros (zero), NaNs, infinities and subnormals
// (non-zero) in every lane.
func TestSparseListingEqualsScalarScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(87, 88))
	special := []float32{float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(-1)), math.SmallestNonzeroFloat32, 1}
	for n := range 70 {
		for trial := range 20 {
			row := make([]float32, n)
			for j := range row {
				switch p := rng.Float64(); {
				case p < 0.1:
					row[j] = special[rng.IntN(len(special))]
				case p < 0.1+0.05*float64(trial%4):
					row[j] = float32(rng.NormFloat64())
				}
			}
			var got sparseRows
			got.appendNonZero(row)
			var want sparseRows
			for j, v := range row {
				if math.Float32bits(v)&0x7fffffff != 0 {
					want.cols, want.vals = append(want.cols, int32(j)), append(want.vals, v)
				}
			}
			if len(got.cols) != len(want.cols) {
				t.Fatalf("row of %d (%v): %d entries listed, want %d", n, row, len(got.cols), len(want.cols))
			}
			for e := range want.cols {
				if got.cols[e] != want.cols[e] || math.Float32bits(got.vals[e]) != math.Float32bits(want.vals[e]) {
					t.Fatalf("row of %d: entry %d = (%d, %g), want (%d, %g)", n, e, got.cols[e], got.vals[e], want.cols[e], want.vals[e])
				}
			}
		}
	}
}

// coauthorCSFeatures returns a matrix of Coauthor CS's features' shape [18,333, 6,805]
// and density (0.9 % non-zero, binary, each row divided by its sum), its rows and columns.
func coauthorCSFeatures(rng *rand.Rand) (x []float32, nodes, feats int) {
	nodes, feats = 18333, 6805
	x = make([]float32, nodes*feats)
	for r := range nodes {
		row, nnz := x[r*feats:(r+1)*feats], 0
		for j := range row {
			if rng.Float64() < 0.009 {
				row[j], nnz = 1, nnz+1
			}
		}
		for j := range row {
			if row[j] != 0 {
				row[j] /= float32(nnz)
			}
		}
	}
	return x, nodes, feats
}

// BenchmarkSparseListingCoauthorCS times the listing of Coauthor CS's features alone
// (a read of 500 MB), which each product on them runs first.
func BenchmarkSparseListingCoauthorCS(b *testing.B) {
	x, nodes, feats := coauthorCSFeatures(rand.New(rand.NewPCG(85, 86)))
	raw, err := gobackend.New("")
	if err != nil {
		b.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	for b.Loop() {
		var s sparseRows
		if !listSparse(be, x, nodes, feats, &s) {
			b.Fatal("the features were not listed sparse")
		}
	}
}

// TestSparseRowTileKernelsAgreeBitForBit holds the row sums of a tile in amd64's vectors
// without bounds checks (sparselhs_amd64.go; AVX-512 here, AVX2 under
// GODEBUG=cpu.avx512f=off) to the same sums in Go's portable vectors, bit for bit: the
// same fused multiply-adds in the same order, on rows of 0 to 300 entries with columns
// anywhere in the tile, its last row among them.
func TestSparseRowTileKernelsAgreeBitForBit(t *testing.T) {
	width := sparseTileLanes * float32Lanes()
	const k = 700
	rng := rand.New(rand.NewPCG(89, 90))
	tile := make([]float32, k*width)
	for i := range tile {
		tile[i] = float32(rng.NormFloat64())
	}
	got, want := make([]float32, width), make([]float32, width)
	for _, n := range []int{0, 1, 2, 3, 17, 64, 300} {
		cols, vals := make([]int32, n), make([]float32, n)
		for e := range cols {
			cols[e], vals[e] = int32(rng.IntN(k)), float32(rng.NormFloat64())
		}
		if n > 0 {
			cols[n-1] = k - 1
		}
		if !sparseRowTileSIMD(got, cols, vals, tile) {
			t.Skipf("no amd64 kernel for %d-lane vectors on this CPU", float32Lanes())
		}
		sparseRowTileVectors(want, cols, vals, tile)
		for j := range want {
			if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
				t.Fatalf("%d entries: lane %d = %g, the portable kernel's %g", n, j, got[j], want[j])
			}
		}
	}
}
