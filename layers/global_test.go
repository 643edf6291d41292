package layers

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gexph/gexph/expander"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// loopGraphAttention is exact softmax attention within each graph, per head, in float64:
// the attention weights of query i over keys j in i's graph, from q, k, v [n, d].
func loopGraphAttention(q, k, v []float64, n, d, heads int, graphID []int32) []float64 {
	dh := d / heads
	out := make([]float64, n*d)
	for i := range n {
		for h := range heads {
			var scores []float64
			var keys []int
			for j := range n {
				if graphID[j] != graphID[i] {
					continue
				}
				s := 0.0
				for c := h * dh; c < (h+1)*dh; c++ {
					s += q[i*d+c] * k[j*d+c]
				}
				scores, keys = append(scores, s/math.Sqrt(float64(dh))), append(keys, j)
			}
			top := slices.Max(scores)
			den := 0.0
			for _, s := range scores {
				den += math.Exp(s - top)
			}
			for a, j := range keys {
				w := math.Exp(scores[a]-top) / den
				for c := h * dh; c < (h+1)*dh; c++ {
					out[i*d+c] += w * v[j*d+c]
				}
			}
		}
	}
	return out
}

// split returns the three [n, d] parts of a [n, 3d] projection.
func split(qkv []float64, n, d int) (q, k, v []float64) {
	q, k, v = make([]float64, n*d), make([]float64, n*d), make([]float64, n*d)
	for i := range n {
		copy(q[i*d:(i+1)*d], qkv[i*3*d:])
		copy(k[i*d:(i+1)*d], qkv[i*3*d+d:])
		copy(v[i*d:(i+1)*d], qkv[i*3*d+2*d:])
	}
	return q, k, v
}

// blockTensor returns the block layout (expander.BlockNodes) of graphID as a [G, S]
// tensor.
func blockTensor(t testing.TB, graphID []int32, numGraphs, size int) *tensors.Tensor {
	t.Helper()
	blocks, s, err := expander.BlockNodes(graphID, numGraphs, size)
	if err != nil {
		t.Fatal(err)
	}
	return tensors.FromFlatDataAndDimensions(blocks, numGraphs, s)
}

func TestDenseAttentionMatchesLoopReference(t *testing.T) {
	const n, d, heads = 9, 8, 2
	// Graphs interleaved: the nodes of a graph need not be contiguous.
	graphID := []int32{0, 1, 0, 2, 1, 1, 0, 2, 1}
	rng := rand.New(rand.NewPCG(51, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	store := newStore(t, 52)
	// Blocks as large as the largest graph, and padded to 5 slots (empty slots in every
	// block).
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		tight := NewDenseAttention(scope.In("attn"), in[0], in[1], heads).Done()
		padded := NewDenseAttention(scope.Shared("attn"), in[0], in[2], heads).Done()
		return []*Node{tight, padded}
	}, xT, blockTensor(t, graphID, 3, 0), blockTensor(t, graphID, 3, 5))
	v := func(path string) []float64 { return varValue(t, store, "/attn/"+path) }
	q, k, val := split(affine(x, n, d, v("qkv/dense/weights"), v("qkv/dense/biases"), 3*d), n, d)
	heads0 := loopGraphAttention(q, k, val, n, d, heads, graphID)
	want := affine(heads0, n, d, v("output/dense/weights"), v("output/dense/biases"), d)
	for i, got := range outs {
		if diff := maxAbsDiff(t, flat64(t, got), want); diff > 1e-12 {
			t.Errorf("variant %d (0: tight blocks, 1: padded blocks) differs from the loop by %g", i, diff)
		}
	}
}

