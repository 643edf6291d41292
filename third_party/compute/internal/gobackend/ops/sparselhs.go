// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Products with a sparse operand (gexph patch, see PATCHES.md at the module root). Node
// features of citation and co-authorship graphs are bags of words: Coauthor CS's
// [18,333, 6,805] matrix has 0.9 % of its entries non-zero, Cora's and CiteSeer's 1.3 %
// and 0.9 %. A dense layer on such features is a DotGeneral x · w whose left operand,
// after the backend's normalisation to [M, K] (K the contracted axis), is mostly zeros;
// its weight gradient is gᵀ · x, whose right operand x [K, N] is. The blocked GEMM
// multiplies every zero. This executor, tried before the GEMM on every float32
// DotGeneral without batch axes, looks at run time at an operand at least sparseMinCols
// wide and sparseMinElems large: when a sample of it, and then a count, find at most
// sparseMaxDensity of its entries non-zero, it reads only those.
//   - A sparse left operand x [M, K]: output row m is the sum over the row's non-zero
//     x[m, k], in order of k, of x[m, k] · w[k, …] (fused multiply-adds over SIMD vectors
//     of the row); rows are split among the workers.
//   - A sparse right operand x [N, K] (the backend's transposed layout): outᵀ = x · aᵀ,
//     as above.
//   - A sparse right operand x [K, N] (the weight gradient a · x, a [M, K]): x's entries
//     are listed by column, aᵀ [K, M] is made once, and column n of the output is the sum
//     over x's non-zero x[k, n], in order of k, of x[k, n] · aᵀ[k, …], in tiles of
//     sparseTile values of M (so that the tile of aᵀ stays in the cache); columns are
//     split among the workers, and the [N, M] result is transposed into place.
//
// Otherwise it leaves the product to the GEMM. Each element is summed in order of k, so
// the result does not depend on the number of workers; the GEMM sums in another order,
// so the two agree to float32 rounding, not bit for bit. Zero terms are left out, so a
// zero of x times an infinite or NaN value adds nothing here, where the GEMM's sum would
// be NaN. The backend option "no_fusion" turns it off.

import (
	"math"
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

func init() {
	gobackend.SetNodeExecutor(compute.OpTypeDotGeneral, gobackend.PriorityUser, execSparseDot)
}

const (
	// sparseMinCols is the least contracted width K of a left operand taken: narrower
	// rows (a hidden layer's 40 to 512 values) are dense activations.
	sparseMinCols = 256
	// sparseMinElems is the least size M·K of a left operand taken: below it the GEMM's
	// time is too short to matter.
	sparseMinElems = 1 << 18
	// sparseMaxDensity is the largest share of non-zero entries taken. A rectified
	// layer's output after dropout (about 75 % zeros) stays with the GEMM.
	sparseMaxDensity = 1.0 / 16
	// sparseSample is the number of entries, evenly spaced, looked at before counting.
	sparseSample = 4096
	// sparseChunkRows is the least number of output rows (or columns) a worker gets.
	sparseChunkRows = 32
	// sparseTile is the number of values of M a pass over a sparse right operand's
	// columns computes: a tile of aᵀ, K rows of 1 kB, stays in the cache.
	sparseTile = 256
)

// sparseSizes returns M, K and N of a float32 DotGeneral without batch axes and of a
// layout the executor takes, with its operands' values.
func sparseSizes(node *gobackend.Node, inputs []*gobackend.Buffer) (p *dot.NodeData, a, b []float32, ok bool) {
	p, isDot := node.Data.(*dot.NodeData)
	if !isDot || len(inputs) != 2 || p.BatchSize != 1 || p.InputDType != dtypes.Float32 || p.OutputDType != dtypes.Float32 ||
		node.Shape.DType != dtypes.Float32 || (p.Layout != dot.LayoutNonTransposed && p.Layout != dot.LayoutTransposed) {
		return nil, nil, nil, false
	}
	a, aOK := inputs[0].Flat.([]float32)
	b, bOK := inputs[1].Flat.([]float32)
	m, k, n := p.LHSCrossSize, p.ContractingSize, p.RHSCrossSize
	if !aOK || !bOK || m <= 0 || n <= 0 || k <= 0 || len(a) != m*k || len(b) != k*n {
		return nil, nil, nil, false
	}
	return p, a, b, true
}

// worthLooking tells whether an operand of rows × cols values is wide and large enough
// to look at for zeros.
func worthLooking(rows, cols int) bool { return cols >= sparseMinCols && rows*cols >= sparseMinElems }

// execSparseDot runs a DotGeneral with a sparse operand (see the file comment); any other
// falls back to the next executor.
func execSparseDot(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	if backend.NoFusion {
		return nil, gobackend.ErrFallback
	}
	p, a, b, ok := sparseSizes(node, inputs)
	if !ok {
		return nil, gobackend.ErrFallback
	}
	m, k, n := p.LHSCrossSize, p.ContractingSize, p.RHSCrossSize
	sparseA := worthLooking(m, k) && sparseEnough(backend, a)
	sparseB := !sparseA && worthLooking(k, n) && sparseEnough(backend, b)
	if !sparseA && !sparseB {
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
	switch {
	case sparseA && p.Layout == dot.LayoutTransposed: // b is [N, K].
		bt := make([]float32, k*n)
		transpose2D(backend, b, bt, n, k)
		sparseLHSProduct(backend, out, a, bt, m, k, n)
	case sparseA:
		sparseLHSProduct(backend, out, a, b, m, k, n)
	case p.Layout == dot.LayoutTransposed: // b is [N, K]: outᵀ = b · aᵀ.
		at, outT := make([]float32, k*m), make([]float32, n*m)
		transpose2D(backend, a, at, m, k)
		sparseLHSProduct(backend, outT, b, at, n, k, m)
		transpose2D(backend, outT, out, n, m)
	default:
		sparseRHSProduct(backend, out, a, b, m, k, n)
	}
	backend.SparseProducts.Add(1)
	return output, nil
}

// sparseEnough tells whether at most sparseMaxDensity of x's entries are non-zero: an
// evenly spaced sample first, which turns dense operands away at once, then a count.
func sparseEnough(backend *gobackend.Backend, x []float32) bool {
	step, seen := max(1, len(x)/sparseSample), 0
	for i := 0; i < len(x); i += step {
		if x[i] != 0 {
			seen++
		}
	}
	if float64(seen) > 2*sparseMaxDensity*float64((len(x)+step-1)/step) {
		return false
	}
	const block = 1 << 16
	blocks := (len(x) + block - 1) / block
	counts := make([]int, blocks)
	splitWork(backend, blocks, 4, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			counts[b] = countNonzero(x[b*block : min(len(x), (b+1)*block)])
		}
	})
	nnz := 0
	for _, c := range counts {
		nnz += c
	}
	return float64(nnz) <= sparseMaxDensity*float64(len(x))
}

