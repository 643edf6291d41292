package layers

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// Graph pooling modes (GraphPool).
const (
	PoolMean = "mean" // Mean of the (masked) node states of each graph.
	PoolSum  = "sum"  // Sum of the (masked) node states of each graph.
)

// MLPHead maps x [.., D] through numLayers linear layers (hidden width D, ReLU between,
// none after the last) to [.., outDim] logits or values: GraphGPS's post-message-passing
// head. Variables in scope "layer0", "layer1", …
func MLPHead(scope *model.Scope, x *Node, numLayers, outDim int) *Node {
	checkFloat("head input", x)
	if numLayers < 1 || outDim < 1 {
		failf("MLP head: need numLayers ≥ 1 and outDim ≥ 1, got %d and %d", numLayers, outDim)
	}
	d := dim(x, -1)
	for i := range numLayers - 1 {
		x = relu(dense(scope, fmt.Sprintf("layer%d", i), x, true, d))
	}
	return dense(scope, fmt.Sprintf("layer%d", numLayers-1), x, true, outDim)
}

// GraphPool pools node states x [N, D] into [numGraphs, D] by graphID ([N] in
// [0, numGraphs)), over the nodes where mask ([N], bool or 0/1; nil: all) is set, e.g.
// to leave virtual nodes out. PoolMean of a graph without pooled nodes is 0.
func GraphPool(x, graphID, mask *Node, numGraphs int, mode string) *Node {
	checkRank("pool input", x, 2)
	checkFloat("pool input", x)
	n := dim(x, 0)
	checkIndices("pool graphID", graphID, n)
	if numGraphs <= 0 {
		failf("graph pool: numGraphs must be positive, got %d", numGraphs)
	}
	dtype := x.DType()
	var w *Node
	if mask != nil {
		checkIndicesOrMask("pool mask", mask, n)
		w = asFloat(mask, dtype)
		x = Mul(x, InsertAxes(w, -1))
	}
	sum := scatterRows(x, graphID, numGraphs)
	switch mode {
	case PoolSum:
		return sum
	case PoolMean:
	default:
		failf("graph pool: unknown mode %q (want mean or sum)", mode)
	}
	if w == nil {
		w = OnesLike(ConvertDType(graphID, dtype))
	}
	count := safeDenominator(scatterRows(w, graphID, numGraphs))
	return Div(sum, InsertAxes(count, -1))
}

// GraphHead pools node states by graph (GraphPool) and applies MLPHead: graph
// classification logits, multi-label logits or regression values, [numGraphs, outDim].
func GraphHead(scope *model.Scope, x, graphID, mask *Node, numGraphs int, mode string, numLayers, outDim int) *Node {
	return MLPHead(scope, GraphPool(x, graphID, mask, numGraphs, mode), numLayers, outDim)
}

// LinkScores returns the dot products ⟨x_a[p], x_b[p]⟩ [P] of the node-pair embeddings
// given by the index vectors a and b ([P] integers into the rows of x [N, D]), the
// scores GraphGPS ranks links by.
func LinkScores(x, a, b *Node) *Node {
	checkRank("link embeddings", x, 2)
	checkIndices("link sources", a, -1)
	checkIndices("link targets", b, dim(a, 0))
	return ReduceSum(Mul(rows(x, a), rows(x, b)), -1)
}

// labelsAsInt converts class labels to int32.
func labelsAsInt(labels *Node) *Node {
	if !labels.DType().IsInt() {
		failf("class labels must be integers, got shape %s", labels.Shape())
	}
	return ConvertDType(labels, dtypes.Int32)
}
