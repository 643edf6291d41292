package layers

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/layers/regularizer"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// failf aborts graph building with an error. GoMLX graph-building functions report bad
// input by panicking with an error value; model.Exec.Call and graph.Exec.Call recover it
// and return it as their error.
func failf(format string, args ...any) {
	panic(fmt.Errorf("layers: "+format, args...))
}

// checkRank fails unless node has the given rank.
func checkRank(what string, node *Node, rank int) {
	if node == nil {
		failf("%s is nil", what)
	}
	if node.Rank() != rank {
		failf("%s must have rank %d, got shape %s", what, rank, node.Shape())
	}
}

// checkFloat fails unless node holds a float dtype.
func checkFloat(what string, node *Node) {
	if !node.DType().IsFloat() {
		failf("%s must be a float tensor, got shape %s", what, node.Shape())
	}
}

// checkIndices fails unless node is a rank-1 integer tensor of length n (n < 0: any).
func checkIndices(what string, node *Node, n int) {
	checkRank(what, node, 1)
	if !node.DType().IsInt() {
		failf("%s must hold integers, got shape %s", what, node.Shape())
	}
	if n >= 0 && node.Shape().Dimensions[0] != n {
		failf("%s must have %d entries, got shape %s", what, n, node.Shape())
	}
}

// checkRate fails unless 0 <= p < 1.
func checkRate(what string, p float64) {
	if !(p >= 0 && p < 1) {
		failf("%s must be in [0, 1), got %g", what, p)
	}
}

// dim returns the size of axis of node.
func dim(node *Node, axis int) int {
	return node.Shape().Dimensions[MustAdjustAxis(axis, node)]
}

// dense is a linear map of the last axis of x to outDim features, plus a bias if useBias,
// with GoMLX's layers.Dense variables: "weights" [in, out] and "biases" [out] in
// scope.In(name).In("dense") (scope.In("dense") for an empty name). See denseParts for
// how it differs from layers.Dense.
func dense(scope *model.Scope, name string, x *Node, useBias bool, outDim int) *Node {
	return denseParts(scope, name, x, useBias, outDim, 1)[0]
}

// denseParts computes parts linear maps of the last axis of x that share one weight
// variable W = [W_0 | W_1 | …] [in, parts·outDim] (and bias [parts·outDim]), returning the
// parts separately: the weights are sliced, never the (large) results.
//
// It uses plain matrix products (DotGeneral) with a custom weight gradient. The generic
// gradient of x·W with respect to W contracts over the rows of x and of the adjoint,
// which the pure-Go backend runs slowly for tall matrices (62 ms for [186k, 40]ᵀ·[186k, 40];
// the fused dense operation of layers.Dense is slower still and always computes the input
// gradient). Here x is transposed once (17 ms), in the backward pass, and each part's
// weight gradient is then a plain product xᵀ·adjoint (2 ms). The input gradient, when
// something needs it, is the generic one.
//
// A map from or to a single feature (in = 1, or out = 1 with one part) is a broadcast
// product (and a row sum), not a matrix product: three times faster, forward and
// backward, for the per-edge maps of the equivariant-stable PE gate.
func denseParts(scope *model.Scope, name string, x *Node, useBias bool, outDim, parts int) []*Node {
	checkFloat("dense input", x)
	if x.Rank() < 1 || outDim <= 0 || parts <= 0 {
		failf("dense %q: need an input of rank ≥ 1 and positive sizes, got shape %s, outDim=%d, parts=%d",
			name, x.Shape(), outDim, parts)
	}
	w, bias := denseVariables(scope, name, x.Graph(), x.DType(), dim(x, -1), parts*outDim, useBias)
	return linearParts(x, w, bias, outDim, parts)
}

// denseVariables returns the weight [inDim, out] and, if useBias, the bias [out] of a
// dense map named name in scope (nil for none), in g, as GoMLX's layers.Dense names and
// initialises them, under scope.In(name).In("dense").
func denseVariables(scope *model.Scope, name string, g *Graph, dtype dtypes.DType, inDim, out int, useBias bool) (w, bias *Node) {
	s := scope
	if name != "" {
		s = s.In("%s", name)
	}
	s = s.In("dense")
	wVar := s.VariableWithShape("weights", shapes.Make(dtype, inDim, out))
	if reg := regularizer.FromScope(s); reg != nil {
		reg(g, wVar)
	}
	if useBias {
		bs := s
		if model.GetParamOr(s, ParamFanInBias, false) {
			limit := 1 / math.Sqrt(float64(max(inDim, 1)))
			bs = s.WithInitializer(initializer.RandomUniformFn(s, -limit, limit))
		}
		bias = bs.VariableWithShape("biases", shapes.Make(dtype, out)).NodeValue(g)
	}
	return wVar.NodeValue(g), bias
}

