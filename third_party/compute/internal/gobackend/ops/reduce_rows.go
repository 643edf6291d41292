// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

// Sums of short rows (gexph patch, see PATCHES.md at the module root).
//
// Attention over a graph reduces per-edge, per-head products [E, heads, headDim] over
// their last axis, with headDim 8 to 16: rows too short for the SIMD reduction, which
// falls back to the generic loop. That loop adds each row's values in one dependency
// chain, one row after the other, on one core. This executor adds the values of each
// row in the same order (the sums are equal bit for bit) but four rows at a time, as
// independent chains, and splits the rows across the backend's workers.

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.SetNodeExecutor(compute.OpTypeReduceSum, gobackend.PriorityTyped, execReduceSumShortRows)
}

// shortRowsMaxB is the longest row this executor takes; longer rows go to the SIMD one.
const shortRowsMaxB = 16

// execReduceSumShortRows sums float32 rows of 2 to shortRowsMaxB values over the last
// axis; anything else falls back.
func execReduceSumShortRows(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	if inputs[0].RawShape.DType != dtypes.Float32 {
		return nil, gobackend.ErrFallback
	}
	cfg, ok := nodeReduceConfig(node, inputs[0])
	if !ok || operand0Dynamic(node) || cfg.Pattern != ReduceTrailing || cfg.B < 2 || cfg.B > shortRowsMaxB {
		return nil, gobackend.ErrFallback
	}
	operand, output, cfg, err := PrepareReduceBuffers(backend, node, inputs)
	if err != nil {
		return nil, err
	}
	if backend.NoOps {
		return output, nil
	}
	in, out, b := operand.Flat.([]float32), output.Flat.([]float32), cfg.B
	splitWork(backend, cfg.A, max(1, rowsMinChunk/(4*b)), func(lo, hi int) {
		sumShortRows(in, out, b, lo, hi)
	})
	return output, nil
}

// nodeReduceConfig is the reduction's configuration as the SIMD executor reads it, and
// false where the node does not give one.
func nodeReduceConfig(node *gobackend.Node, operand *gobackend.Buffer) (ReduceConfig, bool) {
	switch d := node.Data.(type) {
	case *ReduceConfig:
		return *d, true
	case ReduceConfig:
		return d, true
	case []int:
		return DetermineReduceConfig(operand.RawShape, d), true
	}
	return ReduceConfig{}, false
}

// operand0Dynamic tells whether the node's output shape is dynamic (its configuration is
// then resolved per call by PrepareReduceBuffers).
func operand0Dynamic(node *gobackend.Node) bool { return node.Shape.IsDynamic() }

// sumShortRows sets out[a] = Σ_k in[a·b + k] for the rows a in [lo, hi), each sum in
// index order.
func sumShortRows(in, out []float32, b, lo, hi int) {
	a := lo
	for ; a+4 <= hi; a += 4 {
		r0, r1, r2, r3 := in[a*b:(a+1)*b], in[(a+1)*b:(a+2)*b], in[(a+2)*b:(a+3)*b], in[(a+3)*b:(a+4)*b]
		var s0, s1, s2, s3 float32
		for k := range b {
			s0 += r0[k]
			s1 += r1[k]
			s2 += r2[k]
			s3 += r3[k]
		}
		out[a], out[a+1], out[a+2], out[a+3] = s0, s1, s2, s3
	}
	for ; a < hi; a++ {
		var s float32
		for _, v := range in[a*b : (a+1)*b] {
			s += v
		}
		out[a] = s
	}
}
