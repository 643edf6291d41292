package data

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/internal/npytest"
	"github.com/gexph/gexph/data/npy"
)

// Shorthands for the .npy writers of npytest.
var (
	npyBytes = npytest.NPY
	npyOf    = npytest.Of
)

// npzEntry is one member of an archive written by zipBytes.
type npzEntry struct {
	name string
	data []byte
}

// zipBytes writes a zip archive of the entries (stored, or deflated when compress is set).
func zipBytes(compress bool, entries ...npzEntry) []byte {
	members := make([]npytest.Entry, len(entries))
	for i, e := range entries {
		members[i] = npytest.Entry{Name: e.name, Data: e.data}
	}
	return npytest.Zip(compress, members...)
}

// TestLoadGNNBenchmarkPaperCounts checks the node and edge counts of the paper's Table 7
// (largest connected component, undirected edges counted once) and feature/class counts.
func TestLoadGNNBenchmarkPaperCounts(t *testing.T) {
	for _, tc := range []struct {
		file                     string
		nodes, edges, feat, clss int
	}{
		{"gnn-benchmark/amazon-computers.zip", 13381, 245778, 767, 10},
		{"gnn-benchmark/coauthor-cs.zip", 18333, 81894, 6805, 15},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			path := sharedData(t, tc.file)
			d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			g := &d.Graphs[0]
			if g.NumNodes != tc.nodes || len(g.Src) != 2*tc.edges {
				t.Errorf("got %d nodes, %d directed edges; want %d, %d", g.NumNodes, len(g.Src), tc.nodes, 2*tc.edges)
			}
			if g.Node.Cols != tc.feat || d.NumClasses != tc.clss {
				t.Errorf("got %d features, %d classes; want %d, %d", g.Node.Cols, d.NumClasses, tc.feat, tc.clss)
			}
			// Binary features, as PyG reads them (CS stores keyword counts).
			for i, v := range g.Node.Values {
				if v != 1 {
					t.Fatalf("feature value %d is %v, want 1", i, v)
				}
			}
			if len(g.Node.Values) == 0 {
				t.Error("no feature values")
			}
			checkSimpleUndirected(t, g)
			_, sizes, err := ConnectedComponents(g.NumNodes, g.Src, g.Dst)
			if err != nil || len(sizes) != 1 {
				t.Errorf("graph has %d components (%v), want 1", len(sizes), err)
			}
			s := d.Split
			if len(s.Train) != g.NumNodes*6/10 || len(s.Val) != g.NumNodes*2/10 || len(s.Train)+len(s.Val)+len(s.Test) != g.NumNodes {
				t.Errorf("split sizes %d/%d/%d for %d nodes", len(s.Train), len(s.Val), len(s.Test), g.NumNodes)
			}
		})
	}
}

// checkSimpleUndirected asserts that the edges are sorted, free of loops and duplicates,
// and that every edge's reverse is present.
func checkSimpleUndirected(t *testing.T, g *Graph) {
	t.Helper()
	type edge struct{ u, v int32 }
	set := make(map[edge]bool, len(g.Src))
	for i := range g.Src {
		u, v := g.Src[i], g.Dst[i]
		if u == v {
			t.Fatalf("self loop at edge %d (node %d)", i, u)
		}
		if i > 0 && (g.Src[i-1] > u || (g.Src[i-1] == u && g.Dst[i-1] >= v)) {
			t.Fatalf("edges not strictly sorted at %d", i)
		}
		set[edge{u, v}] = true
	}
	for e := range set {
		if !set[edge{e.v, e.u}] {
			t.Fatalf("edge %d→%d lacks its reverse", e.u, e.v)
		}
	}
}

