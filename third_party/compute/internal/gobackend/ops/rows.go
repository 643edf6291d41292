// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

// Fast paths for gathers and scatters of whole rows along the first axis (gexph patch,
// see PATCHES.md at the module root).
//
// Graph neural networks move data between nodes and edges with x[idx[e]] (Gather with
// int32 indices [E, 1]) and out[idx[e]] += u[e] (ScatterSum, or ScatterMax) on tensors
// whose first axis is the node or edge axis. The generic executors walk such ops with
// per-element index iterators; these executors recognise the row pattern and copy or
// combine whole rows, splitting the work across the backend's workers: a gather by
// output rows, a scatter by ranges of destination rows (each worker scans all indices
// and applies only the updates whose destination it owns, so no two workers write the
// same row). Any other pattern, dtype or index type falls back to the generic executor.

import (
	"sync"
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

func init() {
	gobackend.SetNodeExecutor(compute.OpTypeGather, gobackend.PriorityTyped, execGatherRows)
	gobackend.SetNodeExecutor(compute.OpTypeScatterSum, gobackend.PriorityTyped, execScatterRows)
	gobackend.SetNodeExecutor(compute.OpTypeScatterMax, gobackend.PriorityTyped, execScatterRows)
}

// rowsMinChunk is the least number of bytes a worker of a row gather or scatter gets.
const rowsMinChunk = 1 << 18

// isLeadingAxes tells whether axes is exactly [from, from+1, …, to).
func isLeadingAxes(axes []int, from, to int) bool {
	if len(axes) != to-from {
		return false
	}
	for i, a := range axes {
		if a != from+i {
			return false
		}
	}
	return true
}

// splitWork runs fn over [0, n) in up to the backend's parallelism of chunks of at least
// minItems items, the first chunk in the calling goroutine; chunks no worker can take at
// once run inline.
func splitWork(backend *gobackend.Backend, n, minItems int, fn func(lo, hi int)) {
	p := 1
	if backend.Workers != nil {
		p = backend.Workers.AdjustedMaxParallelism()
	}
	chunks := min(p, n/max(minItems, 1))
	if chunks <= 1 {
		fn(0, n)
		return
	}
	size := (n + chunks - 1) / chunks
	var wg sync.WaitGroup
	for c := 1; c < chunks; c++ {
		lo, hi := c*size, min(n, (c+1)*size)
		if lo >= hi {
			break
		}
		wg.Add(1)
		task := func() {
			fn(lo, hi)
			wg.Done()
		}
		if !backend.Workers.StartIfAvailable(task) {
			task()
		}
	}
	fn(0, min(n, size))
	wg.Wait()
}

// rowGatherShapes tells whether a gather with data p of operand at indices gathers
// whole rows along the first axis: int32 indices [E, 1], each slice one full row.
func rowGatherShapes(p *gatherNode, operand, indices shapes.Shape) bool {
	rank := operand.Rank()
	if !isIndexColumn(indices) || p.indexVectorAxis != 1 || rank < 1 || operand.Dimensions[0] == 0 ||
		len(p.startIndexMap) != 1 || p.startIndexMap[0] != 0 ||
		len(p.collapsedSlicesAxes) != 1 || p.collapsedSlicesAxes[0] != 0 ||
		!isLeadingAxes(p.offsetOutputAxes, 1, rank) || p.sliceSizes[0] != 1 {
		return false
	}
	for axis := 1; axis < rank; axis++ {
		if p.sliceSizes[axis] != operand.Dimensions[axis] {
			return false
		}
	}
	return true
}

// rowScatterShapes tells whether a scatter with data p of float32 updates into a float32
// operand at indices combines whole rows along the first axis: int32 indices [E, 1],
// updates [E, …] of the operand's rows.
func rowScatterShapes(p *scatterNode, operand, indices, updates shapes.Shape) bool {
	rank := operand.Rank()
	if !isIndexColumn(indices) || p.indexVectorAxis != 1 || rank < 1 ||
		operand.DType != dtypes.Float32 || updates.DType != dtypes.Float32 ||
		len(p.insertedWindowAxes) != 1 || p.insertedWindowAxes[0] != 0 ||
		len(p.scatterAxesToOperandAxes) != 1 || p.scatterAxesToOperandAxes[0] != 0 ||
		!isLeadingAxes(p.updateWindowAxes, 1, rank) || updates.Rank() != rank ||
		updates.Dimensions[0] != indices.Dimensions[0] {
		return false
	}
	for axis := 1; axis < rank; axis++ {
		if updates.Dimensions[axis] != operand.Dimensions[axis] {
			return false
		}
	}
	return true
}

// isIndexColumn tells whether s is a static int32 [E, 1].
func isIndexColumn(s shapes.Shape) bool {
	return s.DType == dtypes.Int32 && !s.IsDynamic() && s.Rank() == 2 && s.Dimensions[1] == 1
}

// clampedRow is index i clamped to [0, last], as Gather clamps out-of-range indices.
func clampedRow(i, last int32) int { return int(max(0, min(last, i))) }

// scatterOutput returns the output buffer of a scatter: its operand where the scatter
// owns it (taken over: inputs[0] is set to nil), else a copy.
func scatterOutput(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	output := inputs[0]
	if inputsOwned[0] {
		inputs[0] = nil // Consumed.
	} else {
		var err error
		if output, err = backend.CloneBuffer(output); err != nil {
			return nil, err
		}
	}
	output.RawShape = node.Shape
	return output, nil
}

// execGatherRows gathers whole rows: output[e] = operand[clamp(idx[e])] for operand
// [N, …], indices [E, 1] int32 and output [E, …].
func execGatherRows(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	operand, startIndices := inputs[0], inputs[1]
	p := node.Data.(*gatherNode)
	idx, ok := startIndices.Flat.([]int32)
	if !ok || !rowGatherShapes(p, operand.RawShape, startIndices.RawShape) {
		return nil, gobackend.ErrFallback
	}
	n := operand.RawShape.Dimensions[0]
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	src, err := operand.MutableBytes()
	if err != nil {
		return nil, err
	}
	dst, err := output.MutableBytes()
	if err != nil {
		return nil, err
	}
	rowBytes := operand.RawShape.DType.Size()
	for _, d := range operand.RawShape.Dimensions[1:] {
		rowBytes *= d
	}
	last := int32(n - 1)
	splitWork(backend, len(idx), max(1, rowsMinChunk/max(rowBytes, 1)), func(lo, hi int) {
		switch rowBytes {
		case 4: // Scalars per row ([N] gathered by [E, 1]).
			s := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(src))), n)
			d := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(idx))
			for e := lo; e < hi; e++ {
				d[e] = s[clampedRow(idx[e], last)]
			}
		default:
			for e := lo; e < hi; e++ {
				i := clampedRow(idx[e], last)
				copy(dst[e*rowBytes:(e+1)*rowBytes], src[i*rowBytes:(i+1)*rowBytes])
			}
		}
	})
	return output, nil
}

