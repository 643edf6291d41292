package gexph

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/shareddata"
)

// realDataDir returns the shared data root (see shareddata.Root), skipping the test when
// the file rel is absent (failing when $CI is set).
func realDataDir(t *testing.T, rel string) string {
	t.Helper()
	shareddata.Path(t, rel)
	abs, err := filepath.Abs(shareddata.Root())
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestRealComputersParamCount builds the Computers preset on the real data set and
// compares its parameter count with the paper's table 9.
func TestRealComputersParamCount(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and runs a 13k-node graph")
	}
	dir := realDataDir(t, "gnn-benchmark/amazon-computers.zip")
	ds, err := data.Load("computers", data.LoadOptions{DataDir: dir, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := Preset("computers")
	m, err := NewModel(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := m.ParamCount(); got != 302570 {
		t.Errorf("Computers: %d parameters, the paper reports 302,570", got)
	}
}

// TestRealCoraTrains trains the Cora preset for a few epochs on the real graph.
func TestRealCoraTrains(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on a 2.5k-node graph")
	}
	dir := realDataDir(t, "gnn-benchmark/cora.npz")
	cfg, _ := Preset("cora")
	cfg.Epochs, cfg.WarmupEpochs, cfg.Layers, cfg.HiddenDim, cfg.LearningRate = 30, 0, 2, 32, 1e-2
	res, err := TrainFromSpec(context.Background(), "cora", cfg, TrainOptions{Data: data.LoadOptions{DataDir: dir, NoCache: true}})
	if err != nil {
		t.Fatal(err)
	}
	// Seven classes, the largest about 30 % of the nodes: 30 full-batch epochs learn well
	// above the majority baseline.
	if res.TestMetric < 0.5 {
		t.Errorf("Cora test accuracy %.3f after %d epochs, want ≥ 0.5", res.TestMetric, res.Epochs)
	}
}
