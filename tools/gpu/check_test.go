// Package gpu_test tests tools/gpu/check.sh, the device check of the XLA/CUDA path, on
// a machine without a GPU: it must stop at once, with a clear message and a non-zero
// status, when the device, the plugin or the bundle is missing, and its dry run (the
// steps on the go backend) must record every step.
package gpu_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

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

// dryBundle builds the bundle of a dry run (the command and the gexph package's test
// binary without the xla tag, the shared data linked as its data) in a new folder.
func dryBundle(t *testing.T, shared string) string {
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
	return bundle
}

// TestCheckDryRunRecordsEveryStep builds the command and the test binary without the
// xla tag and runs the check's steps on the go backend at small sizes: every step runs,
// passes and leaves its figures in check.json (equivalence verdicts, benchmark times,
// the training run's metric and seconds per epoch).
func TestCheckDryRunRecordsEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command: skipped with -short")
	}
	shared := shareddata.Path(t, ".")
	shareddata.Path(t, "gnn-benchmark/amazon-computers.zip")
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for the summary")
	}
	bundle := dryBundle(t, shared)
	steps := []string{"tests", "equivalence", "bench-pattern", "train", "attention"}
	code, stderr, summary, _ := runCheck(t, []string{"PATH=" + os.Getenv("PATH"), "GEXPH_CHECK_DRYRUN=1",
		"GEXPH_GPU_BUNDLE=" + bundle, "GOMLX_BACKEND=go"}, steps...)
	if code != 0 || summary["status"] != "ok" {
		t.Fatalf("dry run: exit %d, status %v\n%s", code, summary["status"], stderr)
	}
	recorded, _ := summary["steps"].(map[string]any)
	for _, name := range []string{"tests", "equivalence-pattern", "equivalence-computers", "equivalence-pattern-tf32",
		"equivalence-pattern-float64", "bench-pattern", "train", "attention-gexph", "attention-torch"} {
		rec, _ := recorded[name].(map[string]any)
		if rec["status"] != "ok" {
			t.Errorf("step %s: %v", name, rec)
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
	bundle := dryBundle(t, shared)
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
