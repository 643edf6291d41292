// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Message-passing fusions (gexph patch, see PATCHES.md at the module root): the sums of
// weighted neighbour rows (SpMM) and the per-edge dot products of two gathered rows
// (SDDMM), the two kernels of attention and gated message passing on graphs.
//
// Message passing on a graph sums weighted neighbour rows: out[dst[e]] += a[e] ⊙
// x[src[e]], which a graph of ops writes as ScatterSum(operand, dst, Mul(a, Gather(x,
// src))). Executed op by op, the gathered rows [E, …] and their products [E, …] are each
// written to memory and read back; per edge they are larger than everything else the
// step touches. The transformation below recognises the pattern (row gathers and
// scatters along the first axis, float32, a the shape of the products or one value per
// leading index repeated over the trailing axes, e.g. one attention weight per edge and
// head) and rewrites the ScatterSum into one node that reads x's rows where the products
// need them and adds each product to its destination row at once. Each element is
// computed as before, a product rounded to float32 and then added in edge order, so the
// results are equal bit for bit. One weight per head is spread over its head's lanes by
// one permute of the edge's weights where a vector holds them all (AVX-512, AVX2), else
// blended from broadcasts or broadcast head by head.
//
// Attention scores per edge and head are dot products of gathered rows, written as
// ReduceSum(Mul(Gather(q, dst), Gather(k, src)), last axis): the second transformation
// rewrites the ReduceSum into one node that reads both rows and adds their products per
// head, without the gathered [E, heads, headDim] tensors and their product. On amd64 it
// sums each head in SIMD registers, a vector of heads at a time (segsum_amd64.go): equal
// to the unfused sums to float32 rounding, not bit for bit. Elsewhere (arm64), and for
// rows shorter than a vector, it adds each head's products in index order, as the
// unfused ReduceSum's plain loop does for rows shorter than its SIMD threshold (16 values
// on arm64): there the two are equal bit for bit; for longer rows the unfused one adds
// SIMD partial sums, and the two agree to float32 rounding. The backend option
// "no_fusion" disables both.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

func init() {
	gobackend.RegisterTransformation(spmmPriority, &GatherMulScatterFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeScatterSum, gobackend.PriorityUser, execGatherMulScatter)
	gobackend.RegisterTransformation(spmmPriority, &GatheredDotFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeReduceSum, gobackend.PriorityUser, execGatheredDot)
}

// spmmPriority orders the transformation after the implicit-broadcast removal (100).
const spmmPriority = 60

// gatherMulScatter is the Data of a fused ScatterSum, whose inputs are then operand,
// destination indices, weights a, source rows x and source indices; without weights
// (repeat 0: the sums of neighbour rows of a mean or sum aggregation) operand,
// destination indices, source rows x and source indices.
type gatherMulScatter struct {
	// repeat is how many consecutive product elements share one weight: 1 when a has the
	// products' shape; 0 without weights.
	repeat int
}

// FusionName implements gobackend.Fusion.
func (p *gatherMulScatter) FusionName() string {
	if p.repeat == 0 {
		return "GatherScatter"
	}
	return "GatherMulScatter"
}

// GatherMulScatterFusion is the graph transformation that fuses ScatterSum(operand, dst,
// Mul(a, Gather(x, src))) into one node (see the file comment).
type GatherMulScatterFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*GatherMulScatterFusion) Name() string { return "GatherMulScatterFusion" }

