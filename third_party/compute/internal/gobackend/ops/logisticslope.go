// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Gradients through the logistic function (gexph patch, see PATCHES.md at the module
// root).
//
// Autodiff writes the gradient through y = Logistic(x) as Mul(v, Mul(y, Sub(1, y))): the
// slope 1 − y, the derivative y·(1 − y) and the product by the adjoint v, three passes
// over y's shape, and a gated sum's adjoint v is often itself a product Mul(a, w) by a
// per-row weight w [R, 1]. The transformation below rewrites Mul(v, Mul(y, Sub(c, y)))
// (c a scalar; operands of each Mul in either order), where the inner results are read by
// nothing else, into one node, and takes a per-row product v = Mul(a, w) read only there
// into it too. Each element is the same float32 difference and products in the same order
// as op by op: equal bit for bit. The backend option "no_fusion" disables it.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.RegisterTransformation(logisticSlopePriority, &LogisticSlopeFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeMul, gobackend.PriorityUser, execLogisticSlope)
}

// logisticSlopePriority orders the transformation after the affine rows' (affinerows.go).
const logisticSlopePriority = affineRowsPriority - 5

// minLogisticSlope is the least number of elements of a fused node, whose rows (the
// elements after the first axis) must also hold at least one SIMD vector.
const minLogisticSlope = 1 << 14

// logisticSlope is the Data of a fused node v·(y·(c − y)); its inputs are y, c (a scalar)
// and v, or a and w [R, 1] (v = a·w, rows of cols elements) when weighted.
type logisticSlope struct {
	rows, cols int
	weighted   bool
}

// FusionName implements gobackend.Fusion.
func (*logisticSlope) FusionName() string { return "LogisticSlope" }

// LogisticSlopeFusion is the graph transformation that fuses gradients through the
// logistic function (see the file comment).
type LogisticSlopeFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*LogisticSlopeFusion) Name() string { return "LogisticSlopeFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*LogisticSlopeFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	vLen := float32Lanes()
	for _, n := range f.Nodes {
		s := n.Shape
		if uses[n.Index] == 0 || n.OpType != compute.OpTypeMul || len(n.Inputs) != 2 || !isBroadcastData(n) ||
			s.DType != dtypes.Float32 || s.IsDynamic() || s.Rank() < 2 || s.Size() < minLogisticSlope ||
			s.Size()/s.Dimensions[0] < vLen {
			continue
		}
		for i, u := range n.Inputs {
			v := n.Inputs[1-i]
			y, c, ok := logisticDerivative(u, uses)
			if !ok || !v.Shape.Equal(s) {
				continue
			}
			p := &logisticSlope{rows: s.Dimensions[0], cols: s.Size() / s.Dimensions[0]}
			inputs := []*gobackend.Node{y, c, v}
			if a, w, ok := perRowProduct(v, uses); ok {
				p.weighted, inputs = true, []*gobackend.Node{y, c, a, w}
			}
			n.Inputs, n.Data = inputs, p
			n.ClearCachedExecutor()
			break
		}
	}
	return false, nil
}

// logisticDerivative returns y and c when u is Mul(y, Sub(c, y)) of y of u's shape and a
// float32 scalar c, u and the Sub read by nothing else.
func logisticDerivative(u *gobackend.Node, uses []int) (y, c *gobackend.Node, ok bool) {
	if u.OpType != compute.OpTypeMul || uses[u.Index] != 1 || len(u.Inputs) != 2 || !isBroadcastData(u) {
		return nil, nil, false
	}
	for i, sub := range u.Inputs {
		y := u.Inputs[1-i]
		if sub.OpType == compute.OpTypeSub && uses[sub.Index] == 1 && len(sub.Inputs) == 2 && sub.Inputs[1] == y &&
			isScalarF32(sub.Inputs[0].Shape) && y.Shape.Equal(u.Shape) {
			return y, sub.Inputs[0], true
		}
	}
	return nil, nil, false
}

// perRowProduct returns a and w when v is a rank-2 Mul(a, w) of a of v's shape and w
// [R, 1], read by nothing else.
func perRowProduct(v *gobackend.Node, uses []int) (a, w *gobackend.Node, ok bool) {
	if v.OpType != compute.OpTypeMul || uses[v.Index] != 1 || len(v.Inputs) != 2 || !isBroadcastData(v) || v.Shape.Rank() != 2 {
		return nil, nil, false
	}
	for i, a := range v.Inputs {
		if w := v.Inputs[1-i]; a.Shape.Equal(v.Shape) && isPerRow(w.Shape, v.Shape) {
			return a, w, true
		}
	}
	return nil, nil, false
}

// execLogisticSlope runs a fused node (see logisticSlope), its rows split across the
// backend's workers; any other Mul falls back.
func execLogisticSlope(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*logisticSlope)
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
	o := slopeOperands{y: flat(0), c: flat(1)[0], v: flat(2), out: output.Flat.([]float32)}
	if p.weighted {
		o.w = flat(3)
	}
	c := p.cols
	splitWork(backend, p.rows, max(1, rowsMinChunk/(4*c)), func(lo, hi int) {
		logisticSlopeRows(&o, lo, hi, c)
	})
	return output, nil
}

// slopeOperands are the flat inputs and output of a fused node; v holds a, and w is set,
// when weighted.
type slopeOperands struct {
	y, v, w, out []float32
	c            float32
}

// logisticSlopeRows computes the rows [lo, hi) of width c (at least one SIMD vector) in
// whole vectors, the last one ending at the row's end (its overlap with the one before
// computed again, to the same values).
func logisticSlopeRows(o *slopeOperands, lo, hi, c int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	cv := simd.BroadcastFloat32s(o.c)
	for r := lo; r < hi; r++ {
		y, v, out := o.y[r*c:][:c], o.v[r*c:][:c], o.out[r*c:][:c]
		var w simd.Float32s
		if o.w != nil {
			w = simd.BroadcastFloat32s(o.w[r])
		}
		for j := 0; j < c; j += vLen {
			j = min(j, c-vLen)
			yv, vv := simd.LoadFloat32s(y[j:]), simd.LoadFloat32s(v[j:])
			if o.w != nil {
				vv = vv.Mul(w)
			}
			vv.Mul(yv.Mul(cv.Sub(yv))).Store(out[j:])
		}
	}
}
