// Package gpu_test tests tools/gpu/check.sh, the device check of the XLA/CUDA path, on
// a machine without a GPU: it must stop at once, with a clear message and a non-zero
// status, when the device, the plugin or the bundle is missing, and its dry run (the
// steps on the go backend) must record every step.
package gpu_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gexph/gexph/internal/pyfind"
	"github.com/gexph/gexph/internal/shareddata"
)

// checkScript is the script under test, beside this file.
func checkScript(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "check.sh")
}

// fakeNvidiaSMI writes an nvidia-smi into a new folder that prints out and exits with
// code, and returns the folder.
func fakeNvidiaSMI(t *testing.T, out string, code int) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\necho '" + out + "'\nexit " + string(rune('0'+code)) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "nvidia-smi"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runCheck runs check.sh with env added to a clean environment and returns its exit
// code, stderr, the parsed check.json and the seconds it took. Its $OUT is a new folder
// unless env names one.
func runCheck(t *testing.T, env []string, args ...string) (int, string, map[string]any, float64) {
	t.Helper()
	out := t.TempDir()
	for _, kv := range env {
		if dir, ok := strings.CutPrefix(kv, "OUT="); ok {
			out = dir
		}
	}
	cmd := exec.Command("bash", append([]string{checkScript(t)}, args...)...)
	cmd.Env = append([]string{"HOME=" + os.Getenv("HOME"), "OUT=" + out, "TMPDIR=" + t.TempDir()}, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	secs := time.Since(start).Seconds()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var summary map[string]any
	raw, err := os.ReadFile(filepath.Join(out, "check.json"))
	if err != nil {
		t.Fatalf("no check.json: %v (stderr %s)", err, stderr.String())
	}
	if err := json.Unmarshal(raw, &summary); err != nil {
		t.Fatalf("check.json: %v\n%s", err, raw)
	}
	return code, stderr.String(), summary, secs
}

// TestCheckStopsAtOnceWithoutDevicePluginOrBundle runs the check where each of its
// prerequisites is missing in turn: it ends within seconds with status 2, a message
// that names what is missing, and a check.json that says so.
func TestCheckStopsAtOnceWithoutDevicePluginOrBundle(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	sysPath := os.Getenv("PATH")
	noGPU := fakeNvidiaSMI(t, "No devices were found", 6)
	gpu := fakeNvidiaSMI(t, "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)", 0)
	fakePlugin := filepath.Join(t.TempDir(), "xla_cuda_plugin.so")
	if err := os.WriteFile(fakePlugin, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, status, message string
		env                   []string
		args                  []string
	}{
		{"no nvidia-smi", "no-device", "nvidia-smi is not installed", []string{"PATH=" + t.TempDir() + ":/usr/bin:/bin"}, nil},
		{"no device", "no-device", "lists no device", []string{"PATH=" + noGPU + ":" + sysPath}, nil},
		{"no plugin", "no-plugin", "no CUDA PJRT plugin", []string{"PATH=" + gpu + ":" + sysPath, "PYTHONNOUSERSITE=1"}, nil},
		{"no bundle", "no-bundle", "make gpu-bundle", []string{"PATH=" + gpu + ":" + sysPath,
			"GEXPH_PJRT_PLUGIN=" + fakePlugin, "GEXPH_GPU_BUNDLE=" + t.TempDir()}, nil},
		{"unknown step", "bad-step", "unknown step", []string{"PATH=" + gpu + ":" + sysPath}, []string{"tests", "nosuch"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "no nvidia-smi" {
				if _, err := exec.LookPath("nvidia-smi"); err == nil {
					t.Skip("this machine has nvidia-smi")
				}
			}
			code, stderr, summary, secs := runCheck(t, tc.env, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.message) || summary["status"] != tc.status {
				t.Errorf("exit %d, status %v, stderr %q; want exit 2, status %s, a message with %q", code, summary["status"], stderr, tc.status, tc.message)
			}
			if secs > 20 {
				t.Errorf("took %.1f s to give up", secs)
			}
		})
	}
}

// refArchives are the files of the paper's code that `make gpu-bundle` carries in
// build/gpu/ref (the Makefile's GPU_REF_FILES), from the measuring kit's sources.
var refArchives = []string{"exphormer.tar.gz", "py-torch_geometric.tar.gz", "py-yacs.tar.gz", "py-ogb.tar.gz",
	"py-torchmetrics.tar.gz", "py-performer_pytorch.tar.gz", "py-local_attention.tar.gz",
	"py-axial_positional_embedding.tar.gz", "py-einops.tar.gz"}

// dryBundle builds the bundle of a dry run (the command and the gexph package's test
// binary without the xla tag, the shared data linked as its data, a BUILD file and,
// where peers is not empty, the paper's code linked as ref/) in a new folder.
func dryBundle(t *testing.T, shared, peers string) string {
	t.Helper()
	bundle := t.TempDir()
	for _, args := range [][]string{
		{"build", "-o", filepath.Join(bundle, "gexph"), "../gexph"},
		{"test", "-c", "-o", filepath.Join(bundle, "gexph.test"), "../../gexph"},
	} {
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if err := os.Symlink(shared, filepath.Join(bundle, "data")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bundle, "BUILD"), []byte("commit 0123abc\ngo version go1.27.0 linux/amd64\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if peers != "" {
		if err := os.Mkdir(filepath.Join(bundle, "ref"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range refArchives {
			if err := os.Symlink(filepath.Join(peers, f), filepath.Join(bundle, "ref", f)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return bundle
}

// torchPython is the python3 that check.sh's dry run gives the reference steps (the
// one on PATH, else Debian's), or "" when none imports torch.
func torchPython() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import torch").Run() == nil {
			return py
		}
	}
	return ""
}

// recordTypes are the record's keys (summary.py's RECORD_KEYS) and the JSON type of
// each: "number" and "string" keys may also be null where a step gave nothing.
var recordTypes = map[string]string{
	"commit": "string", "device": "string", "driver": "string", "plugin_version": "string", "date": "string",
	"dryrun": "bool", "pattern_step_ms": "number", "pattern_epoch_s": "number", "pattern_first_epoch_s": "number",
	"reference_pattern_step_ms": "number", "reference_pattern_epoch_s": "number",
	"reference_pattern_first_epoch_s": "number", "pattern_step_speedup": "number", "pattern_epoch_speedup": "number",
	"compile_s": "number", "compiled_shapes": "integer", "cluster_step_ms": "number",
	"reference_cluster_step_ms": "number", "mnist_step_ms": "number", "peptides_func_step_ms": "number",
	"reference_versions": "string", "steps": "object",
}

// checkRecord asserts that record.json has every key of recordTypes and no other, each
// of its type or null, and that want (keys that must not be null) are set.
func checkRecord(t *testing.T, path string, want []string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("record: %v", err)
	}
	var rec map[string]any
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatalf("record: %v\n%s", err, raw)
	}
	for key, typ := range recordTypes {
		v, ok := rec[key]
		if !ok {
			t.Errorf("record has no %q", key)
			continue
		}
		okType := v == nil && typ != "bool" && typ != "object"
		switch x := v.(type) {
		case float64:
			okType = typ == "number" || (typ == "integer" && x == float64(int64(x)))
		case string:
			okType = typ == "string"
		case bool:
			okType = typ == "bool"
		case map[string]any:
			okType = typ == "object"
		}
		if !okType {
			t.Errorf("record %q = %v (%T), want a %s", key, v, v, typ)
		}
	}
	for key := range rec {
		if _, ok := recordTypes[key]; !ok {
			t.Errorf("record has unexpected key %q", key)
		}
	}
	for _, key := range want {
		if rec[key] == nil {
			t.Errorf("record %q is null", key)
		}
	}
	return rec
}

// TestCheckDryRunRecordsEveryStep builds the command and the test binary without the
// xla tag and runs the check's steps on the go backend at small sizes, the record's
// steps among them ("record"): every step runs, passes and leaves its figures in
// check.json (equivalence verdicts, benchmark times, the training run's metric and
// seconds per epoch, gexph's full-size PATTERN epoch, the paper's code's step and epoch
// on the CPU where a python3 has torch, else those steps skipped with the reason), and
// record.json has every key of the record, each of its type.
func TestCheckDryRunRecordsEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command: skipped with -short")
	}
	shared := shareddata.Path(t, ".")
	shareddata.Path(t, "gnn-benchmark/amazon-computers.zip")
	peers := shareddata.Path(t, "../peers/src")
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the summary")
	}
	bundle := dryBundle(t, shared, peers)
	out := t.TempDir()
	steps := []string{"tests", "equivalence", "train", "attention", "record", "ref-cluster-step", "profile"}
	code, stderr, summary, _ := runCheck(t, []string{"PATH=" + os.Getenv("PATH"), "GEXPH_CHECK_DRYRUN=1",
		"GEXPH_GPU_BUNDLE=" + bundle, "GOMLX_BACKEND=go", "GEXPH_CHECK_SECONDS=1800", "OUT=" + out}, steps...)
	if code != 0 || summary["status"] != "ok" {
		t.Fatalf("dry run: exit %d, status %v\n%s", code, summary["status"], stderr)
	}
	recorded, _ := summary["steps"].(map[string]any)
	for _, name := range []string{"tests", "equivalence-pattern", "equivalence-computers", "equivalence-pattern-tf32",
		"equivalence-pattern-float64", "bench-pattern", "train", "attention-gexph", "attention-torch",
		"epoch-pattern", "bench-cluster", "bench-mnist", "bench-peptides",
		"profile-hlo", "profile-ablation-noattention", "profile-ablation-nompnn", "profile-ablation-onelayer"} {
		rec, _ := recorded[name].(map[string]any)
		if rec["status"] != "ok" {
			t.Errorf("step %s: %v", name, rec)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "profile", "hlo-census.json")); err != nil {
		t.Errorf("profile: no HLO census: %v", err)
	}
	refSteps := []string{"ref-pattern-step", "ref-pattern-epoch", "ref-cluster-step"}
	withTorch := torchPython() != ""
	for _, name := range refSteps {
		rec, _ := recorded[name].(map[string]any)
		if withTorch && rec["status"] != "ok" {
			t.Errorf("step %s: %v", name, rec)
		}
		if reason, _ := rec["reason"].(string); !withTorch && (rec["status"] != "skipped" || !strings.Contains(reason, "torch")) {
			t.Errorf("step %s without torch: %v, want skipped with the reason", name, rec)
		}
	}
	want := []string{"commit", "device", "date", "pattern_step_ms", "pattern_epoch_s", "cluster_step_ms", "mnist_step_ms",
		"peptides_func_step_ms"}
	if withTorch {
		want = append(want, "reference_pattern_step_ms", "reference_pattern_epoch_s", "reference_cluster_step_ms",
			"pattern_step_speedup", "pattern_epoch_speedup", "reference_versions")
	}
	rec := checkRecord(t, filepath.Join(out, "record.json"), want)
	if rec["commit"] != "0123abc" || rec["dryrun"] != true {
		t.Errorf("record: commit %v, dryrun %v; want the bundle's BUILD commit 0123abc and true", rec["commit"], rec["dryrun"])
	}
	if file, _ := summary["record_file"].(string); !strings.HasPrefix(file, "docs/results/gpu/"+rec["date"].(string)+"-") {
		t.Errorf("record_file %q, want docs/results/gpu/%v-DEVICE.json", file, rec["date"])
	}
	_, file, _, _ := runtime.Caller(0)
	if md, err := exec.Command("python3", filepath.Join(filepath.Dir(file), "record_md.py"), filepath.Join(out, "record.json")).CombinedOutput(); err != nil || !strings.Contains(string(md), "| PATTERN training step") {
		t.Errorf("record_md.py on the dry run's record: %v\n%s", err, md)
	}
	if ratio, ok := rec["pattern_step_speedup"].(float64); ok {
		if want := rec["reference_pattern_step_ms"].(float64) / rec["pattern_step_ms"].(float64); math.Abs(ratio-want) > 1e-9*want {
			t.Errorf("pattern_step_speedup %v, want reference/gexph = %v", ratio, want)
		}
	}
	derived, _ := summary["derived"].(map[string]any)
	eq, _ := derived["equivalence"].(map[string]any)
	for _, name := range []string{"pattern", "computers", "pattern-float64"} {
		if e, _ := eq[name].(map[string]any); e["ok"] != true || e["worst_gradient"] == nil {
			t.Errorf("equivalence %s: %v", name, e)
		}
	}
	bench, _ := derived["bench"].(map[string]any)
	if p, _ := bench["pattern"].(map[string]any); p["ms_per_step"] == nil {
		t.Errorf("bench pattern: %v", p)
	}
	train, _ := derived["train_pattern"].(map[string]any)
	if train["seconds_per_epoch"] == nil || train["epochs"] != float64(1) {
		t.Errorf("train: %v", train)
	}
	epoch, _ := derived["epoch_pattern"].(map[string]any)
	secs, _ := epoch["epoch_seconds"].([]any)
	if epoch["epochs"] != float64(2) || len(secs) != 2 || epoch["seconds_per_epoch"] != secs[1] {
		t.Errorf("epoch_pattern: %v, want 2 epochs and the second's seconds as the median after the first", epoch)
	}
	if withTorch {
		ref, _ := derived["reference"].(map[string]any)
		ep, _ := ref["pattern-epoch"].(map[string]any)
		secs, _ := ep["epoch_seconds"].([]any)
		if ep["partial"] != false || len(secs) != 2 || ep["seconds_per_epoch"] == nil || ep["val_metric"] == nil {
			t.Errorf("reference pattern epoch: %v, want 2 complete epochs, their median and the metrics", ep)
		}
		st, _ := ref["pattern-step"].(map[string]any)
		if st["ms_per_step"] == nil || st["torch_geometric"] != "2.0.4" || !strings.Contains(fmt.Sprint(st["torch_scatter"]), "shim") {
			t.Errorf("reference pattern step: %v, want a time, PyG 2.0.4 and the torch_scatter shim", st)
		}
	}
}

