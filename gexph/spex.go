package gexph

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// AttentionScores are a trained model's attention weights over the interaction graph H
// of a transductive data set's graph, one set per layer: the first stage of
// Spexphormer (Shirzad et al., NeurIPS 2024), whose narrow estimator network
// (EstimatorConfig) learns them.
type AttentionScores struct {
	// H is the interaction graph the model attended over.
	H *expander.Interaction
	// Layers[l][e] is layer l's attention weight of H's edge e (the mean over heads):
	// the weights of the edges into one node sum to 1.
	Layers [][]float32
}

// LayerGraphs are Spexphormer's per-layer sparse attention graphs: layer l attends only
// over the edges Edges[l] (indices into H's edges, grouped by destination) of H.
type LayerGraphs struct {
	H     *expander.Interaction
	Edges [][]int64
}

// EstimatorConfig returns Spexphormer's attention-score estimator for cfg: the same
// model made narrow (width 4, one head) with unit-norm attention values, no dropout (4
// units have nothing to spare) and no sparsification.
func EstimatorConfig(cfg Config) Config {
	c := cfg
	c.HiddenDim, c.Heads, c.PEDim = 4, 1, 0
	c.NormalizeValues, c.Dropout, c.AttnDropout, c.SparseAttentionK = true, 0, 0, 0
	return c
}

// check verifies that the layer graphs fit a model of cfg on the data set of spec.
func (lg *LayerGraphs) check(cfg Config, spec dataSpec) error {
	switch {
	case !spec.transductive:
		return fmt.Errorf("model: per-layer attention graphs need a transductive data set")
	case cfg.Attention.Layout() != layers.OverInteractionGraph:
		return fmt.Errorf("model: per-layer attention graphs need attention over the interaction graph (%q), got %q", layers.GlobalExphormer, cfg.Attention)
	case cfg.BatchNodes > 0:
		return fmt.Errorf("model: per-layer attention graphs train full-batch (batch_nodes = %d)", cfg.BatchNodes)
	case lg.H == nil || len(lg.Edges) != cfg.Layers:
		return fmt.Errorf("model: %d per-layer attention graphs for %d layers", len(lg.Edges), cfg.Layers)
	}
	if virtual := cfg.VirtualNodes * btoi(cfg.GlobalEdges); lg.H.VirtualPerGraph != virtual {
		return fmt.Errorf("model: the attention graphs have %d virtual nodes, the config %d", lg.H.VirtualPerGraph, virtual)
	}
	for l, edges := range lg.Edges {
		for _, e := range edges {
			if e < 0 || int(e) >= lg.H.NumEdges() {
				return fmt.Errorf("model: attention graph of layer %d: edge %d outside [0, %d)", l, e, lg.H.NumEdges())
			}
		}
	}
	return nil
}

// AttentionScores runs the model in inference mode on the graph of the transductive data
// set ds and returns every layer's attention weights over its interaction graph.
func (m *Model) AttentionScores(ds *data.Dataset) (*AttentionScores, error) {
	if !m.spec.transductive || m.cfg.Attention.Layout() != layers.OverInteractionGraph || m.layerGraphs != nil || m.miniBatch() {
		return nil, fmt.Errorf("attention scores: need a full-batch Exphormer model of a transductive data set")
	}
	b, err := m.transductiveBatch(ds, false)
	if err != nil {
		return nil, err
	}
	if err := m.checkPresence(b); err != nil {
		return nil, err
	}
	exec, err := model.NewExec(m.backend, m.store, func(scope *model.Scope, ins []*Node) []*Node {
		in := m.bind(ins)
		scope = scope.WithInitializer(layers.FanInUniform(scope))
		h, ed := m.encodeGraph(scope, in, true)
		e := ed.e
		outs := make([]*Node, m.cfg.Layers)
		for l := range m.cfg.Layers {
			var w *Node
			h, e = m.layerGraph(scope, l, h, e, in, ed, &w)
			outs[l] = ReduceMean(w, -1)
		}
		return outs
	})
	if err != nil {
		return nil, fmt.Errorf("attention scores: %w", err)
	}
	defer exec.Finalize()
	outs, err := exec.Call(b.tensors()...)
	if err != nil {
		return nil, fmt.Errorf("attention scores: %w", err)
	}
	s := &AttentionScores{H: b.interaction}
	for _, t := range outs {
		w := tensors.MustCopyFlatData[float32](t)
		s.Layers = append(s.Layers, w[:s.H.NumEdges()])
		t.FinalizeAll()
	}
	return s, nil
}

// Sparsify draws Spexphormer's per-layer attention graphs: for every layer and every
// node, k of its incoming edges of H without replacement with probabilities
// proportional to that layer's scores (Efraimidis–Spirakis keys u^(1/w)); a node with
// at most k incoming edges keeps them all. The same seed gives the same graphs.
func (s *AttentionScores) Sparsify(k int, seed uint64) (*LayerGraphs, error) {
	if k < 1 {
		return nil, fmt.Errorf("sparsify: k = %d, want ≥ 1", k)
	}
	h := s.H
	if len(h.Offsets) != h.NumNodes+1 {
		return nil, fmt.Errorf("sparsify: the interaction graph has %d offsets for %d nodes", len(h.Offsets), h.NumNodes)
	}
	lg := &LayerGraphs{H: h, Edges: make([][]int64, len(s.Layers))}
	type keyed struct {
		key float64
		e   int64
	}
	var cand []keyed
	for l, w := range s.Layers {
		if len(w) != h.NumEdges() {
			return nil, fmt.Errorf("sparsify: layer %d has %d scores for %d edges", l, len(w), h.NumEdges())
		}
		rng := rand.New(rand.NewPCG(expander.DeriveSeed(seed, uint64(l)), 0x5fe))
		var edges []int64
		for v := range h.NumNodes {
			lo, hi := h.Offsets[v], h.Offsets[v+1]
			if hi-lo <= int64(k) {
				for e := lo; e < hi; e++ {
					edges = append(edges, e)
				}
				continue
			}
			cand = cand[:0]
			for e := lo; e < hi; e++ {
				// log(u)/w orders as u^(1/w); a zero weight never wins over a positive one.
				key := math.Inf(-1)
				if wt := float64(w[e]); wt > 0 {
					key = math.Log(1-rng.Float64()) / wt
				}
				cand = append(cand, keyed{key, e})
			}
			slices.SortFunc(cand, func(a, b keyed) int {
				if a.key != b.key {
					if a.key > b.key {
						return -1
					}
					return 1
				}
				return int(a.e - b.e)
			})
			kept := make([]int64, k)
			for i := range kept {
				kept[i] = cand[i].e
			}
			slices.Sort(kept)
			edges = append(edges, kept...)
		}
		lg.Edges[l] = edges
	}
	return lg, nil
}

// LoadAttentionScores loads the model of the checkpoint at path (a first-stage
// estimator, see EstimatorConfig) for the transductive data set ds and returns its
// attention scores.
func LoadAttentionScores(ctx context.Context, path string, ds *data.Dataset, opts ModelOptions) (*AttentionScores, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, ds, _, err := loadCheckpointModel(path, ds, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	s, err := m.AttentionScores(ds)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
