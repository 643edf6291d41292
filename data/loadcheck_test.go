package data

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Tests of the inputs the loaders used to let through: labels out of range, header rows
// mistaken for data (and the reverse), overlapping, repeating or empty splits, and
// graphs without features or edges. Every test writes its bad input itself.

// wantError fails unless err is non-nil and its text holds every string of want.
func wantError(t *testing.T, what string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one holding %q", what, want)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q lacks %q", what, err, w)
		}
	}
}

// edgeListWith returns tinyEdgeList (4 nodes, labels 1 0 1 2) with changes applied.
func edgeListWith(changes map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range tinyEdgeList {
		m[k] = v
	}
	for k, v := range changes {
		m[k] = v
	}
	return m
}

// splitFiles are valid split files for tinyEdgeList.
var splitFiles = map[string]string{"train.csv": "0\n1\n", "val.csv": "2\n", "test.csv": "3\n"}

func mergeFiles(maps ...map[string]string) map[string]string {
	m := map[string]string{}
	for _, x := range maps {
		for k, v := range x {
			m[k] = v
		}
	}
	return m
}

// TestLabelRange: a label must be a 0-based class index below MaxClasses and below the
// node count; NumClasses is 1 + the largest label.
func TestLabelRange(t *testing.T) {
	// npz: labels of the 7-node tinyGNN graph.
	for _, tc := range []struct {
		name   string
		labels []int64
		want   []string
	}{
		{"2³¹−1", []int64{0, 1, 2, 1, 0, 3, 1<<31 - 1}, []string{"entry labels", "node 6", "label 2147483647", "MaxClasses = 100000"}},
		{"10⁶", []int64{0, 1000000, 2, 1, 0, 3, 2}, []string{"entry labels", "node 1", "label 1000000", "MaxClasses"}},
		{"node count", []int64{0, 1, 2, 1, 0, 3, 7}, []string{"entry labels", "node 6", "label 7", "node count 7"}},
	} {
		path := writeTemp(t, "labels.npz", zipBytes(false, replaced(tinyGNN(), "labels", npyOf(tc.labels))...))
		d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 1})
		if d != nil {
			t.Errorf("npz %s: data set returned (%d classes)", tc.name, d.NumClasses)
		}
		wantError(t, "npz "+tc.name, err, append(tc.want, path)...)
	}
	// The largest label allowed in a 7-node graph is 6.
	path := writeTemp(t, "ok.npz", zipBytes(false, replaced(tinyGNN(), "labels", npyOf([]int64{0, 1, 2, 1, 0, 3, 6}))...))
	if d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 1}); err != nil || d.NumClasses != 7 {
		t.Errorf("npz label 6 of 7 nodes (outside the largest component): %v, want 7 classes", err)
	}

	// edgelist: nodes.csv of 4 nodes.
	for _, tc := range []struct {
		name, nodes string
		want        []string
	}{
		{"2³¹−1", "label,f\n1,0\n2147483647,1\n1,0\n2,1\n", []string{"nodes.csv:3", "node 1", "label 2147483647", "MaxClasses = 100000"}},
		{"10⁶", "1,0\n0,1\n1e6,0\n2,1\n", []string{"nodes.csv:3", "node 2", "label 1e6", "MaxClasses"}},
		{"2³¹", "1,0\n0,1\n1,0\n2147483648,1\n", []string{"nodes.csv:4", "node 3", "MaxClasses"}},
		{"node count", "1,0\n# four nodes hold at most four classes\n4,1\n1,0\n2,1\n", []string{"nodes.csv:3", "node 1", "label 4", "node count 4"}},
		{"minus two", "1,0\n-2,1\n1,0\n2,1\n", []string{"nodes.csv:2", "node 1", `"-2"`, "not an integer ≥ 0 (nor -1, unlabelled)"}},
		{"NaN", "1,0\nNaN,1\n1,0\n2,1\n", []string{"nodes.csv:2", "node 1", `"NaN"`}},
		{"Inf", "1,0\n0,1\ninf,0\n2,1\n", []string{"nodes.csv:3", "node 2", "inf", "MaxClasses"}},
	} {
		d, err := LoadEdgeListDir(writeEdgeListDir(t, edgeListWith(map[string]string{"nodes.csv": tc.nodes})), LoadOptions{Seed: 1})
		if d != nil {
			t.Errorf("edgelist %s: data set returned", tc.name)
		}
		wantError(t, "edgelist "+tc.name, err, tc.want...)
	}
	d, err := LoadEdgeListDir(writeEdgeListDir(t, edgeListWith(map[string]string{"nodes.csv": "3\n0\n1\n0\n"})), LoadOptions{Seed: 1})
	if err != nil || d.NumClasses != 4 {
		t.Errorf("edgelist labels 3 0 1 0: %v, want 4 classes", err)
	}

	// OGB: node-label.csv.gz of 5 nodes.
	for _, tc := range []struct {
		name, labels string
		want         []string
	}{
		{"2³¹−1", "2\n0\n2147483647\n2\n0\n", []string{"node-label.csv.gz:3", "node 2", "2147483647", "MaxClasses"}},
		{"node count", "2\n0\n1\n5\n0\n", []string{"node-label.csv.gz:4", "node 3", "label 5", "node count 5"}},
	} {
		d, err := LoadOGBNode(writeOGB(t, map[string]string{"raw/node-label.csv.gz": tc.labels}), LoadOptions{})
		if d != nil {
			t.Errorf("ogb %s: data set returned", tc.name)
		}
		wantError(t, "ogb "+tc.name, err, tc.want...)
	}
}

