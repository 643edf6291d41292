package gexph

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
)

// plantedDataset is a small planted-partition graph (dense features, 5 classes).
func plantedDataset(t *testing.T, n int) *data.Dataset {
	t.Helper()
	ds, err := data.GeneratePlantedPartition(data.DefaultPlantedPartitionOptions(n, 3))
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// miniConfig is a 2-layer GCN + Exphormer model with a virtual node and batch norm.
func miniConfig() Config {
	c := tinyConfig()
	c.Layers, c.HiddenDim, c.Heads = 2, 16, 2
	c.MPNN, c.Attention = layers.LocalGCN, layers.GlobalExphormer
	c.GlobalEdges, c.VirtualNodes, c.ExpanderDegree = true, 1, 4
	c.PE = PENone
	c.HeadLayers = 1
	return c
}

// diffAndScale returns the largest |a_i − b_i| and the largest |a_i|.
func diffAndScale(t *testing.T, a, b []float32) (diff, scale float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("lengths %d and %d differ", len(a), len(b))
	}
	for i := range a {
		diff = math.Max(diff, math.Abs(float64(a[i])-float64(b[i])))
		scale = math.Max(scale, math.Abs(float64(a[i])))
	}
	return diff, scale
}

func TestLayerwiseInferenceEqualsFullGraphForward(t *testing.T) {
	cases := []struct {
		name string
		ds   *data.Dataset
		edit func(*Config)
	}{
		{"gcn+exphormer, virtual node, batch norm", plantedDataset(t, 500), func(*Config) {}},
		{"gat+exphormer, layer norm, sparse features", tinyTransductiveDataset(4), func(c *Config) {
			c.MPNN, c.Norm = layers.LocalGAT, layers.NormLayer
		}},
		{"sage alone, pre-MP layer", plantedDataset(t, 300), func(c *Config) {
			c.MPNN, c.Attention, c.PreMPLayers = layers.LocalSAGE, layers.GlobalNone, 1
		}},
		{"exphormer alone, 3 layers", plantedDataset(t, 300), func(c *Config) {
			c.MPNN, c.Layers = layers.LocalNone, 3
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := miniConfig()
			tc.edit(&cfg)
			cfg.EvalChunkNodes = 64 // several chunks per layer
			m, err := NewModel(cfg, tc.ds)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			// A few steps move the weights and the batch-norm statistics off their
			// initial values.
			train, err := m.transductiveBatch(tc.ds, true)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if _, err := m.TrainStep(train); err != nil {
					t.Fatal(err)
				}
			}
			b, err := m.transductiveBatch(tc.ds, false)
			if err != nil {
				t.Fatal(err)
			}
			full, err := m.Predict(b)
			if err != nil {
				t.Fatal(err)
			}
			lw, err := m.LayerwiseOutputs(context.Background(), tc.ds)
			if err != nil {
				t.Fatal(err)
			}
			diff, scale := diffAndScale(t, full, lw)
			t.Logf("largest difference %.3g, outputs up to %.3g", diff, scale)
			if diff > 1e-5*math.Max(1, scale) || scale == 0 {
				t.Fatalf("layer-wise outputs differ from the full graph's by %.3g (outputs up to %.3g)", diff, scale)
			}
		})
	}
}

