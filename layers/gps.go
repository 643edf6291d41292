package layers

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// GPSConfig holds the hyperparameters of a GPS layer.
type GPSConfig struct {
	// Local is the message-passing model.
	Local LocalModel
	// Global is the attention model.
	Global GlobalModel
	// Norm is the normalisation after each block.
	Norm Norm
	// Heads is the number of attention heads; it must divide the hidden size.
	Heads int
	// Dropout is the rate of dropout on the local and global outputs and in the FFN.
	Dropout float64
	// AttentionDropout is the rate of dropout on the attention weights.
	AttentionDropout float64
	// ReferenceAttention selects the reference code's clamped softmax for Exphormer.
	ReferenceAttention bool
	// RecomputeGathers trades time for memory in Exphormer attention (see
	// ExphormerAttentionBuilder.RecomputeGathers).
	RecomputeGathers bool
	// AttentionChunkBytes bounds Exphormer attention's per-edge tensors (see
	// ExphormerAttentionBuilder.EdgeChunkBytes); 0 means DefaultEdgeChunkBytes.
	AttentionChunkBytes int
	// NormalizeValues scales Exphormer attention's value vectors to unit norm (see
	// ExphormerAttentionBuilder.NormalizeValues).
	NormalizeValues bool
	// PerformerFeatures is the number of random features (0: performer_pytorch's default).
	PerformerFeatures int
	// PerformerSeed seeds the Performer's random features.
	PerformerSeed uint64
	// Block is the layer's form: BlockGPS (also the empty name) or BlockClassic.
	Block Block
	// LinearResidual (BlockClassic only) adds a linear map, with bias, of the layer's
	// input to its models' outputs before the normalisation: Luo et al.'s residual
	// connection (their --res), which also maps the raw features of a first layer.
	LinearResidual bool
	// LocalHeads is the number of heads of the gat local model; 0 takes Heads (at least
	// 1), so that GAT and the attention may have different numbers.
	LocalHeads int
}

// Validate reports the first invalid field of c, as a *FieldError.
func (c GPSConfig) Validate() error {
	switch {
	case !slices.Contains(LocalModels(), c.Local):
		return &FieldError{"Local", fmt.Sprintf("unknown value %q (choices: %s)", c.Local, choices(LocalModels()))}
	case !slices.Contains(GlobalModels(), c.Global):
		return &FieldError{"Global", fmt.Sprintf("unknown value %q (choices: %s)", c.Global, choices(GlobalModels()))}
	case !slices.Contains(Norms(), c.Norm):
		return &FieldError{"Norm", fmt.Sprintf("unknown value %q (choices: %s)", c.Norm, choices(Norms()))}
	case c.Global != GlobalNone && c.Heads <= 0:
		return &FieldError{"Heads", fmt.Sprintf("%d, want ≥ 1 with attention", c.Heads)}
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return &FieldError{"Dropout", fmt.Sprintf("%v, want in [0, 1)", c.Dropout)}
	case !(c.AttentionDropout >= 0 && c.AttentionDropout < 1):
		return &FieldError{"AttentionDropout", fmt.Sprintf("%v, want in [0, 1)", c.AttentionDropout)}
	case c.PerformerFeatures < 0:
		return &FieldError{"PerformerFeatures", fmt.Sprintf("%d, want ≥ 0", c.PerformerFeatures)}
	case c.LocalHeads < 0:
		return &FieldError{"LocalHeads", fmt.Sprintf("%d, want ≥ 0 (0: Heads)", c.LocalHeads)}
	case c.Block != "" && !slices.Contains(Blocks(), c.Block):
		return &FieldError{"Block", fmt.Sprintf("unknown value %q (choices: %s)", c.Block, choices(Blocks()))}
	}
	return c.validateClassic()
}

// FieldError is GPSConfig.Validate's error: the field refused (its Go name, e.g.
// "Local") and why, so that a caller with other names for the fields (gexph's config
// keys) can name them its way.
type FieldError struct {
	Field, Reason string
}

// Error says "gps config: Field: Reason".
func (e *FieldError) Error() string { return "gps config: " + e.Field + ": " + e.Reason }

// GPSLayerBuilder assembles one GPS layer (GraphGPS / Exphormer): a local MPNN and a
// global attention model run on the same input, each followed by dropout, a residual
// connection and a normalisation; their outputs are summed and passed through a
// residual feed-forward block (width 2D, ReLU) and a last normalisation. Create it with
// NewGPSLayer, give the inputs its models need, and call Done.
type GPSLayerBuilder struct {
	scope                         *model.Scope
	cfg                           GPSConfig
	x                             *Node
	localSrc, localDst, localEdge *Node
	attnSrc, attnDst, attnEdge    *Node
	attnTable, attnIndex          *Node
	blockNodes                    *Node
	pe, normMask, localEdgeMask   *Node
	peDist                        *Node
	inputMaps                     []*Node
	localTable, localIndex        *Node
	localInDegree                 *Node
	attnWeights                   **Node
	// firstVirtual ≥ 0: rows from it on are virtual nodes carried the reference's way.
	firstVirtual int
}

