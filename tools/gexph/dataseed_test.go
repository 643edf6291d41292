package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalDataSeedDrawsFreshGraphs evaluates a PATTERN checkpoint on its own graphs and
// on graphs drawn from another seed: the second evaluation runs, says which seed drew
// its graphs and sees other graphs (other losses); a data set read from files refuses
// the flag, since its seed draws only a split.
func TestEvalDataSeedDrawsFreshGraphs(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := runCLI(t, append([]string{"train", "-out", dir}, tinyTrainArgs...)...); code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	ckpt := filepath.Join(dir, "best.ckpt")
	code, out, errOut := runCLI(t, "eval", "-ckpt", ckpt, "-json")
	if code != 0 {
		t.Fatalf("eval: %s", errOut)
	}
	own := decodeJSON(t, out)
	code, out, errOut = runCLI(t, "eval", "-ckpt", ckpt, "-data-seed", "0", "-json")
	if code != 0 {
		t.Fatalf("eval -data-seed 0: %s", errOut)
	}
	fresh := decodeJSON(t, out)
	if fresh["data_seed"] != float64(0) || own["data_seed"] != nil {
		t.Errorf("data_seed: %v with the flag, %v without", fresh["data_seed"], own["data_seed"])
	}
	ownTest, _ := own["test"].(map[string]any)
	freshTest, _ := fresh["test"].(map[string]any)
	if ownTest["loss"] == nil || ownTest["loss"] == freshTest["loss"] {
		t.Errorf("test loss %v on the run's graphs and %v on fresh ones: want other graphs", ownTest["loss"], freshTest["loss"])
	}
	code, out, _ = runCLI(t, "eval", "-ckpt", ckpt, "-data-seed", "3")
	if code != 0 || !strings.Contains(out, "graphs drawn from seed 3") {
		t.Errorf("eval -data-seed 3: exit %d\n%s", code, out)
	}
	code, _, errOut = runCLI(t, "eval", "-ckpt", ckpt, "-dataset", "npz:/nonexistent/x.npz", "-data-seed", "3")
	if code == 0 || !strings.Contains(errOut, "-data-seed 3") || !strings.Contains(errOut, "generated data sets") {
		t.Errorf("-data-seed on a file data set: exit %d, %s", code, errOut)
	}
}
