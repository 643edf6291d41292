package layers

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// FeedForward is the feed-forward block of a GPS layer, without its residual:
// Linear(D → widthMult·D), ReLU, dropout, Linear(→ D), dropout. Variables in scope
// "linear1" and "linear2".
func FeedForward(scope *model.Scope, x *Node, widthMult int, dropoutRate float64) *Node {
	checkRank("feed-forward input", x, 2)
	checkFloat("feed-forward input", x)
	checkRate("feed-forward dropout", dropoutRate)
	if widthMult <= 0 {
		failf("feed-forward width multiplier must be positive, got %d", widthMult)
	}
	d := dim(x, 1)
	h := dropout(scope, relu(dense(scope, "linear1", x, true, widthMult*d)), dropoutRate)
	return dropout(scope, dense(scope, "linear2", h, true, d), dropoutRate)
}

// GatedGCNBuilder configures a residual gated graph convolution with edge features, as
// GraphGPS's CustomGatedGCN. Create it with NewGatedGCN and call Done.
type GatedGCNBuilder struct {
	scope                *model.Scope
	x, e, src, dst, pe   *Node
	peDist               *Node
	eTable, eIndex       *Node
	nodeMask, edgeMask   *Node
	dropoutRate          float64
	residual, batchNorms bool
}

// NewGatedGCN builds a GatedGCN layer on node states x [N, D] and edge states e [E, D]
// of the directed edges src[k] → dst[k] ([E] integers). With A…E linear maps (with bias),
// i = dst, j = src:
//
//	ê_ij = C e_ij + D x_i + E x_j,   σ_ij = sigmoid(ê_ij)
//	x̂_i  = A x_i + Σ_j σ_ij ⊙ B x_j / (Σ_j σ_ij + 1e-6)
//
// then x and e each go through BatchNorm, ReLU, dropout and the residual connection.
// Variables in scope: "ABDE" (the four node maps, fused), "C", "bn_node", "bn_edge", and
// "pe_gate" with EquivStablePE.
func NewGatedGCN(scope *model.Scope, x, e, src, dst *Node) *GatedGCNBuilder {
	return &GatedGCNBuilder{scope: scope, x: x, e: e, src: src, dst: dst, residual: true, batchNorms: true}
}

// Dropout sets the dropout rate applied to the new x and e (training only). Default 0.
func (b *GatedGCNBuilder) Dropout(rate float64) *GatedGCNBuilder {
	b.dropoutRate = rate
	return b
}

// Residual enables the residual connections (default true).
func (b *GatedGCNBuilder) Residual(residual bool) *GatedGCNBuilder {
	b.residual = residual
	return b
}

// BatchNorm enables the batch normalisations of x and e (default true).
func (b *GatedGCNBuilder) BatchNorm(enabled bool) *GatedGCNBuilder {
	b.batchNorms = enabled
	return b
}

// NodeMask restricts the statistics of the node BatchNorm to the rows where mask ([N],
// bool or 0/1 float) is set, e.g. to leave padding or virtual nodes out (see
// BatchNormBuilder.Mask). The default uses all rows.
func (b *GatedGCNBuilder) NodeMask(mask *Node) *GatedGCNBuilder {
	b.nodeMask = mask
	return b
}

// EdgeMask restricts the statistics of the edge BatchNorm to the edges where mask ([E],
// bool or 0/1 float) is set, e.g. to leave padding edges out. The default uses all edges.
func (b *GatedGCNBuilder) EdgeMask(mask *Node) *GatedGCNBuilder {
	b.edgeMask = mask
	return b
}

// EquivStablePE scales the gates by r_ij = MLP(‖p_i − p_j‖²) (Linear(1→D), ReLU,
// Linear(D→1), sigmoid), with p [N, P] the encoded ESLapPE (see ESLapPEEncoder). This is
// the equivariant and stable use of Laplacian eigenvectors of GraphGPS and Exphormer.
func (b *GatedGCNBuilder) EquivStablePE(pe *Node) *GatedGCNBuilder {
	b.pe = pe
	return b
}

// EquivStableDistances gives the squared PE distances ‖p_i − p_j‖² of the edges [E, 1]
// (PEDistances) in place of EquivStablePE's encoding: they are the same in every layer
// of a model, which can compute them once.
func (b *GatedGCNBuilder) EquivStableDistances(dist *Node) *GatedGCNBuilder {
	b.peDist = dist
	return b
}

