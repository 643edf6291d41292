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

// TestLogisticSlopesEqualUnfused holds the fused gradients through the logistic function,
// v·(y·(1 − y)) and (a·w)·(y·(1 − y)) with operands in either order, to the unfused ops bit
// for bit and to a computation here; a derivative with another reader stays unfused; rows
// of 40 (an overlapping last vector), of one vector, and of less (left unfused).
func TestLogisticSlopesEqualUnfused(t *testing.T) {
	vLen := float32Lanes()
	for _, c := range []int{40, vLen, vLen - 1} {
		want := 2
		if c < vLen {
			want = 0
		}
		testLogisticSlopes(t, c, want)
	}
}

// testLogisticSlopes is TestLogisticSlopesEqualUnfused on rows of c, expecting want fused
// nodes; at least 3,000 rows, and enough for minLogisticSlope elements (rows of one vector
// of four lanes, arm64's, need 4,096), so that only the rows' width keeps narrow ones
// unfused.
func testLogisticSlopes(t *testing.T, c, want int) {
	r := max(3000, (minLogisticSlope+c-1)/c)
	rng := rand.New(rand.NewPCG(25, 26))
	y, y2, y3, v, a, w := randomFloats(rng, r*c), randomFloats(rng, r*c), randomFloats(rng, r*c), randomFloats(rng, r*c), randomFloats(rng, r*c), randomFloats(rng, r)
	full, row := shapes.Make(dtypes.Float32, r, c), shapes.Make(dtypes.Float32, r, 1)
	run := func(config string) ([][]float32, int) {
		raw, err := gobackend.New(config)
		if err != nil {
			t.Fatal(err)
		}
		be := raw.(*gobackend.Backend)
		builder := be.Builder("logistic").(*gobackend.Builder)
		f := builder.Main().(*gobackend.Function)
		m := must(t)
		py, _ := f.Parameter("y", full, nil)
		py2, _ := f.Parameter("y2", full, nil)
		py3, _ := f.Parameter("y3", full, nil) // The builder merges equal nodes: each case its own y.
		pv, _ := f.Parameter("v", full, nil)
		pa, _ := f.Parameter("a", full, nil)
		pw, _ := f.Parameter("w", row, nil)
		one := m(f.Constant([]float32{1}))
		plain := m(Mul(f, pv, m(Mul(f, py, m(Sub(f, one, py))))))
		weighted := m(Mul(f, m(Mul(f, m(Sub(f, one, py2)), py2)), m(Mul(f, pw, pa))))
		shared := m(Mul(f, py3, m(Sub(f, one, py3))))
		kept := m(Mul(f, pa, shared))
		if err := f.Return([]compute.Value{plain, weighted, kept, shared}, nil); err != nil {
			t.Fatal(err)
		}
		exec, err := builder.Compile()
		if err != nil {
			t.Fatalf("compile: %+v", err)
		}
		fused, uses := 0, liveUses(f)
		for _, node := range f.Nodes {
			if _, ok := node.Data.(*logisticSlope); ok && uses[node.Index] > 0 {
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
		res, err := exec.Execute([]compute.Buffer{buf(y, full), buf(y2, full), buf(y3, full), buf(v, full), buf(a, full), buf(w, row)}, nil, 0)
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
	// The weighted output against a computation here, each operation rounded apart.
	for i := range r * c {
		slope := float32(y2[i] * float32(1-y2[i]))
		if wantV := float32(float32(w[i/c]*a[i]) * slope); fused[1][i] != wantV {
			t.Fatalf("rows of %d, element %d: %v, want %v", c, i, fused[1][i], wantV)
		}
	}
}
