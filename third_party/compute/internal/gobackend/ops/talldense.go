// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Tall dense products (gexph patch, see PATCHES.md at the module root). A dense layer
// applied to the rows of a tall matrix, x [R, K] · w [K, N] with R edges or nodes and K,
// N a layer's width, and its gradient g [R, N] · wᵀ, are DotGenerals whose long axis is
// a cross axis of the left operand. The backend's blocked GEMM packs all of x into
// panels first (a copy of the largest operand) for a right operand that fits in the L1
// cache, and pads its tiles where the output's columns are no multiple of the SIMD
// width. The transformation below recognises such products with narrow outputs (up to
// 128 columns, of widths where the kernel beats the GEMM on this CPU:
// gobackend.TallDenseFuses) and rewrites them into one node that reads x where it lies:
// for four rows at a time it keeps up to four SIMD vectors of the output's columns per
// row in registers (assembly passes with AVX-512 and AVX2, talldense_amd64.s and
// talldense_avx2_amd64.s; denseRowBlock elsewhere, and for the last rows short of four)
// and adds x[r, k]·w[k, …] over k with fused multiply-adds, w read row by row from the
// cache (wᵀ is transposed once, into a small buffer). Rows are split among the backend's
// workers; each output element is summed over k in order, so the result does not depend
// on the number of workers. The sums are in another order than the GEMM's, so the
// results agree to float32 rounding, not bit for bit. The backend option "no_fusion"
// disables it.

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
)

func init() {
	gobackend.RegisterTransformation(spmmPriority, &TallDenseFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeDotGeneral, gobackend.PriorityUser, execTallDense)
}

// tallDense is the Data of a fused DotGeneral, whose inputs stay x [R, K] and w, [K, N]
// or, when transposed, [N, K].
type tallDense struct {
	r, k, n    int
	transposed bool
	// passes are the assembly passes over the output's columns on this CPU
	// (denseAsmPasses), chosen once when the product is fused; nil: denseRowBlock alone.
	passes []densePass
}

// FusionName implements gobackend.Fusion.
func (*tallDense) FusionName() string { return "TallDense" }

// TallDenseFusion is the graph transformation that marks tall dense products for the
// kernel below (see the file comment).
type TallDenseFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*TallDenseFusion) Name() string { return "TallDenseFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*TallDenseFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, n := range f.Nodes {
		if uses[n.Index] == 0 || n.OpType != compute.OpTypeDotGeneral || len(n.Inputs) != 2 {
			continue
		}
		if d, ok := tallDenseOf(n); ok {
			n.Data = d
			n.ClearCachedExecutor()
		}
	}
	return false, nil
}

// tallDenseOf returns the fused form of n when it is x [R, K] · w [K, N] or x · wᵀ
// (w [N, K]) in float32, without batch axes, with R at least minGramRows and
// gramTallness times K and N, K at most maxGramWidth and N at most maxTallDenseCols, of a
// width this CPU's kernel takes rather than its GEMM (gobackend.TallDenseFuses).
func tallDenseOf(n *gobackend.Node) (*tallDense, bool) {
	p, ok := n.Data.(*dot.NodeData)
	if !ok || p.BatchSize != 1 || len(p.LHSBatchAxes) != 0 || p.InputDType != dtypes.Float32 || p.OutputDType != dtypes.Float32 ||
		n.Shape.DType != dtypes.Float32 || len(p.LHSContractingAxes) != 1 || p.LHSContractingAxes[0] != 1 || len(p.RHSContractingAxes) != 1 {
		return nil, false
	}
	x, w := n.Inputs[0].Shape, n.Inputs[1].Shape
	if x.IsDynamic() || w.IsDynamic() || x.Rank() != 2 || w.Rank() != 2 || x.DType != dtypes.Float32 || w.DType != dtypes.Float32 {
		return nil, false
	}
	d := &tallDense{r: x.Dimensions[0], k: x.Dimensions[1]}
	switch {
	case p.Layout == dot.LayoutNonTransposed && p.RHSContractingAxes[0] == 0 && w.Dimensions[0] == d.k:
		d.n = w.Dimensions[1]
	case p.Layout == dot.LayoutTransposed && p.RHSContractingAxes[0] == 1 && w.Dimensions[1] == d.k:
		d.n, d.transposed = w.Dimensions[0], true
	default:
		return nil, false
	}
	narrow := d.n <= maxTallDenseCols && gobackend.TallDenseFuses(d.n, simd.BroadcastFloat32s(0).Len())
	tall := d.r >= minGramRows && d.r >= gramTallness*max(d.k, d.n) && d.k <= maxGramWidth && narrow && d.k > 0
	d.passes = denseAsmPasses(d.n)
	return d, tall
}

