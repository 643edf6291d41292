package layers

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// DenseAttentionBuilder configures full (dense) multi-head self-attention restricted to
// the nodes of the same graph: the GraphGPS "Transformer" global model, a baseline for
// Exphormer. Create it with NewDenseAttention and call Done.
type DenseAttentionBuilder struct {
	scope        *model.Scope
	x, graphID   *Node
	numGraphs    int
	numHeads     int
	maxGraphSize int
	dropoutRate  float64
}

// NewDenseAttention attends from every node of x [N, D] to every node of the same graph
// (graphID [N] integers in [0, numGraphs)), like torch.nn.MultiheadAttention on
// to_dense_batch: projections with biases, softmax(QKᵀ/√d_h)V per head, then an output
// projection. The result is exact; by default it forms [H, N, N] scores masked to equal
// graph ids, and with MaxGraphSize it pads each graph instead. Variables in scope: "qkv",
// "output".
func NewDenseAttention(scope *model.Scope, x, graphID *Node, numGraphs, numHeads int) *DenseAttentionBuilder {
	return &DenseAttentionBuilder{scope: scope, x: x, graphID: graphID, numGraphs: numGraphs, numHeads: numHeads}
}

// Dropout sets the dropout rate on the attention probabilities (training only). Default 0.
func (b *DenseAttentionBuilder) Dropout(rate float64) *DenseAttentionBuilder {
	b.dropoutRate = rate
	return b
}

// MaxGraphSize pads each graph to size slots (it must be at least the node count of the
// largest graph), so memory is O(numGraphs·size²·H) instead of O(N²·H). Nodes of a
// graph need not be contiguous. 0 (the default) masks the full [N, N] score matrix.
func (b *DenseAttentionBuilder) MaxGraphSize(size int) *DenseAttentionBuilder {
	b.maxGraphSize = size
	return b
}

// Done builds the layer and returns the new node states [N, D].
func (b *DenseAttentionBuilder) Done() *Node {
	x := b.x
	checkRank("dense attention input x", x, 2)
	checkFloat("dense attention input x", x)
	n, d := dim(x, 0), dim(x, 1)
	if b.numHeads <= 0 || d%b.numHeads != 0 {
		failf("dense attention: hidden size %d is not a positive multiple of numHeads=%d", d, b.numHeads)
	}
	checkIndices("dense attention graphID", b.graphID, n)
	if b.numGraphs <= 0 || b.maxGraphSize < 0 {
		failf("dense attention: need numGraphs > 0 and MaxGraphSize ≥ 0, got %d and %d", b.numGraphs, b.maxGraphSize)
	}
	checkRate("dense attention dropout", b.dropoutRate)
	h := b.numHeads
	dh := d / h
	qkv := denseParts(b.scope, "qkv", x, true, d, 3)

	var groups, size int // Attention runs independently in each of `groups` blocks of `size` slots.
	var slotOf *Node     // Flat slot [N] of each node, in [0, groups·size).
	var keyMask *Node    // [groups, 1, size(q), size(k)] or [groups, 1, 1, size(k)], bool.
	graphID := ConvertDType(b.graphID, dtypes.Int32)
	if b.maxGraphSize == 0 {
		groups, size = 1, n
		slotOf = Iota(x.Graph(), shapes.Make(dtypes.Int32, n), 0)
		same := Equal(InsertAxes(graphID, 1), InsertAxes(graphID, 0)) // [N, N]
		keyMask = Reshape(same, 1, 1, n, n)
	} else {
		groups, size = b.numGraphs, b.maxGraphSize
		slotOf = Add(MulScalar(graphID, size), slotsInGraph(graphID, b.numGraphs))
		ones := Ones(x.Graph(), shapes.Make(dtypes.Int32, n))
		valid := scatterRows(ones, slotOf, groups*size)
		keyMask = Reshape(ConvertDType(valid, dtypes.Bool), groups, 1, 1, size)
	}
	place := func(part int) *Node { // [groups, size, H, dh]
		p := qkv[part]
		if b.maxGraphSize > 0 {
			p = scatterRows(p, slotOf, groups*size)
		}
		return Reshape(p, groups, size, h, dh)
	}
	q, k, v := place(0), place(1), place(2)
	scores := MulScalar(Einsum("gqhd,gkhd->ghqk", q, k), 1/math.Sqrt(float64(dh)))
	mask := BroadcastToDims(keyMask, groups, h, size, size)
	probs := dropout(b.scope, maskedSoftmax(scores, mask), b.dropoutRate)
	out := Reshape(Einsum("ghqk,gkhd->gqhd", probs, v), groups*size, d)
	if b.maxGraphSize > 0 {
		out = rows(out, slotOf)
	}
	return dense(b.scope, "output", out, true, d)
}

// maskedSoftmax is a softmax over the last axis restricted to mask (bool, same shape);
// masked entries, and rows with no unmasked entry, get probability 0 and zero gradient.
func maskedSoftmax(logits, mask *Node) *Node {
	dtype := logits.DType()
	lowest := Scalar(logits.Graph(), dtype, -1e30)
	masked := Where(mask, logits, BroadcastToDims(lowest, logits.Shape().Dimensions...))
	shifted := Sub(masked, StopGradient(ReduceAndKeep(masked, ReduceMax, -1)))
	ex := Mul(Exp(shifted), ConvertDType(mask, dtype))
	den := safeDenominator(ReduceAndKeep(ex, ReduceSum, -1))
	return Div(ex, den)
}

// slotsInGraph returns, for each node, the number of nodes of the same graph with a
// smaller index: its slot when the graph's nodes are laid out in index order. It uses an
// [N, numGraphs] cumulative count.
func slotsInGraph(graphID *Node, numGraphs int) *Node {
	oneHot := OneHot(graphID, numGraphs, dtypes.Int32)           // [N, G]
	before := CumSum(oneHot, 0, &CumSumOptions{Exclusive: true}) // [N, G]
	return ReduceSum(Mul(before, oneHot), -1)                    // [N]
}
