// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Per-column affine rows (gexph patch, see PATCHES.md at the module root).
//
// A batch norm applies y = x ⊙ a + c with per-column vectors a, c [1, C], and its input
// gradient is g ⊙ a + (x ⊙ k + b) ⊙ w with per-column k, b and a row weight w [R, 1] (the
// batch's mask). Op by op, each product and sum writes an [R, C] tensor that the next op
// reads back. The transformation below rewrites such chains of float32 rank-2 Adds and
// Muls, whose inner results nothing else reads, into one node that computes each row's
// vectors in registers:
//
//	Add(Mul(q, k), b)              → q ⊙ k + b
//	Mul(that, w)                   → (q ⊙ k + b) ⊙ w
//	Add(Mul(p, a), either of them) → p ⊙ a + …
//
// with q, p [R, C], k, b, a [1, C] and w [R, 1], operands of Add and Mul in either order.
// Each element is the same float32 product and sum, in the same order, as op by op
// (no fused multiply-add): the results are equal bit for bit. Rows narrower than a SIMD
// vector are left unfused. The backend option "no_fusion" disables it.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

func init() {
	gobackend.RegisterTransformation(affineRowsPriority, &AffineRowsFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeAdd, gobackend.PriorityUser, execAffineRows)
	gobackend.SetNodeExecutor(compute.OpTypeMul, gobackend.PriorityUser, execAffineRows)
}

// affineRowsPriority orders the transformation after the sums of products' (which take
// the products that a column sum reads) and so after the gathered operands'.
const affineRowsPriority = productSumPriority - 5

// minAffineRows is the least number of rows of a fused node.
const minAffineRows = 1024

// affineRows is the Data of a fused node computing [p ⊙ a +] (q ⊙ k + b) [⊙ w] (see the
// file comment); its inputs are q, k, b, then p, a when hasP, then w when hasW.
type affineRows struct {
	rows, cols int
	hasP, hasW bool
}

// FusionName implements gobackend.Fusion.
func (*affineRows) FusionName() string { return "AffineRows" }

// AffineRowsFusion is the graph transformation that fuses chains of per-column affine
// products and sums into one node (see the file comment).
type AffineRowsFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*AffineRowsFusion) Name() string { return "AffineRowsFusion" }

// Apply implements gobackend.GraphTransformation on the main function. The nodes are in
// topological order, so an inner chain is fused before its consumer takes it in.
func (*AffineRowsFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	vLen := float32Lanes()
	for _, n := range f.Nodes {
		s := n.Shape
		if uses[n.Index] == 0 || len(n.Inputs) != 2 || !isBroadcastData(n) || s.DType != dtypes.Float32 ||
			s.IsDynamic() || s.Rank() != 2 || s.Dimensions[0] < minAffineRows || s.Dimensions[1] < vLen {
			continue
		}
		single := func(x *gobackend.Node) bool { return uses[x.Index] == 1 }
		switch n.OpType { //nolint:exhaustive
		case compute.OpTypeAdd:
			fuseAffineAdd(n, single)
		case compute.OpTypeMul:
			fuseAffineWeight(n, single)
		}
	}
	return false, nil
}

// float32Lanes returns the number of float32 values in a SIMD vector. (A plain function:
// the transformation's method cannot use the simd package itself.)
func float32Lanes() int { return simd.BroadcastFloat32s(0).Len() }

// fuseAffineAdd rewrites Add(Mul(q, k), b) or Add(Mul(p, a), chain) into a fused node.
func fuseAffineAdd(n *gobackend.Node, single func(*gobackend.Node) bool) {
	for i, m := range n.Inputs {
		other := n.Inputs[1-i]
		x, v, ok := columnProduct(m, n.Shape, single)
		if !ok {
			continue
		}
		if isPerColumn(other.Shape, n.Shape) {
			setAffine(n, []*gobackend.Node{x, v, other}, &affineRows{})
			return
		}
		if inner, ok := other.Data.(*affineRows); ok && single(other) && !inner.hasP {
			p := *inner
			p.hasP = true
			inputs := append(append([]*gobackend.Node(nil), other.Inputs[:3]...), x, v)
			setAffine(n, append(inputs, other.Inputs[3:]...), &p)
			return
		}
	}
}

