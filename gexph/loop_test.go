package gexph

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/internal/tfevents"
	"google.golang.org/protobuf/encoding/protowire"
)

// Every preset printed as YAML and read back is the same config; so is the config read
// back from a run's result.json and from its checkpoint.
func TestConfigRoundTripsThroughYAMLResultAndCheckpoint(t *testing.T) {
	dir := t.TempDir()
	for _, name := range PresetNames() {
		cfg, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		y, err := cfg.ToYAML()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		base, _ := Preset("demo")
		got, err := LoadConfig(base, path)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, y)
		}
		if !reflect.DeepEqual(got, cfg) {
			t.Errorf("%s: YAML round trip changed the config:\n%+v\n%+v", name, got, cfg)
		}
	}
	ds := tinyNodeDataset(6, 2)
	cfg := tinyConfig()
	cfg.Epochs, cfg.HiddenDim = 1, 12
	run := filepath.Join(dir, "run")
	train(t, cfg, ds, TrainOptions{OutDir: run})
	base, _ := Preset("demo")
	for _, file := range []string{ResultFile, BestCheckpointFile} {
		got, err := LoadConfig(base, filepath.Join(run, file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !reflect.DeepEqual(got, cfg) {
			t.Errorf("config from %s:\n%+v\nwant\n%+v", file, got, cfg)
		}
	}
}

// key=value settings read numbers (1e-3 included), names and booleans, and name the
// field a typo meant.
func TestParseSettingReadsKeyValuePairs(t *testing.T) {
	cfg, _ := Preset("demo")
	for _, set := range []string{"layers=2", "lr=1e-3", "mpnn=gcn", "head_norm=false", "dropout=0.25", `{"heads":2}`} {
		var err error
		if cfg, err = ParseSetting(cfg, set); err != nil {
			t.Fatalf("%s: %v", set, err)
		}
	}
	if cfg.Layers != 2 || cfg.LearningRate != 1e-3 || cfg.MPNN != "gcn" || cfg.HeadNorm || cfg.Dropout != 0.25 || cfg.Heads != 2 {
		t.Errorf("settings not applied: %+v", cfg)
	}
	for set, want := range map[string]string{
		"layer=3":     `did you mean "layers"`,
		"layers=many": "layers",
		"noequals":    "key=value",
		"layers=-1":   "layers",
	} {
		if _, err := ParseSetting(cfg, set); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", set, err, want)
		}
	}
}

// A run shorter than twice its warm-up has none, so that its first epoch trains at the
// full learning rate rather than lr·10⁻⁶; from twice the warm-up on, the schedule is
// the paper's, first epoch at lr·10⁻⁶ included; presets keep their warm-up.
func TestWarmupDroppedForRunsShorterThanTwiceIt(t *testing.T) {
	cfg, _ := Preset("computers")
	if WarmupEpochs(cfg) != cfg.WarmupEpochs {
		t.Errorf("preset computers: warm-up %d, want its %d", WarmupEpochs(cfg), cfg.WarmupEpochs)
	}
	cfg.Epochs, cfg.WarmupEpochs = 2, 5
	if w := WarmupEpochs(cfg); w != 0 {
		t.Errorf("2 epochs with a 5-epoch warm-up: warm-up %d, want none", w)
	}
	for epoch, want := range []float64{cfg.LearningRate, cfg.LearningRate / 2} {
		if lr := LearningRate(cfg, epoch); math.Abs(lr-want) > 1e-15 {
			t.Errorf("epoch %d of 2: learning rate %g, want %g", epoch+1, lr, want)
		}
	}
	cfg.Epochs = 9
	if w, lr := WarmupEpochs(cfg), LearningRate(cfg, 0); w != 0 || lr != cfg.LearningRate {
		t.Errorf("9 epochs with a 5-epoch warm-up: warm-up %d, first rate %g; want none and %g", w, lr, cfg.LearningRate)
	}
	cfg.Epochs = 10
	if w, lr := WarmupEpochs(cfg), LearningRate(cfg, 0); w != 5 || lr != cfg.LearningRate*1e-6 {
		t.Errorf("10 epochs with a 5-epoch warm-up: warm-up %d, first rate %g; want 5 and the paper's lr·10⁻⁶", w, lr)
	}
}

