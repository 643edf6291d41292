package layers

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// attnCase is a small random attention problem in float64.
type attnCase struct {
	n, d, de, heads int
	x, ef           []float64
	src, dst        []int32
}

func newAttnCase(seed uint64, n, d, de, heads, e int) attnCase {
	rng := rand.New(rand.NewPCG(seed, 7))
	src, dst := randomEdges(rng, n, e)
	return attnCase{
		n: n, d: d, de: de, heads: heads,
		x:   randFloats(rng, n*d, 1),
		ef:  randFloats(rng, e*de, 1),
		src: src, dst: dst,
	}
}

// naiveAttention evaluates the Exphormer attention formula with plain loops in float64,
// given the fused projection W_qkv [d, 3d] and W_E [de, d]; with normalize, each node's
// value vector is scaled to unit norm per head. It also returns the number of scores
// outside [−5, 5].
func naiveAttention(c attnCase, wqkv, we []float64, reference, normalize bool) (out []float64, clamped int) {
	n, d, h := c.n, c.d, c.heads
	dh := d / h
	qkv := matmulRows(c.x, n, d, wqkv, 3*d)
	if normalize {
		for j := range n {
			for head := range h {
				v := qkv[j*3*d+2*d+head*dh : j*3*d+2*d+(head+1)*dh]
				norm := 0.0
				for _, x := range v {
					norm += x * x
				}
				for t := range v {
					v[t] /= math.Sqrt(norm)
				}
			}
		}
	}
	e := len(c.src)
	ep := matmulRows(c.ef, e, c.de, we, d)
	out = make([]float64, n*d)
	for i := range n {
		for head := range h {
			var scores []float64
			var edges []int
			for ei := range e {
				if int(c.dst[ei]) != i {
					continue
				}
				j := int(c.src[ei])
				s := 0.0
				for t := head * dh; t < (head+1)*dh; t++ {
					s += qkv[j*3*d+d+t] * qkv[i*3*d+t] * ep[ei*d+t]
				}
				scores = append(scores, s/math.Sqrt(float64(dh)))
				edges = append(edges, ei)
			}
			if len(edges) == 0 {
				continue
			}
			shift := math.Inf(-1)
			for k, s := range scores {
				if math.Abs(s) > 5 {
					clamped++
				}
				if reference {
					scores[k] = math.Max(-5, math.Min(5, s))
					shift = 0
				} else {
					shift = math.Max(shift, s)
				}
			}
			den := 0.0
			for _, s := range scores {
				den += math.Exp(s - shift)
			}
			if reference {
				den += 1e-6
			}
			for k, ei := range edges {
				a := math.Exp(scores[k]-shift) / den
				j := int(c.src[ei])
				for t := head * dh; t < (head+1)*dh; t++ {
					out[i*d+t] += a * qkv[j*3*d+2*d+t]
				}
			}
		}
	}
	return out, clamped
}

func TestExphormerAttentionMatchesLoopReference(t *testing.T) {
	// 9 nodes, 20 random edges with repeats and self loops; some nodes receive none.
	c := newAttnCase(3, 9, 8, 5, 2, 20)
	for _, reference := range []bool{false, true} {
		store := newStore(t, 11)
		// Scale x so that the reference variant's clamp is active on some edges.
		x := make([]float64, len(c.x))
		for i, v := range c.x {
			x[i] = 3 * v
		}
		cc := c
		cc.x = x
		outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
			return []*Node{NewExphormerAttention(scope.In("attn"), in[0], in[1], in[2], in[3], c.heads).
				Reference(reference).Done()}
		}, tensors.FromFlatDataAndDimensions(x, c.n, c.d),
			tensors.FromFlatDataAndDimensions(c.ef, len(c.src), c.de),
			c.src, c.dst)
		got := flat64(t, outs[0])
		want, clamped := naiveAttention(cc, varValue(t, store, "/attn/qkv/dense/weights"),
			varValue(t, store, "/attn/edge/dense/weights"), reference, false)
		if diff := maxAbsDiff(t, got, want); diff > 1e-10 {
			t.Errorf("reference=%v: max |layer − loop| = %g", reference, diff)
		}
		if clamped == 0 {
			t.Errorf("no score reaches the clamp: the test does not exercise the reference variant")
		}
		// A node with no incoming edge gets exactly zero.
		has := make([]bool, c.n)
		for _, dd := range c.dst {
			has[dd] = true
		}
		for i := range c.n {
			if has[i] {
				continue
			}
			for k := range c.d {
				if got[i*c.d+k] != 0 {
					t.Fatalf("node %d has no incoming edge but output %g", i, got[i*c.d+k])
				}
			}
		}
	}
}

