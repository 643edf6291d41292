// Package pyg_test holds the tests of tools/pyg/load_export.py, the Python loader of
// gexph's data set exports: what it loads equals what gexph trains on.
package pyg_test

import (
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/pyfind"
	"github.com/gexph/gexph/internal/shareddata"
)

// numpyPython returns a python3 that has NumPy, or skips the test.
func numpyPython(t *testing.T) string {
	return pyfind.Python(t, "Debian: apt-get install python3-numpy", "numpy")
}

// loaderScript is load_export.py, beside this file.
func loaderScript() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "load_export.py")
}

// splitSummary is what the loader reports of one split.
type splitSummary struct {
	Graphs, Nodes, Edges int
	XChecksum            float64 `json:"x_checksum"`
	EdgeAttrChecksum     float64 `json:"edge_attr_checksum"`
	YChecksum            float64 `json:"y_checksum"`
	Examples             int
}

// checksum is load_export.py's: Σ value·((i+1) mod 997 + 1) over the values in order.
type checksum struct {
	sum float64
	i   int
}

func (c *checksum) add(v float64) {
	c.i++
	c.sum += v * float64(c.i%997+1)
}

// addFeatures adds f's values (sparse ones dense, categorical codes as numbers).
func (c *checksum) addFeatures(f data.Features) {
	switch f.Kind {
	case data.Dense:
		for _, v := range f.Dense {
			c.add(float64(v))
		}
	case data.Categorical:
		for _, v := range f.Categorical {
			c.add(float64(v))
		}
	case data.Sparse:
		for r := range f.Rows {
			row := make([]float64, f.Cols)
			for k := f.Indptr[r]; k < f.Indptr[r+1]; k++ {
				row[f.Indices[k]] += float64(f.Values[k])
			}
			for _, v := range row {
				c.add(v)
			}
		}
	}
}