// fuseAffineWeight rewrites Mul(chain, w) of a fused q ⊙ k + b and a row weight w [R, 1].
func fuseAffineWeight(n *gobackend.Node, single func(*gobackend.Node) bool) {
	for i, c := range n.Inputs {
		w := n.Inputs[1-i]
		inner, ok := c.Data.(*affineRows)
		if !ok || !single(c) || inner.hasP || inner.hasW || !isPerRow(w.Shape, n.Shape) {
			continue
		}
		p := *inner
		p.hasW = true
		setAffine(n, append(append([]*gobackend.Node(nil), c.Inputs...), w), &p)
		return
	}
}

// columnProduct returns x and v when m is a Mul, read only by its consumer, of x of shape
// out [R, C] and a per-column v [1, C].
func columnProduct(m *gobackend.Node, out shapes.Shape, single func(*gobackend.Node) bool) (x, v *gobackend.Node, ok bool) {
	if m.OpType != compute.OpTypeMul || !single(m) || !isBroadcastData(m) || len(m.Inputs) != 2 {
		return nil, nil, false
	}
	for i, x := range m.Inputs {
		if v := m.Inputs[1-i]; x.Shape.Equal(out) && isPerColumn(v.Shape, out) {
			return x, v, true
		}
	}
	return nil, nil, false
}

// isPerColumn tells whether s is a float32 [1, C] for out [R, C].
func isPerColumn(s, out shapes.Shape) bool {
	return s.DType == dtypes.Float32 && s.Rank() == 2 && !s.IsDynamic() && s.Dimensions[0] == 1 && s.Dimensions[1] == out.Dimensions[1]
}

// isPerRow tells whether s is a float32 [R, 1] for out [R, C].
func isPerRow(s, out shapes.Shape) bool {
	return s.DType == dtypes.Float32 && s.Rank() == 2 && !s.IsDynamic() && s.Dimensions[0] == out.Dimensions[0] && s.Dimensions[1] == 1
}

// setAffine makes n the fused node p with the given inputs.
func setAffine(n *gobackend.Node, inputs []*gobackend.Node, p *affineRows) {
	p.rows, p.cols = n.Shape.Dimensions[0], n.Shape.Dimensions[1]
	n.Inputs, n.Data = inputs, p
	n.ClearCachedExecutor()
}

// execAffineRows runs a fused node (see affineRows), its rows split across the backend's
// workers; any other Add or Mul falls back.
func execAffineRows(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*affineRows)
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
	a := affineOperands{q: flat(0), k: flat(1), b: flat(2), out: output.Flat.([]float32)}
	next := 3
	if p.hasP {
		a.p, a.a = flat(next), flat(next+1)
		next += 2
	}
	if p.hasW {
		a.w = flat(next)
	}
	c := p.cols
	splitWork(backend, p.rows, max(1, rowsMinChunk/(4*c)), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			affineRow(&a, r, c)
		}
	})
	return output, nil
}

// affineOperands are the flat inputs and output of a fused node; p, a and w are nil when
// absent.
type affineOperands struct {
	q, k, b, p, a, w, out []float32
}

// affineRow computes row r of width c (at least one SIMD vector) in whole vectors, the
// last one ending at the row's end (its overlap with the one before computed again, to
// the same values).
func affineRow(o *affineOperands, r, c int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	q, out := o.q[r*c:][:c], o.out[r*c:][:c]
	var w simd.Float32s
	if o.w != nil {
		w = simd.BroadcastFloat32s(o.w[r])
	}
	for j := 0; j < c; j += vLen {
		j = min(j, c-vLen)
		v := simd.LoadFloat32s(q[j:]).Mul(simd.LoadFloat32s(o.k[j:])).Add(simd.LoadFloat32s(o.b[j:]))
		if o.w != nil {
			v = v.Mul(w)
		}
		if o.p != nil {
			v = simd.LoadFloat32s(o.p[r*c+j:]).Mul(simd.LoadFloat32s(o.a[j:])).Add(v)
		}
		v.Store(out[j:])
	}
}
