// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Element-wise ops broadcasting whole rows (gexph patch, see PATCHES.md at the module root).
//
// An attention layer with a table of edge types multiplies each node's query by each
// type's row, Mul([N, 1, H, Dh], [1, T, H, Dh]) → [N, T, H, Dh], and its backward pass
// multiplies [N, T, H, Dh] by [N, 1, H, Dh]. No SIMD broadcast pattern covers operands
// that broadcast over an axis in the middle, so these ran element by element through the
// generic iterator. The executor below runs any float32 Add, Sub, Mul or Div whose
// operands agree on a trailing block of axes of at least blockMinWidth elements and,
// on each axis before it, have the output's size or 1: one SIMD row kernel per block.
// Each element is the same operation on the same values, so the results equal the
// generic executor's bit for bit. It is tried after the SIMD executors, which take every
// pattern they know.

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

func init() {
	for op := range blockKernels {
		gobackend.SetNodeExecutor(op, blockPriority, execBlockBroadcast)
	}
}

// blockPriority places the executor after the SIMD ones and before the generic one.
const blockPriority = PrioritySIMD - 1

// blockMinWidth is the least trailing block, in elements, worth a row kernel call.
const blockMinWidth = 8

// blockKernels are the ops the executor runs, with their SIMD row kernels.
var blockKernels = map[compute.OpType]func(lhs, rhs, out []float32){
	compute.OpTypeAdd: simdAddVVFloat32,
	compute.OpTypeSub: simdSubVVFloat32,
	compute.OpTypeMul: simdMulVVFloat32,
	compute.OpTypeDiv: simdDivVVFloat32,
}

// blockPlan is how a broadcasting op walks its blocks: the output's leading dimensions
// (the axes before the common trailing block), each operand's block stride along them (0
// where it broadcasts), and the block width.
type blockPlan struct {
	dims             []int
	lStride, rStride []int
	width            int
}

// planBlocks returns the plan of lhs op rhs → out, or false where the operands do not
// broadcast by whole blocks of at least blockMinWidth elements.
func planBlocks(lhs, rhs, out shapes.Shape) (blockPlan, bool) {
	rank := out.Rank()
	if lhs.Rank() != rank || rhs.Rank() != rank || out.IsDynamic() {
		return blockPlan{}, false
	}
	// The trailing block: the axes where both operands have the output's size.
	k, width := rank, 1
	for k > 0 && lhs.Dimensions[k-1] == out.Dimensions[k-1] && rhs.Dimensions[k-1] == out.Dimensions[k-1] {
		k--
		width *= out.Dimensions[k]
	}
	if width < blockMinWidth || k == 0 {
		return blockPlan{}, false
	}
	p := blockPlan{dims: out.Dimensions[:k], lStride: make([]int, k), rStride: make([]int, k), width: width}
	lBlocks, rBlocks := 1, 1
	for axis := k - 1; axis >= 0; axis-- {
		o := out.Dimensions[axis]
		for _, s := range []struct {
			dim    int
			stride []int
			blocks *int
		}{{lhs.Dimensions[axis], p.lStride, &lBlocks}, {rhs.Dimensions[axis], p.rStride, &rBlocks}} {
			switch s.dim {
			case o:
				if o > 1 {
					s.stride[axis] = *s.blocks
				}
				*s.blocks *= o
			case 1:
			default:
				return blockPlan{}, false
			}
		}
	}
	return p, true
}

// offsets returns the block offsets (in blocks) into lhs and rhs of output block b.
func (p *blockPlan) offsets(b int) (l, r int) {
	for axis := len(p.dims) - 1; axis >= 0; axis-- {
		i := b % p.dims[axis]
		b /= p.dims[axis]
		l += i * p.lStride[axis]
		r += i * p.rStride[axis]
	}
	return l, r
}

// execBlockBroadcast runs a float32 op whose operands broadcast by whole blocks (see the
// file comment), the output's blocks split across the backend's workers; anything else
// falls back.
func execBlockBroadcast(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	kernel, ok := blockKernels[node.OpType]
	if !ok || node.Shape.DType != dtypes.Float32 || len(inputs) != 2 ||
		inputs[0].RawShape.DType != dtypes.Float32 || inputs[1].RawShape.DType != dtypes.Float32 {
		return nil, gobackend.ErrFallback
	}
	plan, ok := planBlocks(inputs[0].RawShape, inputs[1].RawShape, node.Shape)
	if !ok {
		return nil, gobackend.ErrFallback
	}
	lhsBuf, rhsBuf, output, _, _ := binaryOperandsAndOutputForExecution(backend, node, inputs, inputsOwned, node.Shape)
	if backend.NoOps {
		return output, nil
	}
	out := output.Flat.([]float32)
	lhs, rhs := lhsBuf.Flat.([]float32), rhsBuf.Flat.([]float32)
	w := plan.width
	splitWork(backend, len(out)/w, max(1, rowsMinChunk/(4*w)), func(lo, hi int) {
		for b := lo; b < hi; b++ {
			l, r := plan.offsets(b)
			kernel(lhs[l*w:][:w], rhs[r*w:][:w], out[b*w:][:w])
		}
	})
	return output, nil
}