func TestExphormerAttentionNormalizedValuesMatchLoop(t *testing.T) {
	c := newAttnCase(5, 9, 8, 5, 2, 24)
	store := newStore(t, 12)
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewExphormerAttention(scope.In("attn"), in[0], in[1], in[2], in[3], c.heads).
			NormalizeValues(true).Done()}
	}, tensors.FromFlatDataAndDimensions(c.x, c.n, c.d),
		tensors.FromFlatDataAndDimensions(c.ef, len(c.src), c.de),
		c.src, c.dst)
	got := flat64(t, outs[0])
	want, _ := naiveAttention(c, varValue(t, store, "/attn/qkv/dense/weights"),
		varValue(t, store, "/attn/edge/dense/weights"), false, true)
	if diff := maxAbsDiff(t, got, want); diff > 1e-10 {
		t.Errorf("max |layer − loop| = %g", diff)
	}
	// A convex combination of unit vectors: every head's output has norm ≤ 1.
	dh := c.d / c.heads
	for i := range c.n {
		for head := range c.heads {
			norm := 0.0
			for _, x := range got[i*c.d+head*dh : i*c.d+(head+1)*dh] {
				norm += x * x
			}
			if norm > 1+1e-9 {
				t.Fatalf("node %d, head %d: output norm² %g > 1", i, head, norm)
			}
		}
	}
}

// completeGraphs returns edges j → i for all pairs (including i = j) inside each group of
// consecutive nodes with the given sizes, sorted by dst.
func completeGraphs(sizes ...int) (src, dst, graphID []int32) {
	start := 0
	for gi, size := range sizes {
		for i := range size {
			graphID = append(graphID, int32(gi))
			for j := range size {
				src = append(src, int32(start+j))
				dst = append(dst, int32(start+i))
			}
		}
		start += size
	}
	return src, dst, graphID
}

func TestExphormerAttentionCompleteGraphEqualsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	sizes := []int{5, 7}
	n, d, heads := 12, 8, 2
	dh := d / heads
	src, dst, graphID := completeGraphs(sizes...)
	e := len(src)
	x := to32(randFloats(rng, n*d, 1))
	ef := to32(randFloats(rng, e*d, 1))
	// Dense copy of the edge embeddings: efDense[i][j] = ef of edge j → i (zero elsewhere).
	efDense := make([]float32, n*n*d)
	for k := range e {
		copy(efDense[(int(dst[k])*n+int(src[k]))*d:][:d], ef[k*d:(k+1)*d])
	}
	sameGraph := make([]bool, n*n)
	for i := range n {
		for j := range n {
			sameGraph[i*n+j] = graphID[i] == graphID[j]
		}
	}
	for _, withEdges := range []bool{false, true} {
		store := newStore(t, 2)
		outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
			xN, efN, srcN, dstN, efDenseN, maskN := in[0], in[1], in[2], in[3], in[4], in[5]
			attnScope := scope.In("attn")
			if !withEdges {
				efN = nil
			}
			sparse := NewExphormerAttention(attnScope, xN, efN, srcN, dstN, heads).Done()

			// Independent dense computation with the same weights.
			w := scope.Store().GetVariable("/attn/qkv/dense/weights").NodeValue(xN.Graph())
			qkv := MatMul(xN, w)
			split := func(part int) *Node { // [H, N, dh]
				p := Slice(qkv, AxisRange(), AxisRange(part*d, (part+1)*d))
				return TransposeAllDims(Reshape(p, n, heads, dh), 1, 0, 2)
			}
			q, k, v := split(0), split(1), split(2)
			var scores *Node // [H, N, N]
			if withEdges {
				we := scope.Store().GetVariable("/attn/edge/dense/weights").NodeValue(xN.Graph())
				ep := Reshape(MatMul(Reshape(efDenseN, n*n, d), we), n, n, heads, dh)
				ep = TransposeAllDims(ep, 2, 0, 1, 3) // [H, N(i), N(j), dh]
				scores = ReduceSum(Mul(Mul(InsertAxes(q, 2), InsertAxes(k, 1)), ep), -1)
			} else {
				scores = MatMul(q, Transpose(k, 1, 2))
			}
			scores = MulScalar(scores, 1/math.Sqrt(float64(dh)))
			mask := BroadcastToDims(InsertAxes(maskN, 0), heads, n, n)
			probs := MaskedSoftmax(scores, mask, -1)
			dense := Reshape(TransposeAllDims(MatMul(probs, v), 1, 0, 2), n, d)
			return []*Node{sparse, dense}
		}, tensors.FromFlatDataAndDimensions(x, n, d), tensors.FromFlatDataAndDimensions(ef, e, d),
			src, dst, tensors.FromFlatDataAndDimensions(efDense, n, n, d),
			tensors.FromFlatDataAndDimensions(sameGraph, n, n))
		if diff := maxAbsDiff(t, flat64(t, outs[0]), flat64(t, outs[1])); diff > 1e-5 {
			t.Errorf("withEdges=%v: max |sparse − dense| = %g > 1e-5", withEdges, diff)
		}
	}
}

