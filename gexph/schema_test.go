package gexph

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
)

// trainTiny trains cfg on ds for one epoch into a temporary run directory and returns
// the best checkpoint's path.
func trainTiny(t *testing.T, cfg Config, ds *data.Dataset) string {
	t.Helper()
	cfg.Epochs, cfg.WarmupEpochs = 1, 0
	out := t.TempDir()
	if _, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: out}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(out, BestCheckpointFile)
}

// smallPreset is a one-layer model of preset name, small enough for a test.
func smallPreset(t *testing.T, name string) Config {
	t.Helper()
	cfg, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Layers, cfg.HiddenDim, cfg.Heads, cfg.PE, cfg.BatchSize = 1, 8, 2, PENone, 4
	return cfg
}

// The schema's refusals name each property that differs with both values, and accept
// what a model can run on: fewer classes, smaller codes, an unlabelled set of the
// model's level, dense for sparse features.
func TestSchemaAcceptsNamesEachDifference(t *testing.T) {
	ck := Schema{Task: "graph-classification", Classes: 6, Outputs: 6,
		NodeFeatures: FeatureSchema{Kind: "categorical", Cols: 2, Cardinality: []int{10, 4}},
		EdgeFeatures: FeatureSchema{Kind: "dense", Cols: 3}}
	for _, tc := range []struct {
		name string
		edit func(d *Schema)
		want []string // "" accepted
	}{
		{"same", func(d *Schema) {}, nil},
		{"fewer classes", func(d *Schema) { d.Classes = 4 }, nil},
		{"smaller codes", func(d *Schema) { d.NodeFeatures.Cardinality = []int{7, 4} }, nil},
		{"unlabelled", func(d *Schema) { d.Unlabelled, d.Classes = true, 0 }, nil},
		{"more classes", func(d *Schema) { d.Classes = 10 }, []string{"classes: the checkpoint has 6, the data has 10"}},
		{"node level", func(d *Schema) { d.Task = "node-classification" }, []string{"task: the checkpoint has graph-classification", "the data has node-classification"}},
		{"other graph task", func(d *Schema) { d.Task = "graph-regression" }, []string{"task: the checkpoint has graph-classification, the data has graph-regression"}},
		{"larger code", func(d *Schema) { d.NodeFeatures.Cardinality = []int{12, 4} }, []string{"node features column 0: the data has codes up to 11, the checkpoint's table has 10"}},
		{"edge width", func(d *Schema) { d.EdgeFeatures.Cols = 5 }, []string{"edge features: the checkpoint has 3 columns, the data has 5"}},
		{"edge kind and classes", func(d *Schema) {
			d.EdgeFeatures = FeatureSchema{Kind: "none"}
			d.Classes = 7
		}, []string{"edge features: the checkpoint has dense (3 columns), the data has none", "classes: the checkpoint has 6, the data has 7"}},
	} {
		d := ck
		d.NodeFeatures.Cardinality = append([]int(nil), ck.NodeFeatures.Cardinality...)
		tc.edit(&d)
		err := ck.Accepts(d)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want it to say %q", tc.name, err, w)
			}
		}
	}
	numeric := Schema{Task: "node-classification", Classes: 7, NodeFeatures: FeatureSchema{Kind: "sparse", Cols: 1433}}
	other := numeric
	other.NodeFeatures.Kind = "dense"
	if err := numeric.Accepts(other); err != nil {
		t.Errorf("dense features of the checkpoint's width refused for sparse: %v", err)
	}
}

