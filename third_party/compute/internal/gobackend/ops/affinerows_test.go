// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"math"
	"math/rand/v2"
	"simd"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// TestAffineRowsEqualUnfused holds the fused per-column affine rows to the unfused ops
// bit for bit, and to a computation here: q ⊙ k + b (operands in either order), its
// product by a row weight, p ⊙ a added to both, and an inner product with another reader
// (left unfused); rows of 40 (whole vectors and an overlapping last one), of one vector
// and of less than a vector (left unfused); enough rows to split across workers.
func TestAffineRowsEqualUnfused(t *testing.T) {
	vLen := simd.BroadcastFloat32s(0).Len()
	for _, c := range []int{40, vLen, vLen - 1} {
		want := 4
		if c < vLen {
			want = 0
		}
		testAffineRows(t, c, want)
	}
}

// testAffineRows is TestAffineRowsEqualUnfused on rows of c columns, expecting want
// fused nodes.
func testAffineRows(t *testing.T, c, want int) {
	const r = 5000
	rng := rand.New(rand.NewPCG(21, 22))
	q, p, k, b, a, e, w := randomFloats(rng, r*c), randomFloats(rng, r*c), randomFloats(rng, c), randomFloats(rng, c), randomFloats(rng, c), randomFloats(rng, c), randomFloats(rng, r)
	full, col, row := shapes.Make(dtypes.Float32, r, c), shapes.Make(dtypes.Float32, 1, c), shapes.Make(dtypes.Float32, r, 1)
	run := func(config string) ([][]float32, int) {
		raw, err := gobackend.New(config)
		if err != nil {
			t.Fatal(err)
		}
		be := raw.(*gobackend.Backend)
		builder := be.Builder("affine").(*gobackend.Builder)
		f := builder.Main().(*gobackend.Function)
		m := must(t)
		pq, _ := f.Parameter("q", full, nil)
		pp, _ := f.Parameter("p", full, nil)
		pk, _ := f.Parameter("k", col, nil)
		pb, _ := f.Parameter("b", col, nil)
		pa, _ := f.Parameter("a", col, nil)
		pe, _ := f.Parameter("e", col, nil)
		pw, _ := f.Parameter("w", row, nil)
		// The builder merges equal nodes: each chain takes other operands.
		affine := func(x, k, b compute.Value) compute.Value { return m(Add(f, b, m(Mul(f, k, x)))) }
		plain := affine(pq, pk, pb)
		weighted := m(Mul(f, pw, affine(pq, pb, pk)))
		withP := m(Add(f, m(Mul(f, pp, pa)), affine(pq, pa, pb)))
		all := m(Add(f, m(Mul(f, affine(pp, pk, pa), pw)), m(Mul(f, pq, pe))))
		shared := m(Mul(f, pp, pb))
		kept := m(Add(f, shared, pa))
		if err := f.Return([]compute.Value{plain, weighted, withP, all, kept, shared}, nil); err != nil {
			t.Fatal(err)
		}
		exec, err := builder.Compile()
		if err != nil {
			t.Fatalf("compile: %+v", err)
		}
		fused, uses := 0, liveUses(f)
		for _, node := range f.Nodes {
			if _, ok := node.Data.(*affineRows); ok && uses[node.Index] > 0 {
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
		res, err := exec.Execute([]compute.Buffer{buf(q, full), buf(p, full), buf(k, col), buf(b, col), buf(a, col), buf(e, col), buf(w, row)}, nil, 0)
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
	if nf != want || np != 0 {
		t.Fatalf("rows of %d: %d fused nodes (no_fusion: %d), want %d (0)", c, nf, np, want)
	}
	for o := range plain {
		for i := range plain[o] {
			if math.Float32bits(fused[o][i]) != math.Float32bits(plain[o][i]) {
				t.Fatalf("rows of %d, output %d element %d: fused %v, unfused %v", c, o, i, fused[o][i], plain[o][i])
			}
		}
	}
	// The weighted output with a product added against a computation here, each product and sum
	// rounded apart (an explicit conversion forbids fused multiply-adds, which arm64 forms from
	// x*y + z).
	for i := range r * c {
		j := i % c
		wantV := float32(q[i]*e[j]) + float32(float32(float32(p[i]*k[j])+a[j])*w[i/c])
		if got := fused[3][i]; got != wantV {
			t.Fatalf("rows of %d, element %d: %v, want %v", c, i, got, wantV)
		}
	}
}
