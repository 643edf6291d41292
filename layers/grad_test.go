package layers

import (
	"math/rand/v2"
	"testing"

	"github.com/gexph/gexph/expander"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

func TestExphormerAttentionGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, d, e := 7, 8, 18
	src, dst := randomEdges(rng, n, e)
	x := tensor64(rng, 1, n, d)
	ef := tensor64(rng, 1, e, d)
	table := tensor64(rng, 1, 3, d)
	types := make([]int32, e)
	for i := range types {
		types[i] = int32(rng.IntN(3))
	}
	cases := []struct {
		name              string
		build             func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder
		noEdge, edgeTable bool
	}{
		{name: "exact", build: func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder { return b }},
		{name: "reference", build: func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder { return b.Reference(true) }},
		{name: "recompute", build: func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder {
			return b.RecomputeGathers(true).SortedByDst(true)
		}},
		{name: "dropout", build: func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder { return b.Dropout(0.3) }},
		{name: "bias+output", build: func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder {
			return b.UseBias(true).OutputProjection(true)
		}},
		{name: "no-edges", noEdge: true, build: func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder { return b }},
		{name: "edge-table", edgeTable: true, build: func(b *ExphormerAttentionBuilder) *ExphormerAttentionBuilder { return b }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkGradients(t, gradCheck{
				inputs: []any{x, ef, src, dst, table, types},
				wrt:    []int{0, 1, 4},
				seed:   3,
				layer: func(scope *model.Scope, in []*Node) *Node {
					edges := in[1]
					if tc.noEdge || tc.edgeTable {
						edges = nil
					}
					b := NewExphormerAttention(scope.In("attn"), in[0], edges, in[2], in[3], 2)
					if tc.edgeTable {
						b.EdgeTable(in[4], in[5])
					}
					out := tc.build(b).Done()
					if tc.noEdge || tc.edgeTable {
						// Keep the unused inputs in the graph (their gradient is then zero).
						out = Add(out, MulScalar(ReduceAllSum(in[1]), 0))
					}
					if !tc.edgeTable {
						out = Add(out, MulScalar(ReduceAllSum(in[4]), 0))
					}
					return out
				},
			})
		})
	}
}

// mpnnInputs returns node states [n, d], edge states [e, d], random edges without self
// loops (whose PE distance 0 would put the gate MLP's ReLU exactly at its kink, where
// finite differences disagree with any derivative) and an equivariant-stable PE [n, 3].
func mpnnInputs(seed uint64, n, d, e int) (x, ef, pe any, src, dst []int32) {
	rng := rand.New(rand.NewPCG(seed, 5))
	src, dst = randomEdges(rng, n, e)
	for i := range src {
		if src[i] == dst[i] {
			src[i] = (src[i] + 1) % int32(n)
		}
	}
	return tensor64(rng, 1, n, d), tensor64(rng, 1, e, d), tensor64(rng, 1, n, 3), src, dst
}

func TestMPNNGradients(t *testing.T) {
	x, ef, pe, src, dst := mpnnInputs(4, 6, 4, 14)
	inputs := []any{x, ef, src, dst, pe}
	mask := []bool{true, true, false, true, true, true}
	edgeMask := make([]bool, 14)
	for i := range edgeMask {
		edgeMask[i] = i%4 != 0
	}
	cases := map[string]func(scope *model.Scope, in []*Node) *Node{
		"gatedgcn": func(scope *model.Scope, in []*Node) *Node {
			h, e := NewGatedGCN(scope, in[0], in[1], in[2], in[3]).Done()
			return Concatenate([]*Node{h, e}, 0)
		},
		"gatedgcn-pe-masks": func(scope *model.Scope, in []*Node) *Node {
			g := in[0].Graph()
			h, e := NewGatedGCN(scope, in[0], in[1], in[2], in[3]).EquivStablePE(in[4]).
				NodeMask(Const(g, mask)).EdgeMask(Const(g, edgeMask)).Done()
			return Concatenate([]*Node{h, e}, 0)
		},
		"gatedgcn-plain": func(scope *model.Scope, in []*Node) *Node {
			h, e := NewGatedGCN(scope, in[0], in[1], in[2], in[3]).BatchNorm(false).Residual(false).Done()
			return Concatenate([]*Node{h, e}, 0)
		},
		"gine": func(scope *model.Scope, in []*Node) *Node {
			return NewGINE(scope, in[0], in[1], in[2], in[3]).Epsilon(0.25).TrainEpsilon(true).Done()
		},
		"gine-pe": func(scope *model.Scope, in []*Node) *Node {
			return NewGINE(scope, in[0], in[1], in[2], in[3]).EquivStablePE(in[4]).Done()
		},
		"gcn": func(scope *model.Scope, in []*Node) *Node {
			return Add(GCNConv(scope, in[0], in[2], in[3]), MulScalar(ReduceAllSum(in[1]), 0))
		},
		"sage": func(scope *model.Scope, in []*Node) *Node {
			return Add(SAGEConv(scope, in[0], in[2], in[3]), MulScalar(ReduceAllSum(in[1]), 0))
		},
		"gat": func(scope *model.Scope, in []*Node) *Node {
			return Add(NewGAT(scope, in[0], in[2], in[3], 2).AttentionDropout(0.2).Done(), MulScalar(ReduceAllSum(in[1]), 0))
		},
		"pre-mp": func(scope *model.Scope, in []*Node) *Node {
			return Add(NewPreMP(scope, in[0]).Layers(2).Dropout(0.2).BatchNorm(nil).Done(), MulScalar(ReduceAllSum(in[1]), 0))
		},
		"ffn": func(scope *model.Scope, in []*Node) *Node {
			return Add(FeedForward(scope, in[0], 2, 0.2), MulScalar(ReduceAllSum(in[1]), 0))
		},
	}
	for name, layer := range cases {
		t.Run(name, func(t *testing.T) {
			checkGradients(t, gradCheck{inputs: inputs, wrt: []int{0, 1, 4}, seed: 5, layer: func(scope *model.Scope, in []*Node) *Node {
				// Keep every differentiated input in the graph.
				return Add(layer(scope.In("layer"), in), MulScalar(ReduceAllSum(in[4]), 0))
			}})
		})
	}
}

func TestNormGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	x := tensor64(rng, 2, 9, 5)
	mask := []float64{1, 1, 0, 1, 0, 1, 1, 1, 0}
	cases := map[string]func(scope *model.Scope, in []*Node) *Node{
		"batchnorm":        func(scope *model.Scope, in []*Node) *Node { return NewBatchNorm(scope, in[0]).Done() },
		"batchnorm-masked": func(scope *model.Scope, in []*Node) *Node { return NewBatchNorm(scope, in[0]).Mask(in[1]).Done() },
		"layernorm":        func(scope *model.Scope, in []*Node) *Node { return layerNorm(scope, in[0]) },
	}
	for name, layer := range cases {
		t.Run(name, func(t *testing.T) {
			checkGradients(t, gradCheck{inputs: []any{x, mask}, wrt: []int{0}, seed: 6, layer: layer})
		})
	}
}

func TestGlobalAttentionGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	n, d := 9, 8
	graphID := []int32{0, 0, 0, 1, 1, 1, 1, 2, 2}
	x := tensor64(rng, 1, n, d)
	bbSrc, bbDst, err := expander.BigBirdPattern(graphID, 2, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Block layouts: tight (3 graphs of 4 slots), padded (6 slots) and one graph.
	tight, padded, one := blockTensor(t, graphID, 3, 0), blockTensor(t, graphID, 3, 6), blockTensor(t, make([]int32, n), 1, 0)
	cases := map[string]func(scope *model.Scope, in []*Node) *Node{
		"dense": func(scope *model.Scope, in []*Node) *Node {
			return NewDenseAttention(scope, in[0], in[1], 2).Dropout(0.2).Done()
		},
		"dense-padded": func(scope *model.Scope, in []*Node) *Node {
			return NewDenseAttention(scope, in[0], in[4], 2).Done()
		},
		"performer": func(scope *model.Scope, in []*Node) *Node {
			return NewPerformerAttention(scope, in[0], in[1], 2).Features(6).Done()
		},
		"performer-one-graph": func(scope *model.Scope, in []*Node) *Node {
			return NewPerformerAttention(scope, in[0], in[5], 2).Features(6).Done()
		},
		"bigbird": func(scope *model.Scope, in []*Node) *Node {
			return NewBigBirdAttention(scope, in[0], in[2], in[3], 2, 0.1)
		},
	}
	for name, layer := range cases {
		t.Run(name, func(t *testing.T) {
			checkGradients(t, gradCheck{inputs: []any{x, tight, bbSrc, bbDst, padded, one}, wrt: []int{0}, seed: 8, layer: layer})
		})
	}
}