// maxTallDenseCols bounds the output's columns; of those, the CPU's features choose the
// widths the kernel takes (gobackend.TallDenseFuses): with AVX-512 every width but a
// single whole vector, with AVX2 17 to 48 columns but 32 (both in assembly passes), and
// without an assembly GEMM (arm64) the widths off whole vectors up to 48.
const maxTallDenseCols = 128

// tallDenseChunkRows is the least number of rows a worker of a tall dense product gets.
const tallDenseChunkRows = 256

// execTallDense runs a fused DotGeneral (see tallDense); any other falls back.
func execTallDense(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*tallDense)
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
	out, x, w := output.Flat.([]float32), inputs[0].Flat.([]float32), inputs[1].Flat.([]float32)
	if p.transposed {
		wt := make([]float32, p.k*p.n)
		for j := range p.n {
			for kk := range p.k {
				wt[kk*p.n+j] = w[j*p.k+kk]
			}
		}
		w = wt
	}
	blocks, whole := (p.r+3)/4, p.r/4
	splitWork(backend, blocks, tallDenseChunkRows/4, func(lo, hi int) {
		// Whole blocks of four rows in assembly where the CPU and the width allow.
		if top := min(hi, whole); lo < top && denseBlocksAsm(out, x, w, p, lo, top) {
			lo = top
		}
		for b := lo; b < hi; b++ {
			denseRowBlock(out, x, w, p, 4*b, min(p.r, 4*b+4))
		}
	})
	return output, nil
}

// denseRowBlock writes the output rows [r0, r1) (at most four) of x · w.
func denseRowBlock(out, x, w []float32, p *tallDense, r0, r1 int) {
	if r1-r0 < 4 {
		for r := r0; r < r1; r++ {
			for j := range p.n {
				var s float32
				for kk := range p.k {
					s += x[r*p.k+kk] * w[kk*p.n+j]
				}
				out[r*p.n+j] = s
			}
		}
		return
	}
	vLen := simd.BroadcastFloat32s(0).Len()
	z := simd.BroadcastFloat32s(0)
	store := func(s simd.Float32s, i, c int) { s.Store(out[(r0+i)*p.n+c:]) }
	for c := 0; c < p.n; {
		// The row's last vector is a whole one ending at the row's end where the row is a
		// vector or more: the columns it shares with the vector before it are computed
		// again, to the same values, and stored again.
		switch rem := p.n - c; {
		case rem > 2*vLen && rem <= 3*vLen: // Two whole vectors and the last: one pass.
			s := [12]simd.Float32s{}
			s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11] = dense4x3(z, z, z, z, z, z, z, z, z, z, z, z, x, w, r0, p.k, p.n, c, p.n-vLen)
			for i := range 4 {
				store(s[i], i, c)
				store(s[4+i], i, c+vLen)
				store(s[8+i], i, p.n-vLen)
			}
			c = p.n
		case rem >= 2*vLen || rem > vLen:
			c2 := c + vLen
			if rem < 2*vLen {
				c2 = p.n - vLen
			}
			s := [8]simd.Float32s{}
			s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7] = dense4x2(z, z, z, z, z, z, z, z, x, w, r0, p.k, p.n, c, c2)
			for i := range 4 {
				store(s[i], i, c)
				store(s[4+i], i, c2)
			}
			c = c2 + vLen
		default:
			c = max(0, min(c, p.n-vLen)) // The last vector, whole where the row is a vector or more.
			s := [4]simd.Float32s{}
			s[0], s[1], s[2], s[3] = dense4x1(z, z, z, z, x, w, r0, p.k, p.n, c)
			for i := range 4 {
				s[i].StorePart(out[(r0+i)*p.n+c : (r0+i+1)*p.n])
			}
			c = p.n
		}
	}
}

