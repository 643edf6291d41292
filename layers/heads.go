package layers

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// GraphPool pools node states x [N, D] into [numGraphs, D] by graphID ([N] integers in
// [0, numGraphs)), over the nodes where mask ([N], bool or 0/1; nil: all) is set, e.g.
// to leave padding and virtual nodes out: the mean, sum or feature-wise maximum of
// each graph's pooled nodes (Pooling). A graph without pooled nodes gets zeros.
func GraphPool(x, graphID, mask *Node, numGraphs int, mode Pooling) *Node {
	checkRank("pool input", x, 2)
	checkFloat("pool input", x)
	n, d := dim(x, 0), dim(x, 1)
	checkIndices("pool graphID", graphID, n)
	if numGraphs <= 0 {
		failf("graph pool: numGraphs must be positive, got %d", numGraphs)
	}
	g := x.Graph()
	dtype := x.DType()
	w := Ones(g, shapes.Make(dtype, n))
	if mask != nil {
		checkIndicesOrMask("pool mask", mask, n)
		w = asFloat(mask, dtype)
	}
	idx := InsertAxes(ConvertDType(graphID, dtypes.Int32), -1)
	count := ScatterSum(Zeros(g, shapes.Make(dtype, numGraphs)), idx, w, false, false)
	switch mode {
	case PoolMax:
		has := BroadcastToDims(InsertAxes(GreaterThan(count, ZerosLike(count)), -1), numGraphs, d)
		keep := BroadcastToDims(InsertAxes(GreaterThan(w, ZerosLike(w)), -1), n, d)
		vals := Where(keep, x, BroadcastToDims(Infinity(g, dtype, -1), n, d))
		mx := ScatterMax(BroadcastToDims(Infinity(g, dtype, -1), numGraphs, d), idx, vals, false, false)
		return Where(has, mx, ZerosLike(mx))
	case PoolSum, PoolMean:
	default:
		failf("graph pool: unknown mode %q (want %s)", mode, choices(Poolings()))
	}
	sum := ScatterSum(Zeros(g, shapes.Make(dtype, numGraphs, d)), idx, Mul(x, InsertAxes(w, -1)), false, false)
	if mode == PoolSum {
		return sum
	}
	return Div(sum, InsertAxes(MaxScalar(count, 1), -1))
}

// MLPHeadBuilder configures a prediction head. Create it with NewMLPHead and call Done.
type MLPHeadBuilder struct {
	scope     *model.Scope
	x         *Node
	outDim    int
	numLayers int
	norm      bool
	l2        bool
	normMask  *Node
}

// NewMLPHead maps x [B, D] to [B, outDim] logits or values: GraphGPS's
// post-message-passing head, numLayers linear maps (Layers; default 1) with the hidden
// ones of width D followed by a ReLU, none after the last. Variables in scope
// "hidden_0", "hidden_1", … and "output".
func NewMLPHead(scope *model.Scope, x *Node, outDim int) *MLPHeadBuilder {
	return &MLPHeadBuilder{scope: scope, x: x, outDim: outDim, numLayers: 1}
}

// Layers sets the number of linear maps (≥ 1).
func (b *MLPHeadBuilder) Layers(n int) *MLPHeadBuilder {
	b.numLayers = n
	return b
}

// BatchNorm makes each hidden layer a bias-free linear map followed by a batch norm
// (GraphGym's node head), its statistics taken over the rows where mask ([B], bool or
// 0/1; nil: all rows) is set. The batch norm's variables are in "hidden_i/norm".
func (b *MLPHeadBuilder) BatchNorm(mask *Node) *MLPHeadBuilder {
	b.norm, b.normMask = true, mask
	return b
}

// L2Normalize scales each row of every hidden layer's output (after its ReLU) to unit
// L2 norm, x / max(‖x‖₂, 1e-12), as PyTorch's F.normalize. GraphGym's MLP (PyG 2.0.4,
// the reference code's post-message-passing head) does this: its hidden layers take
// LayerConfig's default has_l2norm = true whatever the config says. Default false.
func (b *MLPHeadBuilder) L2Normalize(enabled bool) *MLPHeadBuilder {
	b.l2 = enabled
	return b
}

