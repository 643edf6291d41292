package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
)

// writeFullLog writes root/full/NAME/log.jsonl: a header and the given epochs.
func writeFullLog(t *testing.T, root, name string, hdr gexph.LogHeader, epochs []gexph.EpochStats) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if err := enc.Encode(hdr); err != nil {
		t.Fatal(err)
	}
	for _, st := range epochs {
		if err := enc.Encode(st); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, FullBudgetDir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFullBudgetSectionReportsTheBestEpochSoFar checks that a run still going is shown
// with the epochs it finished, the best validation epoch's figures (not the last
// epoch's), the paper's figure and a link to its checkpoint relative to the report.
func TestFullBudgetSectionReportsTheBestEpochSoFar(t *testing.T) {
	root := filepath.Join(t.TempDir(), "docs", "results")
	f := func(x float64) *float64 { return &x }
	hdr := gexph.LogHeader{Dataset: "pattern", Preset: "pattern-ref", Metric: gexph.MetricWeightedAccuracy, Seed: 1,
		Config: gexph.Config{Epochs: 120}}
	writeFullLog(t, root, "pattern", hdr, []gexph.EpochStats{
		{Epoch: 1, ValMetric: 0.70, TestMetric: f(0.69), Best: true, Seconds: 300},
		{Epoch: 2, ValMetric: 0.85, TestMetric: f(0.8512), Best: true, Seconds: 200},
		{Epoch: 3, ValMetric: 0.84, TestMetric: f(0.86), Seconds: 210},
	})
	best := tinyBestCheckpoint(t)
	if err := os.MkdirAll(filepath.Join(root, "checkpoints"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(best, filepath.Join(root, "checkpoints", "pattern-full.ckpt")); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeFullBudgetSection(&out, root, filepath.Dir(root)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"## Full training sets", "| pattern | pattern-ref | 1 | 3 of 120 (in progress) | 2 | 85.00 | 85.12 | 86.74 ± 0.015 | 205 |",
		"[pattern-full.ckpt](results/checkpoints/pattern-full.ckpt)"} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
}

// TestFullBudgetSectionNamesABadLine checks that a damaged log is an error naming the
// file and line, and that no records write no section.
func TestFullBudgetSectionNamesABadLine(t *testing.T) {
	root := t.TempDir()
	var out bytes.Buffer
	if err := writeFullBudgetSection(&out, root, root); err != nil || out.Len() != 0 {
		t.Fatalf("no records: %v, %q", err, out.String())
	}
	writeFullLog(t, root, "pattern", gexph.LogHeader{Dataset: "pattern"}, nil)
	p := filepath.Join(root, FullBudgetDir, "pattern", "log.jsonl")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(data, []byte("{\"epoch\": oops}\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeFullBudgetSection(&out, root, root)
	if err == nil || !strings.Contains(err.Error(), "log.jsonl: line 2") {
		t.Errorf("damaged log: %v", err)
	}
}

// tinyBestCheckpoint trains a tiny PATTERN model for one epoch and returns its best.ckpt.
func tinyBestCheckpoint(t *testing.T) string {
	t.Helper()
	cfg, err := gexph.Preset("pattern")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Layers, cfg.HiddenDim, cfg.Epochs, cfg.WarmupEpochs, cfg.BatchSize = 1, 16, 1, 0, 8
	cfg.MaxTrain, cfg.MaxVal, cfg.MaxTest = 16, 8, 8
	dir := t.TempDir()
	if _, err := gexph.TrainFromSpec(context.Background(), "pattern", cfg, gexph.TrainOptions{OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, gexph.BestCheckpointFile)
}

// TestFullBudgetSectionShowsAHalfCheckpointsOwnFigures checks that a checkpoint with
// float16 weights is marked as such beside its link, with the figures recorded in it
// (scaled as the row's), and that an unreadable checkpoint is an error naming it.
func TestFullBudgetSectionShowsAHalfCheckpointsOwnFigures(t *testing.T) {
	root := filepath.Join(t.TempDir(), "docs", "results")
	f := func(x float64) *float64 { return &x }
	hdr := gexph.LogHeader{Dataset: "pattern", Preset: "pattern-ref", Metric: gexph.MetricWeightedAccuracy, Seed: 1,
		Config: gexph.Config{Epochs: 120}}
	writeFullLog(t, root, "pattern", hdr, []gexph.EpochStats{{Epoch: 1, ValMetric: 0.85, TestMetric: f(0.8512), Best: true, Seconds: 200}})
	ckpt := filepath.Join(root, "checkpoints", "pattern-full.ckpt")
	if err := os.MkdirAll(filepath.Dir(ckpt), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := gexph.WriteHalfCheckpoint(tinyBestCheckpoint(t), ckpt); err != nil {
		t.Fatal(err)
	}
	section := func() (string, error) {
		var out bytes.Buffer
		err := writeFullBudgetSection(&out, root, filepath.Dir(root))
		return out.String(), err
	}
	got, err := section()
	if err != nil || !strings.Contains(got, "[pattern-full.ckpt](results/checkpoints/pattern-full.ckpt) (float16 weights, not evaluated") {
		t.Errorf("before its metrics are recorded (error %v):\n%s", err, got)
	}
	if err := gexph.SetHalfMetrics(ckpt, 0.8451, 0.8409); err != nil {
		t.Fatal(err)
	}
	got, err = section()
	if err != nil || !strings.Contains(got, "| 85.00 | 85.12 | 86.74 ± 0.015 | 200 | [pattern-full.ckpt](results/checkpoints/pattern-full.ckpt) (float16 weights: validation 84.51, test 84.09) |") {
		t.Errorf("with its metrics (error %v):\n%s", err, got)
	}
	if err := os.WriteFile(ckpt, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := section(); err == nil || !strings.Contains(err.Error(), "pattern-full.ckpt") {
		t.Errorf("a damaged checkpoint: error %v, want one naming it", err)
	}
}

// TestFullBudgetSecondsPerBackend checks the s/epoch cell of a run resumed on another
// backend: the median of each backend's epochs (the run's first, which compiles, left
// out) with the epochs that ran there, in the order the run reached each backend, and
// the epochs of older logs, which name none, as unrecorded; a run on one backend keeps
// the plain median.
func TestFullBudgetSecondsPerBackend(t *testing.T) {
	var epochs []gexph.EpochStats
	add := func(n int, backend string, secs float64) {
		for range n {
			epochs = append(epochs, gexph.EpochStats{Epoch: len(epochs) + 1, Backend: backend, Seconds: secs})
		}
	}
	add(1, "", 500) // compiles: no part of the median
	add(1, "", 100)
	add(1, "", 120)
	add(4, "xla:cuda,tf32=false", 5.4)
	add(2, "go", 90)
	add(1, "xla:cuda,tf32=false", 5.4)
	want := "110 (unrecorded, epochs 1–3); 5.4 (xla:cuda,tf32=false, epochs 4–7, 10); 90 (go, epochs 8–9)"
	if got := epochSecondsByBackend(epochs); got != want {
		t.Errorf("mixed backends: %q, want %q", got, want)
	}
	if got := epochSecondsByBackend(epochs[:4]); got != "110 (unrecorded, epochs 1–3); 5.4 (xla:cuda,tf32=false, epoch 4)" {
		t.Errorf("one epoch on a second backend: %q", got)
	}
	if got := epochSecondsByBackend(epochs[:3]); got != "110" {
		t.Errorf("one backend: %q, want 110", got)
	}
	if got := epochSecondsByBackend(epochs[3:7]); got != "5.4" {
		t.Errorf("one backend under 10 s: %q, want 5.4", got)
	}
}

// TestFullBudgetSecondsPerMachine checks the s/epoch cell of a run resumed on another
// CPU: the median of each CPU's epochs with the epochs that ran there, the CPU named
// without the OS and CPU count, older epochs as unrecorded; one machine throughout is
// named without epochs.
func TestFullBudgetSecondsPerMachine(t *testing.T) {
	const avx512, avx2 = "linux/amd64, 2 CPUs, AMD EPYC, AVX-512", "linux/amd64, 2 CPUs, AMD EPYC, AVX2"
	var epochs []gexph.EpochStats
	add := func(n int, machine string, secs float64) {
		for range n {
			epochs = append(epochs, gexph.EpochStats{Epoch: len(epochs) + 1, Backend: "go", Machine: machine, Seconds: secs})
		}
	}
	add(3, "", 655)
	add(1, avx512, 640)
	add(4, avx2, 1358)
	want := "655 (go; unrecorded; epochs 1–3); 640 (go; AMD EPYC, AVX-512; epoch 4); 1358 (go; AMD EPYC, AVX2; epochs 5–8)"
	if got := epochSecondsByBackend(epochs); got != want {
		t.Errorf("mixed machines: %q, want %q", got, want)
	}
	if got, want := epochSecondsByBackend(epochs[4:]), "1358 (go; AMD EPYC, AVX2)"; got != want {
		t.Errorf("one machine: %q, want %q", got, want)
	}
	if got := cpuOf("a machine of another form"); got != "a machine of another form" {
		t.Errorf("cpuOf of another form: %q, want it whole", got)
	}
}

// TestFullBudgetSecondsWithCPUSeconds checks that the s/epoch cell gives the median CPU
// seconds beside the median wall seconds where every epoch of a group recorded them (a
// run paused or sharing the machine has wall seconds well above its CPU seconds), and
// leaves them out for a group with an epoch that recorded none.
func TestFullBudgetSecondsWithCPUSeconds(t *testing.T) {
	const zen3 = "linux/amd64, 2 CPUs, AMD EPYC, AVX2"
	var epochs []gexph.EpochStats
	add := func(machine string, secs, cpu float64) {
		epochs = append(epochs, gexph.EpochStats{Epoch: len(epochs) + 1, Backend: "go", Machine: machine, Seconds: secs, CPUSeconds: cpu})
	}
	add(zen3, 900, 800) // the first epoch, which compiles: left out
	add(zen3, 1600, 1330)
	add(zen3, 2400, 1320)
	add(zen3, 1590, 1325)
	if got, want := epochSecondsByBackend(epochs), "1600 (CPU 1325; go; AMD EPYC, AVX2)"; got != want {
		t.Errorf("one machine: %q, want %q", got, want)
	}
	add("", 700, 0)
	add("", 690, 0)
	want := "1600 (CPU 1325; go; AMD EPYC, AVX2; epochs 1–4); 695 (go; unrecorded; epochs 5–6)"
	if got := epochSecondsByBackend(epochs); got != want {
		t.Errorf("mixed machines: %q, want %q", got, want)
	}
}

// TestFullBudgetMeanOfFinishedSeeds checks that other seeds of a run get rows of their
// own, named by their log's data set, and that a row of the mean ± (population)
// standard deviation at each run's best epoch follows once two have finished, leaving
// out a seed still in progress and a data set with one run.
func TestFullBudgetMeanOfFinishedSeeds(t *testing.T) {
	root := filepath.Join(t.TempDir(), "results")
	f := func(x float64) *float64 { return &x }
	run := func(folder, dataset string, seed uint64, epochs int, val, test float64) {
		hdr := gexph.LogHeader{Dataset: dataset, Preset: dataset + "-ref", Metric: gexph.MetricWeightedAccuracy, Seed: seed,
			Config: gexph.Config{Epochs: 2}}
		sts := []gexph.EpochStats{{Epoch: 1, ValMetric: val, TestMetric: f(test), Best: true, Seconds: 10}}
		if epochs == 2 {
			sts = append(sts, gexph.EpochStats{Epoch: 2, ValMetric: val - 0.1, TestMetric: f(0.5), Seconds: 10})
		}
		writeFullLog(t, root, folder, hdr, sts)
	}
	run("pattern", "pattern", 1, 2, 0.86, 0.8600)
	run("pattern-s2", "pattern", 2, 2, 0.88, 0.8650)
	run("pattern-s3", "pattern", 3, 1, 0.99, 0.9900)
	run("cluster", "cluster", 1, 2, 0.70, 0.7000)
	run("wiki", "wiki", 1, 2, 0.60, 0.6000)
	var out bytes.Buffer
	if err := writeFullBudgetSection(&out, root, root); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"| pattern | pattern-ref | 2 | 2 of 2 | 1 | 88.00 | 86.50 |",
		"| pattern | pattern-ref | 3 | 1 of 2 (in progress) | 1 | 99.00 | 99.00 | 86.74 ± 0.015 | 10 | — |\n" +
			"| pattern | pattern-ref | mean of 1, 2 | 2 each | — | 87.00 ± 1.00 | **86.25 ± 0.25** | 86.74 ± 0.015 | — | — |\n" +
			"| wiki |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "mean of") != 1 {
		t.Errorf("want one mean row (pattern's; cluster and wiki have one run each):\n%s", got)
	}
}

// TestFullBudgetSectionDrawsEachPresetsRunsByEpoch checks that the section links one
// figure per data set and preset, saved as a PNG under the results root's figures, named
// after its first run's folder, and none for a data set whose runs have no epoch yet.
func TestFullBudgetSectionDrawsEachPresetsRunsByEpoch(t *testing.T) {
	root := filepath.Join(t.TempDir(), "docs", "results")
	f := func(x float64) *float64 { return &x }
	epochs := []gexph.EpochStats{{Epoch: 1, ValMetric: 0.70, TestMetric: f(0.69), Best: true}, {Epoch: 2, ValMetric: 0.72}}
	for seed, name := range map[uint64]string{1: "pattern", 2: "pattern-s2"} {
		writeFullLog(t, root, name, gexph.LogHeader{Dataset: "pattern", Preset: "pattern-ref", Metric: gexph.MetricWeightedAccuracy,
			Seed: seed, Config: gexph.Config{Epochs: 120}}, epochs)
	}
	writeFullLog(t, root, "mnist", gexph.LogHeader{Dataset: "mnist", Preset: "mnist-ref", Metric: gexph.MetricAccuracy,
		Seed: 1, Config: gexph.Config{Epochs: 150}}, epochs)
	writeFullLog(t, root, "cluster", gexph.LogHeader{Dataset: "cluster", Preset: "cluster-ref", Metric: gexph.MetricWeightedAccuracy,
		Seed: 1, Config: gexph.Config{Epochs: 150}}, nil)
	var out bytes.Buffer
	if err := writeFullBudgetSection(&out, root, filepath.Dir(root)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, name := range []string{"pattern", "mnist"} {
		link := "](results/figures/full_" + name + ".png)"
		if strings.Count(got, link) != 1 {
			t.Errorf("section links %q %d times, want once:\n%s", link, strings.Count(got, link), got)
		}
		raw, err := os.ReadFile(filepath.Join(root, "figures", "full_"+name+".png"))
		if err != nil || !bytes.HasPrefix(raw, []byte("\x89PNG")) {
			t.Errorf("figure of %s: %v, want a PNG", name, err)
		}
	}
	if strings.Contains(got, "full_cluster") || strings.Contains(got, "full_pattern-s2") {
		t.Errorf("a figure for a run without epochs, or for a second seed alone:\n%s", got)
	}
}