// TestDenseAttentionNodeOutsideBlocks checks that a node in no block takes no part in
// the attention of the others, and that its own output does not depend on the inputs.
func TestDenseAttentionNodeOutsideBlocks(t *testing.T) {
	const n, d, heads = 7, 4, 2
	graphID := []int32{1, 0, -1, 1, 0, 1, 0} // Node 2 is in no block.
	rng := rand.New(rand.NewPCG(58, 1))
	xT, x2T := tensor64(rng, 1, n, d), tensor64(rng, 1, n, d)
	x, x2 := flat64(t, xT), flat64(t, x2T)
	store := newStore(t, 59)
	build := func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewDenseAttention(scope.In("attn"), in[0], in[1], heads).Done()}
	}
	blocks := blockTensor(t, graphID, 2, 4)
	got := flat64(t, runGraph(t, store, false, build, xT, blocks)[0])
	got2 := flat64(t, runGraph(t, store, false, build, x2T, blocks)[0])
	v := func(path string) []float64 { return varValue(t, store, "/attn/"+path) }
	for run, xv := range [][]float64{x, x2} {
		q, k, val := split(affine(xv, n, d, v("qkv/dense/weights"), v("qkv/dense/biases"), 3*d), n, d)
		want := affine(loopGraphAttention(q, k, val, n, d, heads, graphID), n, d, v("output/dense/weights"),
			v("output/dense/biases"), d)
		out := [][]float64{got, got2}[run]
		for i := range n {
			if graphID[i] < 0 {
				continue
			}
			if diff := maxAbsDiff(t, out[i*d:(i+1)*d], want[i*d:(i+1)*d]); diff > 1e-12 {
				t.Errorf("input %d, node %d differs from the loop by %g", run, i, diff)
			}
		}
	}
	if diff := maxAbsDiff(t, got[2*d:3*d], got2[2*d:3*d]); diff != 0 {
		t.Errorf("the output of a node in no block changes by %g with the inputs", diff)
	}
}

func TestBigBirdFullPatternEqualsDenseAttention(t *testing.T) {
	const n, d, heads = 7, 4, 2
	graphID := []int32{0, 0, 0, 1, 1, 1, 1}
	// Blocks as large as the graphs: every node attends to its whole graph.
	src, dst, err := expander.BigBirdPattern(graphID, 4, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(53, 1))
	outs := runGraph(t, newStore(t, 54), false, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{
			NewBigBirdAttention(scope.In("attn"), in[0], in[2], in[3], heads, 0),
			NewDenseAttention(scope.Shared("attn"), in[0], in[1], heads).Done(),
		}
	}, tensor64(rng, 1, n, d), blockTensor(t, graphID, 2, 0), src, dst)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), flat64(t, outs[1])); diff > 1e-12 {
		t.Errorf("BigBird with a full pattern differs from dense attention by %g", diff)
	}
}

func TestOrthogonalRandomFeatures(t *testing.T) {
	const m, d = 10, 4
	w := OrthogonalRandomFeatures(m, d, 3)
	if !slices.Equal(w, OrthogonalRandomFeatures(m, d, 3)) {
		t.Errorf("the same seed gives different features")
	}
	if slices.Equal(w, OrthogonalRandomFeatures(m, d, 4)) {
		t.Errorf("different seeds give the same features")
	}
	// Rows within a block of d are orthogonal.
	for b := 0; b+d <= m; b += d {
		for r := b; r < b+d; r++ {
			for s := r + 1; s < b+d; s++ {
				dot, nr, ns := 0.0, 0.0, 0.0
				for c := range d {
					dot += w[r*d+c] * w[s*d+c]
					nr += w[r*d+c] * w[r*d+c]
					ns += w[s*d+c] * w[s*d+c]
				}
				if math.Abs(dot)/math.Sqrt(nr*ns) > 1e-12 {
					t.Errorf("rows %d and %d of a block are not orthogonal: cos = %g", r, s, dot/math.Sqrt(nr*ns))
				}
			}
		}
	}
}