// validNodeSet is a valid transductive data set of 5 nodes for Validate's tests.
func validNodeSet() *Dataset {
	return &Dataset{Name: "v", Task: NodeClassification, NumClasses: 3, Transductive: true,
		Graphs: []Graph{{NumNodes: 5, Src: []int32{0, 1}, Dst: []int32{1, 0}, NodeLabels: []int32{0, 1, 2, 1, 0}}},
		Split:  Split{Train: []int{0, 1, 2}, Val: []int{3}, Test: []int{4}}}
}

func TestValidateLabelsAndSplits(t *testing.T) {
	if err := validNodeSet().Validate(); err != nil {
		t.Fatal(err)
	}
	noTest := validNodeSet()
	noTest.Split.Test = nil
	if err := noTest.Validate(); err != nil {
		t.Errorf("no test split: %v (Validate allows an empty test split)", err)
	}
	graphSet := &Dataset{Name: "g", Task: GraphClassification, NumClasses: 2,
		Graphs: []Graph{{NumNodes: 1, Label: 1}, {NumNodes: 1}, {NumNodes: 2, Label: 2}},
		Split:  Split{Train: []int{0}, Val: []int{1}, Test: []int{2}}}
	for _, tc := range []struct {
		name   string
		d      *Dataset
		change func(d *Dataset)
		want   []string
	}{
		{"label = NumClasses", validNodeSet(), func(d *Dataset) { d.Graphs[0].NodeLabels[2] = 3 }, []string{`"v"`, "node 2 label 3", "[0, 3)"}},
		{"label −2", validNodeSet(), func(d *Dataset) { d.Graphs[0].NodeLabels[4] = -2 }, []string{"node 4 label -2"}},
		{"unlabelled node in a split", validNodeSet(), func(d *Dataset) { d.Graphs[0].NodeLabels[4] = Unlabelled },
			[]string{"split holds node 4", "unlabelled"}},
		{"graph label = NumClasses", graphSet, func(*Dataset) {}, []string{`"g"`, "graph 2", "label 2", "[0, 2)"}},
		{"NumClasses > MaxClasses", validNodeSet(), func(d *Dataset) { d.NumClasses = MaxClasses + 1 }, []string{"100001 classes", "MaxClasses = 100000"}},
		{"no classes", validNodeSet(), func(d *Dataset) { d.NumClasses = 0 }, []string{"0 classes"}},
		{"overlap", validNodeSet(), func(d *Dataset) { d.Split.Test = []int{4, 1} },
			[]string{"node index 1", "train split (position 1)", "test split (position 1)", "must not overlap"}},
		{"repeat", validNodeSet(), func(d *Dataset) { d.Split.Val = []int{3, 3} },
			[]string{"val split", "node index 3 appears twice", "positions 0 and 1"}},
		{"empty train", validNodeSet(), func(d *Dataset) { d.Split.Train = nil }, []string{"train split is empty"}},
		{"empty val", validNodeSet(), func(d *Dataset) { d.Split.Val = []int{} }, []string{"val split is empty"}},
		{"zero feature columns", validNodeSet(), func(d *Dataset) {
			d.Graphs[0].Node = Features{Kind: Dense, Rows: 5, Cols: 0}
		}, []string{"node features", "0 columns", "at least one"}},
		{"zero edge feature columns", validNodeSet(), func(d *Dataset) {
			d.Graphs[0].Edge = Features{Kind: Sparse, Rows: 2, Cols: 0, Indptr: []int64{0, 0, 0}}
		}, []string{"edge features", "0 columns"}},
	} {
		tc.change(tc.d)
		wantError(t, tc.name, tc.d.Validate(), tc.want...)
	}
}