// expected computes what the loader must report of ds's split idx.
func expected(ds *data.Dataset, idx []int) splitSummary {
	var s splitSummary
	var x, ea, y checksum
	graphs := idx
	if ds.Transductive {
		graphs = []int{0}
		s.Examples = len(idx)
	}
	for _, gi := range graphs {
		g := &ds.Graphs[gi]
		s.Graphs++
		s.Nodes += g.NumNodes
		s.Edges += len(g.Src)
		x.addFeatures(g.Node)
		ea.addFeatures(g.Edge)
		switch ds.Task {
		case data.NodeClassification:
			for _, v := range g.NodeLabels {
				y.add(float64(v))
			}
		case data.GraphClassification:
			y.add(float64(g.Label))
		default:
			for _, v := range g.Targets {
				y.add(float64(v))
			}
		}
	}
	s.XChecksum, s.EdgeAttrChecksum, s.YChecksum = x.sum, ea.sum, y.sum
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestLoaderSeesWhatGexphTrainsOn exports PATTERN, CLUSTER, MNIST, Peptides-func and
// Cora, loads each with load_export.py and compares, split by split, the graph, node
// and edge counts and checksums of the features and labels with gexph's data set.
func TestLoaderSeesWhatGexphTrainsOn(t *testing.T) {
	py := numpyPython(t)
	cases := []struct {
		spec   string
		shared string // a shared data file the case needs
		opts   data.LoadOptions
	}{
		{"pattern", "", data.LoadOptions{Seed: 5, TrainGraphs: 12, ValGraphs: 3, TestGraphs: 3}},
		{"cluster", "", data.LoadOptions{Seed: 6, TrainGraphs: 10, ValGraphs: 2, TestGraphs: 2}},
		{"mnist", "mnist/mnist_batch_1.png", data.LoadOptions{TrainGraphs: 20, ValGraphs: 5, TestGraphs: 5}},
		{"peptides-func", "peptides-func/peptide_multi_class_dataset.csv.gz", data.LoadOptions{}},
		{"cora", "cora.npz", data.LoadOptions{Seed: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.spec, func(t *testing.T) {
			if tc.shared != "" {
				if tc.spec == "cora" {
					tc.shared = "gnn-benchmark/" + tc.shared
				}
				shareddata.Path(t, tc.shared)
				if testing.Short() {
					t.Skip("real data: skipped with -short")
				}
				tc.opts.DataDir = shareddata.Root()
			}
			ds, err := data.Load(tc.spec, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), tc.spec)
			if _, err := data.Export(ds, dir, data.ExportInfo{Spec: tc.spec, Seed: tc.opts.Seed}); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(py, loaderScript(), "--numpy", dir).Output()
			if err != nil {
				t.Fatalf("load_export.py: %v\n%s", err, out)
			}
			var got struct {
				Graphs, Nodes, Edges int
				Splits               map[string]splitSummary
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("load_export.py printed %q: %v", out, err)
			}
			for name, idx := range map[string][]int{"train": ds.Split.Train, "val": ds.Split.Val, "test": ds.Split.Test} {
				want, g := expected(ds, idx), got.Splits[name]
				if g.Graphs != want.Graphs || g.Nodes != want.Nodes || g.Edges != want.Edges || g.Examples != want.Examples {
					t.Errorf("%s: loaded %d graphs, %d nodes, %d edges, %d examples; gexph has %d, %d, %d, %d",
						name, g.Graphs, g.Nodes, g.Edges, g.Examples, want.Graphs, want.Nodes, want.Edges, want.Examples)
				}
				if !near(g.XChecksum, want.XChecksum) || !near(g.EdgeAttrChecksum, want.EdgeAttrChecksum) || !near(g.YChecksum, want.YChecksum) {
					t.Errorf("%s: checksums x %v e %v y %v; gexph's %v %v %v", name, g.XChecksum, g.EdgeAttrChecksum,
						g.YChecksum, want.XChecksum, want.EdgeAttrChecksum, want.YChecksum)
				}
			}
		})
	}
}

// TestLoaderRefusesWhatIsNotAnExport names the file when the directory holds no export.
func TestLoaderRefusesWhatIsNotAnExport(t *testing.T) {
	py := numpyPython(t)
	dir := t.TempDir()
	out, err := exec.Command(py, loaderScript(), dir).CombinedOutput()
	if err == nil || !strings.Contains(string(out), filepath.Join(dir, "meta.json")) {
		t.Errorf("load_export.py on an empty directory: %v\n%s", err, out)
	}
}

// TestLoaderPyGMatchesNumPy loads an export through PyG's InMemoryDataset, where
// torch_geometric is installed, and checks that it reports what the NumPy path does.
func TestLoaderPyGMatchesNumPy(t *testing.T) {
	py := pyfind.Python(t, "the PyG path is checked where torch_geometric is installed", "numpy", "torch_geometric")
	ds, err := data.Load("pattern", data.LoadOptions{Seed: 1, TrainGraphs: 6, ValGraphs: 2, TestGraphs: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "pattern")
	if _, err := data.Export(ds, dir, data.ExportInfo{Spec: "pattern", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	var views [2]map[string]any
	for i, args := range [][]string{{"--numpy"}, {}} {
		out, err := exec.Command(py, append([]string{loaderScript()}, append(args, "--one-hot", dir)...)...).Output()
		if err != nil {
			t.Fatalf("load_export.py %v: %v\n%s", args, err, out)
		}
		if err := json.Unmarshal(out, &views[i]); err != nil {
			t.Fatal(err)
		}
	}
	if views[1]["loader"] != "pyg" {
		t.Fatalf("loader %v, want pyg", views[1]["loader"])
	}
	np, pyg := views[0]["splits"], views[1]["splits"]
	if a, b := mustJSON(t, np), mustJSON(t, pyg); a != b {
		t.Errorf("PyG sees %s, NumPy %s", b, a)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