func TestExphormerAttentionOptionsAgree(t *testing.T) {
	// RecomputeGathers, SortedByDst and EdgeTable change how, not what, is computed.
	rng := rand.New(rand.NewPCG(8, 3))
	n, d, e := 10, 8, 30
	src, dst := randomEdges(rng, n, e)
	x := tensor64(rng, 1, n, d)
	table := tensor64(rng, 1, 4, d)
	types := make([]int32, e)
	for i := range types {
		types[i] = int32(rng.IntN(4))
	}
	store := newStore(t, 4)
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		out0, w0 := NewExphormerAttention(scope.In("attn"), in[0], rows(in[3], in[4]), in[1], in[2], 4).DoneWithWeights()
		out1 := NewExphormerAttention(scope.Shared("attn"), in[0], nil, in[1], in[2], 4).EdgeTable(in[3], in[4]).
			RecomputeGathers(true).SortedByDst(true).Done()
		return []*Node{out0, w0, out1}
	}, x, src, dst, table, types)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), flat64(t, outs[2])); diff > 1e-12 {
		t.Errorf("edge table and recomputation change the output by %g", diff)
	}
	// The weights into each node with incoming edges sum to one, per head.
	weights := flat64(t, outs[1])
	sums := make([]float64, n*4)
	for k := range e {
		for h := range 4 {
			sums[int(dst[k])*4+h] += weights[k*4+h]
		}
	}
	for i := range n {
		for h := range 4 {
			if s := sums[i*4+h]; s != 0 && math.Abs(s-1) > 1e-12 {
				t.Errorf("weights into node %d, head %d sum to %g", i, h, s)
			}
		}
	}
}

func TestExphormerAttentionDropout(t *testing.T) {
	c := newAttnCase(9, 8, 8, 8, 2, 40)
	x := tensors.FromFlatDataAndDimensions(c.x, c.n, c.d)
	ef := tensors.FromFlatDataAndDimensions(c.ef, len(c.src), c.de)
	build := func(rate float64) graphFn {
		return func(scope *model.Scope, in []*Node) []*Node {
			return []*Node{NewExphormerAttention(scope.In("attn"), in[0], in[1], in[2], in[3], 2).Dropout(rate).Done()}
		}
	}
	store := newStore(t, 5)
	plain := flat64(t, runGraph(t, store, false, build(0), x, ef, c.src, c.dst)[0])
	inference := flat64(t, runGraph(t, store, false, build(0.5), x, ef, c.src, c.dst)[0])
	training := flat64(t, runGraph(t, store, true, build(0.5), x, ef, c.src, c.dst)[0])
	trainingNoDropout := flat64(t, runGraph(t, store, true, build(0), x, ef, c.src, c.dst)[0])
	if diff := maxAbsDiff(t, plain, inference); diff != 0 {
		t.Errorf("dropout changes the inference output by %g", diff)
	}
	if diff := maxAbsDiff(t, plain, trainingNoDropout); diff != 0 {
		t.Errorf("training mode without dropout changes the output by %g", diff)
	}
	if diff := maxAbsDiff(t, plain, training); diff < 1e-3 {
		t.Errorf("dropout 0.5 in training changes the output by only %g", diff)
	}
}

