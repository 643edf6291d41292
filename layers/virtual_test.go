package layers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gexph/gexph/expander"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// cycleGraph is a cycle on n nodes plus the chord 0–2, stored both ways.
func cycleGraph(n int, seed uint64) expander.InputGraph {
	g := expander.InputGraph{NumNodes: n, Seed: seed}
	add := func(u, v int) {
		g.Src = append(g.Src, int32(u), int32(v))
		g.Dst = append(g.Dst, int32(v), int32(u))
	}
	for i := range n {
		add(i, (i+1)%n)
	}
	add(0, 2)
	return g
}

// TestVirtualNodesInteractionBatch composes the documented pieces on a batch of three
// graphs of different sizes with two virtual nodes each: expander.BuildBatch, the
// endpoints of PaddedEndpoints and the sources of EdgeSources, AppendVirtualNodes,
// MixedEdgeTable and Exphormer attention. Each virtual node's output must be softmax
// attention over exactly the real nodes of its own graph, computed here in float64 from
// the graph sizes alone; each real node's output must depend on the virtual nodes of its
// own graph and on no node of another graph; padding rows (when the real nodes take more
// rows than there are real nodes) get no attention.
func TestVirtualNodesInteractionBatch(t *testing.T) {
	const d, heads, numVirtual = 8, 2, 2
	sizes := []int{5, 8, 6}
	numGraphs := len(sizes)
	graphs := make([]expander.InputGraph, numGraphs)
	for g, n := range sizes {
		graphs[g] = cycleGraph(n, uint64(g))
	}
	// The graph of each real node, from the sizes.
	var graphOf []int
	for g, n := range sizes {
		for range n {
			graphOf = append(graphOf, g)
		}
	}
	numReal := len(graphOf)
	for _, withExpander := range []bool{false, true} {
		for _, pad := range []int{0, 3} {
			t.Run(fmt.Sprintf("expander=%v,pad=%d", withExpander, pad), func(t *testing.T) {
				opts := expander.DefaultInteractionOptions()
				opts.Expander = withExpander
				opts.VirtualNodes = numVirtual
				opts.Seed = 11
				h, err := expander.BuildBatch(graphs, opts)
				if err != nil {
					t.Fatal(err)
				}
				if h.NumReal != numReal || h.VirtualPerGraph != numVirtual {
					t.Fatalf("interaction has %d real nodes and %d virtual per graph, want %d and %d",
						h.NumReal, h.VirtualPerGraph, numReal, numVirtual)
				}
				realSlots := numReal + pad
				src, dst, err := h.PaddedEndpoints(realSlots)
				if err != nil {
					t.Fatal(err)
				}
				sources, err := h.EdgeSources()
				if err != nil {
					t.Fatal(err)
				}
				numLocal := int(h.EdgeOffset[numGraphs])
				rng := rand.New(rand.NewPCG(uint64(81+pad), 1))
				xT := tensor64(rng, 1, realSlots, d) // Padding rows hold random values too.
				efT := tensor64(rng, 1, numLocal, d)
				x := flat64(t, xT)
				numRows := realSlots + numGraphs*numVirtual
				// Random output weights for the dependency checks.
				wOut := tensor64(rng, 1, 1, d)
				probes := []int{1, sizes[0] + 3, sizes[0] + sizes[1] + 5} // One real node per graph.
				store := newStore(t, 82)
				outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
					states := AppendVirtualNodes(scope.In("virtual"), in[0], numVirtual, numGraphs)
					table, index := MixedEdgeTable(scope.In("mixed"), in[1], nil, in[4], expander.NumLearnedEdgeTypes(numVirtual))
					out := NewExphormerAttention(scope.In("attn"), states, nil, in[2], in[3], heads).
						EdgeTable(table, index).Done()
					res := []*Node{out}
					for _, r := range probes {
						loss := ReduceAllSum(Mul(Slice(out, AxisRange(r, r+1)), in[5]))
						res = append(res, Gradient(loss, states)[0])
					}
					return res
				}, xT, efT, src, dst, sources, wOut)
				got := flat64(t, outs[0])
				if len(got) != numRows*d {
					t.Fatalf("output has %d values, want %d rows of %d", len(got), numRows, d)
				}

				// Virtual nodes: softmax attention over the real nodes of their graph, with the
				// learned type of the edges into virtual node t.
				v := func(path string) []float64 { return varValue(t, store, path) }
				wqkv, we := v("/attn/qkv/dense/weights"), v("/attn/edge/dense/weights")
				typeTable, virtual := v("/mixed/embeddings"), v("/virtual/embeddings")
				kv := matmulRows(x, realSlots, d, wqkv, 3*d) // [realSlots, 3d]: q | k | v.
				dh := d / heads
				for g := range numGraphs {
					for tt := range numVirtual {
						q := matmulRows(virtual[tt*d:(tt+1)*d], 1, d, wqkv, 3*d)[:d]
						ty := int(expander.LearnedEdgeType(expander.EdgeGlobalIn, tt))
						e := matmulRows(typeTable[ty*d:(ty+1)*d], 1, d, we, d)
						want := make([]float64, d)
						for hh := range heads {
							var scores []float64
							var keys []int
							for j := range numReal {
								if graphOf[j] != g {
									continue
								}
								s := 0.0
								for c := hh * dh; c < (hh+1)*dh; c++ {
									s += q[c] * kv[j*3*d+d+c] * e[c]
								}
								scores, keys = append(scores, s/math.Sqrt(float64(dh))), append(keys, j)
							}
							top := math.Inf(-1)
							for _, s := range scores {
								top = max(top, s)
							}
							den := 0.0
							for _, s := range scores {
								den += math.Exp(s - top)
							}
							for a, j := range keys {
								w := math.Exp(scores[a]-top) / den
								for c := hh * dh; c < (hh+1)*dh; c++ {
									want[c] += w * kv[j*3*d+2*d+c]
								}
							}
						}
						row := realSlots + g*numVirtual + tt
						if diff := maxAbsDiff(t, got[row*d:(row+1)*d], want); diff > 1e-10 {
							t.Errorf("virtual node %d of graph %d (row %d) differs from attention over its graph by %g",
								tt, g, row, diff)
						}
					}
				}
				// Padding rows receive no edge: zero output.
				for r := numReal; r < realSlots; r++ {
					if diff := maxAbsDiff(t, got[r*d:(r+1)*d], make([]float64, d)); diff != 0 {
						t.Errorf("padding row %d has output %v", r, got[r*d:(r+1)*d])
					}
				}
				// Real nodes: the gradient of a probe's output reaches its own graph's virtual
				// nodes and no row of another graph.
				for p, r := range probes {
					grad := flat64(t, outs[1+p])
					norm := func(row int) float64 {
						s := 0.0
						for c := range d {
							s += math.Abs(grad[row*d+c])
						}
						return s
					}
					gr := graphOf[r]
					for g := range numGraphs {
						for tt := range numVirtual {
							row := realSlots + g*numVirtual + tt
							if g == gr && norm(row) == 0 {
								t.Errorf("real node %d (graph %d) does not depend on its virtual node %d (row %d)", r, gr, tt, row)
							}
							if g != gr && norm(row) != 0 {
								t.Errorf("real node %d (graph %d) depends on virtual node %d of graph %d (row %d)", r, gr, tt, g, row)
							}
						}
					}
					for j := range realSlots {
						if (j >= numReal || graphOf[j] != gr) && norm(j) != 0 {
							t.Errorf("real node %d (graph %d) depends on row %d outside its graph", r, gr, j)
						}
					}
				}
			})
		}
	}
}