// EdgeTable gives the edge states as rows of a table: edge k has state table[index[k]]
// (table [T, D], index [E] integers), in place of NewGatedGCN's e (which must then be
// nil). The first layer of a model whose edges carry few distinct embeddings (no edge
// features, or one categorical column) applies C to the T rows instead of the E edges.
func (b *GatedGCNBuilder) EdgeTable(table, index *Node) *GatedGCNBuilder {
	b.eTable, b.eIndex = table, index
	return b
}

// Done builds the layer and returns the new node states [N, D] and edge states [E, D].
func (b *GatedGCNBuilder) Done() (x, e *Node) {
	eIn := b.e
	if b.eTable != nil {
		if b.e != nil {
			failf("GatedGCN: give edge states either as e or with EdgeTable, not both")
		}
		checkRank("GatedGCN edge table", b.eTable, 2)
		checkIndices("GatedGCN edge table index", b.eIndex, dim(b.src, 0))
		eIn = rows(b.eTable, b.eIndex)
	}
	n, d, _ := checkMessagePassing("GatedGCN", b.x, eIn, b.src, b.dst)
	checkRate("GatedGCN dropout", b.dropoutRate)
	abde := denseParts(b.scope, "ABDE", b.x, true, d, 4)
	ax, bx, dx, ex := abde[0], abde[1], abde[2], abde[3]
	var ce *Node
	if b.eTable != nil {
		ce = rows(dense(b.scope, "C", b.eTable, true, d), b.eIndex)
	} else {
		ce = dense(b.scope, "C", b.e, true, d)
	}
	eHat := Add(Add(rows(dx, b.dst), rows(ex, b.src)), ce)
	sigma := Sigmoid(eHat)
	if gate := b.gate(n, d); gate != nil {
		sigma = Mul(sigma, gate)
	}
	num := scatterRows(Mul(sigma, rows(bx, b.src)), b.dst, n)
	den := scatterRows(sigma, b.dst, n)
	x = Add(ax, Div(num, AddScalar(den, 1e-6)))
	e = eHat
	if b.batchNorms {
		x = NewBatchNorm(b.scope.In("bn_node"), x).Mask(b.nodeMask).Done()
		e = NewBatchNorm(b.scope.In("bn_edge"), e).Mask(b.edgeMask).Done()
	}
	x = dropout(b.scope, relu(x), b.dropoutRate)
	e = dropout(b.scope, relu(e), b.dropoutRate)
	if b.residual {
		x = Add(b.x, x)
		e = Add(eIn, e)
	}
	return x, e
}

// gate returns the equivariant-stable PE gate of the edges, or nil without PE.
func (b *GatedGCNBuilder) gate(n, d int) *Node {
	return peGate(b.scope.In("pe_gate"), b.pe, b.peDist, b.src, b.dst, n, d)
}

// PEDistances returns the squared distances ‖p_i − p_j‖² [E, 1] of the encoded ESLapPE
// pe [N, P] across the edges src → dst (i = dst, j = src), the input of the
// equivariant-stable gates of GatedGCN and GINE.
func PEDistances(pe, src, dst *Node) *Node {
	checkRank("equivariant-stable PE", pe, 2)
	checkIndices("PE distance src", src, -1)
	checkIndices("PE distance dst", dst, dim(src, 0))
	return ReduceAndKeep(Square(Sub(rows(pe, dst), rows(pe, src))), ReduceSum, -1)
}

// peGate returns r_ij = sigmoid(Linear(ReLU(Linear(‖p_i − p_j‖²)))) [E, 1] for the edges
// src → dst (i = dst, j = src), with hidden width d, from the distances dist [E, 1] or,
// when dist is nil, from the encoded PE pe [N, P]; nil when both are nil.
func peGate(scope *model.Scope, pe, dist, src, dst *Node, n, d int) *Node {
	switch {
	case dist != nil:
		checkRank("PE distances", dist, 2)
		if dim(dist, 0) != dim(src, 0) || dim(dist, 1) != 1 {
			failf("PE distances %s must be [%d, 1]", dist.Shape(), dim(src, 0))
		}
	case pe != nil:
		checkRank("equivariant-stable PE", pe, 2)
		if dim(pe, 0) != n {
			failf("equivariant-stable PE has %d rows, want %d nodes", dim(pe, 0), n)
		}
		dist = PEDistances(pe, src, dst)
	default:
		return nil
	}
	return Sigmoid(scalarMLP(scope, dist, d))
}

