// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Products of threshold patterns (gexph patch, see PATCHES.md at the module root).
//
// A per-edge MLP on one number s [E, 1] per edge (the gates of equivariant-stable
// positional encodings) can be written through its rectifier's 0/1 pattern
// P = ConvertDType(GreaterOrEqual(s ⊙ w + b, c)) [E, D] (w, b [1, D], c a scalar): its
// output needs P·t and its weights' gradient Pᵀ·g, for columns t [D, 1] and g [E, 1]. Op by
// op, the pattern is formed and kept as an [E, D] tensor of float32. The transformation
// below rewrites both products, when their P is such a pattern, into nodes that compute
// each element of the pattern in registers where it is needed and never form it:
//
//	DotGeneral(P, t)  → out[e] = Σ_k [s_e·w_k + b_k ≥ c]·t_k   (P's axis 1 contracted)
//	DotGeneral(Pᵀ, g) → out[k] = Σ_e [s_e·w_k + b_k ≥ c]·g_e   (the edges contracted)
//
// The pattern's elements are the same float32 product, sum and comparison as op by op, so
// they are equal; the sums are in another order than the GEMM's (equal to float32
// rounding, not bit for bit), the edges' in fixed blocks added in block order (the same
// result on any number of workers). The backend option "no_fusion" disables it.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	"github.com/gomlx/compute/shapes"
)

func init() {
	gobackend.RegisterTransformation(thresholdPriority, &ThresholdProductFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeDotGeneral, gobackend.PriorityUser, execThresholdProduct)
}

// thresholdPriority orders the transformation after the forwarded identities (which
// would hide the pattern's operands) and before the tall dense and Gram products (which
// would take its products).
const thresholdPriority = spmmPriority + 20

// thresholdProduct is the Data of a fused product of a threshold pattern [E, D]; its
// inputs are s [E, 1], w [1, D], b [1, D], the threshold c (a scalar) and the other
// factor: t with D values, or g with E values when gram (the edges contracted).
type thresholdProduct struct {
	edges, width int
	gram         bool
}

// FusionName implements gobackend.Fusion.
func (*thresholdProduct) FusionName() string { return "ThresholdProduct" }

// ThresholdProductFusion is the graph transformation that fuses products of threshold
// patterns (see the file comment).
type ThresholdProductFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*ThresholdProductFusion) Name() string { return "ThresholdProductFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*ThresholdProductFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, n := range f.Nodes {
		p, ok := n.Data.(*dot.NodeData)
		if uses[n.Index] == 0 || n.OpType != compute.OpTypeDotGeneral || !ok || len(n.Inputs) != 2 || p.BatchSize != 1 ||
			len(p.LHSBatchAxes) != 0 || len(p.LHSContractingAxes) != 1 || len(p.RHSContractingAxes) != 1 || n.Shape.DType != dtypes.Float32 {
			continue
		}
		lhs, other := n.Inputs[0], n.Inputs[1]
		gram := p.LHSContractingAxes[0] == 1 && lhs.OpType == compute.OpTypeTranspose
		if gram {
			lhs = transposed(lhs)
		} else if p.LHSContractingAxes[0] != 1 {
			continue
		}
		operands, ok := thresholdPattern(lhs)
		if !ok {
			continue
		}
		e, d := lhs.Shape.Dimensions[0], lhs.Shape.Dimensions[1]
		contracted := d
		if gram {
			contracted = e
		}
		if !isColumnOf(other, contracted, p.RHSContractingAxes[0]) {
			continue
		}
		n.Inputs = append(operands, other)
		n.Data = &thresholdProduct{edges: e, width: d, gram: gram}
		n.ClearCachedExecutor()
	}
	return false, nil
}

// transposed returns the input of a rank-2 Transpose that swaps the axes, or nil.
func transposed(n *gobackend.Node) *gobackend.Node {
	perm, ok := n.Data.([]int)
	if !ok || len(n.Inputs) != 1 || len(perm) != 2 || perm[0] != 1 || perm[1] != 0 {
		return nil
	}
	return n.Inputs[0]
}

