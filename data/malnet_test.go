package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// malnetHeader is the comment header of the distributed edge lists.
const malnetHeader = "# Directed graph (each unordered pair of nodes is saved once): X.edgelist\n" +
	"# Function call graph of an Android APK\n# Nodes: 6 Edges: 8\n# FromNodeId\tToNodeId\n#\n"

func TestMalNetGraphHandComputed(t *testing.T) {
	// Ids 0, 5, 7, 100 are kept (as 0..3); 3 never appears, 9 has only a self loop.
	// CRLF line ends and tabs as separators must not matter.
	file := malnetHeader + "0 5\n5\t7\r\n7 0\n5 100\n5 5\n5 5\n9 9\n\n0 5\n"
	g, err := malnetGraph([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if g.NumNodes != 4 {
		t.Fatalf("%d nodes, want 4", g.NumNodes)
	}
	// Edges in file order, then one self loop on node 1 (id 5).
	if want := []int32{0, 1, 2, 1, 0, 1}; !slices.Equal(g.Src, want) {
		t.Errorf("sources %v, want %v", g.Src, want)
	}
	if want := []int32{1, 2, 0, 3, 1, 1}; !slices.Equal(g.Dst, want) {
		t.Errorf("destinations %v, want %v", g.Dst, want)
	}
	// Out-degrees 2, 3, 1, 0. Node 0 → 1, 1: degrees {3, 3}. Node 1 → 2, 3, 1: {1, 0,
	// 3}, mean 4/3, squared deviations 42/9 over (3−1)+1e−6. Node 2 → 0: {2}.
	want := []float64{
		2, 3, 3, 3, 0,
		3, 0, 3, 4.0 / 3, math.Sqrt(42.0 / 9 / (2 + 1e-6)),
		1, 2, 2, 2, 0,
		0, 0, 0, 0, 0,
	}
	if g.Node.Kind != Dense || g.Node.Rows != 4 || g.Node.Cols != 5 {
		t.Fatalf("features %v %d×%d", g.Node.Kind, g.Node.Rows, g.Node.Cols)
	}
	for i, w := range want {
		if got := float64(g.Node.Dense[i]); math.Abs(got-w) > 1e-6 {
			t.Errorf("node %d feature %d = %v, want %v", i/5, i%5, got, w)
		}
	}
	if err := g.Validate(); err != nil {
		t.Error(err)
	}
}

func TestLocalDegreeProfileRandom(t *testing.T) {
	// Against a per-node recomputation from adjacency lists.
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := range 20 {
		n := 1 + rng.IntN(40)
		m := rng.IntN(4 * n)
		src, dst := make([]int32, m), make([]int32, m)
		for e := range m {
			src[e], dst[e] = int32(rng.IntN(n)), int32(rng.IntN(n))
		}
		f := localDegreeProfile(n, src, dst)
		adj := make([][]int32, n)
		for e := range m {
			adj[src[e]] = append(adj[src[e]], dst[e])
		}
		for v := range n {
			var nb []float64
			for _, u := range adj[v] {
				nb = append(nb, float64(len(adj[u])))
			}
			want := make([]float64, 5)
			if k := len(nb); k > 0 {
				mean := 0.0
				for _, d := range nb {
					mean += d / float64(k)
				}
				ss := 0.0
				for _, d := range nb {
					ss += (d - mean) * (d - mean)
				}
				want = []float64{float64(k), slices.Min(nb), slices.Max(nb), mean, math.Sqrt(ss / (math.Max(float64(k-1), 1) + 1e-6))}
			}
			for c, w := range want {
				if got := float64(f.Dense[5*v+c]); math.Abs(got-w) > 1e-5*max(1, w) {
					t.Fatalf("trial %d node %d column %d: %v, want %v", trial, v, c, got, w)
				}
			}
		}
	}
}

// writeMalNet writes a MalNet-Tiny directory: split file contents by part name and
// graph files by TYPE/FAMILY/SHA.
func writeMalNet(t testing.TB, splits map[string]string, graphs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	sdir := filepath.Join(dir, filepath.FromSlash(MalNetTinySplits))
	os.MkdirAll(sdir, 0o755)
	for part, body := range splits {
		os.WriteFile(filepath.Join(sdir, part+".txt"), []byte(body), 0o644)
	}
	for rel, body := range graphs {
		p := filepath.Join(dir, MalNetTinyGraphs, filepath.FromSlash(rel)+".edgelist")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	return dir
}

var (
	tinyMalNetSplits = map[string]string{
		"train": "benign/benign/AAA\ntrojan/artemis/BBB\n",
		"val":   "adware/airpush/CCC\n",
		"test":  "addisplay/kuguo/DDD.edgelist\n\n",
	}
	tinyMalNetGraphs = map[string]string{
		"benign/benign/AAA":   malnetHeader + "0 1\n1 2\n",
		"trojan/artemis/BBB":  malnetHeader + "4 2\n2 4\n4 4\n",
		"adware/airpush/CCC":  malnetHeader + "1 0\n",
		"addisplay/kuguo/DDD": malnetHeader + "0 1\n0 2\n0 3\n",
	}
)

func TestLoadMalNetTiny(t *testing.T) {
	dir := writeMalNet(t, tinyMalNetSplits, tinyMalNetGraphs)
	ds, err := LoadMalNetTiny(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if ds.Name != "malnet-tiny" || ds.Task != GraphClassification || ds.NumClasses != 5 || len(ds.Graphs) != 4 {
		t.Fatalf("%s %v, %d classes, %d graphs", ds.Name, ds.Task, ds.NumClasses, len(ds.Graphs))
	}
	if !reflect.DeepEqual(ds.Split, Split{Train: []int{0, 1}, Val: []int{2}, Test: []int{3}}) {
		t.Errorf("split %+v", ds.Split)
	}
	types := MalNetTinyTypes()
	for i, want := range []string{"benign", "trojan", "adware", "addisplay"} {
		if got := types[ds.Graphs[i].Label]; got != want {
			t.Errorf("graph %d: class %s, want %s", i, got, want)
		}
	}
	for i, want := range []struct{ nodes, edges int }{{3, 2}, {2, 3}, {2, 1}, {4, 3}} {
		if g := ds.Graphs[i]; g.NumNodes != want.nodes || len(g.Src) != want.edges {
			t.Errorf("graph %d: %d nodes %d edges, want %d, %d", i, g.NumNodes, len(g.Src), want.nodes, want.edges)
		}
	}
	// By name, cached.
	root := t.TempDir()
	os.Rename(dir, filepath.Join(root, "malnet-tiny"))
	opts := LoadOptions{DataDir: root, CacheDir: t.TempDir()}
	for range 2 {
		byName, err := Load("malnet-tiny", opts)
		if err != nil || !reflect.DeepEqual(byName, ds) {
			t.Fatalf("Load(malnet-tiny): %v, or a different data set", err)
		}
	}
	if files, _ := os.ReadDir(opts.CacheDir); len(files) != 1 {
		t.Errorf("%d cache files, want 1", len(files))
	}
}

func TestLoadMalNetTinyErrors(t *testing.T) {
	split := func(part, body string) map[string]string {
		s := map[string]string{}
		for k, v := range tinyMalNetSplits {
			s[k] = v
		}
		if body == "" {
			delete(s, part)
		} else {
			s[part] = body
		}
		return s
	}
	graph := func(rel, body string) map[string]string {
		g := map[string]string{}
		for k, v := range tinyMalNetGraphs {
			g[k] = v
		}
		if body == "" {
			delete(g, rel)
		} else {
			g[rel] = body
		}
		return g
	}
	testTxt := filepath.Join(filepath.FromSlash(MalNetTinySplits), "test.txt")
	bbb := filepath.Join("trojan", "artemis", "BBB.edgelist")
	cases := []struct {
		name           string
		splits, graphs map[string]string
		want           []string
	}{
		{"missing split file", split("test", ""), tinyMalNetGraphs, []string{testTxt, "no such file"}},
		{"unknown type", split("test", "virus/x/EEE\n"), tinyMalNetGraphs, []string{testTxt, "line 1", `"virus/x/EEE"`, "TYPE/FAMILY/SHA256"}},
		{"two components", split("test", "\nbenign/EEE\n"), tinyMalNetGraphs, []string{testTxt, "line 2", "TYPE/FAMILY/SHA256"}},
		{"dot-dot component", split("test", "benign/../EEE\n"), tinyMalNetGraphs, []string{testTxt, "TYPE/FAMILY/SHA256"}},
		{"listed twice", split("test", "benign/benign/AAA\n"), tinyMalNetGraphs, []string{testTxt, "already listed", "train.txt"}},
		{"no graphs", map[string]string{"train": "\n", "val": " \n", "test": "\n"}, tinyMalNetGraphs, []string{"list no graphs"}},
		{"missing graph", tinyMalNetSplits, graph("trojan/artemis/BBB", ""), []string{bbb, "no such file"}},
		{"three fields", tinyMalNetSplits, graph("trojan/artemis/BBB", malnetHeader+"1 2\n1 2 3\n"), []string{bbb, "line 7", "two node ids"}},
		{"one field", tinyMalNetSplits, graph("trojan/artemis/BBB", "1\n"), []string{bbb, "line 1", "two node ids"}},
		{"not a number", tinyMalNetSplits, graph("trojan/artemis/BBB", "1 x2\n"), []string{bbb, "line 1", "integers"}},
		{"negative id", tinyMalNetSplits, graph("trojan/artemis/BBB", "1 2\n-1 2\n"), []string{bbb, "line 2", "integers"}},
		{"huge id", tinyMalNetSplits, graph("trojan/artemis/BBB", "1 12345678901234567890\n"), []string{bbb, "integers"}},
		{"only self loops", tinyMalNetSplits, graph("trojan/artemis/BBB", malnetHeader+"3 3\n"), []string{bbb, "no edge between two distinct nodes"}},
		{"header only", tinyMalNetSplits, graph("trojan/artemis/BBB", malnetHeader), []string{bbb, "no edge between two distinct nodes (0 edges)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadMalNetTiny(writeMalNet(t, c.splits, c.graphs), LoadOptions{})
			checkErr(t, err, append(c.want, "malnet-tiny")...)
		})
	}
}

// malnetSynthetic returns an edge list file of m random edges among n nodes with
// sparse ids, as large as an average MalNet-Tiny graph for n = 1,400, m = 2,900.
func malnetSynthetic(seed uint64, n, m int) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString(malnetHeader)
	for range m {
		fmt.Fprintf(&b, "%d %d\n", 3*rng.IntN(n), 3*rng.IntN(n))
	}
	return []byte(b.String())
}

// BenchmarkMalNetGraph parses one graph of average MalNet-Tiny size (1,400 nodes,
// 2,900 edges) and computes its features; ×5,000 estimates the data set on one core.
func BenchmarkMalNetGraph(b *testing.B) {
	raw := malnetSynthetic(1, 1400, 2900)
	for b.Loop() {
		if _, err := malnetGraph(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadMalNetTiny200 loads 200 average-size graphs from disk in parallel.
func BenchmarkLoadMalNetTiny200(b *testing.B) {
	types := MalNetTinyTypes()
	splits := map[string]string{}
	graphs := map[string]string{}
	for i := range 200 {
		rel := fmt.Sprintf("%s/fam/%04X", types[i%5], i)
		graphs[rel] = string(malnetSynthetic(uint64(i), 1400, 2900))
		part := []string{"train", "train", "train", "val", "test"}[i%5]
		splits[part] += rel + "\n"
	}
	dir := writeMalNet(b, splits, graphs)
	for b.Loop() {
		if _, err := LoadMalNetTiny(dir, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
