package layers

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
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

func TestDenseAttentionMatchesLoopReference(t *testing.T) {
	const n, d, heads = 9, 8, 2
	// Graphs interleaved: the nodes of a graph need not be contiguous.
	graphID := []int32{0, 1, 0, 2, 1, 1, 0, 2, 1}
	rng := rand.New(rand.NewPCG(51, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	store := newStore(t, 52)
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		masked := NewDenseAttention(scope.In("attn"), in[0], in[1], 3, heads).Done()
		padded := NewDenseAttention(scope.Shared("attn"), in[0], in[1], 3, heads).MaxGraphSize(5).Done()
		return []*Node{masked, padded}
	}, xT, graphID)
	v := func(path string) []float64 { return varValue(t, store, "/attn/"+path) }
	q, k, val := split(affine(x, n, d, v("qkv/dense/weights"), v("qkv/dense/biases"), 3*d), n, d)
	heads0 := loopGraphAttention(q, k, val, n, d, heads, graphID)
	want := affine(heads0, n, d, v("output/dense/weights"), v("output/dense/biases"), d)
	for i, got := range outs {
		if diff := maxAbsDiff(t, flat64(t, got), want); diff > 1e-12 {
			t.Errorf("variant %d (0: masked, 1: padded) differs from the loop by %g", i, diff)
		}
	}
}

func TestBigBirdFullPatternEqualsDenseAttention(t *testing.T) {
	const n, d, heads = 7, 4, 2
	graphID := []int32{0, 0, 0, 1, 1, 1, 1}
	// Blocks as large as the graphs: every node attends to its whole graph.
	src, dst, err := BigBirdPattern(graphID, 4, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(53, 1))
	outs := runGraph(t, newStore(t, 54), false, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{
			NewBigBirdAttention(scope.In("attn"), in[0], in[2], in[3], heads, 0),
			NewDenseAttention(scope.Shared("attn"), in[0], in[1], 2, heads).Done(),
		}
	}, tensor64(rng, 1, n, d), graphID, src, dst)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), flat64(t, outs[1])); diff > 1e-12 {
		t.Errorf("BigBird with a full pattern differs from dense attention by %g", diff)
	}
}

func TestBigBirdPattern(t *testing.T) {
	graphID := make([]int32, 0, 40)
	for i := range 25 {
		graphID = append(graphID, 0)
		if i < 15 {
			graphID = append(graphID, 1)
		}
	}
	const block, random = 3, 2
	src, dst, err := BigBirdPattern(graphID, block, random, 7)
	if err != nil {
		t.Fatal(err)
	}
	src2, dst2, _ := BigBirdPattern(graphID, block, random, 7)
	if !slices.Equal(src, src2) || !slices.Equal(dst, dst2) {
		t.Errorf("the same seed gives different patterns")
	}
	src3, _, _ := BigBirdPattern(graphID, block, random, 8)
	if slices.Equal(src, src3) {
		t.Errorf("different seeds give the same pattern")
	}
	// Per graph: node positions, blocks of each node.
	members := map[int32][]int{}
	pos := make([]int, len(graphID))
	for i, g := range graphID {
		pos[i] = len(members[g])
		members[g] = append(members[g], i)
	}
	keys := make([]map[int]bool, len(graphID))
	for k := range src {
		if k > 0 && (dst[k] < dst[k-1] || dst[k] == dst[k-1] && src[k] <= src[k-1]) {
			t.Fatalf("edges not sorted by (dst, src) without repeats at %d", k)
		}
		i, j := int(dst[k]), int(src[k])
		if graphID[i] != graphID[j] {
			t.Fatalf("edge %d → %d crosses graphs", j, i)
		}
		if keys[i] == nil {
			keys[i] = map[int]bool{}
		}
		keys[i][pos[j]/block] = true
	}
	for i := range graphID {
		numBlocks := (len(members[graphID[i]]) + block - 1) / block
		qb, last := pos[i]/block, numBlocks-1
		blocks := keys[i]
		if qb == 0 || qb == last {
			if len(blocks) != numBlocks {
				t.Errorf("node %d in a global block sees %d of %d blocks", i, len(blocks), numBlocks)
			}
			continue
		}
		for _, b := range []int{0, last, qb - 1, qb, qb + 1} {
			if !blocks[b] {
				t.Errorf("node %d (block %d) misses block %d", i, qb, b)
			}
		}
		fixed := map[int]bool{0: true, last: true, qb - 1: true, qb: true, qb + 1: true}
		if want := min(numBlocks, len(fixed)+random); len(blocks) != want {
			t.Errorf("node %d sees %d blocks, want %d (window, globals and %d random)", i, len(blocks), want, random)
		}
	}
	// A node attends to whole blocks: all nodes of a query block share their keys.
	if _, _, err := BigBirdPattern([]int32{0, -1}, 2, 1, 1); err == nil {
		t.Errorf("negative graph id accepted")
	}
	if _, _, err := BigBirdPattern([]int32{0}, 0, 1, 1); err == nil {
		t.Errorf("zero block size accepted")
	}
	if _, _, err := BigBirdPattern([]int32{0}, 1, -1, 1); err == nil {
		t.Errorf("negative random block count accepted")
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
			return []*Node{NewPerformerAttention(scope.In("attn"), in[0], in[1], 2, heads).Features(features).Seed(5).Done()}
		}, xT, graphID)[0]
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