// NewGPSLayer starts a GPS layer on node states x [N, D] with hyperparameters cfg.
// Variables in scope: "local", "attention", "norm_local", "norm_attention", "ffn",
// "norm_ffn".
func NewGPSLayer(scope *model.Scope, x *Node, cfg GPSConfig) *GPSLayerBuilder {
	return &GPSLayerBuilder{scope: scope, x: x, cfg: cfg, firstVirtual: -1}
}

// ReferenceVirtualNodes makes the rows from firstVirtual on virtual nodes carried as the
// reference code carries them (its ExphormerAttention, batch.virt_h = h_out[num_node:]):
// a virtual node's new state is the attention's output for it alone, without residual,
// dropout, normalisation or feed-forward block, and virtual rows stay out of every
// normalisation's statistics (NormMask still restricts the other rows). Without it
// (the default) virtual nodes are rows like the others and pass through the whole layer.
// Needs a global model.
func (b *GPSLayerBuilder) ReferenceVirtualNodes(firstVirtual int) *GPSLayerBuilder {
	b.firstVirtual = firstVirtual
	return b
}

// InputMaps gives the linear maps of the layer's input that a BlockClassic layer reads
// (GPSConfig.ClassicInputMaps says how many, in which order), computed by the caller
// ([N, D] each, without bias): a first layer's from the raw features at their own width,
// which x then need not hold (it may be nil). Without them the layer computes its maps
// of x itself.
func (b *GPSLayerBuilder) InputMaps(maps []*Node) *GPSLayerBuilder {
	b.inputMaps = maps
	return b
}

// AttentionWeightsTo asks for Exphormer attention's weights: Done stores the normalised
// weights α [E, Heads] of the attention edges (before dropout) in *weights.
func (b *GPSLayerBuilder) AttentionWeightsTo(weights **Node) *GPSLayerBuilder {
	b.attnWeights = weights
	return b
}

// LocalInDegree gives the in-degrees [N] of the local edges that gcn normalises by,
// when the given edges are only a part of the graph's (see GCNConvDegrees); other local
// models ignore them.
func (b *GPSLayerBuilder) LocalInDegree(inDegree *Node) *GPSLayerBuilder {
	b.localInDegree = inDegree
	return b
}

// LocalEdges gives the input-graph edges src → dst ([E_l] integers) and their states
// edgeState [E_l, D] (needed by gatedgcn and gine; gcn ignores it and it may be nil).
func (b *GPSLayerBuilder) LocalEdges(src, dst, edgeState *Node) *GPSLayerBuilder {
	b.localSrc, b.localDst, b.localEdge = src, dst, edgeState
	return b
}

// AttentionEdges gives the interaction graph of Exphormer (src → dst [E] with edge
// embeddings edgeEmb [E, D]) or the BigBird pattern (edgeEmb nil).
func (b *GPSLayerBuilder) AttentionEdges(src, dst, edgeEmb *Node) *GPSLayerBuilder {
	b.attnSrc, b.attnDst, b.attnEdge = src, dst, edgeEmb
	return b
}

// AttentionEdgeTable gives the Exphormer edge embeddings as rows of a table: edge e of
// AttentionEdges has embedding table[index[e]], with table [T, D] and index [E] integers
// in [0, T). It replaces the edgeEmb argument of AttentionEdges (which must then be nil)
// and computes the same layer with the attention's edge projection applied to the T
// table rows instead of the E edges (see ExphormerAttentionBuilder.EdgeTable): cheaper
// when the edges share few distinct embeddings, e.g. learned edge types.
func (b *GPSLayerBuilder) AttentionEdgeTable(table, index *Node) *GPSLayerBuilder {
	b.attnTable, b.attnIndex = table, index
	return b
}

// Blocks gives the per-graph block layout of the nodes (blockNodes [G, S], see
// NewDenseAttention), needed by the full and performer models.
func (b *GPSLayerBuilder) Blocks(blockNodes *Node) *GPSLayerBuilder {
	b.blockNodes = blockNodes
	return b
}

// EquivStablePE gives the encoded ESLapPE [N, P] used by the gatedgcn and gine gates.
func (b *GPSLayerBuilder) EquivStablePE(pe *Node) *GPSLayerBuilder {
	b.pe = pe
	return b
}