// TestRefShimsMatchDirectComputation runs tools/gpu/ref/shims_test.py: the shims of
// torch_scatter and torch_sparse, the fallbacks and the harness's adaptations against
// direct computations, PyG 2.0.4 (extracted from the measuring kit's sources) among
// them.
func TestRefShimsMatchDirectComputation(t *testing.T) {
	py := pyfind.Python(t, "Debian: apt-get install python3-torch python3-numpy python3-scipy", "torch", "numpy", "scipy")
	peers := shareddata.Path(t, "../peers/src")
	site := t.TempDir()
	for _, f := range refArchives[1:] {
		if out, err := exec.Command("tar", "-xzf", filepath.Join(peers, f), "-C", site).CombinedOutput(); err != nil {
			t.Fatalf("tar %s: %v\n%s", f, err, out)
		}
	}
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command(py, filepath.Join(filepath.Dir(file), "ref", "shims_test.py"), "--site", site)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nOK") {
		t.Fatalf("shims_test.py: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "skipped") {
		t.Errorf("shims_test.py skipped tests with --site given:\n%s", out)
	}
}

// TestCheckResumeContinuesCarriedRun packs a one-epoch training run into the bundle as
// `make gpu-bundle GPU_RUN=…` does, runs the resume step in a dry run, and asserts that
// the run came back in $OUT/run with its second epoch added to the first (the first
// epoch's record unchanged) and a checkpoint that gexph can resume again.
func TestCheckResumeContinuesCarriedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command: skipped with -short")
	}
	shared := shareddata.Path(t, ".")
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the summary")
	}
	bundle := dryBundle(t, shared, "")
	run := filepath.Join(bundle, "run")
	args := "-dataset pattern -preset demo -train-graphs 16 -val-graphs 4 -test-graphs 4"
	cmd := exec.Command(filepath.Join(bundle, "gexph"), append(append([]string{"train"}, strings.Fields(args)...), "-epochs", "1", "-out", run, "-quiet")...)
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("first epoch: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(run, "args"), []byte(args+" -epochs 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(filepath.Join(run, "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stderr, summary, _ := runCheck(t, []string{"PATH=" + os.Getenv("PATH"), "GEXPH_CHECK_DRYRUN=1",
		"GEXPH_GPU_BUNDLE=" + bundle, "GOMLX_BACKEND=go", "OUT=" + out}, "resume")
	recorded, _ := summary["steps"].(map[string]any)
	if rec, _ := recorded["resume"].(map[string]any); code != 0 || rec["status"] != "ok" {
		t.Fatalf("resume: exit %d, step %v\n%s", code, rec, stderr)
	}
	back, err := os.ReadFile(filepath.Join(out, "run", "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	epochs := strings.Count(string(back), "\n{\"epoch\":")
	firstEpoch := string(first[strings.Index(string(first), "\n{\"epoch\":1,"):])
	if epochs != 2 || !strings.Contains(string(back), firstEpoch) {
		t.Fatalf("log after resume: %d epochs, epoch 1 kept %v:\n%s", epochs, strings.Contains(string(back), firstEpoch), back)
	}
	for _, f := range []string{"last.ckpt", "best.ckpt"} {
		if _, err := os.Stat(filepath.Join(out, "run", f)); err != nil {
			t.Errorf("%s did not come back: %v", f, err)
		}
	}
}

// TestRecordMarkdownShowsEachFigureOrNotMeasured renders a record with record_md.py:
// each figure appears with its unit beside the paper's code's and the speed-up, a null
// figure reads "not measured", and the steps that did not pass are named.
func TestRecordMarkdownShowsEachFigureOrNotMeasured(t *testing.T) {
	py := pyfind.Python(t, "Debian: apt-get install python3", "json")
	rec := map[string]any{
		"commit": "0123abc", "device": "NVIDIA H200", "driver": "580.159.04", "plugin_version": "jax-cuda13-pjrt 0.11.2",
		"date": "2026-12-01", "dryrun": false, "pattern_step_ms": 9.5, "pattern_epoch_s": 5.25, "pattern_first_epoch_s": 40.0,
		"reference_pattern_step_ms": 47.5, "reference_pattern_epoch_s": 21.0, "reference_pattern_first_epoch_s": 25.0,
		"pattern_step_speedup": 5.0, "pattern_epoch_speedup": 4.0, "compile_s": 28.0, "compiled_shapes": 5,
		"cluster_step_ms": 20.0, "reference_cluster_step_ms": nil, "mnist_step_ms": nil, "peptides_func_step_ms": 10.0,
		"reference_versions": "torch 2.11.0, torch_geometric 2.0.4", "steps": map[string]any{"bench-pattern": "ok", "bench-mnist": "timeout"},
	}
	path := filepath.Join(t.TempDir(), "record.json")
	raw, _ := json.Marshal(rec)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	out, err := exec.Command(py, filepath.Join(filepath.Dir(file), "record_md.py"), path).CombinedOutput()
	if err != nil {
		t.Fatalf("record_md.py: %v\n%s", err, out)
	}
	for _, want := range []string{
		"### 2026-12-01, NVIDIA H200 (bundle 0123abc)",
		"| PATTERN training step (32 graphs) | 9.5 ms | 47.5 ms | 5.0× |",
		"| 5.25 s | 21.00 s | 4.0× |",
		"| compiling, the whole PATTERN run | 5 shapes in 28.0 s | none (eager) |",
		"| CLUSTER training step | 20.0 ms | not measured |",
		"| MNIST training step | not measured |",
		"Steps: 2 ran, not passed: bench-mnist (timeout).",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("record_md.py output lacks %q:\n%s", want, out)
		}
	}
	if err := os.WriteFile(path, []byte("[1, 2]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, filepath.Join(filepath.Dir(file), "record_md.py"), path).CombinedOutput(); err == nil || !strings.Contains(string(out), "not a JSON object") {
		t.Errorf("a record that is not an object: %v, %s; want an error naming it", err, out)
	}
}