// Done builds the head and returns [B, outDim].
func (b *MLPHeadBuilder) Done() *Node {
	x := b.x
	checkRank("head input", x, 2)
	checkFloat("head input", x)
	if b.numLayers < 1 || b.outDim < 1 {
		failf("MLP head: need Layers ≥ 1 and outDim ≥ 1, got %d and %d", b.numLayers, b.outDim)
	}
	d := dim(x, 1)
	for i := range b.numLayers - 1 {
		hidden := b.scope.In("hidden_%d", i)
		if b.norm {
			x = dense(hidden, "", x, false, d)
			x = NewBatchNorm(hidden.In("norm"), x).Mask(b.normMask).Done()
		} else {
			x = dense(hidden, "", x, true, d)
		}
		x = relu(x)
		if b.l2 {
			x = l2NormalizeRows(x)
		}
	}
	return dense(b.scope, "output", x, true, b.outDim)
}

// l2NormalizeRows returns x [B, D] with each row divided by max(its L2 norm, 1e-12),
// computed as x / √max(‖x‖², 1e-24): a zero row (a ReLU that is off everywhere) gets
// the finite gradient of x / 1e-12, as PyTorch's F.normalize gives it, where √‖x‖²'s
// derivative would be infinite (and the product NaN).
func l2NormalizeRows(x *Node) *Node {
	sq := ReduceAndKeep(Square(x), ReduceSum, -1)
	return Div(x, Sqrt(MaxScalar(sq, 1e-24)))
}

// labelsAsInt converts class labels to int32.
func labelsAsInt(labels *Node) *Node {
	if !labels.DType().IsInt() {
		failf("class labels must be integers, got shape %s", labels.Shape())
	}
	return ConvertDType(labels, dtypes.Int32)
}

// PreMPBuilder configures GraphGym's pre-message-passing stack (GNNPreMP), which the
// reference code runs between the node encoder and the first GPS layer. Create it with
// NewPreMP and call Done.
type PreMPBuilder struct {
	scope       *model.Scope
	x, normMask *Node
	numLayers   int
	dropoutRate float64
	norm        bool
}

// NewPreMP maps node states x [N, D] through layers of the same width, each a linear map,
// a batch norm (BatchNorm; the map then has no bias), dropout and a ReLU, in GraphGym's
// order. The default is one layer without norm or dropout. Variables in scope
// "layer_0", "layer_1", … (the norm in "layer_i/norm").
func NewPreMP(scope *model.Scope, x *Node) *PreMPBuilder {
	return &PreMPBuilder{scope: scope, x: x, numLayers: 1}
}

// Layers sets the number of layers (≥ 1).
func (b *PreMPBuilder) Layers(n int) *PreMPBuilder {
	b.numLayers = n
	return b
}

// Dropout sets the dropout rate after each norm (training only).
func (b *PreMPBuilder) Dropout(rate float64) *PreMPBuilder {
	b.dropoutRate = rate
	return b
}

// BatchNorm adds a batch norm to each layer, its statistics over the rows where mask
// ([N], bool or 0/1; nil: all rows) is set.
func (b *PreMPBuilder) BatchNorm(mask *Node) *PreMPBuilder {
	b.norm, b.normMask = true, mask
	return b
}

// Done builds the stack and returns [N, D].
func (b *PreMPBuilder) Done() *Node {
	x := b.x
	checkRank("pre-MP input", x, 2)
	checkFloat("pre-MP input", x)
	checkRate("pre-MP dropout", b.dropoutRate)
	if b.numLayers < 1 {
		failf("pre-MP: need Layers ≥ 1, got %d", b.numLayers)
	}
	d := dim(x, 1)
	for i := range b.numLayers {
		layer := b.scope.In("layer_%d", i)
		x = dense(layer, "", x, !b.norm, d)
		if b.norm {
			x = NewBatchNorm(layer.In("norm"), x).Mask(b.normMask).Done()
		}
		x = relu(dropout(layer, x, b.dropoutRate))
	}
	return x
}