// ParamFanInBias is the scope parameter (a bool, read from the scope and its parents)
// that makes the dense layers built in a scope initialise their biases as PyTorch's
// nn.Linear does, uniform in ±1/√fan_in with fan_in the input width, where the default
// (false) initialises them as the scope's initializer does (zero with FanInUniform).
// A fused map of several parts draws each part's bias as that of a map of its own.
const ParamFanInBias = "gexph_fan_in_bias"

// Linear is a linear map of the last axis of x to outDim features, plus a bias if
// useBias, with GoMLX's layers.Dense variables ("weights" [in, out] and "biases" [out]
// in scope.In("dense")) and its initialisation, computed as denseParts describes: a
// faster weight gradient on the pure-Go backend than layers.Dense's.
func Linear(scope *model.Scope, x *Node, useBias bool, outDim int) *Node {
	return dense(scope, "", x, useBias, outDim)
}

// LinearParts is Linear for parts maps of x that share one weight [in, parts·outDim]
// (and bias) in scope.In("dense"), returned separately [.., outDim] each: the weights are
// sliced, never the results (see denseParts).
func LinearParts(scope *model.Scope, x *Node, useBias bool, outDim, parts int) []*Node {
	return denseParts(scope, "", x, useBias, outDim, parts)
}

// LinearMap returns x·w for x [.., in] and a weight w [in, out] (a variable's node), with
// the weight gradient of denseParts.
func LinearMap(x, w *Node) *Node {
	checkFloat("matmul input", x)
	checkRank("matmul weight", w, 2)
	if dim(x, -1) != dim(w, 0) {
		failf("matmul: input %s does not match weight %s", x.Shape(), w.Shape())
	}
	return linearParts(x, w, nil, dim(w, 1), 1)[0]
}

// linearParts computes the parts of x·w (+ bias) for denseParts, given the weight and
// bias nodes.
func linearParts(x, w, bias *Node, outDim, parts int) []*Node {
	g := x.Graph()
	dtype := x.DType()
	inDim := dim(x, -1)
	if inDim == 1 || (outDim == 1 && parts == 1) {
		return broadcastDense(x, w, bias, outDim, parts)
	}
	adjoints := make([]*Node, parts) // Gradients of the parts' products, set in the backward pass.
	w = IdentityWithCustomGradient(w, func(_, v *Node) *Node {
		// Xᵀ·A needs one operand transposed: x [rows, in] once for all parts, or each
		// part's adjoint A [rows, out] and then the small [out, in] product — whichever
		// moves less (the node encoder's 767 features against 80 outputs: the adjoints).
		grads := make([]*Node, parts)
		if inDim > parts*outDim {
			for p, adj := range adjoints {
				if adj == nil { // This part does not reach the differentiated output.
					grads[p] = Zeros(g, shapes.Make(dtype, inDim, outDim))
					continue
				}
				aT := Transpose(asMatrix(adj), 0, 1) // [out, rows]
				grads[p] = Transpose(DotGeneral(aT, []int{1}, nil, asMatrix(x), []int{0}, nil), 0, 1)
			}
			clear(adjoints)
			if parts == 1 {
				return grads[0]
			}
			return Concatenate(grads, 1)
		}
		// x is transposed once for all parts, when a part's adjoint is known: computed
		// earlier (nothing else orders it), it would stay alive through the backward pass.
		var after *Node
		for _, adj := range adjoints {
			if adj != nil {
				after = adj
				break
			}
		}
		xm := asMatrix(x)
		if after != nil {
			// A barrier on x copies it (one pass), far cheaper than keeping the transpose
			// alive through the forward pass.
			xm = SchedulingBarrier(xm, after)
		}
		xT := Transpose(xm, 0, 1) // [in, rows]
		for p, adj := range adjoints {
			if adj == nil { // This part does not reach the differentiated output.
				grads[p] = Zeros(g, shapes.Make(dtype, inDim, outDim))
				continue
			}
			grads[p] = DotGeneral(xT, []int{1}, nil, asMatrix(adj), []int{0}, nil)
		}
		clear(adjoints) // A later backward pass captures its own.
		if parts == 1 {
			return grads[0]
		}
		return Concatenate(grads, 1)
	})
	outs := make([]*Node, parts)
	for p := range parts {
		wp := w
		if parts > 1 {
			wp = Slice(w, AxisRange(), AxisRange(p*outDim, (p+1)*outDim))
		}
		y := captureAdjoint(DotGeneral(x, []int{x.Rank() - 1}, nil, wp, []int{0}, nil), &adjoints[p])
		if bias != nil {
			bp := bias
			if parts > 1 {
				bp = Slice(bias, AxisRange(p*outDim, (p+1)*outDim))
			}
			y = Add(y, ExpandLeftToRank(bp, y.Rank()))
		}
		outs[p] = y
	}
	return outs
}