// scalarMLP returns Linear2(ReLU(Linear1(s))) [E, 1] of one number s [E, 1] per edge, with
// hidden width d and the variables of dense maps named "linear1" and "linear2" in scope.
// With the rectifier's pattern P [E, d] (P_k = 1 where w1_k·s + b1_k ≥ 0, else 0), it is
//
//	s·Σ_k P_k·w1_k·w2_k + Σ_k P_k·b1_k·w2_k + b2 = s·(P·t1) + P·t2 + b2
//
// with the columns t1 = w1 ⊙ w2 and t2 = b1 ⊙ w2 [d, 1]. The pattern has no gradient (nor
// has the rectifier's kink): the weights get theirs through t1 and t2, Pᵀ times the [E, 1]
// adjoints of the two products, and s through its slope P·t1. No tensor [E, d] other than
// the pattern is formed, forward or backward; the pure-Go backend computes the pattern's
// products without forming it at all (ops/threshold.go of the patched backend).
func scalarMLP(scope *model.Scope, s *Node, d int) *Node {
	g, dtype := s.Graph(), s.DType()
	w1, b1 := denseVariables(scope, "linear1", g, dtype, 1, d, true)
	w2, b2 := denseVariables(scope, "linear2", g, dtype, d, 1, true)
	pre := Add(Mul(StopGradient(s), StopGradient(w1)), InsertAxes(StopGradient(b1), 0)) // [E, d]
	pattern := ConvertDType(GreaterOrEqual(pre, ScalarZero(g, dtype)), dtype)
	slope := patternProduct(pattern, Mul(Reshape(w1, d, 1), w2))
	offset := patternProduct(pattern, Mul(Reshape(b1, d, 1), w2))
	return Add(Add(Mul(s, slope), offset), InsertAxes(b2, 0))
}

// patternProduct returns p·t [E, 1] for a pattern p [E, d] without gradient and t [d, 1],
// with t's gradient pᵀ·adjoint written as one contraction over the edges.
func patternProduct(p, t *Node) *Node {
	var adjoint *Node
	t = IdentityWithCustomGradient(t, func(t, _ *Node) *Node {
		if adjoint == nil {
			return ZerosLike(t)
		}
		return DotGeneral(p, []int{0}, nil, adjoint, []int{0}, nil)
	})
	return captureAdjoint(DotGeneral(p, []int{1}, nil, t, []int{0}, nil), &adjoint)
}

// GINEBuilder configures a GINE convolution (graph isomorphism network with edge
// features). Create it with NewGINE and call Done.
type GINEBuilder struct {
	scope              *model.Scope
	x, e, src, dst, pe *Node
	peDist             *Node
	eps                float64
	trainEps           bool
}

// NewGINE builds x'_i = MLP((1 + ε) x_i + Σ_{j → i} ReLU(x_j + e_ji)) on node states
// x [N, D] and edge states e [E, D] of the edges src → dst, with MLP = Linear(D→D), ReLU,
// Linear(D→D). ε defaults to 0 (not trained), as in PyG's GINEConv. Variables in scope:
// "mlp1", "mlp2", "eps" (with TrainEpsilon) and "pe_gate" (with EquivStablePE).
func NewGINE(scope *model.Scope, x, e, src, dst *Node) *GINEBuilder {
	return &GINEBuilder{scope: scope, x: x, e: e, src: src, dst: dst}
}

// Epsilon sets ε (the initial value if trained). Default 0.
func (b *GINEBuilder) Epsilon(eps float64) *GINEBuilder {
	b.eps = eps
	return b
}

// TrainEpsilon makes ε a trainable variable. Default false.
func (b *GINEBuilder) TrainEpsilon(train bool) *GINEBuilder {
	b.trainEps = train
	return b
}

// EquivStablePE scales each message by r_ij = MLP(‖p_i − p_j‖²) as GraphGPS's
// GINEConvESLapPE does; p [N, P] is the encoded ESLapPE.
func (b *GINEBuilder) EquivStablePE(pe *Node) *GINEBuilder {
	b.pe = pe
	return b
}