// Apply implements gobackend.GraphTransformation on the main function (closures are
// compiled when they are returned, before the transformations run).
func (*GatherMulScatterFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, s := range f.Nodes {
		if uses[s.Index] == 0 || s.OpType != compute.OpTypeScatterSum || len(s.Inputs) != 3 {
			continue
		}
		sd, ok := s.Data.(*scatterNode)
		if !ok || !isRowScatter(s, sd) {
			continue
		}
		mul := s.Inputs[2]                                       // The updates: Mul(a, Gather(x, src)), or unweighted Gather(x, src).
		if uses[mul.Index] == 1 && isRowGather(mul, mul.Shape) { // out[dst[e]] += x[src[e]].
			g := throughReshape(mul)
			s.Inputs = []*gobackend.Node{s.Inputs[0], s.Inputs[1], g.Inputs[0], g.Inputs[1]}
			s.Data = &gatherMulScatter{}
			s.ClearCachedExecutor()
			continue
		}
		if mul.OpType != compute.OpTypeMul || uses[mul.Index] != 1 || len(mul.Inputs) != 2 || mul.Data != nil && !isBroadcastData(mul) {
			continue
		}
		for k, g := range mul.Inputs {
			a := mul.Inputs[1-k]
			repeat, ok := weightRepeat(a.Shape, mul.Shape)
			if !ok || !isRowGather(g, mul.Shape) {
				continue
			}
			g = throughReshape(g)
			s.Inputs = []*gobackend.Node{s.Inputs[0], s.Inputs[1], a, g.Inputs[0], g.Inputs[1]}
			s.Data = &gatherMulScatter{repeat: repeat}
			s.ClearCachedExecutor()
			break
		}
	}
	return false, nil
}

// isBroadcastData tells whether n's Data is the broadcast configuration of a plain
// binary op (and not the Data of a fused node).
func isBroadcastData(n *gobackend.Node) bool {
	_, ok := n.Data.(*gobackend.BroadcastConfig)
	return ok
}

// isRowScatter tells whether s adds float32 rows [E, …] into the rows of its operand
// [N, …] of static shape at int32 indices [E, 1].
func isRowScatter(s *gobackend.Node, p *scatterNode) bool {
	operand, idx, upd := s.Inputs[0].Shape, s.Inputs[1].Shape, s.Inputs[2].Shape
	return !operand.IsDynamic() && !upd.IsDynamic() && operand.Rank() >= 2 && rowScatterShapes(p, operand, idx, upd)
}

// throughReshape returns the input of a reshape that keeps the leading axis (each row's
// elements stay in place), or n itself.
func throughReshape(n *gobackend.Node) *gobackend.Node {
	if n.OpType != compute.OpTypeReshape || len(n.Inputs) != 1 || n.Shape.Rank() == 0 {
		return n
	}
	in := n.Inputs[0]
	if in.Shape.Rank() == 0 || in.Shape.IsDynamic() || n.Shape.IsDynamic() || in.Shape.Dimensions[0] != n.Shape.Dimensions[0] {
		return n
	}
	return in
}

// maxFusedTableBytes is the largest table of rows whose gathers are fused. A fused
// kernel reads a gathered row where it needs it, among other work; rows of a table
// that stays in the caches come at once, but from a larger table each one is a cache
// miss that the plain gather, a loop of nothing but independent loads, overlaps better
// (the scaling benchmark at 10⁶ nodes, rows of 16 from a 64 MB table: fused 14.5 s an
// epoch, 11.2 s with the rows of blocks of edges copied first, unfused 8.9–9.3 s; the
// small-graph batches and Amazon Computers, tables of 0.6–4.4 MB, gain).
const maxFusedTableBytes = 16 << 20

// minLongRowBytes is the least row of a table larger than maxFusedTableBytes whose
// gathers are fused all the same: a long row is one long read, whose first miss the
// rest amortises.
const minLongRowBytes = 1024

// isRowGather tells whether g (or the input of a reshape g that keeps the leading axis)
// gathers whole float32 rows of its operand [N, …] at int32 indices [E, 1] into rows of
// out's size [E, …], from an operand of at most maxFusedTableBytes.
func isRowGather(g *gobackend.Node, out shapes.Shape) bool {
	if g.Shape.DType != out.DType || !g.Shape.Equal(out) {
		return false
	}
	g = throughReshape(g)
	p, ok := g.Data.(*gatherNode)
	if g.OpType != compute.OpTypeGather || !ok || len(g.Inputs) != 2 || g.Shape.Size() != out.Size() {
		return false
	}
	operand := g.Inputs[0].Shape
	return operand.DType == dtypes.Float32 && !operand.IsDynamic() && operand.Rank() == g.Shape.Rank() &&
		(operand.Memory() <= maxFusedTableBytes || operand.Memory()/uintptr(max(1, operand.Dimensions[0])) >= minLongRowBytes) && rowGatherShapes(p, operand, g.Inputs[1].Shape) &&
		g.Shape.Dimensions[0] == out.Dimensions[0]
}

