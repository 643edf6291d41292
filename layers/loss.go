package layers

import (
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
)

// CrossEntropy is the mean softmax cross-entropy of logits [B, C] against class labels
// [B] (integers in [0, C)) over the rows where mask ([B], bool or 0/1; nil: all) is set.
func CrossEntropy(logits, labels, mask *Node) *Node {
	nll, w := nllAndMask(logits, labels, mask)
	return Div(ReduceAllSum(Mul(nll, w)), safeDenominator(ReduceAllSum(w)))
}

// WeightedCrossEntropy is GraphGPS's weighted cross-entropy for unbalanced classes (used
// with class-weighted accuracy on PATTERN and CLUSTER): class c has weight
// (V − n_c)/V, where n_c counts the (masked) batch rows of class c and V all of them,
// and 0 if n_c = 0; the loss is Σ_i w_{y_i}·nll_i / Σ_i w_{y_i}, as torch's weighted
// nll_loss. logits [B, C], labels [B], mask [B] or nil.
func WeightedCrossEntropy(logits, labels, mask *Node) *Node {
	nll, w := nllAndMask(logits, labels, mask)
	numClasses := dim(logits, 1)
	oneHot := Mul(OneHot(labelsAsInt(labels), numClasses, logits.DType()), InsertAxes(w, -1)) // [B, C]
	counts := ReduceSum(oneHot, 0)                                                            // [C]
	total := ReduceAllSum(w)
	classWeight := Div(Sub(total, counts), safeDenominator(total))
	classWeight = Mul(classWeight, ConvertDType(GreaterThan(counts, ZerosLike(counts)), logits.DType()))
	rowWeight := StopGradient(ReduceSum(Mul(oneHot, InsertAxes(classWeight, 0)), -1)) // [B], zero where masked.
	return Div(ReduceAllSum(Mul(nll, rowWeight)), safeDenominator(ReduceAllSum(rowWeight)))
}

// BCEWithLogits is the mean binary cross-entropy of logits against 0/1 labels of the
// same shape (float), over the entries where mask (same shape, bool or 0/1; nil: all) is
// set, computed stably as max(x, 0) − x·y + log(1 + e^{−|x|}). Multi-label tasks with
// missing labels pass them masked out.
func BCEWithLogits(logits, labels, mask *Node) *Node {
	checkFloat("BCE logits", logits)
	if !labels.Shape().EqualDimensions(logits.Shape()) {
		failf("BCE labels %s must have the shape of the logits %s", labels.Shape(), logits.Shape())
	}
	y := ConvertDType(labels, logits.DType())
	loss := Add(Sub(relu(logits), Mul(logits, y)), Log1p(Exp(Neg(Abs(logits)))))
	return maskedMean(loss, mask)
}

// MAE is the mean absolute error between predictions and targets (same shape) over the
// entries where mask (same shape or nil) is set.
func MAE(predictions, targets, mask *Node) *Node {
	checkFloat("MAE predictions", predictions)
	if !targets.Shape().EqualDimensions(predictions.Shape()) {
		failf("MAE targets %s must have the shape of the predictions %s", targets.Shape(), predictions.Shape())
	}
	return maskedMean(Abs(Sub(predictions, ConvertDType(targets, predictions.DType()))), mask)
}

// maskedMean averages values over the entries where mask (same shape or nil) is set.
func maskedMean(values, mask *Node) *Node {
	if mask == nil {
		return ReduceAllMean(values)
	}
	if !mask.Shape().EqualDimensions(values.Shape()) {
		failf("loss mask %s must have shape %v", mask.Shape(), values.Shape().Dimensions)
	}
	w := asFloat(mask, values.DType())
	return Div(ReduceAllSum(Mul(values, w)), safeDenominator(ReduceAllSum(w)))
}

// nllAndMask returns the per-row negative log-likelihood [B] of the labels and the row
// weights [B] (the mask as 0/1, or ones).
func nllAndMask(logits, labels, mask *Node) (nll, w *Node) {
	checkRank("cross-entropy logits", logits, 2)
	checkFloat("cross-entropy logits", logits)
	b := dim(logits, 0)
	checkIndices("cross-entropy labels", labels, b)
	logProbs := LogSoftmax(logits, -1)
	oneHot := OneHot(labelsAsInt(labels), dim(logits, 1), logits.DType())
	nll = Neg(ReduceSum(Mul(logProbs, oneHot), -1))
	if mask == nil {
		return nll, OnesLike(nll)
	}
	checkIndicesOrMask("cross-entropy mask", mask, b)
	return nll, asFloat(mask, logits.DType())
}