// The warm-up a run started with is read back from the learning rates of its epochs:
// the epoch that reaches the full rate, else the second epoch's rate lr/W, else (one
// epoch of warm-up) the config's.
func TestRunWarmupReadsTheScheduleFromTheHistory(t *testing.T) {
	history := func(cfg Config, w, n int) []EpochStats {
		h := make([]EpochStats, n)
		for e := range h {
			h[e] = EpochStats{Epoch: e + 1, LR: scheduledRate(cfg, w, e)}
		}
		return h
	}
	cfg := baseConfig()
	cfg.LearningRate, cfg.Epochs, cfg.WarmupEpochs = 3e-4, 20, 5
	for _, tc := range []struct {
		name     string
		epochs   int // of the run that wrote the history
		w, ran   int
		resumeTo int
	}{
		{"paper's warm-up, in its first epoch", 20, 5, 1, 20},
		{"paper's warm-up, half way", 20, 5, 3, 40},
		{"paper's warm-up, done", 20, 5, 8, 9},
		{"none (a short run)", 2, 0, 2, 6},
		{"none (a short run), one epoch run", 4, 0, 1, 40},
		{"an older version's halved warm-up, done", 2, 1, 2, 20},
		{"an older version's halved warm-up, half way", 6, 3, 2, 20},
	} {
		run := cfg
		run.Epochs = tc.epochs
		h := history(run, tc.w, tc.ran)
		resumed := cfg
		resumed.Epochs = tc.resumeTo
		if got := runWarmup(resumed, h); got != tc.w {
			t.Errorf("%s: warm-up %d read from %v, want %d", tc.name, got, h, tc.w)
		}
	}
	if got := runWarmup(cfg, nil); got != WarmupEpochs(cfg) {
		t.Errorf("no epochs run: warm-up %d, want WarmupEpochs' %d", got, WarmupEpochs(cfg))
	}
}

// A run resumed with more epochs keeps the warm-up it started with: a 2-epoch run of a
// 5-epoch warm-up (none: too short) resumed to 6 epochs has its first two epochs' rates
// and then a 6-epoch run's, never warming up again; a 4-epoch run of a 2-epoch warm-up stopped after its first
// epoch and resumed with 3 epochs (too short for that warm-up, were it to start afresh)
// finishes the warm-up it began.
func TestResumedRunKeepsTheWarmupItStartedWith(t *testing.T) {
	ds := tinyNodeDataset(8, 5)
	cfg := tinyConfig()
	cfg.Epochs, cfg.WarmupEpochs = 2, 5
	dir := t.TempDir()
	short := train(t, cfg, ds, TrainOptions{OutDir: dir})
	cfg.Epochs = 6
	resumed := train(t, cfg, ds, TrainOptions{OutDir: dir, Resume: true})
	fresh := train(t, cfg, ds, TrainOptions{})
	if len(resumed.History) != 6 || len(fresh.History) != 6 {
		t.Fatalf("%d and %d epochs, want 6 each", len(resumed.History), len(fresh.History))
	}
	starts := 0 // epochs at the full rate: the cosine's start, once
	for e, st := range resumed.History {
		want := fresh.History[e].LR
		if e < len(short.History) {
			want = short.History[e].LR
		}
		if st.LR != want {
			t.Errorf("resumed to 6 epochs, epoch %d: lr %g, want %g", e+1, st.LR, want)
		}
		if st.LR == cfg.LearningRate {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("resumed to 6 epochs: %d epochs at the full rate, want 1 (a second warm-up ran)", starts)
	}

	cfg.Epochs, cfg.WarmupEpochs = 4, 2
	dir = t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir, StopAfter: 1})
	cfg.Epochs = 3
	res := train(t, cfg, ds, TrainOptions{OutDir: dir, Resume: true})
	for e, want := range []float64{cfg.LearningRate * 1e-6, cfg.LearningRate / 2, cfg.LearningRate} {
		if got := res.History[e].LR; math.Abs(got-want) > 1e-15 {
			t.Errorf("a 2-epoch warm-up resumed to 3 epochs, epoch %d: lr %g, want %g", e+1, got, want)
		}
	}
}