// TestVirtualNodeSeesEveryNode checks that one attention layer (alone and inside a GPS
// layer) makes the state of a virtual node, connected both ways to all real nodes,
// depend on every real node, and every real node depend on the virtual node.
func TestVirtualNodeSeesEveryNode(t *testing.T) {
	const real, d = 6, 4
	virtual := int32(real)
	var src, dst []int32
	for i := range int32(real) { // Real node i → virtual node.
		src, dst = append(src, i), append(dst, virtual)
	}
	for i := range int32(real) { // Virtual node → real node i.
		src, dst = append(src, virtual), append(dst, i)
	}
	types := make([]int32, len(src))
	for k := real; k < len(src); k++ {
		types[k] = 1
	}
	rng := rand.New(rand.NewPCG(10, 1))
	x := tensor64(rng, 1, real, d)
	layers := map[string]func(scope *model.Scope, x, src, dst, types *Node) *Node{
		"attention": func(scope *model.Scope, x, src, dst, types *Node) *Node {
			emb := EdgeTypeEmbedding(scope.In("types"), types, 2, d, x.DType())
			return NewExphormerAttention(scope.In("attn"), x, emb, src, dst, 2).Done()
		},
		"gps": func(scope *model.Scope, x, src, dst, types *Node) *Node {
			emb := EdgeTypeEmbedding(scope.In("types"), types, 2, d, x.DType())
			cfg := GPSConfig{Local: LocalNone, Global: GlobalExphormer, Norm: NormLayer, Heads: 2}
			out, _ := NewGPSLayer(scope.In("gps"), x, cfg).AttentionEdges(src, dst, emb).Done()
			return out
		},
	}
	for name, layer := range layers {
		t.Run(name, func(t *testing.T) {
			outs := runGraph(t, newStore(t, 6), false, func(scope *model.Scope, in []*Node) []*Node {
				h := AppendVirtualNodes(scope.In("virtual"), in[0], 1, 1) // [real+1, d]
				out := layer(scope, h, in[1], in[2], in[3])
				// Random weights: a plain sum of LayerNorm outputs would be constant.
				w := Const(in[0].Graph(), tensor64(rand.New(rand.NewPCG(1, 1)), 1, real+1, d))
				weighted := Mul(out, w)
				virtualOut := ReduceAllSum(Slice(weighted, AxisRange(real, real+1)))
				realOut := ReduceAllSum(Slice(weighted, AxisRange(0, real)))
				// Two gradients in one graph also checks that each backward pass gets its own.
				return []*Node{Gradient(virtualOut, in[0])[0], Gradient(realOut, h)[0]}
			}, x, src, dst, types)
			g := flat64(t, outs[0])
			for i := range real {
				norm := 0.0
				for k := range d {
					norm += math.Abs(g[i*d+k])
				}
				if norm == 0 {
					t.Errorf("the virtual node's output does not depend on real node %d", i)
				}
			}
			gv := flat64(t, outs[1])[real*d:]
			if slices.Max(gv) == 0 && slices.Min(gv) == 0 {
				t.Errorf("the real nodes' outputs do not depend on the virtual node")
			}
		})
	}
}