// TestOrthogonalRandomFeaturesUnbiased checks that the features are marginally N(0, I):
// coordinate means near 0 and second moments near 1, and that the positive random
// feature estimate of exp(q·k/√d) converges to it.
func TestOrthogonalRandomFeaturesUnbiased(t *testing.T) {
	const m, d = 40000, 4
	w := OrthogonalRandomFeatures(m, d, 5)
	for c := range d {
		mean, second := 0.0, 0.0
		for r := range m {
			mean += w[r*d+c] / m
			second += w[r*d+c] * w[r*d+c] / m
		}
		// Standard errors: 1/√m = 0.005 for the mean, √2/√m ≈ 0.007 for the second moment.
		if math.Abs(mean) > 0.025 || math.Abs(second-1) > 0.04 {
			t.Errorf("coordinate %d: mean %g, second moment %g; want 0 and 1", c, mean, second)
		}
	}
	q, k := []float64{0.3, -0.2, 0.5, 0.1}, []float64{-0.1, 0.4, 0.2, -0.3}
	scale := math.Pow(d, -0.25)
	exact, estimate := 0.0, 0.0
	for c := range d {
		exact += q[c] * k[c]
	}
	exact = math.Exp(exact / math.Sqrt(d))
	for r := range m {
		pq, pk, nq, nk := 0.0, 0.0, 0.0, 0.0
		for c := range d {
			pq += w[r*d+c] * q[c] * scale
			pk += w[r*d+c] * k[c] * scale
			nq += q[c] * q[c] * scale * scale
			nk += k[c] * k[c] * scale * scale
		}
		estimate += math.Exp(pq-nq/2) * math.Exp(pk-nk/2) / m
	}
	if math.Abs(estimate-exact) > 0.02*exact {
		t.Errorf("FAVOR+ kernel estimate %g, exact %g", estimate, exact)
	}
}

func TestPerformerApproximatesSoftmaxAttention(t *testing.T) {
	const n, d, heads = 8, 4, 1
	graphID := []int32{0, 0, 0, 0, 1, 1, 1, 1}
	rng := rand.New(rand.NewPCG(55, 1))
	xT := tensor64(rng, 0.3, n, d)
	x := flat64(t, xT)
	errFor := func(features int) float64 {
		store := newStore(t, 56)
		out := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
			return []*Node{NewPerformerAttention(scope.In("attn"), in[0], in[1], heads).Features(features).Seed(5).Done()}
		}, xT, blockTensor(t, graphID, 2, 0))[0]
		v := func(path string) []float64 { return varValue(t, store, "/attn/"+path) }
		q, k, val := split(matmulRows(x, n, d, v("qkv/dense/weights"), 3*d), n, d)
		want := affine(loopGraphAttention(q, k, val, n, d, heads, graphID), n, d, v("output/dense/weights"),
			v("output/dense/biases"), d)
		return maxAbsDiff(t, flat64(t, out), want)
	}
	few, many := errFor(4), errFor(4096)
	if many > 0.02 || many > few {
		t.Errorf("FAVOR+ error with 4 features %g, with 4096 features %g: want small and decreasing", few, many)
	}
}