// asMatrix reshapes x to rank 2, merging all axes but the last; a rank-2 x is returned as
// is (a reshape node would copy an input that has other uses).
func asMatrix(x *Node) *Node {
	if x.Rank() == 2 {
		return x
	}
	return Reshape(x, -1, dim(x, -1))
}

// broadcastDense is denseParts for in = 1 or out = 1 (one part): x·W as a broadcast
// product (in = 1) or a product and a sum over the last axis (out = 1), with generic
// gradients.
func broadcastDense(x, w, bias *Node, outDim, parts int) []*Node {
	inDim := dim(x, -1)
	var y *Node
	if inDim == 1 {
		y = Mul(x, ExpandLeftToRank(Reshape(w, parts*outDim), x.Rank())) // [.., parts·out]
	} else {
		y = ReduceAndKeep(Mul(x, ExpandLeftToRank(Reshape(w, inDim), x.Rank())), ReduceSum, -1) // [.., 1]
	}
	if bias != nil {
		y = Add(y, ExpandLeftToRank(bias, y.Rank()))
	}
	if parts == 1 {
		return []*Node{y}
	}
	outs := make([]*Node, parts)
	for p := range parts {
		outs[p] = Slice(y, AxisRange().Spacer(), AxisRange(p*outDim, (p+1)*outDim))
	}
	return outs
}

// SliceParts returns the parts consecutive blocks of width columns of x's last axis
// (which must be parts·width long), as Slice would, with one difference in the backward
// pass: the gradient with respect to x is the concatenation of the parts' gradients (one
// pass writing x's size; a part that reaches no output contributes zeros), where the
// generic gradient of each slice pads it with zeros to x's whole shape and sums the
// padded tensors (parts passes of x's size, and as many additions). For a feature
// encoding of width parts·width split into a layer's input maps (Coauthor CS: 6 maps of
// 512 columns on 18,333 nodes) those passes were a tenth of the training step.
func SliceParts(x *Node, width, parts int) []*Node {
	if x.Rank() < 1 || width <= 0 || parts <= 0 || dim(x, -1) != width*parts {
		failf("SliceParts: %d parts of %d columns need a last axis of %d, got shape %s", parts, width, width*parts, x.Shape())
	}
	if parts == 1 {
		return []*Node{x}
	}
	adjoints := make([]*Node, parts) // Gradients of the parts, set in the backward pass.
	part := x.Shape().Clone()
	part.Dimensions[part.Rank()-1] = width
	x = IdentityWithCustomGradient(x, func(_, _ *Node) *Node {
		grads := make([]*Node, parts)
		for p, adj := range adjoints {
			grads[p] = adj
			if adj == nil { // This part does not reach the differentiated output.
				grads[p] = Zeros(x.Graph(), part)
			}
		}
		clear(adjoints) // A later backward pass captures its own.
		return Concatenate(grads, -1)
	})
	outs := make([]*Node, parts)
	for p := range parts {
		outs[p] = captureAdjoint(Slice(x, AxisRange().Spacer(), AxisRange(p*width, (p+1)*width)), &adjoints[p])
	}
	return outs
}

