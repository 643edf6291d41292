package gexph

import (
	"context"
	"fmt"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/progress"
)

// sampledBatches runs a model on sampled mini-batches of the one graph of a transductive
// data set (Config.BatchNodes, docs/LARGE.md): each epoch's training nodes shuffled by
// the seed and cut into sets of seeds, each batch the neighbourhood sampled around its
// seeds with the loss on them (minibatch.go); inference is layer-wise over the whole
// graph (layerwise.go), every split at once.
type sampledBatches struct{ m *Model }

// firstBatch is the sample around the first BatchNodes training nodes (node 0 without
// training nodes).
func (r *sampledBatches) firstBatch(ds *data.Dataset) (*Batch, error) {
	m := r.m
	sp, err := m.samplerOf(ds)
	if err != nil {
		return nil, err
	}
	seeds := ds.Split.Train[:min(m.cfg.BatchNodes, len(ds.Split.Train))]
	if len(seeds) == 0 {
		seeds = []int{0}
	}
	s, err := sp.sample(seeds, m.cfg.Seed, 0)
	if err != nil {
		return nil, err
	}
	b, _, err := m.sampleBatch(sp, s, false, false)
	return b, err
}

// trainEpoch steps over the epoch's mini-batches of Config.BatchNodes seeds.
func (r *sampledBatches) trainEpoch(ctx context.Context, ds *data.Dataset, epoch int, prog *progress.Progress, c *collector) (int, error) {
	m := r.m
	sp, err := m.samplerOf(ds)
	if err != nil {
		return 0, err
	}
	order := m.epochOrder(ds.Split.Train, epoch)
	batches := batchesOf(order, m.cfg.BatchNodes)
	start := time.Now()
	for bi, seeds := range batches {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		s, err := sp.sample(seeds, m.cfg.Seed, uint64(epoch)<<32|uint64(bi))
		if err != nil {
			return 0, fmt.Errorf("epoch %d, batch %d: %w", epoch, bi, err)
		}
		b, _, err := m.sampleBatch(sp, s, true, false)
		if err != nil {
			return 0, fmt.Errorf("epoch %d, batch %d: %w", epoch, bi, err)
		}
		l, out, err := m.trainStep(b)
		b.Release()
		if err != nil {
			return 0, stepError(err, epoch, bi+1)
		}
		c.add(out, b, allRows(s.NumSeeds), l, float64(s.NumSeeds))
		prog.Step(epoch, bi+1, len(batches), c.loss(), start)
	}
	return len(order), nil
}

// epochEval scores the validation and test nodes in one layer-wise pass, a phase of its
// own on a large graph.
func (r *sampledBatches) epochEval(ds *data.Dataset, _ int, prog *progress.Progress) []data.SplitName {
	prog.Phase("layer-wise evaluation of %d nodes", ds.Graphs[0].NumNodes)
	return nodeSplits(ds)
}

// outputs scores every node by layer-wise inference; the batch handed to use carries
// only the graph's layout, its labels and their weights.
func (r *sampledBatches) outputs(ctx context.Context, ds *data.Dataset, sets [][]int, use func(int, []float32, *Batch, []int)) error {
	out, err := r.m.LayerwiseOutputs(ctx, ds)
	if err != nil {
		return err
	}
	useEach(sets, out, labelBatch(&ds.Graphs[0]), use)
	return nil
}

// release has nothing to free: the sampler of the graph stays with the model, which
// layer-wise inference shares.
func (r *sampledBatches) release() {}

// labelBatch describes the outputs of every node of a graph g scored apart from a
// batch: its layout as one graph, its labels, and the weight 1 of each labelled node.
func labelBatch(g *data.Graph) *Batch {
	n := g.NumNodes
	w := make([]float32, n)
	for v, y := range g.NodeLabels {
		if y != data.Unlabelled {
			w[v] = 1
		}
	}
	return &Batch{Graphs: []int{0}, NumGraphs: 1, NumNodes: n, NodeOffset: []int{0, n}, Rows: n, Labels: g.NodeLabels, Weights: w}
}
