// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Tall Gram products (gexph patch, see PATCHES.md at the module root). The gradient of a
// dense layer's weights applied to the rows of a tall matrix, x [K, M] · w [M, N] with K
// edges and M, N a layer's width, is xᵀ·g: a DotGeneral that contracts the long axis K
// of both operands. The backend writes it as a transpose of x (a copy of all of x) and a
// matrix product of [M, K] by [K, N] whose output is a small [M, N] block, a shape the
// blocked GEMM kernels are not made for. The transformation below recognises
// DotGeneral(Transpose(x), g) of that kind and rewrites it into one node that reads x
// and g row by row, as they lie in memory, and adds each row's outer product
// x[k]ᵀ·g[k] into registers, 64 rows at a time, in fixed blocks of rows shared among the
// backend's workers and added in block order (the result does not depend on the number
// of workers). The sums are in another order than the GEMM's, so the results agree to
// float32 rounding, not bit for bit. The backend option "no_fusion" disables it.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

func init() {
	gobackend.RegisterTransformation(spmmPriority, &TallGramFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeDotGeneral, gobackend.PriorityUser, execTallGram)
}

// Sizes of the products the fusion takes: the contracted axis at least minGramRows long
// and gramTallness times the longer of the other two, which are at most maxGramWidth.
const (
	minGramRows   = 2048
	gramTallness  = 16
	maxGramWidth  = 256
	gramChunkRows = 64
	// Rows are summed in blocks of gramBlockRows (more where there would be more than
	// maxGramBlocks), the unit of work of the backend's workers.
	gramBlockRows = 4096
	maxGramBlocks = 64
)

// tallGram is the Data of a fused DotGeneral, whose inputs are then x [K, M] and g [K, N].
type tallGram struct{ k, m, n int }

// TallGramFusion is the graph transformation that fuses DotGeneral(Transpose(x), g)
// into one node (see the file comment).
type TallGramFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*TallGramFusion) Name() string { return "TallGramFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*TallGramFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, n := range f.Nodes {
		if uses[n.Index] == 0 || n.OpType != compute.OpTypeDotGeneral || len(n.Inputs) != 2 {
			continue
		}
		if x, g, ok := tallGramInputs(n); ok {
			p := n.Data.(*dot.NodeData)
			n.Inputs = []*gobackend.Node{x, g}
			n.Data = &tallGram{k: p.ContractingSize, m: p.LHSCrossSize, n: p.RHSCrossSize}
			n.ClearCachedExecutor()
		}
	}
	return false, nil
}

// FusionName implements gobackend.Fusion.
func (*tallGram) FusionName() string { return "TallGram" }

// tallGramInputs returns x and g when n is DotGeneral(Transpose(x), g) or
// DotGeneral(Transpose(x), Transpose(g)) (the layouts the backend gives xᵀ·g) of tall
// float32 x [K, M] and g [K, N] contracting K, with no batch axes.
func tallGramInputs(n *gobackend.Node) (x, g *gobackend.Node, ok bool) {
	p, ok := n.Data.(*dot.NodeData)
	if !ok || p.BatchSize != 1 || len(p.LHSBatchAxes) != 0 || p.InputDType != dtypes.Float32 ||
		p.OutputDType != dtypes.Float32 || n.Shape.DType != dtypes.Float32 {
		return nil, nil, false
	}
	x, ok = untransposed(n.Inputs[0])
	switch p.Layout {
	case dot.LayoutNonTransposed:
		g = n.Inputs[1]
	case dot.LayoutTransposed:
		var gok bool
		g, gok = untransposed(n.Inputs[1])
		ok = ok && gok
	default:
		ok = false
	}
	k, m, w := p.ContractingSize, p.LHSCrossSize, p.RHSCrossSize
	if !ok || g.Shape.IsDynamic() || g.Shape.Rank() != 2 || x.Shape.Dimensions[0] != k || x.Shape.Dimensions[1] != m ||
		g.Shape.Dimensions[0] != k || g.Shape.Dimensions[1] != w {
		return nil, nil, false
	}
	tall := k >= minGramRows && k >= gramTallness*max(m, w) && m <= maxGramWidth && w <= maxGramWidth
	return x, g, tall
}

