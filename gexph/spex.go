package gexph

import (
	"context"
	"fmt"

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

// EstimatorConfig returns Spexphormer's attention-score estimator for cfg: the same
// model made narrow (width 4, one head) with unit-norm attention values, no dropout (4
// units have nothing to spare) and no sparsification.
func EstimatorConfig(cfg Config) Config {
	c := cfg
	c.HiddenDim, c.Heads, c.PEDim = 4, 1, 0
	c.NormalizeValues, c.Dropout, c.AttnDropout, c.SparseAttentionK = true, 0, 0, 0
	return c
}

// AttentionScores runs the model in inference mode on the graph of the transductive data
// set ds and returns every layer's attention weights over its interaction graph.
func (m *Model) AttentionScores(ds *data.Dataset) (*AttentionScores, error) {
	if err := m.float32Only("attention scores"); err != nil {
		return nil, err
	}
	if err := m.checkScoresModel(); err != nil {
		return nil, err
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
	outs, err := m.execute(exec, programScores, b.tensors()...)
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
// proportional to that layer's scores (expander.SampleInEdgesByWeight, seeded per
// layer); a node with at most k incoming edges keeps them all. The same seed gives the
// same graphs.
func (s *AttentionScores) Sparsify(k int, seed uint64) (*LayerGraphs, error) {
	lg := &LayerGraphs{H: s.H, Edges: make([][]int64, len(s.Layers))}
	for l, w := range s.Layers {
		edges, err := expander.SampleInEdgesByWeight(s.H, w, k, expander.DeriveSeed(seed, uint64(l)))
		if err != nil {
			return nil, fmt.Errorf("sparsify: layer %d: %w", l, err)
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