// EquivStableDistances gives the local edges' squared PE distances [E_l, 1]
// (PEDistances), in place of EquivStablePE: a model computes them once for all its
// layers.
func (b *GPSLayerBuilder) EquivStableDistances(dist *Node) *GPSLayerBuilder {
	b.peDist = dist
	return b
}

// LocalEdgeTable gives the local edge states as rows of a table (edge k has state
// table[index[k]]), in place of LocalEdges' edgeState (which must then be nil): cheaper
// for gatedgcn when the edges share few distinct states, as in a model's first layer
// on edges without features. The layer returns the states materialised.
func (b *GPSLayerBuilder) LocalEdgeTable(table, index *Node) *GPSLayerBuilder {
	b.localTable, b.localIndex = table, index
	return b
}

// NormMask restricts the statistics of every node BatchNorm of the layer (including the
// one inside gatedgcn) to the rows where mask ([N], bool or 0/1 float) is set, e.g. the
// real, unpadded nodes. nil (the default) uses all rows, as the reference code does.
func (b *GPSLayerBuilder) NormMask(mask *Node) *GPSLayerBuilder {
	b.normMask = mask
	return b
}

// LocalEdgeMask restricts the statistics of the edge BatchNorm inside gatedgcn to the
// local edges where mask ([E_l], bool or 0/1 float) is set, e.g. the unpadded edges. nil
// (the default) uses all edges. Other local models ignore it.
func (b *GPSLayerBuilder) LocalEdgeMask(mask *Node) *GPSLayerBuilder {
	b.localEdgeMask = mask
	return b
}

// Done builds the layer and returns the new node states [N, D] and the local edge
// states [E_l, D] (updated by gatedgcn, passed through otherwise; nil if none given).
func (b *GPSLayerBuilder) Done() (x, localEdgeState *Node) {
	if err := b.cfg.Validate(); err != nil {
		panic(err)
	}
	cfg := b.cfg
	if cfg.Block == BlockClassic {
		return b.classic(), b.localEdge
	}
	if b.inputMaps != nil {
		failf("GPS layer: InputMaps needs block %q", BlockClassic)
	}
	checkRank("GPS input x", b.x, 2)
	checkFloat("GPS input x", b.x)
	if b.firstVirtual >= 0 {
		b.excludeVirtualRows()
	}
	hIn := b.x
	localEdgeState = b.localEdge
	var terms []*Node
	var hAttnRaw *Node
	if cfg.Local != LocalNone {
		var hLocal *Node
		hLocal, localEdgeState = b.local(hIn)
		terms = append(terms, b.normalize("norm_local", hLocal))
	}
	if cfg.Global != GlobalNone {
		scope := b.scope.In("attention")
		hAttnRaw = b.global(scope, hIn, nil)
		terms = append(terms, b.normalize("norm_attention", Add(hIn, dropout(scope, hAttnRaw, cfg.Dropout))))
	}
	sum := sumOf(terms)
	if sum == nil {
		sum = hIn
	}
	h := Add(sum, FeedForward(b.scope.In("ffn"), sum, 2, cfg.Dropout))
	x = b.normalize("norm_ffn", h)
	if b.firstVirtual >= 0 {
		if hAttnRaw == nil {
			failf("GPS layer: ReferenceVirtualNodes needs a global model")
		}
		virtual := BroadcastToDims(InsertAxes(b.virtualRows(), -1), dim(x, 0), dim(x, 1))
		x = Where(virtual, hAttnRaw, x)
	}
	return x, localEdgeState
}

// local builds the local model's output (its residual and dropout included) and the
// local edges' new states (the input states where the model keeps none).
func (b *GPSLayerBuilder) local(hIn *Node) (hLocal, edgeState *Node) {
	cfg := b.cfg
	if b.localSrc == nil || b.localDst == nil {
		failf("GPS layer: local model %q needs LocalEdges", cfg.Local)
	}
	scope := b.scope.In("local")
	edgeState = b.localEdge
	switch cfg.Local {
	case LocalGatedGCN:
		gated := NewGatedGCN(scope, hIn, b.localEdge, b.localSrc, b.localDst).Dropout(cfg.Dropout).
			NodeMask(b.normMask).EdgeMask(b.localEdgeMask).EquivStablePE(b.pe).EquivStableDistances(b.peDist)
		if b.localTable != nil {
			gated.EdgeTable(b.localTable, b.localIndex)
		}
		return gated.Done() // Residual and dropout happen inside.
	case LocalGINE:
		edges := b.localEdge
		if b.localTable != nil {
			edges = rows(b.localTable, b.localIndex)
			edgeState = edges
		}
		gine := NewGINE(scope, hIn, edges, b.localSrc, b.localDst).EquivStablePE(b.pe).EquivStableDistances(b.peDist)
		hLocal = gine.Done()
	case LocalGCN:
		hLocal = GCNConvDegrees(scope, hIn, b.localSrc, b.localDst, b.localInDegree)
	case LocalSAGE:
		hLocal = SAGEConv(scope, hIn, b.localSrc, b.localDst)
	case LocalGAT:
		hLocal = NewGAT(scope, hIn, b.localSrc, b.localDst, cfg.localHeads()).Done()
	}
	return Add(hIn, dropout(scope, hLocal, cfg.Dropout)), edgeState
}

