package layers

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/layers/norm"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// BatchNormBuilder configures a batch normalisation of node (or edge) states, with
// PyTorch's BatchNorm1d semantics. Create it with NewBatchNorm and call Done.
type BatchNormBuilder struct {
	scope             *model.Scope
	x, mask           *Node
	momentum, epsilon float64
}

// NewBatchNorm normalises each feature of x [M, D] over its M rows.
//
// In training it uses the statistics of the batch (the mean and the biased variance;
// gradients flow through them) and updates the running averages
// running ← (1 − momentum)·running + momentum·batch, the variance average taking the
// unbiased batch variance. In inference it uses the running averages. A learned scale
// (init 1) and offset (init 0) follow. Variables in scope: "scale", "offset" (trainable),
// "mean", "variance" (running averages).
func NewBatchNorm(scope *model.Scope, x *Node) *BatchNormBuilder {
	return &BatchNormBuilder{scope: scope, x: x, momentum: 0.1, epsilon: 1e-5}
}

// Momentum sets the weight of the batch in the running averages. The default is 0.1.
func (b *BatchNormBuilder) Momentum(momentum float64) *BatchNormBuilder {
	b.momentum = momentum
	return b
}

// Epsilon sets the constant added to the variance. The default is 1e-5.
func (b *BatchNormBuilder) Epsilon(epsilon float64) *BatchNormBuilder {
	b.epsilon = epsilon
	return b
}

// Mask restricts the batch statistics to the rows where mask ([M], bool or 0/1 float) is
// set, e.g. to leave padding or virtual nodes out: the mean and variance are those of the
// masked rows, and the running averages are updated with them (left unchanged by a batch
// without masked rows). All rows are normalised. nil (the default) uses all rows.
func (b *BatchNormBuilder) Mask(mask *Node) *BatchNormBuilder {
	b.mask = mask
	return b
}

// Done builds the normalisation and returns a tensor shaped like x.
func (b *BatchNormBuilder) Done() *Node {
	x := b.x
	checkRank("batch norm input", x, 2)
	checkFloat("batch norm input", x)
	if !(b.momentum >= 0 && b.momentum <= 1) || !(b.epsilon > 0) {
		failf("batch norm: need momentum in [0, 1] and epsilon > 0, got %g and %g", b.momentum, b.epsilon)
	}
	g := x.Graph()
	dtype := x.DType()
	m, d := dim(x, 0), dim(x, 1)
	if b.mask != nil {
		checkIndicesOrMask("batch norm mask", b.mask, m)
	}
	varShape := shapes.Make(dtype, d)
	scale := b.scope.WithInitializer(initializer.One).VariableWithShape("scale", varShape).NodeValue(g)
	offset := b.scope.WithInitializer(initializer.Zero).VariableWithShape("offset", varShape).NodeValue(g)
	meanVar := b.scope.WithInitializer(initializer.Zero).VariableWithShape("mean", varShape).SetTrainable(false)
	varianceVar := b.scope.WithInitializer(initializer.One).VariableWithShape("variance", varShape).SetTrainable(false)

	if !b.scope.IsTraining(g) {
		return affineRows(x, scale, offset, meanVar.NodeValue(g), varianceVar.NodeValue(g), b.epsilon)
	}
	// The batch statistics come from x without a gradient: the gradient of x through
	// them is added in closed form by batchNormInput.
	xs := StopGradient(x)
	var w, count, masked *Node // w [M, 1]: the mask's weights, masked their sum; nil for all rows
	if b.mask != nil {
		w = InsertAxes(asFloat(b.mask, dtype), -1)
		masked = ReduceAllSum(w)
		count = MaxScalar(masked, 1)
	} else {
		count = Scalar(g, dtype, float64(m))
	}
	mean := Div(ReduceSum(weighted(xs, w), 0), count)
	centred := Sub(xs, InsertAxes(mean, 0))
	variance := Div(ReduceSum(weighted(Mul(centred, centred), w), 0), count)
	b.updateRunningAverages(meanVar, varianceVar, mean, variance, masked, count)

	// y = x·a + c with a = scale/√(variance + ε) and c = offset − mean·a. Autodiff gives
	// scale and offset their gradients through a and c, and x the direct term ∂y/∂x.
	var a, gradA, gradC *Node
	inv := Reciprocal(Sqrt(AddScalar(variance, b.epsilon)))
	xg := IdentityWithCustomGradient(x, func(x, v *Node) *Node {
		return batchNormInput(x, v, w, a, mean, inv, gradA, gradC, count)
	})
	a = captureAdjoint(Mul(scale, inv), &gradA)
	c := captureAdjoint(Sub(offset, Mul(mean, a)), &gradC)
	return Add(Mul(xg, InsertAxes(a, 0)), InsertAxes(c, 0))
}

