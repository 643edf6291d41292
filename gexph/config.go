package gexph

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
)

// Choices of the string-valued Config fields. Validate rejects any other value and lists
// the valid ones in its error.
var (
	peKinds        = []string{PENone, PELap, PEESLap, PERWSE}
	optimizerNames = []string{"", OptimizerAdamW, OptimizerAdam}
	scheduleNames  = []string{"", ScheduleCosine, ScheduleConstant}
	metricNames    = []string{MetricAccuracy, MetricWeightedAccuracy, MetricMacroF1, MetricAP, MetricMAE}
	lossNames      = []string{"", LossCrossEntropy, LossWeightedCrossEntropy, LossBCE, LossL1, LossMSE}
)

// Positional encodings (Config.PE).
const (
	// PENone disables positional encodings.
	PENone = "none"
	// PELap is the Laplacian-eigenvector PE, embedded and concatenated to the node embedding.
	PELap = "lappe"
	// PEESLap is the equivariant-stable Laplacian PE, used by the GatedGCN edge gates.
	PEESLap = "eslappe"
	// PERWSE is the random-walk structural encoding, embedded and concatenated.
	PERWSE = "rwse"
)

// Metrics (Config.Metric); see the functions of the same names in metrics.go.
const (
	// MetricAccuracy is the fraction of correct predictions.
	MetricAccuracy = "accuracy"
	// MetricWeightedAccuracy is the mean per-class recall (GraphGPS's accuracy-SBM).
	MetricWeightedAccuracy = "weighted-accuracy"
	// MetricMacroF1 is the unweighted mean of per-class F1 scores.
	MetricMacroF1 = "macro-f1"
	// MetricAP is the average precision averaged over labels (OGB/LRGB).
	MetricAP = "ap"
	// MetricMAE is the mean absolute error (lower is better).
	MetricMAE = "mae"
)

// Losses (Config.Loss).
const (
	// LossCrossEntropy is softmax cross-entropy (sigmoid BCE for two classes).
	LossCrossEntropy = "cross-entropy"
	// LossWeightedCrossEntropy weighs each class by (N − n_c)/N within a batch (GraphGPS).
	LossWeightedCrossEntropy = "weighted-cross-entropy"
	// LossBCE is binary cross-entropy with logits per label.
	LossBCE = "bce"
	// LossL1 is the mean absolute error.
	LossL1 = "l1"
	// LossMSE is the mean squared error.
	LossMSE = "mse"
)

// Optimizers (Config.Optimizer).
const (
	// OptimizerAdamW is Adam with decoupled weight decay (AdamW, GraphGPS's optimizer):
	// each step also subtracts lr·weight_decay·w. The empty name is AdamW too.
	OptimizerAdamW = "adamw"
	// OptimizerAdam is Adam with weight decay as an L2 term of the gradient, g + λ·w,
	// before the moments: PyTorch's torch.optim.Adam(weight_decay=λ), with which Luo et
	// al. train their classic GNNs.
	OptimizerAdam = "adam"
)

// Learning-rate schedules (Config.Schedule).
const (
	// ScheduleCosine is GraphGPS's cosine_with_warmup (see LearningRate); the empty name
	// is it too.
	ScheduleCosine = "cosine"
	// ScheduleConstant keeps the learning rate at Config.LearningRate every epoch.
	ScheduleConstant = "constant"
)

// Config holds every hyperparameter of a model and its training, in groups: the
// model, its interaction graph, the optimisation, the data's transforms, sampled
// mini-batches and split limits. The groups are embedded, so a field reads as
// cfg.Layers or cfg.ModelConfig.Layers, and the JSON and YAML keys stay flat
// ("layers", "lr", …), as every config file, preset and checkpoint has them. A
// Config is plain data: copy it freely.
type Config struct {
	// Preset names the preset the config started from ("" for a hand-built one).
	Preset string `json:"preset"`
	ModelConfig
	GraphConfig
	OptimConfig
	// DataConfig is how the data is read (data.Transforms).
	DataConfig
	SamplingConfig
	LimitsConfig
}

// DataConfig is how a run reads its data: the loader's transforms, recorded with the run
// so that eval and predict read the data as it trained on it.
type DataConfig struct {
	data.Transforms
	// SplitFile, when set, is a fixed split that replaces the data set's own (random, by
	// seed) one: an .npz of integer arrays train, valid and test, or a JSON object of
	// index lists (data.ReadSplitFile), e.g. the split files published with a benchmark's
	// results. A checkpoint keeps the path, so evaluation uses the same split.
	SplitFile string `json:"split_file,omitempty"`
}