// countNonzero returns the number of entries of x other than ±0.
func countNonzero(x []float32) int {
	c := 0
	for _, v := range x {
		if math.Float32bits(v)&0x7fffffff != 0 {
			c++
		}
	}
	return c
}

// sparseLHSProduct sets out [M, N] to x [M, K] · w [K, N], reading only x's non-zero
// entries: row m is Σ_k x[m, k] · w[k, …] over k in order, in fused multiply-adds.
func sparseLHSProduct(backend *gobackend.Backend, out, x, w []float32, m, k, n int) {
	splitWork(backend, m, sparseChunkRows, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := out[r*n : (r+1)*n]
			clear(row)
			for kk, v := range x[r*k : (r+1)*k] {
				if v != 0 {
					addScaledRow(row, v, w[kk*n:(kk+1)*n])
				}
			}
		}
	})
}

// addScaledRow sets row[j] = v·w[j] + row[j] in fused multiply-adds.
func addScaledRow(row []float32, v float32, w []float32) {
	vLen := simd.BroadcastFloat32s(0).Len()
	vv := simd.BroadcastFloat32s(v)
	j := 0
	for ; j+vLen <= len(row); j += vLen {
		simd.LoadFloat32s(w[j:]).MulAdd(vv, simd.LoadFloat32s(row[j:])).Store(row[j:])
	}
	if j < len(row) {
		vw, _ := simd.LoadFloat32sPart(w[j:])
		vr, _ := simd.LoadFloat32sPart(row[j:])
		vw.MulAdd(vv, vr).StorePart(row[j:])
	}
}

// sparseRHSProduct sets out [M, N] to a [M, K] · x [K, N], reading only x's non-zero
// entries: outᵀ[n, …] is Σ_k x[k, n] · aᵀ[k, …] over k in order, in fused multiply-adds.
func sparseRHSProduct(backend *gobackend.Backend, out, a, x []float32, m, k, n int) {
	start, rows, vals := sparseColumns(x, k, n)
	at := make([]float32, k*m)
	transpose2D(backend, a, at, m, k)
	outT := make([]float32, n*m)
	for m0 := 0; m0 < m; m0 += sparseTile {
		m1 := min(m, m0+sparseTile)
		splitWork(backend, n, sparseChunkRows, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				col := outT[j*m+m0 : j*m+m1]
				for e := start[j]; e < start[j+1]; e++ {
					r := int(rows[e]) * m
					addScaledRow(col, vals[e], at[r+m0:r+m1])
				}
			}
		})
	}
	transpose2D(backend, outT, out, n, m)
}

// sparseColumns lists the non-zero entries of x [K, N] by column, each column's in order
// of row: column j's rows and values are rows[start[j]:start[j+1]] and vals[…].
func sparseColumns(x []float32, k, n int) (start []int, rows []int32, vals []float32) {
	start = make([]int, n+1)
	for r := range k {
		for j, v := range x[r*n : (r+1)*n] {
			if v != 0 {
				start[j+1]++
			}
		}
	}
	for j := range n {
		start[j+1] += start[j]
	}
	rows, vals = make([]int32, start[n]), make([]float32, start[n])
	next := append([]int(nil), start[:n]...)
	for r := range k {
		for j, v := range x[r*n : (r+1)*n] {
			if v != 0 {
				rows[next[j]], vals[next[j]] = int32(r), v
				next[j]++
			}
		}
	}
	return start, rows, vals
}
