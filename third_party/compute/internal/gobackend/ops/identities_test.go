// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

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

// TestIdentitiesForwardedKeepTheValues builds consumers of identities (a chain of two,
// one read twice, one also returned as an output) and checks that after compilation no
// consumer reads an Identity, that the returned one stays, and that every output equals
// the one computed with the transformation off (no_fusion), bit for bit, the input left
// unchanged.
func TestIdentitiesForwardedKeepTheValues(t *testing.T) {
	const n = 10_000
	rng := rand.New(rand.NewPCG(81, 82))
	x := randomFloats(rng, n)
	run := func(config string) ([][]float32, int, bool) {
		raw, err := gobackend.New(config)
		if err != nil {
			t.Fatal(err)
		}
		be := raw.(*gobackend.Backend)
		builder := be.Builder("identity").(*gobackend.Builder)
		f := builder.Main().(*gobackend.Function)
		m := must(t)
		s := shapes.Make(dtypes.Float32, n)
		px, _ := f.Parameter("x", s, nil)
		y := m(Identity(f, px))
		sum := m(Add(f, y, y))
		prod := m(Mul(f, m(Identity(f, m(Identity(f, px)))), sum))
		if err := f.Return([]compute.Value{prod, y, sum}, nil); err != nil {
			t.Fatal(err)
		}
		exec, err := builder.Compile()
		if err != nil {
			t.Fatalf("compile: %+v", err)
		}
		uses := liveUses(f)
		readers := 0
		for _, node := range f.Nodes {
			if uses[node.Index] == 0 {
				continue
			}
			for _, in := range node.Inputs {
				if in.OpType == compute.OpTypeIdentity {
					readers++
				}
			}
		}
		outIdentity := f.Outputs[1].OpType == compute.OpTypeIdentity
		in := append([]float32(nil), x...)
		bx, _ := be.BufferFromFlatData(0, in, s)
		res, err := exec.Execute([]compute.Buffer{bx}, nil, 0)
		if err != nil {
			t.Fatalf("execute: %+v", err)
		}
		out := make([][]float32, len(res))
		for i, r := range res {
			out[i] = append([]float32(nil), r.(*gobackend.Buffer).Flat.([]float32)...)
		}
		for i := range x {
			if math.Float32bits(in[i]) != math.Float32bits(x[i]) {
				t.Fatalf("%q: the input changed at %d", config, i)
			}
		}
		return out, readers, outIdentity
	}
	fused, readers, kept := run("")
	plain, plainReaders, _ := run("no_fusion")
	if readers != 0 || plainReaders == 0 || !kept {
		t.Fatalf("%d live readers of identities (no_fusion: %d), the returned identity kept: %v", readers, plainReaders, kept)
	}
	for o := range plain {
		for i := range plain[o] {
			if math.Float32bits(fused[o][i]) != math.Float32bits(plain[o][i]) {
				t.Fatalf("output %d element %d: %v, want %v", o, i, fused[o][i], plain[o][i])
			}
		}
	}
	if fused[1][7] != x[7] || fused[0][7] != x[7]*(x[7]+x[7]) {
		t.Errorf("outputs %v, %v at 7 for x = %v", fused[0][7], fused[1][7], x[7])
	}
}

// must returns a function that passes on a builder's value and fails the test on its
// error.
func must(t *testing.T) func(v compute.Value, err error) compute.Value {
	return func(v compute.Value, err error) compute.Value {
		t.Helper()
		if err != nil {
			t.Fatalf("%+v", err)
		}
		return v
	}
}
