package data

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/npy"
)

// multiLabelSet is a small graph multi-label set with dense node and edge features.
func multiLabelSet() *Dataset {
	ds := &Dataset{Name: "ml", Task: GraphMultiLabel, NumClasses: 3}
	for g := range 5 {
		n := 3 + g
		gr := Graph{NumNodes: n, Targets: []float32{float32(g % 2), 1, 0}}
		for i := 0; i+1 < n; i++ {
			gr.Src, gr.Dst = append(gr.Src, int32(i), int32(i+1)), append(gr.Dst, int32(i+1), int32(i))
		}
		gr.Node = Features{Kind: Dense, Rows: n, Cols: 2, Dense: make([]float32, 2*n)}
		for i := range gr.Node.Dense {
			gr.Node.Dense[i] = float32(i*g) - 0.5
		}
		gr.Edge = Features{Kind: Dense, Rows: len(gr.Src), Cols: 1, Dense: make([]float32, len(gr.Src))}
		for i := range gr.Edge.Dense {
			gr.Edge.Dense[i] = float32(i) / 4
		}
		ds.Graphs = append(ds.Graphs, gr)
	}
	ds.Split = Split{Train: []int{4, 0, 2}, Val: []int{1}, Test: []int{3}}
	return ds
}

// transductiveSet is one graph with sparse features, categorical edge features and an
// unlabelled node.
func transductiveSet() *Dataset {
	n := 6
	gr := Graph{NumNodes: n, NodeLabels: []int32{0, 1, 1, Unlabelled, 0, 1}}
	for i := range n {
		gr.Src, gr.Dst = append(gr.Src, int32(i)), append(gr.Dst, int32((i+1)%n))
	}
	gr.Node = Features{Kind: Sparse, Rows: n, Cols: 4, Indptr: []int64{0, 1, 1, 3, 4, 5, 6},
		Indices: []int32{2, 0, 3, 1, 2, 0}, Values: []float32{1, 1, 0.5, 2, 1, 3}}
	gr.Edge = Features{Kind: Categorical, Rows: n, Cols: 1, Categorical: []int32{0, 1, 2, 0, 1, 2}, Cardinality: []int{3}}
	return &Dataset{Name: "td", Task: NodeClassification, NumClasses: 2, Transductive: true,
		Graphs: []Graph{gr}, Split: Split{Train: []int{0, 4}, Val: []int{1, 5}, Test: []int{2}}}
}

// densified returns f with sparse values written dense, as an export stores them.
func densified(f Features) Features {
	if f.Kind != Sparse {
		return f
	}
	d := Features{Kind: Dense, Rows: f.Rows, Cols: f.Cols, Dense: make([]float32, f.Rows*f.Cols)}
	f.AddDenseTo(d.Dense)
	return d
}

// sameGraph reports how b differs from a (features compared as an export stores them).
func sameGraph(a, b *Graph) string {
	switch {
	case a.NumNodes != b.NumNodes:
		return "node count"
	case !reflect.DeepEqual(a.Src, b.Src) || !reflect.DeepEqual(a.Dst, b.Dst):
		return "edges"
	case !reflect.DeepEqual(a.NodeLabels, b.NodeLabels) || a.Label != b.Label || !reflect.DeepEqual(a.Targets, b.Targets):
		return "labels"
	case !reflect.DeepEqual(densified(a.Node), b.Node):
		return "node features"
	case !reflect.DeepEqual(densified(a.Edge), b.Edge):
		return "edge features"
	}
	return ""
}