// tinyGNN returns the npz entries of a 7-node graph in the gnn-benchmark layout:
// directed edges 0→1 (twice), 1→2, 2→0, 3→3, 3→1, 4→5, node 6 isolated; 3 features
// per node, row v = (v, 0, v/2); labels 0 1 2 1 0 3 2; plus a pickled class_names entry.
func tinyGNN() []npzEntry {
	adj := [][]int32{{1, 1}, {2}, {0}, {3, 1}, {5}, {}, {}}
	var indptr, indices []int32
	var data []float32
	indptr = append(indptr, 0)
	for _, row := range adj {
		for _, v := range row {
			indices, data = append(indices, v), append(data, 1)
		}
		indptr = append(indptr, int32(len(indices)))
	}
	var aIndptr, aIndices []int32
	var aData []float32
	aIndptr = append(aIndptr, 0)
	for v := range 7 {
		for c, x := range []float32{float32(v), 0, float32(v) / 2} {
			if x != 0 {
				aIndices, aData = append(aIndices, int32(c)), append(aData, x)
			}
		}
		aIndptr = append(aIndptr, int32(len(aIndices)))
	}
	return []npzEntry{
		{"adj_data.npy", npyOf(data)},
		{"adj_indices.npy", npyOf(indices)},
		{"adj_indptr.npy", npyOf(indptr)},
		{"adj_shape.npy", npyOf([]int64{7, 7})},
		{"attr_data.npy", npyOf(aData)},
		{"attr_indices.npy", npyOf(aIndices)},
		{"attr_indptr.npy", npyOf(aIndptr)},
		{"attr_shape.npy", npyOf([]int64{7, 3})},
		{"labels.npy", npyOf([]int64{0, 1, 2, 1, 0, 3, 2})},
		{"class_names.npy", npyBytes("|O", false, []int{4}, []byte("\x80\x02cnumpy pickle"))},
	}
}

// replaced returns entries with the one named name replaced by data (dropped when nil).
func replaced(entries []npzEntry, name string, data []byte) []npzEntry {
	var out []npzEntry
	for _, e := range entries {
		if e.name == name+".npy" {
			if data == nil {
				continue
			}
			e.data = data
		}
		out = append(out, e)
	}
	return out
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadGNNBenchmarkTiny(t *testing.T) {
	npz := zipBytes(false, tinyGNN()...)
	plain := writeTemp(t, "tiny.npz", npz)
	nested := writeTemp(t, "tiny.zip", zipBytes(true, npzEntry{"tiny.npz", zipBytes(true, tinyGNN()...)}))
	var first *Dataset
	for _, path := range []string{plain, nested} {
		d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 5})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		g := d.Graphs[0]
		// Largest component {0, 1, 2, 3}; undirected edges {0,1} {0,2} {1,2} {1,3}.
		wantSrc := []int32{0, 0, 1, 1, 1, 2, 2, 3}
		wantDst := []int32{1, 2, 0, 2, 3, 0, 1, 1}
		if g.NumNodes != 4 || !reflect.DeepEqual(g.Src, wantSrc) || !reflect.DeepEqual(g.Dst, wantDst) {
			t.Errorf("%s: %d nodes, edges %v→%v", path, g.NumNodes, g.Src, g.Dst)
		}
		if !reflect.DeepEqual(g.NodeLabels, []int32{0, 1, 2, 1}) || d.NumClasses != 4 || !d.Transductive {
			t.Errorf("%s: labels %v, %d classes", path, g.NodeLabels, d.NumClasses)
		}
		// The stored values 1, 0.5, 2, 1, 3, 1.5 are made binary, as PyG reads them.
		want := Features{Kind: Sparse, Rows: 4, Cols: 3, Indptr: []int64{0, 0, 2, 4, 6},
			Indices: []int32{0, 2, 0, 2, 0, 2}, Values: []float32{1, 1, 1, 1, 1, 1}}
		if !reflect.DeepEqual(g.Node, want) {
			t.Errorf("%s: features %+v, want %+v", path, g.Node, want)
		}
		if first == nil {
			first = d
			if d.Name != "tiny" {
				t.Errorf("name %q, want tiny", d.Name)
			}
		} else if !reflect.DeepEqual(first.Graphs, d.Graphs) || !reflect.DeepEqual(first.Split, d.Split) {
			t.Error("the .zip and the .npz give different data sets")
		}
	}
}

func TestLoadGNNBenchmarkReferenceGraph(t *testing.T) {
	path := writeTemp(t, "tiny.npz", zipBytes(false, tinyGNN()...))
	whole, err := LoadGNNBenchmark(path, LoadOptions{Seed: 5, AllNodes: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 5, AllNodes: true, DoubledEdges: true, SelfLoops: true})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graphs[0]
	// Every node stays; each undirected edge appears twice in each direction, then one
	// self loop per node.
	if g.NumNodes != 7 || len(g.NodeLabels) != 7 {
		t.Fatalf("%d nodes, want all 7 of the file", g.NumNodes)
	}
	count := map[[2]int32]int{}
	for k := range g.Src {
		count[[2]int32{g.Src[k], g.Dst[k]}]++
	}
	for k := range g.Src {
		a, b := g.Src[k], g.Dst[k]
		want := 2
		if a == b {
			want = 1
		}
		if count[[2]int32{a, b}] != want || count[[2]int32{b, a}] != want {
			t.Errorf("edge %d→%d appears %d times (reverse %d), want %d", a, b, count[[2]int32{a, b}], count[[2]int32{b, a}], want)
		}
	}
	loops := 0
	for k := range g.Src {
		if g.Src[k] == g.Dst[k] {
			loops++
		}
	}
	once := len(whole.Graphs[0].Src)
	if loops != 7 || len(g.Src) != 2*once+7 || whole.Graphs[0].NumNodes != 7 {
		t.Errorf("%d edges with %d self loops, want %d with 7", len(g.Src), loops, 2*once+7)
	}
}

