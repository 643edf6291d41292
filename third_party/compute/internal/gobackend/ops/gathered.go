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
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.RegisterTransformation(gatheredPriority, &GatheredOperandFusion{})
	for op := range gatheredKernels {
		gobackend.SetNodeExecutor(op, gobackend.PriorityUser, execGatheredBinary)
	}
}

// gatheredPriority orders the transformation after spmm.go's, which take the gathers of
// their patterns first.
const gatheredPriority = spmmPriority - 5

// gatheredKernels are the ops whose operands may be gathered, with their SIMD kernels.
var gatheredKernels = map[compute.OpType]func(lhs, rhs, out []float32){
	compute.OpTypeAdd: simdAddVVFloat32,
	compute.OpTypeSub: simdSubVVFloat32,
	compute.OpTypeMul: simdMulVVFloat32,
}

// gatheredBinary is the Data of a binary op with gathered operands: its inputs are, for
// each operand in order, the rows and the indices of a gathered one or the operand.
type gatheredBinary struct {
	gathered [2]bool
}

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
		if _, ok := gatheredKernels[n.OpType]; !ok || uses[n.Index] == 0 || len(n.Inputs) != 2 ||
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
func execGatheredBinary(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
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
	var rows [2]func(k int) []float32
	next := 0
	for j := range rows {
		data := inputs[next].Flat.([]float32)
		if !p.gathered[j] {
			rows[j] = func(k int) []float32 { return data[k*width:][:width] }
			next++
			continue
		}
		idx, last := inputs[next+1].Flat.([]int32), int32(inputs[next].RawShape.Dimensions[0]-1)
		rows[j] = func(k int) []float32 { return data[clampedRow(idx[k], last)*width:][:width] }
		next += 2
	}
	kernel := gatheredKernels[node.OpType]
	splitWork(backend, e, max(1, rowsMinChunk/(4*max(width, 1))), func(lo, hi int) {
		for k := lo; k < hi; k++ {
			kernel(rows[0](k), rows[1](k), out[k*width:][:width])
		}
	})
	return output, nil
}
