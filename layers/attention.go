package layers

import (
	"cmp"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// ExphormerAttentionBuilder configures one Exphormer sparse attention layer. Create it
// with NewExphormerAttention, set options, and call Done.
type ExphormerAttentionBuilder struct {
	scope                *model.Scope
	x, edgeEmb, src, dst *Node
	edgeTable, edgeIndex *Node
	qkv                  []*Node // W_Q x, W_K x, W_V x given (Projected), or nil
	numHeads             int
	dropoutRate          float64
	reference            bool
	outputProjection     bool
	useBias              bool
	sorted               bool
	recompute            bool
	chunkBytes           int
	normalizeValues      bool
}

// NewExphormerAttention starts an Exphormer attention layer over the interaction graph
// given by the directed edges src[e] → dst[e]: node i attends to the nodes j with an
// edge j → i.
//
//   - x: node states [N, D], float; D must be a multiple of numHeads.
//   - edgeEmb: edge embeddings [E, De], or nil for plain dot-product attention (no edge
//     features), as BigBird uses. See also EdgeTable.
//   - src, dst: [E] integer node indices in [0, N). Sorting by dst is the project's
//     convention (it keeps memory access local) but not required.
//
// For node i and head h, with d_h = D / numHeads:
//
//	s_ij = ⟨W_E e_ij ⊙ W_K x_j, W_Q x_i⟩ / √d_h,   α_ij = softmax over the edges into i,
//	out_i = concat_h Σ_j α_ij W_V x_j
//
// The softmax subtracts the per-destination maximum (exact and overflow-free). A node
// with no incoming edge gets a zero output. Variables are created directly in scope:
// "qkv" (the fused query/key/value projection), "edge" (W_E) and, with
// OutputProjection(true), "output".
//
// Like all GoMLX graph-building functions it panics with an error on invalid shapes;
// model.Exec.Call returns that error.
func NewExphormerAttention(scope *model.Scope, x, edgeEmb, src, dst *Node, numHeads int) *ExphormerAttentionBuilder {
	return &ExphormerAttentionBuilder{
		scope:      scope,
		x:          x,
		edgeEmb:    edgeEmb,
		src:        src,
		dst:        dst,
		numHeads:   numHeads,
		chunkBytes: DefaultEdgeChunkBytes,
	}
}

// Dropout sets the rate of dropout on the normalised attention weights α (training only).
// The default is 0.
func (b *ExphormerAttentionBuilder) Dropout(rate float64) *ExphormerAttentionBuilder {
	b.dropoutRate = rate
	return b
}

// Reference selects the reference implementation's variant of the softmax: scores are
// clamped to [−5, 5], exponentiated without subtracting a maximum, and the denominator
// gets +1e-6. The default (false) is the exact softmax.
func (b *ExphormerAttentionBuilder) Reference(reference bool) *ExphormerAttentionBuilder {
	b.reference = reference
	return b
}

// OutputProjection adds a final linear map (with bias) of the concatenated heads. The
// reference Exphormer layer has none, the default.
func (b *ExphormerAttentionBuilder) OutputProjection(enabled bool) *ExphormerAttentionBuilder {
	b.outputProjection = enabled
	return b
}

// UseBias adds biases to the query, key, value and edge projections. The reference
// Exphormer layer has none, the default.
func (b *ExphormerAttentionBuilder) UseBias(useBias bool) *ExphormerAttentionBuilder {
	b.useBias = useBias
	return b
}

// SortedByDst declares that dst is sorted ascending, which some backends exploit. The
// result is undefined if it is declared but not true. The default is false.
func (b *ExphormerAttentionBuilder) SortedByDst(sorted bool) *ExphormerAttentionBuilder {
	b.sorted = sorted
	return b
}

// RecomputeGathers makes the backward pass gather the per-edge keys, queries and values
// again instead of keeping them from the forward pass: three fewer [E, D] tensors alive at
// the memory peak, for three more gathers that the backward pass waits for (in the step
// benchmark with N = 10⁵, E = 1.2·10⁶, D = 64: peak 1.8 instead of 2.6 GiB, step about
// 35 % slower). The default is false.
func (b *ExphormerAttentionBuilder) RecomputeGathers(recompute bool) *ExphormerAttentionBuilder {
	b.recompute = recompute
	return b
}

// DefaultEdgeChunkBytes is the default of EdgeChunkBytes.
const DefaultEdgeChunkBytes = 256 << 20

// EdgeChunkBytes bounds the size of one per-edge [E, D] tensor: a layer whose per-edge
// tensors would be larger processes its edges in consecutive chunks of at most that
// many bytes, one chunk after the other, so that only one chunk's per-edge tensors are
// alive at a time (the gathers of the backward pass are then recomputed, as with
// RecomputeGathers). The result is the same; the memory of the largest graphs falls by
// the per-edge tensors' share. 0 disables chunking. The default is
// DefaultEdgeChunkBytes.
func (b *ExphormerAttentionBuilder) EdgeChunkBytes(bytes int) *ExphormerAttentionBuilder {
	b.chunkBytes = bytes
	return b
}

// EdgeTable gives the edge embeddings as rows of a table: edge e has embedding
// table[index[e]], with table [T, De] and index [E] integers. It replaces the edgeEmb
// argument (which must then be nil) and is cheaper when T < E, since W_E is applied to
// the T table rows before the rows are gathered. The result is identical.
func (b *ExphormerAttentionBuilder) EdgeTable(table, index *Node) *ExphormerAttentionBuilder {
	b.edgeTable, b.edgeIndex = table, index
	return b
}

// NormalizeValues scales every node's value vector W_V x_j to unit L2 norm in each head,
// as Spexphormer's attention-score estimator does (Shirzad et al., NeurIPS 2024): the
// output is then a convex combination of unit vectors, so how much a neighbour counts is
// its attention weight α_ij alone, which makes the weights comparable scores of the
// edges. The default is false.
func (b *ExphormerAttentionBuilder) NormalizeValues(normalize bool) *ExphormerAttentionBuilder {
	b.normalizeValues = normalize
	return b
}

// Projected gives the query, key and value maps of the nodes, q = W_Q x, k = W_K x and
// v = W_V x ([N, D] each), already computed (see GCNAggregate), in place of
// NewExphormerAttention's x (which may then be nil): the layer then has no "qkv"
// variable, and UseBias does not apply to them.
func (b *ExphormerAttentionBuilder) Projected(q, k, v *Node) *ExphormerAttentionBuilder {
	b.qkv = []*Node{q, k, v}
	return b
}

// Done builds the layer and returns the new node states [N, D].
func (b *ExphormerAttentionBuilder) Done() *Node {
	out, _ := b.build(false)
	return out
}

// DoneWithWeights builds the layer and returns the new node states [N, D] and the
// normalised attention weights α [E, numHeads] (before dropout).
func (b *ExphormerAttentionBuilder) DoneWithWeights() (out, weights *Node) {
	return b.build(true)
}

func (b *ExphormerAttentionBuilder) validate() (n, d, e int) {
	x := b.x
	if b.qkv != nil {
		for i, name := range []string{"query", "key", "value"} {
			checkRank("attention "+name+" map", b.qkv[i], 2)
			checkFloat("attention "+name+" map", b.qkv[i])
			if !b.qkv[i].Shape().Equal(b.qkv[0].Shape()) {
				failf("attention: %s map %s differs in shape from the query map %s", name, b.qkv[i].Shape(), b.qkv[0].Shape())
			}
		}
		x = b.qkv[0]
	}
	checkRank("attention input x", x, 2)
	checkFloat("attention input x", x)
	n, d = dim(x, 0), dim(x, 1)
	if b.numHeads <= 0 || d%b.numHeads != 0 {
		failf("attention: hidden size %d is not a positive multiple of numHeads=%d", d, b.numHeads)
	}
	checkIndices("attention src", b.src, -1)
	e = dim(b.src, 0)
	checkIndices("attention dst", b.dst, e)
	if b.edgeEmb != nil && b.edgeTable != nil {
		failf("attention: give edge embeddings either as edgeEmb or with EdgeTable, not both")
	}
	if b.edgeEmb != nil {
		checkRank("attention edge embeddings", b.edgeEmb, 2)
		if dim(b.edgeEmb, 0) != e || b.edgeEmb.DType() != x.DType() {
			failf("attention: edge embeddings %s do not match %d edges of dtype %s",
				b.edgeEmb.Shape(), e, x.DType())
		}
	}
	if b.edgeTable != nil {
		checkRank("attention edge table", b.edgeTable, 2)
		checkIndices("attention edge table index", b.edgeIndex, e)
		if b.edgeTable.DType() != x.DType() {
			failf("attention: edge table dtype %s differs from x dtype %s", b.edgeTable.DType(), x.DType())
		}
	}
	checkRate("attention dropout", b.dropoutRate)
	if b.chunkBytes < 0 {
		failf("attention: EdgeChunkBytes must be ≥ 0, got %d", b.chunkBytes)
	}
	return n, d, e
}

func (b *ExphormerAttentionBuilder) build(wantWeights bool) (out, weights *Node) {
	n, d, _ := b.validate()
	qkv := b.qkv
	if qkv == nil {
		qkv = denseParts(b.scope, "qkv", b.x, b.useBias, d, 3)
	}
	// The scale 1/√d_h is applied to the N queries rather than the E scores.
	q := MulScalar(qkv[0], 1/math.Sqrt(float64(d/b.numHeads)))
	k, v := qkv[1], qkv[2]
	if b.normalizeValues {
		dh := d / b.numHeads
		vh := Reshape(v, n, b.numHeads, dh)
		norm := Sqrt(AddScalar(ReduceAndKeep(Square(vh), ReduceSum, -1), 1e-12))
		v = Reshape(Div(vh, norm), n, d)
	}
	var edge edgeProjection
	switch {
	case b.edgeEmb != nil:
		edge.perEdge = dense(b.scope, "edge", b.edgeEmb, b.useBias, d)
	case b.edgeTable != nil:
		table := dense(b.scope, "edge", b.edgeTable, b.useBias, d)
		if n*dim(table, 0) <= dim(b.src, 0) {
			edge.table, edge.index = table, ConvertDType(b.edgeIndex, dtypes.Int32)
		} else {
			edge.perEdge = rows(table, b.edgeIndex)
		}
	}
	out, weights = sparseAttention(b.scope, q, k, v, edge, b.src, b.dst, sparseAttentionOptions{
		numHeads:    b.numHeads,
		reference:   b.reference,
		dropoutRate: b.dropoutRate,
		sorted:      b.sorted,
		wantWeights: wantWeights,
		recompute:   b.recompute,
		chunkBytes:  b.chunkBytes,
	})
	out = Reshape(out, n, d)
	if b.outputProjection {
		out = dense(b.scope, "output", out, true, d)
	}
	return out, weights
}

// sparseAttentionOptions configures sparseAttention.
type sparseAttentionOptions struct {
	numHeads    int
	reference   bool
	dropoutRate float64
	sorted      bool
	wantWeights bool
	// recompute re-gathers the per-edge keys, queries and values in the backward pass
	// instead of keeping them from the forward pass: three fewer [E, D] tensors alive at
	// the peak, for three more gathers.
	recompute bool
	// chunkBytes bounds the bytes of one per-edge [E, D] float tensor: the edges are
	// processed in consecutive chunks of at most that size, one after the other (0: one
	// chunk). More than one chunk implies recompute.
	chunkBytes int
}

// edgeProjection is the projected edge embedding W_E e of every edge: per edge
// (perEdge [E, D]), or as rows of a small table (table [T, D], index [E] int32), or none.
type edgeProjection struct {
	perEdge, table, index *Node
}

// edgeChunk is a consecutive range of edges processed together, with its slices of the
// edge indices and projections and, when kept, its forward gathers.
type edgeChunk struct {
	lo, hi                int
	srcIdx, dstIdx, qeIdx *Node // [hi−lo, 1]
	ep                    *Node // Per-edge projections [hi−lo, H, d_h], or nil.
	qDst, kSrc, vSrc      *Node // Saved gathers, nil when recomputed.
}

// sparseAttention computes multi-head attention along the edges src → dst.
// q (already scaled by 1/√d_h), k, v: [N, D]; edge the edge projections. Returns
// [N, H, d_h] and, if asked, the attention weights α [E, H] (without gradient).
//
// The gradient is written out by hand (attentionState.backward) rather than derived by GoMLX,
// which would materialise per-edge adjoints broadcast from [E, H] to [E, H, d_h] and keep
// every gathered [E, D] tensor alive until the backward pass.
//
// With a table of T edge projections (and N·T ≤ E), the score's query factor
// q_dst ⊙ ep is gathered from the products of every node with every table row,
// QE [N·T, D], formed once per layer: one gather per edge instead of two gathers and a
// product, and in the backward pass the gradients of q and of the table are sums over
// [N, T, D] rather than scatters of per-edge products.
//
// With opt.chunkBytes, the per-edge [E, D] work runs over consecutive chunks of edges,
// ordered by scheduling barriers so that only one chunk's tensors are alive at a time;
// the [E, H] scores and weights are computed for all edges at once, and the chunks'
// scatters accumulate into one node tensor. The result is the same.
func sparseAttention(scope *model.Scope, q, k, v *Node, edge edgeProjection, src, dst *Node, opt sparseAttentionOptions) (out, weights *Node) {
	e := dim(src, 0)
	numChunks := 1
	if opt.chunkBytes > 0 {
		numChunks = max(1, min(e, (e*dim(q, 1)*q.DType().Size()+opt.chunkBytes-1)/opt.chunkBytes))
	}
	if numChunks > 1 {
		opt.recompute = true
	}
	a := &attentionState{opt: opt, n: dim(q, 0), h: opt.numHeads, dh: dim(q, 1) / opt.numHeads,
		srcIdx: InsertAxes(src, -1), dstIdx: InsertAxes(dst, -1)}
	ep, qeIdx := a.routeInputs(q, k, v, edge, dst)
	a.splitChunks(e, numChunks, qeIdx, ep)
	a.forwardScores()
	a.normalise(scope)
	out = captureAdjoint(a.aggregate(), &a.adjoint)
	if opt.wantWeights {
		weights = StopGradient(a.alpha)
	}
	return out, weights
}

// routeInputs routes the inputs through identities that carry the hand-written
// gradients, and returns the per-edge projections [E, H, d_h] (per-edge mode) or the
// index of each edge's row of qe, dst·T + type (table mode).
func (a *attentionState) routeInputs(q, k, v *Node, edge edgeProjection, dst *Node) (ep, qeIdx *Node) {
	inputGrad := func(grad **Node) func(x, v *Node) *Node {
		return func(_, v *Node) *Node {
			if !a.backward() {
				return v
			}
			return *grad
		}
	}
	a.q = IdentityWithCustomGradient(q, inputGrad(&a.gradQ))
	a.k = IdentityWithCustomGradient(k, inputGrad(&a.gradK))
	a.v = IdentityWithCustomGradient(v, inputGrad(&a.gradV))
	n, h, dh := a.n, a.h, a.dh
	switch {
	case edge.perEdge != nil:
		// Reshaped once: a reshape whose input has other uses copies it.
		ep = a.perHead(IdentityWithCustomGradient(edge.perEdge, inputGrad(&a.gradEP)))
		a.perEdgeProj = true
	case edge.table != nil:
		a.numTypes = dim(edge.table, 0)
		a.epTable = Reshape(IdentityWithCustomGradient(edge.table, inputGrad(&a.gradEP)), a.numTypes, h, dh)
		qe := Mul(InsertAxes(Reshape(a.q, n, h, dh), 1), InsertAxes(a.epTable, 0)) // [N, T, H, d_h]
		a.qe = Reshape(qe, n*a.numTypes, h, dh)
		qeIdx = InsertAxes(Add(MulScalar(ConvertDType(dst, dtypes.Int32), float64(a.numTypes)), edge.index), -1)
	}
	return ep, qeIdx
}

// splitChunks cuts the e edges into numChunks consecutive chunks of the edge-indexed
// inputs.
func (a *attentionState) splitChunks(e, numChunks int, qeIdx, ep *Node) {
	size := (e + numChunks - 1) / numChunks
	for lo := 0; lo < e || lo == 0; lo += size {
		hi := min(e, lo+size)
		c := &edgeChunk{lo: lo, hi: hi, srcIdx: a.srcIdx, dstIdx: a.dstIdx, qeIdx: qeIdx, ep: ep}
		if numChunks > 1 {
			cut := func(x *Node) *Node {
				if x == nil {
					return nil
				}
				return Slice(x, AxisRange(lo, hi))
			}
			c.srcIdx, c.dstIdx, c.qeIdx, c.ep = cut(a.srcIdx), cut(a.dstIdx), cut(qeIdx), cut(ep)
		}
		a.chunks = append(a.chunks, c)
		if hi >= e {
			break
		}
	}
}

// forwardScores computes the scores s_e = Σ_d k_src·q_dst·ep, [E, H], chunk by chunk.
func (a *attentionState) forwardScores() {
	var prev *Node // Orders each chunk after the previous one (chunks > 1).
	scores := make([]*Node, len(a.chunks))
	for i, c := range a.chunks {
		qDst, kSrc := a.gatherQ(c, prev), a.gatherK(c, prev)
		kq := a.keyFactor(c, qDst)
		if !a.opt.recompute {
			// q_dst ⊙ ep is not kept: one product recomputes it from the kept factors.
			c.qDst, c.kSrc = qDst, kSrc
		}
		scores[i] = ReduceSum(Mul(kSrc, kq), -1)
		if len(a.chunks) > 1 {
			prev = scores[i]
		}
	}
	a.score = a.joinEdges(scores)
}

// normalise computes the attention weights α [E, H] from the scores: a stable softmax
// over each node's incoming edges (or the reference's clamped exponential), then
// attention dropout in training.
func (a *attentionState) normalise(scope *model.Scope) {
	g, dtype, opt := a.score.Graph(), a.score.DType(), a.opt
	var w, den *Node
	if opt.reference {
		w = Exp(ClipScalar(a.score, -5, 5))
		den = AddScalar(ScatterSum(Zeros(g, shapes.Make(dtype, a.n, a.h)), a.dstIdx, w, opt.sorted, false), 1e-6)
	} else {
		// The maximum only shifts the softmax; it needs no gradient.
		negInf := BroadcastToDims(Infinity(g, dtype, -1), a.n, a.h)
		maxScore := ScatterMax(negInf, a.dstIdx, StopGradient(a.score), opt.sorted, false)
		w = Exp(Sub(a.score, Gather(maxScore, a.dstIdx, opt.sorted)))
		den = safeDenominator(ScatterSum(Zeros(g, shapes.Make(dtype, a.n, a.h)), a.dstIdx, w, opt.sorted, false))
	}
	a.alpha = Div(w, Gather(den, a.dstIdx, opt.sorted))
	a.alphaKept = a.alpha
	if opt.dropoutRate > 0 && scope.IsTraining(g) {
		a.keep = Where(dropMask(scope, g, a.alpha.Shape(), opt.dropoutRate),
			ZerosLike(a.alpha), Scalar(g, dtype, 1/(1-opt.dropoutRate)))
		a.alphaKept = Mul(a.alpha, a.keep)
	}
}

// aggregate sums the weighted values α·v_src into each destination, [N, H, d_h].
func (a *attentionState) aggregate() *Node {
	out := Zeros(a.q.Graph(), shapes.Make(a.q.DType(), a.n, a.h, a.dh))
	var prev *Node
	for _, c := range a.chunks {
		vSrc := a.gatherV(c, prev)
		if !a.opt.recompute {
			c.vSrc = vSrc
		}
		msg := Mul(vSrc, InsertAxes(a.edgesOf(a.alphaKept, c), -1))
		out = ScatterSum(out, c.dstIdx, msg, a.opt.sorted, false)
		if len(a.chunks) > 1 {
			prev = out
		}
	}
	return out
}

// attentionState holds the forward values of sparseAttention that its gradient uses.
type attentionState struct {
	opt            sparseAttentionOptions
	n, h, dh       int
	srcIdx, dstIdx *Node // [E, 1]
	chunks         []*edgeChunk

	q, k, v     *Node // Inputs [N, D] (identities carrying the gradients).
	perEdgeProj bool  // The chunks carry per-edge projections.
	// Table mode: epTable [T, H, d_h] (identity) and qe = q ⊙ table row for every node
	// and row, [N·T, H, d_h]; the chunks carry qeIdx = dst·T + row.
	epTable, qe         *Node
	numTypes            int
	inBackward          bool  // The backward pass is being built.
	qeBack              *Node // QE formed again in the backward pass (recompute).
	score, alpha        *Node // [E, H].
	alphaKept, keep     *Node // α after dropout and the dropout multiplier (nil: none).
	adjoint             *Node // Gradient of the output [N, H, d_h] in the current pass.
	gradsFor            *Node // The adjoint the gradients below were built for.
	gradQ, gradK, gradV *Node
	gradEP              *Node
}

// perHead reshapes [M, D] to [M, H, d_h].
func (a *attentionState) perHead(x *Node) *Node { return Reshape(x, -1, a.h, a.dh) }

// gatherAfter gathers the rows idx of x, once trigger is computed when trigger is not
// nil (in the backward pass, or after the previous chunk) rather than whenever the
// scheduler likes: a scheduling barrier on the smaller of x and idx, which it copies.
func gatherAfter(x, idx, trigger *Node, sorted bool) *Node {
	switch {
	case trigger == nil:
	case idx.Shape().Size() < x.Shape().Size():
		idx = SchedulingBarrier(idx, trigger)
	default:
		x = SchedulingBarrier(x, trigger)
	}
	return Gather(x, idx, sorted)
}

// joinEdges concatenates per-chunk [e_c, …] tensors along the edges.
func (a *attentionState) joinEdges(parts []*Node) *Node {
	if len(parts) == 1 {
		return parts[0]
	}
	return Concatenate(parts, 0)
}

// edgesOf returns the chunk's rows of a per-edge tensor [E, …].
func (a *attentionState) edgesOf(x *Node, c *edgeChunk) *Node {
	if len(a.chunks) == 1 {
		return x
	}
	return Slice(x, AxisRange(c.lo, c.hi))
}

// gatherQ gathers the query side of each of the chunk's edge scores: q_dst, or in
// table mode q_dst ⊙ ep from QE; trigger (if not nil) orders the gather.
func (a *attentionState) gatherQ(c *edgeChunk, trigger *Node) *Node {
	if a.qe != nil {
		qe := a.qe
		if a.inBackward && a.opt.recompute {
			// QE, [N·T, D], is formed again from q rather than kept from the forward pass.
			if a.qeBack == nil {
				qb := a.q
				if trigger != nil {
					qb = SchedulingBarrier(qb, trigger)
				}
				qb = Reshape(qb, a.n, a.h, a.dh)
				a.qeBack = Reshape(Mul(InsertAxes(qb, 1), InsertAxes(a.epTable, 0)), a.n*a.numTypes, a.h, a.dh)
				trigger = nil
			}
			qe = a.qeBack
		}
		return gatherAfter(qe, c.qeIdx, trigger, false)
	}
	return a.perHead(gatherAfter(a.q, c.dstIdx, trigger, a.opt.sorted))
}

func (a *attentionState) gatherK(c *edgeChunk, trigger *Node) *Node {
	return a.perHead(gatherAfter(a.k, c.srcIdx, trigger, false))
}

func (a *attentionState) gatherV(c *edgeChunk, trigger *Node) *Node {
	return a.perHead(gatherAfter(a.v, c.srcIdx, trigger, false))
}

// keyFactor returns the factor that multiplies the keys in the scores, q_dst ⊙ ep,
// from what gatherQ returned.
func (a *attentionState) keyFactor(c *edgeChunk, qDst *Node) *Node {
	if c.ep == nil { // No edge projections, or table mode (gatherQ returned q_dst ⊙ ep).
		return qDst
	}
	return Mul(qDst, c.ep)
}

// backward builds the gradients of the inputs once the adjoint of the output is known;
// it reports false if it is not (the output does not reach what is differentiated).
//
// With G the adjoint of out_i = Σ_e α'_e v_src(e) (α' = α after dropout):
//
//	∂α'_e = ⟨G_dst, v_src⟩_h,   ∂v_src += α'_e G_dst,   ∂α_e = ∂α'_e·keep_e,
//	∂s_e = α_e (∂α_e − Σ_{e'→dst} α_e' ∂α_e')   (times 1[−5 < s_e < 5] in reference mode),
//	∂k_src += ∂s_e·(q_dst ⊙ ep),   ∂q_dst += ∂s_e·(k_src ⊙ ep),   ∂ep_e = ∂s_e·(k_src ⊙ q_dst),
//
// each per head, the per-edge terms summed into the nodes by scatters, chunk after
// chunk. Recomputed gathers are ordered (by scheduling barriers on values of the
// backward pass) so that few [E, D] tensors are alive at once: v with the adjoint, q
// once the score gradient is known, k once the chunk's key gradient is done.
func (a *attentionState) backward() bool {
	if a.adjoint == nil {
		return false
	}
	if a.gradsFor == a.adjoint { // Already built in this backward pass.
		return true
	}
	a.gradsFor = a.adjoint
	a.inBackward, a.qeBack = true, nil
	defer func() { a.inBackward = false }()
	gAlpha := a.backwardValues()
	a.backwardKeysQueries(a.backwardSoftmax(gAlpha))
	return true
}

// trigger orders a recomputed gather after x (with recompute; nil otherwise).
func (a *attentionState) trigger(x *Node) *Node {
	if a.opt.recompute {
		return x
	}
	return nil
}

// nodeZeros is a zero [rows, H, d_h] accumulator.
func (a *attentionState) nodeZeros(rows int) *Node {
	return Zeros(a.adjoint.Graph(), shapes.Make(a.adjoint.DType(), rows, a.h, a.dh))
}

// backwardValues sets the values' gradient and returns the gradient of the weights α
// [E, H] (through the dropout multiplier).
func (a *attentionState) backwardValues() *Node {
	gradV := a.nodeZeros(a.n)
	gAlphas := make([]*Node, len(a.chunks))
	var prev *Node // The previous chunk's last value (nil for the first).
	for i, c := range a.chunks {
		gOut := gatherAfter(a.adjoint, c.dstIdx, prev, a.opt.sorted) // [e_c, H, d_h]
		vSrc := c.vSrc
		if vSrc == nil {
			vSrc = a.gatherV(c, a.trigger(cmp.Or(prev, a.adjoint)))
		}
		gAlphas[i] = ReduceSum(Mul(gOut, vSrc), -1) // [e_c, H]
		gradV = ScatterSum(gradV, c.srcIdx, Mul(gOut, InsertAxes(a.edgesOf(a.alphaKept, c), -1)), false, false)
		prev = gradV
	}
	a.gradV = Reshape(gradV, a.n, a.h*a.dh)
	gAlpha := a.joinEdges(gAlphas)
	if a.keep != nil {
		gAlpha = Mul(gAlpha, a.keep)
	}
	return gAlpha
}

// backwardSoftmax returns the gradient of the scores [E, H, 1] from that of α.
func (a *attentionState) backwardSoftmax(gAlpha *Node) *Node {
	g, dtype, opt := gAlpha.Graph(), gAlpha.DType(), a.opt
	centre := ScatterSum(Zeros(g, shapes.Make(dtype, a.n, a.h)), a.dstIdx, Mul(a.alpha, gAlpha), opt.sorted, false)
	gScore := Mul(a.alpha, Sub(gAlpha, Gather(centre, a.dstIdx, opt.sorted)))
	if opt.reference {
		inside := And(GreaterThan(a.score, Scalar(g, dtype, -5)), LessThan(a.score, Scalar(g, dtype, 5)))
		gScore = Mul(gScore, ConvertDType(inside, dtype))
	}
	return InsertAxes(gScore, -1)
}

// backwardKeysQueries sets the gradients of the keys, the queries and the edge
// projections from that of the scores gScore [E, H, 1].
func (a *attentionState) backwardKeysQueries(gScore *Node) {
	gradK := a.nodeZeros(a.n)
	var gradQ, gQE *Node
	switch {
	case a.qe != nil:
		gQE = a.nodeZeros(a.n * a.numTypes)
	default:
		gradQ = a.nodeZeros(a.n)
	}
	var gradEPs []*Node
	prev := gScore
	for _, c := range a.chunks {
		gS := a.edgesOf(gScore, c)
		qDst := c.qDst
		if qDst == nil {
			qDst = a.gatherQ(c, a.trigger(prev))
		}
		gradK = ScatterSum(gradK, c.srcIdx, Mul(a.keyFactor(c, qDst), gS), false, false)
		kSrc := c.kSrc
		if kSrc == nil {
			kSrc = a.gatherK(c, a.trigger(gradK))
		}
		gKQ := Mul(kSrc, gS) // Gradient of q_dst ⊙ ep.
		switch {
		case a.qe != nil:
			// Table mode: the per-edge gradients sum into QE's rows.
			gQE = ScatterSum(gQE, c.qeIdx, gKQ, false, false)
			prev = gQE
		case c.ep == nil:
			gradQ = ScatterSum(gradQ, c.dstIdx, gKQ, a.opt.sorted, false)
			prev = gradQ
		default:
			gradQ = ScatterSum(gradQ, c.dstIdx, Mul(gKQ, c.ep), a.opt.sorted, false)
			gradEPs = append(gradEPs, Mul(gKQ, qDst))
			prev = gradQ
		}
	}
	a.gradK = Reshape(gradK, a.n, a.h*a.dh)
	switch {
	case a.qe != nil:
		// Table mode: QE's rows sum into q and the table.
		gQE = Reshape(gQE, a.n, a.numTypes, a.h, a.dh)
		a.gradQ = Reshape(ReduceSum(Mul(gQE, InsertAxes(a.epTable, 0)), 1), a.n, a.h*a.dh)
		a.gradEP = Reshape(ReduceSum(Mul(gQE, InsertAxes(Reshape(a.q, a.n, a.h, a.dh), 1)), 0), a.numTypes, a.h*a.dh)
	default:
		a.gradQ = Reshape(gradQ, a.n, a.h*a.dh)
		if a.perEdgeProj {
			a.gradEP = Reshape(a.joinEdges(gradEPs), -1, a.h*a.dh)
		}
	}
}
