package gexph

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/gomlx/core/tensors"
)

// luoParams counts the parameters Luo et al.'s MPNNs (LUOyk1999/tunedGNN,
// medium_graph/model.py) uses in its forward pass for a command line of run_gnn.sh,
// --ln, heads 1, no --pre_linear or --jk: per layer from width in to width d, GCNConv
// in·d + d, SAGEConv 2·in·d + d (lin_l with bias, lin_r without), GATConv in·d + 2d (no
// bias); with --res the Linear lins[i], in·d + d; the LayerNorm 2d; then pred_local
// d·c + c. (The module also registers lin_in, the unused lins without --res and the
// BatchNorms, which take no part in the model.)
func luoParams(gnn layers.LocalModel, in, d, c, numLayers int, res bool) int {
	total := d*c + c
	for range numLayers {
		switch gnn {
		case layers.LocalGCN:
			total += in*d + d
		case layers.LocalSAGE:
			total += 2*in*d + d
		case layers.LocalGAT:
			total += in*d + 2*d
		}
		if res {
			total += in*d + d
		}
		total += 2 * d
		in = d
	}
	return total
}

// featureDataset is a transductive ring of n nodes with dense features of width f and c
// classes, for counting a model's parameters on a data set of those widths.
func featureDataset(n, f, c int) *data.Dataset {
	g := data.Graph{NumNodes: n, NodeLabels: make([]int32, n),
		Node: data.Features{Kind: data.Dense, Rows: n, Cols: f, Dense: make([]float32, n*f)}}
	for v := range n {
		u := (v + 1) % n
		g.Src, g.Dst = append(g.Src, int32(v), int32(u)), append(g.Dst, int32(u), int32(v))
		g.NodeLabels[v] = int32(v % c)
		g.Node.Dense[v*f+v%f] = 1
	}
	return &data.Dataset{Name: "features", Task: data.NodeClassification, NumClasses: c, Transductive: true,
		Graphs: []data.Graph{g}, Split: data.Split{Train: rangeInts(0, n/2), Val: rangeInts(n/2, 3*n/4), Test: rangeInts(3*n/4, n)}}
}

// TestPlusPresetsHaveThePublishedParameterCounts builds each NAME-plus preset on a data
// set of the real set's feature width and classes and holds its parameter count to
// Luo et al.'s model's (luoParams: Computers 54,346; Photo 206,536; CS 11,250,703;
// Physics 1,086,149), and NAME-plus-exphormer's to that plus Exphormer attention's: per
// layer its query, key and value maps (3·in·d) and its edge projection (d·d), and once
// the local edges' embedding and the expander edges' type (2d).
func TestPlusPresetsHaveThePublishedParameterCounts(t *testing.T) {
	for _, s := range []struct {
		name        string
		features, c int
		published   int
	}{
		{"computers", 767, 10, 54346},
		{"photo", 745, 8, 206536},
		{"cs", 6805, 15, 11250703},
		{"physics", 8415, 5, 1086149},
	} {
		cfg, err := Preset(s.name + "-plus")
		if err != nil {
			t.Fatal(err)
		}
		want := luoParams(cfg.MPNN, s.features, cfg.HiddenDim, s.c, cfg.Layers, cfg.LinearResidual)
		if want != s.published {
			t.Fatalf("%s: luoParams %d, the comment's count %d", s.name, want, s.published)
		}
		ds := featureDataset(12, s.features, s.c)
		m := newTestModel(t, cfg, ds, "")
		if got := m.ParamCount(); got != want {
			t.Errorf("%s-plus: %d parameters, Luo et al.'s model has %d", s.name, got, want)
		}
		m.Close()
		ex, err := Preset(s.name + "-plus-exphormer")
		if err != nil {
			t.Fatal(err)
		}
		d, attn := ex.HiddenDim, 2*ex.HiddenDim
		for l := range ex.Layers {
			in := d
			if l == 0 {
				in = s.features
			}
			attn += 3*in*d + d*d
		}
		m = newTestModel(t, ex, ds, "")
		if got := m.ParamCount(); got != want+attn {
			t.Errorf("%s-plus-exphormer: %d parameters, want %d (the model's %d and attention's %d)", s.name, got, want+attn, want, attn)
		}
		m.Close()
	}
}