// untransposed returns the input of t when t transposes a static rank-2 tensor.
func untransposed(t *gobackend.Node) (*gobackend.Node, bool) {
	perm, ok := t.Data.([]int)
	if t.OpType != compute.OpTypeTranspose || !ok || len(perm) != 2 || perm[0] != 1 || perm[1] != 0 || len(t.Inputs) != 1 {
		return nil, false
	}
	in := t.Inputs[0]
	return in, !in.Shape.IsDynamic() && in.Shape.Rank() == 2
}

// execTallGram runs a fused DotGeneral (see tallGram); any other DotGeneral falls back.
func execTallGram(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*tallGram)
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
	x, g := inputs[0].Flat.([]float32), inputs[1].Flat.([]float32)
	sumRowBlocks(backend, p.k, out, func(acc []float32, lo, hi int) {
		for r := lo; r < hi; r += gramChunkRows {
			gramChunk(acc, x, g, r, min(hi, r+gramChunkRows), p.m, p.n)
		}
	})
	return output, nil
}

// sumRowBlocks sets out to the sum over the rows [0, rows) of what add adds into a zeroed
// acc (of out's length) for the rows [lo, hi): in fixed blocks of rows (gramBlockRows,
// more where there would be more than maxGramBlocks) shared among the backend's workers,
// each summed into its own partial sums, added in block order, so the result does not
// depend on the number of workers.
func sumRowBlocks(backend *gobackend.Backend, rows int, out []float32, add func(acc []float32, lo, hi int)) {
	blockRows := max(gramBlockRows, (rows+maxGramBlocks-1)/maxGramBlocks)
	blocks := (rows + blockRows - 1) / blockRows
	partial := make([]float32, blocks*len(out))
	splitWork(backend, blocks, 1, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			add(partial[b*len(out):(b+1)*len(out)], b*blockRows, min(rows, (b+1)*blockRows))
		}
	})
	copy(out, partial[:len(out)])
	for b := 1; b < blocks; b++ {
		for i, v := range partial[b*len(out) : (b+1)*len(out)] {
			out[i] += v
		}
	}
}

// gramChunk adds Σ_{r∈[lo,hi)} x[r]ᵀ·g[r] into acc [m, n]: for each block of four rows of
// acc and each vector of its columns, the chunk's sums stay in four registers.
func gramChunk(acc, x, g []float32, lo, hi, m, n int) {
	vLen := simd.BroadcastFloat32s(0).Len()
	a := 0
	for ; a+4 <= m; a += 4 {
		for c := 0; c < n; {
			z := simd.BroadcastFloat32s(0)
			if vLen > 8 && c+4*vLen <= n {
				var s [16]simd.Float32s
				if !gramAsm(s[:], x, g, lo, hi, m, n, a, c, c+vLen, c+2*vLen, c+3*vLen) {
					s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15] =
						gramFull4(z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, x, g, lo, hi, m, n, a, c)
				}
				for i := range 4 {
					for j := range 4 {
						addToRow(acc[(a+i)*n+c+j*vLen:], s[4*j+i], vLen)
					}
				}
				c += 4 * vLen
				continue
			}
			if c+2*vLen < n && c+3*vLen >= n { // Two whole vectors, then the row's last one.
				var s [12]simd.Float32s
				if !gramAsm(s[:], x, g, lo, hi, m, n, a, c, c+vLen, n-vLen) {
					s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11] = gramFull3(z, z, z, z, z, z, z, z, z, z, z, z, x, g, lo, hi, m, n, a, c, n-vLen)
				}
				for i := range 4 {
					addToRow(acc[(a+i)*n+c:], s[i], vLen)
					addToRow(acc[(a+i)*n+c+vLen:], s[4+i], vLen)
					addTail(acc[(a+i)*n+n-vLen:(a+i)*n+n], s[8+i], c+2*vLen-(n-vLen))
				}
				break
			}
			if c+2*vLen <= n {
				var s [8]simd.Float32s
				if !gramAsm(s[:], x, g, lo, hi, m, n, a, c, c+vLen) {
					s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7] = gramFull2(z, z, z, z, z, z, z, z, x, g, lo, hi, m, n, a, c, c+vLen)
				}
				for i := range 4 {
					addToRow(acc[(a+i)*n+c:], s[i], vLen)
					addToRow(acc[(a+i)*n+c+vLen:], s[4+i], vLen)
				}
				c += 2 * vLen
				continue
			}
			if c+vLen < n && n >= 2*vLen { // A whole vector, then the row's last one (overlapping it).
				var s [8]simd.Float32s
				if !gramAsm(s[:], x, g, lo, hi, m, n, a, c, n-vLen) {
					s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7] = gramFull2(z, z, z, z, z, z, z, z, x, g, lo, hi, m, n, a, c, n-vLen)
				}
				for i := range 4 {
					addToRow(acc[(a+i)*n+c:], s[i], vLen)
					addTail(acc[(a+i)*n+n-vLen:(a+i)*n+n], s[4+i], c+vLen-(n-vLen))
				}
				break
			}
			var s [4]simd.Float32s
			switch {
			case c+vLen <= n:
				s[0], s[1], s[2], s[3] = gramFull(z, z, z, z, x, g, lo, hi, m, n, a, c)
			case n >= vLen: // The row's last whole vector, whose first lanes were added already.
				s[0], s[1], s[2], s[3] = gramFull(z, z, z, z, x, g, lo, hi, m, n, a, n-vLen)
				for i := range s {
					addTail(acc[(a+i)*n+n-vLen:(a+i)*n+n], s[i], c-(n-vLen))
				}
				c = n
				continue
			default:
				s[0], s[1], s[2], s[3] = gramPart(z, z, z, z, x, g, lo, hi, m, n, a, c)
			}
			for i := range s {
				addToRow(acc[(a+i)*n+c:(a+i)*n+n], s[i], vLen)
			}
			c += vLen
		}
	}
	for ; a < m; a++ {
		for c := 0; c < n; c++ {
			var sum float32
			for r := lo; r < hi; r++ {
				sum += x[r*m+a] * g[r*n+c]
			}
			acc[a*n+c] += sum
		}
	}
}

