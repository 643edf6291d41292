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
	case sparseA: // out = x · b, b [K, N] or, transposed, [N, K].
		sparseProduct(backend, out, xa, m, b, k, n, transposed, false)
	case transposed: // outᵀ = b · aᵀ: the rows of b [N, K] are the columns of x = bᵀ.
		sparseProduct(backend, out, xb, n, a, k, m, true, true)
	default: // outᵀ = xᵀ · aᵀ, x = b [K, N] listed by column.
		sparseProduct(backend, out, xb.columns(n), n, a, k, m, true, true)
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
				part.appendNonZero(x[r*cols : (r+1)*cols])
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

// appendNonZero appends the non-zero entries of row (a negative zero is zero), in order,
// with their indices in row. A bag-of-words row is mostly zeros: a SIMD vector of values
// is compared with zero at a time where the CPU has one (sparselhs_amd64.go), otherwise
// eight values are tested at once, their bits or-ed; only a group with an entry is
// looked into.
func (s *sparseRows) appendNonZero(row []float32) {
	j := s.appendNonZeroVectors(row)
	for ; j+8 <= len(row); j += 8 {
		g := row[j : j+8 : j+8]
		if (math.Float32bits(g[0])|math.Float32bits(g[1])|math.Float32bits(g[2])|math.Float32bits(g[3])|
			math.Float32bits(g[4])|math.Float32bits(g[5])|math.Float32bits(g[6])|math.Float32bits(g[7]))&0x7fffffff == 0 {
			continue
		}
		s.appendGroup(g, j)
	}
	s.appendGroup(row[j:], j)
}

// appendGroup appends the non-zero entries of g, whose first value is column first.
func (s *sparseRows) appendGroup(g []float32, first int) {
	for k, v := range g {
		if math.Float32bits(v)&0x7fffffff != 0 {
			s.cols = append(s.cols, int32(first+k))
			s.vals = append(s.vals, v)
		}
	}
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

// The row kernels (sparseRowTileVectors, and sparselhs_amd64.go's, whose row strides
// are four vectors) hold four vectors of sums: a build with another sparseTileLanes
// fails here instead of summing the wrong columns.
var (
	_ [sparseTileLanes - 4]struct{}
	_ [4 - sparseTileLanes]struct{}
)

// sparseProduct sets the product p [R, C] = s · d of s [R, K], listed by row, and the
// dense d [K, C], held by rows or, with dTransposed, as dᵀ [C, K]: p[r, c] is Σ_k
// s[r, k] · d[k, c] over s's non-zero entries in order of k, in fused multiply-adds, a
// tile of sparseTileLanes SIMD vectors of d's columns at a time, copied contiguous into
// a buffer [K, tile] that stays in the cache (and its pages in the TLB) across the rows
// of s. p goes to out [R, C], or with outTransposed to out [C, R]. Tiles and ranges of
// rows are split among the workers (rows only where there are fewer than 4 tiles a
// worker, so that a narrow tail tile does not leave one worker with most of the work),
// each worker reusing one buffer.
func sparseProduct(backend *gobackend.Backend, out []float32, s sparseRows, rows int, d []float32, k, cols int, dTransposed, outTransposed bool) {
	width := sparseTileLanes * float32Lanes()
	tiles := (cols + width - 1) / width
	p := 1
	if backend.Workers != nil {
		p = backend.Workers.AdjustedMaxParallelism()
	}
	parts := max(1, min((4*p+tiles-1)/tiles, rows/sparseChunkRows))
	per := (rows + parts - 1) / parts
	splitWork(backend, tiles*parts, 1, func(lo, hi int) {
		tile, acc := make([]float32, k*width), make([]float32, width)
		for it := lo; it < hi; it++ {
			part, t := it/tiles, it%tiles
			r0, c0 := part*per, t*width
			if r0 >= rows {
				continue
			}
			w := min(width, cols-c0)
			packTile(tile[:k*w], d, k, cols, c0, w, dTransposed)
			for r := r0; r < min(rows, r0+per); r++ {
				if w == width {
					sparseRowTile(acc, s, r, tile)
				} else {
					clear(acc[:w])
					for e := s.start[r]; e < s.start[r+1]; e++ {
						addScaledRow(acc[:w], s.vals[e], tile[int(s.cols[e])*w:])
					}
				}
				if !outTransposed {
					copy(out[r*cols+c0:], acc[:w])
					continue
				}
				for j, v := range acc[:w] {
					out[(c0+j)*rows+r] = v
				}
			}
		}
	})
}

// packTile copies columns c0 to c0+w of d [K, C] into tile [K, w]; d is held by rows or,
// with transposed, as dᵀ [C, K].
func packTile(tile, d []float32, k, cols, c0, w int, transposed bool) {
	if !transposed {
		for kk := range k {
			copy(tile[kk*w:(kk+1)*w], d[kk*cols+c0:])
		}
		return
	}
	for j := range w {
		for kk, v := range d[(c0+j)*k : (c0+j+1)*k] {
			tile[kk*w+j] = v
		}
	}
}

// sparseRowTile sets acc [4·lanes] to Σ_k s[r, k] · tile[k, …] over row r of s (see
// sparseProduct), in order of k, summing in four vector registers: in amd64's vectors
// without bounds checks where the CPU has AVX-512 or AVX2 (sparselhs_amd64.go),
// otherwise in Go's portable ones.
func sparseRowTile(acc []float32, s sparseRows, r int, tile []float32) {
	cols, vals := s.cols[s.start[r]:s.start[r+1]], s.vals[s.start[r]:s.start[r+1]]
	if !sparseRowTileSIMD(acc, cols, vals, tile) {
		sparseRowTileVectors(acc, cols, vals, tile)
	}
}

// sparseRowTileVectors sets acc [4·lanes] to Σ vals[e] · tile[cols[e], …] in order of e,
// in Go's portable SIMD vectors.
func sparseRowTileVectors(acc []float32, cols []int32, vals []float32, tile []float32) {
	vLen := float32Lanes()
	width := 4 * vLen
	acc0 := simd.BroadcastFloat32s(0)
	acc1, acc2, acc3 := acc0, acc0, acc0
	for e, col := range cols {
		v := simd.BroadcastFloat32s(vals[e])
		c := int(col) * width
		acc0 = simd.LoadFloat32s(tile[c:]).MulAdd(v, acc0)
		acc1 = simd.LoadFloat32s(tile[c+vLen:]).MulAdd(v, acc1)
		acc2 = simd.LoadFloat32s(tile[c+2*vLen:]).MulAdd(v, acc2)
		acc3 = simd.LoadFloat32s(tile[c+3*vLen:]).MulAdd(v, acc3)
	}
	acc0.Store(acc)
	acc1.Store(acc[vLen:])
	acc2.Store(acc[2*vLen:])
	acc3.Store(acc[3*vLen:])
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
