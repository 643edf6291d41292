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
	if err := m.pe.Precompute(ds, graphs, 1); err != nil {
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

// benchLarge returns a planted-partition graph of 2·10⁵ nodes and a model of the large
// preset on it.
func benchLarge(b *testing.B) (*data.Dataset, *Model) {
	b.Helper()
	ds, err := data.GeneratePlantedPartition(data.DefaultPlantedPartitionOptions(200_000, 1))
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := Preset("large")
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewModel(cfg, ds)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(m.Close)
	return ds, m
}

// BenchmarkSampledTrainStepLarge measures one mini-batch step of the large preset
// (1024 seeds, sampling and batch building included) on 2·10⁵ planted nodes.
func BenchmarkSampledTrainStepLarge(b *testing.B) {
	ds, m := benchLarge(b)
	sp, err := m.samplerOf(ds)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		s, err := sp.sample(ds.Split.Train[i*1024:(i+1)*1024], 1, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		batch, _, err := m.sampleBatch(sp, s, true, false)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.TrainStep(batch); err != nil {
			b.Fatal(err)
		}
		batch.Release()
		i = (i + 1) % 100
	}
}

// BenchmarkLayerwiseInferenceLarge measures exact layer-wise inference of the large
// preset's model over all 2·10⁵ planted nodes.
func BenchmarkLayerwiseInferenceLarge(b *testing.B) {
	ds, m := benchLarge(b)
	for b.Loop() {
		if _, err := m.LayerwiseOutputs(b.Context(), ds); err != nil {
			b.Fatal(err)
		}
	}
}