// execScatterRows combines whole rows: output[idx[e]] = combine(output[idx[e]],
// updates[e]) for operand [N, …] float32, indices [E, 1] int32 and updates [E, …];
// indices outside [0, N) are skipped, as XLA does.
func execScatterRows(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	operand, indices, updates := inputs[0], inputs[1], inputs[2]
	p := node.Data.(*scatterNode)
	idx, ok := indices.Flat.([]int32)
	if !ok || !rowScatterShapes(p, operand.RawShape, indices.RawShape, updates.RawShape) {
		return nil, gobackend.ErrFallback
	}
	width := operand.RawShape.Size() / max(operand.RawShape.Dimensions[0], 1)
	var combineRow func(out, upd []float32)
	var combine func(a, b float32) float32
	switch node.OpType { //nolint:exhaustive
	case compute.OpTypeScatterSum:
		combineRow = simdOrLoop(combineSliceSumDTypeMap, func(a, b float32) float32 { return a + b })
		combine = func(a, b float32) float32 { return a + b }
	case compute.OpTypeScatterMax:
		combineRow = simdOrLoop(combineSliceMaxDTypeMap, func(a, b float32) float32 { return max(a, b) })
		combine = func(a, b float32) float32 { return max(a, b) }
	default:
		return nil, gobackend.ErrFallback
	}

	n := operand.RawShape.Dimensions[0]
	output, err := scatterOutput(backend, node, inputs, inputsOwned)
	if err != nil {
		return nil, err
	}
	out := output.Flat.([]float32)
	upd := updates.Flat.([]float32)
	// Workers own ranges of destination rows; each scans every index.
	minRows := max(1, rowsMinChunk/(4*max(width, 1)))
	splitWork(backend, n, minRows, func(lo, hi int) {
		l, h := int32(lo), int32(hi)
		if width == 1 {
			for e, i := range idx {
				if i >= l && i < h {
					out[i] = combine(out[i], upd[e])
				}
			}
			return
		}
		if node.OpType == compute.OpTypeScatterSum { // A direct call: through combineRow's function values a row cost a third more.
			lanes := addRowLanes(width)
			for e, i := range idx {
				if i >= l && i < h {
					o := out[int(i)*width:][:width]
					if lanes != 0 {
						addRow(lanes, o, upd[e*width:])
					} else {
						simdAddVVFloat32(o, upd[e*width:][:width], o)
					}
				}
			}
			return
		}
		for e, i := range idx {
			if i >= l && i < h {
				base := int(i) * width
				combineRow(out[base:base+width], upd[e*width:(e+1)*width])
			}
		}
	})
	return output, nil
}

// simdOrLoop returns the registered slice combiner of float32 (SIMD where built with it),
// or a loop of combine.
func simdOrLoop(m *gobackend.DTypeMap, combine func(a, b float32) float32) func(out, upd []float32) {
	if f, err := m.Get(dtypes.Float32); err == nil {
		if fn, ok := f.(func(out, upd []float32)); ok {
			return fn
		}
	}
	return func(out, upd []float32) {
		for i, u := range upd {
			out[i] = combine(out[i], u)
		}
	}
}