// addTail adds the lanes from skip on of s to row (one vector's values): the row's last
// whole vector, whose first skip lanes a vector before it covered.
func addTail(row []float32, s simd.Float32s, skip int) {
	var lanes [16]float32
	s.Store(lanes[:len(row)])
	for i := skip; i < len(row); i++ {
		row[i] += lanes[i]
	}
}

// addToRow adds s to the first min(len(row), vLen) values of row.
func addToRow(row []float32, s simd.Float32s, vLen int) {
	row = row[:min(len(row), vLen)]
	o, _ := simd.LoadFloat32sPart(row)
	o.Add(s).StorePart(row)
}

// gramFull4 is gramFull2 for four full vectors of g[r] at columns c, c+vLen, c+2vLen and
// c+3vLen, into s0…s3, s4…s7, s8…s11 and s12…s15: sixteen multiply-adds a row.
func gramFull4(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15 simd.Float32s, x, g []float32, lo, hi, m, n, a, c int) (_, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _ simd.Float32s) {
	vLen := s0.Len()
	for r := lo; r < hi; r++ {
		gr := g[r*n+c:]
		g0, g1, g2, g3 := simd.LoadFloat32s(gr), simd.LoadFloat32s(gr[vLen:]), simd.LoadFloat32s(gr[2*vLen:]), simd.LoadFloat32s(gr[3*vLen:])
		xr := x[r*m+a:][:4]
		x0, x1, x2, x3 := simd.BroadcastFloat32s(xr[0]), simd.BroadcastFloat32s(xr[1]), simd.BroadcastFloat32s(xr[2]), simd.BroadcastFloat32s(xr[3])
		s0, s4, s8, s12 = g0.MulAdd(x0, s0), g1.MulAdd(x0, s4), g2.MulAdd(x0, s8), g3.MulAdd(x0, s12)
		s1, s5, s9, s13 = g0.MulAdd(x1, s1), g1.MulAdd(x1, s5), g2.MulAdd(x1, s9), g3.MulAdd(x1, s13)
		s2, s6, s10, s14 = g0.MulAdd(x2, s2), g1.MulAdd(x2, s6), g2.MulAdd(x2, s10), g3.MulAdd(x2, s14)
		s3, s7, s11, s15 = g0.MulAdd(x3, s3), g1.MulAdd(x3, s7), g2.MulAdd(x3, s11), g3.MulAdd(x3, s15)
	}
	return s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15
}

