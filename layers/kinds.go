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