// TestHeaderRule: a UTF-8 byte order mark is dropped, and a first row is a header only
// when none of its fields is a number.
func TestHeaderRule(t *testing.T) {
	wantNodes := []int32{1, 0, 1, 2}
	wantFeat := []float32{0.5, 2, 0, 1000}
	for _, tc := range []struct{ name, nodes string }{
		{"BOM, no header", "\uFEFF1,0.5\n0,2\n1,0\n2,1e3\n"},
		{"BOM and header", "\uFEFFlabel,f1\n1,0.5\n0,2\n1,0\n2,1e3\n"},
		{"BOM before a comment", "\uFEFF# nodes\nclass , x\n1,0.5\n0,2\n1,0\n2,1e3\n"},
		{"compressed with BOM", "\uFEFF1,0.5\n0,2\n1,0\n2,1e3\n"},
	} {
		files := edgeListWith(map[string]string{"nodes.csv": tc.nodes})
		if strings.HasPrefix(tc.name, "compressed") {
			delete(files, "nodes.csv")
			files["nodes.csv.gz"] = tc.nodes
		}
		d, err := LoadEdgeListDir(writeEdgeListDir(t, files), LoadOptions{Seed: 1})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if g := d.Graphs[0]; !reflect.DeepEqual(g.NodeLabels, wantNodes) || !reflect.DeepEqual(g.Node.Dense, wantFeat) {
			t.Errorf("%s: labels %v features %v, want %v %v", tc.name, g.NodeLabels, g.Node.Dense, wantNodes, wantFeat)
		}
	}
	// Edges and split files: a BOM with and without a header.
	d, err := LoadEdgeListDir(writeEdgeListDir(t, edgeListWith(map[string]string{
		"edges.csv": "\uFEFF0,1\n1,2\n", "train.csv": "\uFEFF0\n1\n", "val.csv": "\uFEFFnode\n2\n", "test.csv": "id\n3\n",
	})), LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if g := d.Graphs[0]; len(g.Src) != 4 || g.Edge.Kind != NoFeatures ||
		!reflect.DeepEqual(d.Split, Split{Train: []int{0, 1}, Val: []int{2}, Test: []int{3}}) {
		t.Errorf("edges %v→%v, split %+v", g.Src, g.Dst, d.Split)
	}
	// First rows that mix numbers and text, and text in later rows.
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"text label first", map[string]string{"nodes.csv": "x,1,2\n0,1,2\n"}, []string{"nodes.csv:1", "node 0", "field 1", `"x"`, "mixes numbers and text"}},
		{"BOM and text label", map[string]string{"nodes.csv": "\uFEFFcat,1,2\n0,1,2\n"}, []string{"nodes.csv:1", `"cat"`, "mixes numbers and text"}},
		{"half header", map[string]string{"nodes.csv": "label,0\n1,1\n"}, []string{"nodes.csv:1", `"label"`, "not a header"}},
		{"text feature first", map[string]string{"nodes.csv": "0,n/a\n1,1\n"}, []string{"nodes.csv:1", "field 2", `"n/a"`, "mixes numbers and text"}},
		{"fractional label", map[string]string{"nodes.csv": "1,0\n1.5,1\n"}, []string{"nodes.csv:2", "node 1", "field 1", `"1.5"`}},
		{"second header", map[string]string{"nodes.csv": "label,f\nlabel,f\n1,0\n"}, []string{"nodes.csv:2", `"label"`}},
		{"edges half header", map[string]string{"edges.csv": "src,1\n0,1\n"}, []string{"edges.csv:1", "field 1", `"src"`, "mixes numbers and text"}},
		{"split half header", mergeFiles(splitFiles, map[string]string{"val.csv": "node,2\n"}), []string{"val.csv:1", "2 fields", "mixes numbers and text"}},
		{"UTF-16", map[string]string{"nodes.csv": "\xff\xfe1\x000\x00\n"}, []string{"nodes.csv", "UTF-16", "UTF-8"}},
	} {
		d, err := LoadEdgeListDir(writeEdgeListDir(t, edgeListWith(tc.files)), LoadOptions{Seed: 1})
		if d != nil {
			t.Errorf("%s: data set returned", tc.name)
		}
		wantError(t, tc.name, err, tc.want...)
	}
	// OGB files without headers take a BOM as well.
	d, err = LoadOGBNode(writeOGB(t, map[string]string{"raw/node-label.csv.gz": "\uFEFF2\n0\n1\n2\n0\n", "raw/edge.csv.gz": "\uFEFF0,1\n"}), LoadOptions{})
	if err != nil || !reflect.DeepEqual(d.Graphs[0].NodeLabels, []int32{2, 0, 1, 2, 0}) || len(d.Graphs[0].Src) != 2 {
		t.Errorf("OGB with BOMs: %v", err)
	}
}