// TestPlusExphormerIsPlusWithAttention holds each NAME-plus-exphormer preset to
// NAME-plus with attention exphormer and nothing else changed.
func TestPlusExphormerIsPlusWithAttention(t *testing.T) {
	for _, name := range []string{"computers", "photo", "cs", "physics"} {
		plus, err := Preset(name + "-plus")
		if err != nil {
			t.Fatal(err)
		}
		ex, err := Preset(name + "-plus-exphormer")
		if err != nil {
			t.Fatal(err)
		}
		plus.Attention, plus.Preset = layers.GlobalExphormer, ex.Preset
		if changes := ConfigChanges(plus, ex); len(changes) > 0 {
			t.Errorf("%s-plus-exphormer differs from %s-plus by more than the attention: %s", name, name, strings.Join(changes, ", "))
		}
	}
}

// TestAdamL2StepIsPyTorchAdam checks one training step of each optimizer against Adam's
// first step written out, w₁ = w₀ − lr·ĝ/(|ĝ| + 10⁻⁸) per entry: with "adam" ĝ = g + λw₀
// (PyTorch's Adam with weight_decay λ), with "adamw" ĝ = g and then − lr·λ·w₀
// (decoupled). g is the loss's gradient at w₀; entries with |ĝ| < 10⁻³ are skipped (their
// step's sign is float rounding).
func TestAdamL2StepIsPyTorchAdam(t *testing.T) {
	ds := tinyTransductiveDataset(9)
	for _, opt := range []string{OptimizerAdam, OptimizerAdamW} {
		cfg := tinyConfig()
		cfg.MPNN, cfg.Attention, cfg.Norm, cfg.Dropout, cfg.AttnDropout = layers.LocalGCN, layers.GlobalNone, layers.NormNone, 0, 0
		cfg.Optimizer, cfg.WeightDecay, cfg.LearningRate, cfg.GradClip = opt, 0.5, 1e-2, 0
		m := newTestModel(t, cfg, ds, "")
		b, err := m.transductiveBatch(ds, true)
		if err != nil {
			t.Fatal(err)
		}
		grads := gradients(t, m, b)
		w0 := map[string][]float32{}
		for name := range grads {
			w0[name] = variableValue(t, m, name)
		}
		if _, err := m.TrainStep(b); err != nil {
			t.Fatal(err)
		}
		lr, wd := cfg.LearningRate, cfg.WeightDecay
		checked := 0
		for name, g := range grads {
			w1 := variableValue(t, m, name)
			for i := range g {
				w := float64(w0[name][i])
				gh := float64(g[i])
				decoupled := 0.0
				if opt == OptimizerAdam {
					gh += wd * w
				} else {
					decoupled = lr * wd * w
				}
				if math.Abs(gh) < 1e-3 {
					continue
				}
				want := w - lr*gh/(math.Abs(gh)+1e-8) - decoupled
				if d := math.Abs(float64(w1[i]) - want); d > 1e-6 {
					t.Fatalf("%s: %s[%d]: w₁ = %.8g, Adam's first step gives %.8g (w₀ %.6g, g %.6g)", opt, name, i, w1[i], want, w, g[i])
				}
				checked++
			}
		}
		if checked < 100 {
			t.Errorf("%s: only %d entries checked", opt, checked)
		}
		m.Close()
	}
}

// variableValue returns the current value of the model's variable at path.
func variableValue(t *testing.T, m *Model, path string) []float32 {
	t.Helper()
	v := m.store.GetVariable(path)
	if v == nil {
		t.Fatalf("no variable %q", path)
	}
	val, err := v.Value()
	if err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[float32](val)
}

func TestConstantScheduleKeepsTheLearningRate(t *testing.T) {
	cfg := tinyConfig()
	cfg.Schedule, cfg.WarmupEpochs, cfg.Epochs, cfg.LearningRate = ScheduleConstant, 5, 40, 3e-3
	for e := range cfg.Epochs {
		if lr := LearningRate(cfg, e); lr != cfg.LearningRate {
			t.Fatalf("epoch %d: learning rate %g, want the constant %g", e, lr, cfg.LearningRate)
		}
	}
	cfg.Schedule = ""
	if lr := LearningRate(cfg, 0); lr == cfg.LearningRate {
		t.Errorf("the default schedule starts at the full rate %g: the test cannot tell the schedules apart", lr)
	}
}

