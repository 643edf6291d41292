package data

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// collect returns LoadOptions whose Warn appends to *msgs.
func collect(msgs *[]string, o LoadOptions) LoadOptions {
	o.Warn = func(m string) { *msgs = append(*msgs, m) }
	return o
}

// TestNPZByPathIsReadAsGiven loads the tiny npz (7 nodes, components {0,1,2,3}, {4,5},
// {6}; feature counts 0.5 … 6) by path: every node, the stored feature values and no
// transform; the same file by name is binarised and cut to its largest component.
func TestNPZByPathIsReadAsGiven(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "gnn-benchmark"), 0o755)
	path := filepath.Join(root, "gnn-benchmark", "cora.npz")
	if err := os.WriteFile(path, zipBytes(false, tinyGNN()...), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load("npz:"+path, LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graphs[0]
	if g.NumNodes != 7 || g.NodeIDs != nil || len(d.Transforms) != 0 {
		t.Errorf("by path: %d nodes, ids %v, transforms %v; want 7 nodes as given", g.NumNodes, g.NodeIDs, d.Transforms)
	}
	// Node v stores v in column 0 and v/2 in column 2 (node 0's zeros left out).
	if want := []float32{1, 0.5, 2, 1, 3, 1.5, 4, 2, 5, 2.5, 6, 3}; !reflect.DeepEqual(g.Node.Values, want) {
		t.Errorf("by path: feature values %v, want the stored %v", g.Node.Values, want)
	}
	named, err := Load("cora", LoadOptions{DataDir: root, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantT := []string{TransformBinaryFeatures, "largest-component (kept 4 of 7 nodes)"}
	if named.Graphs[0].NumNodes != 4 || !reflect.DeepEqual(named.Transforms, wantT) || !reflect.DeepEqual(named.Stats().Transforms, wantT) {
		t.Errorf("by name: %d nodes, transforms %v; want 4 nodes and %v", named.Graphs[0].NumNodes, named.Transforms, wantT)
	}
}

// TestNPZByPathOptInTransforms asks for both transforms by path and gets what the named
// set gets, with the transforms recorded and the kept nodes' original ids.
func TestNPZByPathOptInTransforms(t *testing.T) {
	path := writeTemp(t, "mine.npz", zipBytes(false, tinyGNN()...))
	d, err := Load("npz:"+path, LoadOptions{Seed: 1, BinaryFeatures: true, LargestComponent: true})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := LoadGNNBenchmark(path, LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Graphs, ref.Graphs) || !reflect.DeepEqual(d.Split, ref.Split) {
		t.Error("npz: with BinaryFeatures and LargestComponent differs from LoadGNNBenchmark")
	}
	g := d.Graphs[0]
	if !reflect.DeepEqual(g.NodeIDs, []int64{0, 1, 2, 3}) || !reflect.DeepEqual(g.Node.Values, []float32{1, 1, 1, 1, 1, 1}) {
		t.Errorf("ids %v, values %v", g.NodeIDs, g.Node.Values)
	}
	if want := []string{TransformBinaryFeatures, "largest-component (kept 4 of 7 nodes)"}; !reflect.DeepEqual(d.Transforms, want) {
		t.Errorf("transforms %v, want %v", d.Transforms, want)
	}
}

// twoComponents is an edge list of 7 nodes: the pair {0,1}, the path 2–3–4–5 (the
// largest component) and the isolated node 6, with counts as features.
var twoComponents = map[string]string{
	"nodes.csv": "label,count\n0,3\n1,0\n0,7\n1,2\n0,0\n1,5\n0,1\n",
	"edges.csv": "0,1\n2,3\n3,4\n4,5\n",
}

func TestEdgeListReadAsGivenUnlessAsked(t *testing.T) {
	dir := writeEdgeListDir(t, twoComponents)
	d, err := Load("edgelist:"+dir, LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graphs[0]
	if g.NumNodes != 7 || g.NodeIDs != nil || len(d.Transforms) != 0 || !reflect.DeepEqual(g.Node.Dense, []float32{3, 0, 7, 2, 0, 5, 1}) {
		t.Errorf("as given: %d nodes, ids %v, transforms %v, features %v", g.NumNodes, g.NodeIDs, d.Transforms, g.Node.Dense)
	}
	d, err = Load("edgelist:"+dir, LoadOptions{Seed: 1, BinaryFeatures: true, LargestComponent: true})
	if err != nil {
		t.Fatal(err)
	}
	g = d.Graphs[0]
	if g.NumNodes != 4 || !reflect.DeepEqual(g.NodeIDs, []int64{2, 3, 4, 5}) || !reflect.DeepEqual(g.Node.Dense, []float32{1, 1, 0, 1}) {
		t.Errorf("asked: %d nodes, ids %v, features %v; want nodes 2…5, binary", g.NumNodes, g.NodeIDs, g.Node.Dense)
	}
	if want := []string{TransformBinaryFeatures, "largest-component (kept 4 of 7 nodes)"}; !reflect.DeepEqual(d.Transforms, want) {
		t.Errorf("transforms %v, want %v", d.Transforms, want)
	}
}

func TestEdgeListLargestComponentRenumbersSplitFiles(t *testing.T) {
	files := mergeFiles(twoComponents, map[string]string{"train.csv": "2\n3\n0\n", "val.csv": "4\n", "test.csv": "5\n6\n"})
	var warns []string
	d, err := Load("edgelist:"+writeEdgeListDir(t, files), collect(&warns, LoadOptions{LargestComponent: true}))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Split{Train: []int{0, 1}, Val: []int{2}, Test: []int{3}}); !reflect.DeepEqual(d.Split, want) {
		t.Errorf("split %+v, want %+v", d.Split, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "2 nodes of the split files are outside the largest connected component") {
		t.Errorf("warnings %q, want one saying 2 split nodes were left out", warns)
	}
	files["val.csv"] = "1\n"
	_, err = Load("edgelist:"+writeEdgeListDir(t, files), LoadOptions{LargestComponent: true})
	wantError(t, "val split outside the component", err, "val.csv", "largest connected component")
}

func TestWarnsOfIDColumnAsLabels(t *testing.T) {
	var warns []string
	// An id column before the label: the "labels" are the row numbers 0…5.
	dir := writeEdgeListDir(t, map[string]string{
		"nodes.csv": "id,label\n0,1\n1,0\n2,1\n3,0\n4,1\n5,0\n", "edges.csv": "0,1\n1,2\n2,3\n3,4\n4,5\n"})
	if _, err := Load("edgelist:"+dir, collect(&warns, LoadOptions{})); err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], filepath.Join(dir, "nodes.csv")) || !strings.Contains(warns[0], "permutation of the node ids 0…5") {
		t.Errorf("warnings %q, want one naming nodes.csv and the permutation", warns)
	}
	warns = nil
	dir = writeEdgeListDir(t, map[string]string{
		"nodes.csv": "2\n-1\n0\n-1\n1\n-1\n", "edges.csv": "0,1\n1,2\n2,3\n3,4\n4,5\n",
		"train.csv": "0\n", "val.csv": "2\n", "test.csv": "4\n"})
	if _, err := Load("edgelist:"+dir, collect(&warns, LoadOptions{})); err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "as many classes (3) as labelled nodes (3)") {
		t.Errorf("warnings %q, want one on 3 classes for 3 labelled nodes", warns)
	}
	warns = nil
	if _, err := Load("edgelist:"+writeEdgeListDir(t, twoComponents), collect(&warns, LoadOptions{})); err != nil || len(warns) != 0 {
		t.Errorf("two classes on 7 nodes: %v, warnings %q; want none", err, warns)
	}
	warns = nil
	path := writeTemp(t, "ids.npz", zipBytes(false, replaced(tinyGNN(), "labels", npyOf([]int64{3, 1, 0, 2, 6, 5, 4}))...))
	if _, err := Load("npz:"+path, collect(&warns, LoadOptions{Seed: 1})); err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "entry labels") || !strings.Contains(warns[0], "permutation") {
		t.Errorf("npz warnings %q, want one on the labels entry", warns)
	}
}