// EquivStableDistances gives the edges' squared PE distances [E, 1] (PEDistances) in
// place of EquivStablePE's encoding.
func (b *GINEBuilder) EquivStableDistances(dist *Node) *GINEBuilder {
	b.peDist = dist
	return b
}

// Done builds the layer and returns the new node states [N, D].
func (b *GINEBuilder) Done() *Node {
	n, d, _ := checkMessagePassing("GINE", b.x, b.e, b.src, b.dst)
	g := b.x.Graph()
	msg := relu(Add(rows(b.x, b.src), b.e))
	if gate := peGate(b.scope.In("pe_gate"), b.pe, b.peDist, b.src, b.dst, n, d); gate != nil {
		msg = Mul(msg, gate)
	}
	agg := scatterRows(msg, b.dst, n)
	onePlusEps := Scalar(g, b.x.DType(), 1+b.eps)
	if b.trainEps {
		eps := b.eps
		initEps := func(g *Graph, shape shapes.Shape) *Node { return Scalar(g, shape.DType, eps) }
		v := b.scope.WithInitializer(initEps).VariableWithShape("eps", shapes.Make(b.x.DType()))
		onePlusEps = OnePlus(v.NodeValue(g))
	}
	h := Add(Mul(onePlusEps, b.x), agg)
	h = relu(dense(b.scope, "mlp1", h, true, d))
	return dense(b.scope, "mlp2", h, true, d)
}

// GCNConv is a graph convolution x' = D̂^{-1/2} (A + I) D̂^{-1/2} x W + b over the edges
// src → dst of x [N, D], as PyG's GCNConv: A_ij counts the edges j → i, one self loop is
// added per node (on top of self loops among the edges, which PyG would not duplicate),
// and D̂ is the in-degree plus one, computed from the edge index inside the graph.
// Variables in scope: "linear" (W) and "bias" (b).
func GCNConv(scope *model.Scope, x, src, dst *Node) *Node {
	return GCNConvDegrees(scope, x, src, dst, nil)
}

// GCNConvDegrees is GCNConv normalised by given in-degrees inDegree [N] (without the
// self loop) rather than those of the edges src → dst: the degrees of the whole graph
// when the edges are a part of it (a chunk of layer-wise inference, whose source nodes
// have only some of their incoming edges). nil computes them from the edges, as GCNConv.
func GCNConvDegrees(scope *model.Scope, x, src, dst, inDegree *Node) *Node {
	checkRank("GCN input", x, 2)
	checkFloat("GCN input", x)
	return GCNAggregate(scope, dense(scope, "linear", x, false, dim(x, 1)), src, dst, inDegree)
}

// GCNAggregate is GCNConvDegrees after its linear map: D̂^{-1/2} (A + I) D̂^{-1/2} xw + b
// for the rows xw = x W [N, D] already computed (by a layer that computes several maps
// of its input at once, as BlockClassic's first layer does from the raw features).
// Variable in scope: "bias" (b).
func GCNAggregate(scope *model.Scope, xw, src, dst, inDegree *Node) *Node {
	checkRank("GCN projected input", xw, 2)
	checkFloat("GCN projected input", xw)
	checkIndices("GCN src", src, -1)
	checkIndices("GCN dst", dst, dim(src, 0))
	g := xw.Graph()
	n, d := dim(xw, 0), dim(xw, 1)
	dtype := xw.DType()
	var deg *Node // [N], self loop included.
	if inDegree != nil {
		checkRank("GCN in-degrees", inDegree, 1)
		if dim(inDegree, 0) != n {
			failf("GCN in-degrees: %d rows for %d nodes", dim(inDegree, 0), n)
		}
		deg = OnePlus(ConvertDType(inDegree, dtype))
	} else {
		deg = OnePlus(scatterRows(Ones(g, shapes.Make(dtype, dim(src, 0))), dst, n))
	}
	dinv := Rsqrt(deg)
	coef := InsertAxes(Mul(rows(dinv, src), rows(dinv, dst)), -1) // [E, 1]
	agg := scatterRows(Mul(rows(xw, src), coef), dst, n)
	self := Mul(xw, InsertAxes(Reciprocal(deg), -1))
	bias := scope.WithInitializer(initializer.Zero).VariableWithShape("bias", shapes.Make(dtype, d)).NodeValue(g)
	return Add(Add(agg, self), InsertAxes(bias, 0))
}

