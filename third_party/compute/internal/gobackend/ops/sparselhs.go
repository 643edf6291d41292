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
// wide and sparseMinElems large: when a sample of it finds few non-zero entries, it lists
// them by row in one pass (compressed sparse rows), and when they are at most
// sparseMaxDensity of the entries, it reads only those.
//   - A sparse left operand x [M, K]: out[m, j] is the sum over the row's non-zero
//     x[m, k], in order of k, of x[m, k] · w[k, j], in fused multiply-adds, a tile of
//     sparseTileLanes SIMD vectors of columns of w at a time, summed in registers: the
//     tile of w, made contiguous (K rows of 256 bytes with AVX-512), stays in the cache across the rows
//     of x. Tiles and rows are split among the workers.
//   - A sparse right operand x [K, N] (the weight gradient a · x, a [M, K]): x's entries
//     are listed by column too, and out[i, j] is the sum over column j's non-zero
//     x[k, j], in order of k, of a[i, k] · x[k, j], a tile of rows of a at a time, made
//     into a buffer aᵀ [K, tile] that stays in the cache across the columns of x. A
//     sparse right operand in the backend's transposed layout [N, K] is listed by
//     column already.
//
// Otherwise it leaves the product to the GEMM. Each element is summed in order of k, so
// the result does not depend on the number of workers; the GEMM sums in another order,
// so the two agree to float32 rounding, not bit for bit. Zero terms are left out, so a
// zero of x times an infinite or NaN value adds nothing here, where the GEMM's sum would
// be NaN. The backend option "no_fusion" turns it off.

import (
	"math"
	"simd"
	"sync/atomic"

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
	transposed := p.Layout == dot.LayoutTransposed // b is [N, K], else [K, N].
	var xa, xb sparseRows
	sparseA := worthLooking(m, k) && listSparse(backend, a, m, k, &xa)
	sparseB := !sparseA && (transposed && worthLooking(n, k) || !transposed && worthLooking(k, n))
	if sparseB {
		if transposed {
			sparseB = listSparse(backend, b, n, k, &xb)
		} else {
			sparseB = listSparse(backend, b, k, n, &xb)
		}
	}
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
	case sparseA && transposed:
		bt := make([]float32, k*n)
		transpose2D(backend, b, bt, n, k)
		sparseLHSProduct(backend, out, xa, bt, m, n)
	case sparseA:
		sparseLHSProduct(backend, out, xa, b, m, n)
	case transposed: // The rows of b [N, K] are the columns of the right operand bᵀ.
		sparseRHSProduct(backend, out, a, xb, m, k, n)
	default:
		sparseRHSProduct(backend, out, a, xb.columns(n), m, k, n)
	}
	backend.SparseProducts.Add(1)
	return output, nil
}

// sparseRows lists the non-zero entries of a matrix by row (compressed sparse rows):
// row r's column indices and values are cols[start[r]:start[r+1]] and vals[…], in order
// of column.
type sparseRows struct {
	start []int
	cols  []int32
	vals  []float32
}

// listSparse lists x [R, C]'s non-zero entries into s and tells whether at most
// sparseMaxDensity of them are non-zero: an evenly spaced sample first, which turns
// dense operands away at once, then one pass over x in blocks of rows, in parallel,
// which stops once a block holds more than the bound (s is then incomplete).
func listSparse(backend *gobackend.Backend, x []float32, rows, cols int, s *sparseRows) bool {
	step, seen := max(1, len(x)/sparseSample), 0
	for i := 0; i < len(x); i += step {
		if x[i] != 0 {
			seen++
		}
	}
	if float64(seen) > 2*sparseMaxDensity*float64((len(x)+step-1)/step) {
		return false
	}
	limit := int(sparseMaxDensity * float64(len(x)))
	rowsPerBlock := max(1, (1<<16)/cols)
	blocks := (rows + rowsPerBlock - 1) / rowsPerBlock
	parts := make([]sparseRows, blocks)
	var dense atomic.Bool
	s.start = make([]int, rows+1)
	splitWork(backend, blocks, 4, func(lo, hi int) {
		for bl := lo; bl < hi && !dense.Load(); bl++ {
			part := &parts[bl]
			for r := bl * rowsPerBlock; r < min(rows, (bl+1)*rowsPerBlock); r++ {
				for j, v := range x[r*cols : (r+1)*cols] {
					if math.Float32bits(v)&0x7fffffff != 0 {
						part.cols = append(part.cols, int32(j))
						part.vals = append(part.vals, v)
					}
				}
				s.start[r+1] = len(part.cols)
			}
			if len(part.cols) > limit {
				dense.Store(true)
			}
		}
	})
	nnz := 0
	for _, part := range parts {
		nnz += len(part.cols)
	}
	if dense.Load() || nnz > limit {
		return false
	}
	s.cols, s.vals = make([]int32, 0, nnz), make([]float32, 0, nnz)
	for bl, part := range parts {
		base := len(s.cols)
		for r := bl * rowsPerBlock; r < min(rows, (bl+1)*rowsPerBlock); r++ {
			s.start[r+1] += base
		}
		s.cols, s.vals = append(s.cols, part.cols...), append(s.vals, part.vals...)
	}
	return true
}