// fullForward builds the model of cfg and opts on the transductive data set ds (closed
// at the test's end) and returns it with its inference batch of the whole graph and its
// outputs there.
func fullForward(t *testing.T, cfg Config, ds *data.Dataset, opts ModelOptions) (*Model, *Batch, []float32) {
	t.Helper()
	m, err := NewModelWithOptions(cfg, ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	b, err := m.transductiveBatch(ds, false)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Predict(b)
	if err != nil {
		t.Fatal(err)
	}
	return m, b, out
}

func TestSampledBatchWithEveryEdgeMatchesFullGraphOnSeeds(t *testing.T) {
	ds := plantedDataset(t, 400)
	cfg := miniConfig()
	cfg.MPNN = layers.LocalSAGE
	m, _, full := fullForward(t, cfg, ds, ModelOptions{})
	sp, err := m.samplerOf(ds)
	if err != nil {
		t.Fatal(err)
	}
	seeds := []int32{5, 17, 230, 399, 0}
	all := make([]expander.Fanout, cfg.Layers)
	for i := range all {
		all[i] = sp.all
	}
	s, err := sp.h.SampleNeighbours(seeds, expander.SampleOptions{Hops: all})
	if err != nil {
		t.Fatal(err)
	}
	sb, _, err := m.sampleBatch(sp, s, true, false)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Predict(sb)
	if err != nil {
		t.Fatal(err)
	}
	k := m.spec.outDim
	for i, v := range seeds {
		diff, scale := diffAndScale(t, out[i*k:(i+1)*k], full[int(v)*k:(int(v)+1)*k])
		if diff > 1e-5*math.Max(1, scale) {
			t.Errorf("seed %d: sampled-batch output differs from the full graph's by %.3g", v, diff)
		}
	}
	if got := sb.Weights[:sb.NumNodes]; slices.Index(got, 0) != len(seeds) {
		t.Errorf("loss weights %v…: want 1 on the %d seeds and 0 after", got[:min(len(got), 8)], len(seeds))
	}
}

func TestMiniBatchTrainingIsDeterministicAndLearns(t *testing.T) {
	ds := plantedDataset(t, 2000)
	cfg := miniConfig()
	cfg.BatchNodes, cfg.Epochs, cfg.LearningRate = 128, 4, 1e-2
	cfg.Fanout = "local=5,expander=2,global-in=16,global-out=all"
	run := func() *Result {
		res, err := Train(context.Background(), cfg, ds, TrainOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	for i := range a.History {
		if a.History[i].TrainLoss != b.History[i].TrainLoss || a.History[i].ValMetric != b.History[i].ValMetric {
			t.Fatalf("epoch %d differs between two runs of one seed: %+v vs %+v", i+1, a.History[i], b.History[i])
		}
	}
	// Five balanced classes: chance is 0.2.
	if a.ValMetric < 0.6 {
		t.Errorf("validation accuracy %.3f after %d epochs of mini-batches, want ≥ 0.6", a.ValMetric, cfg.Epochs)
	}
}

func TestMiniBatchConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"fanout type", func(c *Config) { c.Fanout = "locals=3" }},
		{"fanout count", func(c *Config) { c.Fanout = "local=-2" }},
		{"fanout layers", func(c *Config) { c.Fanout = "local=1/local=2/local=3" }},
		{"pe", func(c *Config) { c.PE, c.PESize = PERWSE, 4; c.PEDim = 4 }},
		{"gatedgcn", func(c *Config) { c.MPNN = layers.LocalGatedGCN }},
		{"full attention", func(c *Config) { c.Attention = layers.GlobalFull }},
	} {
		cfg := miniConfig()
		cfg.BatchNodes = 16
		tc.edit(&cfg)
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", tc.name, cfg)
		}
	}
	cfg := miniConfig()
	cfg.BatchNodes = 16
	if _, err := NewModel(cfg, tinyNodeDataset(4, 1)); err == nil {
		t.Error("batch_nodes on an inductive data set: no error")
	}
}

func TestParseFanoutReadsPerLayerSpecs(t *testing.T) {
	hops, err := ParseFanout("local=10,expander=all/global=3", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []expander.Fanout{{10, -1, 0, 0}, {0, 0, 3, 3}}
	if !slices.Equal(hops, want) {
		t.Errorf("got %v, want %v", hops, want)
	}
	hops, err = ParseFanout("", 3)
	if err != nil || len(hops) != 3 || hops[2] != (expander.Fanout{10, -1, 32, -1}) {
		t.Errorf("default fanout: got %v, %v", hops, err)
	}
}

func TestChunkSampleEqualsSampleNeighboursWithEveryEdge(t *testing.T) {
	ds := plantedDataset(t, 300)
	m, err := NewModel(miniConfig(), ds)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sp, err := m.samplerOf(ds)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]int{{0, 64}, {250, 301}, {300, 301}} {
		seeds := make([]int32, r[1]-r[0])
		for i := range seeds {
			seeds[i] = int32(r[0] + i)
		}
		want, err := sp.h.SampleNeighbours(seeds, expander.SampleOptions{Hops: []expander.Fanout{sp.all}})
		if err != nil {
			t.Fatal(err)
		}
		got := sp.chunkSample(r[0], r[1])
		if !slices.Equal(got.Nodes, want.Nodes) || !slices.Equal(got.Src, want.Src) || !slices.Equal(got.Dst, want.Dst) ||
			!slices.Equal(got.Edge, want.Edge) || !slices.Equal(got.Depth, want.Depth) || !slices.Equal(got.HopOffset, want.HopOffset) {
			t.Fatalf("chunk [%d, %d): chunkSample differs from SampleNeighbours", r[0], r[1])
		}
	}
}