func TestClassicBlockRefusesWhatStandsBeforeItsFirstLayer(t *testing.T) {
	base, err := Preset("cs-plus-exphormer")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		edit func(c *Config)
		want string
	}{
		"pe":            {func(c *Config) { c.PE, c.PESize, c.PEDim = PELap, 4, 8 }, "pe must be"},
		"pre-mp":        {func(c *Config) { c.PreMPLayers = 1 }, "pre_mp_layers"},
		"virtual nodes": {func(c *Config) { c.GlobalEdges, c.VirtualNodes = true, 1 }, "global_edges"},
		"gatedgcn":      {func(c *Config) { c.MPNN = layers.LocalGatedGCN }, "mpnn"},
		"performer":     {func(c *Config) { c.Attention = layers.GlobalPerformer }, "attention"},
		"residual gps":  {func(c *Config) { c.Block = layers.BlockGPS }, "linear_residual"},
		"gat heads":     {func(c *Config) { c.MPNN, c.MPNNHeads = layers.LocalGAT, 3 }, "mpnn_heads"},
		"optimizer":     {func(c *Config) { c.Optimizer = "sgd" }, "optimizer"},
		"schedule":      {func(c *Config) { c.Schedule = "step" }, "schedule"},
	} {
		c := base
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want an error naming %q, got %v", name, tc.want, err)
		}
	}
}

// writeGNNBenchmarkFile writes a gnn-benchmark .npz (the layout of
// amazon_electronics_photo.npz and ms_academic_phy.npz: the adjacency and the binary
// features as CSR arrays, one label a node) named name, of n nodes on a ring with a
// chord each, f features (three set a node) and c classes, and returns its path.
func writeGNNBenchmarkFile(t *testing.T, name string, n, f, c int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(f)))
	var adjIndptr, adjIndices, attrIndptr, attrIndices []int32
	var adjData, attrData []float32
	labels := make([]int64, n)
	for v := range n {
		adjIndptr, attrIndptr = append(adjIndptr, int32(len(adjIndices))), append(attrIndptr, int32(len(attrIndices)))
		for _, u := range []int{(v + 1) % n, (v + n - 1) % n, (v + n/2) % n} {
			adjIndices, adjData = append(adjIndices, int32(u)), append(adjData, 1)
		}
		for _, j := range rng.Perm(f)[:3] {
			attrIndices, attrData = append(attrIndices, int32(j)), append(attrData, 1)
		}
		labels[v] = int64(v % c)
	}
	adjIndptr, attrIndptr = append(adjIndptr, int32(len(adjIndices))), append(attrIndptr, int32(len(attrIndices)))
	var buf bytes.Buffer
	err := npy.WriteNPZ(&buf, []npy.Entry{
		{Name: "adj_data", Shape: []int{len(adjData)}, Data: adjData},
		{Name: "adj_indices", Shape: []int{len(adjIndices)}, Data: adjIndices},
		{Name: "adj_indptr", Shape: []int{n + 1}, Data: adjIndptr},
		{Name: "adj_shape", Shape: []int{2}, Data: []int64{int64(n), int64(n)}},
		{Name: "attr_data", Shape: []int{len(attrData)}, Data: attrData},
		{Name: "attr_indices", Shape: []int{len(attrIndices)}, Data: attrIndices},
		{Name: "attr_indptr", Shape: []int{n + 1}, Data: attrIndptr},
		{Name: "attr_shape", Shape: []int{2}, Data: []int64{int64(n), int64(f)}},
		{Name: "labels", Shape: []int{n}, Data: labels},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPhotoAndPhysicsPlusPresetsTrainFromGNNBenchmarkFiles trains photo-plus,
// physics-plus and their -exphormer presets for one epoch from "npz:" files of the
// real sets' layout, feature widths and classes (Photo 745 features, 8 classes; Physics
// 8,415 and 5), as a user with the files runs them, and holds the plus presets to the
// published models' parameter counts (Photo 206,536; Physics 1,086,149).
func TestPhotoAndPhysicsPlusPresetsTrainFromGNNBenchmarkFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four presets")
	}
	for _, s := range []struct {
		file, preset         string
		features, classes, p int
	}{
		{"amazon_electronics_photo.npz", "photo", 745, 8, 206536},
		{"ms_academic_phy.npz", "physics", 8415, 5, 1086149},
	} {
		path := writeGNNBenchmarkFile(t, s.file, 40, s.features, s.classes)
		for _, name := range []string{s.preset + "-plus", s.preset + "-plus-exphormer"} {
			cfg, err := Preset(name)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Epochs = 1
			res, err := TrainFromSpec(context.Background(), "npz:"+path, cfg, TrainOptions{})
			if err != nil {
				t.Fatalf("%s on %s: %v", name, s.file, err)
			}
			if res.Epochs != 1 || math.IsNaN(res.History[0].TrainLoss) {
				t.Errorf("%s: %d epochs, first loss %v", name, res.Epochs, res.History[0].TrainLoss)
			}
			if name == s.preset+"-plus" && res.Params != s.p {
				t.Errorf("%s: %d parameters, the published model has %d", name, res.Params, s.p)
			}
		}
	}
}