// TestSplitChecks: split files that overlap, repeat a node or are empty are refused, at
// load (naming the files and lines) and by Validate.
func TestSplitChecks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		split map[string]string
		want  []string
	}{
		{"train/test overlap", map[string]string{"test.csv": "3\n1\n"},
			[]string{"test.csv:2", "node 1", "also in the train split", "train.csv:2", "must not overlap"}},
		{"val/test overlap", map[string]string{"val.csv": "2\n", "test.csv": "3\n# again\n2\n"},
			[]string{"test.csv:3", "node 2", "val split", "val.csv:1"}},
		{"repeated row", map[string]string{"train.csv": "0\n1\n\n0\n"}, []string{"train.csv:4", "node 0 repeats line 1"}},
		{"empty train", map[string]string{"train.csv": ""}, []string{"train.csv", "split is empty"}},
		{"empty val", map[string]string{"val.csv": "# none\n"}, []string{"val.csv", "split is empty"}},
		{"empty test", map[string]string{"test.csv": "node\n"}, []string{"test.csv", "split is empty", "empty test split would report a test metric of 0"}},
	} {
		d, err := LoadEdgeListDir(writeEdgeListDir(t, mergeFiles(tinyEdgeList, splitFiles, tc.split)), LoadOptions{Seed: 1})
		if d != nil {
			t.Errorf("%s: data set returned", tc.name)
		}
		wantError(t, tc.name, err, tc.want...)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"overlap", map[string]string{"split/time/valid.csv.gz": "2\n0\n"}, []string{"valid.csv.gz:2", "node 0", "train split", "train.csv.gz:1"}},
		{"repeat", map[string]string{"split/time/train.csv.gz": "0\n1\n4\n1\n"}, []string{"train.csv.gz:4", "node 1 repeats line 2"}},
		{"empty test", map[string]string{"split/time/test.csv.gz": ""}, []string{"test.csv.gz", "split is empty", "test metric of 0"}},
	} {
		d, err := LoadOGBNode(writeOGB(t, tc.files), LoadOptions{})
		if d != nil {
			t.Errorf("ogb %s: data set returned", tc.name)
		}
		wantError(t, "ogb "+tc.name, err, tc.want...)
	}
	// Random splits of tiny graphs: 3 and 4 nodes give every part a node; 2 nodes cannot.
	for n, want := range map[int][3]int{1: {0, 0, 1}, 2: {1, 0, 1}, 3: {1, 1, 1}, 4: {2, 1, 1}, 5: {3, 1, 1}, 9: {5, 1, 3}} {
		s, err := RandomSplit(n, 0.6, 0.2, 3)
		if err != nil || [3]int{len(s.Train), len(s.Val), len(s.Test)} != want {
			t.Errorf("RandomSplit(%d): %d/%d/%d, want %v (%v)", n, len(s.Train), len(s.Val), len(s.Test), want, err)
		}
		all := slices.Sorted(slices.Values(slices.Concat(s.Train, s.Val, s.Test)))
		for i, v := range all {
			if v != i {
				t.Errorf("RandomSplit(%d) is no partition: %+v", n, s)
				break
			}
		}
	}
	if s, _ := RandomSplit(4, 0.5, 0.5, 1); len(s.Test) != 0 {
		t.Errorf("RandomSplit 50/50/0 gave a test part: %+v", s)
	}
	if s, _ := RandomSplit(3, 0, 0.5, 1); len(s.Train) != 0 || len(s.Val) != 1 || len(s.Test) != 2 {
		t.Errorf("RandomSplit 0/50/50 of 3: %+v", s)
	}
	d, err := LoadEdgeListDir(writeEdgeListDir(t, map[string]string{"nodes.csv": "0\n1\n", "edges.csv": "0,1\n"}), LoadOptions{Seed: 1})
	if d != nil {
		t.Error("2 nodes split at random: data set returned")
	}
	wantError(t, "2 nodes split at random", err, "mygraph", "val split is empty")
}

