package data

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/npy"
)

// classificationSet is a small graph classification set with categorical node features
// (every code of every column used) and no edge features.
func classificationSet() *Dataset {
	ds := &Dataset{Name: "gc", Task: GraphClassification, NumClasses: 3}
	for g := range 6 {
		n := 2 + g%3
		gr := Graph{NumNodes: n, Label: int32(g % 3)}
		for i := 0; i+1 < n; i++ {
			gr.Src, gr.Dst = append(gr.Src, int32(i), int32(i+1)), append(gr.Dst, int32(i+1), int32(i))
		}
		codes := make([]int32, 2*n)
		for i := range n {
			codes[2*i], codes[2*i+1] = int32((g+i)%4), int32(i%2)
		}
		gr.Node = Features{Kind: Categorical, Rows: n, Cols: 2, Categorical: codes, Cardinality: []int{4, 2}}
		ds.Graphs = append(ds.Graphs, gr)
	}
	ds.Split = Split{Train: []int{0, 1, 2, 3}, Val: []int{4}, Test: []int{5}}
	return ds
}

// exportWithoutMeta exports ds to a new directory and removes its meta.json.
func exportWithoutMeta(t *testing.T, ds *Dataset) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mine")
	if _, err := Export(ds, dir, ExportInfo{}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "meta.json")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// An export without meta.json reads back as the data set it was exported from: the