// ModelConfig is what the model is: its layers, widths, encoders, attention and head.
type ModelConfig struct {
	// Layers is the number of GPS layers.
	Layers int `json:"layers"`

	// HiddenDim is the width of node (and edge) embeddings.
	HiddenDim int `json:"hidden_dim"`

	// Heads is the number of attention heads; it must divide HiddenDim.
	Heads int `json:"heads"`

	// Dropout applies after the MPNN, the attention and inside the feed-forward block.
	Dropout float64 `json:"dropout"`

	// AttnDropout applies to the attention weights.
	AttnDropout float64 `json:"attn_dropout"`

	// PE is the positional encoding: none|lappe|eslappe|rwse.
	PE string `json:"pe"`

	// PESize is the number of Laplacian eigenvectors (lappe, eslappe) or of random-walk
	// steps (rwse).
	PESize int `json:"pe_size"`

	// PEDim is the width of the learned PE embedding concatenated to the node embedding
	// (lappe, rwse); eslappe projects to HiddenDim and ignores it.
	PEDim int `json:"pe_dim"`

	// MPNN is the local message-passing layer: gatedgcn|gine|gcn|sage|gat|none (sage: GraphSAGE
	// with mean aggregation; gat: GAT with Heads heads and self loops, as in GraphGPS).
	MPNN layers.LocalModel `json:"mpnn"`

	// Attention is the global attention: exphormer|full|performer|bigbird|none.
	Attention layers.GlobalModel `json:"attention"`

	// Norm is the normalisation in GPS layers: batch, layer or none (layers.Norms).
	Norm layers.Norm `json:"norm"`

	// Pooling is the graph readout for graph-level tasks: mean|sum|max.
	Pooling layers.Pooling `json:"pooling"`

	// ReferenceAttention scores Exphormer attention as the reference code does,
	// exp(clamp(score, −5, 5)) normalised, instead of an exact softmax.
	ReferenceAttention bool `json:"reference_attention"`

	// ReferenceVirtualNodes carries the virtual nodes as the reference code does: a
	// virtual node's state for the next layer is the attention's output for it alone (no
	// residual, normalisation or feed-forward block), and virtual nodes stay out of the
	// batch-norm statistics. Off, they are rows like the real nodes and pass through the
	// whole GPS layer (docs/REFERENCE.md).
	ReferenceVirtualNodes bool `json:"reference_virtual_nodes"`

	// TorchInit initialises as the reference's PyTorch modules do where gexph's default
	// differs: biases of linear maps uniform in ±1/√fan_in (nn.Linear; default zero), and
	// the embeddings of categorical node features as the linear map of their one-hot codes
	// (GraphGPS's LinearNode on PATTERN's and CLUSTER's one-hot features: weights and bias
	// uniform in ±1/√(codes); default N(0, 1) rows and a zero bias).
	TorchInit bool `json:"torch_init"`

	// PreMPLayers is the number of GraphGym pre-message-passing layers between the node
	// encoder and the first GPS layer (linear map, the GPS norm when it is batch,
	// dropout, ReLU; 0: none). The reference code's transductive configs use 1.
	PreMPLayers int `json:"pre_mp_layers"`

	// HeadLayers is the number of dense layers of the prediction head (≥ 1).
	HeadLayers int `json:"head_layers"`

	// HeadNorm adds a batch norm after each hidden head layer (GraphGym's node head).
	HeadNorm bool `json:"head_norm"`

	// HeadL2Norm scales each hidden head layer's output (after its ReLU) to unit L2 norm
	// per row, as the reference code's head does: GraphGym's MLP (PyG 2.0.4) gives its
	// hidden layers has_l2norm = true whatever the config says (docs/REFERENCE.md).
	HeadL2Norm bool `json:"head_l2norm"`

	// KeepGathers keeps the per-edge keys, queries and values that Exphormer attention
	// gathers for the backward pass instead of gathering them again there: a little
	// faster, but those three [E, D] tensors per layer stay alive through the step
	// (PATTERN's preset: 2.0 instead of 1.5 GB; Amazon Computers': 3.3 instead of 1.5 GB).
	KeepGathers bool `json:"keep_gathers"`

	// AttentionChunkMB bounds, in MiB, one per-edge [E, D] tensor of Exphormer attention:
	// a layer whose per-edge tensors would be larger runs over its edges in consecutive
	// chunks of at most that size (layers.ExphormerAttentionBuilder.EdgeChunkBytes), the
	// same result with one chunk's per-edge tensors alive at a time, for more gathers and
	// scatters. 0 takes layers.DefaultEdgeChunkBytes (256 MiB).
	AttentionChunkMB int `json:"attention_chunk_mb,omitempty"`

	// NormalizeValues scales Exphormer attention's value vectors to unit norm, as
	// Spexphormer's narrow attention-score estimator does (docs/LARGE.md).
	NormalizeValues bool `json:"normalize_values"`

	// Block is the form of every layer: "gps" (the empty name too: GraphGPS's layer) or
	// "classic" (the layer of Luo et al.'s classic GNNs, layers.BlockClassic: the local
	// model, with linear_residual a linear map of the input, with attention its output,
	// summed, then norm, ReLU and dropout; its first layer reads the node features at
	// their own width, without a node encoder; the head then reads the last layer).
	Block layers.Block `json:"block"`

	// LinearResidual (block classic) adds a linear map of each layer's input to the
	// layer's sum, Luo et al.'s residual connection (their --res).
	LinearResidual bool `json:"linear_residual"`

	// MPNNHeads is the number of heads of the gat MPNN (0: Heads).
	MPNNHeads int `json:"mpnn_heads"`
}