// columns lists the entries of s, a matrix of n columns, by column: the rows of its
// transpose, each column's in order of row.
func (s sparseRows) columns(n int) sparseRows {
	t := sparseRows{start: make([]int, n+1), cols: make([]int32, len(s.cols)), vals: make([]float32, len(s.vals))}
	for _, j := range s.cols {
		t.start[j+1]++
	}
	for j := range n {
		t.start[j+1] += t.start[j]
	}
	next := append([]int(nil), t.start[:n]...)
	for r := range len(s.start) - 1 {
		for e := s.start[r]; e < s.start[r+1]; e++ {
			j := s.cols[e]
			t.cols[next[j]], t.vals[next[j]] = int32(r), s.vals[e]
			next[j]++
		}
	}
	return t
}

// sparseTileLanes is the width, in SIMD vectors, of the tiles of columns the products
// compute at a time: each output row's tile is summed in registers, and the tile of the
// dense operand it reads (K rows of this width) stays in the cache across rows.
const sparseTileLanes = 4

// tileWork splits tiles × rows of work into items of one tile and a range of rows, and
// runs fn over them in parallel. Rows are split only where there are fewer than 4
// tiles a worker, so that a tail tile narrower than the others does not leave one
// worker with most of the work; each worker's items are consecutive, ranges of rows
// first.
func tileWork(backend *gobackend.Backend, tiles, rows int, fn func(tile, r0, r1 int)) {
	p := 1
	if backend.Workers != nil {
		p = backend.Workers.AdjustedMaxParallelism()
	}
	parts := max(1, min((4*p+tiles-1)/tiles, rows/sparseChunkRows))
	per := (rows + parts - 1) / parts
	splitWork(backend, tiles*parts, 1, func(lo, hi int) {
		for it := lo; it < hi; it++ {
			part, t := it/tiles, it%tiles
			if r0 := part * per; r0 < rows {
				fn(t, r0, min(rows, r0+per))
			}
		}
	})
}

// sparseLHSProduct sets out [M, N] to x · w for x [M, K] listed by row and w [K, N]: out
// [m, j] is Σ_k x[m, k] · w[k, j] over x's non-zero entries in order of k, in fused
// multiply-adds, a tile of columns of w at a time, copied into a contiguous buffer.
func sparseLHSProduct(backend *gobackend.Backend, out []float32, x sparseRows, w []float32, m, n int) {
	width := sparseTileLanes * float32Lanes()
	k := len(w) / n
	tileWork(backend, (n+width-1)/width, m, func(t, r0, r1 int) {
		j0 := t * width
		if j0+width > n {
			for r := r0; r < r1; r++ {
				row := out[r*n+j0 : (r+1)*n]
				clear(row)
				for e := x.start[r]; e < x.start[r+1]; e++ {
					c := int(x.cols[e]) * n
					addScaledRow(row, x.vals[e], w[c+j0:c+n])
				}
			}
			return
		}
		wt := make([]float32, k*width)
		for kk := range k {
			copy(wt[kk*width:(kk+1)*width], w[kk*n+j0:])
		}
		sparseRowsTile(out[j0:], x, wt, n, r0, r1)
	})
}

