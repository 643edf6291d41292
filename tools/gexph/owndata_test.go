package main

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
)

// writeFiles writes files into a new directory named name and returns its path.
func writeFiles(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// semiSupervised is a graph of 10 nodes: the pair {0,1} and the cycle 2…9 (the largest
// component), whose nodes 4 and 7 have no label (-1).
var semiSupervised = map[string]string{
	"nodes.csv": "label,f1,f2\n0,1,0\n1,0,3\n0,2,0\n1,0,1\n-1,1,1\n0,3,0\n1,0,2\n-1,2,2\n0,1,0\n1,0,5\n",
	"edges.csv": "0,1\n2,3\n3,4\n4,5\n5,6\n6,7\n7,8\n8,9\n9,2\n",
}

// tinyNodeArgs train a small model on a transductive graph in a second or two.
var tinyNodeArgs = []string{"-set", "layers=1", "-set", "hidden_dim=8", "-set", "heads=2", "-set", "epochs=2", "-set", "pe=none", "-quiet"}

// readCSV reads the predictions CSV at path: its header and rows.
func readCSV(t *testing.T, text string) ([]string, [][]string) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("predictions are not CSV: %v\n%s", err, text)
	}
	return rows[0], rows[1:]
}

// column returns column name of rows (header head).
func column(t *testing.T, head []string, rows [][]string, name string) []string {
	t.Helper()
	j := -1
	for i, h := range head {
		if h == name {
			j = i
		}
	}
	if j < 0 {
		t.Fatalf("no column %q in %v", name, head)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r[j])
	}
	return out
}

// A semi-supervised edge list trained on its largest component: predict names the
// unlabelled nodes (and all nodes) by their ids in nodes.csv, not by their renumbered
// index, and eval and predict find the data from the checkpoint alone.
func TestPredictUnlabelledAndAllNameOriginalIDs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir := writeFiles(t, "semi", semiSupervised)
	run := filepath.Join(t.TempDir(), "run")
	args := append([]string{"train", "-dataset", "edgelist:" + dir, "-largest-component", "-out", run}, tinyNodeArgs...)
	if code, _, errOut := runCLI(t, args...); code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	ckpt := filepath.Join(run, "best.ckpt")
	code, out, errOut := runCLI(t, "predict", "-ckpt", ckpt, "-split", "unlabelled", "-out", "-")
	if code != 0 {
		t.Fatalf("predict -split unlabelled (no -dataset): %s", errOut)
	}
	head, rows := readCSV(t, out)
	if got := column(t, head, rows, "id"); !reflect.DeepEqual(got, []string{"4", "7"}) {
		t.Errorf("unlabelled ids %v, want the rows of nodes.csv 4 and 7", got)
	}
	if got := column(t, head, rows, "node"); !reflect.DeepEqual(got, []string{"2", "5"}) {
		t.Errorf("unlabelled nodes %v, want their indices 2 and 5 in the component", got)
	}
	if got := column(t, head, rows, "label"); !reflect.DeepEqual(got, []string{"-1", "-1"}) {
		t.Errorf("unlabelled labels %v, want -1", got)
	}
	if code, out, errOut = runCLI(t, "predict", "-ckpt", ckpt, "-split", "all", "-out", "-"); code != 0 {
		t.Fatalf("predict -split all: %s", errOut)
	}
	head, rows = readCSV(t, out)
	if got := column(t, head, rows, "id"); !reflect.DeepEqual(got, []string{"2", "3", "4", "5", "6", "7", "8", "9"}) {
		t.Errorf("all ids %v, want 2…9 (the component)", got)
	}
	if code, _, errOut = runCLI(t, "eval", "-ckpt", ckpt, "-json"); code != 0 {
		t.Errorf("eval without -dataset: %s", errOut)
	}
}