// weightRepeat returns how many consecutive elements of products of shape out share one
// element of the weights a: 1 for a of out's shape; the size of out's trailing axes where
// a has size 1 there and out's dimensions before them.
func weightRepeat(a, out shapes.Shape) (int, bool) {
	if a.DType != dtypes.Float32 || a.IsDynamic() || a.Rank() != out.Rank() {
		return 0, false
	}
	repeat, trailing := 1, true
	for axis := out.Rank() - 1; axis >= 0; axis-- {
		switch d := a.Dimensions[axis]; {
		case trailing && d == 1:
			repeat *= out.Dimensions[axis]
		case d == out.Dimensions[axis]:
			trailing = false
		default:
			return 0, false
		}
	}
	return repeat, a.Dimensions[0] == out.Dimensions[0]
}

// execGatherMulScatter runs a fused ScatterSum: out = operand, then out[dst[e]] +=
// a[e] ⊙ x[src[e]] (or x[src[e]] without weights) for each edge e in order (source
// indices clamped as Gather does, destinations outside the operand skipped as ScatterSum
// does). Workers own ranges of destination rows. Any other ScatterSum falls back.
func execGatherMulScatter(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*gatherMulScatter)
	if !ok {
		return nil, gobackend.ErrFallback
	}
	xIn := inputs[len(inputs)-2]
	dst, src := inputs[1].Flat.([]int32), inputs[len(inputs)-1].Flat.([]int32)
	x := xIn.Flat.([]float32)
	var a []float32
	if p.repeat > 0 {
		a = inputs[2].Flat.([]float32)
	}
	output, err := scatterOutput(backend, node, inputs, inputsOwned)
	if err != nil {
		return nil, err
	}
	if backend.NoOps {
		return output, nil
	}
	out := output.Flat.([]float32)
	n, width := node.Shape.Dimensions[0], node.Shape.Size()/max(node.Shape.Dimensions[0], 1)
	last := int32(xIn.RawShape.Dimensions[0] - 1)
	splitWork(backend, n, max(1, rowsMinChunk/(4*max(width, 1))), func(lo, hi int) {
		l, h := int32(lo), int32(hi)
		wa := width / max(p.repeat, 1)
		// One permute spreads an edge's weights over a vector where a vector holds them all;
		// else short segments are blended from broadcasts, long ones scaled by one each.
		lanes, rowLanes := spreadLanes(), addRowLanes(width)
		permuted := p.repeat > 1 && wa <= lanes
		var heads []int32 // Each element's weight index, for addSpreadProducts(SIMD).
		if permuted || p.repeat > 1 && p.repeat < simd.BroadcastFloat32s(0).Len() {
			heads = make([]int32, width)
			for c := range heads {
				heads[c] = int32(c / p.repeat)
			}
		}
		for e, i := range dst {
			if i < l || i >= h {
				continue
			}
			row := x[clampedRow(src[e], last)*width:][:width]
			o := out[int(i)*width:][:width]
			switch {
			case p.repeat == 0 && rowLanes != 0:
				addRow(rowLanes, o, row)
			case p.repeat == 0:
				simdAddVVFloat32(o, row, o)
			case p.repeat == 1:
				addProducts(o, a[e*width:][:width], row)
			case permuted:
				addSpreadProductsSIMD(lanes, o, a[e*wa:], wa, row, heads)
			case heads != nil:
				addSpreadProducts(o, a[e*wa:][:wa], row, heads, p.repeat)
			default:
				addScaled(o, a[e*wa:][:wa], row, p.repeat)
			}
		}
	})
	return output, nil
}

