// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Sums of products (gexph patch, see PATCHES.md at the module root).
//
// Reverse-mode autodiff turns every broadcast product y = x ⊙ s into the sum of a product
// for s's gradient: ReduceSum(Mul(g, x), 0) for a per-column factor s [1, C] (a batch
// norm's scale, the rows' mask of a masked batch norm's statistics). Op by op, the
// product [R, C] is written to memory and read back by the sum, two passes over the
// largest tensors of a step where one would do. The transformation below rewrites such a
// column sum of a float32 rank-2 Mul used by nothing else into one node that multiplies
// and adds in registers, in fixed blocks of rows, each summed on its own and then added in
// block order, so the result does not depend on the number of workers. Sums are in
// another order than the unfused reduction's: equal to float32 rounding, not bit for bit.
// (Row sums, ReduceSum(…, 1), are left to the backend's reduction: without a horizontal
// SIMD sum a fused row sum was slower than the product and the reduction apart.)
//
// A batch norm's variance sums the squares of centred values, ReduceSum(Mul(d, d)) or
// ReduceSum(Mul(Mul(d, d), w)) with d = Sub(x, m) for per-column means m [1, C]: the
// centred d and its square are two more [R, C] tensors written and read back. Where
// nothing else reads them, the fused node reads x and m instead and forms (x − m)² in
// registers, the same float32 difference and product as op by op (the same sums as with
// d and its square formed). The backend option "no_fusion" disables it.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

func init() {
	gobackend.RegisterTransformation(productSumPriority, &ProductSumFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeReduceSum, gobackend.PriorityUser, execProductSum)
}

// productSumPriority orders the transformation after the gathered operands' (gathered.go),
// which would otherwise lose the products they read gathered rows into.
const productSumPriority = gatheredPriority - 5

// minProductSumRows is the least number of rows of a fused product.
const minProductSumRows = 1024

// Layouts of the second factor of a fused product, the first being [R, C].
const (
	factorFull   = iota // [R, C]
	factorPerRow        // [R, 1]
	factorPerCol        // [1, C]
	factorNone          // no factor: the sum of the first alone (centred squares only)
)

// productSum is the Data of a fused ReduceSum over axis 0, whose inputs are then x [R, C]
// and the factor s (see the factor layouts; absent for factorNone), and the means m
// [1, C] last when centred: the first factor is then (x − m)².
type productSum struct {
	rows, cols, factor int
	centred            bool
}

// FusionName implements gobackend.Fusion.
func (*productSum) FusionName() string { return "ProductSum" }

// ProductSumFusion is the graph transformation that fuses ReduceSum(Mul(x, s)) into one
// node (see the file comment).
type ProductSumFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*ProductSumFusion) Name() string { return "ProductSumFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*ProductSumFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, n := range f.Nodes {
		if uses[n.Index] == 0 || n.OpType != compute.OpTypeReduceSum || len(n.Inputs) != 1 || n.Shape.DType != dtypes.Float32 {
			continue
		}
		cfg, ok := n.Data.(*ReduceConfig)
		mul := n.Inputs[0]
		if !ok || len(cfg.Axes) != 1 || cfg.Axes[0] != 0 || mul.OpType != compute.OpTypeMul || uses[mul.Index] != 1 || !isBroadcastData(mul) ||
			len(mul.Inputs) != 2 || mul.Shape.DType != dtypes.Float32 || mul.Shape.IsDynamic() || mul.Shape.Rank() != 2 {
			continue
		}
		rows, cols := mul.Shape.Dimensions[0], mul.Shape.Dimensions[1]
		if rows < minProductSumRows || cols == 0 {
			continue
		}
		if x, m, ok := centredSquare(mul, uses); ok { // ReduceSum(Mul(d, d)), d = x − m
			setProductSum(n, []*gobackend.Node{x, m}, &productSum{rows: rows, cols: cols, factor: factorNone, centred: true})
			continue
		}
		for k, x := range mul.Inputs {
			s := mul.Inputs[1-k]
			factor, ok := factorLayout(x.Shape, s.Shape, mul.Shape)
			if !ok {
				continue
			}
			p := &productSum{rows: rows, cols: cols, factor: factor}
			inputs := []*gobackend.Node{x, s}
			if x0, m, ok := centredSquare(x, uses); ok && uses[x.Index] == 1 && x != s {
				p.centred, inputs = true, []*gobackend.Node{x0, s, m}
			}
			setProductSum(n, inputs, p)
			break
		}
	}
	return false, nil
}

// setProductSum makes n the fused node p with the given inputs.
func setProductSum(n *gobackend.Node, inputs []*gobackend.Node, p *productSum) {
	n.Inputs, n.Data = inputs, p
	n.ClearCachedExecutor()
}

// centredSquare returns x and m when sq is Mul(d, d) of d = Sub(x, m), with x of sq's
// shape [R, C], m [1, C], and d read by nothing but sq.
func centredSquare(sq *gobackend.Node, uses []int) (x, m *gobackend.Node, ok bool) {
	if sq.OpType != compute.OpTypeMul || len(sq.Inputs) != 2 || sq.Inputs[0] != sq.Inputs[1] || !isBroadcastData(sq) {
		return nil, nil, false
	}
	d := sq.Inputs[0]
	if d.OpType != compute.OpTypeSub || uses[d.Index] != 2 || len(d.Inputs) != 2 || !isBroadcastData(d) ||
		!d.Inputs[0].Shape.Equal(sq.Shape) || !isPerColumn(d.Inputs[1].Shape, sq.Shape) {
		return nil, nil, false
	}
	return d.Inputs[0], d.Inputs[1], true
}

