package layers

import (
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
)

// The losses of the model's tasks. Each averages over the rows (or entries) of a batch
// weighted by weights: [B] row weights (or, where noted, weights shaped like the logits),
// 0/1 float or bool, with 0 leaving a row out — padding rows, or the nodes outside the
// training split of a transductive graph; nil weighs every row 1. A batch with no
// weight gives 0.

// CrossEntropy is the mean softmax cross-entropy Σᵢ wᵢ ℓᵢ / Σᵢ wᵢ of logits [B, C]
// against class labels [B] (integers in [0, C)). With a single logit (C = 1, a binary
// task with labels 0 and 1, as GraphGym models it) ℓ is the sigmoid binary
// cross-entropy.
func CrossEntropy(logits, labels, weights *Node) *Node {
	nll, w := nllAndWeights(logits, labels, weights)
	return Div(ReduceAllSum(Mul(nll, w)), safeDenominator(ReduceAllSum(w)))
}

// WeightedCrossEntropy is GraphGPS's weighted cross-entropy for unbalanced classes (used
// with class-weighted accuracy on PATTERN and CLUSTER): class c has weight
// W_c = (V − n_c)/V, where n_c is the weight of the rows of class c and V that of all
// rows (0 if n_c = 0). With C ≥ 2 logits the loss is Σᵢ wᵢ W_yᵢ ℓᵢ / Σᵢ wᵢ W_yᵢ (torch's
// weighted nll_loss); with a single logit it is Σᵢ wᵢ W_yᵢ ℓᵢ / V (torch's
// binary_cross_entropy_with_logits with per-row weights), ℓ being as in CrossEntropy.
// The class weights are constants for the gradient.
func WeightedCrossEntropy(logits, labels, weights *Node) *Node {
	nll, w := nllAndWeights(logits, labels, weights)
	dtype := logits.DType()
	numClasses := max(dim(logits, 1), 2)
	oneHot := OneHot(labelsAsInt(labels), numClasses, dtype) // [B, C]
	counts := ReduceSum(Mul(oneHot, InsertAxes(w, -1)), 0)   // [C]
	total := ReduceAllSum(w)                                 // V
	present := ConvertDType(GreaterThan(counts, ZerosLike(counts)), dtype)
	classWeight := Mul(Div(Sub(total, counts), safeDenominator(total)), present)
	rowWeight := StopGradient(Mul(ReduceSum(Mul(oneHot, InsertAxes(classWeight, 0)), -1), w)) // [B]
	num := ReduceAllSum(Mul(nll, rowWeight))
	if dim(logits, 1) == 1 {
		return Div(num, safeDenominator(total))
	}
	return Div(num, safeDenominator(ReduceAllSum(rowWeight)))
}

// BCEWithLogits is the mean binary cross-entropy of logits [B, T] against 0/1 targets
// of the same shape, computed stably as max(x, 0) − x·y + log(1 + e^{−|x|}), weighted
// by row weights [B] or by entry weights [B, T] (multi-label tasks with missing labels
// pass those entries with weight 0): Σ w ℓ / Σ w over the entries.
func BCEWithLogits(logits, targets, weights *Node) *Node {
	checkFloat("BCE logits", logits)
	checkSameShape("BCE targets", targets, logits)
	y := ConvertDType(targets, logits.DType())
	return weightedMean(bceWithLogits(logits, y), weights)
}

// MAE is the mean absolute error of predictions [B, T] against targets of the same
// shape, weighted as in BCEWithLogits.
func MAE(predictions, targets, weights *Node) *Node {
	checkFloat("MAE predictions", predictions)
	checkSameShape("MAE targets", targets, predictions)
	return weightedMean(Abs(Sub(predictions, ConvertDType(targets, predictions.DType()))), weights)
}

// MSE is the mean squared error of predictions [B, T] against targets of the same
// shape, weighted as in BCEWithLogits.
func MSE(predictions, targets, weights *Node) *Node {
	checkFloat("MSE predictions", predictions)
	checkSameShape("MSE targets", targets, predictions)
	return weightedMean(Square(Sub(predictions, ConvertDType(targets, predictions.DType()))), weights)
}

// bceWithLogits is the elementwise binary cross-entropy of logits z against targets y.
func bceWithLogits(z, y *Node) *Node {
	return Add(Sub(relu(z), Mul(z, y)), Log1p(Exp(Neg(Abs(z)))))
}

// checkSameShape fails unless x has the dimensions of like.
func checkSameShape(what string, x, like *Node) {
	if x == nil || !x.Shape().EqualDimensions(like.Shape()) {
		failf("%s must have shape %v", what, like.Shape().Dimensions)
	}
}

// weightedMean averages values [B, …] with weights [B] (broadcast over the other axes),
// weights shaped like values, or nil (all 1).
func weightedMean(values, weights *Node) *Node {
	if weights == nil {
		return ReduceAllMean(values)
	}
	w := asFloat(weights, values.DType())
	switch {
	case w.Shape().EqualDimensions(values.Shape()):
	case w.Rank() == 1 && dim(w, 0) == dim(values, 0):
		dims := make([]int, values.Rank())
		for i := range dims {
			dims[i] = 1
		}
		dims[0] = dim(w, 0)
		w = BroadcastToDims(Reshape(w, dims...), values.Shape().Dimensions...)
	default:
		failf("loss weights %s must be [%d] or %v", w.Shape(), dim(values, 0), values.Shape().Dimensions)
	}
	return Div(ReduceAllSum(Mul(values, w)), safeDenominator(ReduceAllSum(w)))
}

// nllAndWeights returns the per-row negative log-likelihood [B] of the labels under
// logits [B, C] (the sigmoid binary cross-entropy when C = 1) and the row weights [B]
// (weights as 0/1 floats, or ones).
func nllAndWeights(logits, labels, weights *Node) (nll, w *Node) {
	checkRank("cross-entropy logits", logits, 2)
	checkFloat("cross-entropy logits", logits)
	b := dim(logits, 0)
	checkIndices("cross-entropy labels", labels, b)
	if dim(logits, 1) == 1 {
		nll = bceWithLogits(Reshape(logits, b), ConvertDType(labels, logits.DType()))
	} else {
		logProbs := LogSoftmax(logits, -1)
		oneHot := OneHot(labelsAsInt(labels), dim(logits, 1), logits.DType())
		nll = Neg(ReduceSum(Mul(logProbs, oneHot), -1))
	}
	if weights == nil {
		return nll, OnesLike(nll)
	}
	checkIndicesOrMask("cross-entropy weights", weights, b)
	return nll, asFloat(weights, logits.DType())
}
