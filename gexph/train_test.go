package gexph

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/gomlx/core/tensors"
)

func TestLearningRateSchedule(t *testing.T) {
	cfg := baseConfig()
	cfg.LearningRate, cfg.Epochs, cfg.WarmupEpochs = 0.1, 14, 4
	for _, tc := range []struct {
		epoch int
		want  float64
	}{
		{0, 0.1 * 1e-6}, {1, 0.025}, {3, 0.075},
		{4, 0.1},  // cosine start
		{9, 0.05}, // half way through the 10 cosine epochs
		{14, 0},   // end
		{6, 0.1 * 0.5 * (1 + math.Cos(math.Pi*0.2))},
	} {
		if got := LearningRate(cfg, tc.epoch); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("LearningRate(epoch %d) = %v, want %v", tc.epoch, got, tc.want)
		}
	}
	cfg.WarmupEpochs = 0
	if got := LearningRate(cfg, 0); got != 0.1 {
		t.Errorf("no warm-up: first rate %v, want 0.1", got)
	}
}

func train(t *testing.T, cfg Config, ds *data.Dataset, opts TrainOptions) *Result {
	t.Helper()
	res, err := Train(context.Background(), cfg, ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestTrainDeterministic: the same seed gives the same loss curve; another seed does not.
func TestTrainDeterministic(t *testing.T) {
	ds := tinyNodeDataset(10, 4)
	cfg := tinyConfig()
	cfg.Epochs, cfg.Dropout, cfg.AttnDropout = 3, 0.2, 0.2
	a := train(t, cfg, ds, TrainOptions{})
	b := train(t, cfg, ds, TrainOptions{})
	for i := range a.History {
		ha, hb := a.History[i], b.History[i]
		if ha.TrainLoss != hb.TrainLoss || ha.ValLoss != hb.ValLoss || ha.ValMetric != hb.ValMetric {
			t.Errorf("epoch %d differs: %+v vs %+v", i+1, ha, hb)
		}
	}
	cfg.Seed++
	c := train(t, cfg, ds, TrainOptions{})
	if c.History[0].TrainLoss == a.History[0].TrainLoss {
		t.Error("another seed gave the same first-epoch loss")
	}
}

// TestOverfitTinyDataset: a small model learns labels that its input determines.
func TestOverfitTinyDataset(t *testing.T) {
	ds := tinyNodeDataset(10, 5)
	cfg := tinyConfig()
	cfg.Epochs, cfg.LearningRate, cfg.Metric = 30, 2e-2, MetricAccuracy
	res := train(t, cfg, ds, TrainOptions{})
	last := res.History[len(res.History)-1]
	if last.TrainMetric < 0.99 || res.ValMetric < 0.99 {
		t.Errorf("after %d epochs: train accuracy %.3f, best val accuracy %.3f; want ≥ 0.99", cfg.Epochs, last.TrainMetric, res.ValMetric)
	}
	if last.TrainLoss >= res.History[0].TrainLoss/3 {
		t.Errorf("train loss went from %v to %v only", res.History[0].TrainLoss, last.TrainLoss)
	}
}

// checkpointFloats reads every float variable of a checkpoint.
func checkpointFloats(t *testing.T, path string) map[string][]float32 {
	t.Helper()
	ck, err := readCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float32{}
	for i, sv := range ck.vars {
		if ck.values[i].Shape().DType.IsFloat() {
			out[sv.Path] = tensors.MustCopyFlatData[float32](ck.values[i])
		}
	}
	return out
}

// TestResumeMatchesUninterrupted: 4 epochs in one go equal 2 epochs, a stop, and 2 more
// from the checkpoint: weights, optimizer state and losses.
func TestResumeMatchesUninterrupted(t *testing.T) {
	ds := tinyNodeDataset(10, 6)
	cfg := tinyConfig()
	cfg.Epochs, cfg.Dropout, cfg.WarmupEpochs = 4, 0.1, 1
	dirA, dirB := t.TempDir(), t.TempDir()
	full := train(t, cfg, ds, TrainOptions{OutDir: dirA})
	part := train(t, cfg, ds, TrainOptions{OutDir: dirB, StopAfter: 2})
	if part.Epochs != 2 {
		t.Fatalf("stopped run has %d epochs, want 2", part.Epochs)
	}
	resumed := train(t, cfg, ds, TrainOptions{OutDir: dirB, Resume: true})
	if resumed.Epochs != 4 || len(resumed.History) != 4 {
		t.Fatalf("resumed run: %d epochs, %d history entries", resumed.Epochs, len(resumed.History))
	}
	for i := range full.History {
		if d := math.Abs(full.History[i].TrainLoss - resumed.History[i].TrainLoss); d > 1e-6 {
			t.Errorf("epoch %d: train loss %v vs %v", i+1, full.History[i].TrainLoss, resumed.History[i].TrainLoss)
		}
		if d := math.Abs(full.History[i].ValLoss - resumed.History[i].ValLoss); d > 1e-6 {
			t.Errorf("epoch %d: val loss %v vs %v", i+1, full.History[i].ValLoss, resumed.History[i].ValLoss)
		}
	}
	va := checkpointFloats(t, filepath.Join(dirA, LastCheckpointFile))
	vb := checkpointFloats(t, filepath.Join(dirB, LastCheckpointFile))
	if len(va) != len(vb) || len(va) == 0 {
		t.Fatalf("%d and %d variables", len(va), len(vb))
	}
	for name, a := range va {
		b, ok := vb[name]
		if !ok {
			t.Fatalf("variable %s missing after resume", name)
		}
		if d := maxAbsDiff(a, b); d > 1e-6 {
			t.Errorf("variable %s differs by %g", name, d)
		}
	}
	// A resumed run whose config changed beyond its length is refused.
	old := cfg.HiddenDim
	cfg.HiddenDim = 16
	want := fmt.Sprintf("hidden_dim: %d → 16", old)
	if _, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: dirB, Resume: true}); err == nil || !strings.Contains(err.Error(), "another config") || !strings.Contains(err.Error(), want) {
		t.Errorf("resume with another config: error %v, want one naming %q", err, want)
	}
}