// loopPerformer is the Performer layer's FAVOR+ attention computed with plain loops in
// float64, before the output projection: for node i and head h, with u' = u·d_h^{-1/4},
// φ_q(q_i) = m^{-1/2}(exp(ωᵀq_i' − ‖q_i'‖²/2 − max_r (ωᵀq_i')_r) + 1e-4) and
// φ_k(k_j) = m^{-1/2}(exp(ωᵀk_j' − ‖k_j'‖²/2 − c_g) + 1e-4), c_g the maximum of ωᵀk_j'
// over the nodes j of graph g and the features; then out_i = Σ_j (φ_q·φ_k_j) v_j /
// Σ_j φ_q·φ_k_j over the nodes j of i's graph. q, k, v are [n, d]; omega [m, d_h]. Nodes
// with a negative graph id get zeros.
func loopPerformer(q, k, v, omega []float64, n, d, heads, m int, graphID []int32) []float64 {
	dh := d / heads
	scale := math.Pow(float64(dh), -0.25)
	ratio := 1 / math.Sqrt(float64(m))
	features := func(u []float64) (proj []float64, diag float64) {
		proj = make([]float64, m)
		for r := range m {
			for c := range dh {
				proj[r] += omega[r*dh+c] * u[c] * scale
			}
		}
		for c := range dh {
			diag += u[c] * scale * u[c] * scale / 2
		}
		return proj, diag
	}
	out := make([]float64, n*d)
	for h := range heads {
		head := func(x []float64, i int) []float64 { return x[i*d+h*dh : i*d+(h+1)*dh] }
		kProj, kDiag := make([][]float64, n), make([]float64, n)
		kMax := map[int32]float64{}
		for j := range n {
			if graphID[j] < 0 {
				continue
			}
			kProj[j], kDiag[j] = features(head(k, j))
			if c, ok := kMax[graphID[j]]; !ok || slices.Max(kProj[j]) > c {
				kMax[graphID[j]] = slices.Max(kProj[j])
			}
		}
		for i := range n {
			if graphID[i] < 0 {
				continue
			}
			qProj, qDiag := features(head(q, i))
			qMax := slices.Max(qProj)
			num, den := make([]float64, dh), 0.0
			for j := range n {
				if graphID[j] != graphID[i] {
					continue
				}
				dot := 0.0
				for r := range m {
					qPhi := ratio * (math.Exp(qProj[r]-qDiag-qMax) + 1e-4)
					kPhi := ratio * (math.Exp(kProj[j][r]-kDiag[j]-kMax[graphID[j]]) + 1e-4)
					dot += qPhi * kPhi
				}
				den += dot
				for c, vc := range head(v, j) {
					num[c] += dot * vc
				}
			}
			for c := range dh {
				out[i*d+h*dh+c] = num[c] / den
			}
		}
	}
	return out
}

// TestPerformerMatchesLoopReference checks the block implementation of the Performer
// against loopPerformer: for one graph (a single block) and for several interleaved
// graphs in blocks with empty slots.
func TestPerformerMatchesLoopReference(t *testing.T) {
	const n, d, heads, m = 7, 8, 2, 3
	rng := rand.New(rand.NewPCG(57, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	for _, c := range []struct {
		name       string
		graphID    []int32
		numGraphs  int
		blockSize  int
		emptySlots bool
	}{
		{name: "one graph", graphID: make([]int32, n), numGraphs: 1},
		{name: "three graphs, empty slots", graphID: []int32{2, 0, 1, 1, 0, 2, 1}, numGraphs: 3, emptySlots: true},
		{name: "three graphs, padded blocks", graphID: []int32{2, 0, 1, 1, 0, 2, 1}, numGraphs: 3, blockSize: 5, emptySlots: true},
		{name: "a graph without nodes", graphID: []int32{2, 0, 3, 3, 0, 2, 3}, numGraphs: 4, emptySlots: true},
	} {
		blocks := blockTensor(t, c.graphID, c.numGraphs, c.blockSize)
		if hasEmpty := slices.Contains(tensors.MustCopyFlatData[int32](blocks), -1); hasEmpty != c.emptySlots {
			t.Fatalf("%s: empty slots %v, want %v", c.name, hasEmpty, c.emptySlots)
		}
		store := newStore(t, 1)
		out := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
			return []*Node{NewPerformerAttention(scope.In("attn"), in[0], in[1], heads).Features(m).Seed(9).Done()}
		}, xT, blocks)[0]
		v := func(path string) []float64 { return varValue(t, store, "/attn/"+path) }
		q, k, val := split(matmulRows(x, n, d, v("qkv/dense/weights"), 3*d), n, d)
		attn := loopPerformer(q, k, val, OrthogonalRandomFeatures(m, d/heads, 9), n, d, heads, m, c.graphID)
		want := affine(attn, n, d, v("output/dense/weights"), v("output/dense/biases"), d)
		if diff := maxAbsDiff(t, flat64(t, out), want); diff > 1e-12 {
			t.Errorf("%s: differs from the loops by %g", c.name, diff)
		}
	}
}