// global builds the global model's raw output (before its residual and dropout), from
// hIn or, when qkv is not nil, from the given query, key and value maps (Exphormer only).
func (b *GPSLayerBuilder) global(scope *model.Scope, hIn *Node, qkv []*Node) *Node {
	cfg := b.cfg
	if qkv != nil && cfg.Global != GlobalExphormer {
		failf("GPS layer: given query, key and value maps need global model %q, not %q", GlobalExphormer, cfg.Global)
	}
	switch cfg.Global {
	case GlobalExphormer:
		if b.attnSrc == nil || b.attnDst == nil || (b.attnEdge == nil && b.attnTable == nil) {
			failf("GPS layer: exphormer needs AttentionEdges with edge embeddings or an AttentionEdgeTable")
		}
		attn := NewExphormerAttention(scope, hIn, b.attnEdge, b.attnSrc, b.attnDst, cfg.Heads).
			Dropout(cfg.AttentionDropout).Reference(cfg.ReferenceAttention).
			RecomputeGathers(cfg.RecomputeGathers).EdgeChunkBytes(cmp.Or(cfg.AttentionChunkBytes, DefaultEdgeChunkBytes)).
			NormalizeValues(cfg.NormalizeValues)
		if b.attnTable != nil {
			attn.EdgeTable(b.attnTable, b.attnIndex)
		}
		if qkv != nil {
			attn.Projected(qkv[0], qkv[1], qkv[2])
		}
		if b.attnWeights != nil {
			var h *Node
			h, *b.attnWeights = attn.DoneWithWeights()
			return h
		}
		return attn.Done()
	case GlobalBigBird:
		if b.attnSrc == nil || b.attnDst == nil {
			failf("GPS layer: bigbird needs AttentionEdges (the BigBirdPattern edges)")
		}
		return NewBigBirdAttention(scope, hIn, b.attnSrc, b.attnDst, cfg.Heads, cfg.AttentionDropout)
	case GlobalFull:
		b.needBlocks(cfg.Global)
		return NewDenseAttention(scope, hIn, b.blockNodes, cfg.Heads).Dropout(cfg.AttentionDropout).Done()
	case GlobalPerformer:
		b.needBlocks(cfg.Global)
		return NewPerformerAttention(scope, hIn, b.blockNodes, cfg.Heads).
			Features(cfg.PerformerFeatures).Seed(cfg.PerformerSeed).Done()
	}
	failf("GPS layer: unknown global model %q", cfg.Global)
	return nil
}

// virtualRows returns [N] booleans, true on the rows from firstVirtual on.
func (b *GPSLayerBuilder) virtualRows() *Node {
	n := dim(b.x, 0)
	if b.firstVirtual > n {
		failf("GPS layer: first virtual row %d beyond the %d rows", b.firstVirtual, n)
	}
	row := Iota(b.x.Graph(), shapes.Make(dtypes.Int32, n), 0)
	return GreaterOrEqual(row, Scalar(b.x.Graph(), dtypes.Int32, b.firstVirtual))
}

// excludeVirtualRows takes the virtual rows out of the normalisation mask.
func (b *GPSLayerBuilder) excludeVirtualRows() {
	keep := asFloat(LogicalNot(b.virtualRows()), b.x.DType())
	if b.normMask != nil {
		keep = Mul(keep, asFloat(b.normMask, b.x.DType()))
	}
	b.normMask = keep
}

func (b *GPSLayerBuilder) needBlocks(model GlobalModel) {
	if b.blockNodes == nil {
		failf("GPS layer: %s needs Blocks(blockNodes)", model)
	}
}

// normalize applies the configured normalisation in scope.In(name).
func (b *GPSLayerBuilder) normalize(name string, h *Node) *Node {
	switch b.cfg.Norm {
	case NormBatch:
		bn := NewBatchNorm(b.scope.In("%s", name), h)
		if b.normMask != nil {
			bn.Mask(b.normMask)
		}
		return bn.Done()
	case NormLayer:
		return layerNorm(b.scope.In("%s", name), h)
	}
	return h
}