// TestEarlyStopping freezes the model (a negligible learning rate, no batch norm, no
// dropout): the validation metric never improves after epoch 1, so the run stops after
// 1 + patience epochs.
func TestEarlyStopping(t *testing.T) {
	ds := tinyNodeDataset(8, 7)
	cfg := tinyConfig()
	cfg.Norm, cfg.MPNN, cfg.LearningRate, cfg.Epochs, cfg.Patience = layers.NormLayer, layers.LocalGINE, 1e-12, 10, 2
	res := train(t, cfg, ds, TrainOptions{})
	if !res.EarlyStopped || res.Epochs != 3 || res.BestEpoch != 1 {
		t.Errorf("early stopped %v after %d epochs, best %d; want true, 3, 1", res.EarlyStopped, res.Epochs, res.BestEpoch)
	}
}

// TestTransductiveLossUsesTrainingNodesOnly: changing the labels of validation and test
// nodes leaves the training curve unchanged.
func TestTransductiveLossUsesTrainingNodesOnly(t *testing.T) {
	ds := tinyTransductiveDataset(8)
	cfg := tinyConfig()
	cfg.MPNN, cfg.GlobalEdges, cfg.VirtualNodes, cfg.HeadNorm = layers.LocalGCN, false, 0, true
	cfg.Epochs, cfg.BatchSize = 3, 1
	a := train(t, cfg, ds, TrainOptions{})
	other := tinyTransductiveDataset(8)
	g := &other.Graphs[0]
	labels := append([]int32(nil), g.NodeLabels...)
	for _, v := range append(append([]int(nil), other.Split.Val...), other.Split.Test...) {
		labels[v] = (labels[v] + 1) % 3
	}
	g.NodeLabels = labels
	b := train(t, cfg, other, TrainOptions{})
	for i := range a.History {
		if a.History[i].TrainLoss != b.History[i].TrainLoss {
			t.Errorf("epoch %d: train loss %v vs %v", i+1, a.History[i].TrainLoss, b.History[i].TrainLoss)
		}
	}
	if a.History[0].ValLoss == b.History[0].ValLoss {
		t.Error("validation loss ignores the validation labels")
	}
}