// GraphConfig is the interaction graph H that Exphormer attention attends over: the input
// edges, a random regular expander and virtual nodes.
type GraphConfig struct {
	// LocalEdges, ExpanderEdges and GlobalEdges switch the three parts of the Exphormer
	// interaction graph: the input graph's edges, a random expander, virtual nodes.
	LocalEdges    bool `json:"local_edges"`
	ExpanderEdges bool `json:"expander_edges"`
	GlobalEdges   bool `json:"global_edges"`

	// ExpanderDegree is the (even) degree of the random regular expander.
	ExpanderDegree int `json:"expander_degree"`

	// ExpanderAlgorithm is the expander construction (expander.Algorithm: standard,
	// simple or hamiltonian, by name in JSON and YAML).
	ExpanderAlgorithm expander.Algorithm `json:"expander_algorithm"`

	// ExpanderUncertified draws one expander and skips its near-Ramanujan certificate
	// (the Lanczos eigenvalues, and redraws when they miss the bound): for graphs of
	// millions of nodes, where the certificate takes minutes (more than 5 at 10⁷ nodes)
	// and a random regular graph is near-Ramanujan with high probability (Friedman).
	ExpanderUncertified bool `json:"expander_uncertified"`

	// VirtualNodes is the number of virtual (global) nodes per graph.
	VirtualNodes int `json:"virtual_nodes"`
}

// OptimConfig is how the model trains: batches, the optimiser and its schedule, the
// seed, early stopping, the loss and the model-selection metric.
type OptimConfig struct {
	// BatchSize is the number of graphs per step (inductive data sets; transductive ones
	// train full-batch).
	BatchSize int `json:"batch_size"`

	// LearningRate is the peak learning rate of AdamW.
	LearningRate float64 `json:"lr"`

	// WeightDecay is AdamW's decoupled weight decay.
	WeightDecay float64 `json:"weight_decay"`

	// Epochs is the number of training epochs.
	Epochs int `json:"epochs"`

	// WarmupEpochs is the length of the linear warm-up before the cosine decay; a run
	// shorter than twice it has none (see WarmupEpochs).
	WarmupEpochs int `json:"warmup_epochs"`

	// GradClip clips gradients to this global L2 norm (0 disables clipping).
	GradClip float64 `json:"grad_clip"`

	// Seed drives initialisation, dropout, expanders and shuffling.
	Seed uint64 `json:"seed"`

	// Patience stops training after this many epochs without a better validation
	// metric (0 disables early stopping).
	Patience int `json:"patience"`

	// Metric is the model-selection metric: accuracy|weighted-accuracy|macro-f1|ap|mae.
	Metric string `json:"metric"`

	// Loss is the training loss: cross-entropy|weighted-cross-entropy|bce|l1|mse, or ""
	// for the task's default (cross-entropy for classes, bce for multi-label, l1 for
	// regression).
	Loss string `json:"loss"`

	// Optimizer is "adamw" (the empty name too) or "adam" (weight decay as an L2 term
	// of the gradient, as PyTorch's Adam); see OptimizerAdamW and OptimizerAdam.
	Optimizer string `json:"optimizer"`

	// Schedule is the learning-rate schedule: "cosine" (the empty name too: warm-up,
	// then a half cosine) or "constant".
	Schedule string `json:"schedule"`
}