// sparseRowsTile sets out[r·n : r·n+4·lanes] for rows r0 to r1 of x · wt, where wt [K,
// 4·lanes] is a tile of w's columns made contiguous (see sparseLHSProduct), summing in
// four vector registers.
func sparseRowsTile(out []float32, x sparseRows, wt []float32, n, r0, r1 int) {
	vLen := float32Lanes()
	width := 4 * vLen
	for r := r0; r < r1; r++ {
		acc0 := simd.BroadcastFloat32s(0)
		acc1, acc2, acc3 := acc0, acc0, acc0
		for e := x.start[r]; e < x.start[r+1]; e++ {
			v := simd.BroadcastFloat32s(x.vals[e])
			c := int(x.cols[e]) * width
			acc0 = simd.LoadFloat32s(wt[c:]).MulAdd(v, acc0)
			acc1 = simd.LoadFloat32s(wt[c+vLen:]).MulAdd(v, acc1)
			acc2 = simd.LoadFloat32s(wt[c+2*vLen:]).MulAdd(v, acc2)
			acc3 = simd.LoadFloat32s(wt[c+3*vLen:]).MulAdd(v, acc3)
		}
		acc0.Store(out[r*n:])
		acc1.Store(out[r*n+vLen:])
		acc2.Store(out[r*n+2*vLen:])
		acc3.Store(out[r*n+3*vLen:])
	}
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

// sparseRHSProduct sets out [M, N] to a [M, K] · x for x [K, N] listed by column (xt,
// the rows of xᵀ): out[i, j] is Σ_k a[i, k] · x[k, j] over x's non-zero entries in order
// of k, in fused multiply-adds, a tile of rows of a at a time, transposed into a buffer
// aᵀ [K, tile] that stays in the cache across the columns of x.
func sparseRHSProduct(backend *gobackend.Backend, out, a []float32, xt sparseRows, m, k, n int) {
	width := sparseTileLanes * float32Lanes()
	tileWork(backend, (m+width-1)/width, n, func(t, j0, j1 int) {
		i0 := t * width
		i1 := min(m, i0+width)
		at := make([]float32, k*width)
		for i := i0; i < i1; i++ {
			for kk, v := range a[i*k : (i+1)*k] {
				at[kk*width+i-i0] = v
			}
		}
		col := make([]float32, width)
		for j := j0; j < j1; j++ {
			if i1-i0 == width {
				sparseColumnTile(col, xt, at, width, j)
			} else {
				clear(col)
				for e := xt.start[j]; e < xt.start[j+1]; e++ {
					r := int(xt.cols[e]) * width
					addScaledRow(col[:i1-i0], xt.vals[e], at[r:r+i1-i0])
				}
			}
			for i := i0; i < i1; i++ {
				out[i*n+j] = col[i-i0]
			}
		}
	})
}

// sparseColumnTile sets col [4·lanes] to Σ_k x[k, j] · at[k, …] over column j of x
// (see sparseRHSProduct), summing in four vector registers.
func sparseColumnTile(col []float32, xt sparseRows, at []float32, width, j int) {
	vLen := float32Lanes()
	acc0 := simd.BroadcastFloat32s(0)
	acc1, acc2, acc3 := acc0, acc0, acc0
	for e := xt.start[j]; e < xt.start[j+1]; e++ {
		v := simd.BroadcastFloat32s(xt.vals[e])
		r := int(xt.cols[e]) * width
		acc0 = simd.LoadFloat32s(at[r:]).MulAdd(v, acc0)
		acc1 = simd.LoadFloat32s(at[r+vLen:]).MulAdd(v, acc1)
		acc2 = simd.LoadFloat32s(at[r+2*vLen:]).MulAdd(v, acc2)
		acc3 = simd.LoadFloat32s(at[r+3*vLen:]).MulAdd(v, acc3)
	}
	acc0.Store(col)
	acc1.Store(col[vLen:])
	acc2.Store(col[2*vLen:])
	acc3.Store(col[3*vLen:])
}
