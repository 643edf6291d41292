package gexph

import (
	"context"
	"errors"
	"fmt"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/progress"
	"github.com/gexph/gexph/layers"
)

// A model runs over its data set in one of four ways, each a type of its own in a file
// of its own, chosen here and nowhere else:
//
//   - graphBatches (run_graphs.go): batches of graphs of an inductive data set;
//   - wholeGraph (run_whole.go): the one graph of a transductive data set, whole;
//   - sampledBatches (run_sampled.go): sampled mini-batches of a transductive graph
//     (Config.BatchNodes), evaluated layer by layer;
//   - layerGraphRunner (run_layergraphs.go): Spexphormer's second stage, the whole
//     graph with one attention edge list per layer (ModelOptions.LayerGraphs).
//
// The Model keeps what they share: the parameters, the compiled programs, the batch
// builder, the padding, the forward pass and the training step.

// runner is a way of running a model over a data set.
type runner interface {
	// firstBatch returns the batch whose forward pass creates the model's variables.
	firstBatch(ds *data.Dataset) (*Batch, error)
	// trainEpoch runs the training steps of one epoch over the training examples of ds,
	// adds each step's outputs and loss to c and shows the steps on prog; it returns
	// the number of training examples.
	trainEpoch(ctx context.Context, ds *data.Dataset, epoch int, prog *progress.Progress, c *collector) (examples int, err error)
	// epochEval shows on prog that the evaluation of epoch begins and returns the
	// splits it scores: the validation split, and the test split with it where the same
	// inference pass scores it.
	epochEval(ds *data.Dataset, epoch int, prog *progress.Progress) []data.SplitName
	// outputs runs inference on the examples of each of sets (graphs of ds, or nodes of
	// its one graph) and hands use, in order, every batch's outputs (b's rows ×
	// outputs, row-major) with the index of the set and the output rows of the set's
	// examples in b. It stops between batches when ctx is cancelled.
	outputs(ctx context.Context, ds *data.Dataset, sets [][]int, use func(set int, out []float32, b *Batch, rows []int)) error
	// release frees what the runner caches.
	release()
}

// checkWay refuses options of a way of running that the data set or the other options
// exclude.
func checkWay(cfg Config, spec dataSpec, ds *data.Dataset, opts ModelOptions) error {
	switch {
	case cfg.BatchNodes > 0 && !spec.transductive:
		return fmt.Errorf("config: batch_nodes = %d applies to the one graph of a transductive data set; %q has graphs, batched by batch_size", cfg.BatchNodes, ds.Name)
	case cfg.SparseAttentionK > 0 && opts.LayerGraphs == nil:
		return fmt.Errorf("config: sparse_attention_k = %d attends over per-layer graphs drawn from a first-stage model's attention scores: train with TrainOptions.ScoresFrom (gexph train -scores-from CKPT), or give ModelOptions.LayerGraphs", cfg.SparseAttentionK)
	case opts.LayerGraphs == nil:
		return nil
	case !spec.transductive:
		return errors.New("model: per-layer attention graphs need a transductive data set")
	case cfg.BatchNodes > 0:
		return fmt.Errorf("model: per-layer attention graphs train full-batch (batch_nodes = %d)", cfg.BatchNodes)
	}
	return opts.LayerGraphs.check(cfg)
}

// newRunner chooses the model's way of running (checked by checkWay) and sets the
// padding that way takes from pads.
func (m *Model) newRunner(ds *data.Dataset, opts ModelOptions, pads paddingSpec) runner {
	if pads.strategy != nil {
		m.padding = &padding{strategy: pads.strategy}
		m.evalPadding = m.padding
	}
	switch {
	case opts.LayerGraphs != nil:
		return newLayerGraphRunner(m, opts.LayerGraphs)
	case m.cfg.BatchNodes > 0:
		return &sampledBatches{m: m}
	case m.spec.transductive:
		return newWholeGraph(m)
	}
	return newGraphBatches(m, ds, pads)
}

// DefaultPadding is the batch padding of a model: a plan of a few shapes for the whole
// run for batches of graphs, on every backend, and exact shapes for a transductive graph
// (one shape per program). Every new input shape is compiled: XLA on a GPU takes 30–40 s
// a shape, the pure-Go backend 0.03–0.2 s, which is still a large part of a small
// batch's step, and exact shapes make nearly every batch a new shape. On the go backend
// (AMD EPYC, 2026-11-29, alone) the plan took MNIST's epoch from 24–27 s to 16–17 s and
// CLUSTER's from 33 s to 27 s, PATTERN's was unchanged, and Peptides-func's batches of
// 128 graphs lost a few per cent to the padded rows (docs/PERFORMANCE.md, "Batches padded
// to a plan on the go backend too").
func DefaultPadding(transductive bool) string {
	if transductive {
		return "none"
	}
	return "plan"
}

// WholeGraphBatches tells whether the model runs on whole graphs (batches of them, or a
// transductive graph whole), the batches Model.BuildBatch builds, not on sampled
// mini-batches (Config.BatchNodes) or per-layer attention graphs
// (ModelOptions.LayerGraphs).
func (m *Model) WholeGraphBatches() bool {
	switch m.run.(type) {
	case *graphBatches, *wholeGraph:
		return true
	}
	return false
}

// transductiveBatch returns the training (train) or inference batch of the graph of ds
// of a model that runs it whole (with per-layer attention edges or not), built on first
// use and kept.
func (m *Model) transductiveBatch(ds *data.Dataset, train bool) (*Batch, error) {
	w, ok := m.run.(interface {
		batch(*data.Dataset, bool) (*Batch, error)
	})
	if !ok {
		return nil, errors.New("model: runs on sampled mini-batches or batches of graphs, not on a whole graph")
	}
	return w.batch(ds, train)
}

// checkScoresModel refuses a model whose attention scores AttentionScores cannot read:
// one that does not run a transductive graph whole, or attends over something else than
// the interaction graph.
func (m *Model) checkScoresModel() error {
	if _, ok := m.run.(*wholeGraph); !ok || m.cfg.Attention.Layout() != layers.OverInteractionGraph {
		return errors.New("attention scores: need a full-batch Exphormer model of a transductive data set")
	}
	return nil
}

// trainLayerGraphs returns the per-layer attention graphs of a run of cfg: drawn from
// the attention scores of the first-stage checkpoint opts.ScoresFrom for a config with
// SparseAttentionK > 0 (Spexphormer's second stage); nil otherwise.
func trainLayerGraphs(ctx context.Context, cfg Config, ds *data.Dataset, opts TrainOptions, prog *progress.Progress) (*LayerGraphs, error) {
	if cfg.SparseAttentionK == 0 {
		return nil, nil
	}
	if opts.ScoresFrom == "" {
		return nil, fmt.Errorf("train: sparse_attention_k = %d needs the first-stage model's checkpoint (TrainOptions.ScoresFrom, gexph train -scores-from)", cfg.SparseAttentionK)
	}
	prog.Phase("attention scores of %s", opts.ScoresFrom)
	scores, err := LoadAttentionScores(ctx, opts.ScoresFrom, ds, ModelOptions{Backend: opts.Backend})
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	lg, err := scores.Sparsify(cfg.SparseAttentionK, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return lg, nil
}
