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

	var mean, variance *Node
	if b.scope.IsTraining(g) {
		var count *Node
		if b.mask != nil {
			w := InsertAxes(asFloat(b.mask, dtype), -1) // [M, 1]
			count = ReduceAllSum(w)
			safeCount := MaxScalar(count, 1)
			mean = Div(ReduceSum(Mul(x, w), 0), safeCount)
			variance = batchVariance(x, mean, w, safeCount)
		} else {
			count = Scalar(g, dtype, float64(m))
			mean = ReduceMean(x, 0)
			variance = batchVariance(x, mean, nil, count)
		}
		// Running averages (no gradient).
		mom := Scalar(g, dtype, b.momentum)
		unbiased := Div(Mul(StopGradient(variance), count), MaxScalar(SubScalar(count, 1), 1))
		oldMean, oldVariance := meanVar.NodeValue(g), varianceVar.NodeValue(g)
		newMean := Add(Mul(OneMinus(mom), oldMean), Mul(mom, StopGradient(mean)))
		newVariance := Add(Mul(OneMinus(mom), oldVariance), Mul(mom, unbiased))
		if b.mask != nil {
			some := BroadcastToDims(GreaterThan(count, ScalarZero(g, dtype)), d)
			newMean = Where(some, newMean, oldMean)
			newVariance = Where(some, newVariance, oldVariance)
		}
		meanVar.SetNodeValue(newMean)
		varianceVar.SetNodeValue(newVariance)
	} else {
		mean, variance = meanVar.NodeValue(g), varianceVar.NodeValue(g)
	}
	// y = (x − mean)/√(variance + ε)·scale + offset, folded into y = x·a + c with [D]
	// vectors a and c: two operations on the [M, D] tensor instead of four. (Reciprocal of
	// Sqrt rather than Rsqrt, which has no gradient in GoMLX.)
	a := Mul(scale, Reciprocal(Sqrt(AddScalar(variance, b.epsilon))))
	c := Sub(offset, Mul(mean, a))
	return Add(Mul(x, InsertAxes(a, 0)), InsertAxes(c, 0))
}

// batchVariance returns the (biased) variance of the rows of x [M, D] around their mean
// [D], Σ w (x − mean)² / count over the rows weighted by w ([M, 1], nil: all 1). Its
// gradient with respect to x, 2 w (x − mean) / count times the adjoint (the mean's term
// vanishes: the weighted deviations sum to zero), is computed in the backward pass from x
// and the mean, so that the centred [M, D] tensor is not kept from the forward pass —
// one node tensor less per batch norm alive through the step.
func batchVariance(x, mean, w, count *Node) *Node {
	var adjoint *Node
	centred := func(x *Node) *Node {
		d := Sub(x, InsertAxes(StopGradient(mean), 0))
		if w != nil {
			return Mul(d, w)
		}
		return d
	}
	xs := IdentityWithCustomGradient(x, func(_, _ *Node) *Node {
		if adjoint == nil {
			return ZerosLike(x)
		}
		scale := Div(MulScalar(adjoint, 2), count)
		return Mul(centred(x), InsertAxes(scale, 0))
	})
	d := Sub(xs, InsertAxes(StopGradient(mean), 0))
	sq := Square(d)
	if w != nil {
		sq = Mul(sq, w)
	}
	return captureAdjoint(Div(ReduceSum(sq, 0), count), &adjoint)
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