// SAGEConv is GraphSAGE's convolution with mean aggregation, as PyG's SAGEConv:
// x'_i = W_r x_i + W_n mean_{j→i} x_j + b over the edges src → dst of x [N, D] (a node
// without incoming edges gets W_r x_i + b; a repeated edge counts twice in the mean).
// Both maps share one matrix product: the mean is taken of the rows of x W_n. Variables
// in scope: "linear" (W_r | W_n, [D, 2D]) and "bias" (b).
func SAGEConv(scope *model.Scope, x, src, dst *Node) *Node {
	checkRank("SAGE input", x, 2)
	checkFloat("SAGE input", x)
	parts := denseParts(scope, "linear", x, false, dim(x, 1), 2)
	return SAGEAggregate(scope, parts[0], parts[1], src, dst)
}

// SAGEAggregate is SAGEConv after its linear maps: root + mean_{j→i} neigh_j + b for the
// rows root = x W_r and neigh = x W_n [N, D] already computed (see GCNAggregate).
// Variable in scope: "bias" (b).
func SAGEAggregate(scope *model.Scope, root, neigh, src, dst *Node) *Node {
	checkRank("SAGE root map", root, 2)
	checkRank("SAGE neighbour map", neigh, 2)
	checkFloat("SAGE root map", root)
	if !root.Shape().Equal(neigh.Shape()) {
		failf("SAGE: root map %s and neighbour map %s differ in shape", root.Shape(), neigh.Shape())
	}
	checkIndices("SAGE src", src, -1)
	checkIndices("SAGE dst", dst, dim(src, 0))
	g := root.Graph()
	n, d := dim(root, 0), dim(root, 1)
	dtype := root.DType()
	deg := scatterRows(Ones(g, shapes.Make(dtype, dim(src, 0))), dst, n)
	mean := Div(scatterRows(rows(neigh, src), dst, n), InsertAxes(MaxScalar(deg, 1), -1))
	bias := scope.WithInitializer(initializer.Zero).VariableWithShape("bias", shapes.Make(dtype, d)).NodeValue(g)
	return Add(Add(root, mean), InsertAxes(bias, 0))
}

// GATBuilder configures a graph attention convolution (GATConv of PyG, as GraphGPS uses
// it: heads of width D/heads, concatenated). Create it with NewGAT and call Done.
type GATBuilder struct {
	scope         *model.Scope
	x, src, dst   *Node
	z             *Node // x W given (Projected), or nil
	heads         int
	negativeSlope float64
	attnDropout   float64
	noSelfLoops   bool
	noBias        bool
}

// NewGAT builds a GAT layer on node states x [N, D] over the edges src → dst ([E]
// integers) with the given number of heads (dividing D). Per head h of width D/heads,
// with z = x W (no bias), i = dst, j = src and the sum over the incoming edges plus a
// self loop per node:
//
//	e_ij = LeakyReLU(a_src·z_j + a_dst·z_i),   α_ij = softmax_j(e_ij)
//	x'_i = Σ_j α_ij z_j   (heads concatenated) + b
//
// Variables in scope: "linear" (W), "att_src", "att_dst" ([heads, D/heads]), "bias".
func NewGAT(scope *model.Scope, x, src, dst *Node, heads int) *GATBuilder {
	return &GATBuilder{scope: scope, x: x, src: src, dst: dst, heads: heads, negativeSlope: 0.2}
}

// NegativeSlope sets the LeakyReLU slope of the scores (default 0.2).
func (b *GATBuilder) NegativeSlope(slope float64) *GATBuilder {
	b.negativeSlope = slope
	return b
}

// AttentionDropout sets the dropout rate on the attention weights α (training only).
func (b *GATBuilder) AttentionDropout(rate float64) *GATBuilder {
	b.attnDropout = rate
	return b
}

// SelfLoops sets whether each node also attends to itself (default true, as PyG).
func (b *GATBuilder) SelfLoops(enabled bool) *GATBuilder {
	b.noSelfLoops = !enabled
	return b
}

// Bias sets whether a learned bias is added to the output (default true, as PyG's
// GATConv; the classic GNNs of Luo et al. build theirs with bias=False).
func (b *GATBuilder) Bias(enabled bool) *GATBuilder {
	b.noBias = !enabled
	return b
}