// SamplingConfig trains one large graph on sampled mini-batches (docs/LARGE.md) and
// Spexphormer's second stage.
type SamplingConfig struct {
	// BatchNodes, for a transductive data set, trains on mini-batches of this many seed
	// nodes (training nodes, shuffled per epoch) with their neighbourhoods sampled from
	// the interaction graph of the whole graph as Fanout says, and evaluates by exact
	// layer-wise inference; 0 trains full-batch. Memory then follows the batch, not the
	// graph (see docs/LARGE.md).
	BatchNodes int `json:"batch_nodes"`

	// Fanout says how many incoming edges of each type a node of a mini-batch keeps per
	// layer: "local=10,expander=all,global-in=32,global-out=all" (types local, expander,
	// global-in, global-out, or global for both; a count or "all"; types left out keep
	// none), one spec for every layer or one per layer separated by "/", the first for
	// the seeds' own edges (the last layer), as PyG's num_neighbors. "" is DefaultFanout.
	// Edge types the model does not read are never sampled.
	Fanout string `json:"fanout"`

	// SparseAttentionK is Spexphormer's second stage: trained with the attention scores
	// of a first-stage model (TrainOptions.ScoresFrom), each layer attends only over k
	// incoming edges per node drawn by that layer's scores. 0 attends over all of H.
	SparseAttentionK int `json:"sparse_attention_k"`

	// EvalChunkNodes is the number of nodes per chunk of layer-wise inference (0: 16 ×
	// batch_nodes, at least 1024).
	EvalChunkNodes int `json:"eval_chunk_nodes"`
}

// LimitsConfig caps the examples taken from each split.
type LimitsConfig struct {
	// MaxTrain, MaxVal and MaxTest cap the number of examples (graphs, or nodes of a
	// transductive data set) taken from each split, in split order; 0 keeps them all.
	MaxTrain int `json:"max_train"`
	MaxVal   int `json:"max_val"`
	MaxTest  int `json:"max_test"`
}

// HigherIsBetter tells whether a larger value of the metric is better (all but mae).
func HigherIsBetter(metric string) bool { return metric != MetricMAE }

// DefaultMetric is the usual model-selection metric of a task: accuracy for
// classification, average precision for multi-label and mean absolute error for
// regression tasks.
func DefaultMetric(task data.Task) string {
	switch task {
	case data.GraphMultiLabel:
		return MetricAP
	case data.GraphRegression:
		return MetricMAE
	}
	return MetricAccuracy
}

// Better tells whether value a of the metric beats value b.
func Better(metric string, a, b float64) bool {
	if HigherIsBetter(metric) {
		return a > b
	}
	return a < b
}

// names converts a list of typed names to strings.
// stringsOf returns the names of values that say their own (fmt.Stringer).
func stringsOf[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}

// names returns the values of a string kind as strings.
func names[T ~string](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// withoutIdleFanout returns c without a fanout it does not use: a full-batch config
// (batch_nodes = 0) samples nothing, as PyG's num_neighbors means nothing without a
// NeighborLoader. Train records what ran: such a run's config holds no fanout.
func (c Config) withoutIdleFanout() Config {
	if c.BatchNodes == 0 {
		c.Fanout = ""
	}
	return c
}

// runChanges lists how config b differs from a apart from the run's length (epochs
// and patience), as ResultChanges does; none means they describe the same run.
func runChanges(a, b Config) []string {
	a, b = a.withoutIdleFanout(), b.withoutIdleFanout()
	a.Epochs, b.Epochs = 0, 0
	a.Patience, b.Patience = 0, 0
	return ResultChanges(a, b)
}

// ResultChanges lists the fields in which config b differs from a, as ConfigChanges
// does, apart from those that change how a run computes and not what (the bound of
// attention's chunks, attention_chunk_mb): none means that a run of b gives a run of a's
// results.
func ResultChanges(a, b Config) []string {
	a.AttentionChunkMB, b.AttentionChunkMB = 0, 0
	return ConfigChanges(a, b)
}

// ConfigChanges lists the fields in which config b differs from a, each as
// "name: a → b" with the field's JSON name, sorted by name: what separates two runs.
func ConfigChanges(a, b Config) []string {
	fields := func(c Config) map[string]string {
		raw := map[string]json.RawMessage{}
		j, err := json.Marshal(c)
		if err == nil {
			err = json.Unmarshal(j, &raw)
		}
		if err != nil { // Config holds only plain values: this cannot happen.
			panic(fmt.Sprintf("config: JSON round trip: %v", err))
		}
		m := make(map[string]string, len(raw))
		for k, v := range raw {
			m[k] = string(v)
		}
		return m
	}
	fa, fb := fields(a), fields(b)
	var changes []string
	for k, va := range fa {
		if vb, ok := fb[k]; !ok || va != vb {
			changes = append(changes, fmt.Sprintf("%s: %s → %s", k, va, cmp.Or(vb, "(unset)")))
		}
	}
	for k, vb := range fb { // Fields left out of a's JSON when empty (omitempty).
		if _, ok := fa[k]; !ok {
			changes = append(changes, fmt.Sprintf("%s: (unset) → %s", k, vb))
		}
	}
	sort.Strings(changes)
	return changes
}

// isCheckpointFile tells whether the file at path starts like a checkpoint (its first
// seven bytes); it reads nothing more.
func isCheckpointFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var prefix [7]byte
	_, err = io.ReadFull(f, prefix[:])
	return err == nil && string(prefix[:]) == checkpointMagic[:7]
}