// TestEmptyFeaturesAndEdges: a graph without edges loads; a feature matrix without
// columns, a graph without nodes and a short edge row do not.
func TestEmptyFeaturesAndEdges(t *testing.T) {
	for _, edges := range []string{"", "# none\n", "src,dst,weight\n"} {
		d, err := LoadEdgeListDir(writeEdgeListDir(t, mergeFiles(tinyEdgeList, splitFiles, map[string]string{"edges.csv": edges})), LoadOptions{Seed: 1})
		if err != nil {
			t.Errorf("edges.csv %q: %v", edges, err)
			continue
		}
		if g := d.Graphs[0]; g.NumNodes != 4 || len(g.Src) != 0 || len(g.Dst) != 0 || g.Edge.Kind != NoFeatures || g.Node.Cols != 2 {
			t.Errorf("edges.csv %q: %+v", edges, g)
		}
	}
	d, err := LoadOGBNode(writeOGB(t, map[string]string{"raw/edge.csv.gz": ""}), LoadOptions{})
	if err != nil || len(d.Graphs[0].Src) != 0 || d.Graphs[0].NumNodes != 5 {
		t.Errorf("OGB without edges: %v", err)
	}

	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"one field first", map[string]string{"edges.csv": "5\n0,1\n"}, []string{"edges.csv:1", "1 fields, want source,destination"}},
		{"one field later", map[string]string{"edges.csv": "src,dst\n0,1\n\n3\n"}, []string{"edges.csv:4", "1 fields"}},
		{"empty second field", map[string]string{"edges.csv": "0,\n"}, []string{"edges.csv:1", "field 2", `""`}},
		{"header only nodes", map[string]string{"nodes.csv": "label,f1\n"}, []string{"nodes.csv", "no nodes", "at least one node"}},
	} {
		d, err := LoadEdgeListDir(writeEdgeListDir(t, edgeListWith(tc.files)), LoadOptions{Seed: 1})
		if d != nil {
			t.Errorf("%s: data set returned", tc.name)
		}
		wantError(t, tc.name, err, tc.want...)
	}
	d, err = LoadOGBNode(writeOGB(t, map[string]string{"raw/node-feat.csv.gz": "# no rows\n"}), LoadOptions{})
	if d != nil {
		t.Error("OGB empty feature file: data set returned")
	}
	wantError(t, "OGB empty feature file", err, "node-feat.csv.gz", "no feature rows", "remove the file")

	// npz: a feature matrix of no columns; a graph without edges (its largest component a
	// single node, too small to split); a graph without nodes.
	zeros := npyOf(make([]int32, 8))
	noCols := replaced(replaced(replaced(replaced(tinyGNN(), "attr_shape", npyOf([]int64{7, 0})),
		"attr_indptr", zeros), "attr_indices", npyOf([]int32{})), "attr_data", npyOf([]float32{}))
	noEdges := replaced(replaced(replaced(tinyGNN(), "adj_indptr", zeros), "adj_indices", npyOf([]int32{})), "adj_data", npyOf([]float32{}))
	for _, tc := range []struct {
		name    string
		entries []npzEntry
		want    []string
	}{
		{"no feature columns", noCols, []string{"attr_shape", "7×0", "no columns"}},
		{"no edges", noEdges, []string{"largest connected component has 1 node(s)", "0 undirected edges", "too few"}},
	} {
		path := writeTemp(t, "x.npz", zipBytes(false, tc.entries...))
		d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 1})
		if d != nil {
			t.Errorf("npz %s: data set returned", tc.name)
		}
		wantError(t, "npz "+tc.name, err, append(tc.want, path)...)
	}
}

