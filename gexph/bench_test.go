package gexph

import (
	"testing"

	"github.com/gexph/gexph/data"
)

// benchPATTERN returns 64 generated PATTERN graphs and the demo preset.
func benchPATTERN(b *testing.B) (*data.Dataset, Config) {
	b.Helper()
	ds, err := data.GeneratePATTERN(data.SBMOptions{Seed: 1, Train: 32, Val: 16, Test: 16})
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := Preset("demo")
	if err != nil {
		b.Fatal(err)
	}
	return ds, cfg
}

// BenchmarkBuildBatchPATTERN measures the host side of one demo batch (16 PATTERN
// graphs): interaction graphs with certified expanders, features, PE copies, padding.
func BenchmarkBuildBatchPATTERN(b *testing.B) {
	ds, cfg := benchPATTERN(b)
	m, err := NewModel(cfg, ds)
	if err != nil {
		b.Fatal(err)
	}
	graphs := ds.Split.Train[:cfg.BatchSize]
	if err := m.pe.precompute(ds, graphs, 1); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.BuildBatch(ds, graphs, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrainStepPATTERN measures one training step (forward, backward, AdamW) of the
// demo model on a batch of 16 PATTERN graphs (padded, compiled once).
func BenchmarkTrainStepPATTERN(b *testing.B) {
	ds, cfg := benchPATTERN(b)
	m, err := NewModel(cfg, ds)
	if err != nil {
		b.Fatal(err)
	}
	batch, err := m.BuildBatch(ds, ds.Split.Train[:cfg.BatchSize], nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := m.SetLearningRate(cfg.LearningRate); err != nil {
		b.Fatal(err)
	}
	if _, _, err := m.trainStep(batch); err != nil { // compile
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := m.trainStep(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cfg.BatchSize)*float64(b.N)/b.Elapsed().Seconds(), "graphs/s")
}

// BenchmarkForwardPATTERN measures one inference pass of the demo model on 16 graphs.
func BenchmarkForwardPATTERN(b *testing.B) {
	ds, cfg := benchPATTERN(b)
	m, err := NewModel(cfg, ds)
	if err != nil {
		b.Fatal(err)
	}
	batch, err := m.BuildBatch(ds, ds.Split.Val[:cfg.BatchSize], nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.forward(batch); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		out, err := m.forward(batch)
		if err != nil {
			b.Fatal(err)
		}
		out.FinalizeAll()
	}
}