// A checkpoint's recorded schema is the one SchemaOf gives for its data, and the
// schema read from the variables of a checkpoint that recorded none (older versions)
// agrees with it on the features and outputs.
func TestCheckpointSchemaMatchesItsDataAndItsVariables(t *testing.T) {
	for _, ds := range []*data.Dataset{tinyNodeDataset(10, 1), tinyGraphDataset(data.GraphClassification, 12, 1)} {
		cfg := smallPreset(t, "graph")
		if ds.Task == data.NodeClassification {
			cfg = smallPreset(t, "pattern")
		}
		ckpt := trainTiny(t, cfg, ds)
		ck, err := readCheckpoint(ckpt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := SchemaOf(ds)
		if err != nil {
			t.Fatal(err)
		}
		if ck.info.Schema == nil || ck.info.Schema.String() != want.String() || ck.info.Schema.Outputs != want.Outputs {
			t.Fatalf("%s: recorded schema %v, want %v", ds.Name, ck.info.Schema, want)
		}
		derived := schemaFromVariables(ck.vars).completedBy(want)
		if derived.String() != want.String() || derived.Outputs != want.Outputs {
			t.Errorf("%s: schema from the variables %v (outputs %d), want %v (outputs %d)", ds.Name, derived, derived.Outputs, want, want.Outputs)
		}
	}
}

// A graph-level model refuses node-level data by its task, through Predict and
// Evaluate alike, before anything runs.
func TestGraphModelRefusesNodeDataByTask(t *testing.T) {
	ckpt := trainTiny(t, smallPreset(t, "graph"), tinyGraphDataset(data.GraphClassification, 12, 1))
	nodes := tinyNodeDataset(6, 2)
	_, perr := Predict(context.Background(), ckpt, nodes, "all", ModelOptions{})
	_, eerr := Evaluate(context.Background(), ckpt, nodes, ModelOptions{})
	for _, err := range []error{perr, eerr} {
		if err == nil || !strings.Contains(err.Error(), "task: the checkpoint has graph-classification") ||
			!strings.Contains(err.Error(), "the data has node-classification") {
			t.Errorf("error %v, want a refusal naming both tasks", err)
		}
	}
}

// A model applied to new graphs of its schema: a fresh export of other graphs, without
// meta.json, evaluates and predicts (one row per node, in file order); the same graphs
// without labels predict (label −1) and refuse evaluation.
func TestModelPredictsOnNewGraphsOfItsSchema(t *testing.T) {
	cfg := smallPreset(t, "pattern")
	ckpt := trainTiny(t, cfg, tinyNodeDataset(10, 1))
	fresh := tinyNodeDataset(8, 7) // other graphs, the same features and classes
	dir := filepath.Join(t.TempDir(), "fresh")
	if _, err := data.Export(fresh, dir, data.ExportInfo{}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "meta.json")); err != nil {
		t.Fatal(err)
	}
	ds, err := data.LoadExport(dir, data.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Evaluate(context.Background(), ckpt, ds, ModelOptions{})
	if err != nil {
		t.Fatalf("evaluate on new graphs of the schema: %v", err)
	}
	if res.Test.Metric <= 0 {
		t.Errorf("test metric %v on the new graphs", res.Test.Metric)
	}
	preds, err := Predict(context.Background(), ckpt, ds, "all", ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for _, g := range ds.Graphs {
		nodes += g.NumNodes
	}
	if len(preds) != nodes {
		t.Errorf("%d predictions, want one per node (%d)", len(preds), nodes)
	}
	// The same graphs without labels: node labels all Unlabelled.
	unl := *ds
	unl.Unlabelled, unl.NumClasses = true, 0
	unl.Graphs = append([]data.Graph(nil), ds.Graphs...)
	for i := range unl.Graphs {
		g := &unl.Graphs[i]
		g.NodeLabels = make([]int32, g.NumNodes)
		for v := range g.NodeLabels {
			g.NodeLabels[v] = data.Unlabelled
		}
	}
	upreds, err := Predict(context.Background(), ckpt, &unl, "all", ModelOptions{})
	if err != nil {
		t.Fatalf("predict on unlabelled graphs: %v", err)
	}
	for i, p := range upreds {
		if p.Label != -1 || p.Class != preds[i].Class {
			t.Fatalf("prediction %d: label %d class %d, want label -1 and the labelled run's class %d", i, p.Label, p.Class, preds[i].Class)
		}
	}
	if _, err := Evaluate(context.Background(), ckpt, &unl, ModelOptions{}); err == nil || !strings.Contains(err.Error(), "no labels") {
		t.Errorf("evaluate on unlabelled graphs: %v, want a refusal saying there are no labels", err)
	}
}

// Unlabelled graphs of a graph-level model predict one row per graph, label −1, with
// the scores the labelled graphs get.
func TestGraphModelPredictsOnUnlabelledGraphs(t *testing.T) {
	ds := tinyGraphDataset(data.GraphMultiLabel, 12, 3)
	cfg := smallPreset(t, "graph")
	cfg.Metric, cfg.Loss = MetricAP, ""
	ckpt := trainTiny(t, cfg, ds)
	unl := *ds
	unl.Unlabelled, unl.NumClasses, unl.Task = true, 0, data.GraphClassification
	unl.Graphs = append([]data.Graph(nil), ds.Graphs...)
	for i := range unl.Graphs {
		unl.Graphs[i].Targets, unl.Graphs[i].Label = nil, data.Unlabelled
	}
	want, err := Predict(context.Background(), ckpt, ds, "all", ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Predict(context.Background(), ckpt, &unl, "all", ModelOptions{})
	if err != nil {
		t.Fatalf("unlabelled graphs refused: %v", err)
	}
	if len(got) != len(ds.Graphs) {
		t.Fatalf("%d predictions, want %d", len(got), len(ds.Graphs))
	}
	for i := range got {
		if got[i].Label != -1 || got[i].Scores[0] != want[i].Scores[0] {
			t.Fatalf("graph %d: label %d score %v, want -1 and %v", i, got[i].Label, got[i].Scores[0], want[i].Scores[0])
		}
	}
}

// Cora's model (sparse bag-of-words features, 1433 columns) refuses CiteSeer (3703),
// naming both widths, and accepts Cora exported dense with the same predictions.
func TestRealCoraModelRefusesCiteSeerByFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on a 2.7k-node graph")
	}
	dir := realDataDir(t, "gnn-benchmark/citeseer.npz")
	realDataDir(t, "gnn-benchmark/cora.npz")
	lo := data.LoadOptions{DataDir: dir, NoCache: true}
	cora, err := data.Load("cora", lo)
	if err != nil {
		t.Fatal(err)
	}
	cfg := smallPreset(t, "cora")
	ckpt := trainTiny(t, cfg, cora)
	citeseer, err := data.Load("citeseer", lo)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Predict(context.Background(), ckpt, citeseer, "all", ModelOptions{})
	if err == nil || !strings.Contains(err.Error(), "node features: the checkpoint has 1433 columns, the data has 3703") {
		t.Errorf("Cora's model on CiteSeer: %v, want a refusal naming 1433 and 3703 node features", err)
	}
	exp := filepath.Join(t.TempDir(), "cora-dense")
	if _, err := data.Export(cora, exp, data.ExportInfo{}); err != nil {
		t.Fatal(err)
	}
	dense, err := data.LoadExport(exp, data.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Predict(context.Background(), ckpt, cora, "test", ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Predict(context.Background(), ckpt, dense, "test", ModelOptions{})
	if err != nil {
		t.Fatalf("Cora exported dense: %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d predictions on the dense export, %d on the data", len(got), len(want))
	}
	for i := range got {
		if got[i].Class != want[i].Class {
			t.Fatalf("node %d: class %d on the dense export, %d on the data", got[i].Node, got[i].Class, want[i].Class)
		}
	}
}
