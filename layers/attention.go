package layers

import (
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
	numHeads             int
	dropoutRate          float64
	reference            bool
	outputProjection     bool
	useBias              bool
	sorted               bool
	recompute            bool
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
		scope:    scope,
		x:        x,
		edgeEmb:  edgeEmb,
		src:      src,
		dst:      dst,
		numHeads: numHeads,
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

// EdgeTable gives the edge embeddings as rows of a table: edge e has embedding
// table[index[e]], with table [T, De] and index [E] integers. It replaces the edgeEmb
// argument (which must then be nil) and is cheaper when T < E, since W_E is applied to
// the T table rows before the rows are gathered. The result is identical.
func (b *ExphormerAttentionBuilder) EdgeTable(table, index *Node) *ExphormerAttentionBuilder {
	b.edgeTable, b.edgeIndex = table, index
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
	checkRank("attention input x", b.x, 2)
	checkFloat("attention input x", b.x)
	n, d = dim(b.x, 0), dim(b.x, 1)
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
		if dim(b.edgeEmb, 0) != e || b.edgeEmb.DType() != b.x.DType() {
			failf("attention: edge embeddings %s do not match %d edges of dtype %s",
				b.edgeEmb.Shape(), e, b.x.DType())
		}
	}
	if b.edgeTable != nil {
		checkRank("attention edge table", b.edgeTable, 2)
		checkIndices("attention edge table index", b.edgeIndex, e)
		if b.edgeTable.DType() != b.x.DType() {
			failf("attention: edge table dtype %s differs from x dtype %s", b.edgeTable.DType(), b.x.DType())
		}
	}
	checkRate("attention dropout", b.dropoutRate)
	return n, d, e
}

func (b *ExphormerAttentionBuilder) build(wantWeights bool) (out, weights *Node) {
	n, d, _ := b.validate()
	qkv := denseParts(b.scope, "qkv", b.x, b.useBias, d, 3)
	// The scale 1/√d_h is applied to the N queries rather than the E scores.
	q := MulScalar(qkv[0], 1/math.Sqrt(float64(d/b.numHeads)))
	k, v := qkv[1], qkv[2]
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
}