// addSpreadProducts sets out[c] += float32(w[heads[c]]·x[c]) for segments of r < one
// vector's length (heads[c] = c / r): each vector of weights is blended from the
// broadcasts of the segments it covers, then multiplied and added as addProducts does.
func addSpreadProducts(out, w, x []float32, heads []int32, r int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	for k := 0; k < len(out); k += vLen {
		first, last := k/r, min(len(w)-1, (k+vLen-1)/r)
		v := simd.BroadcastFloat32s(w[first])
		if last > first {
			ids, _ := simd.LoadInt32sPart(heads[k:])
			for j := first + 1; j <= last; j++ {
				v = simd.BroadcastFloat32s(w[j]).IfElse(ids.Equal(simd.BroadcastInt32s(int32(j))), v)
			}
		}
		if k+vLen <= len(out) {
			simd.LoadFloat32s(out[k:]).Add(v.Mul(simd.LoadFloat32s(x[k:]))).Store(out[k:])
			continue
		}
		vx, _ := simd.LoadFloat32sPart(x[k:])
		vo, _ := simd.LoadFloat32sPart(out[k:])
		vo.Add(v.Mul(vx)).StorePart(out[k:])
	}
}

// addScaled sets out[j·r+k] += float32(w[j]·x[j·r+k]) for the segments j of r values.
func addScaled(out, w, x []float32, r int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	for j, wj := range w {
		vw := simd.BroadcastFloat32s(wj)
		o, xs := out[j*r:][:r], x[j*r:][:r]
		k := 0
		for ; k+vLen <= r; k += vLen {
			simd.LoadFloat32s(o[k:]).Add(simd.LoadFloat32s(xs[k:]).Mul(vw)).Store(o[k:])
		}
		if k < r {
			vo, _ := simd.LoadFloat32sPart(o[k:])
			vx, _ := simd.LoadFloat32sPart(xs[k:])
			vo.Add(vx.Mul(vw)).StorePart(o[k:])
		}
	}
}

// addProducts sets out[k] += float32(a[k]·x[k]): the product is rounded before the sum,
// as the unfused Mul and ScatterSum do.
func addProducts(out, a, x []float32) {
	vLen := simd.BroadcastFloat32s(0).Len()
	k := 0
	for ; k+vLen <= len(out); k += vLen {
		prod := simd.LoadFloat32s(a[k:]).Mul(simd.LoadFloat32s(x[k:]))
		simd.LoadFloat32s(out[k:]).Add(prod).Store(out[k:])
	}
	if k < len(out) {
		va, _ := simd.LoadFloat32sPart(a[k:])
		vx, _ := simd.LoadFloat32sPart(x[k:])
		vo, _ := simd.LoadFloat32sPart(out[k:])
		vo.Add(va.Mul(vx)).StorePart(out[k:])
	}
}

// gatheredDot is the Data of a fused ReduceSum, whose inputs are then the rows x1, the
// indices i1, the rows x2 and the indices i2: out[e, h] = Σ_k x1[i1[e]][h·b+k] ·
// x2[i2[e]][h·b+k], for rows of width heads·b.
type gatheredDot struct {
	b int
}

// FusionName implements gobackend.Fusion.
func (*gatheredDot) FusionName() string { return "GatheredDot" }