func TestGraphLevelTasks(t *testing.T) {
	for _, tc := range []struct {
		task   data.Task
		metric string
		pool   layers.Pooling
	}{
		{data.GraphClassification, MetricAccuracy, layers.PoolMean},
		{data.GraphRegression, MetricMAE, layers.PoolSum},
		{data.GraphMultiLabel, MetricAP, layers.PoolMax},
	} {
		ds := tinyGraphDataset(tc.task, 16, 9)
		cfg := tinyConfig()
		cfg.Metric, cfg.Pooling, cfg.Epochs = tc.metric, tc.pool, 3
		res := train(t, cfg, ds, TrainOptions{})
		if res.BestEpoch < 1 || res.BestEpoch > res.Epochs || res.Epochs != 3 {
			t.Errorf("%s: best epoch %d of %d", tc.task, res.BestEpoch, res.Epochs)
		}
		top := res.History[res.BestEpoch-1]
		if top.ValMetric != res.ValMetric || top.TestMetric == nil || *top.TestMetric != res.TestMetric {
			t.Errorf("%s: result %v/%v disagrees with its best epoch %+v", tc.task, res.ValMetric, res.TestMetric, top)
		}
		for _, h := range res.History {
			if math.IsNaN(h.TrainLoss) || math.IsNaN(h.ValMetric) {
				t.Errorf("%s: NaN in %+v", tc.task, h)
			}
		}
		best := math.NaN()
		for i, h := range res.History {
			improved := i == 0 || (tc.metric == MetricMAE && h.ValMetric < best) || (tc.metric != MetricMAE && h.ValMetric > best)
			if h.Best != improved {
				t.Errorf("%s: epoch %d marked best=%v with val %v (best so far %v)", tc.task, i+1, h.Best, h.ValMetric, best)
			}
			if improved {
				best = h.ValMetric
			}
		}
	}
}