// TestPerformerSumsAgainstLoops: both ways of summing linear attention — two matrix
// products for one graph, per-graph scatters of outer products — give, for every node
// i, num_i = Σ_j (φq_i·φk_j) v_j and den_i = Σ_j φq_i·φk_j over the nodes j of i's graph,
// computed here by loops.
func TestPerformerSumsAgainstLoops(t *testing.T) {
	const n, h, m, dh = 7, 2, 3, 4
	rng := rand.New(rand.NewPCG(57, 1))
	qT, kT, vT := tensor64(rng, 1, n, h, m), tensor64(rng, 1, n, h, m), tensor64(rng, 1, n, h, dh)
	q, k, v := flat64(t, qT), flat64(t, kT), flat64(t, vT)
	reference := func(graphID []int32) (num, den []float64) {
		num, den = make([]float64, n*h*dh), make([]float64, n*h)
		for i := range n {
			for j := range n {
				if graphID[i] != graphID[j] {
					continue
				}
				for hh := range h {
					dot := 0.0
					for c := range m {
						dot += q[(i*h+hh)*m+c] * k[(j*h+hh)*m+c]
					}
					den[i*h+hh] += dot
					for c := range dh {
						num[(i*h+hh)*dh+c] += dot * v[(j*h+hh)*dh+c]
					}
				}
			}
		}
		return num, den
	}
	for _, c := range []struct {
		name    string
		graphID []int32
		graphs  int
	}{
		{"one graph, matrix products", make([]int32, n), 0},
		{"one graph, per-graph scatter", make([]int32, n), 1},
		{"three graphs, per-graph scatter", []int32{0, 0, 1, 1, 1, 2, 2}, 3},
	} {
		out := runGraph(t, newStore(t, 1), false, func(_ *model.Scope, in []*Node) []*Node {
			var num, den *Node
			if c.graphs == 0 {
				num, den = linearAttentionSums(in[0], in[1], in[2])
			} else {
				num, den = linearAttentionSumsPerGraph(in[0], in[1], in[2], in[3], c.graphs)
			}
			return []*Node{num, den}
		}, qT, kT, vT, c.graphID)
		wantNum, wantDen := reference(c.graphID)
		if d := max(maxAbsDiff(t, flat64(t, out[0]), wantNum), maxAbsDiff(t, flat64(t, out[1]), wantDen)); d > 1e-12 {
			t.Errorf("%s: differs from the loops by %g", c.name, d)
		}
	}
}
