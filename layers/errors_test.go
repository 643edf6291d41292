package layers

import (
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// TestBadInputs checks that every invalid argument of the graph-building API makes
// model.Exec.Call return an error naming the problem (instead of crashing).
func TestBadInputs(t *testing.T) {
	x := tensors.FromFlatDataAndDimensions(make([]float32, 4*4), 4, 4)     // in[0]: [4, 4]
	ef := tensors.FromFlatDataAndDimensions(make([]float32, 3*4), 3, 4)    // in[1]: [3, 4]
	src, dst := []int32{0, 1, 2}, []int32{1, 2, 3}                         // in[2], in[3]
	graphID := []int32{0, 0, 1, 1}                                         // in[4]
	ints := tensors.FromFlatDataAndDimensions(make([]int32, 4*4), 4, 4)    // in[5]
	mask3 := []bool{true, false, true}                                     // in[6]
	blocks := tensors.FromFlatDataAndDimensions([]int32{0, 1, 2, 3}, 2, 2) // in[7]: block layout [2, 2]
	type buildFn = func(scope *model.Scope, in []*Node) *Node
	attn := func(mod func(b *ExphormerAttentionBuilder)) buildFn {
		return func(scope *model.Scope, in []*Node) *Node {
			b := NewExphormerAttention(scope, in[0], in[1], in[2], in[3], 2)
			mod(b)
			return b.Done()
		}
	}
	gps := func(cfg GPSConfig, mod func(b *GPSLayerBuilder, in []*Node)) buildFn {
		return func(scope *model.Scope, in []*Node) *Node {
			b := NewGPSLayer(scope, in[0], cfg)
			mod(b, in)
			out, _ := b.Done()
			return out
		}
	}
	okCfg := GPSConfig{Local: LocalGINE, Global: GlobalExphormer, Norm: NormBatch, Heads: 2}
	cases := []struct {
		name, want string
		fn         buildFn
	}{
		{"attention x rank", "rank 2", func(s *model.Scope, in []*Node) *Node {
			return NewExphormerAttention(s, Reshape(in[0], 16), nil, in[2], in[3], 2).Done()
		}},
		{"attention x dtype", "float", func(s *model.Scope, in []*Node) *Node {
			return NewExphormerAttention(s, in[5], nil, in[2], in[3], 2).Done()
		}},
		{"attention heads", "numHeads", func(s *model.Scope, in []*Node) *Node {
			return NewExphormerAttention(s, in[0], nil, in[2], in[3], 3).Done()
		}},
		{"attention zero heads", "numHeads", func(s *model.Scope, in []*Node) *Node {
			return NewExphormerAttention(s, in[0], nil, in[2], in[3], 0).Done()
		}},
		{"attention src dtype", "integers", func(s *model.Scope, in []*Node) *Node {
			return NewExphormerAttention(s, in[0], nil, Slice(Reshape(in[0], 16), AxisRange(0, 3)), in[3], 2).Done()
		}},
		{"attention dst length", "3 entries", func(s *model.Scope, in []*Node) *Node {
			return NewExphormerAttention(s, in[0], nil, in[2], in[4], 2).Done()
		}},
		{"attention edge rows", "edge embeddings", attn(func(b *ExphormerAttentionBuilder) { b.edgeEmb = b.x })},
		{"attention edge dtype", "edge embeddings", attn(func(b *ExphormerAttentionBuilder) {
			b.edgeEmb = ConvertDType(b.edgeEmb, dtypes.Float64)
		})},
		{"attention both edges", "not both", attn(func(b *ExphormerAttentionBuilder) { b.EdgeTable(b.x, b.src) })},
		{"attention table index", "3 entries", attn(func(b *ExphormerAttentionBuilder) {
			b.edgeEmb = nil
			b.EdgeTable(b.x, Concatenate([]*Node{b.src, b.src}, 0))
		})},
		{"attention table dtype", "dtype", attn(func(b *ExphormerAttentionBuilder) {
			b.edgeEmb = nil
			b.EdgeTable(ConvertDType(b.x, dtypes.Float64), b.src)
		})},
		{"attention dropout", "dropout", attn(func(b *ExphormerAttentionBuilder) { b.Dropout(1) })},
		{"dense attention blockNodes", "blockNodes", func(s *model.Scope, in []*Node) *Node {
			return NewDenseAttention(s, in[0], in[4], 2).Done()
		}},
		{"dense attention blocks", "no slots", func(s *model.Scope, in []*Node) *Node {
			return NewDenseAttention(s, in[0], Slice(in[7], AxisRange(0, 0)), 2).Done()
		}},
		{"dense attention block dtype", "integers", func(s *model.Scope, in []*Node) *Node {
			return NewDenseAttention(s, in[0], ConvertDType(in[7], dtypes.Float32), 2).Done()
		}},
		{"dense attention heads", "numHeads", func(s *model.Scope, in []*Node) *Node {
			return NewDenseAttention(s, in[0], in[7], 3).Done()
		}},
		{"dense attention dropout", "dropout", func(s *model.Scope, in []*Node) *Node {
			return NewDenseAttention(s, in[0], in[7], 2).Dropout(-0.5).Done()
		}},
		{"performer features", "Features", func(s *model.Scope, in []*Node) *Node {
			return NewPerformerAttention(s, in[0], in[7], 2).Features(-1).Done()
		}},
		{"performer heads", "numHeads", func(s *model.Scope, in []*Node) *Node {
			return NewPerformerAttention(s, in[0], in[7], 5).Done()
		}},
		{"performer blockNodes", "blockNodes", func(s *model.Scope, in []*Node) *Node {
			return NewPerformerAttention(s, in[0], in[3], 2).Done()
		}},
		{"gatedgcn edge width", "edge states", func(s *model.Scope, in []*Node) *Node {
			h, _ := NewGatedGCN(s, in[0], Slice(in[1], AxisRange(), AxisRange(0, 2)), in[2], in[3]).Done()
			return h
		}},
		{"gatedgcn src length", "src", func(s *model.Scope, in []*Node) *Node {
			h, _ := NewGatedGCN(s, in[0], in[1], in[4], in[3]).Done()
			return h
		}},
		{"gatedgcn dropout", "dropout", func(s *model.Scope, in []*Node) *Node {
			h, _ := NewGatedGCN(s, in[0], in[1], in[2], in[3]).Dropout(2).Done()
			return h
		}},
		{"gatedgcn pe rows", "PE", func(s *model.Scope, in []*Node) *Node {
			h, _ := NewGatedGCN(s, in[0], in[1], in[2], in[3]).EquivStablePE(in[1]).Done()
			return h
		}},
		{"gatedgcn node mask", "mask", func(s *model.Scope, in []*Node) *Node {
			h, _ := NewGatedGCN(s, in[0], in[1], in[2], in[3]).NodeMask(in[6]).Done()
			return h
		}},
		{"gatedgcn edge mask", "mask", func(s *model.Scope, in []*Node) *Node {
			h, _ := NewGatedGCN(s, in[0], in[1], in[2], in[3]).EdgeMask(in[4]).Done()
			return h
		}},
		{"gine edge dtype", "edge states", func(s *model.Scope, in []*Node) *Node {
			return NewGINE(s, in[0], ConvertDType(in[1], dtypes.Float64), in[2], in[3]).Done()
		}},
		{"gcn dst length", "GCN dst", func(s *model.Scope, in []*Node) *Node { return GCNConv(s, in[0], in[2], in[4]) }},
		{"gcn x dtype", "float", func(s *model.Scope, in []*Node) *Node { return GCNConv(s, in[5], in[2], in[3]) }},
		{"ffn width", "width", func(s *model.Scope, in []*Node) *Node { return FeedForward(s, in[0], 0, 0) }},
		{"ffn dropout", "dropout", func(s *model.Scope, in []*Node) *Node { return FeedForward(s, in[0], 2, 1.5) }},
		{"batchnorm momentum", "momentum", func(s *model.Scope, in []*Node) *Node {
			return NewBatchNorm(s, in[0]).Momentum(2).Done()
		}},
		{"batchnorm epsilon", "epsilon", func(s *model.Scope, in []*Node) *Node {
			return NewBatchNorm(s, in[0]).Epsilon(0).Done()
		}},
		{"batchnorm mask", "mask", func(s *model.Scope, in []*Node) *Node { return NewBatchNorm(s, in[0]).Mask(in[6]).Done() }},
		{"batchnorm rank", "rank 2", func(s *model.Scope, in []*Node) *Node { return NewBatchNorm(s, Reshape(in[0], 16)).Done() }},
		{"gps config", "gps config", gps(GPSConfig{Local: "pna", Global: GlobalNone, Norm: NormNone}, func(*GPSLayerBuilder, []*Node) {})},
		{"gps local edges", "LocalEdges", gps(okCfg, func(b *GPSLayerBuilder, in []*Node) { b.AttentionEdges(in[2], in[3], in[1]) })},
		{"gps attention edges", "AttentionEdges", gps(okCfg, func(b *GPSLayerBuilder, in []*Node) { b.LocalEdges(in[2], in[3], in[1]) })},
		{"gps edge table dtype", "edge table dtype", gps(GPSConfig{Local: LocalNone, Global: GlobalExphormer, Norm: NormNone, Heads: 2},
			func(b *GPSLayerBuilder, in []*Node) {
				b.AttentionEdges(in[2], in[3], nil).AttentionEdgeTable(ConvertDType(in[1], dtypes.Float64), in[2])
			})},
		{"gps exphormer embeddings", "AttentionEdges", gps(okCfg, func(b *GPSLayerBuilder, in []*Node) {
			b.LocalEdges(in[2], in[3], in[1]).AttentionEdges(in[2], in[3], nil)
		})},
		{"gps bigbird edges", "bigbird", gps(GPSConfig{Local: LocalNone, Global: GlobalBigBird, Norm: NormNone, Heads: 2},
			func(*GPSLayerBuilder, []*Node) {})},
		{"gps blocks", "Blocks", gps(GPSConfig{Local: LocalNone, Global: GlobalFull, Norm: NormNone, Heads: 2},
			func(*GPSLayerBuilder, []*Node) {})},
		{"gps performer blocks", "Blocks", gps(GPSConfig{Local: LocalNone, Global: GlobalPerformer, Norm: NormNone, Heads: 2},
			func(b *GPSLayerBuilder, in []*Node) { b.Blocks(nil) })},
		{"gps x rank", "rank 2", func(s *model.Scope, in []*Node) *Node {
			out, _ := NewGPSLayer(s, Reshape(in[0], 16), GPSConfig{Local: LocalNone, Global: GlobalNone, Norm: NormNone}).Done()
			return out
		}},
		{"lappe dim", "dim", func(s *model.Scope, in []*Node) *Node { return NewLapPEEncoder(s, in[0], in[0], 0).Done() }},
		{"lappe kind", "kind", func(s *model.Scope, in []*Node) *Node {
			return NewLapPEEncoder(s, in[0], in[0], 2).Kind("mlp").Done()
		}},
		{"lappe values", "eigenvalues", func(s *model.Scope, in []*Node) *Node { return NewLapPEEncoder(s, in[0], nil, 2).Done() }},
		{"lappe values shape", "eigenvalues", func(s *model.Scope, in []*Node) *Node {
			return NewLapPEEncoder(s, in[0], in[1], 2).Done()
		}},
		{"lappe mask", "mask", func(s *model.Scope, in []*Node) *Node {
			return NewLapPEEncoder(s, in[0], in[0], 2).Mask(in[1]).Done()
		}},
		{"lappe layers", "Layers", func(s *model.Scope, in []*Node) *Node {
			return NewLapPEEncoder(s, in[0], in[0], 2).Layers(0).Done()
		}},
		{"eslappe dim", "dim", func(s *model.Scope, in []*Node) *Node { return ESLapPEEncoder(s, in[0], nil, 0) }},
		{"rwse dim", "dim", func(s *model.Scope, in []*Node) *Node { return RWSEEncoder(s, in[0], -1, false) }},
		{"mlp head layers", "Layers", func(s *model.Scope, in []*Node) *Node { return NewMLPHead(s, in[0], 2).Layers(0).Done() }},
		{"mlp head outDim", "outDim", func(s *model.Scope, in []*Node) *Node { return NewMLPHead(s, in[0], 0).Done() }},
		{"mlp head rank", "rank 2", func(s *model.Scope, in []*Node) *Node { return NewMLPHead(s, Reshape(in[0], 16), 2).Done() }},
		{"pool graphs", "numGraphs", func(s *model.Scope, in []*Node) *Node { return GraphPool(in[0], in[4], nil, 0, PoolSum) }},
		{"pool mode", "mode", func(s *model.Scope, in []*Node) *Node { return GraphPool(in[0], in[4], nil, 2, "median") }},
		{"pool mask", "mask", func(s *model.Scope, in []*Node) *Node { return GraphPool(in[0], in[4], in[6], 2, PoolMean) }},
		{"cross entropy labels", "integers", func(s *model.Scope, in []*Node) *Node {
			return CrossEntropy(in[0], Slice(Reshape(in[0], 16), AxisRange(0, 4)), nil)
		}},
		{"cross entropy weights", "weights", func(s *model.Scope, in []*Node) *Node { return CrossEntropy(in[0], in[4], in[6]) }},
		{"weighted cross entropy weights", "weights", func(s *model.Scope, in []*Node) *Node {
			return WeightedCrossEntropy(in[0], in[4], in[6])
		}},
		{"bce shape", "BCE targets", func(s *model.Scope, in []*Node) *Node { return BCEWithLogits(in[0], in[1], nil) }},
		{"mae shape", "MAE targets", func(s *model.Scope, in []*Node) *Node { return MAE(in[0], in[1], nil) }},
		{"mse shape", "MSE targets", func(s *model.Scope, in []*Node) *Node { return MSE(in[0], in[1], nil) }},
		{"loss weights shape", "loss weights", func(s *model.Scope, in []*Node) *Node { return MAE(in[0], in[0], in[6]) }},
		{"loss entry weights shape", "loss weights", func(s *model.Scope, in []*Node) *Node {
			return BCEWithLogits(in[0], in[0], in[1])
		}},
		{"edge type dtype", "integers", func(s *model.Scope, in []*Node) *Node {
			return EdgeTypeEmbedding(s, Reshape(in[0], 16), 2, 4, dtypes.Float32)
		}},
		{"edge type count", "positive sizes", func(s *model.Scope, in []*Node) *Node {
			return EdgeTypeEmbedding(s, in[2], 0, 4, dtypes.Float32)
		}},
		{"mixed embedding rank", "rank 2", func(s *model.Scope, in []*Node) *Node { return MixedEdgeEmbedding(s, in[2], in[2], 2) }},
		{"mixed table rank", "rank 2", func(s *model.Scope, in []*Node) *Node {
			table, _ := MixedEdgeTable(s, in[2], nil, in[2], 2)
			return table
		}},
		{"mixed table dtype", "float", func(s *model.Scope, in []*Node) *Node {
			table, _ := MixedEdgeTable(s, in[5], nil, in[2], 2)
			return table
		}},
		{"mixed table index", "integers", func(s *model.Scope, in []*Node) *Node {
			_, index := MixedEdgeTable(s, in[0], Reshape(in[0], 16), in[2], 2)
			return index
		}},
		{"mixed table sources", "integers", func(s *model.Scope, in []*Node) *Node {
			_, index := MixedEdgeTable(s, in[0], nil, Reshape(in[0], 16), 2)
			return index
		}},
		{"virtual nodes", "numGraphs", func(s *model.Scope, in []*Node) *Node {
			return VirtualNodeEmbedding(s, in[0].Graph(), 1, 0, 4, dtypes.Float32)
		}},
	}
	for _, c := range cases {
		err := runGraphErr(t, func(scope *model.Scope, in []*Node) []*Node {
			return []*Node{c.fn(scope, in)}
		}, x, ef, src, dst, graphID, ints, mask3, blocks)
		if err == nil {
			t.Errorf("%s: no error", c.name)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not mention %q", c.name, firstLine(err.Error()), c.want)
		}
	}
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
