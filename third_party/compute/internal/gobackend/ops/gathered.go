// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Gathered operands of element-wise ops (gexph patch, see PATCHES.md at the module root).
//
// Gated message passing combines the rows of its two endpoints per edge,
// Add(Gather(dx, dst), Gather(ex, src)), and its backward pass multiplies them,
// Mul(Gather(g, dst), Gather(bx, src)). Op by op, each gathered operand [E, …] is written
// to memory and read back by the sum or the product. The transformation below lets an
// Add, Sub or Mul of float32 operands of its own shape read a row-gathered operand (used
// by nothing else) straight from the gathered rows; each element is the same operation
// on the same values, so the results are equal bit for bit. The backend option
// "no_fusion" disables it with the other fusions of spmm.go.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.RegisterTransformation(gatheredPriority, &GatheredOperandFusion{})
	for op := range gatheredOps {
		gobackend.SetNodeExecutor(op, gobackend.PriorityUser, execGatheredBinary)
	}
}

// gatheredPriority orders the transformation after spmm.go's, which take the gathers of
// their patterns first.
const gatheredPriority = spmmPriority - 5

// gatheredOps are the ops whose operands may be gathered (run by execGatheredBinary with
// the unfused ops' SIMD kernels).
var gatheredOps = map[compute.OpType]bool{compute.OpTypeAdd: true, compute.OpTypeSub: true, compute.OpTypeMul: true}

// rowSource is one operand of a gathered binary op: the rows of data in order, or
// gathered at idx (clamped to the last row).
type rowSource struct {
	data []float32
	idx  []int32
	last int32
}

// row returns the operand's k-th row of the given width.
func (s *rowSource) row(k, width int) []float32 {
	if s.idx == nil {
		return s.data[k*width:][:width]
	}
	return s.data[clampedRow(s.idx[k], s.last)*width:][:width]
}

// binaryRow sets out = lhs op rhs (Add, Sub or Mul) for a row of at least one SIMD
// vector, out apart from lhs and rhs: whole vectors, the last one ending at the row's end
// (its overlap with the one before computed again, to the same values) instead of a
// partial load and store.
func binaryRow(op compute.OpType, lhs, rhs, out []float32) {
	vLen := simd.BroadcastFloat32s(0).Len()
	w := len(out)
	for k := 0; k < w; k += vLen {
		k = min(k, w-vLen)
		a, b := simd.LoadFloat32s(lhs[k:]), simd.LoadFloat32s(rhs[k:])
		switch op { //nolint:exhaustive
		case compute.OpTypeAdd:
			a = a.Add(b)
		case compute.OpTypeSub:
			a = a.Sub(b)
		default:
			a = a.Mul(b)
		}
		a.Store(out[k:])
	}
}

// gatheredBinary is the Data of a binary op with gathered operands: its inputs are, for
// each operand in order, the rows and the indices of a gathered one or the operand.
type gatheredBinary struct {
	gathered [2]bool
}

// FusionName implements gobackend.Fusion.
func (*gatheredBinary) FusionName() string { return "GatheredOperand" }

// GatheredOperandFusion is the graph transformation that lets an element-wise Add, Sub
// or Mul read its row-gathered operands' rows directly (see the file comment).
type GatheredOperandFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*GatheredOperandFusion) Name() string { return "GatheredOperandFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*GatheredOperandFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, n := range f.Nodes {
		if !gatheredOps[n.OpType] || uses[n.Index] == 0 || len(n.Inputs) != 2 ||
			n.Shape.DType != dtypes.Float32 || n.Shape.IsDynamic() || n.Shape.Rank() < 2 || n.Shape.Dimensions[0] == 0 {
			continue
		}
		if _, fused := n.Data.(*gatheredBinary); fused || !n.Inputs[0].Shape.Equal(n.Shape) || !n.Inputs[1].Shape.Equal(n.Shape) {
			continue
		}
		var p gatheredBinary
		var inputs []*gobackend.Node
		for k, in := range n.Inputs {
			if uses[in.Index] == 1 && isRowGather(in, n.Shape) {
				g := throughReshape(in)
				p.gathered[k] = true
				inputs = append(inputs, g.Inputs[0], g.Inputs[1])
				continue
			}
			inputs = append(inputs, in)
		}
		if p.gathered[0] || p.gathered[1] {
			n.Inputs, n.Data = inputs, &p
			n.ClearCachedExecutor()
		}
	}
	return false, nil
}

// execGatheredBinary runs an op with gathered operands row by row (gathered rows at
// indices clamped as Gather does), the rows split across the backend's workers; any other
// node of these op types falls back.
func execGatheredBinary(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*gatheredBinary)
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
	e := node.Shape.Dimensions[0]
	width := len(out) / e
	var rows [2]rowSource
	next := 0
	for j := range rows {
		rows[j].data = inputs[next].Flat.([]float32)
		if !p.gathered[j] {
			next++
			continue
		}
		rows[j].idx, rows[j].last = inputs[next+1].Flat.([]int32), int32(inputs[next].RawShape.Dimensions[0]-1)
		next += 2
	}
	op := node.OpType
	whole := width >= simd.BroadcastFloat32s(0).Len()
	splitWork(backend, e, max(1, rowsMinChunk/(4*max(width, 1))), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			lhs, rhs, o := rows[0].row(k, width), rows[1].row(k, width), out[k*width:][:width]
			switch {
			case whole:
				binaryRow(op, lhs, rhs, o)
			case op == compute.OpTypeAdd:
				simdAddVVFloat32(lhs, rhs, o)
			case op == compute.OpTypeSub:
				simdSubVVFloat32(lhs, rhs, o)
			default:
				simdMulVVFloat32(lhs, rhs, o)
			}
		}
	})
	return output, nil
}