// FuzzReadEdgeListNodes: the nodes.csv reader never panics, and what it accepts is a
// valid graph's labels and features.
func FuzzReadEdgeListNodes(f *testing.F) {
	f.Add([]byte("label,f1,f2\n1,0.5,1\n0,2,-3\n1,0,0\n2,1e3,4\n"))
	f.Add([]byte("\uFEFF0\n1\n1\n0\n"))
	f.Add([]byte("\uFEFFlabel\n# c\n\n2\n0\n1\n"))
	f.Add([]byte("x,1,2\n0,1,2\n"))
	f.Add([]byte("2147483647,1\n0,1\n"))
	f.Add([]byte("1.0,nan\n"))
	f.Add([]byte("\xff\xfe1\x00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		nt, err := readNodeCSV(bytes.NewReader(data), "nodes.csv")
		if err != nil {
			return
		}
		n := len(nt.labels)
		numClasses := 0
		for i, y := range nt.labels {
			if y < 0 || int(y) >= n || y >= MaxClasses {
				t.Fatalf("node %d: label %d accepted for %d nodes", i, y, n)
			}
			numClasses = max(numClasses, int(y)+1)
		}
		if nt.feat.Kind != NoFeatures && (nt.feat.Kind != Dense || nt.feat.Cols < 1) {
			t.Fatalf("features %+v", nt.feat)
		}
		g := Graph{NumNodes: n, NodeLabels: nt.labels, Node: nt.feat}
		if err := g.Validate(); err != nil {
			t.Fatalf("accepted nodes make an invalid graph: %v", err)
		}
		if n >= 3 {
			split, err := RandomSplit(n, 0.6, 0.2, 1)
			if err != nil {
				t.Fatal(err)
			}
			d := Dataset{Name: "fuzz", Task: NodeClassification, NumClasses: numClasses, Transductive: true, Graphs: []Graph{g}, Split: split}
			if err := d.Validate(); err != nil {
				t.Fatalf("accepted nodes make an invalid data set: %v", err)
			}
		}
	})
}

