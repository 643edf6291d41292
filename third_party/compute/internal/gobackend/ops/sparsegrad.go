// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Weight gradients of a dense layer on sparse features, without transposes (gexph patch,
// see PATCHES.md at the module root). The gradient of the weights w [F, A] of x · w, with
// x [K, F] the features and g [K, A] the gradient of the output, is xᵀ · g. Autodiff
// writes it as Transpose(DotGeneral(Transpose(g), x)): g is copied transposed, the
// product gᵀ · x [A, F] formed, and that copied transposed again. On Coauthor CS (x
// [18,333, 6,805], A 1,536 to 3,072) the two copies move 77 M floats a step, and the
// sparse product of sparselhs.go reads gᵀ back by columns and writes its output by
// columns. The transformation below rewrites the outer Transpose, when its operand is
// such a product (float32, no batch axes, x wide and large enough to be looked at) and
// nothing else reads the product, into one node of inputs x and g. It runs, when x has
// few non-zero entries (the test of sparselhs.go), as the product of x listed by column
// (the rows of xᵀ) and g read by rows, its output written by rows: the sparse left case
// of sparseProduct, whose sums are in the same order of k as before, so the result is
// the same bit for bit. When x is dense and g sparse (the operands' roles the other way
// round) it runs sparselhs.go's product on gᵀ and writes it transposed; when both are
// dense, the three ops it replaced, the same GEMM on the same operands. The backend
// option "no_fusion" disables it.

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/internal/gobackend/dot"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"
)

func init() {
	gobackend.RegisterTransformation(sparseGradPriority, &SparseGradientFusion{})
	gobackend.SetNodeExecutor(compute.OpTypeTranspose, gobackend.PriorityUser, execSparseGradient)
}

// sparseGradPriority orders the transformation after the forwarded identities and before
// the tall Gram products; a product that the tall Gram kernel takes is left to it.
const sparseGradPriority = spmmPriority + 15

// sparseGradient is the Data of a fused Transpose(DotGeneral(Transpose(g), x)); its
// inputs are x [k, f] and g [k, a], its output xᵀ · g [f, a]. product is the replaced
// DotGeneral's, for the dense case.
type sparseGradient struct {
	k, f, a int
	product *dot.NodeData
}

// FusionName implements gobackend.Fusion.
func (*sparseGradient) FusionName() string { return "SparseGradient" }

// SparseGradientFusion is the graph transformation that fuses the transposes around a
// weight gradient on wide features (see the file comment).
type SparseGradientFusion struct{}

// Name implements gobackend.GraphTransformation.
func (*SparseGradientFusion) Name() string { return "SparseGradientFusion" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*SparseGradientFusion) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	uses := liveUses(f)
	for _, n := range f.Nodes {
		if uses[n.Index] == 0 || n.OpType != compute.OpTypeTranspose {
			continue
		}
		prod, ok := untransposed(n)
		if !ok || uses[prod.Index] != 1 {
			continue
		}
		if _, _, tall := tallGramInputs(prod); tall {
			continue // The tall Gram kernel takes the product (gram.go), as fast on any operand.
		}
		if x, g, p, ok := sparseGradientInputs(prod); ok {
			n.Inputs = []*gobackend.Node{x, g}
			n.Data = &sparseGradient{k: p.ContractingSize, f: p.RHSCrossSize, a: p.LHSCrossSize, product: p}
			n.ClearCachedExecutor()
		}
	}
	return false, nil
}

// sparseGradientInputs returns x and g when prod is DotGeneral(Transpose(g), x), float32
// without batch axes in the non-transposed layout, of g [K, A] and x [K, F] with x wide
// and large enough for the sparse products to look at.
func sparseGradientInputs(prod *gobackend.Node) (x, g *gobackend.Node, p *dot.NodeData, ok bool) {
	p, ok = prod.Data.(*dot.NodeData)
	if !ok || prod.OpType != compute.OpTypeDotGeneral || len(prod.Inputs) != 2 || p.BatchSize != 1 ||
		len(p.LHSBatchAxes) != 0 || p.Layout != dot.LayoutNonTransposed || p.InputDType != dtypes.Float32 ||
		p.OutputDType != dtypes.Float32 || prod.Shape.DType != dtypes.Float32 {
		return nil, nil, nil, false
	}
	g, ok = untransposed(prod.Inputs[0])
	x = prod.Inputs[1]
	k, a, f := p.ContractingSize, p.LHSCrossSize, p.RHSCrossSize
	if !ok || x.Shape.IsDynamic() || x.Shape.DType != dtypes.Float32 || g.Shape.DType != dtypes.Float32 ||
		!sameDims(x.Shape, k, f) || !sameDims(g.Shape, k, a) || !worthLooking(k, f) {
		return nil, nil, nil, false
	}
	return x, g, p, true
}

// sameDims tells whether s is [rows, cols].
func sameDims(s shapes.Shape, rows, cols int) bool {
	return s.Rank() == 2 && s.Dimensions[0] == rows && s.Dimensions[1] == cols
}

// execSparseGradient runs a fused weight gradient (see sparseGradient); any other
// Transpose falls back.
func execSparseGradient(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := node.Data.(*sparseGradient)
	if !ok {
		return nil, gobackend.ErrFallback
	}
	output, err := backend.GetBuffer(node.Shape)
	if err != nil || backend.NoOps {
		return output, err
	}
	out := output.Flat.([]float32)
	x, g := inputs[0].Flat.([]float32), inputs[1].Flat.([]float32)
	var s sparseRows
	switch {
	case listSparse(backend, x, p.k, p.f, &s): // The rows of xᵀ times g, by rows.
		sparseProduct(backend, out, s.columns(p.f), p.f, g, p.k, p.a, false, false)
	case worthLooking(p.a, p.k) && listSparse(backend, g, p.k, p.a, &s): // (gᵀ · x)ᵀ, as sparselhs.go.
		sparseProduct(backend, out, s.columns(p.a), p.a, x, p.k, p.f, false, true)
	default:
		if err := denseGradient(backend, p, inputs[0], inputs[1], out); err != nil {
			backend.PutBuffer(output)
			return nil, err
		}
		return output, nil
	}
	backend.SparseProducts.Add(1)
	return output, nil
}

// denseGradient sets out [f, a] to (gᵀ · x)ᵀ as the replaced ops computed it: g
// transposed, the GEMM of the replaced DotGeneral, its product transposed.
func denseGradient(backend *gobackend.Backend, p *sparseGradient, x, g *gobackend.Buffer, out []float32) error {
	impl := dot.FindRegisteredImplementation(p.product.Layout, dtypes.Float32, dtypes.Float32)
	if impl == nil {
		return errors.Errorf("sparse gradient: no GEMM for layout %s", p.product.Layout)
	}
	gT, err := backend.GetBuffer(shapes.Make(dtypes.Float32, p.a, p.k))
	if err != nil {
		return err
	}
	defer backend.PutBuffer(gT)
	prod, err := backend.GetBuffer(shapes.Make(dtypes.Float32, p.a, p.f))
	if err != nil {
		return err
	}
	defer backend.PutBuffer(prod)
	transpose2D(backend, g.Flat.([]float32), gT.Flat.([]float32), p.k, p.a)
	dot.CallRegisteredImplementation(backend, impl, gT, x, prod, p.product)
	transpose2D(backend, prod.Flat.([]float32), out, p.a, p.f)
	return nil
}
