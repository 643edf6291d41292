package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
)

// tinyTrainArgs train a small PATTERN model in a second or two.
var tinyTrainArgs = []string{"-dataset", "pattern", "-preset", "demo", "-set", "layers=1", "-set", "hidden_dim=16", "-set", "heads=2",
	"-set", "epochs=2", "-set", "batch_size=8", "-set", "max_train=16", "-set", "max_val=8", "-set", "max_test=8", "-set", "pe=none", "-quiet"}

// The everyday loop through the command: train into a directory (refused a second time
// without -resume or -force), evaluate its checkpoint (the training run's metrics),
// predict, export (to safetensors, and as float16 weights whose recorded test metric is
// the one eval gives), plot, rerun from its result.json, and several seeds with an
// aggregate.
func TestEverydayLoopThroughTheCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := runCLI(t, append([]string{"train", "-json", "-out", dir}, tinyTrainArgs...)...)
	if code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	trained := decodeJSON(t, out)
	requireKeys(t, trained, "seed", "version")
	if code, _, errOut = runCLI(t, append([]string{"train", "-out", dir}, tinyTrainArgs...)...); code == 0 || !strings.Contains(errOut, "-force") {
		t.Errorf("a second run on the same -out: exit %d, stderr %q; want a refusal naming -resume and -force", code, errOut)
	}
	if code, _, errOut = runCLI(t, append([]string{"train", "-force", "-out", dir}, tinyTrainArgs...)...); code != 0 {
		t.Errorf("-force: %s", errOut)
	}
	code, out, errOut = runCLI(t, "eval", "-ckpt", filepath.Join(dir, "best.ckpt"), "-json")
	if code != 0 {
		t.Fatalf("eval: %s", errOut)
	}
	ev := decodeJSON(t, out)
	for split, key := range map[string]string{"val": "val_metric", "test": "test_metric"} {
		got := ev[split].(map[string]any)["metric"].(float64)
		if want := trained[key].(float64); math.Abs(got-want) > 1e-9 {
			t.Errorf("eval %s metric %v, training reported %v", split, got, want)
		}
	}
	preds := filepath.Join(t.TempDir(), "p.csv")
	if code, _, errOut = runCLI(t, "predict", "-ckpt", filepath.Join(dir, "best.ckpt"), "-out", preds); code != 0 {
		t.Fatalf("predict: %s", errOut)
	}
	if b, err := os.ReadFile(preds); err != nil || !strings.HasPrefix(string(b), "graph,node,id,label,class,score_0,score_1\n") {
		t.Errorf("predictions: %v\n%.200s", err, b)
	}
	if code, _, errOut = runCLI(t, "export", "-ckpt", filepath.Join(dir, "best.ckpt"), "-out", filepath.Join(t.TempDir(), "w.safetensors")); code != 0 {
		t.Errorf("export: %s", errOut)
	}
	half := filepath.Join(t.TempDir(), "half.ckpt")
	if code, out, errOut = runCLI(t, "export", "-ckpt", filepath.Join(dir, "best.ckpt"), "-half", "-out", half); code != 0 || !strings.Contains(out, "float16 weights") {
		t.Errorf("export -half: exit %d: %s%s", code, out, errOut)
	}
	if code, out, errOut = runCLI(t, "eval", "-ckpt", half, "-split", "test", "-json"); code != 0 {
		t.Fatalf("eval of the float16 checkpoint: %s", errOut)
	}
	info, err := gexph.ReadCheckpointInfo(half)
	if got := decodeJSON(t, out)["test"].(map[string]any)["metric"].(float64); err != nil || info.Half == nil || info.Half.Test == nil || *info.Half.Test != got {
		t.Errorf("float16 checkpoint records %+v (error %v); eval -split test gives %v", info.Half, err, got)
	}
	rerun := filepath.Join(t.TempDir(), "rerun")
	code, out, errOut = runCLI(t, "train", "-dataset", "pattern", "-config", filepath.Join(dir, "result.json"), "-quiet", "-json", "-out", rerun)
	if code != 0 {
		t.Fatalf("rerun from result.json: %s", errOut)
	}
	if again := decodeJSON(t, out); again["val_metric"] != trained["val_metric"] || again["params"] != trained["params"] {
		t.Errorf("rerun from result.json: val %v params %v, the run had %v and %v", again["val_metric"], again["params"], trained["val_metric"], trained["params"])
	}
	seeds := filepath.Join(t.TempDir(), "seeds")
	code, out, errOut = runCLI(t, append([]string{"train", "-seeds", "1,2", "-json", "-out", seeds}, tinyTrainArgs...)...)
	if code != 0 {
		t.Fatalf("-seeds: %s", errOut)
	}
	agg := decodeJSON(t, out)
	requireKeys(t, agg, "val_metric", "test_metric", "seeds", "runs")
	if _, err := os.Stat(filepath.Join(seeds, "aggregate.json")); err != nil {
		t.Error(err)
	}
	fig := filepath.Join(t.TempDir(), "curves.svg")
	if code, _, errOut = runCLI(t, "plot", seeds, dir, "-o", fig, "-ref", "the paper=0.5", "-ref", "0.25"); code != 0 {
		t.Fatalf("plot: %s", errOut)
	}
	if b, err := os.ReadFile(fig); err != nil || !strings.Contains(string(b), "mean ± std") || !strings.Contains(string(b), "the paper") {
		t.Errorf("figure: %v (want a legend naming the mean ± std of the seeds and the reference line)", err)
	}
	if code, _, errOut = runCLI(t, "plot", seeds, "-o", fig, "-ref", "the paper=high"); code == 0 || !strings.Contains(errOut, `"the paper=high"`) {
		t.Errorf("plot -ref with no number: exit %d, %q; want an error naming the value", code, errOut)
	}
}

// `gexph config` prints YAML that -config reads back to the same config, overrides
// included.
func TestConfigCommandRoundTrips(t *testing.T) {
	code, out, errOut := runCLI(t, "config", "-preset", "cluster", "-set", "layers=2", "-set", "lr=0.002")
	if code != 0 {
		t.Fatalf("config: %s", errOut)
	}
	if !strings.Contains(out, "layers: 2\n") || !strings.Contains(out, "lr: 0.002\n") {
		t.Errorf("YAML lacks the overrides:\n%s", out)
	}
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, again, errOut := runCLI(t, "config", "-preset", "demo", "-config", path)
	if code != 0 || again != out {
		t.Errorf("read back (exit %d, %s):\n%s\nwant\n%s", code, errOut, again, out)
	}
	if code, _, errOut = runCLI(t, "config", "-preset", "demo", "-set", "layer=2"); code == 0 || !strings.Contains(errOut, `did you mean "layers"`) {
		t.Errorf("a typo: exit %d, %q", code, errOut)
	}
}