// TestExportRoundTrip writes node-level (PATTERN, CLUSTER), graph-level and transductive
// data sets and reads them back: the same graphs in split order, the same edges, labels,
// targets and features (sparse ones dense), and the same split.
func TestExportRoundTrip(t *testing.T) {
	pattern, err := GeneratePATTERN(SBMOptions{Seed: 3, Train: 6, Val: 2, Test: 2})
	if err != nil {
		t.Fatal(err)
	}
	cluster, err := GenerateCLUSTER(SBMOptions{Seed: 4, Train: 4, Val: 2, Test: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range []*Dataset{pattern, cluster, multiLabelSet(), transductiveSet()} {
		t.Run(ds.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "export")
			meta, err := Export(ds, dir, ExportInfo{Spec: ds.Name, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if meta.Splits["train"] != len(ds.Split.Train) || meta.Task != ds.Task.String() {
				t.Errorf("meta %+v", meta)
			}
			back, err := LoadExport(dir, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if back.Task != ds.Task || back.NumClasses != ds.NumClasses || back.Transductive != ds.Transductive {
				t.Fatalf("read back %s %d classes transductive %v", back.Task, back.NumClasses, back.Transductive)
			}
			if ds.Transductive {
				if d := sameGraph(&ds.Graphs[0], &back.Graphs[0]); d != "" || !reflect.DeepEqual(ds.Split, back.Split) {
					t.Errorf("graph differs in %q; split %v, want %v", d, back.Split, ds.Split)
				}
				return
			}
			order := append(append(append([]int{}, ds.Split.Train...), ds.Split.Val...), ds.Split.Test...)
			if len(back.Graphs) != len(order) || len(back.Split.Train) != len(ds.Split.Train) || len(back.Split.Test) != len(ds.Split.Test) {
				t.Fatalf("%d graphs, split %v", len(back.Graphs), back.Split)
			}
			for i, gi := range order {
				if d := sameGraph(&ds.Graphs[gi], &back.Graphs[i]); d != "" {
					t.Errorf("graph %d (exported from %d) differs in its %s", i, gi, d)
				}
			}
		})
	}
}

// TestExportRefusesForeignDirectory leaves a directory that holds anything but an
// earlier export as it was.
func TestExportRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Export(multiLabelSet(), dir, ExportInfo{}); err == nil || !strings.Contains(err.Error(), "choose another directory") {
		t.Errorf("export into a foreign directory: %v", err)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "keep me" {
		t.Errorf("the foreign file changed: %q %v", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries after a refused export", len(entries))
	}
	// An earlier export is replaced.
	exp := filepath.Join(t.TempDir(), "e")
	if _, err := Export(multiLabelSet(), exp, ExportInfo{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Export(multiLabelSet(), exp, ExportInfo{Seed: 9}); err != nil {
		t.Errorf("re-export over an export: %v", err)
	}
}

// TestLoadExportNamesTheFault corrupts an export in the ways a hand-made one goes wrong
// and checks that each error names the file and what is wrong.
func TestLoadExportNamesTheFault(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dir string)
		want string
	}{
		{"other format", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"format":"pyg","version":1}`), 0o644)
		}, `format "pyg"`},
		{"missing split", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "val.npz")) }, "val.npz"},
		{"edges out of range", func(t *testing.T, dir string) {
			writeTestNPZ(t, filepath.Join(dir, "test.npz"), []npy.Entry{
				{Name: "node_ptr", Shape: []int{2}, Data: []int64{0, 3}},
				{Name: "edge_ptr", Shape: []int{2}, Data: []int64{0, 1}},
				{Name: "edge_index", Shape: []int{2, 1}, Data: []int64{0, 7}},
				{Name: "x", Shape: []int{3, 2}, Data: make([]float32, 6)},
				{Name: "edge_attr", Shape: []int{1, 1}, Data: []float32{0}},
				{Name: "y", Shape: []int{1, 3}, Data: []float32{0, 1, 0}},
			})
		}, "test.npz: graph 0: edge 0: 0→7 outside the graph's 3 nodes"},
		{"features of the wrong width", func(t *testing.T, dir string) {
			writeTestNPZ(t, filepath.Join(dir, "test.npz"), []npy.Entry{
				{Name: "node_ptr", Shape: []int{2}, Data: []int64{0, 3}},
				{Name: "edge_ptr", Shape: []int{2}, Data: []int64{0, 0}},
				{Name: "edge_index", Shape: []int{2, 0}, Data: []int64{}},
				{Name: "x", Shape: []int{3, 5}, Data: make([]float32, 15)},
				{Name: "edge_attr", Shape: []int{0, 1}, Data: []float32{}},
				{Name: "y", Shape: []int{1, 3}, Data: []float32{0, 1, 0}},
			})
		}, "x has shape [3 5], want [3 2]"},
		{"pointers disagree", func(t *testing.T, dir string) {
			writeTestNPZ(t, filepath.Join(dir, "test.npz"), []npy.Entry{
				{Name: "node_ptr", Shape: []int{2}, Data: []int64{0, 3}},
				{Name: "edge_ptr", Shape: []int{2}, Data: []int64{0, 5}},
				{Name: "edge_index", Shape: []int{2, 1}, Data: []int64{0, 1}},
				{Name: "y", Shape: []int{1, 3}, Data: []float32{0, 1, 0}},
			})
		}, "node_ptr, edge_ptr and edge_index disagree"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "e")
			if _, err := Export(multiLabelSet(), dir, ExportInfo{}); err != nil {
				t.Fatal(err)
			}
			tc.edit(t, dir)
			if _, err := LoadExport(dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}

// writeTestNPZ writes entries to path.
func writeTestNPZ(t *testing.T, path string, entries []npy.Entry) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := npy.WriteNPZ(f, entries); err != nil {
		t.Fatal(err)
	}
}