// thresholdPattern returns s, w, b and c when p is ConvertDType(GreaterOrEqual(Add(Mul(s,
// w), b), c)) to float32, with s [E, 1], w and b [1, D] and c a scalar (operands of Add
// and Mul in either order).
func thresholdPattern(p *gobackend.Node) ([]*gobackend.Node, bool) {
	if p == nil || p.OpType != compute.OpTypeConvertDType || p.Shape.DType != dtypes.Float32 || p.Shape.Rank() != 2 || p.Shape.IsDynamic() {
		return nil, false
	}
	ge := p.Inputs[0]
	if ge.OpType != compute.OpTypeGreaterOrEqual || len(ge.Inputs) != 2 || !isScalarF32(ge.Inputs[1].Shape) {
		return nil, false
	}
	add, c := ge.Inputs[0], ge.Inputs[1]
	if add.OpType != compute.OpTypeAdd || len(add.Inputs) != 2 || !add.Shape.Equal(p.Shape) {
		return nil, false
	}
	out := p.Shape
	for i, mul := range add.Inputs {
		b := add.Inputs[1-i]
		if mul.OpType != compute.OpTypeMul || len(mul.Inputs) != 2 || !isPerColumn(b.Shape, out) {
			continue
		}
		for j, s := range mul.Inputs {
			if w := mul.Inputs[1-j]; isPerRow(s.Shape, out) && isPerColumn(w.Shape, out) {
				return []*gobackend.Node{s, w, b, c}, true
			}
		}
	}
	return nil, false
}

// isScalarF32 tells whether s is a float32 scalar.
func isScalarF32(s shapes.Shape) bool { return s.DType == dtypes.Float32 && s.Rank() == 0 }

// isColumnOf tells whether n is a float32 [size, 1] contracted on axis 0 or [1, size] on
// axis 1: size values in order either way.
func isColumnOf(n *gobackend.Node, size, axis int) bool {
	s := n.Shape
	if s.DType != dtypes.Float32 || s.Rank() != 2 || s.IsDynamic() || s.Dimensions[axis] != size {
		return false
	}
	return s.Dimensions[1-axis] == 1
}

// execThresholdProduct runs a fused product (see thresholdProduct); any other DotGeneral
// falls back.
func execThresholdProduct(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*thresholdProduct)
	if !ok {
		return nil, gobackend.ErrFallback
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	if backend.NoOps {
		return output, nil
	}
	flat := func(i int) []float32 { return inputs[i].Flat.([]float32) }
	t := threshold{s: flat(0), w: flat(1), b: flat(2), c: flat(3)[0]}
	out, other := output.Flat.([]float32), flat(4)
	if p.gram {
		sumRowBlocks(backend, p.edges, out, func(acc []float32, lo, hi int) {
			thresholdGram(&t, other, acc, lo, hi)
		})
		return output, nil
	}
	vLen := float32Lanes()
	splitWork(backend, (p.edges+vLen-1)/vLen, max(1, rowsMinChunk/(vLen*p.width)), func(lo, hi int) {
		thresholdRows(&t, other, out, lo*vLen, min(p.edges, hi*vLen))
	})
	return output, nil
}

// threshold holds the operands of a threshold pattern: element (e, k) is 1 where
// s[e]·w[k] + b[k] ≥ c.
type threshold struct {
	s, w, b []float32
	c       float32
}

// thresholdRows sets out[e] = Σ_k [s_e·w_k + b_k ≥ c]·t_k for the edges [lo, hi), a SIMD
// vector of edges at a time.
func thresholdRows(p *threshold, t, out []float32, lo, hi int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	c := simd.BroadcastFloat32s(p.c)
	for e := lo; e < hi; e += vLen {
		s, _ := simd.LoadFloat32sPart(p.s[e:hi])
		acc := simd.BroadcastFloat32s(0)
		for k, tk := range t {
			m := s.Mul(simd.BroadcastFloat32s(p.w[k])).Add(simd.BroadcastFloat32s(p.b[k])).GreaterEqual(c)
			acc = acc.Add(simd.BroadcastFloat32s(tk).Masked(m))
		}
		acc.StorePart(out[e:hi])
	}
}

// thresholdGram adds Σ_{e∈[lo,hi)} [s_e·w_k + b_k ≥ c]·g_e into acc[k] for every k, a SIMD
// vector of edges at a time.
func thresholdGram(p *threshold, g, acc []float32, lo, hi int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	c := simd.BroadcastFloat32s(p.c)
	var lanes [64]float32
	for k := range acc {
		w, b := simd.BroadcastFloat32s(p.w[k]), simd.BroadcastFloat32s(p.b[k])
		sum := simd.BroadcastFloat32s(0)
		for e := lo; e < hi; e += vLen {
			s, _ := simd.LoadFloat32sPart(p.s[e:hi])
			gv, _ := simd.LoadFloat32sPart(g[e:hi])
			sum = sum.Add(gv.Masked(s.Mul(w).Add(b).GreaterEqual(c)))
		}
		sum.Store(lanes[:])
		for _, v := range lanes[:vLen] {
			acc[k] += v
		}
	}
}