// The logs are appended epoch by epoch: a run stopped after one epoch (as a kill would
// stop it) leaves a header and one complete line, and its resumption continues the
// same files to the end, equal to an uninterrupted run's apart from the timings and the
// compile counts (which count from the start of each call).
func TestLogsAppendPerEpochAndContinueOnResume(t *testing.T) {
	ds := tinyNodeDataset(6, 4)
	cfg := tinyConfig()
	cfg.Epochs = 3
	a, b := t.TempDir(), t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: a})
	train(t, cfg, ds, TrainOptions{OutDir: b, StopAfter: 1})
	lines := func(dir string) []string {
		raw, err := os.ReadFile(filepath.Join(dir, LogFile))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	}
	if got := lines(b); len(got) != 2 {
		t.Fatalf("after one epoch: %d lines, want the header and one epoch", len(got))
	}
	// A kill in the middle of a write leaves a partial line; the resumed run rewrites
	// the log from its checkpoint.
	f, err := os.OpenFile(filepath.Join(b, LogFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"epoch":2,"train_lo`)
	f.Close()
	train(t, cfg, ds, TrainOptions{OutDir: b, Resume: true})
	la, lb := lines(a), lines(b)
	if len(la) != 4 || len(lb) != 4 {
		t.Fatalf("%d and %d lines, want a header and 3 epochs each", len(la), len(lb))
	}
	strip := func(s string) string { // timings and compile counts differ between runs
		for _, k := range []string{`"seconds"`, `"cpu_seconds"`, `"examples_per_sec"`,
			`"compiled_shapes"`, `"compiled_train_shapes"`, `"compiled_eval_shapes"`, `"compile_s"`} {
			if i := strings.Index(s, k); i >= 0 {
				j := i + strings.IndexAny(s[i:], ",}")
				s = s[:i] + s[j:]
			}
		}
		return s
	}
	for i := 1; i < 4; i++ {
		if strip(la[i]) != strip(lb[i]) {
			t.Errorf("epoch %d:\n%s\n%s", i, la[i], lb[i])
		}
	}
}

// A resumed run whose log matches its checkpoint keeps writing to the same files (the
// same inode), so that a `tail -f` started on the interrupted run sees the resumed
// epochs; a partial line a kill left is cut off first.
func TestResumedRunAppendsToTheSameLogFiles(t *testing.T) {
	ds := tinyNodeDataset(6, 4)
	cfg := tinyConfig()
	cfg.Epochs = 3
	dir := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir, StopAfter: 1})
	before := map[string]os.FileInfo{}
	for _, name := range []string{LogFile, CSVLogFile} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		before[name] = st
	}
	f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"epoch":2,"train_lo`)
	f.Close()
	train(t, cfg, ds, TrainOptions{OutDir: dir, Resume: true})
	for name, st := range before {
		after, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !os.SameFile(st, after) {
			t.Errorf("%s was replaced on resume: a tail -f of it stops there", name)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, LogFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 4 || strings.Contains(string(raw), `"train_lo`+"{") {
		t.Errorf("resumed log.jsonl:\n%s\nwant a header and 3 whole epochs", raw)
	}
	for i, l := range lines[1:] {
		var st EpochStats
		if err := json.Unmarshal([]byte(l), &st); err != nil || st.Epoch != i+1 {
			t.Errorf("line %d %q: epoch %d (%v), want epoch %d", i+2, l, st.Epoch, err, i+1)
		}
	}
}

// The TensorBoard event file holds, in valid TFRecord frames, a version event and one
// event per epoch with the epoch's scalars, read back by a small decoder.
func TestTensorBoardEventsReadBack(t *testing.T) {
	ds := tinyNodeDataset(6, 5)
	cfg := tinyConfig()
	cfg.Epochs = 2
	tb := t.TempDir()
	res := train(t, cfg, ds, TrainOptions{TensorBoardDir: tb})
	files, _ := filepath.Glob(filepath.Join(tb, "events.out.tfevents.*"))
	if len(files) != 1 {
		t.Fatalf("%d event files, want 1", len(files))
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	table := crc32.MakeTable(crc32.Castagnoli)
	mask := func(c uint32) uint32 { return (c>>15 | c<<17) + 0xa282ead8 }
	type event struct {
		step    int64
		version string
		values  map[string]float32
	}
	var events []event
	for len(raw) > 0 {
		if len(raw) < 12 {
			t.Fatalf("%d trailing bytes", len(raw))
		}
		n := binary.LittleEndian.Uint64(raw)
		if mask(crc32.Checksum(raw[:8], table)) != binary.LittleEndian.Uint32(raw[8:]) {
			t.Fatal("length CRC mismatch")
		}
		rec := raw[12 : 12+n]
		if mask(crc32.Checksum(rec, table)) != binary.LittleEndian.Uint32(raw[12+n:]) {
			t.Fatal("record CRC mismatch")
		}
		raw = raw[16+n:]
		ev := event{values: map[string]float32{}}
		for len(rec) > 0 {
			num, typ, k := protowire.ConsumeTag(rec)
			rec = rec[k:]
			switch {
			case num == tfevents.EventStep && typ == protowire.VarintType:
				v, k := protowire.ConsumeVarint(rec)
				ev.step, rec = int64(v), rec[k:]
			case num == tfevents.EventFileVersion:
				v, k := protowire.ConsumeString(rec)
				ev.version, rec = v, rec[k:]
			case num == tfevents.EventSummary:
				summary, k := protowire.ConsumeBytes(rec)
				rec = rec[k:]
				for len(summary) > 0 {
					_, _, k := protowire.ConsumeTag(summary)
					val, k2 := protowire.ConsumeBytes(summary[k:])
					summary = summary[k+k2:]
					var tag string
					var x float32
					for len(val) > 0 {
						num, _, k := protowire.ConsumeTag(val)
						val = val[k:]
						if num == tfevents.ValueTag {
							s, k := protowire.ConsumeString(val)
							tag, val = s, val[k:]
						} else {
							u, k := protowire.ConsumeFixed32(val)
							x, val = math.Float32frombits(u), val[k:]
						}
					}
					ev.values[tag] = x
				}
			default:
				k := protowire.ConsumeFieldValue(num, typ, rec)
				if k < 0 {
					t.Fatalf("bad field %d", num)
				}
				rec = rec[k:]
			}
		}
		events = append(events, ev)
	}
	if len(events) != 3 || events[0].version != "brain.Event:2" {
		t.Fatalf("%d events (first %+v), want the version and 2 epochs", len(events), events[0])
	}
	for i, h := range res.History {
		ev := events[i+1]
		if ev.step != int64(h.Epoch) || ev.values["loss/train"] != float32(h.TrainLoss) || ev.values["metric/val"] != float32(h.ValMetric) {
			t.Errorf("event %d: step %d values %v, want epoch %d with train loss %v and val metric %v", i+1, ev.step, ev.values, h.Epoch, h.TrainLoss, h.ValMetric)
		}
	}
}

// Predictions agree with the evaluation of the same checkpoint: their accuracy on the
// test split is the test metric, and each row's probabilities sum to 1.
func TestPredictAgreesWithEvaluate(t *testing.T) {
	ds := tinyNodeDataset(10, 10)
	cfg := tinyConfig()
	dir := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir})
	ev, preds := evaluateAndPredictTest(t, filepath.Join(dir, BestCheckpointFile), ds)
	right := 0
	for _, p := range preds {
		if p.Class == p.Label {
			right++
		}
		sum := 0.0
		for _, s := range p.Scores {
			sum += s
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Fatalf("prediction %+v: probabilities sum to %v", p, sum)
		}
	}
	if got := float64(right) / float64(len(preds)); math.Abs(got-ev.Test.Metric) > 1e-9 {
		t.Errorf("accuracy of the predictions %v, Evaluate's test metric %v", got, ev.Test.Metric)
	}
}

