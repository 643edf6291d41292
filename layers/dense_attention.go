package layers

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// DenseAttentionBuilder configures full (dense) multi-head self-attention restricted to
// the nodes of the same graph: the GraphGPS "Transformer" global model, a baseline for
// Exphormer. Create it with NewDenseAttention and call Done.
type DenseAttentionBuilder struct {
	scope         *model.Scope
	x, blockNodes *Node
	numHeads      int
	dropoutRate   float64
}

// NewDenseAttention attends from every node of x [N, D] to every node of the same graph,
// like torch.nn.MultiheadAttention on to_dense_batch: projections with biases,
// softmax(QKᵀ/√d_h)V per head, then an output projection. The result is exact.
//
// The graphs are given by their block layout blockNodes [G, S] (integers): row g lists
// the nodes of graph g in slots 0..S−1, −1 marking an empty slot; every node appears in
// at most one slot (nodes in none, e.g. virtual nodes, attend to nothing: their
// output is the output projection's bias); see
// expander.BlockNodes. Memory is O(G·S²·H) for the scores. A single graph of N nodes is
// one block: blockNodes [[0, 1, …, N−1]]. Variables in scope: "qkv", "output".
func NewDenseAttention(scope *model.Scope, x, blockNodes *Node, numHeads int) *DenseAttentionBuilder {
	return &DenseAttentionBuilder{scope: scope, x: x, blockNodes: blockNodes, numHeads: numHeads}
}

// Dropout sets the dropout rate on the attention probabilities (training only). Default 0.
func (b *DenseAttentionBuilder) Dropout(rate float64) *DenseAttentionBuilder {
	b.dropoutRate = rate
	return b
}

// Done builds the layer and returns the new node states [N, D].
func (b *DenseAttentionBuilder) Done() *Node {
	x := b.x
	checkRank("dense attention input x", x, 2)
	checkFloat("dense attention input x", x)
	_, d := dim(x, 0), dim(x, 1)
	if b.numHeads <= 0 || d%b.numHeads != 0 {
		failf("dense attention: hidden size %d is not a positive multiple of numHeads=%d", d, b.numHeads)
	}
	checkRate("dense attention dropout", b.dropoutRate)
	blocks := newBlockLayout("dense attention", b.blockNodes, x)
	h := b.numHeads
	dh := d / h
	qkv := denseParts(b.scope, "qkv", x, true, d, 3)
	place := func(part int) *Node { return Reshape(blocks.gather(qkv[part]), blocks.count, blocks.size, h, dh) }
	q, k, v := place(0), place(1), place(2)
	scores := MulScalar(Einsum("gqhd,gkhd->ghqk", q, k), 1/math.Sqrt(float64(dh)))
	keyMask := Reshape(blocks.valid, blocks.count, 1, 1, blocks.size)
	mask := BroadcastToDims(keyMask, blocks.count, h, blocks.size, blocks.size)
	probs := dropout(b.scope, maskedSoftmax(scores, mask), b.dropoutRate)
	out := Einsum("ghqk,gkhd->gqhd", probs, v)
	return dense(b.scope, "output", blocks.scatter(out), true, d)
}

// blockLayout places node rows into per-graph blocks of equal size (see
// NewDenseAttention) and back.
type blockLayout struct {
	count, size int
	n           int
	index       *Node // [count·size] node of each slot, clamped to ≥ 0.
	valid       *Node // [count·size] bool, the slot holds a node.
}

// newBlockLayout checks blockNodes [G, S] against the node states x [N, …].
func newBlockLayout(what string, blockNodes, x *Node) *blockLayout {
	checkRank(what+" blockNodes", blockNodes, 2)
	if !blockNodes.DType().IsInt() {
		failf("%s: blockNodes must hold integers, got shape %s", what, blockNodes.Shape())
	}
	l := &blockLayout{count: dim(blockNodes, 0), size: dim(blockNodes, 1), n: dim(x, 0)}
	if l.count <= 0 || l.size <= 0 {
		failf("%s: blockNodes %s has no slots", what, blockNodes.Shape())
	}
	flat := Reshape(ConvertDType(blockNodes, dtypes.Int32), l.count*l.size)
	zero := ScalarZero(x.Graph(), dtypes.Int32)
	l.valid = GreaterOrEqual(flat, zero)
	l.index = Max(flat, zero)
	return l
}

// gather returns the rows of x [N, …] in block order, [G·S, …], empty slots zero.
func (l *blockLayout) gather(x *Node) *Node {
	return l.zeroEmpty(rows(x, l.index))
}

// zeroEmpty replaces the rows of empty slots of y [G·S, …] by zeros (whatever they
// held, NaN included).
func (l *blockLayout) zeroEmpty(y *Node) *Node {
	mask := l.valid
	for y.Rank() > mask.Rank() {
		mask = InsertAxes(mask, -1)
	}
	return Where(BroadcastToDims(mask, y.Shape().Dimensions...), y, ZerosLike(y))
}

// scatter returns the block rows y [G, S, …] (any shape with G·S leading entries) as
// node rows [N, prod(…)], nodes outside every block zero.
func (l *blockLayout) scatter(y *Node) *Node {
	// Empty slots point at node 0 and add zeros there.
	return scatterRows(l.zeroEmpty(Reshape(y, l.count*l.size, -1)), l.index, l.n)
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
