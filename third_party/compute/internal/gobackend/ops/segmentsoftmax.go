// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Softmax over the edges that share a destination (gexph patch, see PATCHES.md at the
// module root).
//
// Sparse attention normalises its scores s [E, H] (one per edge and head) over each
// destination's incoming edges, as a graph of ops:
//
//	M = ScatterMax(m0, dst, s)            w = Exp(Sub(s, Gather(M, dst)))
//	S = ScatterSum(s0, dst, w)            den = Add(S, ConvertDType(Equal(S, z)))
//	α = Div(w, Gather(den, dst))
//
// and its backward pass, from the adjoint g of α:
//
//	C = ScatterSum(c0, dst, Mul(α, g))    ∂s = Mul(α, Sub(g, Gather(C, dst)))
//
// Op by op that is five passes over [E, H] forward and four backward, each row a few
// values (H heads), so the row kernels' per-row cost dominates. The transformation below
// rewrites the Div and the outer Mul, where the intermediate results are read by nothing
// else, into fused nodes that take s (or α and g), dst and the operands m0, s0, z (or
// c0) and run the same arithmetic in four flat passes (two backward): the maxima and
// the sums are combined in edge order, the exponentials are the Exp op's own SIMD
// function, so the results are equal bit for bit (the maximum is Go's max, which keeps a
// NaN where the SIMD maximum of ScatterMax may drop it). Gathers clamp their indices and
// scatters skip those outside [0, N), as the ops do. The backend option "no_fusion"
// disables it.

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.RegisterTransformation(segmentSoftmaxPriority, &SegmentSoftmaxFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeDiv, gobackend.PriorityUser, execSegmentSoftmax)
	gobackend.SetNodeExecutor(compute.OpTypeMul, gobackend.PriorityUser, execSegmentSoftmaxGrad)
}

// segmentSoftmaxPriority orders the transformation before spmm.go's and gathered.go's,
// which would otherwise take the gathers of the pattern.
const segmentSoftmaxPriority = spmmPriority + 10

// minSegmentSoftmax is the least number of elements [E, H] of a fused node.
const minSegmentSoftmax = 1 << 12

// segmentSoftmax is the Data of a fused Div (α) or Mul (∂s). The forward node's inputs
// are s, dst, m0, s0 and z (zScalar: a scalar); the backward node's α, g, dst and c0.
type segmentSoftmax struct {
	edges, heads, nodes int
	zScalar             bool
}

// FusionName implements gobackend.Fusion.
func (*segmentSoftmax) FusionName() string { return "SegmentSoftmax" }

// SegmentSoftmaxFusion is the graph transformation that fuses the softmax over each
// destination's edges and its gradient (see the file comment).
type SegmentSoftmaxFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*SegmentSoftmaxFusion) Name() string { return "SegmentSoftmaxFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*SegmentSoftmaxFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, n := range f.Nodes {
		s := n.Shape
		if uses[n.Index] == 0 || len(n.Inputs) != 2 || !isBroadcastData(n) || s.DType != dtypes.Float32 ||
			s.IsDynamic() || s.Rank() != 2 || s.Size() < minSegmentSoftmax {
			continue
		}
		switch n.OpType { //nolint:exhaustive
		case compute.OpTypeDiv:
			fuseSegmentSoftmax(n, uses)
		case compute.OpTypeMul:
			fuseSegmentSoftmaxGrad(n, uses)
		}
	}
	return false, nil
}

// gatheredRows returns the table and the indices of a row gather g [E, H] read only by
// its consumer.
func gatheredRows(g *gobackend.Node, out *gobackend.Node, uses []int) (table, idx *gobackend.Node, ok bool) {
	if uses[g.Index] != 1 || g.OpType != compute.OpTypeGather || !isRowGather(g, out.Shape) {
		return nil, nil, false
	}
	return g.Inputs[0], g.Inputs[1], true
}

// rowScatterOf returns the operand of s when s is a row scatter of the given op type
// into [N, H] at dst of updates upd.
func rowScatterOf(s *gobackend.Node, op compute.OpType, dst, upd *gobackend.Node) (operand *gobackend.Node, ok bool) {
	if s.OpType != op || len(s.Inputs) != 3 || s.Inputs[1] != dst || s.Inputs[2] != upd {
		return nil, false
	}
	p, isScatter := s.Data.(*scatterNode)
	if !isScatter || !isRowScatter(s, p) || s.Shape.Rank() != 2 {
		return nil, false
	}
	return s.Inputs[0], true
}