// Unlabelled nodes (label -1) train and evaluate without weight: the metric of a split
// is the accuracy over its labelled nodes, and their predictions carry label -1.
func TestUnlabelledNodesWeighNothing(t *testing.T) {
	ds := tinyNodeDataset(10, 10)
	hidden := 0
	for gi := range ds.Graphs {
		for v := range ds.Graphs[gi].NodeLabels {
			if (gi+v)%3 == 0 {
				ds.Graphs[gi].NodeLabels[v] = data.Unlabelled
				hidden++
			}
		}
	}
	cfg := tinyConfig()
	dir := t.TempDir()
	res := train(t, cfg, ds, TrainOptions{OutDir: dir})
	if math.IsNaN(res.History[0].TrainLoss) {
		t.Fatal("NaN loss")
	}
	ev, preds := evaluateAndPredictTest(t, filepath.Join(dir, BestCheckpointFile), ds)
	right, labelled, unlabelled := 0, 0, 0
	for _, p := range preds {
		if p.Label == int(data.Unlabelled) {
			unlabelled++
			continue
		}
		labelled++
		if p.Class == p.Label {
			right++
		}
	}
	if unlabelled == 0 || hidden == 0 {
		t.Fatalf("no unlabelled node among the test predictions (%d hidden)", hidden)
	}
	if got := float64(right) / float64(labelled); math.Abs(got-ev.Test.Metric) > 1e-9 {
		t.Errorf("accuracy over the labelled test nodes %v, Evaluate's test metric %v", got, ev.Test.Metric)
	}
}

