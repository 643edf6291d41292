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

// spmmCase is a message-passing sum over e edges between n nodes with rows of the
// trailing dims, weighted per element or per leading index (weightDims).
type spmmCase struct {
	n, e                   int
	trailing, weightTrail  []int
	sharedGather, extraMul bool
	reshape                bool // Gather flat rows of x [n, w] and reshape them to the trailing dims.
	unsortedDst            bool // Destinations in random order (else sorted).
	unweighted             bool // ScatterSum(operand, dst, Gather(x, src)): no Mul, a unused.
}

// runSpmm builds out = ScatterSum(operand, dst, Mul(a, Gather(x, src))) on a backend of
// the given config and returns out (and, with sharedGather, the gathered rows as a second
// output, so that the gather has another consumer) and the number of fused nodes.
func runSpmm(t *testing.T, config string, c spmmCase, x, a, operand []float32, src, dst []int32) ([][]float32, int) {
	t.Helper()
	raw, err := gobackend.New(config)
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("spmm").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	m := must(t)
	rowDims := func(first int, trail []int) []int { return append([]int{first}, trail...) }
	xs := shapes.Make(dtypes.Float32, rowDims(c.n, c.trailing)...)
	as := shapes.Make(dtypes.Float32, rowDims(c.e, c.weightTrail)...)
	is := shapes.Make(dtypes.Int32, c.e, 1)
	px, _ := f.Parameter("x", xs, nil)
	pa, _ := f.Parameter("a", as, nil)
	pop, _ := f.Parameter("operand", xs, nil)
	psrc, _ := f.Parameter("src", is, nil)
	pdst, _ := f.Parameter("dst", is, nil)
	window := make([]int, len(c.trailing))
	for i := range window {
		window[i] = i + 1
	}
	var g compute.Value
	if c.reshape {
		flat := m(Reshape(f, px, c.n, prod(c.trailing)))
		g = m(Gather(f, flat, psrc, 1, []int{1}, []int{0}, []int{0}, []int{1, prod(c.trailing)}, false))
		g = m(Reshape(f, g, rowDims(c.e, c.trailing)...))
	} else {
		g = m(Gather(f, px, psrc, 1, window, []int{0}, []int{0}, rowDims(1, c.trailing), false))
	}
	prod := m(Mul(f, pa, g))
	if c.extraMul {
		prod = m(Mul(f, g, pa))
	}
	if c.unweighted {
		prod = g
	}
	out := m(ScatterSum(f, pop, pdst, prod, 1, window, []int{0}, []int{0}, false, false))
	outs := []compute.Value{out}
	if c.sharedGather {
		outs = append(outs, g)
	}
	if err := f.Return(outs, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	fused := 0
	for _, node := range f.Nodes {
		if _, ok := node.Data.(*gatherMulScatter); ok {
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
	res, err := exec.Execute([]compute.Buffer{buf(append([]float32(nil), x...), xs), buf(append([]float32(nil), a...), as),
		buf(append([]float32(nil), operand...), xs), buf(append([]int32(nil), src...), is), buf(append([]int32(nil), dst...), is)}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	got := make([][]float32, len(res))
	for i, r := range res {
		got[i] = append([]float32(nil), r.(*gobackend.Buffer).Flat.([]float32)...)
	}
	return got, fused
}

// TestGatherMulScatterEqualsUnfused holds the fused message-passing sum to the unfused
// ops bit for bit: rows of one value and of [4, 10], [2, 20], [8, 3] and [5, 7] with a
// weight per element or per head (segments shorter and longer than a SIMD vector, several
// in one vector, across vectors and in a partial last vector), destinations sorted and
// in random order, isolated nodes, indices out of range (clamped sources, skipped
// destinations), a gather that has another consumer, and graphs large enough to split
// across workers; without weights too (the sums of a mean or sum aggregation, fused
// unless the gather has another consumer); and to a float64 sum computed here.
func TestGatherMulScatterEqualsUnfused(t *testing.T) {
	cases := []spmmCase{
		{n: 7, e: 30, trailing: []int{1}, weightTrail: []int{1}},
		{n: 50, e: 400, trailing: []int{40}, weightTrail: []int{40}},
		{n: 50, e: 400, trailing: []int{4, 10}, weightTrail: []int{4, 1}, extraMul: true},
		{n: 3000, e: 60000, trailing: []int{4, 10}, weightTrail: []int{4, 1}, sharedGather: true},
		{n: 3000, e: 60000, trailing: []int{40}, weightTrail: []int{40}},
		{n: 20, e: 100, trailing: []int{3, 5}, weightTrail: []int{1, 1}},
		{n: 300, e: 5000, trailing: []int{4, 10}, weightTrail: []int{4, 1}, reshape: true},
		{n: 300, e: 5000, trailing: []int{2, 20}, weightTrail: []int{2, 1}}, // Segments of a full vector and more.
		{n: 300, e: 5000, trailing: []int{8, 3}, weightTrail: []int{8, 1}},  // Six segments in one vector.
		{n: 300, e: 5000, trailing: []int{5, 7}, weightTrail: []int{5, 1}},  // Segments across vectors, a partial last one.
		{n: 300, e: 5000, trailing: []int{4, 10}, weightTrail: []int{4, 1}, unsortedDst: true},
		{n: 3000, e: 60000, trailing: []int{40}, weightTrail: []int{40}, unsortedDst: true},
		{n: 7, e: 30, trailing: []int{1}, weightTrail: []int{1}, unweighted: true},
		{n: 300, e: 5000, trailing: []int{37}, weightTrail: []int{1}, unweighted: true},
		{n: 3000, e: 60000, trailing: []int{4, 10}, weightTrail: []int{1, 1}, unweighted: true, reshape: true, unsortedDst: true},
		{n: 300, e: 5000, trailing: []int{40}, weightTrail: []int{1}, unweighted: true, sharedGather: true},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range cases {
		w, aw := prod(c.trailing), prod(c.weightTrail)
		x, a, operand := randomFloats(rng, c.n*w), randomFloats(rng, c.e*aw), randomFloats(rng, c.n*w)
		src, dst := randomIndices(rng, c.n-1, c.e, false), randomIndices(rng, c.n-1, c.e, !c.unsortedDst) // Node n-1 isolated.
		src[0], dst[1], dst[2] = int32(c.n+3), -1, int32(c.n)                                             // Clamped; skipped; skipped.
		fused, nf := runSpmm(t, "", c, x, a, operand, src, dst)
		plain, np := runSpmm(t, "no_fusion", c, x, a, operand, src, dst)
		wantFused := 1
		if c.unweighted && c.sharedGather {
			wantFused = 0 // The gathered rows are an output: they exist anyway.
		}
		if nf != wantFused || np != 0 {
			t.Fatalf("%+v: %d fused nodes (no_fusion: %d), want %d (0)", c, nf, np, wantFused)
		}
		for o := range plain {
			for i := range plain[o] {
				if math.Float32bits(fused[o][i]) != math.Float32bits(plain[o][i]) {
					t.Fatalf("%+v output %d element %d: fused %v, unfused %v", c, o, i, fused[o][i], plain[o][i])
				}
			}
		}
		want := make([]float64, len(operand))
		for i, v := range operand {
			want[i] = float64(v)
		}
		for e, d := range dst {
			if d < 0 || int(d) >= c.n {
				continue
			}
			s := int(min(src[e], int32(c.n-1)))
			for k := range w {
				weight := 1.0
				if !c.unweighted {
					weight = float64(a[e*aw+k*aw/w])
				}
				want[int(d)*w+k] += weight * float64(x[s*w+k])
			}
		}
		for i, v := range want {
			if math.Abs(float64(fused[0][i])-v) > 1e-4*(1+math.Abs(v)) {
				t.Fatalf("%+v element %d: %v, float64 sum %v", c, i, fused[0][i], v)
			}
		}
	}
}

// TestGatheredDotEqualsUnfused holds the fused per-edge dot products to the unfused ops,
// bit for bit where both add in index order (the unfused ReduceSum on rows shorter than
// its SIMD threshold, see unfusedSumsInOrder; the fused kernel where this CPU has no SIMD
// segment sums, see segmentSumLanes), to float32 rounding elsewhere, and to a float64 computation: one head and 4 heads of
// 10 (gathered flat and reshaped, as the attention layer does), 20 heads (more than the
// sums kept together), 2 heads of 20 (summed by the unfused ReduceSum's SIMD loop on every
// CPU), indices out of range (clamped), large enough to split across workers.
func TestGatheredDotEqualsUnfused(t *testing.T) {
	type dotCase struct{ n1, n2, e, heads, b int }
	rng := rand.New(rand.NewPCG(13, 14))
	for _, c := range []dotCase{{5, 6, 20, 1, 7}, {300, 40, 60000, 4, 10}, {30, 30, 200, 20, 3}, {50, 60, 3000, 2, 20}} {
		w := c.heads * c.b
		x1, x2 := randomFloats(rng, c.n1*w), randomFloats(rng, c.n2*w)
		i1, i2 := randomIndices(rng, c.n1, c.e, true), randomIndices(rng, c.n2, c.e, false)
		i1[0], i2[1] = -4, int32(c.n2+2)
		run := func(config string) ([]float32, int) {
			raw, err := gobackend.New(config)
			if err != nil {
				t.Fatal(err)
			}
			be := raw.(*gobackend.Backend)
			builder := be.Builder("dot").(*gobackend.Builder)
			f := builder.Main().(*gobackend.Function)
			m := must(t)
			s1, s2 := shapes.Make(dtypes.Float32, c.n1, w), shapes.Make(dtypes.Float32, c.n2, w)
			is := shapes.Make(dtypes.Int32, c.e, 1)
			p1, _ := f.Parameter("x1", s1, nil)
			p2, _ := f.Parameter("x2", s2, nil)
			q1, _ := f.Parameter("i1", is, nil)
			q2, _ := f.Parameter("i2", is, nil)
			gather := func(x, idx compute.Value) compute.Value {
				g := m(Gather(f, x, idx, 1, []int{1}, []int{0}, []int{0}, []int{1, w}, false))
				return m(Reshape(f, g, c.e, c.heads, c.b))
			}
			out := m(ReduceSum(f, m(Mul(f, gather(p1, q1), gather(p2, q2))), 2))
			if err := f.Return([]compute.Value{out}, nil); err != nil {
				t.Fatal(err)
			}
			exec, err := builder.Compile()
			if err != nil {
				t.Fatalf("compile: %+v", err)
			}
			fused := 0
			for _, node := range f.Nodes {
				if _, ok := node.Data.(*gatheredDot); ok {
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
			res, err := exec.Execute([]compute.Buffer{buf(append([]float32(nil), x1...), s1), buf(append([]float32(nil), x2...), s2),
				buf(append([]int32(nil), i1...), is), buf(append([]int32(nil), i2...), is)}, nil, 0)
			if err != nil {
				t.Fatalf("execute: %+v", err)
			}
			return append([]float32(nil), res[0].(*gobackend.Buffer).Flat.([]float32)...), fused
		}
		fused, nf := run("")
		plain, np := run("no_fusion")
		if nf != 1 || np != 0 {
			t.Fatalf("%+v: %d fused nodes (no_fusion: %d), want 1 (0)", c, nf, np)
		}
		inOrder := unfusedSumsInOrder(c.b) && segmentSumLanes() == 0
		for i := range plain {
			e, h := i/c.heads, i%c.heads
			r1, r2 := int(max(0, min(int32(c.n1-1), i1[e]))), int(max(0, min(int32(c.n2-1), i2[e])))
			var want, mag float64
			for k := range c.b {
				p := float64(x1[r1*w+h*c.b+k]) * float64(x2[r2*w+h*c.b+k])
				want += p
				mag += math.Abs(p)
			}
			// Two float32 sums of b products in different orders differ by at most 2b·2⁻²⁴ of
			// the sum of magnitudes.
			if inOrder && math.Float32bits(fused[i]) != math.Float32bits(plain[i]) ||
				math.Abs(float64(fused[i])-float64(plain[i])) > 2*float64(c.b)*6e-8*mag {
				t.Fatalf("%+v element %d: fused %v, unfused %v (sums in order: %v)", c, i, fused[i], plain[i], inOrder)
			}
			if math.Abs(float64(fused[i])-want) > 1e-5*(1+math.Abs(want)) {
				t.Fatalf("%+v element %d: %v, float64 %v", c, i, fused[i], want)
			}
		}
	}
}

// unfusedSumsInOrder tells whether the unfused ReduceSum of float32 rows of b values, on
// this CPU, leaves them to its plain loop, which adds in index order (rows shorter than
// the SIMD threshold of reduce_thresholds.go), rather than adding SIMD partial sums.
func unfusedSumsInOrder(b int) bool {
	return !canExecuteReduceSIMD(ReduceConfig{Pattern: ReduceTrailing, A: 2, B: b}, dtypes.Float32, supportedReduceDTypes)
}

// TestLongRowsOfLargeTablesAreFused: rows of at least minLongRowBytes gathered from a
// table larger than maxFusedTableBytes (Coauthor CS's 512-wide node states in attention)
// are fused all the same, with the unfused results to float32 rounding.
func TestLongRowsOfLargeTablesAreFused(t *testing.T) {
	w := minLongRowBytes / 4
	c := spmmCase{n: maxFusedTableBytes/minLongRowBytes + 1, e: 1000, trailing: []int{w}, weightTrail: []int{w}}
	rng := rand.New(rand.NewPCG(19, 20))
	x, a, operand := randomFloats(rng, c.n*w), randomFloats(rng, c.e*w), randomFloats(rng, c.n*w)
	src, dst := randomIndices(rng, c.n, c.e, false), randomIndices(rng, c.n, c.e, true)
	got, nf := runSpmm(t, "", c, x, a, operand, src, dst)
	want, _ := runSpmm(t, "no_fusion", c, x, a, operand, src, dst)
	if nf != 1 {
		t.Fatalf("a table of %d rows of %d (%d MB): %d fused nodes, want 1", c.n, w, c.n*w*4>>20, nf)
	}
	for i := range want[0] {
		if d := math.Abs(float64(got[0][i]) - float64(want[0][i])); d > 1e-5*(1+math.Abs(float64(want[0][i]))) {
			t.Fatalf("element %d: %v, unfused %v", i, got[0][i], want[0][i])
		}
	}
}

// TestLargeTablesAreNotFused: short rows gathered from a table larger than
// maxFusedTableBytes stay a plain gather (which overlaps its cache misses better), with
// the same results.
func TestLargeTablesAreNotFused(t *testing.T) {
	c := spmmCase{n: maxFusedTableBytes/(4*40) + 1, e: 1000, trailing: []int{40}, weightTrail: []int{40}}
	rng := rand.New(rand.NewPCG(17, 18))
	x, a, operand := randomFloats(rng, c.n*40), randomFloats(rng, c.e*40), randomFloats(rng, c.n*40)
	src, dst := randomIndices(rng, c.n, c.e, false), randomIndices(rng, c.n, c.e, true)
	got, nf := runSpmm(t, "", c, x, a, operand, src, dst)
	want, _ := runSpmm(t, "no_fusion", c, x, a, operand, src, dst)
	if nf != 0 {
		t.Fatalf("a table of %d rows of 40 was fused", c.n)
	}
	for i := range want[0] {
		if math.Float32bits(got[0][i]) != math.Float32bits(want[0][i]) {
			t.Fatalf("element %d: %v, want %v", i, got[0][i], want[0][i])
		}
	}
}