func TestGPSLayerGradients(t *testing.T) {
	n, d := 8, 8
	x, ef, pe, src, dst := mpnnInputs(9, n, d, 16)
	rng := rand.New(rand.NewPCG(9, 2))
	hSrc, hDst := randomEdges(rng, n, 20)
	hEmb := tensor64(rng, 1, 20, d)
	graphID := []int32{0, 0, 0, 0, 1, 1, 1, 1}
	blocks, size, err := expander.BlockNodes(graphID, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	blockNodes := tensors.FromFlatDataAndDimensions(blocks, 2, size)
	mask := []bool{true, true, true, false, true, true, true, false}
	edgeMask := make([]bool, 16)
	for i := range edgeMask {
		edgeMask[i] = i%5 != 0
	}
	configs := map[string]GPSConfig{
		"gatedgcn+exphormer": {Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 2, Dropout: 0.1, AttentionDropout: 0.2},
		"gine+full":          {Local: LocalGINE, Global: GlobalFull, Norm: NormLayer, Heads: 2},
		"gcn+performer":      {Local: LocalGCN, Global: GlobalPerformer, Norm: NormBatch, Heads: 2, PerformerFeatures: 4},
		"none+exphormer-ref": {Local: LocalNone, Global: GlobalExphormer, Norm: NormNone, Heads: 2, ReferenceAttention: true},
		"classic-sage+exphormer": {Block: BlockClassic, Local: LocalSAGE, Global: GlobalExphormer, Norm: NormLayer, Heads: 2,
			LinearResidual: true, Dropout: 0.2},
		"classic-gat-batch": {Block: BlockClassic, Local: LocalGAT, Global: GlobalNone, Norm: NormBatch, Heads: 2, LocalHeads: 1, Dropout: 0.1},
		"classic-gcn":       {Block: BlockClassic, Local: LocalGCN, Global: GlobalNone, Norm: NormNone, LinearResidual: true},
	}
	// Every kind: each local model beside Exphormer, each global model beside GCN.
	addEveryKind(configs, GPSConfig{Global: GlobalExphormer, Norm: NormLayer, Heads: 2},
		GPSConfig{Local: LocalGCN, Norm: NormLayer, Heads: 2, PerformerFeatures: 4})
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			checkGradients(t, gradCheck{
				inputs: []any{x, ef, src, dst, pe, hSrc, hDst, hEmb, blockNodes, mask, edgeMask},
				wrt:    []int{0, 1, 4, 7},
				seed:   10,
				layer: func(scope *model.Scope, in []*Node) *Node {
					h, e := NewGPSLayer(scope.In("gps"), in[0], cfg).
						LocalEdges(in[2], in[3], in[1]).AttentionEdges(in[5], in[6], in[7]).
						Blocks(in[8]).EquivStablePE(in[4]).NormMask(in[9]).LocalEdgeMask(in[10]).Done()
					// Every differentiated input stays in the graph.
					extra := Add(MulScalar(ReduceAllSum(in[4]), 0), MulScalar(ReduceAllSum(in[7]), 0))
					return Add(Concatenate([]*Node{h, e}, 0), extra)
				},
			})
		})
	}
}

func TestEncoderGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	n, k := 6, 3
	vecs := tensor64(rng, 0.5, n, k)
	vals := tensor64(rng, 0.5, n, k)
	rwse := tensor64(rng, 0.2, n, 4)
	mask := []bool{true, true, false, true, true, false, true, true, true, true, true, false, true, true, true, true, false, true}
	cases := map[string]func(scope *model.Scope, in []*Node) *Node{
		"lappe-deepset": func(scope *model.Scope, in []*Node) *Node {
			return NewLapPEEncoder(scope, in[0], in[1], 4).Mask(Reshape(in[3], n, k)).Layers(3).PostLayers(2).Done()
		},
		"lappe-linear": func(scope *model.Scope, in []*Node) *Node {
			return NewLapPEEncoder(scope, in[0], nil, 4).Kind(LapPELinear).Done()
		},
		"eslappe": func(scope *model.Scope, in []*Node) *Node {
			return ESLapPEEncoder(scope, in[0], Reshape(in[3], n, k), 4)
		},
		"rwse": func(scope *model.Scope, in []*Node) *Node { return RWSEEncoder(scope, in[2], 4, true) },
	}
	for name, layer := range cases {
		t.Run(name, func(t *testing.T) {
			checkGradients(t, gradCheck{inputs: []any{vecs, vals, rwse, mask}, wrt: []int{0, 1, 2}, seed: 12,
				layer: func(scope *model.Scope, in []*Node) *Node {
					extra := MulScalar(Add(Add(ReduceAllSum(in[0]), ReduceAllSum(in[1])), ReduceAllSum(in[2])), 0)
					return Add(layer(scope, in), extra)
				}})
		})
	}
}

// TestRepeatedBackwardPasses checks that the hand-written gradients are rebuilt for each
// backward pass when one graph computes several gradients.
func TestRepeatedBackwardPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	n, d, e := 6, 4, 14
	src, dst := randomEdges(rng, n, e)
	x, ef := tensor64(rng, 1, n, d), tensor64(rng, 1, e, d)
	w1, w2 := tensor64(rng, 1, n, d), tensor64(rng, 1, n, d)
	build := func(scope *model.Scope, in []*Node) *Node {
		return NewExphormerAttention(scope.In("attn"), in[0], in[1], in[2], in[3], 2).OutputProjection(true).Done()
	}
	grads := func(both bool, which int) []float64 {
		outs := runGraph(t, newStore(t, 14), true, func(scope *model.Scope, in []*Node) []*Node {
			out := build(scope, in)
			l1, l2 := ReduceAllSum(Mul(out, in[4])), ReduceAllSum(Mul(out, in[5]))
			weights := scope.Store().GetVariable("/attn/qkv/dense/weights").NodeValue(out.Graph())
			var res []*Node
			for i, l := range []*Node{l1, l2} {
				if both || i == which {
					res = append(res, Gradient(l, in[0], in[1], weights)...)
				}
			}
			return res
		}, x, ef, src, dst, w1, w2)
		var flat []float64
		for _, o := range outs {
			flat = append(flat, flat64(t, o)...)
		}
		return flat
	}
	together := grads(true, 0)
	separate := append(grads(false, 0), grads(false, 1)...)
	if diff := maxAbsDiff(t, together, separate); diff > 1e-12 {
		t.Errorf("two gradients in one graph differ from separate ones by %g", diff)
	}
}
