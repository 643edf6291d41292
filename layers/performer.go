package layers

import (
	"math"
	"math/rand/v2"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"gonum.org/v1/gonum/mat"
)

// PerformerAttentionBuilder configures Performer (FAVOR+) linear attention within each
// graph, a baseline for Exphormer. Create it with NewPerformerAttention and call Done.
type PerformerAttentionBuilder struct {
	scope         *model.Scope
	x, blockNodes *Node
	numHeads      int
	numFeatures   int
	seed          uint64
}

// NewPerformerAttention approximates softmax attention among the nodes of each graph of
// x [N, D] with positive orthogonal random features (FAVOR+, as performer_pytorch):
// φ(u) = m^{-1/2}(exp(ωᵀu' − ‖u'‖²/2 − c) + 1e-4) with u' = u·d_h^{-1/4}, then
// out_i = φ(q_i)ᵀ Σ_j φ(k_j) v_jᵀ / φ(q_i)ᵀ Σ_j φ(k_j), the sums over the nodes j of i's
// graph, given by the block layout blockNodes [G, S] of NewDenseAttention (empty slots
// take no part). Query, key and value projections have no bias; an output projection
// with bias follows. The random matrix ω is fixed by Seed. Variables in scope: "qkv",
// "output".
func NewPerformerAttention(scope *model.Scope, x, blockNodes *Node, numHeads int) *PerformerAttentionBuilder {
	return &PerformerAttentionBuilder{scope: scope, x: x, blockNodes: blockNodes, numHeads: numHeads, seed: 1}
}

// Features sets the number m of random features. The default (0) is
// ⌊d_h·ln d_h⌋, performer_pytorch's default.
func (b *PerformerAttentionBuilder) Features(m int) *PerformerAttentionBuilder {
	b.numFeatures = m
	return b
}

// Seed sets the seed of the random feature matrix. Default 1.
func (b *PerformerAttentionBuilder) Seed(seed uint64) *PerformerAttentionBuilder {
	b.seed = seed
	return b
}

// Done builds the layer and returns the new node states [N, D].
func (b *PerformerAttentionBuilder) Done() *Node {
	x := b.x
	checkRank("performer input x", x, 2)
	checkFloat("performer input x", x)
	d := dim(x, 1)
	if b.numHeads <= 0 || d%b.numHeads != 0 {
		failf("performer: hidden size %d is not a positive multiple of numHeads=%d", d, b.numHeads)
	}
	if b.numFeatures < 0 {
		failf("performer: need Features ≥ 0, got %d", b.numFeatures)
	}
	blocks := newBlockLayout("performer", b.blockNodes, x)
	g := x.Graph()
	dtype := x.DType()
	h := b.numHeads
	dh := d / h
	m := b.numFeatures
	if m == 0 {
		m = max(1, int(float64(dh)*math.Log(float64(dh))))
	}
	omega := Const(g, tensors.FromFlatDataAndDimensions(OrthogonalRandomFeatures(m, dh, b.seed), m, dh))
	omega = ConvertDType(omega, dtype)

	qkv := denseParts(b.scope, "qkv", x, false, d, 3)
	nb, s := blocks.count, blocks.size
	part := func(i int) *Node { return Reshape(blocks.gather(qkv[i]), nb, s, h, dh) }
	q, k, v := part(0), part(1), part(2)
	valid := Reshape(ConvertDType(blocks.valid, dtype), nb, s, 1, 1) // [G, S, 1, 1]

	// Feature maps [G, S, H, m].
	scale := math.Pow(float64(dh), -0.25)
	project := func(u *Node) (proj, diag *Node) {
		u = MulScalar(u, scale)
		proj = Einsum("gshd,md->gshm", u, omega)
		diag = MulScalar(ReduceAndKeep(Square(u), ReduceSum, -1), 0.5)
		return proj, diag
	}
	ratio := 1 / math.Sqrt(float64(m))
	// The stabilising maxima are part of the function (the +1e-4 makes it depend on them),
	// so, as in performer_pytorch, gradients flow through them.
	qProj, qDiag := project(q)
	qMax := ReduceAndKeep(qProj, ReduceMax, -1)
	qPhi := MulScalar(AddScalar(Exp(Sub(Sub(qProj, qDiag), qMax)), 1e-4), ratio)
	kProj, kDiag := project(k)
	// The key stabiliser must be constant within a graph: the per-graph, per-head
	// maximum over the graph's nodes (empty slots excluded).
	negInf := BroadcastToDims(Infinity(g, dtype, -1), kProj.Shape().Dimensions...)
	kValid := BroadcastToDims(ConvertDType(valid, dtypes.Bool), kProj.Shape().Dimensions...)
	kMax := ReduceAndKeep(ReduceAndKeep(Where(kValid, kProj, negInf), ReduceMax, -1), ReduceMax, 1) // [G, 1, H, 1]
	kMax = Where(IsFinite(kMax), kMax, ZerosLike(kMax))                                             // A graph without nodes.
	kPhi := Mul(MulScalar(AddScalar(Exp(Sub(Sub(kProj, kDiag), kMax)), 1e-4), ratio), valid)

	// Linear attention per graph: Σ_j φ(k_j) v_jᵀ [G, H, m, dh] and Σ_j φ(k_j) [G, H, m],
	// each one batched matrix product over the graph's slots.
	context := Einsum("gshm,gshd->ghmd", kPhi, v)
	kSum := ReduceSum(kPhi, 1)
	num := Einsum("gshm,ghmd->gshd", qPhi, context)
	den := ReduceSum(Mul(qPhi, InsertAxes(kSum, 1)), -1) // [G, S, H]
	out := Div(num, InsertAxes(den, -1))
	return dense(b.scope, "output", blocks.scatter(out), true, d)
}

// OrthogonalRandomFeatures returns an m×d matrix (row-major, float64) of Gaussian rows
// made orthogonal in blocks of d (the uniformly distributed orthogonal factor of the QR
// decomposition of a Gaussian matrix) and rescaled to the norms of independent Gaussian
// vectors, as performer_pytorch's gaussian_orthogonal_random_matrix (scaling 0): each
// row is marginally N(0, I), so the FAVOR+ estimate is unbiased. The same seed gives the
// same matrix.
func OrthogonalRandomFeatures(m, d int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out := make([]float64, 0, m*d)
	for len(out) < m*d {
		block := mat.NewDense(d, d, nil)
		for i := range d {
			for j := range d {
				block.Set(i, j, rng.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(block)
		var q, r mat.Dense
		qr.QTo(&q)
		qr.RTo(&r)
		// Rows of Qᵀ, i.e. columns of Q, each times the sign of R's diagonal entry: the
		// QR convention makes R_jj's sign depend on the block, which biases the columns'
		// directions (e.g. the first one towards −e_1); with the signs fixed so that
		// diag(R) > 0, Q is uniformly distributed over orthogonal matrices.
		for j := 0; j < d && len(out) < m*d; j++ {
			sign := 1.0
			if r.At(j, j) < 0 {
				sign = -1
			}
			for i := range d {
				out = append(out, sign*q.At(i, j))
			}
		}
	}
	for r := range m {
		norm := 0.0
		for range d {
			z := rng.NormFloat64()
			norm += z * z
		}
		norm = math.Sqrt(norm)
		for c := range d {
			out[r*d+c] *= norm
		}
	}
	return out
}