// dense4x2 returns, for the rows r0…r0+3 of x [·, k] and the vectors of w [k, n]'s columns
// at c and c2, Σ_kk x[r, kk]·w[kk, …] as s0…s3 (columns c…) and s4…s7 (columns c2…).
func dense4x2(s0, s1, s2, s3, s4, s5, s6, s7 simd.Float32s, x, w []float32, r0, k, n, c, c2 int) (_, _, _, _, _, _, _, _ simd.Float32s) {
	x0, x1, x2, x3 := x[r0*k:][:k], x[(r0+1)*k:][:k], x[(r0+2)*k:][:k], x[(r0+3)*k:][:k]
	for kk := range k {
		wr := w[kk*n:]
		w0, w1 := simd.LoadFloat32s(wr[c:]), simd.LoadFloat32s(wr[c2:])
		a0, a1, a2, a3 := simd.BroadcastFloat32s(x0[kk]), simd.BroadcastFloat32s(x1[kk]), simd.BroadcastFloat32s(x2[kk]), simd.BroadcastFloat32s(x3[kk])
		s0, s4 = w0.MulAdd(a0, s0), w1.MulAdd(a0, s4)
		s1, s5 = w0.MulAdd(a1, s1), w1.MulAdd(a1, s5)
		s2, s6 = w0.MulAdd(a2, s2), w1.MulAdd(a2, s6)
		s3, s7 = w0.MulAdd(a3, s3), w1.MulAdd(a3, s7)
	}
	return s0, s1, s2, s3, s4, s5, s6, s7
}

// dense4x3 is dense4x2 for the vectors at c, c+vLen and c3 (the row's last one), into
// s0…s3, s4…s7 and s8…s11: four broadcasts of x feed twelve multiply-adds (40 columns in
// one pass with 16-lane vectors, where a pass of 32 and one of the last 8 took eight).
func dense4x3(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11 simd.Float32s, x, w []float32, r0, k, n, c, c3 int) (_, _, _, _, _, _, _, _, _, _, _, _ simd.Float32s) {
	vLen := s0.Len()
	x0, x1, x2, x3 := x[r0*k:][:k], x[(r0+1)*k:][:k], x[(r0+2)*k:][:k], x[(r0+3)*k:][:k]
	for kk := range k {
		wr := w[kk*n:]
		w0, w1, w2 := simd.LoadFloat32s(wr[c:]), simd.LoadFloat32s(wr[c+vLen:]), simd.LoadFloat32s(wr[c3:])
		a0, a1, a2, a3 := simd.BroadcastFloat32s(x0[kk]), simd.BroadcastFloat32s(x1[kk]), simd.BroadcastFloat32s(x2[kk]), simd.BroadcastFloat32s(x3[kk])
		s0, s4, s8 = w0.MulAdd(a0, s0), w1.MulAdd(a0, s4), w2.MulAdd(a0, s8)
		s1, s5, s9 = w0.MulAdd(a1, s1), w1.MulAdd(a1, s5), w2.MulAdd(a1, s9)
		s2, s6, s10 = w0.MulAdd(a2, s2), w1.MulAdd(a2, s6), w2.MulAdd(a2, s10)
		s3, s7, s11 = w0.MulAdd(a3, s3), w1.MulAdd(a3, s7), w2.MulAdd(a3, s11)
	}
	return s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11
}

// dense4x1 is dense4x2 for one vector of columns c… (a partial one in a row shorter than
// a vector).
func dense4x1(s0, s1, s2, s3 simd.Float32s, x, w []float32, r0, k, n, c int) (_, _, _, _ simd.Float32s) {
	x0, x1, x2, x3 := x[r0*k:][:k], x[(r0+1)*k:][:k], x[(r0+2)*k:][:k], x[(r0+3)*k:][:k]
	for kk := range k {
		w0, _ := simd.LoadFloat32sPart(w[kk*n+c : (kk+1)*n])
		s0 = w0.MulAdd(simd.BroadcastFloat32s(x0[kk]), s0)
		s1 = w0.MulAdd(simd.BroadcastFloat32s(x1[kk]), s1)
		s2 = w0.MulAdd(simd.BroadcastFloat32s(x2[kk]), s2)
		s3 = w0.MulAdd(simd.BroadcastFloat32s(x3[kk]), s3)
	}
	return s0, s1, s2, s3
}

// densePass is one assembly pass over the columns of a tall dense product: vecs vectors
// from column c, consecutive but for the last, which starts at column last (it may
// overlap the one before it: both hold the same sums there).
type densePass struct{ vecs, c, last int }

// denseAsmPasses returns the passes that cover n output columns with this CPU's vectors:
// passes of as many vectors as fit, then one of as many as the rest needs, ending at the
// row's end (at least two vectors: a single one is taken with the vector before it), or
// nil where there are no assembly passes or n is one vector or less.
func denseAsmPasses(n int) []densePass {
	l, v := asmLanes()
	if l == 0 || n <= l {
		return nil
	}
	var passes []densePass
	c := 0
	for ; n-c >= v*l; c += v * l {
		passes = append(passes, densePass{v, c, c + (v-1)*l})
	}
	switch need := (n - c + l - 1) / l; {
	case need == 0:
	case need == 1:
		passes = append(passes, densePass{2, n - 2*l, n - l})
	default:
		passes = append(passes, densePass{need, c, n - l})
	}
	return passes
}
