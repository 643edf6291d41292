package gexph

import (
	"context"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/progress"
)

// wholeGraph runs a model on the one graph of a transductive data set, whole: one
// training step an epoch with the loss on the training nodes, and one inference pass
// that scores every node, every split at once. Its two batches (the training batch and
// the inference batch) are built once and kept, on the device after their first use.
type wholeGraph struct {
	m *Model
	// build builds the batch of the graph of ds with the loss on lossNodes (nil: every
	// labelled node).
	build func(ds *data.Dataset, lossNodes []int) (*Batch, error)
	// ds is the data set whose batches train and infer are.
	ds           *data.Dataset
	train, infer *Batch
}

// newWholeGraph returns the runner of a transductive graph whole.
func newWholeGraph(m *Model) *wholeGraph {
	return &wholeGraph{m: m, build: func(ds *data.Dataset, lossNodes []int) (*Batch, error) {
		return m.buildBatch(ds, []int{0}, lossNodes, nil, m.padding)
	}}
}

// batch returns the training (train) or inference batch of the graph of ds, building it
// on first use.
func (w *wholeGraph) batch(ds *data.Dataset, train bool) (*Batch, error) {
	if w.ds != ds {
		w.release()
		w.ds = ds
	}
	slot, loss := &w.infer, []int(nil)
	if train {
		slot, loss = &w.train, ds.Split.Train
	}
	if *slot == nil {
		b, err := w.build(ds, loss)
		if err != nil {
			return nil, err
		}
		*slot = b
	}
	return *slot, nil
}

// firstBatch is the graph, built apart from the kept batches.
func (w *wholeGraph) firstBatch(ds *data.Dataset) (*Batch, error) { return w.build(ds, nil) }

// trainEpoch runs one step on the whole graph.
func (w *wholeGraph) trainEpoch(_ context.Context, ds *data.Dataset, epoch int, prog *progress.Progress, c *collector) (int, error) {
	b, err := w.batch(ds, true)
	if err != nil {
		return 0, err
	}
	prog.Working(epoch, "training (one full-batch step)")
	l, out, err := w.m.trainStep(b)
	if err != nil {
		return 0, stepError(err, epoch, 1)
	}
	c.add(out, b, ds.Split.Train, l, float64(len(ds.Split.Train)))
	return len(ds.Split.Train), nil
}

// epochEval scores the validation and test nodes in one pass.
func (w *wholeGraph) epochEval(ds *data.Dataset, epoch int, prog *progress.Progress) []data.SplitName {
	splits := nodeSplits(ds)
	names := make([]string, len(splits))
	for i, s := range splits {
		names[i] = string(s)
	}
	prog.Working(epoch, "evaluating "+strings.Join(names, " and "))
	return splits
}

// outputs scores every node in one pass.
func (w *wholeGraph) outputs(ctx context.Context, ds *data.Dataset, sets [][]int, use func(int, []float32, *Batch, []int)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := w.batch(ds, false)
	if err != nil {
		return err
	}
	out, err := w.m.forwardHost(b)
	if err != nil {
		return err
	}
	useEach(sets, out, b, use)
	return nil
}

// release frees the kept batches.
func (w *wholeGraph) release() {
	for _, b := range []*Batch{w.train, w.infer} {
		if b != nil {
			b.Release()
		}
	}
	w.ds, w.train, w.infer = nil, nil, nil
}

// nodeSplits are the splits an epoch scores where one pass scores every node of the
// graph: validation, and test where it has nodes (the test metric of such a run is
// logged every epoch, that of batches of graphs only at a new best validation).
func nodeSplits(ds *data.Dataset) []data.SplitName {
	if len(ds.Split.Test) > 0 {
		return []data.SplitName{data.ValSplit, data.TestSplit}
	}
	return []data.SplitName{data.ValSplit}
}

// useEach hands use the outputs of one pass over every node of a graph for each set of
// nodes, the nodes being the rows.
func useEach(sets [][]int, out []float32, b *Batch, use func(int, []float32, *Batch, []int)) {
	for i, nodes := range sets {
		use(i, out, b, nodes)
	}
}
