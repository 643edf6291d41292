package layers

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
)

// The BlockClassic layer: the layer of the classic GNNs of Luo et al. (NeurIPS 2024,
// repository LUOyk1999/tunedGNN, medium_graph/model.py, class MPNNs), with Exphormer
// attention as one more term of its sum.

// validateClassic checks the fields that depend on the layer's form.
func (c GPSConfig) validateClassic() error {
	if c.Block != BlockClassic {
		if c.LinearResidual {
			return &FieldError{"LinearResidual", fmt.Sprintf("needs block %q (block %q has identity residuals)", BlockClassic, BlockGPS)}
		}
		return nil
	}
	switch {
	case c.Local.UsesEdgeFeatures():
		return &FieldError{"Local", fmt.Sprintf("%q reads edge states of the layer's width, which block %q does not carry (choices: %s)",
			c.Local, BlockClassic, choices([]LocalModel{LocalGCN, LocalSAGE, LocalGAT, LocalNone}))}
	case c.Global != GlobalNone && c.Global != GlobalExphormer:
		return &FieldError{"Global", fmt.Sprintf("block %q takes %q or %q, not %q", BlockClassic, GlobalExphormer, GlobalNone, c.Global)}
	case c.Local == LocalNone && c.Global == GlobalNone && !c.LinearResidual:
		return &FieldError{"Local", fmt.Sprintf("block %q with no local model, no attention and no linear residual computes nothing", BlockClassic)}
	}
	return nil
}

// localHeads is the number of heads of the gat local model: LocalHeads, else Heads (at
// least 1).
func (c GPSConfig) localHeads() int {
	if c.LocalHeads > 0 {
		return c.LocalHeads
	}
	return max(c.Heads, 1)
}

// classicLocalMaps is the number of linear maps of its input the local model of a
// BlockClassic layer reads: gcn and gat one (W), sage two (W_r, then W_n), none none.
func (m LocalModel) classicLocalMaps() int {
	switch m {
	case LocalGCN, LocalGAT:
		return 1
	case LocalSAGE:
		return 2
	}
	return 0
}

// ClassicInputMaps is the number of linear maps of its input, each [N, D] and without
// bias, that a BlockClassic layer reads (0 for BlockGPS), in this order: the local
// model's (gcn and gat: W; sage: W_r, then W_n), the linear residual's weight, the
// attention's W_Q, W_K and W_V. A first layer given them (GPSLayerBuilder.InputMaps)
// reads the raw features through them alone.
func (c GPSConfig) ClassicInputMaps() int {
	if c.Block != BlockClassic {
		return 0
	}
	k := c.Local.classicLocalMaps()
	if c.LinearResidual {
		k++
	}
	if c.Global == GlobalExphormer {
		k += 3
	}
	return k
}

// classic builds a BlockClassic layer on x [N, D] (or on the given InputMaps):
//
//	x' = dropout(ReLU(norm(local(x) + [x W_res + b_res] + [attention(x)])))
//
// as Luo et al.'s MPNNs.forward: the local model's output (their GCNConv, SAGEConv, or
// GATConv with one self loop per node and no bias), with LinearResidual their
// lins[i](x) (--res), with Exphormer attention its output, then their LayerNorm or
// BatchNorm (--ln, --bn; NormNone: neither), ReLU and dropout. Variables in scope:
// "local", "residual", "attention", "norm".
func (b *GPSLayerBuilder) classic() *Node {
	cfg := b.cfg
	maps := b.inputMaps
	if maps != nil {
		if len(maps) != cfg.ClassicInputMaps() {
			failf("GPS layer: block %q with %s, residual %v and %s reads %d input maps, got %d",
				BlockClassic, cfg.Local, cfg.LinearResidual, cfg.Global, cfg.ClassicInputMaps(), len(maps))
		}
	} else {
		checkRank("GPS input x", b.x, 2)
		checkFloat("GPS input x", b.x)
	}
	if b.firstVirtual >= 0 {
		failf("GPS layer: ReferenceVirtualNodes needs block %q", BlockGPS)
	}
	next := func(k int) []*Node {
		if maps == nil {
			return nil
		}
		out := maps[:k]
		maps = maps[k:]
		return out
	}
	var terms []*Node
	if cfg.Local != LocalNone {
		terms = append(terms, b.classicLocal(next(cfg.Local.classicLocalMaps())))
	}
	if cfg.LinearResidual {
		terms = append(terms, b.linearResidual(next(1)))
	}
	if cfg.Global != GlobalNone {
		terms = append(terms, b.global(b.scope.In("attention"), b.x, next(3)))
	}
	return dropout(b.scope, relu(b.normalize("norm", sumOf(terms))), cfg.Dropout)
}

// classicLocal builds the local model's output of a BlockClassic layer, from x or from
// its given input maps.
func (b *GPSLayerBuilder) classicLocal(maps []*Node) *Node {
	cfg := b.cfg
	if b.localSrc == nil || b.localDst == nil {
		failf("GPS layer: local model %q needs LocalEdges", cfg.Local)
	}
	scope := b.scope.In("local")
	switch cfg.Local {
	case LocalGCN:
		if maps != nil {
			return GCNAggregate(scope, maps[0], b.localSrc, b.localDst, b.localInDegree)
		}
		return GCNConvDegrees(scope, b.x, b.localSrc, b.localDst, b.localInDegree)
	case LocalSAGE:
		if maps != nil {
			return SAGEAggregate(scope, maps[0], maps[1], b.localSrc, b.localDst)
		}
		return SAGEConv(scope, b.x, b.localSrc, b.localDst)
	case LocalGAT:
		gat := NewGAT(scope, b.x, b.localSrc, b.localDst, cfg.localHeads()).Bias(false)
		if maps != nil {
			gat.Projected(maps[0])
		}
		return gat.Done()
	}
	failf("GPS layer: block %q has no local model %q", BlockClassic, cfg.Local)
	return nil
}

// linearResidual builds x W_res + b_res, from x or from the given map x W_res. The
// variables are dense's ("residual/dense/weights" and "biases"); a given map has its
// weight outside the layer and its bias initialised by the scope's initializer.
func (b *GPSLayerBuilder) linearResidual(maps []*Node) *Node {
	if maps == nil {
		return dense(b.scope, "residual", b.x, true, dim(b.x, 1))
	}
	xw := maps[0]
	bias := b.scope.In("residual").In("dense").VariableWithShape("biases", shapes.Make(xw.DType(), dim(xw, 1))).NodeValue(xw.Graph())
	return Add(xw, InsertAxes(bias, 0))
}