// updateRunningAverages sets running ← (1 − momentum)·running + momentum·batch for the
// mean and the variance (the unbiased batch variance over count rows), leaving both
// unchanged by a masked batch without rows (masked, the mask's sum, is 0; nil: no mask).
func (b *BatchNormBuilder) updateRunningAverages(meanVar, varianceVar *model.Variable, mean, variance, masked, count *Node) {
	g := mean.Graph()
	mom := Scalar(g, mean.DType(), b.momentum)
	unbiased := Div(Mul(variance, count), MaxScalar(SubScalar(count, 1), 1))
	oldMean, oldVariance := meanVar.NodeValue(g), varianceVar.NodeValue(g)
	newMean := Add(Mul(OneMinus(mom), oldMean), Mul(mom, mean))
	newVariance := Add(Mul(OneMinus(mom), oldVariance), Mul(mom, unbiased))
	if masked != nil {
		some := BroadcastToDims(GreaterThan(masked, ScalarZero(g, mean.DType())), dim(mean, 0))
		newMean = Where(some, newMean, oldMean)
		newVariance = Where(some, newVariance, oldVariance)
	}
	meanVar.SetNodeValue(newMean)
	varianceVar.SetNodeValue(newVariance)
}

// affineRows returns (x − mean)/√(variance + ε)·scale + offset for x [M, D] and [D]
// statistics, folded into x·a + c with [D] vectors a and c: two operations on the [M, D]
// tensor instead of four. (Reciprocal of Sqrt rather than Rsqrt, which has no gradient in
// GoMLX.)
func affineRows(x, scale, offset, mean, variance *Node, epsilon float64) *Node {
	a := Mul(scale, Reciprocal(Sqrt(AddScalar(variance, epsilon))))
	c := Sub(offset, Mul(mean, a))
	return Add(Mul(x, InsertAxes(a, 0)), InsertAxes(c, 0))
}

// weighted returns x·w for row weights w [M, 1], or x when w is nil.
func weighted(x, w *Node) *Node {
	if w == nil {
		return x
	}
	return Mul(x, w)
}

// batchNormInput returns the gradient of a training batch norm y = x·a + c with respect to
// its input x [M, D], given v = ∂L/∂y·a (the direct term, from autodiff) and the adjoints
// of a and c (c = offset − mean·a): gradC = Σ_rows ∂L/∂y and gradA = Σ_rows ∂L/∂y·x −
// mean·gradC = Σ_rows ∂L/∂y·(x − mean), the sums autodiff forms for the scale's and the
// offset's gradients, reused here. Through the batch statistics (rows weighted by w,
// count of them, inv = 1/√(variance + ε)) the gradient adds, on each row,
//
//	−w·(a/count)·(gradC + inv²·(x − mean)·gradA) = w·(x·k1 + k0)
//
// with [D] vectors k1 = −a·inv²·gradA/count and k0 = −a·gradC/count − mean·k1: two
// operations on x's shape (three with a mask) and one for the sum, where autodiff through
// the statistics took six.
func batchNormInput(x, v, w, a, mean, inv, gradA, gradC, count *Node) *Node {
	if gradA == nil || gradC == nil {
		return v
	}
	perCount := Div(Neg(a), count)
	k1 := Mul(perCount, Mul(Square(inv), gradA))
	k0 := Sub(Mul(perCount, gradC), Mul(mean, k1))
	return Add(v, weighted(Add(Mul(x, InsertAxes(k1, 0)), InsertAxes(k0, 0)), w))
}

// checkIndicesOrMask fails unless mask is a rank-1 tensor of length m.
func checkIndicesOrMask(what string, mask *Node, m int) {
	checkRank(what, mask, 1)
	if dim(mask, 0) != m {
		failf("%s must have %d entries, got shape %s", what, m, mask.Shape())
	}
}

// layerNorm normalises each row of x over its features (epsilon 1e-5, learned gain and
// offset), with variables in scope.
func layerNorm(scope *model.Scope, x *Node) *Node {
	return norm.LayerNorm(scope, x, -1).Epsilon(1e-5).Done()
}