// TestOutputFilesAndEvaluate checks a run's output files and that Evaluate re-derives its
// figures from best.ckpt, EvaluateSplits the named splits only (an unknown one an error).
func TestOutputFilesAndEvaluate(t *testing.T) {
	ds := tinyNodeDataset(10, 10)
	cfg := tinyConfig()
	cfg.Preset = "tiny"
	dir := t.TempDir()
	var log bytes.Buffer
	res := train(t, cfg, ds, TrainOptions{OutDir: dir, Log: &log})
	if !strings.Contains(log.String(), "parameters") || !strings.Contains(log.String(), "epoch 1/2") || !strings.Contains(log.String(), "epoch 2/2") {
		t.Errorf("progress output:\n%s", log.String())
	}
	f, err := os.Open(filepath.Join(dir, LogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		if lines == 0 { // the header: what the run is
			var h LogHeader
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Metric != cfg.Metric || h.Dataset != ds.Name || h.Config.Layers != cfg.Layers || h.Seed != cfg.Seed {
				t.Errorf("log header %+v (%v), want the run's data set, metric, seed and config", h, err)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"epoch", "train_loss", "train_metric", "val_loss", "val_metric", "lr", "seconds", "examples_per_sec"} {
			if _, ok := m[key]; !ok {
				t.Errorf("log line %d lacks %q", lines+1, key)
			}
		}
	}
	if lines != 3 {
		t.Errorf("log.jsonl has %d lines, want a header and 2 epochs", lines)
	}
	csvBytes, err := os.ReadFile(filepath.Join(dir, CSVLogFile))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(csvBytes)), "\n")
	if len(rows) != 3 || !strings.HasPrefix(rows[0], "epoch,train_loss,") || !strings.HasPrefix(rows[2], "2,") {
		t.Errorf("log.csv:\n%s\nwant a header row and 2 epochs", csvBytes)
	}
	b, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"dataset", "preset", "params", "epochs", "best_epoch", "val_metric", "test_metric", "metric", "seconds", "seed", "version"} {
		if _, ok := m[key]; !ok {
			t.Errorf("result.json lacks %q", key)
		}
	}
	if m["preset"] != "tiny" || m["params"].(float64) != float64(res.Params) {
		t.Errorf("result.json preset %v params %v", m["preset"], m["params"])
	}
	info, err := ReadCheckpointInfo(filepath.Join(dir, BestCheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Epoch != res.BestEpoch {
		t.Errorf("best checkpoint from epoch %d, best epoch %d", info.Epoch, res.BestEpoch)
	}
	ev, err := Evaluate(context.Background(), filepath.Join(dir, BestCheckpointFile), ds, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ev.Val.Metric-res.ValMetric) > 1e-9 || math.Abs(ev.Test.Metric-res.TestMetric) > 1e-9 {
		t.Errorf("Evaluate: val %v test %v, training reported %v and %v", ev.Val.Metric, ev.Test.Metric, res.ValMetric, res.TestMetric)
	}
	only, err := EvaluateSplits(context.Background(), filepath.Join(dir, BestCheckpointFile), ds, ModelOptions{}, "test")
	if err != nil || only.Test != ev.Test || only.Val != (SplitResult{}) || only.Train != (SplitResult{}) {
		t.Errorf("EvaluateSplits(test): %+v (error %v), want test %+v alone", only, err, ev.Test)
	}
	if _, err := EvaluateSplits(context.Background(), filepath.Join(dir, BestCheckpointFile), ds, ModelOptions{}, "tests"); err == nil || !strings.Contains(err.Error(), `"tests"`) {
		t.Errorf("an unknown split: error %v", err)
	}
}

// TestBestCheckpointHoldsTheModelOnly checks that best.ckpt leaves the optimizer's
// state out (it is what a run's figures are re-derived from, and small enough to
// commit) and holds every other variable of last.ckpt, which keeps the state to resume.
func TestBestCheckpointHoldsTheModelOnly(t *testing.T) {
	dir := oneEpochRun(t)
	_, best, err := ReadCheckpointVariables(filepath.Join(dir, BestCheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	_, last, err := ReadCheckpointVariables(filepath.Join(dir, LastCheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	inBest := map[string]bool{}
	for _, v := range best {
		if strings.HasPrefix(v.Path, optimizerScope) {
			t.Errorf("best.ckpt holds the optimizer's %s", v.Path)
		}
		inBest[v.Path] = true
	}
	optimizerVars := 0
	for _, v := range last {
		switch {
		case strings.HasPrefix(v.Path, optimizerScope):
			optimizerVars++
		case !inBest[v.Path]:
			t.Errorf("best.ckpt lacks %s", v.Path)
		}
	}
	if optimizerVars == 0 {
		t.Errorf("last.ckpt holds no optimizer state under %s: nothing to resume from", optimizerScope)
	}
}

func TestCheckpointCorruption(t *testing.T) {
	dir := oneEpochRun(t)
	path := filepath.Join(dir, LastCheckpointFile)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCheckpointInfo(path); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.ckpt")
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"flipped byte", func() []byte { b := bytes.Clone(good); b[len(b)-3] ^= 0xff; return b }(), "CRC"},
		{"truncated", good[:len(good)-10], "bytes"},
		{"trailing", append(bytes.Clone(good), 0), "trailing"},
		{"magic", append([]byte("NOTACKPT"), good[8:]...), "magic"},
		{"empty", nil, "magic"},
	} {
		if err := os.WriteFile(bad, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadCheckpointInfo(bad); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	if _, err := ReadCheckpointInfo(filepath.Join(dir, "missing.ckpt")); err == nil {
		t.Error("missing checkpoint: no error")
	}
}

func TestTrainErrors(t *testing.T) {
	ds := tinyNodeDataset(6, 12)
	ctx := context.Background()
	cfg := tinyConfig()
	if _, err := Train(ctx, cfg, nil, TrainOptions{}); err == nil {
		t.Error("nil data set accepted")
	}
	bad := cfg
	bad.Heads = 3
	if _, err := Train(ctx, bad, ds, TrainOptions{}); err == nil {
		t.Error("invalid config accepted")
	}
	if _, err := Train(ctx, cfg, ds, TrainOptions{Resume: true}); err == nil {
		t.Error("Resume without OutDir accepted")
	}
	if _, err := Train(ctx, cfg, ds, TrainOptions{Backend: "tpu"}); err == nil || !strings.Contains(err.Error(), `"go"`) {
		t.Errorf("unknown backend: error %v", err)
	}
	if _, err := Train(ctx, cfg, ds, TrainOptions{Padding: "pow3"}); err == nil {
		t.Error("unknown padding accepted")
	}
	wrongMetric := cfg
	wrongMetric.Metric = MetricMAE
	if _, err := Train(ctx, wrongMetric, ds, TrainOptions{}); err == nil || !strings.Contains(err.Error(), "metric") {
		t.Errorf("MAE on classes: error %v", err)
	}
	wrongLoss := cfg
	wrongLoss.Loss = LossL1
	if _, err := Train(ctx, wrongLoss, ds, TrainOptions{}); err == nil || !strings.Contains(err.Error(), "loss") {
		t.Errorf("L1 on classes: error %v", err)
	}
	unknownTask := *ds
	unknownTask.Task = data.Task(99)
	if _, err := Train(ctx, cfg, &unknownTask, TrainOptions{}); err == nil {
		t.Error("an unknown task accepted")
	}
	noVal := *ds
	noVal.Split = data.Split{Train: ds.Split.Train}
	if _, err := Train(ctx, cfg, &noVal, TrainOptions{}); err == nil {
		t.Error("no validation split accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Train(cancelled, cfg, ds, TrainOptions{}); err == nil {
		t.Error("cancelled context: no error")
	}
	if _, err := Evaluate(ctx, filepath.Join(t.TempDir(), "none.ckpt"), ds, ModelOptions{}); err == nil {
		t.Error("Evaluate of a missing checkpoint: no error")
	}
}

// TestModelVariants builds and trains one epoch of every MPNN, attention and PE kind.
// TestModelVariantsLearn trains every attention, local model, interaction-graph part and
// positional encoding on the tiny node task (label 1 when the node's feature is 2, a
// rule any variant can learn) and checks that each one learns it: the training loss
// falls and the validation accuracy of the best epoch reaches 90 %.
func TestModelVariantsLearn(t *testing.T) {
	ds := tinyNodeDataset(24, 13)
	for _, edit := range []func(c *Config){
		func(c *Config) { c.Attention, c.MPNN = layers.GlobalFull, layers.LocalGCN },
		func(c *Config) { c.Attention, c.MPNN = layers.GlobalPerformer, layers.LocalGINE },
		func(c *Config) { c.Attention, c.MPNN = layers.GlobalBigBird, layers.LocalGatedGCN },
		func(c *Config) { c.Attention, c.MPNN = layers.GlobalNone, layers.LocalGatedGCN },
		func(c *Config) { c.MPNN = layers.LocalNone },
		func(c *Config) { c.LocalEdges, c.ExpanderAlgorithm = false, expander.Hamiltonian },
		func(c *Config) { c.ExpanderEdges, c.ExpanderAlgorithm = true, expander.Simple },
		func(c *Config) { c.PE, c.PESize, c.PEDim = PELap, 4, 4 },
		func(c *Config) { c.PE, c.PESize, c.PEDim = PERWSE, 3, 2 },
		func(c *Config) { c.PE, c.PESize, c.Norm = PEESLap, 12, layers.NormLayer },
	} {
		cfg := tinyConfig()
		cfg.Epochs = 12
		edit(&cfg)
		name := fmt.Sprintf("%s/%s/%s", cfg.MPNN, cfg.Attention, cfg.PE)
		res, err := Train(context.Background(), cfg, ds, TrainOptions{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		first, last := res.History[0].TrainLoss, res.History[len(res.History)-1].TrainLoss
		if res.Params <= 0 || !(last < 0.8*first) || res.ValMetric < 0.9 {
			t.Errorf("%s: %d params, training loss %.4f → %.4f, best val accuracy %.3f; want a falling loss and ≥ 0.9",
				name, res.Params, first, last, res.ValMetric)
		}
	}
}

func TestTrainFromSpecPattern(t *testing.T) {
	cfg := tinyConfig()
	cfg.Epochs, cfg.MaxTrain, cfg.MaxVal, cfg.MaxTest = 1, 4, 2, 2
	cfg.Metric, cfg.Loss = MetricWeightedAccuracy, LossWeightedCrossEntropy
	res, err := TrainFromSpec(context.Background(), "pattern", cfg, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Dataset != "pattern" || res.Epochs != 1 {
		t.Errorf("result %+v", res)
	}
	if _, err := TrainFromSpec(context.Background(), "no-such-data", cfg, TrainOptions{}); err == nil {
		t.Error("unknown data set accepted")
	}
}

// oneEpochRun trains the tiny config for one epoch on a tiny node data set into a
// fresh directory and returns it.
func oneEpochRun(t *testing.T) string {
	t.Helper()
	cfg := tinyConfig()
	cfg.Epochs = 1
	dir := t.TempDir()
	train(t, cfg, tinyNodeDataset(8, 11), TrainOptions{OutDir: dir})
	return dir
}
