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

// TestSegmentSoftmaxEqualsUnfused holds the fused softmax over each destination's edges
// and its gradient to the unfused ops bit for bit, and the softmax to a float64
// computation here: destinations in random order, isolated nodes (a zero sum made one),
// indices out of range (clamped gathers, skipped scatters), 4 and 3 heads, and a graph
// large enough to split across workers; a softmax whose exponentials have another reader
// stays unfused.
func TestSegmentSoftmaxEqualsUnfused(t *testing.T) {
	for _, c := range []struct{ n, e, h int }{{50, 2000, 4}, {3000, 60000, 4}, {40, 1500, 3}} {
		rng := rand.New(rand.NewPCG(31, uint64(c.e)))
		score, g := randomFloats(rng, c.e*c.h), randomFloats(rng, c.e*c.h)
		for i := range score {
			score[i] *= 4
		}
		dst := make([]int32, c.e)
		for i := range dst {
			dst[i] = int32(rng.IntN(c.n - 5)) // The last five nodes are isolated.
		}
		dst[3], dst[7] = int32(c.n+2), -1 // Out of range: skipped by the scatters, clamped by the gathers.
		fused, nf := runSegmentSoftmax(t, "", c.n, c.e, c.h, score, g, dst)
		plain, np := runSegmentSoftmax(t, "no_fusion", c.n, c.e, c.h, score, g, dst)
		if nf != 2 || np != 0 {
			t.Fatalf("%+v: %d fused nodes (no_fusion: %d), want 2 (0)", c, nf, np)
		}
		for o := range plain {
			for i := range plain[o] {
				if math.Float32bits(fused[o][i]) != math.Float32bits(plain[o][i]) {
					t.Fatalf("%+v, output %d element %d: fused %v, unfused %v", c, o, i, fused[o][i], plain[o][i])
				}
			}
		}
		checkSoftmax(t, c.n, c.h, score, dst, fused[0])
	}
}

// checkSoftmax holds α to a float64 softmax over each in-range destination's edges.
func checkSoftmax(t *testing.T, n, h int, score []float32, dst []int32, alpha []float32) {
	t.Helper()
	maxima, sums := make([]float64, n*h), make([]float64, n*h)
	for i := range maxima {
		maxima[i] = math.Inf(-1)
	}
	for e, i := range dst {
		for k := 0; k < h && i >= 0 && int(i) < n; k++ {
			maxima[int(i)*h+k] = math.Max(maxima[int(i)*h+k], float64(score[e*h+k]))
		}
	}
	for e, i := range dst {
		for k := 0; k < h && i >= 0 && int(i) < n; k++ {
			sums[int(i)*h+k] += math.Exp(float64(score[e*h+k]) - maxima[int(i)*h+k])
		}
	}
	for e, i := range dst {
		for k := 0; k < h && i >= 0 && int(i) < n; k++ {
			want := math.Exp(float64(score[e*h+k])-maxima[int(i)*h+k]) / sums[int(i)*h+k]
			if got := float64(alpha[e*h+k]); math.Abs(got-want) > 1e-5*math.Max(want, 1e-3) {
				t.Fatalf("edge %d head %d: α %v, want %v", e, k, got, want)
			}
		}
	}
}

// runSegmentSoftmax builds the softmax of attention over each destination's edges, its
// gradient for the adjoint g, and a second softmax whose exponentials are also an
// output, on a backend of the given config; it returns α, ∂s and the second softmax,
// and the number of fused nodes.
func runSegmentSoftmax(t *testing.T, config string, n, e, h int, score, g []float32, dst []int32) ([][]float32, int) {
	t.Helper()
	raw, err := gobackend.New(config)
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("softmax").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	m := must(t)
	es, ns, is := shapes.Make(dtypes.Float32, e, h), shapes.Make(dtypes.Float32, n, h), shapes.Make(dtypes.Int32, e, 1)
	ps, _ := f.Parameter("s", es, nil)
	ps2, _ := f.Parameter("s2", es, nil) // The builder merges equal nodes: the unfused case its own scores.
	pg, _ := f.Parameter("g", es, nil)
	pdst, _ := f.Parameter("dst", is, nil)
	negInf := m(f.Constant([]float32{float32(math.Inf(-1))}))
	m0 := m(f.BroadcastInDim(negInf, ns, nil))
	s0 := m(f.Constant(make([]float32, n*h), n, h))
	zero := m(f.Constant([]float32{0}))
	gather := func(x compute.Value) compute.Value {
		return m(Gather(f, x, pdst, 1, []int{1}, []int{0}, []int{0}, []int{1, h}, false))
	}
	scatter := func(op func(*gobackend.Function, compute.Value, compute.Value, compute.Value, int, []int, []int, []int, bool, bool) (compute.Value, error), operand, upd compute.Value) compute.Value {
		return m(op(f, operand, pdst, upd, 1, []int{1}, []int{0}, []int{0}, false, false))
	}
	softmax := func(s compute.Value) (alpha, w compute.Value) {
		w = m(Exp(f, m(Sub(f, s, gather(scatter(ScatterMax, m0, s))))))
		sum := scatter(ScatterSum, s0, w)
		den := m(Add(f, sum, m(ConvertDType(f, m(Equal(f, sum, zero)), dtypes.Float32))))
		return m(Div(f, w, gather(den))), w
	}
	alpha, _ := softmax(ps)
	centre := scatter(ScatterSum, s0, m(Mul(f, alpha, pg)))
	grad := m(Mul(f, alpha, m(Sub(f, pg, gather(centre)))))
	alpha2, w2 := softmax(ps2)
	if err := f.Return([]compute.Value{alpha, grad, alpha2, w2}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	fused, uses := 0, liveUses(f)
	for _, node := range f.Nodes {
		if _, ok := node.Data.(*segmentSoftmax); ok && uses[node.Index] > 0 {
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
	res, err := exec.Execute([]compute.Buffer{buf(append([]float32(nil), score...), es), buf(append([]float32(nil), score...), es),
		buf(append([]float32(nil), g...), es), buf(append([]int32(nil), dst...), is)}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	out := make([][]float32, len(res))
	for i, r := range res {
		out[i] = append([]float32(nil), r.(*gobackend.Buffer).Flat.([]float32)...)
	}
	return out, fused
}