// FuzzReadSplitFile: the split file reader never panics, and what it accepts is a
// non-empty list of distinct node indices in [0, n), each with its increasing line.
func FuzzReadSplitFile(f *testing.F) {
	f.Add([]byte("0\n2\n"), uint16(4))
	f.Add([]byte("\uFEFFnode\n# c\n\n3\n1\n"), uint16(4))
	f.Add([]byte("0\n1\n0\n"), uint16(2))
	f.Add([]byte(""), uint16(1))
	f.Add([]byte("node,1\n"), uint16(3))
	f.Add([]byte("70\n64\n63\n"), uint16(128))
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		n := int(size % 1024)
		sf, err := readSplitFile(bytes.NewReader(data), "split.csv", n)
		if err != nil {
			return
		}
		if len(sf.idx) == 0 || len(sf.lines) != len(sf.idx) || sf.name != "split.csv" {
			t.Fatalf("%d indices, %d lines", len(sf.idx), len(sf.lines))
		}
		seen := map[int]bool{}
		for k, i := range sf.idx {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("index %d (n = %d) accepted, repeated: %v", i, n, seen[i])
			}
			seen[i] = true
			if sf.lines[k] < 1 || (k > 0 && sf.lines[k] <= sf.lines[k-1]) {
				t.Fatalf("lines %v", sf.lines)
			}
		}
		s := Split{Train: sf.idx, Val: []int{n}, Test: []int{}}
		if err := s.validate(n+1, "node", true); err != nil {
			t.Fatalf("accepted split file fails validation: %v", err)
		}
	})
}

// Label -1 marks an unlabelled node: it stays in the graph, the random split leaves it
// out (drawing from the labelled nodes only), and a split file naming it is refused.
func TestUnlabelledNodesStayOutOfTheSplits(t *testing.T) {
	var nodes strings.Builder
	for v := range 40 {
		y := v % 3
		if v%4 == 1 {
			y = -1
		}
		fmt.Fprintf(&nodes, "%d,%d\n", y, v)
	}
	d, err := LoadEdgeListDir(writeEdgeListDir(t, edgeListWith(map[string]string{"nodes.csv": nodes.String()})), LoadOptions{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if d.Graphs[0].NumNodes != 40 || d.NumClasses != 3 {
		t.Fatalf("%d nodes, %d classes; want 40 and 3", d.Graphs[0].NumNodes, d.NumClasses)
	}
	total := 0
	for _, part := range [][]int{d.Split.Train, d.Split.Val, d.Split.Test} {
		for _, v := range part {
			if v%4 == 1 {
				t.Errorf("unlabelled node %d in a split", v)
			}
			total++
		}
	}
	if total != 30 {
		t.Errorf("the splits hold %d nodes, want the 30 labelled ones", total)
	}
	files := edgeListWith(map[string]string{"nodes.csv": nodes.String(), "train.csv": "0\n2\n", "val.csv": "3\n", "test.csv": "1\n"})
	_, err = LoadEdgeListDir(writeEdgeListDir(t, files), LoadOptions{Seed: 3})
	wantError(t, "split file naming an unlabelled node", err, "test split holds node 1", "unlabelled")
}

// LabelledSplit splits the labelled nodes only, and equals RandomSplit when every node
// is labelled.
func TestLabelledSplitLeavesUnlabelledNodesOut(t *testing.T) {
	labels := make([]int32, 50)
	for v := range labels {
		labels[v] = int32(v % 3)
	}
	all, err := LabelledSplit(labels, 0.6, 0.2, 9)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := RandomSplit(50, 0.6, 0.2, 9); !reflect.DeepEqual(all, want) {
		t.Errorf("all labelled: %v, want RandomSplit's %v", all, want)
	}
	for v := 0; v < 50; v += 5 {
		labels[v] = Unlabelled
	}
	s, err := LabelledSplit(labels, 0.6, 0.2, 9)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, part := range [][]int{s.Train, s.Val, s.Test} {
		for _, v := range part {
			if labels[v] == Unlabelled {
				t.Errorf("unlabelled node %d in a split", v)
			}
			n++
		}
	}
	if n != 40 {
		t.Errorf("%d nodes in the splits, want the 40 labelled", n)
	}
}