// TestExphormerAttentionTableModeMatchesPerEdge checks the table mode of EdgeTable
// (N·T ≤ E: the query factors q ⊙ ep come from the [N·T, D] products) against the same
// embeddings given per edge: outputs and the gradients of a loss with respect to the
// node states and the table, in training with RecomputeGathers on and off.
func TestExphormerAttentionTableModeMatchesPerEdge(t *testing.T) {
	n, d, e := 6, 8, 60 // N·T = 18 ≤ E = 60: table mode.
	src, dst, x, table, types := typedEdgeFixture(rand.New(rand.NewPCG(8, 4)), n, d, e, 3)
	for _, recompute := range []bool{false, true} {
		store := newStore(t, 4)
		outs := runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
			xN, tab := in[0], in[3]
			perEdge := NewExphormerAttention(scope.In("attn"), xN, rows(tab, in[4]), in[1], in[2], 2).Done()
			tableMode := NewExphormerAttention(scope.Shared("attn"), xN, nil, in[1], in[2], 2).EdgeTable(tab, in[4]).
				RecomputeGathers(recompute).Done()
			weight := Iota(xN.Graph(), shapes.Make(xN.DType(), n, d), 0)
			lossA, lossB := ReduceAllSum(Mul(perEdge, weight)), ReduceAllSum(Mul(tableMode, weight))
			ga, gb := Gradient(lossA, xN, tab), Gradient(lossB, xN, tab)
			return []*Node{perEdge, tableMode, ga[0], gb[0], ga[1], gb[1]}
		}, x, src, dst, table, types)
		for i, what := range []string{"output", "gradient of x", "gradient of the table"} {
			if diff := maxAbsDiff(t, flat64(t, outs[2*i]), flat64(t, outs[2*i+1])); diff > 1e-10 {
				t.Errorf("recompute=%v: %s differs by %g between table mode and per-edge embeddings", recompute, what, diff)
			}
		}
	}
}

// TestExphormerAttentionChunksAgree checks that processing the edges in chunks
// (EdgeChunkBytes) gives the output and the gradients of one pass over all edges, with
// per-edge embeddings, a table of them and none, in the exact and the reference softmax.
func TestExphormerAttentionChunksAgree(t *testing.T) {
	n, d, e := 6, 8, 61
	src, dst, x, table, types := typedEdgeFixture(rand.New(rand.NewPCG(8, 5)), n, d, e, 3)
	// 61 edges of 8 float64 values: 100 bytes per chunk makes 40 chunks of 1–2 edges.
	for _, mode := range []string{"per-edge", "table", "none"} {
		for _, reference := range []bool{false, true} {
			store := newStore(t, 4)
			outs := runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
				xN, tab := in[0], in[3]
				build := func(s *model.Scope, chunkBytes int) *Node {
					var b *ExphormerAttentionBuilder
					switch mode {
					case "per-edge":
						b = NewExphormerAttention(s, xN, rows(tab, in[4]), in[1], in[2], 2)
					case "table":
						b = NewExphormerAttention(s, xN, nil, in[1], in[2], 2).EdgeTable(tab, in[4])
					default:
						b = NewExphormerAttention(s, xN, nil, in[1], in[2], 2)
					}
					return b.Reference(reference).EdgeChunkBytes(chunkBytes).Done()
				}
				whole, chunked := build(scope.In("attn"), 0), build(scope.Shared("attn"), 100)
				weight := Iota(xN.Graph(), shapes.Make(xN.DType(), n, d), 0)
				ga := Gradient(ReduceAllSum(Mul(whole, weight)), xN, tab)
				gb := Gradient(ReduceAllSum(Mul(chunked, weight)), xN, tab)
				return []*Node{whole, chunked, ga[0], gb[0], ga[1], gb[1]}
			}, x, src, dst, table, types)
			for i, what := range []string{"output", "gradient of x", "gradient of the table"} {
				if mode == "none" && i == 2 {
					continue
				}
				if diff := maxAbsDiff(t, flat64(t, outs[2*i]), flat64(t, outs[2*i+1])); diff > 1e-10 {
					t.Errorf("%s, reference=%v: %s differs by %g between chunks and one pass", mode, reference, what, diff)
				}
			}
		}
	}
}

// typedEdgeFixture draws e random edges over n nodes, node states x [1, n, d], a table of
// numTypes edge embeddings [1, numTypes, d] and each edge's type.
func typedEdgeFixture(rng *rand.Rand, n, d, e, numTypes int) (src, dst []int32, x, table *tensors.Tensor, types []int32) {
	src, dst = randomEdges(rng, n, e)
	x = tensor64(rng, 1, n, d)
	table = tensor64(rng, 1, numTypes, d)
	types = make([]int32, e)
	for i := range types {
		types[i] = int32(rng.IntN(numTypes))
	}
	return src, dst, x, table, types
}