// edgeProjection is the projected edge embedding W_E e of every edge: per edge
// (perEdge [E, D]), or as rows of a small table (table [T, D], index [E] int32), or none.
type edgeProjection struct {
	perEdge, table, index *Node
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
func sparseAttention(scope *model.Scope, q, k, v *Node, edge edgeProjection, src, dst *Node, opt sparseAttentionOptions) (out, weights *Node) {
	g := q.Graph()
	dtype := q.DType()
	n := dim(q, 0)
	h := opt.numHeads
	dh := dim(q, 1) / h
	a := &attentionState{opt: opt, n: n, h: h, dh: dh,
		srcIdx: InsertAxes(src, -1), dstIdx: InsertAxes(dst, -1)}

	// Inputs routed through identities that carry the hand-written gradients.
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
	switch {
	case edge.perEdge != nil:
		// Reshaped once: a reshape whose input has other uses copies it.
		a.ep = a.perHead(IdentityWithCustomGradient(edge.perEdge, inputGrad(&a.gradEP)))
	case edge.table != nil:
		a.numTypes = dim(edge.table, 0)
		a.epTable = Reshape(IdentityWithCustomGradient(edge.table, inputGrad(&a.gradEP)), a.numTypes, h, dh)
		qe := Mul(InsertAxes(Reshape(a.q, n, h, dh), 1), InsertAxes(a.epTable, 0)) // [N, T, H, d_h]
		a.qe = Reshape(qe, n*a.numTypes, h, dh)
		a.qeIdx = InsertAxes(Add(MulScalar(ConvertDType(dst, dtypes.Int32), float64(a.numTypes)), edge.index), -1)
	}

	// Scores s_e = Σ_d k_src·q_dst·ep, [E, H].
	qDst, kSrc := a.gatherQ(), a.gatherK()
	kq := a.keyFactor(qDst)
	if !opt.recompute {
		// q_dst ⊙ ep is not kept: one product recomputes it from the kept factors.
		a.qDst, a.kSrc = qDst, kSrc
	}
	a.score = ReduceSum(Mul(kSrc, kq), -1)

	// Normalised weights α [E, H].
	var w, den *Node
	if opt.reference {
		w = Exp(ClipScalar(a.score, -5, 5))
		den = AddScalar(ScatterSum(Zeros(g, shapes.Make(dtype, n, h)), a.dstIdx, w, opt.sorted, false), 1e-6)
	} else {
		// The maximum only shifts the softmax; it needs no gradient.
		negInf := BroadcastToDims(Infinity(g, dtype, -1), n, h)
		maxScore := ScatterMax(negInf, a.dstIdx, StopGradient(a.score), opt.sorted, false)
		w = Exp(Sub(a.score, Gather(maxScore, a.dstIdx, opt.sorted)))
		den = safeDenominator(ScatterSum(Zeros(g, shapes.Make(dtype, n, h)), a.dstIdx, w, opt.sorted, false))
	}
	a.alpha = Div(w, Gather(den, a.dstIdx, opt.sorted))
	a.alphaKept = a.alpha
	if opt.dropoutRate > 0 && scope.IsTraining(g) {
		rnd := scope.RandomUniform(g, a.alpha.Shape())
		a.keep = Where(LessOrEqual(rnd, Scalar(g, dtype, opt.dropoutRate)),
			ZerosLike(a.alpha), Scalar(g, dtype, 1/(1-opt.dropoutRate)))
		a.alphaKept = Mul(a.alpha, a.keep)
	}

	vSrc := a.gatherV()
	if !opt.recompute {
		a.vSrc = vSrc
	}
	msg := Mul(vSrc, InsertAxes(a.alphaKept, -1))
	out = ScatterSum(Zeros(g, shapes.Make(dtype, n, h, dh)), a.dstIdx, msg, opt.sorted, false)
	out = captureAdjoint(out, &a.adjoint)
	if opt.wantWeights {
		weights = StopGradient(a.alpha)
	}
	return out, weights
}

// attentionState holds the forward values of sparseAttention that its gradient uses.
type attentionState struct {
	opt            sparseAttentionOptions
	n, h, dh       int
	srcIdx, dstIdx *Node // [E, 1]

	q, k, v *Node // Inputs [N, D] (identities carrying the gradients).
	ep      *Node // Edge projections [E, H, d_h] (identity), or nil.
	// Table mode: epTable [T, H, d_h] (identity), qe = q ⊙ table row for every node and
	// row, [N·T, H, d_h], and qeIdx [E, 1] = dst·T + row.
	epTable, qe, qeIdx  *Node
	numTypes            int
	qDst, kSrc, vSrc    *Node // Saved gathers [E, H, d_h], nil when recomputed.
	score, alpha        *Node // [E, H].
	alphaKept, keep     *Node // α after dropout and the dropout multiplier (nil: none).
	adjoint             *Node // Gradient of the output [N, H, d_h] in the current pass.
	gradsFor            *Node // The adjoint the gradients below were built for.
	gradQ, gradK, gradV *Node
	gradEP              *Node
	trigger             *Node // Orders recomputed gathers after a value of the backward pass.
}

// perHead reshapes [M, D] to [M, H, d_h].
func (a *attentionState) perHead(x *Node) *Node { return Reshape(x, -1, a.h, a.dh) }

// source returns x, or, in the backward pass, x behind a scheduling barrier so that a
// recomputed gather of it runs then rather than in the forward pass.
func (a *attentionState) source(x *Node) *Node {
	if a.trigger == nil {
		return x
	}
	return SchedulingBarrier(x, a.trigger)
}

// gatherQ gathers the query side of each edge's score: q_dst, or in table mode
// q_dst ⊙ ep from QE.
func (a *attentionState) gatherQ() *Node {
	if a.qe != nil {
		return Gather(a.source(a.qe), a.qeIdx)
	}
	return a.perHead(Gather(a.source(a.q), a.dstIdx, a.opt.sorted))
}

func (a *attentionState) gatherK() *Node { return a.perHead(Gather(a.source(a.k), a.srcIdx)) }

func (a *attentionState) gatherV() *Node { return a.perHead(Gather(a.source(a.v), a.srcIdx)) }

// keyFactor returns the factor that multiplies the keys in the scores, q_dst ⊙ ep,
// from what gatherQ returned.
func (a *attentionState) keyFactor(qDst *Node) *Node {
	if a.ep == nil { // No edge projections, or table mode (gatherQ returned q_dst ⊙ ep).
		return qDst
	}
	return Mul(qDst, a.ep)
}

// scatterNodes sums per-edge rows [E, H, d_h] into nodes at idx, returning [N, D].
func (a *attentionState) scatterNodes(x, idx *Node, sorted bool) *Node {
	zeros := Zeros(x.Graph(), shapes.Make(x.DType(), a.n, a.h, a.dh))
	return Reshape(ScatterSum(zeros, idx, x, sorted, false), a.n, a.h*a.dh)
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
// each per head, the per-edge terms summed into the nodes by scatters.
func (a *attentionState) backward() bool {
	if a.adjoint == nil {
		return false
	}
	if a.gradsFor == a.adjoint { // Already built in this backward pass.
		return true
	}
	a.gradsFor = a.adjoint
	opt := a.opt
	g := a.adjoint.Graph()
	dtype := a.adjoint.DType()
	// Recomputed gathers are ordered (by scheduling barriers on values of the backward
	// pass) so that few [E, D] tensors are alive at once: v with the adjoint, q once the
	// score gradient is known, k once the key gradient is done.
	a.trigger = nil
	if opt.recompute {
		a.trigger = a.adjoint
	}

	// Values.
	gOut := Gather(a.adjoint, a.dstIdx, opt.sorted) // [E, H, d_h]
	vSrc := a.vSrc
	if vSrc == nil {
		vSrc = a.gatherV()
	}
	gAlpha := ReduceSum(Mul(gOut, vSrc), -1) // [E, H]
	a.gradV = a.scatterNodes(Mul(gOut, InsertAxes(a.alphaKept, -1)), a.srcIdx, false)
	if a.keep != nil {
		gAlpha = Mul(gAlpha, a.keep)
	}

	// Softmax.
	centre := ScatterSum(Zeros(g, shapes.Make(dtype, a.n, a.h)), a.dstIdx, Mul(a.alpha, gAlpha), opt.sorted, false)
	gScore := Mul(a.alpha, Sub(gAlpha, Gather(centre, a.dstIdx, opt.sorted)))
	if opt.reference {
		inside := And(GreaterThan(a.score, Scalar(g, dtype, -5)), LessThan(a.score, Scalar(g, dtype, 5)))
		gScore = Mul(gScore, ConvertDType(inside, dtype))
	}
	gScore = InsertAxes(gScore, -1) // [E, H, 1]

	// Keys, queries and edge projections.
	qDst := a.qDst
	if opt.recompute {
		a.trigger = gScore
		qDst = a.gatherQ()
	}
	kq := a.keyFactor(qDst)
	a.gradK = a.scatterNodes(Mul(kq, gScore), a.srcIdx, false)
	kSrc := a.kSrc
	if opt.recompute {
		a.trigger = a.gradK
		kSrc = a.gatherK()
	}
	gKQ := Mul(kSrc, gScore) // Gradient of q_dst ⊙ ep.
	if a.qe != nil {
		// Table mode: sum the per-edge gradients into QE's rows, then into q and the table.
		gQE := ScatterSum(Zeros(g, shapes.Make(dtype, a.n*a.numTypes, a.h, a.dh)), a.qeIdx, gKQ, false, false)
		gQE = Reshape(gQE, a.n, a.numTypes, a.h, a.dh)
		a.gradQ = Reshape(ReduceSum(Mul(gQE, InsertAxes(a.epTable, 0)), 1), a.n, a.h*a.dh)
		a.gradEP = Reshape(ReduceSum(Mul(gQE, InsertAxes(Reshape(a.q, a.n, a.h, a.dh), 1)), 0), a.numTypes, a.h*a.dh)
		return true
	}
	if a.ep == nil {
		a.gradQ = a.scatterNodes(gKQ, a.dstIdx, opt.sorted)
		return true
	}
	a.gradQ = a.scatterNodes(Mul(gKQ, a.ep), a.dstIdx, opt.sorted)
	a.gradEP = Reshape(Mul(gKQ, qDst), -1, a.h*a.dh)
	return true
}