// A checkpoint applies its model to other data of its schema (with a note naming the
// data, predicting every node by default), refuses data of another schema by the
// property that differs, refuses its own data changed since the run, and a bad split.
func TestEvalAndPredictApplyTheModelToOtherDataOfItsSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir := writeFiles(t, "semi", semiSupervised)
	run := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := runCLI(t, append([]string{"train", "-dataset", "edgelist:" + dir, "-out", run}, tinyNodeArgs...)...); code != 0 {
		t.Fatalf("train: %s", errOut)
	}
	ckpt := filepath.Join(run, "best.ckpt")
	other := map[string]string{"nodes.csv": strings.Replace(semiSupervised["nodes.csv"], "-1,1,1", "1,1,1", 1), "edges.csv": semiSupervised["edges.csv"]}
	otherDir := writeFiles(t, "other", other)
	for _, cmd := range [][]string{{"eval"}, {"predict", "-out", "-"}} {
		code, out, errOut := runCLI(t, append(cmd, "-ckpt", ckpt, "-dataset", "edgelist:"+otherDir)...)
		if code != 0 || !strings.Contains(errOut, "note: edgelist:"+otherDir+" is other data") || !strings.Contains(errOut, "edgelist:"+dir) {
			t.Errorf("%s on other data of the schema: exit %d, %q; want it applied with a note naming both data sets", cmd[0], code, errOut)
		}
		if cmd[0] == "predict" && code == 0 {
			if _, rows := readCSV(t, out); len(rows) != 10 {
				t.Errorf("predict on other data: %d rows, want every node (10)", len(rows))
			}
		}
	}
	wide := map[string]string{"nodes.csv": "label,f1,f2,f3\n0,1,0,1\n1,0,3,1\n0,2,0,0\n1,0,1,1\n", "edges.csv": "0,1\n1,2\n2,3\n"}
	code, _, errOut := runCLI(t, "predict", "-ckpt", ckpt, "-dataset", "edgelist:"+writeFiles(t, "wide", wide), "-out", "-")
	if code == 0 || !strings.Contains(errOut, "node features: the checkpoint has 2 columns, the data has 3") {
		t.Errorf("predict on data of three features: exit %d, %q; want a refusal naming both widths", code, errOut)
	}
	// The run's own files changed since: refused, saying so.
	if err := os.WriteFile(filepath.Join(dir, "nodes.csv"), []byte(other["nodes.csv"]), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "eval", "-ckpt", ckpt); code == 0 || !strings.Contains(errOut, "has changed since the run") {
		t.Errorf("eval on edited data: exit %d, %q; want a refusal", code, errOut)
	}
	if code, _, errOut := runCLI(t, "predict", "-ckpt", ckpt, "-split", "some", "-out", "-"); code == 0 || !strings.Contains(errOut, "unlabelled") {
		t.Errorf("predict -split some: exit %d, %q; want the choices named", code, errOut)
	}
}

// The data command says which transforms apply and prints the loaders' warnings on
// standard error, naming the file.
func TestDataCommandSaysTransformsAndWarns(t *testing.T) {
	dir := writeFiles(t, "semi", semiSupervised)
	code, out, errOut := runCLI(t, "data", "-dataset", "edgelist:"+dir)
	if code != 0 || !strings.Contains(out, "transforms none (the data as read)") {
		t.Errorf("as read: exit %d, %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "data", "-dataset", "edgelist:"+dir, "-largest-component", "-binary-features")
	if code != 0 || !strings.Contains(out, "transforms binary-features, largest-component (kept 8 of 10 nodes)") {
		t.Errorf("asked: exit %d, %s %s", code, out, errOut)
	}
	dup := writeFiles(t, "dup", map[string]string{"nodes.csv": semiSupervised["nodes.csv"], "edges.csv": "0,1\n1,0\n2,3\n3,2\n4,5\n"})
	code, _, errOut = runCLI(t, "data", "-dataset", "edgelist:"+dup)
	if code != 0 || !strings.Contains(errOut, "warning: "+filepath.Join(dup, "edges.csv")+": 2 of 5 rows repeat an edge") {
		t.Errorf("repeated edges: exit %d, stderr %q; want a warning naming edges.csv", code, errOut)
	}
}

// A checkpoint without a data spec, as older versions wrote (gexph.Train given a data
// set), is evaluated on the data set its name finds, as before.
func TestEvalOfCheckpointWithoutSpecFindsDataByName(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	cfg, err := gexph.Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Layers, cfg.HiddenDim, cfg.Heads, cfg.Epochs, cfg.PE = 1, 8, 2, 1, "none"
	cfg.MaxTrain, cfg.MaxVal, cfg.MaxTest = 8, 4, 4
	ds, err := data.Load("pattern", gexph.DataOptions(cfg, data.LoadOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(t.TempDir(), "run")
	if _, err := gexph.Train(context.Background(), cfg, ds, gexph.TrainOptions{OutDir: run}); err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(run, gexph.BestCheckpointFile)
	if info, err := gexph.ReadCheckpointInfo(ckpt); err != nil || info.DatasetSpec != "" {
		t.Fatalf("checkpoint spec %q, %v; want none", info.DatasetSpec, err)
	}
	if code, _, errOut := runCLI(t, "eval", "-ckpt", ckpt); code != 0 {
		t.Errorf("eval by the checkpoint's name: %s", errOut)
	}
}
