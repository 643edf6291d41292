package gexph

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
)

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
		LocalHeads: c.MPNNHeads, AttentionChunkBytes: c.AttentionChunkMB << 20,
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
		{"sparse_attention_k", c.SparseAttentionK}, {"attention_chunk_mb", c.AttentionChunkMB},
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
