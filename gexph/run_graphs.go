package gexph

import (
	"context"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/progress"
)

// graphBatches runs a model on batches of the graphs of an inductive data set: each
// epoch's training graphs shuffled by the seed and cut into batches of Config.BatchSize,
// built ahead of the step on a goroutine of their own (prefetch.go) and padded to the
// training shapes of a plan (plan.go); each split scored in batches padded to the
// evaluation shapes.
type graphBatches struct{ m *Model }

// newGraphBatches returns the runner of batches of graphs of ds, with the padding plan
// of pads when it is one.
func newGraphBatches(m *Model, ds *data.Dataset, pads paddingSpec) *graphBatches {
	if pads.trainLevels > 0 {
		m.plan = m.planPadding(ds, pads)
		m.padding, m.evalPadding = m.plan.train, m.plan.eval
	}
	return &graphBatches{m: m}
}

// firstBatch is the first training graph, padded as evaluation batches are: the first
// pass is an inference pass.
func (r *graphBatches) firstBatch(ds *data.Dataset) (*Batch, error) {
	return r.m.buildBatch(ds, []int{firstGraph(ds)}, nil, nil, r.m.evalPadding)
}

// firstGraph is the graph of the first batch: the first training graph (graph 0
// without training graphs).
func firstGraph(ds *data.Dataset) int {
	if len(ds.Split.Train) > 0 {
		return ds.Split.Train[0]
	}
	return 0
}

// trainEpoch steps over the epoch's batches of training graphs.
func (r *graphBatches) trainEpoch(ctx context.Context, ds *data.Dataset, epoch int, prog *progress.Progress, c *collector) (int, error) {
	m := r.m
	start := time.Now()
	order := m.epochOrder(ds.Split.Train, epoch)
	batches := batchesOf(order, m.cfg.BatchSize)
	stream := m.streamBatches(ctx, ds, batches, m.padding)
	defer stream.Stop()
	for bi := range batches {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		b, err := stream.Next()
		if err != nil {
			return 0, err
		}
		l, out, err := m.trainStep(b)
		b.Release()
		if err != nil {
			return 0, stepError(err, epoch, bi+1)
		}
		sumW := 0.0
		for _, w := range b.Weights {
			sumW += float64(w)
		}
		c.add(out, b, allRows(b.Rows), l, sumW)
		prog.Step(epoch, bi+1, len(batches), c.loss(), start)
	}
	return len(order), nil
}

// epochEval scores the validation graphs; the test graphs are scored apart, at a new
// best validation metric.
func (r *graphBatches) epochEval(_ *data.Dataset, epoch int, prog *progress.Progress) []data.SplitName {
	prog.Working(epoch, "evaluating val")
	return []data.SplitName{data.ValSplit}
}

// outputs scores each set of graphs in batches of Config.BatchSize, padded as
// evaluation batches; the rows of a batch are all its set's.
func (r *graphBatches) outputs(ctx context.Context, ds *data.Dataset, sets [][]int, use func(int, []float32, *Batch, []int)) error {
	for i, graphs := range sets {
		if err := r.infer(ctx, ds, graphs, i, use); err != nil {
			return err
		}
	}
	return nil
}

// release has nothing to free: batches of graphs are built for each step.
func (r *graphBatches) release() {}

// infer runs inference over the graphs of set i and hands each batch's outputs to use.
func (r *graphBatches) infer(ctx context.Context, ds *data.Dataset, graphs []int, i int, use func(int, []float32, *Batch, []int)) error {
	m := r.m
	parts := batchesOf(graphs, m.cfg.BatchSize)
	stream := m.streamBatches(ctx, ds, parts, m.evalPadding)
	defer stream.Stop()
	for range parts {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := stream.Next()
		if err != nil {
			return err
		}
		out, err := m.forwardHost(b)
		b.Release()
		if err != nil {
			return err
		}
		use(i, out, b, allRows(b.Rows))
	}
	return nil
}
