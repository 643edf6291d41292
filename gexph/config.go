package gexph

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/internal/jsonfile"
	"github.com/gexph/gexph/layers"
	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
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

// Validate checks every field and returns an error naming the first bad one; an unknown
// option lists the valid choices.
func (c *Config) Validate() error {
	for _, check := range []func() error{c.validateChoices, c.validateGPS, c.validateCounts, c.validateRates, c.validateStructure, c.validateClassic, c.validateSampling} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// gpsFields are the config keys of the GPS layer's fields (layers.GPSConfig), which the
// layers package checks (validateGPS).
var gpsFields = map[string]string{
	"Local": "mpnn", "Global": "attention", "Norm": "norm", "Heads": "heads",
	"Dropout": "dropout", "AttentionDropout": "attn_dropout", "Block": "block",
	"LinearResidual": "linear_residual", "LocalHeads": "mpnn_heads",
}

// gpsConfig is the configuration of the model's GPS layers.
func (c Config) gpsConfig() layers.GPSConfig {
	return layers.GPSConfig{
		Local: c.MPNN, Global: c.Attention, Norm: c.Norm, Heads: c.Heads,
		Dropout: c.Dropout, AttentionDropout: c.AttnDropout, PerformerSeed: c.Seed,
		RecomputeGathers: !c.KeepGathers, ReferenceAttention: c.ReferenceAttention,
		NormalizeValues: c.NormalizeValues, Block: c.Block, LinearResidual: c.LinearResidual,
		LocalHeads: c.MPNNHeads,
	}
}

// validateGPS checks the GPS layer's fields by the layers package's own checks, naming
// them by their config keys.
func (c *Config) validateGPS() error {
	err := c.gpsConfig().Validate()
	var fe *layers.FieldError
	if errors.As(err, &fe) {
		name := gpsFields[fe.Field]
		if name == "" {
			name = fe.Field
		}
		return fmt.Errorf("config: %s: %s", name, fe.Reason)
	}
	return err
}

// validateChoices checks gexph's string-valued fields against their choices (the GPS
// layer's are validateGPS's).
func (c *Config) validateChoices() error {
	type choice struct {
		field, value string
		choices      []string
	}
	for _, ch := range []choice{
		{"pe", c.PE, peKinds},
		{"expander_algorithm", c.ExpanderAlgorithm.String(), stringsOf(expander.Algorithms())},
		{"pooling", string(c.Pooling), names(layers.Poolings())},
		{"metric", c.Metric, metricNames},
		{"loss", c.Loss, lossNames},
		{"optimizer", c.Optimizer, optimizerNames},
		{"schedule", c.Schedule, scheduleNames},
	} {
		if !slices.Contains(ch.choices, ch.value) {
			return fmt.Errorf("config: %s: unknown value %q (choices: %s)", ch.field, ch.value, quoteList(ch.choices))
		}
	}
	return nil
}

// validateCounts checks the fields that count something.
func (c *Config) validateCounts() error {
	type positive struct {
		field string
		value int
	}
	for _, p := range []positive{
		{"layers", c.Layers}, {"hidden_dim", c.HiddenDim}, {"heads", c.Heads},
		{"head_layers", c.HeadLayers}, {"batch_size", c.BatchSize}, {"epochs", c.Epochs},
	} {
		if p.value < 1 {
			return fmt.Errorf("config: %s = %d, want ≥ 1", p.field, p.value)
		}
	}
	type nonNegative struct {
		field string
		value int
	}
	for _, p := range []nonNegative{
		{"virtual_nodes", c.VirtualNodes}, {"warmup_epochs", c.WarmupEpochs}, {"patience", c.Patience},
		{"max_train", c.MaxTrain}, {"max_val", c.MaxVal}, {"max_test", c.MaxTest},
		{"expander_degree", c.ExpanderDegree}, {"pe_size", c.PESize}, {"pe_dim", c.PEDim},
		{"pre_mp_layers", c.PreMPLayers}, {"batch_nodes", c.BatchNodes}, {"eval_chunk_nodes", c.EvalChunkNodes},
		{"sparse_attention_k", c.SparseAttentionK},
	} {
		if p.value < 0 {
			return fmt.Errorf("config: %s = %d, want ≥ 0", p.field, p.value)
		}
	}
	return nil
}

// validateRates checks gexph's real-valued fields (the dropout rates are the GPS
// layer's: validateGPS) and hidden_dim's split into heads.
func (c *Config) validateRates() error {
	if c.HiddenDim%c.Heads != 0 {
		return fmt.Errorf("config: heads = %d does not divide hidden_dim = %d", c.Heads, c.HiddenDim)
	}
	if c.MPNN == layers.LocalGAT && c.MPNNHeads > 0 && c.HiddenDim%c.MPNNHeads != 0 {
		return fmt.Errorf("config: mpnn_heads = %d does not divide hidden_dim = %d", c.MPNNHeads, c.HiddenDim)
	}
	if !(c.LearningRate > 0) || math.IsInf(c.LearningRate, 0) {
		return fmt.Errorf("config: lr = %v, want a finite value > 0", c.LearningRate)
	}
	if !(c.WeightDecay >= 0) || math.IsInf(c.WeightDecay, 0) {
		return fmt.Errorf("config: weight_decay = %v, want a finite value ≥ 0", c.WeightDecay)
	}
	if !(c.GradClip >= 0) || math.IsInf(c.GradClip, 0) {
		return fmt.Errorf("config: grad_clip = %v, want a finite value ≥ 0 (0 disables clipping)", c.GradClip)
	}
	return nil
}

// validateStructure checks that the model's parts fit together: some layer, a non-empty
// interaction graph, an expander degree, virtual nodes, positional encodings.
func (c *Config) validateStructure() error {
	if !c.MPNN.PassesMessages() && !c.Attention.Attends() {
		return fmt.Errorf("config: mpnn and attention are both %q: the model would have no layers", "none")
	}
	if c.Attention.Layout() == layers.OverInteractionGraph {
		if !c.LocalEdges && !c.ExpanderEdges && !c.GlobalEdges {
			return fmt.Errorf("config: attention %q with local_edges, expander_edges and global_edges all off: the interaction graph is empty", c.Attention)
		}
	}
	if c.ExpanderEdges && c.Attention.Layout() == layers.OverInteractionGraph {
		if c.ExpanderDegree < 2 || c.ExpanderDegree%2 != 0 {
			return fmt.Errorf("config: expander_degree = %d, want an even degree ≥ 2 with expander_edges on", c.ExpanderDegree)
		}
	}
	if c.GlobalEdges && c.Attention.Layout() == layers.OverInteractionGraph && c.VirtualNodes < 1 {
		return fmt.Errorf("config: global_edges on but virtual_nodes = %d, want ≥ 1", c.VirtualNodes)
	}
	if c.PE != PENone && c.PESize < 1 {
		return fmt.Errorf("config: pe %q needs pe_size ≥ 1, got %d", c.PE, c.PESize)
	}
	if (c.PE == PELap || c.PE == PERWSE) && (c.PEDim < 1 || c.PEDim >= c.HiddenDim) {
		return fmt.Errorf("config: pe %q needs 1 ≤ pe_dim < hidden_dim = %d, got pe_dim = %d", c.PE, c.HiddenDim, c.PEDim)
	}
	return nil
}

// validateClassic refuses what block classic cannot hold: its first layer reads the node
// features through its own maps, so nothing may stand between the features and it
// (positional encodings, pre-MP layers, virtual nodes and their reference form).
func (c *Config) validateClassic() error {
	if c.Block != layers.BlockClassic {
		return nil
	}
	switch {
	case c.PE != PENone:
		return fmt.Errorf("config: block %q reads the node features in its first layer, without an encoder to add positional encodings to: pe must be %q, got %q", c.Block, PENone, c.PE)
	case c.PreMPLayers > 0:
		return fmt.Errorf("config: block %q reads the node features in its first layer: pre_mp_layers must be 0, got %d", c.Block, c.PreMPLayers)
	case c.GlobalEdges && c.Attention.Layout() == layers.OverInteractionGraph:
		return fmt.Errorf("config: block %q has no node states before its first layer to give virtual nodes: global_edges must be off", c.Block)
	case c.ReferenceVirtualNodes:
		return fmt.Errorf("config: reference_virtual_nodes needs block %q", layers.BlockGPS)
	}
	return nil
}

// validateSampling checks the fanout and the mini-batch settings.
func (c *Config) validateSampling() error {
	if c.Fanout != "" {
		// A set fanout is checked whether or not this config samples mini-batches: a
		// config file or preset holds it for the runs that do.
		if _, err := ParseFanout(c.Fanout, c.Layers); err != nil {
			return err
		}
	}
	if c.ReferenceVirtualNodes && c.BatchNodes > 0 {
		return fmt.Errorf("config: reference_virtual_nodes applies to whole graphs, not to mini-batches (batch_nodes = %d)", c.BatchNodes)
	}
	if c.BatchNodes > 0 {
		if err := c.checkMiniBatch(); err != nil {
			return err
		}
	}
	return nil
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

// ToJSON returns the config as indented JSON.
func (c Config) ToJSON() (string, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", fmt.Errorf("config: encoding JSON: %w", err)
	}
	return string(b), nil
}

// ParseConfig decodes a JSON config, rejecting unknown keys, keys that differ from a
// field's only in case, keys given twice, null values and anything after the one JSON
// object, and validates it. Keys
// absent from the JSON keep the values of base, so a partial JSON overrides a preset.
func ParseConfig(base Config, jsonText string) (Config, error) {
	cfg := base
	if err := jsonfile.DecodeStrict(jsonText, &cfg); err != nil {
		return Config{}, fmt.Errorf("config: decoding JSON: %w", err)
	}
	if err := refuseNulls(jsonText); err != nil {
		return Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// refuseNulls reports a key of the JSON object text whose value is null (YAML's "key:"
// with nothing after it, "~" or "null"), which decoding would skip, leaving the base's
// value in place of the one the user meant to give.
func refuseNulls(text string) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return fmt.Errorf("config: decoding JSON: %w", err)
	}
	keys := make([]string, 0, len(raw))
	for k, v := range raw {
		if string(bytes.TrimSpace(v)) == "null" {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		slices.Sort(keys)
		return fmt.Errorf("config: %s: no value (null); give one, or leave the key out for the preset's", keys[0])
	}
	return nil
}

// MaxConfigBytes bounds a config file that is not a checkpoint (a result.json of a
// thousand epochs is about a megabyte).
const MaxConfigBytes = 16 << 20

// LoadConfig reads a config file on top of base: YAML or JSON (JSON is YAML too) with
// the fields of Config under their JSON names (see ParseConfig), the result.json of a
// run (its "config" part), or a checkpoint (its config): "run exactly this again" is
// one file. A checkpoint is read by the sizes its header gives; any other file of more
// than MaxConfigBytes, or a stream that goes on past them (/dev/zero), is refused.
func LoadConfig(base Config, path string) (Config, error) {
	if isCheckpointFile(path) {
		info, err := ReadCheckpointInfo(path)
		if err != nil {
			return Config{}, fmt.Errorf("config: %w", err)
		}
		if err := info.Config.Validate(); err != nil {
			return Config{}, fmt.Errorf("%s: %w", path, err)
		}
		return info.Config, nil
	}
	b, err := jsonfile.ReadFileLimit(path, MaxConfigBytes, "config file")
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	js, err := yamlToJSON(b, "")
	if err != nil {
		return Config{}, fmt.Errorf("%s: config: %w", path, err)
	}
	var run struct {
		Config json.RawMessage `json:"config"`
	}
	if json.Unmarshal(js, &run) == nil && len(run.Config) > 0 {
		// A result.json (or any record holding a config): the config of a run, whose
		// fanout older versions stored even when the run was full-batch and sampled
		// nothing (unchecked then): it is left out, as Train leaves it out now.
		cfg := base
		if err := jsonfile.DecodeStrict(string(run.Config), &cfg); err != nil {
			return Config{}, fmt.Errorf("%s: config: decoding JSON: %w", path, err)
		}
		if err := refuseNulls(string(run.Config)); err != nil {
			return Config{}, fmt.Errorf("%s: %w", path, err)
		}
		cfg = cfg.withoutIdleFanout()
		if err := cfg.Validate(); err != nil {
			return Config{}, fmt.Errorf("%s: %w", path, err)
		}
		return cfg, nil
	}
	cfg, err := ParseConfig(base, string(js))
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// ParseSetting applies one "key=value" override to cfg: key is a field's JSON name and
// value a YAML scalar or flow collection (3, 0.01, true, gcn, [1, 2]), so
// "-set lr=0.01 -set mpnn=gcn" reads as a researcher writes it. A value that begins
// with '{' makes the whole setting a JSON object instead (see ParseConfig).
func ParseSetting(cfg Config, setting string) (Config, error) {
	text := strings.TrimSpace(setting)
	if strings.HasPrefix(text, "{") {
		return ParseConfig(cfg, text)
	}
	key, value, ok := strings.Cut(text, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return Config{}, fmt.Errorf("config: setting %q: want key=value (e.g. layers=3) or a JSON object", setting)
	}
	value = strings.TrimSpace(value)
	var js []byte
	if f, err := strconv.ParseFloat(value, 64); err == nil {
		// A number as Go reads it (YAML 1.1 would read 1e-3 as a string); an integral
		// one is written as an integer so that integer fields take it.
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return Config{}, fmt.Errorf("config: setting %q: %s = %v, want a finite number", setting, key, f)
		}
		js = strconv.AppendFloat(nil, f, 'g', -1, 64)
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			js = strconv.AppendInt(nil, int64(f), 10)
		}
	} else if js, err = yamlToJSON([]byte(value), key); err != nil {
		return Config{}, fmt.Errorf("config: setting %q: %w", setting, err)
	}
	obj, err := json.Marshal(map[string]json.RawMessage{key: js})
	if err != nil {
		return Config{}, fmt.Errorf("config: setting %q: %w", setting, err)
	}
	return ParseConfig(cfg, string(obj))
}

// SettingKeys returns the config keys one setting of ParseSetting sets: the key of
// "key=value", or the keys of a JSON object.
func SettingKeys(setting string) ([]string, error) {
	text := strings.TrimSpace(setting)
	if !strings.HasPrefix(text, "{") {
		key, _, _ := strings.Cut(text, "=")
		return []string{strings.TrimSpace(key)}, nil
	}
	var obj map[string]json.RawMessage
	if err := jsonfile.DecodeStrict(text, &obj); err != nil {
		return nil, fmt.Errorf("config: setting %q: %w", setting, err)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// ParseSettings applies settings in order with ParseSetting, refusing a key that two of
// them set (the last would silently win): one command line says each value once.
func ParseSettings(cfg Config, settings []string) (Config, error) {
	setBy := map[string]string{}
	for _, s := range settings {
		keys, err := SettingKeys(s)
		if err != nil {
			return Config{}, err
		}
		for _, k := range keys {
			if prev, dup := setBy[k]; dup {
				return Config{}, fmt.Errorf("config: key %q set twice (%q, then %q); give each key once", k, prev, s)
			}
			setBy[k] = s
		}
		if cfg, err = ParseSetting(cfg, s); err != nil {
			if strings.HasPrefix(strings.TrimSpace(s), "{") { // key=value errors name it
				err = fmt.Errorf("setting %s: %w", s, err)
			}
			return Config{}, err
		}
	}
	return cfg, nil
}

// yamlToJSON converts YAML (JSON included) to JSON as a config is read: a key twice in
// one mapping is an error naming the key and its line, and so is a value that is not a
// finite number (.nan, .inf, which JSON cannot hold), named by its key path (under
// prefix, when not empty).
func yamlToJSON(b []byte, prefix string) ([]byte, error) {
	var tree any
	if err := yamlv2.UnmarshalStrict(b, &tree); err != nil {
		var te *yamlv2.TypeError
		if errors.As(err, &te) { // strict decoding into any: keys twice in a mapping
			msg := strings.Join(te.Errors, "; ")
			return nil, errors.New(strings.ReplaceAll(msg, "already set in map", "given twice in one mapping; give each key once"))
		}
		return nil, err
	}
	if err := checkFinite(tree, prefix); err != nil {
		return nil, err
	}
	return yaml.YAMLToJSONStrict(b)
}

// checkFinite reports the first float of a decoded YAML value that is NaN or infinite,
// naming its key path.
func checkFinite(v any, path string) error {
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s = %v, want a finite number", cmp.Or(path, "value"), v)
		}
	case map[any]any:
		for k, x := range v {
			if err := checkFinite(x, strings.TrimPrefix(fmt.Sprintf("%s.%v", path, k), ".")); err != nil {
				return err
			}
		}
	case []any:
		for i, x := range v {
			if err := checkFinite(x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// ToYAML returns the config as YAML (the JSON names as keys, sorted), which LoadConfig
// reads back to the same config.
func (c Config) ToYAML() (string, error) {
	js, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("config: encoding: %w", err)
	}
	y, err := yaml.JSONToYAML(js)
	if err != nil {
		return "", fmt.Errorf("config: encoding YAML: %w", err)
	}
	return string(y), nil
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
// and patience), as ConfigChanges does; none means they describe the same run.
func runChanges(a, b Config) []string {
	a, b = a.withoutIdleFanout(), b.withoutIdleFanout()
	a.Epochs, b.Epochs = 0, 0
	a.Patience, b.Patience = 0, 0
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
			changes = append(changes, fmt.Sprintf("%s: %s → %s", k, va, vb))
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