// fuseSegmentSoftmax rewrites α = Div(w, Gather(den, dst)) (see the file comment).
func fuseSegmentSoftmax(n *gobackend.Node, uses []int) {
	w := n.Inputs[0]
	den, dst, ok := gatheredRows(n.Inputs[1], n, uses)
	if !ok || w.OpType != compute.OpTypeExp || uses[w.Index] != 2 || !w.Shape.Equal(n.Shape) {
		return
	}
	sum, z, ok := safeSum(den, uses)
	if !ok {
		return
	}
	s0, ok := rowScatterOf(sum, compute.OpTypeScatterSum, dst, w)
	if !ok {
		return
	}
	t := w.Inputs[0]
	if t.OpType != compute.OpTypeSub || uses[t.Index] != 1 || len(t.Inputs) != 2 || !isBroadcastData(t) {
		return
	}
	score := t.Inputs[0]
	maxima, dst2, ok := gatheredRows(t.Inputs[1], n, uses)
	if !ok || dst2 != dst || !score.Shape.Equal(n.Shape) || uses[maxima.Index] != 1 || !maxima.Shape.Equal(sum.Shape) {
		return
	}
	m0, ok := rowScatterOf(maxima, compute.OpTypeScatterMax, dst, score)
	if !ok {
		return
	}
	nodes := sum.Shape.Dimensions[0]
	p := &segmentSoftmax{edges: n.Shape.Dimensions[0], heads: n.Shape.Dimensions[1], nodes: nodes, zScalar: z.Shape.Rank() == 0}
	n.Inputs, n.Data = []*gobackend.Node{score, dst, m0, s0, z}, p
	n.ClearCachedExecutor()
}

// safeSum returns S and z when den is Add(S, ConvertDType(Equal(S, z))) (operands of the
// Add in either order), den read only by its gather, S by the Add and the Equal, z of
// S's shape or a scalar.
func safeSum(den *gobackend.Node, uses []int) (sum, z *gobackend.Node, ok bool) {
	if den.OpType != compute.OpTypeAdd || uses[den.Index] != 1 || len(den.Inputs) != 2 || !isBroadcastData(den) {
		return nil, nil, false
	}
	for i, conv := range den.Inputs {
		sum = den.Inputs[1-i]
		if conv.OpType != compute.OpTypeConvertDType || uses[conv.Index] != 1 || len(conv.Inputs) != 1 ||
			!conv.Shape.Equal(sum.Shape) || uses[sum.Index] != 2 {
			continue
		}
		eq := conv.Inputs[0]
		if eq.OpType != compute.OpTypeEqual || uses[eq.Index] != 1 || len(eq.Inputs) != 2 || eq.Inputs[0] != sum ||
			eq.Shape.DType != dtypes.Bool || (eq.Data != nil && !isBroadcastData(eq)) {
			continue
		}
		z = eq.Inputs[1]
		if z.Shape.DType == dtypes.Float32 && (z.Shape.Equal(sum.Shape) || z.Shape.Rank() == 0) {
			return sum, z, true
		}
	}
	return nil, nil, false
}

// fuseSegmentSoftmaxGrad rewrites ∂s = Mul(α, Sub(g, Gather(C, dst))) with C =
// ScatterSum(c0, dst, Mul(α, g)) (products in either order).
func fuseSegmentSoftmaxGrad(n *gobackend.Node, uses []int) {
	for i, d := range n.Inputs {
		alpha := n.Inputs[1-i]
		if d.OpType != compute.OpTypeSub || uses[d.Index] != 1 || len(d.Inputs) != 2 || !isBroadcastData(d) ||
			!alpha.Shape.Equal(n.Shape) {
			continue
		}
		g := d.Inputs[0]
		centre, dst, ok := gatheredRows(d.Inputs[1], n, uses)
		if !ok || !g.Shape.Equal(n.Shape) || uses[centre.Index] != 1 || len(centre.Inputs) != 3 {
			continue
		}
		prod := centre.Inputs[2]
		if prod.OpType != compute.OpTypeMul || uses[prod.Index] != 1 || len(prod.Inputs) != 2 || !isBroadcastData(prod) ||
			!(prod.Inputs[0] == alpha && prod.Inputs[1] == g || prod.Inputs[0] == g && prod.Inputs[1] == alpha) {
			continue
		}
		c0, ok := rowScatterOf(centre, compute.OpTypeScatterSum, dst, prod)
		if !ok {
			continue
		}
		p := &segmentSoftmax{edges: n.Shape.Dimensions[0], heads: n.Shape.Dimensions[1], nodes: centre.Shape.Dimensions[0]}
		n.Inputs, n.Data = []*gobackend.Node{alpha, g, dst, c0}, p
		n.ClearCachedExecutor()
		return
	}
}

// expBlock sets x = Exp(x), as the Exp op computes it (expslices.go).
func expBlock(x []float32) { expFloat32Slice(x, x) }

// scratchCopy returns a buffer of the backend's cache holding a copy of in (the caller
// puts it back).
func scratchCopy(backend *gobackend.Backend, in *gobackend.Buffer) (*gobackend.Buffer, error) {
	b, err := backend.GetBuffer(in.RawShape)
	if err != nil {
		return nil, err
	}
	copy(b.Flat.([]float32), in.Flat.([]float32))
	return b, nil
}

