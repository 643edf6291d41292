package main

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/internal/atomicfile"
)

// writeCollated writes graphs as NumPy code saving a PyG batch would (np.savez with
// x, edge_index in the batch's numbering, ptr and, unless labels is nil, y): graph g
// has 4–7 nodes on a path, two float features and label labels(g).
func writeCollated(t *testing.T, path string, graphs int, seed uint64, labels func(g int, x []float32) any) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	ptr := []int64{0}
	var src, dst []int64
	var x []float32
	var yi []int64
	var yf []float32
	for g := range graphs {
		n := 4 + rng.IntN(4)
		off := ptr[len(ptr)-1]
		var gx []float32
		for v := range n {
			gx = append(gx, rng.Float32(), rng.Float32())
			if v > 0 {
				src, dst = append(src, off+int64(v-1), off+int64(v)), append(dst, off+int64(v), off+int64(v-1))
			}
		}
		x = append(x, gx...)
		ptr = append(ptr, off+int64(n))
		if labels != nil {
			switch y := labels(g, gx).(type) {
			case int64:
				yi = append(yi, y)
			case float32:
				yf = append(yf, y)
			}
		}
	}
	entries := []npy.Entry{
		{Name: "x", Shape: []int{len(x) / 2, 2}, Data: x},
		{Name: "edge_index", Shape: []int{2, len(src)}, Data: append(src, dst...)},
		{Name: "ptr", Shape: []int{len(ptr)}, Data: ptr},
	}
	switch {
	case yi != nil:
		entries = append(entries, npy.Entry{Name: "y", Shape: []int{len(yi)}, Data: yi})
	case yf != nil:
		entries = append(entries, npy.Entry{Name: "y", Shape: []int{len(yf), 1}, Data: yf})
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return npy.WriteNPZ(w, entries) }); err != nil {
		t.Fatal(err)
	}
}

// meanFirst is a graph's mean first feature.
func meanFirst(x []float32) float32 {
	s := float32(0)
	for i := 0; i < len(x); i += 2 {
		s += x[i]
	}
	return s / float32(len(x)/2)
}

// A researcher's graph-level data saved from NumPy, without meta.json, in three
// commands: data shows what was inferred, train picks the generic graph preset with
// the task's metric, predict applies the model to new unlabelled graphs (one row each,
// label −1).
func TestOwnGraphLevelDataTrainsAndPredictsOnNewGraphs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	class := func(g int, x []float32) any {
		if meanFirst(x) > 0.5 {
			return int64(1)
		}
		return int64(0)
	}
	dir := writeFiles(t, "mols", map[string]string{})
	for split, n := range map[string]int{"train": 40, "val": 10, "test": 10} {
		writeCollated(t, filepath.Join(dir, split+".npz"), n, uint64(len(split)), class)
	}
	code, out, errOut := runCLI(t, "data", "-dataset", "export:"+dir)
	if code != 0 || !strings.Contains(out, "inferred   ") || !strings.Contains(out, "task: graph-classification (y is one integer per graph); 2 classes") {
		t.Fatalf("data: exit %d\n%s%s", code, out, errOut)
	}
	run := filepath.Join(t.TempDir(), "run")
	code, out, errOut = runCLI(t, "train", "-dataset", "export:"+dir, "-out", run, "-set", "layers=1", "-set", "hidden_dim=8",
		"-set", "heads=2", "-set", "pe=none", "-epochs", "2", "-json")
	if code != 0 || !strings.Contains(out, `"preset": "graph"`) || !strings.Contains(out, `"metric": "accuracy"`) {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errOut)
	}
	fresh := writeFiles(t, "new", map[string]string{})
	writeCollated(t, filepath.Join(fresh, "test.npz"), 7, 99, nil)
	code, out, errOut = runCLI(t, "predict", "-ckpt", filepath.Join(run, "best.ckpt"), "-dataset", "export:"+fresh, "-out", "-")
	if code != 0 || !strings.Contains(errOut, "is other data") {
		t.Fatalf("predict on new graphs: exit %d\n%s%s", code, out, errOut)
	}
	head, rows := readCSV(t, out)
	if len(rows) != 7 {
		t.Fatalf("%d predictions, want one per new graph (7)", len(rows))
	}
	for _, l := range column(t, head, rows, "label") {
		if l != "-1" {
			t.Fatalf("labels %v, want -1 (the new graphs have none)", column(t, head, rows, "label"))
		}
	}
	if code, _, errOut = runCLI(t, "eval", "-ckpt", filepath.Join(run, "best.ckpt"), "-dataset", "export:"+fresh); code == 0 || !strings.Contains(errOut, "no labels") {
		t.Errorf("eval on unlabelled graphs: exit %d, %q; want a refusal saying they have no labels", code, errOut)
	}
}

// Regression targets saved from NumPy train with the graph preset and the task's
// metric (MAE), no -set metric needed.
func TestOwnRegressionDataTakesTheTasksMetric(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir := writeFiles(t, "reg", map[string]string{})
	target := func(g int, x []float32) any { return 3 * meanFirst(x) }
	for split, n := range map[string]int{"train": 20, "val": 6} {
		writeCollated(t, filepath.Join(dir, split+".npz"), n, uint64(len(split)), target)
	}
	code, out, errOut := runCLI(t, "train", "-dataset", "export:"+dir, "-set", "layers=1", "-set", "hidden_dim=8",
		"-set", "heads=2", "-set", "pe=none", "-epochs", "1", "-json")
	if code != 0 || !strings.Contains(out, `"metric": "mae"`) {
		t.Fatalf("train on regression targets: exit %d\n%s\n%s", code, out, errOut)
	}
}

// A PATTERN model applies to a fresh export of other PATTERN graphs (another seed,
// written by data -export): eval accepts it with a note naming it.
func TestPatternModelEvaluatesAFreshExport(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	run := filepath.Join(t.TempDir(), "run")
	code, _, errOut := runCLI(t, "train", "-dataset", "pattern", "-preset", "demo", "-out", run, "-set", "layers=1",
		"-set", "hidden_dim=8", "-set", "heads=2", "-set", "max_train=16", "-set", "max_val=8", "-set", "max_test=8", "-epochs", "1", "-quiet")
	if code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	if code, _, errOut = runCLI(t, "data", "-dataset", "pattern", "-seed", "5", "-train-graphs", "4", "-val-graphs", "4", "-test-graphs", "4", "-export", fresh); code != 0 {
		t.Fatalf("data -export: %s", errOut)
	}
	code, out, errOut := runCLI(t, "eval", "-ckpt", filepath.Join(run, "best.ckpt"), "-dataset", "export:"+fresh, "-split", "test")
	if code != 0 || !strings.Contains(errOut, "note: export:"+fresh+" is other data") || !strings.Contains(out, "test ") {
		t.Errorf("eval on a fresh PATTERN export: exit %d\n%s%s", code, out, errOut)
	}
}