// GatheredDotFusion is the graph transformation that fuses ReduceSum(Mul(Gather(x1, i1),
// Gather(x2, i2)), last axis) into one node (see the file comment).
type GatheredDotFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*GatheredDotFusion) Name() string { return "GatheredDotFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*GatheredDotFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, r := range f.Nodes {
		if uses[r.Index] == 0 || r.OpType != compute.OpTypeReduceSum || len(r.Inputs) != 1 {
			continue
		}
		mul := r.Inputs[0]
		if mul.OpType != compute.OpTypeMul || uses[mul.Index] != 1 || len(mul.Inputs) != 2 ||
			mul.Data != nil && !isBroadcastData(mul) || r.Shape.DType != dtypes.Float32 || r.Shape.IsDynamic() || mul.Shape.IsDynamic() || mul.Shape.Rank() < 2 {
			continue
		}
		cfg, ok := nodeReduceConfig(r, &gobackend.Buffer{RawShape: mul.Shape})
		last := mul.Shape.Dimensions[mul.Shape.Rank()-1]
		if !ok || cfg.Pattern != ReduceTrailing || cfg.B != last || last == 0 {
			continue
		}
		g1, g2 := mul.Inputs[0], mul.Inputs[1]
		if !isRowGather(g1, mul.Shape) || !isRowGather(g2, mul.Shape) {
			continue
		}
		g1, g2 = throughReshape(g1), throughReshape(g2)
		r.Inputs = []*gobackend.Node{g1.Inputs[0], g1.Inputs[1], g2.Inputs[0], g2.Inputs[1]}
		r.Data = &gatheredDot{b: last}
		r.ClearCachedExecutor()
	}
	return false, nil
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

// execGatheredDot runs a fused ReduceSum (see gatheredDot), the edges split across the
// backend's workers; any other ReduceSum falls back.
func execGatheredDot(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*gatheredDot)
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
	out := output.Flat.([]float32)
	heads := len(out) / max(len(inputs[1].Flat.([]int32)), 1)
	d := dotRows{
		x1: inputs[0].Flat.([]float32), i1: inputs[1].Flat.([]int32), last1: int32(inputs[0].RawShape.Dimensions[0] - 1),
		x2: inputs[2].Flat.([]float32), i2: inputs[3].Flat.([]int32), last2: int32(inputs[2].RawShape.Dimensions[0] - 1),
		heads: heads, b: p.b,
	}
	width := heads * p.b
	splitWork(backend, len(d.i1), max(1, rowsMinChunk/(8*max(width, 1))), func(lo, hi int) {
		o := out[lo*heads : hi*heads]
		if gatheredDotsSIMD(o, &d, lo, hi) {
			return
		}
		prod := make([]float32, width)
		for k := lo; k < hi; k++ {
			r1, r2 := d.rows(k)
			simdMulVVFloat32(r1, r2, prod)
			sumSegments(o[(k-lo)*heads:][:heads], prod, p.b)
		}
	})
	return output, nil
}

// dotRows are the operands of fused per-edge dot products: out[e·heads + h] = Σ_k
// x1[i1[e]][h·b+k] · x2[i2[e]][h·b+k] (indices clamped to the tables' last rows).
type dotRows struct {
	x1, x2       []float32
	i1, i2       []int32
	last1, last2 int32
	heads, b     int
}

// rows returns the two gathered rows of edge e.
func (d *dotRows) rows(e int) (r1, r2 []float32) {
	w := d.heads * d.b
	return d.x1[clampedRow(d.i1[e], d.last1)*w:][:w], d.x2[clampedRow(d.i2[e], d.last2)*w:][:w]
}

// sumSegments sets out[h] = Σ_k p[h·b+k], each sum in index order from zero (as the
// unfused ReduceSum's plain loop adds), four segments at a time as independent chains.
func sumSegments(out, p []float32, b int) {
	h := 0
	for ; h+4 <= len(out); h += 4 {
		p0 := p[h*b:][:b]
		p1, p2, p3 := p[(h+1)*b:][:len(p0)], p[(h+2)*b:][:len(p0)], p[(h+3)*b:][:len(p0)]
		var s0, s1, s2, s3 float32
		for k := range p0 {
			s0 += p0[k]
			s1 += p1[k]
			s2 += p2[k]
			s3 += p3[k]
		}
		out[h], out[h+1], out[h+2], out[h+3] = s0, s1, s2, s3
	}
	for ; h < len(out); h++ {
		var s float32
		for _, v := range p[h*b:][:b] {
			s += v
		}
		out[h] = s
	}
}
