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
// SIMD sum a fused row sum was slower than the product and the reduction apart.) The
// backend option "no_fusion" disables it.

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
)

// productSum is the Data of a fused ReduceSum over axis 0, whose inputs are then x [R, C]
// and the factor s (see the factor layouts).
type productSum struct {
	rows, cols, factor int
}

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
		for k, x := range mul.Inputs {
			s := mul.Inputs[1-k]
			factor, ok := factorLayout(x.Shape, s.Shape, mul.Shape)
			if !ok {
				continue
			}
			n.Inputs = []*gobackend.Node{x, s}
			n.Data = &productSum{rows: rows, cols: cols, factor: factor}
			n.ClearCachedExecutor()
			break
		}
	}
	return false, nil
}

// factorLayout returns the layout of s when x has the product's shape out [R, C] and s
// is [R, C], [R, 1] or [1, C].
func factorLayout(x, s, out shapes.Shape) (int, bool) {
	if !x.Equal(out) || s.DType != dtypes.Float32 || s.Rank() != 2 || s.IsDynamic() {
		return 0, false
	}
	r, c := out.Dimensions[0], out.Dimensions[1]
	switch {
	case s.Dimensions[0] == r && s.Dimensions[1] == c:
		return factorFull, true
	case s.Dimensions[0] == r && s.Dimensions[1] == 1:
		return factorPerRow, true
	case s.Dimensions[0] == 1 && s.Dimensions[1] == c:
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
	x, s := inputs[0].Flat.([]float32), inputs[1].Flat.([]float32)
	p.columnSums(backend, x, s, out)
	return output, nil
}

// factorRow returns the factor's values for row r of the product (one value for a
// per-row factor).
func (p *productSum) factorRow(s []float32, r int) []float32 {
	switch p.factor {
	case factorFull:
		return s[r*p.cols : (r+1)*p.cols]
	case factorPerRow:
		return s[r : r+1]
	}
	return s[:p.cols]
}

// columnSums writes Σ_r x[r, c]·s(r, c) into out [C], in the fixed blocks of rows of
// sumRowBlocks.
func (p *productSum) columnSums(backend *gobackend.Backend, x, s, out []float32) {
	sumRowBlocks(backend, p.rows, out, func(acc []float32, lo, hi int) {
		for c := 0; c < p.cols; c += productSumGroup {
			columnGroup(p, acc, x, s, lo, hi, c)
		}
	})
}

// productSumGroup is how many columns columnGroup keeps in registers: four vectors of 16.
const productSumGroup = 64

// columnGroup adds Σ_{r∈[lo,hi)} x[r, c]·s(r, c) of p's product for the columns
// [c0, c0+64) (or to the last column) into acc, the sums held in four registers over the
// rows.
func columnGroup(p *productSum, acc, x, s []float32, lo, hi, c0 int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	end := min(p.cols, c0+productSumGroup)
	if vLen*4 != productSumGroup {
		for r := lo; r < hi; r++ {
			sr := p.factorRow(s, r)
			for c := c0; c < end; c++ {
				acc[c] += x[r*p.cols+c] * factorAt(sr, c)
			}
		}
		return
	}
	var sums [4]simd.Float32s
	for i := range sums {
		sums[i] = simd.BroadcastFloat32s(0)
	}
	full := (end - c0) / vLen
	part := c0+full*vLen < end
	for r := lo; r < hi; r++ {
		xr, sr := x[r*p.cols+c0:r*p.cols+end], p.factorRow(s, r)
		perRow := p.factor == factorPerRow
		if !perRow {
			sr = sr[c0:end]
		}
		sv := simd.BroadcastFloat32s(sr[0])
		for i := range full {
			if !perRow {
				sv = simd.LoadFloat32s(sr[i*vLen:])
			}
			sums[i] = sums[i].Add(simd.LoadFloat32s(xr[i*vLen:]).Mul(sv))
		}
		if part {
			xv, _ := simd.LoadFloat32sPart(xr[full*vLen:])
			if !perRow {
				sv, _ = simd.LoadFloat32sPart(sr[full*vLen:])
			}
			sums[full] = sums[full].Add(xv.Mul(sv))
		}
	}
	for i := range (end - c0 + vLen - 1) / vLen {
		c := c0 + i*vLen
		row := acc[c:min(end, c+vLen)]
		o, _ := simd.LoadFloat32sPart(row)
		o.Add(sums[i]).StorePart(row)
	}
}

// factorAt returns the factor's value at column c of a row (its only value for a per-row
// factor).
func factorAt(sr []float32, c int) float32 {
	if len(sr) == 1 {
		return sr[0]
	}
	return sr[c]
}