// evaluateAndPredictTest evaluates the checkpoint on ds and predicts its test split.
func evaluateAndPredictTest(t *testing.T, ckpt string, ds *data.Dataset) (*EvalResult, []Prediction) {
	t.Helper()
	ev, err := Evaluate(context.Background(), ckpt, ds, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	preds, err := Predict(context.Background(), ckpt, ds, "test", ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ev, preds
}

// TestEpochLogNamesItsBackendAndMachine trains two epochs and reads log.jsonl back:
// every epoch says where it ran (BackendLabel of the model's backend, and
// sysinfo.Machine), so that a run resumed on another backend or CPU tells its epochs
// apart.
func TestEpochLogNamesItsBackendAndMachine(t *testing.T) {
	ds := tinyNodeDataset(6, 4)
	cfg := tinyConfig()
	cfg.Epochs = 2
	dir := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir})
	raw, err := os.ReadFile(filepath.Join(dir, LogFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")[1:]
	if len(lines) != 2 {
		t.Fatalf("%d epoch lines, want 2", len(lines))
	}
	for _, line := range lines {
		var st EpochStats
		if err := json.Unmarshal([]byte(line), &st); err != nil {
			t.Fatal(err)
		}
		if st.Backend != DefaultBackend {
			t.Errorf("epoch %d: backend %q, want %q", st.Epoch, st.Backend, DefaultBackend)
		}
		if st.Machine != sysinfo.Machine() {
			t.Errorf("epoch %d: machine %q, want %q", st.Epoch, st.Machine, sysinfo.Machine())
		}
	}
}

// A resumed run keeps the padding it trained with: a run of batches of graphs stopped
// after its first epoch with exact shapes ("none", which the checkpoint records) and
// resumed without a padding continues with exact shapes, to the uninterrupted run's
// losses (dropout's masks, drawn over the padded shapes, tell the paddings apart); one
// that started with the default records the plan.
func TestResumedRunKeepsItsPadding(t *testing.T) {
	ds := tinyGraphDataset(data.GraphClassification, 8, 5)
	cfg := tinyConfig()
	cfg.Epochs, cfg.Dropout = 2, 0.3
	dir := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir, StopAfter: 1, Padding: "none"})
	resumed := train(t, cfg, ds, TrainOptions{OutDir: dir, Resume: true})
	whole := train(t, cfg, ds, TrainOptions{Padding: "none"})
	planned := train(t, cfg, ds, TrainOptions{})
	if planned.History[1].TrainLoss == whole.History[1].TrainLoss {
		t.Fatal("the plan's dropout masks gave the exact shapes' loss: the test cannot tell the paddings apart")
	}
	for e, st := range resumed.History {
		if st.TrainLoss != whole.History[e].TrainLoss {
			t.Errorf("epoch %d: resumed loss %v, uninterrupted with exact shapes %v (planned %v)", e+1, st.TrainLoss, whole.History[e].TrainLoss, planned.History[e].TrainLoss)
		}
	}
	info, err := ReadCheckpointInfo(filepath.Join(dir, LastCheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Padding != "none" {
		t.Errorf("the resumed run's checkpoint records padding %q, want none", info.Padding)
	}
	fresh := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: fresh})
	if info, err := ReadCheckpointInfo(filepath.Join(fresh, LastCheckpointFile)); err != nil || info.Padding != "plan" {
		t.Errorf("a run with the default padding records %q (%v), want plan", info.Padding, err)
	}
}