// factorLayout returns the layout of s when x has the product's shape out [R, C] and s
// is [R, C], [R, 1] or [1, C].
func factorLayout(x, s, out shapes.Shape) (int, bool) {
	switch {
	case !x.Equal(out):
		return 0, false
	case s.Equal(out):
		return factorFull, true
	case isPerRow(s, out):
		return factorPerRow, true
	case isPerColumn(s, out):
		return factorPerCol, true
	}
	return 0, false
}

// execProductSum runs a fused ReduceSum (see productSum); any other ReduceSum falls back.
func execProductSum(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*productSum)
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
	x := inputs[0].Flat.([]float32)
	var s, m []float32
	if p.factor != factorNone {
		s = inputs[1].Flat.([]float32)
	}
	if p.centred {
		m = inputs[len(inputs)-1].Flat.([]float32)
	}
	sumRowBlocks(backend, p.rows, out, func(acc []float32, lo, hi int) {
		for c := 0; c < p.cols; c += productSumGroup {
			columnGroup(p, acc, x, s, m, lo, hi, c)
		}
	})
	return output, nil
}

// factorRow returns the factor's values for row r of the product (one value for a
// per-row factor, nil for none).
func (p *productSum) factorRow(s []float32, r int) []float32 {
	switch p.factor {
	case factorFull:
		return s[r*p.cols : (r+1)*p.cols]
	case factorPerRow:
		return s[r : r+1]
	case factorNone:
		return nil
	}
	return s[:p.cols]
}

// productSumGroup is how many columns columnGroup keeps in registers: four vectors of 16
// lanes (AVX-512), eight of 8 (AVX2), sixteen of 4 (arm64's NEON, AVX).
const productSumGroup = 64

// columnGroup adds Σ_{r∈[lo,hi)} x[r, c]·s(r, c) of p's product (x[r, c] replaced by
// (x[r, c] − m[c])² when centred) for the columns [c0, c0+64) (or to the last column) into
// acc, the sums held in registers over the rows: each column's terms are added in row
// order, as the scalar loop adds them, on any vector width.
func columnGroup(p *productSum, acc, x, s, m []float32, lo, hi, c0 int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	end := min(p.cols, c0+productSumGroup)
	if productSumGroup%vLen != 0 || productSumGroup/vLen > 16 {
		for r := lo; r < hi; r++ {
			sr := p.factorRow(s, r)
			for c := c0; c < end; c++ {
				acc[c] += productTerm(x[r*p.cols+c], sr, m, c)
			}
		}
		return
	}
	var sums, means [16]simd.Float32s
	for i := range sums {
		sums[i] = simd.BroadcastFloat32s(0)
	}
	full := (end - c0) / vLen
	part := c0+full*vLen < end
	if m != nil {
		for i := range (end - c0 + vLen - 1) / vLen {
			means[i], _ = simd.LoadFloat32sPart(m[c0+i*vLen : end])
		}
	}
	perRow, none := p.factor == factorPerRow, p.factor == factorNone
	for r := lo; r < hi; r++ {
		xr, sr := x[r*p.cols+c0:r*p.cols+end], p.factorRow(s, r)
		var sv simd.Float32s
		if perRow {
			sv = simd.BroadcastFloat32s(sr[0])
		} else if !none {
			sr = sr[c0:end]
		}
		for i := range full {
			xv := simd.LoadFloat32s(xr[i*vLen:])
			if m != nil {
				xv = xv.Sub(means[i])
				xv = xv.Mul(xv)
			}
			if !none {
				if !perRow {
					sv = simd.LoadFloat32s(sr[i*vLen:])
				}
				xv = xv.Mul(sv)
			}
			sums[i] = sums[i].Add(xv)
		}
		if part {
			xv, _ := simd.LoadFloat32sPart(xr[full*vLen:])
			if m != nil {
				xv = xv.Sub(means[full])
				xv = xv.Mul(xv)
			}
			if !none {
				if !perRow {
					sv, _ = simd.LoadFloat32sPart(sr[full*vLen:])
				}
				xv = xv.Mul(sv)
			}
			sums[full] = sums[full].Add(xv)
		}
	}
	for i := range (end - c0 + vLen - 1) / vLen {
		c := c0 + i*vLen
		row := acc[c:min(end, c+vLen)]
		o, _ := simd.LoadFloat32sPart(row)
		o.Add(sums[i]).StorePart(row)
	}
}

// productTerm returns v·s(c) for a row's factor values sr (v alone for none), v replaced
// by (v − m[c])² when m is set, each operation rounded as the unfused ops round.
func productTerm(v float32, sr, m []float32, c int) float32 {
	if m != nil {
		d := v - m[c]
		v = float32(d * d)
	}
	if sr == nil {
		return v
	}
	return float32(v * factorAt(sr, c))
}

// factorAt returns the factor's value at column c of a row (its only value for a per-row
// factor).
func factorAt(sr []float32, c int) float32 {
	if len(sr) == 1 {
		return sr[0]
	}
	return sr[c]
}
