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
	scope       *model.Scope
	x, graphID  *Node
	numGraphs   int
	numHeads    int
	numFeatures int
	seed        uint64
}

// NewPerformerAttention approximates softmax attention among the nodes of each graph
// (graphID [N] integers in [0, numGraphs)) of x [N, D] with positive orthogonal random
// features (FAVOR+, as performer_pytorch): φ(u) = m^{-1/2}(exp(ωᵀu' − ‖u'‖²/2 − c) + 1e-4)
// with u' = u·d_h^{-1/4}, then out_i = φ(q_i)ᵀ Σ_j φ(k_j) v_jᵀ / φ(q_i)ᵀ Σ_j φ(k_j), the
// sums over the nodes j of i's graph (exact grouping, no padding). Query, key and value
// projections have no bias; an output projection with bias follows. The random matrix
// ω is fixed by Seed. Variables in scope: "qkv", "output".
func NewPerformerAttention(scope *model.Scope, x, graphID *Node, numGraphs, numHeads int) *PerformerAttentionBuilder {
	return &PerformerAttentionBuilder{scope: scope, x: x, graphID: graphID, numGraphs: numGraphs,
		numHeads: numHeads, seed: 1}
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
	n, d := dim(x, 0), dim(x, 1)
	if b.numHeads <= 0 || d%b.numHeads != 0 {
		failf("performer: hidden size %d is not a positive multiple of numHeads=%d", d, b.numHeads)
	}
	checkIndices("performer graphID", b.graphID, n)
	if b.numGraphs <= 0 || b.numFeatures < 0 {
		failf("performer: need numGraphs > 0 and Features ≥ 0, got %d and %d", b.numGraphs, b.numFeatures)
	}
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
	graphID := ConvertDType(b.graphID, dtypes.Int32)

	qkv := denseParts(b.scope, "qkv", x, false, d, 3)
	part := func(i int) *Node { return Reshape(qkv[i], n, h, dh) }
	q, k, v := part(0), part(1), part(2)

	// Feature maps [N, H, m].
	scale := math.Pow(float64(dh), -0.25)
	project := func(u *Node) (proj, diag *Node) {
		u = MulScalar(u, scale)
		proj = Einsum("nhd,md->nhm", u, omega)
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
	// The key stabiliser must be constant within a graph: the per-graph, per-head maximum.
	rowMax := ReduceMax(kProj, -1) // [N, H]
	negInf := BroadcastToDims(Infinity(g, dtype, -1), b.numGraphs, h)
	graphMax := ScatterMax(negInf, InsertAxes(graphID, -1), rowMax, false, false)
	kMax := InsertAxes(rows(graphMax, graphID), -1) // [N, H, 1]
	kPhi := MulScalar(AddScalar(Exp(Sub(Sub(kProj, kDiag), kMax)), 1e-4), ratio)

	var num, den *Node
	if b.numGraphs == 1 { // A transductive graph: no [N, H, m, dh] outer products.
		num, den = linearAttentionSums(qPhi, kPhi, v)
	} else {
		num, den = linearAttentionSumsPerGraph(qPhi, kPhi, v, graphID, b.numGraphs)
	}
	out := Reshape(Div(num, InsertAxes(den, -1)), n, d)
	return dense(b.scope, "output", out, true, d)
}

// linearAttentionSums returns, for one graph, the numerator φ(q_i)ᵀ Σ_j φ(k_j) v_jᵀ
// [N, H, dh] and the normaliser φ(q_i)ᵀ Σ_j φ(k_j) [N, H] of linear attention, the sums
// over all nodes j: two matrix products, O(N·H·m·dh) time and O(H·m·dh) extra memory.
func linearAttentionSums(qPhi, kPhi, v *Node) (num, den *Node) {
	context := Einsum("nhm,nhd->hmd", kPhi, v) // [H, m, dh]
	kSum := ReduceSum(kPhi, 0)                 // [H, m]
	num = Einsum("nhm,hmd->nhd", qPhi, context)
	den = ReduceSum(Mul(qPhi, InsertAxes(kSum, 0)), -1)
	return num, den
}

// linearAttentionSumsPerGraph is linearAttentionSums with the sums over the nodes j of
// i's graph (graphID [N] in [0, numGraphs)): it forms the per-node outer products
// φ(k_j) v_jᵀ [N, H, m, dh] and sums them per graph.
func linearAttentionSumsPerGraph(qPhi, kPhi, v, graphID *Node, numGraphs int) (num, den *Node) {
	outer := Mul(InsertAxes(kPhi, -1), InsertAxes(v, 2)) // [N, H, m, dh]
	context := scatterRows(outer, graphID, numGraphs)    // [G, H, m, dh]
	kSum := scatterRows(kPhi, graphID, numGraphs)        // [G, H, m]
	num = Einsum("nhm,nhmd->nhd", qPhi, rows(context, graphID))
	den = ReduceSum(Mul(qPhi, rows(kSum, graphID)), -1)
	return num, den
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