func TestEdgeListBothDirectionsCollapsedWithWarning(t *testing.T) {
	var warns []string
	// A PyG edge_index dump: every edge in both directions, once more repeated.
	dir := writeEdgeListDir(t, map[string]string{"nodes.csv": "0\n1\n0\n1\n",
		"edges.csv": "0,1\n1,0\n1,2\n2,1\n2,3\n3,2\n0,1\n3,3\n"})
	d, err := Load("edgelist:"+dir, collect(&warns, LoadOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graphs[0]
	wantSrc, wantDst := []int32{0, 1, 1, 2, 2, 3, 3}, []int32{1, 0, 2, 1, 3, 2, 3}
	if !reflect.DeepEqual(g.Src, wantSrc) || !reflect.DeepEqual(g.Dst, wantDst) {
		t.Errorf("edges %v→%v, want each once per direction %v→%v", g.Src, g.Dst, wantSrc, wantDst)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "edges.csv: 4 of 8 rows repeat an edge") {
		t.Errorf("warnings %q, want one counting 4 repeated rows of edges.csv", warns)
	}
	// The same pair with other features is a parallel edge: kept, and said so.
	warns = nil
	dir = writeEdgeListDir(t, map[string]string{"nodes.csv": "0\n1\n0\n1\n0\n", "edges.csv": "0,1,0.5\n1,0,0.5\n1,0,2\n"})
	if d, err = Load("edgelist:"+dir, collect(&warns, LoadOptions{})); err != nil {
		t.Fatal(err)
	}
	if got := d.Graphs[0].Edge.Dense; !reflect.DeepEqual(got, []float32{0.5, 0.5, 2, 2}) {
		t.Errorf("edge features %v, want the pair once with 0.5 and once with 2", got)
	}
	if len(warns) != 2 || !strings.Contains(warns[1], "1 rows repeat a node pair listed before with other edge features") {
		t.Errorf("warnings %q, want a repeat and a parallel edge", warns)
	}
}

func TestAbsoluteSpec(t *testing.T) {
	wd, _ := os.Getwd()
	for in, want := range map[string]string{
		"edgelist:graphs/mine": "edgelist:" + filepath.Join(wd, "graphs", "mine"),
		"npz:/data/x.npz":      "npz:/data/x.npz",
		"Cora":                 "cora",
		"planted:1000":         "planted:1000",
	} {
		if got := AbsoluteSpec(in); got != want {
			t.Errorf("AbsoluteSpec(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTransformsRefusedWhereTheyDoNotApply(t *testing.T) {
	_, err := Load("pattern", LoadOptions{LargestComponent: true})
	wantError(t, "largest component of PATTERN", err, `"pattern"`, "npz:PATH and edgelist:DIR")
	_, err = Load("ogb:/nowhere", LoadOptions{BinaryFeatures: true})
	wantError(t, "binary features of ogb:", err, "ogb:/nowhere", "-binary-features")
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "gnn-benchmark"), 0o755)
	os.WriteFile(filepath.Join(root, "gnn-benchmark", "cora.npz"), zipBytes(false, tinyGNN()...), 0o644)
	if _, err := Load("cora", LoadOptions{DataDir: root, BinaryFeatures: true, LargestComponent: true}); err != nil {
		t.Errorf("cora, which applies both anyway: %v", err)
	}
}