func TestLoadGNNBenchmarkErrors(t *testing.T) {
	base := tinyGNN()
	npz := zipBytes(false, base...)
	// Flip the last data byte of the stored labels entry: the archive's CRC no longer
	// matches.
	corrupt := append([]byte{}, npz...)
	labelsNPY := npyOf([]int64{0, 1, 2, 1, 0, 3, 2})
	i := bytes.Index(corrupt, labelsNPY) + len(labelsNPY) - 1
	corrupt[i] ^= 0xff
	// The same for the pickled class_names entry, which is otherwise skipped.
	corruptSkipped := append([]byte{}, npz...)
	i = bytes.Index(corruptSkipped, []byte("numpy pickle"))
	corruptSkipped[i] ^= 0xff
	attrIndptr := npyOf([]int32{0, 0, 2, 4, 6, 8, 10, 12})
	for _, tc := range []struct {
		name string
		file []byte
		want []string
	}{
		{"truncated zip", npz[:len(npz)/2], []string{"zip"}},
		{"corrupt entry", corrupt, []string{"labels", "checksum"}},
		{"corrupt skipped entry", corruptSkipped, []string{"class_names", "checksum"}},
		{"index out of range", zipBytes(false, replaced(base, "adj_indices", npyOf([]int32{1, 1, 2, 0, 3, 9, 5}))...),
			[]string{"adj_indices", "value 9", "[0, 7)"}},
		{"feature index out of range", zipBytes(false, replaced(base, "attr_indices", npyOf([]int32{0, 2, 0, 2, 0, 2, 0, 3, 0, 2, 0, 2}))...),
			[]string{"attr_indices", "value 3", "[0, 3)"}},
		{"NaN feature", zipBytes(false, replaced(base, "attr_data", npyOf([]float32{1, 0.5, 2, 1, 3, float32(math.NaN()), 4, 2, 5, 2.5, 6, 3}))...),
			[]string{"attr_data", "row 3, column 2", "NaN"}},
		{"Inf feature", zipBytes(false, replaced(base, "attr_data", npyOf([]float64{1, 0.5, 2, 1, 3, 1e300, 4, 2, 5, 2.5, 6, 3}))...),
			[]string{"attr_data", "row 3, column 2", "+Inf"}},
		{"label count", zipBytes(false, replaced(base, "labels", npyOf([]int64{0, 1, 2, 1, 0, 3}))...),
			[]string{"labels", "[6]", "(7,)"}},
		{"negative label", zipBytes(false, replaced(base, "labels", npyOf([]int64{0, 1, 2, -2, 0, 3, 2}))...),
			[]string{"labels", "node 3", "-2", "only -1, unlabelled"}},
		{"object labels", zipBytes(false, replaced(base, "labels", npyBytes("|O", false, []int{7}, []byte{0x80}))...),
			[]string{"labels", "object dtype"}},
		{"labels of shape (7, 1)", zipBytes(false, replaced(base, "labels", npyBytes("<i8", true, []int{7, 1}, make([]byte, 56)))...),
			[]string{"labels", "[7 1]", "(7,)"}},
		{"float labels", zipBytes(false, replaced(base, "labels", npyOf([]float32{0, 1, 2, 1, 0, 3, 2}))...),
			[]string{"labels", "<f4", "not an integer"}},
		{"missing labels", zipBytes(false, replaced(base, "labels", nil)...),
			[]string{`no entry "labels"`}},
		{"not square", zipBytes(false, replaced(base, "adj_shape", npyOf([]int64{7, 6}))...),
			[]string{"adj_shape", "7×6"}},
		{"decreasing indptr", zipBytes(false, replaced(base, "adj_indptr", npyOf([]int32{0, 2, 1, 4, 6, 7, 7, 7}))...),
			[]string{"adj_indptr", "offset 2 (1)"}},
		{"indptr length", zipBytes(false, replaced(base, "adj_indptr", npyOf([]int32{0, 2, 3, 4, 6, 7, 7}))...),
			[]string{"adj_indptr", "7 offsets for 7 rows"}},
		{"truncated array", zipBytes(false, replaced(base, "attr_indptr", attrIndptr[:len(attrIndptr)-3])...),
			[]string{"attr_indptr", "truncated"}},
		{"no arrays", zipBytes(false, npzEntry{"readme.txt", []byte("hi")}), []string{"no .npy entries"}},
	} {
		path := writeTemp(t, "bad.npz", tc.file)
		d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 1})
		if err == nil {
			t.Errorf("%s: no error (got %d graphs)", tc.name, len(d.Graphs))
			continue
		}
		if d != nil {
			t.Errorf("%s: data set returned with the error", tc.name)
		}
		for _, w := range append(tc.want, path) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}

