package layers

import (
	"math"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	glayers "github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
)

// dropout applies inverted dropout with rate p in training and is the identity otherwise.
// Its mask and values are GoMLX's layers.DropoutStatic's, from the same draws of the
// scope's random state (dropMask), element for element.
func dropout(scope *model.Scope, x *Node, p float64) *Node {
	g := x.Graph()
	if p <= 0 || !glayers.IsDropoutActive(scope, g) {
		return x
	}
	if !x.DType().IsFloat() {
		return glayers.DropoutStatic(scope, x, p)
	}
	rate := Scalar(g, dtypes.Float32, p)
	drop := dropMask(scope, g, shapes.Make(dtypes.Float32, x.Shape().Dimensions...), p)
	return Div(Where(drop, ZerosLike(x), x), ConvertDType(OneMinus(rate), x.DType()))
}

// dropMask draws a dropout mask of rate p over shape from the scope's random state: true
// where an element is dropped, u ≤ p for u = scope.RandomUniform(shape). For float32 it
// compares the random bits b themselves with a threshold instead (dropLimit): the same
// bools from the same draws, in one pass over the shape where u ≤ p takes five (the
// bits' conversion, three passes to make uniforms of it, the comparison).
func dropMask(scope *model.Scope, g *Graph, shape shapes.Shape, p float64) *Node {
	u := scope.RandomUniform(g, shape)
	if shape.DType == dtypes.Float32 {
		if limit, ok := dropLimit(float32(p)); ok {
			if b := uniformBits(u); b != nil {
				return LessOrEqual(b, Scalar(g, dtypes.Uint32, limit))
			}
		}
	}
	return LessOrEqual(u, Scalar(g, shape.DType, p))
}

// dropLimit returns the largest uint32 b with min(|float32(b)·2⁻³²|, 1⁻) ≤ p, the uniform
// that GoMLX's RandomUniform makes of the random bits b (1⁻ the float32 before 1), for
// 0 ≤ p < 1⁻: there the product is exact and non-negative, so the uniform is at most p
// exactly when float32(b) ≤ p·2³², and the conversion rounds b up or down monotonically,
// so those b are 0 … limit. false for p outside that range.
func dropLimit(p float32) (uint32, bool) {
	if !(p >= 0 && p < math.Nextafter32(1, 0)) {
		return 0, false
	}
	// Bisect for the first b whose conversion exceeds p·2³² (b = 0 never does).
	t, lo, hi := float64(p)*(1<<32), uint64(0), uint64(1)<<32
	for lo < hi {
		if mid := (lo + hi) / 2; float64(float32(uint32(mid))) > t {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return uint32(lo - 1), true
}

// uniformBits returns the uint32 random bits b that u = StopGradient(Min(Abs(Mul(
// ConvertDType(b), 2⁻³²)), 1⁻)), GoMLX's RandomUniform for float32, is made of, or nil
// when u is not of that form (another GoMLX version): each node's type, both constants
// and the dtypes are checked.
func uniformBits(u *Node) *Node {
	if u.Type() != NodeTypeIdentity || len(u.Inputs()) != 1 {
		return nil
	}
	abs := operandBeside(u.Inputs()[0], NodeTypeMin, math.Nextafter32(1, 0))
	if abs == nil || abs.Type() != NodeTypeAbs {
		return nil
	}
	c := operandBeside(abs.Inputs()[0], NodeTypeMul, 1.0/(1<<32))
	if c == nil || c.Type() != NodeTypeConvertDType || c.DType() != dtypes.Float32 {
		return nil
	}
	if b := c.Inputs()[0]; b.DType() == dtypes.Uint32 && slices.Equal(b.Shape().Dimensions, u.Shape().Dimensions) {
		return b
	}
	return nil
}

// operandBeside returns the first operand of n when n is a binary op of type t whose
// second operand is the float32 scalar constant c, and nil otherwise.
func operandBeside(n *Node, t NodeType, c float32) *Node {
	if n.Type() != t || len(n.Inputs()) != 2 {
		return nil
	}
	v := n.Inputs()[1].ConstantValue()
	if v == nil || v.DType() != dtypes.Float32 || !v.Shape().IsScalar() || v.Value().(float32) != c {
		return nil
	}
	return n.Inputs()[0]
}
