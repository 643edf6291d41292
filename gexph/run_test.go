package gexph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gexph/gexph/data"
)

// cancelAtCall returns a context that its own Err cancels at its n-th call: a
// cancellation at a known point of a computation that asks ctx.Err() between steps.
func cancelAtCall(t *testing.T, n int32) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &errCounter{Context: ctx, cancel: cancel, n: n}
}

type errCounter struct {
	context.Context
	cancel context.CancelFunc
	calls  atomic.Int32
	n      int32
}

func (c *errCounter) Err() error {
	if c.calls.Add(1) >= c.n {
		c.cancel()
	}
	return c.Context.Err()
}

// layerGraphsModel returns a second-stage Spexphormer model of ds: per-layer graphs of
// 3 edges per node drawn from the scores of an untrained estimator.
func layerGraphsModel(t *testing.T, ds *data.Dataset) *Model {
	t.Helper()
	est := newTestModel(t, EstimatorConfig(miniConfig()), ds, "")
	scores, err := est.AttentionScores(ds)
	if err != nil {
		t.Fatal(err)
	}
	lg, err := scores.Sparsify(3, 7)
	if err != nil {
		t.Fatal(err)
	}
	cfg := miniConfig()
	cfg.SparseAttentionK = 3
	m, err := NewModelWithOptions(cfg, ds, ModelOptions{LayerGraphs: lg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func TestEachWayOfRunningIsChosenByItsOptions(t *testing.T) {
	planted := plantedDataset(t, 300)
	sampled := miniConfig()
	sampled.BatchNodes = 64
	for _, c := range []struct {
		name  string
		m     *Model
		want  runner
		whole bool
	}{
		{"graphs", newTestModel(t, tinyConfig(), tinyNodeDataset(8, 1), ""), &graphBatches{}, true},
		{"whole graph", newTestModel(t, miniConfig(), planted, ""), &wholeGraph{}, true},
		{"sampled", newTestModel(t, sampled, planted, ""), &sampledBatches{}, false},
		{"per-layer graphs", layerGraphsModel(t, planted), &layerGraphRunner{}, false},
	} {
		if got, want := fmt.Sprintf("%T", c.m.run), fmt.Sprintf("%T", c.want); got != want {
			t.Errorf("%s: runs as %s, want %s", c.name, got, want)
		}
		if c.m.WholeGraphBatches() != c.whole {
			t.Errorf("%s: WholeGraphBatches %v, want %v", c.name, c.m.WholeGraphBatches(), c.whole)
		}
	}
}

func TestEvaluationStopsWhenItsContextIsCancelled(t *testing.T) {
	planted := plantedDataset(t, 300)
	sampled := miniConfig()
	sampled.BatchNodes, sampled.EvalChunkNodes = 64, 16
	graphs := tinyNodeDataset(20, 1)
	for _, c := range []struct {
		name string
		m    *Model
		ds   *data.Dataset
		// at is the call of ctx.Err that cancels: 1 before the pass, 2 after its first
		// batch or chunk.
		at int32
	}{
		{"graphs, before the first batch", newTestModel(t, tinyConfig(), graphs, ""), graphs, 1},
		{"graphs, after the first batch", newTestModel(t, tinyConfig(), graphs, ""), graphs, 2},
		{"whole graph", newTestModel(t, miniConfig(), planted, ""), planted, 1},
		{"sampled, before the first chunk", newTestModel(t, sampled, planted, ""), planted, 1},
		{"sampled, after the first chunk", newTestModel(t, sampled, planted, ""), planted, 2},
		{"per-layer graphs", layerGraphsModel(t, planted), planted, 1},
	} {
		if _, err := c.m.evaluate(context.Background(), c.ds, []data.SplitName{data.TrainSplit}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err := c.m.evaluate(cancelAtCall(t, c.at), c.ds, []data.SplitName{data.TrainSplit})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: evaluation cancelled at ctx.Err call %d returned %v, want context.Canceled", c.name, c.at, err)
		}
	}
}

func TestLayerwiseChunkBuilderEndsWhenCancelled(t *testing.T) {
	ds := plantedDataset(t, 300)
	m := newTestModel(t, miniConfig(), ds, "")
	sp, err := m.samplerOf(ds)
	if err != nil {
		t.Fatal(err)
	}
	const chunk = 16
	total := (sp.h.NumReal+chunk-1)/chunk + sp.h.NumNodes - sp.h.NumReal
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := m.streamChunks(ctx, sp, sp.h.NumNodes, chunk, nil)
	first := <-s.ch
	first.release()
	if first.err != nil {
		t.Fatal(first.err)
	}
	cancel()
	// The channel closes when the builder returns; a builder that ignored the
	// cancellation would build every chunk first.
	for w := range s.ch {
		w.release()
	}
	<-s.done
	// At the cancellation it may hold one chunk in the channel and be building another.
	if s.built > 3 || s.built >= total {
		t.Errorf("the builder built %d of %d chunks after the first was taken and the context cancelled, want ≤ 3", s.built, total)
	}
}

func TestLayerwiseOutputsStopWhenCancelledMidway(t *testing.T) {
	ds := plantedDataset(t, 300)
	cfg := miniConfig()
	cfg.EvalChunkNodes = 16
	m := newTestModel(t, cfg, ds, "")
	if _, err := m.LayerwiseOutputs(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	// LayerwiseOutputs asks ctx.Err() before running each chunk: the second call comes
	// after the first chunk of the first layer.
	out, err := m.LayerwiseOutputs(cancelAtCall(t, 2), ds)
	if !errors.Is(err, context.Canceled) || out != nil {
		t.Errorf("cancelled after the first chunk: %d outputs, error %v; want none and context.Canceled", len(out), err)
	}
}

// cancelOnLine is a log that cancels a run when it writes a line containing what.
type cancelOnLine struct {
	what   string
	cancel context.CancelFunc
}

func (w *cancelOnLine) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.what) {
		w.cancel()
	}
	return len(p), nil
}

func TestTrainInterruptedDuringEvaluationStopsIt(t *testing.T) {
	ds := plantedDataset(t, 300)
	cfg := miniConfig()
	cfg.BatchNodes, cfg.EvalChunkNodes, cfg.Epochs = 64, 16, 2
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Train(ctx, cfg, ds, TrainOptions{Log: &cancelOnLine{what: "layer-wise evaluation", cancel: cancel}})
	var ie *InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Train cancelled as its first evaluation began returned %v, want an *InterruptedError of context.Canceled", err)
	}
	// An evaluation that ran to its end would have completed epoch 1, and the run
	// stopped before epoch 2.
	if ie.Epoch != 1 {
		t.Errorf("interrupted in epoch %d, want 1 (its evaluation)", ie.Epoch)
	}
}