// Projected gives z = x W [N, D] already computed (see GCNAggregate), in place of NewGAT's
// x (which may then be nil): the layer then has no "linear" variable of its own.
func (b *GATBuilder) Projected(z *Node) *GATBuilder {
	b.z = z
	return b
}

// Done builds the layer and returns [N, D].
func (b *GATBuilder) Done() *Node {
	x := b.x
	if b.z != nil {
		x = b.z
	}
	checkRank("GAT input", x, 2)
	checkFloat("GAT input", x)
	checkIndices("GAT src", b.src, -1)
	checkIndices("GAT dst", b.dst, dim(b.src, 0))
	checkRate("GAT attention dropout", b.attnDropout)
	g := x.Graph()
	n, d := dim(x, 0), dim(x, 1)
	if b.heads < 1 || d%b.heads != 0 {
		failf("GAT: heads = %d must be ≥ 1 and divide the width %d", b.heads, d)
	}
	hd := d / b.heads
	dtype := x.DType()
	src, dst := ConvertDType(b.src, dtypes.Int32), ConvertDType(b.dst, dtypes.Int32)
	if !b.noSelfLoops {
		self := Iota(g, shapes.Make(dtypes.Int32, n), 0)
		src, dst = Concatenate([]*Node{src, self}, 0), Concatenate([]*Node{dst, self}, 0)
	}
	z := b.z
	if z == nil {
		z = dense(b.scope, "linear", x, false, d)
	}
	z = Reshape(z, n, b.heads, hd)
	// PyG's glorot for the attention vectors: uniform in ±√(6 / (heads + D/heads)).
	limit := math.Sqrt(6 / float64(b.heads+hd))
	att := b.scope.WithInitializer(initializer.RandomUniformFn(b.scope, -limit, limit))
	aSrc := att.VariableWithShape("att_src", shapes.Make(dtype, b.heads, hd)).NodeValue(g)
	aDst := att.VariableWithShape("att_dst", shapes.Make(dtype, b.heads, hd)).NodeValue(g)
	sSrc := ReduceSum(Mul(z, InsertAxes(aSrc, 0)), -1) // [N, heads]
	sDst := ReduceSum(Mul(z, InsertAxes(aDst, 0)), -1)
	score := Add(rows(sSrc, src), rows(sDst, dst)) // [E', heads]
	score = Where(GreaterOrEqual(score, ZerosLike(score)), score, MulScalar(score, b.negativeSlope))
	// Softmax over each node's incoming edges, shifted by the (constant) per-node maximum.
	idx := InsertAxes(dst, -1)
	low := BroadcastToDims(Infinity(g, dtype, -1), n, b.heads)
	top := StopGradient(ScatterMax(low, idx, score, false, false))
	w := Exp(Sub(score, rows(top, dst)))
	den := scatterRows(w, dst, n) // [N, heads]
	alpha := Div(w, rows(safeDenominator(den), dst))
	alpha = dropout(b.scope, alpha, b.attnDropout)
	msg := Mul(rows(z, src), InsertAxes(alpha, -1)) // [E', heads, hd]
	out := Reshape(scatterRows(msg, dst, n), n, d)
	if b.noBias {
		return out
	}
	bias := b.scope.WithInitializer(initializer.Zero).VariableWithShape("bias", shapes.Make(dtype, d)).NodeValue(g)
	return Add(out, InsertAxes(bias, 0))
}

// checkMessagePassing validates node states x [N, D], edge states e [E, D] and edges
// src, dst [E], and returns N, D, E.
func checkMessagePassing(what string, x, e, src, dst *Node) (n, d, numEdges int) {
	checkRank(what+" node states", x, 2)
	checkFloat(what+" node states", x)
	checkRank(what+" edge states", e, 2)
	n, d = dim(x, 0), dim(x, 1)
	numEdges = dim(e, 0)
	if dim(e, 1) != d || e.DType() != x.DType() {
		failf("%s: edge states %s must be [E, %d] of dtype %s", what, e.Shape(), d, x.DType())
	}
	checkIndices(what+" src", src, numEdges)
	checkIndices(what+" dst", dst, numEdges)
	return n, d, numEdges
}
