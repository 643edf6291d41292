// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"simd"
	"slices"
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
		if d, ok := node.Data.(*tallDense); ok {
			fused++
			// A fused product on a CPU with assembly passes runs them (the speed the
			// fusion's widths were chosen for), not only the Go kernel.
			if l, _ := asmLanes(); l > 0 && n > l && d.passes == nil {
				t.Errorf("%d by %d into %d columns: fused without its assembly passes", r, k, n)
			}
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
// multiple of four, a row block split across workers), and 32, 80 and 128 columns, each
// where this CPU's kernel takes it (gobackend.TallDenseFuses: with AVX-512 every width
// but 16, elsewhere widths off whole vectors up to 48); products too wide (160 columns),
// any width with AVX2's GEMM, or too short stay unfused.
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
		{r: 9001, k: 64, n: 32, fused: true},
		{r: 4099, k: 160, n: 40, transposed: true, fused: true},
		{r: 5003, k: 17, n: 7, transposed: true, fused: true},
		{r: 9001, k: 64, n: 128, fused: true},
		{r: 9001, k: 64, n: 80, fused: true},
		{r: 9001, k: 64, n: 160, fused: false},
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
	for _, n := range []int{8, 16, 24, 32, 40, 48, 20, 7, 64, 80, 128} {
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

// TestTallDenseAssemblyAgreesBitForBit holds the assembly passes (AVX-512's in
// talldense_amd64.s, AVX2's in talldense_avx2_amd64.s, whichever this CPU runs) to the Go
// kernel they stand in for, bit for bit: widths of 9 to 128 columns (passes of four,
// three and two vectors, the last overlapping the one before it where the width is no
// multiple of the vector), contracting lengths of 1 to 70, several blocks in one call and
// a call that starts past the first block, with negative zeros, infinities and NaNs among
// the inputs; the passes cover every width above one vector and stay in the row. Skipped
// where the CPU has neither.
func TestTallDenseAssemblyAgreesBitForBit(t *testing.T) {
	l, maxVecs := asmLanes()
	for n := 1; n <= 64; n++ {
		if want := n > l && l > 0; (denseAsmPasses(n) != nil) != want {
			t.Errorf("denseAsmPasses(%d) = %v, want passes: %v", n, denseAsmPasses(n), want)
		}
	}
	if l == 0 {
		t.Skip("neither AVX-512 nor AVX2 here: the assembly passes do not run")
	}
	for n := l + 1; n <= 200; n++ { // The passes' vectors lie in the row and cover it.
		covered := make([]bool, n)
		for _, ps := range denseAsmPasses(n) {
			if ps.vecs < 2 || ps.vecs > maxVecs {
				t.Fatalf("n=%d: pass %+v of %d vectors", n, ps, ps.vecs)
			}
			cols := []int{ps.c, ps.c + l, ps.c + 2*l, ps.c + 3*l}[:ps.vecs-1]
			for _, c := range append(cols, ps.last) {
				if c < 0 || c+l > n || c < ps.c {
					t.Fatalf("n=%d: pass %+v has a vector at column %d", n, ps, c)
				}
				for j := c; j < c+l; j++ {
					covered[j] = true
				}
			}
		}
		if i := slices.Index(covered, false); i >= 0 {
			t.Fatalf("n=%d: column %d in no pass (%+v)", n, i, denseAsmPasses(n))
		}
	}
	rng := rand.New(rand.NewPCG(73, 74))
	special := []float32{float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40}
	for _, n := range []int{9, 12, 16, 17, 24, 32, 33, 40, 42, 47, 48, 50, 63, 64, 65, 80, 96, 100, 127, 128} {
		if n <= l {
			continue
		}
		for _, k := range []int{1, 2, 7, 40, 70} {
			const blocks = 5
			p := &tallDense{r: 4 * blocks, k: k, n: n, passes: denseAsmPasses(n)}
			x, w := randomFloats(rng, p.r*k), randomFloats(rng, k*n)
			if k > 2 {
				for i, v := range special {
					x[(i*37)%len(x)], w[(i*53)%len(w)] = v, v
				}
			}
			want, got := make([]float32, p.r*n), make([]float32, p.r*n)
			for b := range blocks {
				denseRowBlock(want, x, w, p, 4*b, 4*b+4)
			}
			if !denseBlocksAsm(got, x, w, p, 0, 2) || !denseBlocksAsm(got, x, w, p, 2, blocks) {
				t.Fatalf("n=%d k=%d: the assembly pass refused the product", n, k)
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n=%d k=%d: element [%d,%d] %g (%#x), Go kernel %g (%#x)", n, k, i/n, i%n, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
				}
			}
		}
	}
	p := &tallDense{r: 8, k: 4, n: 40, passes: denseAsmPasses(40)}
	if denseBlocksAsm(make([]float32, 8*40), make([]float32, 8*4), make([]float32, 4*40), p, 1, 3) {
		t.Error("a block past x's rows was taken")
	}
}

// TestTallGramAssemblyAgreesBitForBit holds the assembly passes of the Gram kernel
// (AVX-512's in talldense_amd64.s, AVX2's in talldense_avx2_amd64.s, whichever this CPU
// runs) to gramFull2, gramFull3 and gramFull4, bit for bit: two vectors apart and
// overlapping, three with the last overlapping the second, four (AVX-512), x's columns at
// an offset, chunks of 1 to 70 rows starting past the first, with negative zeros,
// infinities and NaNs among the inputs; and gramAsm refuses what no pass covers. Skipped
// where the CPU has neither.
func TestTallGramAssemblyAgreesBitForBit(t *testing.T) {
	l, maxVecs := asmLanes()
	if l == 0 {
		if gramAsm(make([]simd.Float32s, 12), make([]float32, 80), make([]float32, 80), 0, 2, 8, 40, 0, 0, 16, 24) {
			t.Error("an assembly pass ran without AVX-512 or AVX2")
		}
		t.Skip("neither AVX-512 nor AVX2 here: the assembly passes do not run")
	}
	rng := rand.New(rand.NewPCG(75, 76))
	special := []float32{float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40}
	const m, a = 10, 4
	z := simd.BroadcastFloat32s(0)
	// Widths and columns in vectors of l lanes (an overlapping last vector where
	// fractional), as gramChunk asks for them.
	for _, c := range []struct {
		n    float64
		cols []float64
	}{
		{2.5, []float64{0, 1.5}}, {2.5, []float64{0.5, 1.5}}, {2, []float64{0, 1}}, {4.375, []float64{0.1875, 2.5}},
		{2.0625, []float64{0, 1, 1.0625}}, {2.5, []float64{0, 1, 1.5}}, {3, []float64{0, 1, 2}}, {3.75, []float64{0.3125, 1.3125, 2.75}},
		{4, []float64{0, 1, 2, 3}}, {8.125, []float64{4, 5, 6, 7}},
	} {
		if len(c.cols) > maxVecs {
			continue
		}
		n, cols := int(c.n*float64(l)), make([]int, len(c.cols))
		for i, v := range c.cols {
			cols[i] = int(v * float64(l))
		}
		for _, rows := range []int{1, 2, 7, 64, 70} {
			lo := 3
			x, g := randomFloats(rng, (lo+rows)*m), randomFloats(rng, (lo+rows)*n)
			if rows > 2 {
				for i, v := range special {
					x[lo*m+a+(i*37)%(rows*m-a)], g[lo*n+(i*53)%(rows*n)] = v, v
				}
			}
			got, want := make([]simd.Float32s, 4*len(cols)), make([]simd.Float32s, 16)
			if !gramAsm(got, x, g, lo, lo+rows, m, n, a, cols...) {
				t.Fatalf("n=%d cols=%v rows=%d: the assembly pass refused the chunk", n, cols, rows)
			}
			switch len(cols) {
			case 2:
				want[0], want[1], want[2], want[3], want[4], want[5], want[6], want[7] = gramFull2(z, z, z, z, z, z, z, z, x, g, lo, lo+rows, m, n, a, cols[0], cols[1])
			case 3:
				want[0], want[1], want[2], want[3], want[4], want[5], want[6], want[7], want[8], want[9], want[10], want[11] = gramFull3(z, z, z, z, z, z, z, z, z, z, z, z, x, g, lo, lo+rows, m, n, a, cols[0], cols[2])
			case 4:
				want[0], want[1], want[2], want[3], want[4], want[5], want[6], want[7], want[8], want[9], want[10], want[11], want[12], want[13], want[14], want[15] = gramFull4(z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, x, g, lo, lo+rows, m, n, a, cols[0])
			}
			for i := range got {
				var gv, wv [16]float32
				got[i].Store(gv[:l])
				want[i].Store(wv[:l])
				for j := range l {
					if math.Float32bits(gv[j]) != math.Float32bits(wv[j]) {
						t.Fatalf("n=%d cols=%v rows=%d: sum %d lane %d %g (%#x), Go kernel %g (%#x)", n, cols, rows, i, j, gv[j], math.Float32bits(gv[j]), wv[j], math.Float32bits(wv[j]))
					}
				}
			}
		}
	}
	for _, c := range []struct {
		lo, hi, m, n, a int
		cols            []int
	}{
		{0, 2, 10, 5 * l, 0, []int{0, 4*l + 1}}, {0, 2, 10, 5 * l, 7, []int{0, l, 3 * l}}, {0, 3, 10, 5 * l, 0, []int{0, l, 2 * l}},
		{1, 1, 10, 5 * l, 0, []int{0, l, 2 * l}}, {0, 2, 10, 5 * l, 0, []int{0, l + 1, 2 * l}}, {0, 2, 10, 5 * l, 0, []int{0, l, 2 * l, 3*l - 8}},
		{0, 2, 10, 5 * l, 0, []int{0}}, {0, 2, 10, 6 * l, 0, []int{0, l, 2 * l, 3 * l, 4 * l}}, {0, 2, 10, 5 * l, 0, []int{0, l, 5 * l}},
	} {
		if gramAsm(make([]simd.Float32s, 4*len(c.cols)), make([]float32, 2*c.m), make([]float32, 2*c.n), c.lo, c.hi, c.m, c.n, c.a, c.cols...) {
			t.Errorf("%+v: taken, want refused", c)
		}
	}
}