// task, classes and feature kinds inferred from the arrays, each inference listed.
func TestLoadExportWithoutMetaInfersWhatMetaWouldSay(t *testing.T) {
	for _, ds := range []*Dataset{classificationSet(), multiLabelSet(), transductiveSet()} {
		t.Run(ds.Name, func(t *testing.T) {
			got, err := LoadExport(exportWithoutMeta(t, ds), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Task != ds.Task || got.NumClasses != ds.NumClasses || got.Transductive != ds.Transductive || got.Unlabelled {
				t.Fatalf("task %s, %d classes, transductive %v, unlabelled %v; want %s, %d, %v, false",
					got.Task, got.NumClasses, got.Transductive, got.Unlabelled, ds.Task, ds.NumClasses, ds.Transductive)
			}
			if got.Name != "mine" {
				t.Errorf("name %q, want the directory's, %q", got.Name, "mine")
			}
			if len(got.Inferred) == 0 || !strings.Contains(strings.Join(got.Inferred, "\n"), "task: "+ds.Task.String()) {
				t.Errorf("inferred %q: want the task among them", got.Inferred)
			}
			if len(got.Graphs) != len(ds.Graphs) {
				t.Fatalf("%d graphs, want %d", len(got.Graphs), len(ds.Graphs))
			}
			// Export writes graphs in split order: compare each split's graphs.
			order := append(append(slices.Clone(ds.Split.Train), ds.Split.Val...), ds.Split.Test...)
			for k := range got.Graphs {
				w := &ds.Graphs[k]
				if !ds.Transductive {
					w = &ds.Graphs[order[k]]
				}
				wc := *w
				wc.Node = densified(w.Node)
				if d := sameGraph(&got.Graphs[k], &wc); d != "" {
					t.Fatalf("graph %d: %s", k, d)
				}
			}
			if ds.Transductive && !slices.Equal(got.Split.Val, ds.Split.Val) {
				t.Errorf("val split %v, want %v", got.Split.Val, ds.Split.Val)
			}
		})
	}
}

// collated returns the arrays of the graphs of ds as a PyG batch stores them: one
// edge_index in the batch's node numbering, node offsets as ptr (or a batch vector),
// no edge_ptr.
func collated(ds *Dataset, idx []int, batchVector bool) []npy.Entry {
	var src, dst, ptr, batch, y []int64
	var x []float32
	ptr = append(ptr, 0)
	for k, gi := range idx {
		g := &ds.Graphs[gi]
		off := ptr[len(ptr)-1]
		for e := range g.Src {
			src, dst = append(src, off+int64(g.Src[e])), append(dst, off+int64(g.Dst[e]))
		}
		for v := range g.NumNodes {
			batch = append(batch, int64(k))
			for c := range g.Node.Cols {
				x = append(x, float32(g.Node.Categorical[v*g.Node.Cols+c]))
			}
		}
		ptr = append(ptr, off+int64(g.NumNodes))
		y = append(y, int64(g.Label))
	}
	entries := []npy.Entry{
		{Name: "x", Shape: []int{len(batch), ds.Graphs[0].Node.Cols}, Data: x},
		{Name: "edge_index", Shape: []int{2, len(src)}, Data: append(src, dst...)},
		{Name: "y", Shape: []int{len(y)}, Data: y},
	}
	if batchVector {
		return append(entries, npy.Entry{Name: "batch", Shape: []int{len(batch)}, Data: batch})
	}
	return append(entries, npy.Entry{Name: "ptr", Shape: []int{len(ptr)}, Data: ptr})
}

// Graphs saved as PyG collates them (ptr or batch, edge_index over the whole batch, no
// edge_ptr, float features) read back as the same graphs; a hint in a meta.json without
// "format" makes the float codes categorical.
func TestLoadExportReadsPyGCollatedBatches(t *testing.T) {
	ds := classificationSet()
	for _, batchVector := range []bool{false, true} {
		dir := t.TempDir()
		for _, s := range []struct {
			name string
			idx  []int
		}{{"train", ds.Split.Train}, {"val", ds.Split.Val}, {"test", ds.Split.Test}} {
			writeTestNPZ(t, filepath.Join(dir, s.name+".npz"), collated(ds, s.idx, batchVector))
		}
		hint := `{"node_features": {"kind": "categorical"}}`
		if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(hint), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := LoadExport(dir, LoadOptions{})
		if err != nil {
			t.Fatalf("batch vector %v: %v", batchVector, err)
		}
		if got.Task != GraphClassification || got.NumClasses != 3 {
			t.Fatalf("task %s with %d classes, want graph-classification with 3", got.Task, got.NumClasses)
		}
		for k, gi := range append(append(slices.Clone(ds.Split.Train), ds.Split.Val...), ds.Split.Test...) {
			if d := sameGraph(&got.Graphs[k], &ds.Graphs[gi]); d != "" {
				t.Fatalf("batch vector %v, graph %d: %s", batchVector, k, d)
			}
		}
	}
}

// An archive without y holds unlabelled graphs: they load for prediction, training
// refuses them, and a split file left out is an empty split.
func TestLoadExportWithoutLabelsIsForPredictionOnly(t *testing.T) {
	ds := classificationSet()
	dir := t.TempDir()
	entries := collated(ds, []int{0, 1, 2}, false)
	entries = slices.DeleteFunc(entries, func(e npy.Entry) bool { return e.Name == "y" })
	writeTestNPZ(t, filepath.Join(dir, "test.npz"), entries)
	got, err := LoadExport(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Unlabelled || got.Task != GraphClassification || len(got.Split.Test) != 3 || len(got.Split.Train) != 0 {
		t.Fatalf("unlabelled %v, task %s, split %+v: want unlabelled graph-level test graphs", got.Unlabelled, got.Task, got.Split)
	}
	for _, g := range got.Graphs {
		if g.Label != Unlabelled {
			t.Fatalf("graph label %d, want Unlabelled", g.Label)
		}
	}
	if err := got.Validate(); err == nil || !strings.Contains(err.Error(), "no labels") {
		t.Errorf("Validate (training) = %v, want a refusal saying the data has no labels", err)
	}
	if !strings.Contains(strings.Join(got.Inferred, "\n"), "no archive has y") {
		t.Errorf("inferred %q: want it to say there are no labels", got.Inferred)
	}
}

// Per-graph 0/1 values are multi-label, other numbers regression, and meta.json's task
// overrides either.
func TestLoadExportInfersMultiLabelOrRegression(t *testing.T) {
	for _, tc := range []struct {
		y    []float32
		hint string
		want Task
	}{
		{[]float32{0, 1, 1, 0}, "", GraphMultiLabel},
		{[]float32{0, 1.5, 1, 0}, "", GraphRegression},
		{[]float32{0, 1, 1, 0}, `{"task": "graph-regression"}`, GraphRegression},
	} {
		dir := t.TempDir()
		writeTestNPZ(t, filepath.Join(dir, "train.npz"), []npy.Entry{
			{Name: "ptr", Shape: []int{3}, Data: []int64{0, 2, 3}},
			{Name: "edge_index", Shape: []int{2, 1}, Data: []int64{0, 1}},
			{Name: "y", Shape: []int{2, 2}, Data: tc.y},
		})
		if tc.hint != "" {
			if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(tc.hint), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := LoadExport(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Task != tc.want || got.NumClasses != 2 {
			t.Errorf("y %v hint %q: task %s with %d targets, want %s with 2", tc.y, tc.hint, got.Task, got.NumClasses, tc.want)
		}
	}
}

// What cannot be read right is refused, naming the file and the fault.
func TestLoadExportInferenceNamesTheFault(t *testing.T) {
	ptr := npy.Entry{Name: "ptr", Shape: []int{3}, Data: []int64{0, 2, 4}}
	y := npy.Entry{Name: "y", Shape: []int{2}, Data: []int64{0, 1}}
	for _, tc := range []struct {
		name  string
		files map[string][]npy.Entry
		meta  string
		want  string
	}{
		{"edge across graphs", map[string][]npy.Entry{"train.npz": {ptr, y,
			{Name: "edge_index", Shape: []int{2, 1}, Data: []int64{1, 2}}}}, "", "train.npz: edge 0: 1→2 joins graph 0 to graph 1"},
		{"edges out of graph order", map[string][]npy.Entry{"train.npz": {ptr, y,
			{Name: "edge_index", Shape: []int{2, 2}, Data: []int64{2, 0, 3, 1}}}}, "", "each graph's edges must come together"},
		{"labels in one archive only", map[string][]npy.Entry{
			"train.npz": {ptr, y, {Name: "edge_index", Shape: []int{2, 0}, Data: []int64{}}},
			"val.npz":   {ptr, {Name: "edge_index", Shape: []int{2, 0}, Data: []int64{}}}}, "", `val.npz: no array "y"`},
		{"no offsets", map[string][]npy.Entry{"train.npz": {y, {Name: "edge_index", Shape: []int{2, 0}, Data: []int64{}}}}, "",
			"no node_ptr, ptr or batch"},
		{"unknown hint", map[string][]npy.Entry{"train.npz": {ptr, y, {Name: "edge_index", Shape: []int{2, 0}, Data: []int64{}}}},
			`{"classes": 3}`, "classes"},
		{"both layouts", map[string][]npy.Entry{"graph.npz": {y}, "test.npz": {y}}, "", "keep one layout"},
		{"nothing", map[string][]npy.Entry{}, "", "holds no graph.npz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, entries := range tc.files {
				writeTestNPZ(t, filepath.Join(dir, name), entries)
			}
			if tc.meta != "" {
				if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(tc.meta), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := LoadExport(dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