// scatterRowsBy runs combine(row of node i, edge e) for every edge e with an index i in
// [0, nodes), in edge order for each node, the nodes split across the backend's workers
// (each scans every index, as the row scatters do).
func scatterRowsBy(backend *gobackend.Backend, dst []int32, nodes, h int, combine func(i, e int)) {
	splitWork(backend, nodes, max(1, rowsMinChunk/(4*h)), func(lo, hi int) {
		l, u := int32(lo), int32(hi)
		for e, i := range dst {
			if i >= l && i < u {
				combine(int(i), e)
			}
		}
	})
}

// execSegmentSoftmax runs a fused Div (see segmentSoftmax) in four passes: the maxima,
// the exponentials, their sums, the quotients; any other Div falls back.
func execSegmentSoftmax(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*segmentSoftmax)
	if !ok || node.OpType != compute.OpTypeDiv {
		return nil, gobackend.ErrFallback
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	if backend.NoOps {
		return output, nil
	}
	h := p.heads
	score, dst := inputs[0].Flat.([]float32), inputs[1].Flat.([]int32)
	maxBuf, err := scratchCopy(backend, inputs[2])
	if err != nil {
		return nil, err
	}
	defer backend.PutBuffer(maxBuf)
	sumBuf, err := scratchCopy(backend, inputs[3])
	if err != nil {
		return nil, err
	}
	defer backend.PutBuffer(sumBuf)
	maxima, sums, out := maxBuf.Flat.([]float32), sumBuf.Flat.([]float32), output.Flat.([]float32)
	last := int32(p.nodes - 1)
	scatterRowsBy(backend, dst, p.nodes, h, func(i, e int) { // M = ScatterMax(m0, dst, s).
		m, sc := maxima[i*h:][:h], score[e*h:][:h]
		for k := range h {
			m[k] = max(m[k], sc[k])
		}
	})
	edgeChunk := max(1, rowsMinChunk/(4*h))
	splitWork(backend, p.edges, edgeChunk, func(lo, hi int) { // w = Exp(s − M[dst]).
		for e := lo; e < hi; e++ {
			m, sc, o := maxima[clampedRow(dst[e], last)*h:][:h], score[e*h:][:h], out[e*h:][:h]
			for k := range h {
				o[k] = sc[k] - m[k]
			}
		}
		expBlock(out[lo*h : hi*h])
	})
	scatterRowsBy(backend, dst, p.nodes, h, func(i, e int) { // S = ScatterSum(s0, dst, w).
		sm, o := sums[i*h:][:h], out[e*h:][:h]
		for k := range h {
			sm[k] += o[k]
		}
	})
	z := inputs[4].Flat.([]float32)
	for j, v := range sums { // den = S + (S == z).
		zj := z[0]
		if !p.zScalar {
			zj = z[j]
		}
		if v == zj {
			sums[j] = v + 1
		} else {
			sums[j] = v + 0
		}
	}
	splitWork(backend, p.edges, edgeChunk, func(lo, hi int) { // α = w / den[dst].
		for e := lo; e < hi; e++ {
			d, o := sums[clampedRow(dst[e], last)*h:][:h], out[e*h:][:h]
			for k := range h {
				o[k] /= d[k]
			}
		}
	})
	return output, nil
}

// execSegmentSoftmaxGrad runs a fused Mul (see segmentSoftmax); any other Mul falls back.
func execSegmentSoftmaxGrad(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*segmentSoftmax)
	if !ok || node.OpType != compute.OpTypeMul {
		return nil, gobackend.ErrFallback
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	if backend.NoOps {
		return output, nil
	}
	h := p.heads
	alpha, g, dst := inputs[0].Flat.([]float32), inputs[1].Flat.([]float32), inputs[2].Flat.([]int32)
	centreBuf, err := scratchCopy(backend, inputs[3])
	if err != nil {
		return nil, err
	}
	defer backend.PutBuffer(centreBuf)
	centre, out := centreBuf.Flat.([]float32), output.Flat.([]float32)
	last := int32(p.nodes - 1)
	scatterRowsBy(backend, dst, p.nodes, h, func(i, e int) { // C = ScatterSum(c0, dst, α·g).
		c, a, gg := centre[i*h:][:h], alpha[e*h:][:h], g[e*h:][:h]
		for k := range h {
			c[k] += float32(a[k] * gg[k]) // Rounded apart, never fused into one multiply-add.
		}
	})
	splitWork(backend, p.edges, max(1, rowsMinChunk/(8*h)), func(lo, hi int) { // ∂s = α·(g − C[dst]).
		for e := lo; e < hi; e++ {
			c, a, gg, o := centre[clampedRow(dst[e], last)*h:][:h], alpha[e*h:][:h], g[e*h:][:h], out[e*h:][:h]
			for k := range h {
				o[k] = a[k] * (gg[k] - c[k])
			}
		}
	})
	return output, nil
}