// captureAdjoint returns x unchanged and, during the backward pass, stores the gradient
// with respect to x in *adjoint before the gradients of x's inputs are computed (the
// reverse pass visits nodes in reverse creation order). Custom gradients of the inputs
// (IdentityWithCustomGradient) use it in place of the generic ones, which are then
// unused and never executed.
//
// Identity nodes are free when their input has no other use (the backend passes the
// buffer through), so gradient functions should reference the identity nodes rather than
// the raw inputs.
func captureAdjoint(x *Node, adjoint **Node) *Node {
	return IdentityWithCustomGradient(x, func(_, v *Node) *Node {
		*adjoint = v
		return v
	})
}

// relu is max(x, 0). Its gradient passes the adjoint where x ≥ 0 and is 0 elsewhere, as
// GoMLX's gradient of Max does, but in two operations on x's shape (a comparison and a
// selection) instead of Max's six (two signs, a shift and a product for each side, and
// the reduction of the side of the constant).
func relu(x *Node) *Node {
	var adjoint *Node
	zero := ScalarZero(x.Graph(), x.DType())
	xs := IdentityWithCustomGradient(x, func(x, _ *Node) *Node {
		if adjoint == nil {
			return ZerosLike(x)
		}
		return Where(GreaterOrEqual(x, zero), adjoint, zero)
	})
	return captureAdjoint(MaxScalar(xs, 0), &adjoint)
}

// sumOf returns terms[0] + terms[1] + …, added in order, or nil for no terms.
func sumOf(terms []*Node) *Node {
	var sum *Node
	for _, t := range terms {
		if sum == nil {
			sum = t
		} else {
			sum = Add(sum, t)
		}
	}
	return sum
}

// rows gathers the rows of x at the rank-1 integer indices idx.
func rows(x, idx *Node) *Node {
	return Gather(x, InsertAxes(idx, -1))
}

// scatterRows sums the rows of updates into a zero tensor with n rows at the rank-1
// integer indices idx.
func scatterRows(updates, idx *Node, n int) *Node {
	dims := updates.Shape().Clone().Dimensions
	dims[0] = n
	zeros := Zeros(updates.Graph(), shapes.Make(updates.DType(), dims...))
	return ScatterSum(zeros, InsertAxes(idx, -1), updates, false, false)
}

// asFloat converts a mask (bool or numeric) to dtype with values 0 and 1.
func asFloat(mask *Node, dtype dtypes.DType) *Node {
	if mask.DType() == dtypes.Bool {
		return ConvertDType(mask, dtype)
	}
	if mask.DType() == dtype {
		return mask
	}
	return ConvertDType(mask, dtype)
}

// safeDenominator returns den with exact zeros replaced by one, so that a 0/0 quotient
// (a node that receives no messages) yields 0; the gradient with respect to den passes
// through unchanged.
func safeDenominator(den *Node) *Node {
	isZero := ConvertDType(Equal(den, ZerosLike(den)), den.DType())
	return Add(den, isZero)
}

// FanInUniform returns the initializer of PyTorch's linear layers, with which the
// paper's hyperparameters were tuned: a weight of rank ≥ 2 is uniform in ±1/√fan_in,
// fan_in being the product of all its dimensions but the last (the input width of a
// [in, out] weight); biases and other variables of rank ≤ 1 are zero. It draws from the
// store's random state, so a seeded store gives the same weights. Use it as
// scope.WithInitializer(FanInUniform(scope)) before building layers.
//
// GoMLX's default, He initialisation (normal, standard deviation √(2/fan_in)), gives
// weights about 2.4 times larger. Behind a batch norm, which makes the loss invariant to
// a weight's scale, the effective learning rate falls with the square of the weight's
// norm: with He weights the paper's learning rates train about six times slower, and
// the 4-layer transductive models with dropout 0.4 reached only 69 % on Cora after 150
// epochs, against 83 % after 40 with this initializer.
func FanInUniform(scope *model.Scope) model.VariableInitializer {
	store := scope.Store()
	return func(g *Graph, shape shapes.Shape) *Node {
		if !shape.DType.IsFloat() || shape.Rank() <= 1 {
			return Zeros(g, shape)
		}
		fanIn := 1
		for _, d := range shape.Dimensions[:shape.Rank()-1] {
			fanIn *= d
		}
		limit := 1 / math.Sqrt(float64(max(fanIn, 1)))
		return AddScalar(MulScalar(store.RandomUniform(g, shape), 2*limit), -limit)
	}
}