// gramFull2 adds, for rows [lo, hi), x[r][a..a+3] times the full vectors of g[r] at
// columns c and c2 (c+vLen, or the row's last vector) to s0…s3 and s4…s7: each row's two
// loads of g and four of x feed eight multiply-adds.
func gramFull2(s0, s1, s2, s3, s4, s5, s6, s7 simd.Float32s, x, g []float32, lo, hi, m, n, a, c, c2 int) (_, _, _, _, _, _, _, _ simd.Float32s) {
	for r := lo; r < hi; r++ {
		g0 := simd.LoadFloat32s(g[r*n+c:])
		g1 := simd.LoadFloat32s(g[r*n+c2:])
		xr := x[r*m+a:][:4]
		x0, x1, x2, x3 := simd.BroadcastFloat32s(xr[0]), simd.BroadcastFloat32s(xr[1]), simd.BroadcastFloat32s(xr[2]), simd.BroadcastFloat32s(xr[3])
		s0, s4 = g0.MulAdd(x0, s0), g1.MulAdd(x0, s4)
		s1, s5 = g0.MulAdd(x1, s1), g1.MulAdd(x1, s5)
		s2, s6 = g0.MulAdd(x2, s2), g1.MulAdd(x2, s6)
		s3, s7 = g0.MulAdd(x3, s3), g1.MulAdd(x3, s7)
	}
	return s0, s1, s2, s3, s4, s5, s6, s7
}

// gramFull3 is gramFull2 for the full vectors of g[r] at columns c, c+vLen and c3 (the
// row's last vector), into s0…s3, s4…s7 and s8…s11: four broadcasts of x feed twelve
// multiply-adds (a layer of 40 columns in one pass with 16-lane vectors).
func gramFull3(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11 simd.Float32s, x, g []float32, lo, hi, m, n, a, c, c3 int) (_, _, _, _, _, _, _, _, _, _, _, _ simd.Float32s) {
	vLen := s0.Len()
	for r := lo; r < hi; r++ {
		gr := g[r*n:]
		g0, g1, g2 := simd.LoadFloat32s(gr[c:]), simd.LoadFloat32s(gr[c+vLen:]), simd.LoadFloat32s(gr[c3:])
		xr := x[r*m+a:][:4]
		x0, x1, x2, x3 := simd.BroadcastFloat32s(xr[0]), simd.BroadcastFloat32s(xr[1]), simd.BroadcastFloat32s(xr[2]), simd.BroadcastFloat32s(xr[3])
		s0, s4, s8 = g0.MulAdd(x0, s0), g1.MulAdd(x0, s4), g2.MulAdd(x0, s8)
		s1, s5, s9 = g0.MulAdd(x1, s1), g1.MulAdd(x1, s5), g2.MulAdd(x1, s9)
		s2, s6, s10 = g0.MulAdd(x2, s2), g1.MulAdd(x2, s6), g2.MulAdd(x2, s10)
		s3, s7, s11 = g0.MulAdd(x3, s3), g1.MulAdd(x3, s7), g2.MulAdd(x3, s11)
	}
	return s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11
}

// gramFull adds, for rows [lo, hi), x[r][a..a+3] times the full vector of g[r] at column
// c to s0…s3.
func gramFull(s0, s1, s2, s3 simd.Float32s, x, g []float32, lo, hi, m, n, a, c int) (_, _, _, _ simd.Float32s) {
	for r := lo; r < hi; r++ {
		gv := simd.LoadFloat32s(g[r*n+c:])
		xr := x[r*m+a:][:4]
		s0 = gv.MulAdd(simd.BroadcastFloat32s(xr[0]), s0)
		s1 = gv.MulAdd(simd.BroadcastFloat32s(xr[1]), s1)
		s2 = gv.MulAdd(simd.BroadcastFloat32s(xr[2]), s2)
		s3 = gv.MulAdd(simd.BroadcastFloat32s(xr[3]), s3)
	}
	return s0, s1, s2, s3
}

// gramPart is gramFull for the last, partial vector of g's columns.
func gramPart(s0, s1, s2, s3 simd.Float32s, x, g []float32, lo, hi, m, n, a, c int) (_, _, _, _ simd.Float32s) {
	for r := lo; r < hi; r++ {
		gv, _ := simd.LoadFloat32sPart(g[r*n+c : r*n+n])
		xr := x[r*m+a:][:4]
		s0 = gv.MulAdd(simd.BroadcastFloat32s(xr[0]), s0)
		s1 = gv.MulAdd(simd.BroadcastFloat32s(xr[1]), s1)
		s2 = gv.MulAdd(simd.BroadcastFloat32s(xr[2]), s2)
		s3 = gv.MulAdd(simd.BroadcastFloat32s(xr[3]), s3)
	}
	return s0, s1, s2, s3
}