func TestReadNPZSkipsPickled(t *testing.T) {
	z, err := npy.ReadNPZ(bytes.NewReader(zipBytes(false, tinyGNN()...)), 0, "x.npz")
	if err == nil {
		t.Fatalf("size 0 accepted: %v", z)
	}
	b := zipBytes(false, tinyGNN()...)
	if z, err = npy.ReadNPZ(bytes.NewReader(b), int64(len(b)), "x.npz"); err != nil {
		t.Fatal(err)
	}
	if len(z.Arrays) != 9 || z.Skipped["class_names"] == nil {
		t.Errorf("%d arrays, skipped %v", len(z.Arrays), z.Skipped)
	}
	if _, err := z.Array("class_names"); err == nil || !strings.Contains(err.Error(), "x.npz:class_names") {
		t.Errorf("Array(class_names) = %v", err)
	}
}

func BenchmarkLoadComputers(b *testing.B) {
	path := sharedData(b, "gnn-benchmark/amazon-computers.zip")
	for b.Loop() {
		d, err := LoadGNNBenchmark(path, LoadOptions{Seed: 1})
		if err != nil || d.Graphs[0].NumNodes != 13381 {
			b.Fatal(err)
		}
	}
}

// TestNormalizeFeaturesDividesRowsBySum checks NormalizeFeatures on the tiny graph's
// feature rows (v, 0, v/2), read as given and made binary: each row divided by its sum
// where that exceeds 1, as PyG's NormalizeFeatures (x / clamp(Σ x, min=1)), so row 0
// (all zero) stays zero and row 1 of the binary matrix (1, 0, 1) becomes (½, 0, ½); the
// transform is listed after binary-features.
func TestNormalizeFeaturesDividesRowsBySum(t *testing.T) {
	path := writeTemp(t, "tiny.npz", zipBytes(false, tinyGNN()...))
	for _, binary := range []bool{false, true} {
		d, err := Load("npz:"+path, LoadOptions{Seed: 1, BinaryFeatures: binary, NormalizeFeatures: true})
		if err != nil {
			t.Fatal(err)
		}
		g := d.Graphs[0]
		for v := range g.NumNodes {
			raw := []float64{float64(v), 0, float64(v) / 2}
			if binary {
				for c := range raw {
					if raw[c] > 0 {
						raw[c] = 1
					}
				}
			}
			sum := raw[0] + raw[1] + raw[2]
			var got [3]float64
			for k := g.Node.Indptr[v]; k < g.Node.Indptr[v+1]; k++ {
				got[g.Node.Indices[k]] = float64(g.Node.Values[k])
			}
			for c := range raw {
				if want := raw[c] / max(sum, 1); math.Abs(got[c]-want) > 1e-7 {
					t.Errorf("binary %v, row %d: features %v, want row / max(%g, 1)", binary, v, got, sum)
					break
				}
			}
		}
		want := []string{TransformNormalizedFeatures}
		if binary {
			want = []string{TransformBinaryFeatures, TransformNormalizedFeatures}
		}
		if !reflect.DeepEqual(d.Transforms, want) {
			t.Errorf("binary %v: transforms %v, want %v", binary, d.Transforms, want)
		}
	}
	neg := replaced(tinyGNN(), "attr_data", npyOf([]float32{-1, 0.5, 2, 1, 3, 1.5, 4, 2, 5, 2.5, 6, 3}))
	_, err := Load("npz:"+writeTemp(t, "neg.npz", zipBytes(false, neg...)), LoadOptions{NormalizeFeatures: true})
	wantError(t, "negative features", err, "attr_data", "row 1", "-1", "non-negative")
	_, err = Load("pattern", LoadOptions{NormalizeFeatures: true})
	wantError(t, "normalize_features on PATTERN", err, `"pattern"`, "normalize_features")
}
