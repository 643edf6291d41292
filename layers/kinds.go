package layers

import (
	"strconv"
	"strings"
)

// LocalModel names the message-passing model of a GPS layer (GPSConfig.Local); the
// model configuration (gexph.Config.MPNN) uses the same values.
type LocalModel string

// Local message-passing models.
const (
	LocalGatedGCN LocalModel = "gatedgcn" // GraphGPS's CustomGatedGCN, updates the edge states.
	LocalGINE     LocalModel = "gine"     // GINE with the data set edge features.
	LocalGCN      LocalModel = "gcn"      // GCN, ignores edge features.
	LocalSAGE     LocalModel = "sage"     // GraphSAGE (mean aggregation), ignores edge features.
	LocalGAT      LocalModel = "gat"      // GAT (multi-head, self loops), ignores edge features.
	LocalNone     LocalModel = "none"     // No local model.
)

// LocalModels lists the local models.
func LocalModels() []LocalModel {
	return []LocalModel{LocalGatedGCN, LocalGINE, LocalGCN, LocalSAGE, LocalGAT, LocalNone}
}

// localTraits says what a local model needs and supports.
type localTraits struct {
	edges, edgeFeatures, edgeStates, inDegrees bool
}

// traits describes every local model: adding a model is a case here and one in
// GPSLayerBuilder.Done.
func (m LocalModel) traits() localTraits {
	switch m {
	case LocalGatedGCN:
		return localTraits{edges: true, edgeFeatures: true, edgeStates: true}
	case LocalGINE:
		return localTraits{edges: true, edgeFeatures: true}
	case LocalGCN:
		return localTraits{edges: true, inDegrees: true}
	case LocalSAGE, LocalGAT:
		return localTraits{edges: true}
	}
	return localTraits{}
}

// PassesMessages tells whether the model passes messages over the local edges (all but
// LocalNone): a batch must then hold edges.
func (m LocalModel) PassesMessages() bool { return m.traits().edges }

// UsesEdgeFeatures tells whether the model reads encoded edge features of the local
// edges (and the squared distances of equivariant-stable positional encodings).
func (m LocalModel) UsesEdgeFeatures() bool { return m.traits().edgeFeatures }

// KeepsEdgeStates tells whether the model updates per-edge states from layer to layer,
// which running a model one layer at a time over parts of a graph cannot hold.
func (m LocalModel) KeepsEdgeStates() bool { return m.traits().edgeStates }

// NormalisesByInDegree tells whether the model divides by the nodes' in-degrees (GCN): a
// part of a graph must then be given the whole graph's degrees.
func (m LocalModel) NormalisesByInDegree() bool { return m.traits().inDegrees }

// GlobalModel names the attention of a GPS layer (GPSConfig.Global); the model
// configuration (gexph.Config.Attention) uses the same values.
type GlobalModel string

// Global attention models.
const (
	GlobalExphormer GlobalModel = "exphormer" // Exphormer sparse attention on the interaction graph.
	GlobalFull      GlobalModel = "full"      // Full (dense) softmax attention within each graph (GraphGPS's Transformer).
	GlobalPerformer GlobalModel = "performer" // Performer (FAVOR+) linear attention within each graph.
	GlobalBigBird   GlobalModel = "bigbird"   // BigBird block-sparse attention (pattern from expander.BigBirdPattern).
	GlobalNone      GlobalModel = "none"      // No global model.
)

// GlobalModels lists the global models.
func GlobalModels() []GlobalModel {
	return []GlobalModel{GlobalExphormer, GlobalFull, GlobalPerformer, GlobalBigBird, GlobalNone}
}

// Attention layouts: what a global model attends over.
const (
	// OverNothing: no attention (GlobalNone).
	OverNothing = iota
	// OverInteractionGraph: the edges of the interaction graph H, with edge types
	// (Exphormer).
	OverInteractionGraph
	// OverPattern: a sparse pattern of node pairs within each graph (BigBird).
	OverPattern
	// OverGraphBlocks: every pair of nodes of each graph, as dense blocks (full
	// attention, Performer).
	OverGraphBlocks
)

// Layout returns what the model attends over (OverNothing, OverInteractionGraph,
// OverPattern or OverGraphBlocks). Adding a model is a case here and one in
// GPSLayerBuilder.Done.
func (g GlobalModel) Layout() int {
	switch g {
	case GlobalExphormer:
		return OverInteractionGraph
	case GlobalBigBird:
		return OverPattern
	case GlobalFull, GlobalPerformer:
		return OverGraphBlocks
	}
	return OverNothing
}

// Attends tells whether the model attends at all (all but GlobalNone).
func (g GlobalModel) Attends() bool { return g.Layout() != OverNothing }

// Quadratic tells whether the model holds a score for every pair of nodes of a graph
// (full attention): its memory grows with the square of the graph's size.
func (g GlobalModel) Quadratic() bool { return g == GlobalFull }

// RunsOnParts tells whether the model can run one layer at a time on parts of a graph
// (mini-batches of sampled neighbourhoods, layer-wise inference): attention over the
// edges of H can, attention over whole graphs cannot.
func (g GlobalModel) RunsOnParts() bool {
	return g.Layout() == OverInteractionGraph || g.Layout() == OverNothing
}

// Norm names the normalisation of a GPS layer (GPSConfig.Norm).
type Norm string

// Normalisations.
const (
	NormBatch Norm = "batch" // BatchNorm over all nodes of the batch (GraphGPS's default).
	NormLayer Norm = "layer" // LayerNorm over the features of each node.
	NormNone  Norm = "none"  // No normalisation.
)

// Norms lists the normalisations.
func Norms() []Norm { return []Norm{NormBatch, NormLayer, NormNone} }

// Block names the form of a layer (GPSConfig.Block); the model configuration
// (gexph.Config.Block) uses the same values.
type Block string

// Layer forms.
const (
	// BlockGPS is GraphGPS's layer (the empty name too): the local model and the
	// attention each with dropout, a residual connection and a normalisation, their sum
	// through a residual feed-forward block and a last normalisation.
	BlockGPS Block = "gps"
	// BlockClassic is the layer of the classic GNNs of Luo et al. (NeurIPS 2024,
	// "Classic GNNs are strong baselines", their MPNNs): the local model's output, plus a
	// linear map of the input with LinearResidual, plus the attention's output with a
	// global model, then one normalisation, ReLU and dropout; no feed-forward block. Its
	// first layer may read the raw features at their own width (GPSLayerBuilder.InputMaps).
	BlockClassic Block = "classic"
)

// Blocks lists the layer forms.
func Blocks() []Block { return []Block{BlockGPS, BlockClassic} }

// Pooling names a graph readout (GraphPool).
type Pooling string

// Graph readouts.
const (
	PoolMean Pooling = "mean" // Mean of the (masked) node states of each graph.
	PoolSum  Pooling = "sum"  // Sum of the (masked) node states of each graph.
	PoolMax  Pooling = "max"  // Feature-wise maximum of the (masked) node states of each graph.
)

// Poolings lists the graph readouts.
func Poolings() []Pooling { return []Pooling{PoolMean, PoolSum, PoolMax} }

// choices quotes a list of names for error messages: "a", "b", "c".
func choices[T ~string](xs []T) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(string(x))
	}
	return strings.Join(q, ", ")
}

// itoa formats an int.
func itoa(i int) string { return strconv.Itoa(i) }
