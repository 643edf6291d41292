package gexph

import (
	"context"
	"testing"
)

// Batches built ahead on another goroutine are the batches built in turn: a run with
// two batches prefetched gives the losses and metrics of a run without, to the last
// digit, and so does inference.
func TestPrefetchedBatchesTrainAsBatchesBuiltInTurn(t *testing.T) {
	ds := tinyNodeDataset(24, 5)
	cfg := smallPreset(t, "pattern")
	cfg.Epochs, cfg.WarmupEpochs, cfg.BatchSize = 2, 0, 3
	var runs []*Result
	for _, depth := range []int{-1, 2} {
		res, err := Train(context.Background(), cfg, ds, TrainOptions{Prefetch: depth})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, res)
	}
	a, b := runs[0], runs[1]
	for i := range a.History {
		if a.History[i].TrainLoss != b.History[i].TrainLoss || a.History[i].ValMetric != b.History[i].ValMetric {
			t.Fatalf("epoch %d: train loss %v / %v, val %v / %v without and with prefetching", i+1,
				a.History[i].TrainLoss, b.History[i].TrainLoss, a.History[i].ValMetric, b.History[i].ValMetric)
		}
	}
}

// A stream stopped early releases what it built and ends its goroutine; an error
// building a batch is handed over in its place.
func TestBatchStreamStopsAndReportsBuildErrors(t *testing.T) {
	ds := tinyNodeDataset(12, 5)
	m, err := NewModelWithOptions(smallPreset(t, "pattern"), ds, ModelOptions{Prefetch: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s := m.streamBatches(context.Background(), ds, [][]int{{0, 1}, {2}, {3}, {4}}, m.padding)
	if b, err := s.Next(); err != nil || b.NumGraphs != 2 {
		t.Fatalf("first batch %v, %v", b, err)
	}
	s.Stop() // three built or being built, never taken
	bad := m.streamBatches(context.Background(), ds, [][]int{{0}, {len(ds.Graphs)}, {1}}, m.padding)
	defer bad.Stop()
	if _, err := bad.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Next(); err == nil {
		t.Error("a batch of a graph outside the data set built without error")
	}
}
