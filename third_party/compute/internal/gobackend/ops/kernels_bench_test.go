// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// BenchmarkPatternKernels runs each fused kernel of gexph's patches once a step on the
// shapes of a PATTERN layer (rows of 40 = 4 heads of 10, a batch's edges and nodes, scaled
// down): the workload for counting each kernel's instructions under callgrind
// (docs/PERFORMANCE.md), as well as a benchmark. -bench PatternKernels -benchtime 1x.
func BenchmarkPatternKernels(b *testing.B) {
	const n, e, w, heads = 4000, 40000, 40, 4
	rng := rand.New(rand.NewPCG(41, 42))
	raw, err := gobackend.New("")
	if err != nil {
		b.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("kernels").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	m := func(v compute.Value, err error) compute.Value {
		if err != nil {
			b.Fatal(err)
		}
		return v
	}
	rows, edges := shapes.Make(dtypes.Float32, n, w), shapes.Make(dtypes.Float32, e, w)
	idx := shapes.Make(dtypes.Int32, e, 1)
	params := []struct {
		name  string
		shape shapes.Shape
	}{{"x1", rows}, {"x2", rows}, {"i1", idx}, {"i2", idx}, {"a", shapes.Make(dtypes.Float32, e, heads, 1)}, {"g", edges}, {"h", edges}, {"wt", shapes.Make(dtypes.Float32, w, w)}}
	p := make([]compute.Value, len(params))
	inputs := make([]compute.Buffer, len(params))
	for i, q := range params {
		p[i], _ = f.Parameter(q.name, q.shape, nil)
		var flat any = randomFloats(rng, q.shape.Size())
		if q.shape.DType == dtypes.Int32 {
			flat = randomIndices(rng, n, e, i == 2)
		}
		if inputs[i], err = be.BufferFromFlatData(0, flat, q.shape); err != nil {
			b.Fatal(err)
		}
	}
	x1, x2, i1, i2, a, g, h, wt := p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]
	gather := func(x, i compute.Value) compute.Value {
		return m(Reshape(f, m(Gather(f, x, i, 1, []int{1}, []int{0}, []int{0}, []int{1, w}, false)), e, heads, w/heads))
	}
	dots := m(ReduceSum(f, m(Mul(f, gather(x1, i1), gather(x2, i2))), 2)) // GatheredDot
	spread := m(ScatterSum(f, m(Reshape(f, x1, n, heads, w/heads)), i2, m(Mul(f, a, gather(x2, i1))), 1, []int{1, 2}, []int{0}, []int{0}, false, false))
	colSums := m(ReduceSum(f, m(Mul(f, g, h)), 0))                                                                 // ProductSum
	dense := m(f.DotGeneral(g, []int{1}, nil, wt, []int{0}, nil, compute.DotGeneralConfig{}))                      // TallDense (or the GEMM)
	gram := m(f.DotGeneral(m(Transpose(f, g, 1, 0)), []int{1}, nil, h, []int{0}, nil, compute.DotGeneralConfig{})) // TallGram
	if err := f.Return([]compute.Value{dots, spread, colSums, dense, gram}, nil); err != nil {
		b.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		b.Fatalf("compile: %+v", err)
	}
	for b.Loop() {
		res, err := exec.Execute(inputs, []bool{false, false, false, false, false, false, false, false}, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range res {
			be.PutBuffer(r.(*gobackend.Buffer))
		}
	}
}

// BenchmarkFusionChoice runs the products whose fused kernel competes with the backend's
// GEMM, fused and not (go:no_fusion), on the shapes of a PATTERN layer's edges: the
// workload for comparing the two choices' instructions under callgrind on each vector
// width (docs/PERFORMANCE.md). -bench FusionChoice/NAME -benchtime 1x.
func BenchmarkFusionChoice(b *testing.B) {
	const r = 40000
	for _, c := range []struct {
		name    string
		k, n    int
		gram    bool
		configs []string
	}{
		{name: "dense40", k: 40, n: 40}, {name: "dense42", k: 40, n: 42}, {name: "dense24", k: 40, n: 24},
		{name: "gram40", k: 40, n: 40, gram: true},
		{name: "dense32", k: 32, n: 32}, {name: "dense64", k: 64, n: 64}, {name: "dense64x128", k: 64, n: 128}, {name: "dense128x64", k: 128, n: 64}, {name: "dense80", k: 80, n: 80},
	} {
		for _, config := range []string{"", "no_fusion"} {
			b.Run(c.name+"/"+map[string]string{"": "fused", "no_fusion": "unfused"}[config], func(b *testing.B) {
				rng := rand.New(rand.NewPCG(43, 44))
				raw, err := gobackend.New(config)
				if err != nil {
					b.Fatal(err)
				}
				be := raw.(*gobackend.Backend)
				builder := be.Builder("choice").(*gobackend.Builder)
				f := builder.Main().(*gobackend.Function)
				xs, ws := shapes.Make(dtypes.Float32, r, c.k), shapes.Make(dtypes.Float32, c.k, c.n)
				if c.gram {
					ws = shapes.Make(dtypes.Float32, r, c.n)
				}
				px, _ := f.Parameter("x", xs, nil)
				pw, _ := f.Parameter("w", ws, nil)
				var out compute.Value
				if c.gram {
					t, _ := Transpose(f, px, 1, 0)
					out, err = f.DotGeneral(t, []int{1}, nil, pw, []int{0}, nil, compute.DotGeneralConfig{})
				} else {
					out, err = f.DotGeneral(px, []int{1}, nil, pw, []int{0}, nil, compute.DotGeneralConfig{})
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
				bx, _ := be.BufferFromFlatData(0, randomFloats(rng, xs.Size()), xs)
				bw, _ := be.BufferFromFlatData(0, randomFloats(rng, ws.Size()), ws)
				for b.Loop() {
					res, err := exec.Execute([]compute.Buffer{bx, bw}, []bool{false, false}, 0)
					if err != nil {
						b.Fatal(err)
					}
					be.PutBuffer(res[0].(*gobackend.Buffer))
				}
			})
		}
	}
}
