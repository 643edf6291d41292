package data

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// randomEdges draws m directed edges on n nodes, with self loops and repeats.
func randomEdges(n, m int, seed uint64) (src, dst []int32) {
	rng := newRNG(seed, 99)
	for range m {
		src, dst = append(src, int32(rng.IntN(n))), append(dst, int32(rng.IntN(n)))
	}
	return src, dst
}

func TestUndirectedEdgesMatchesMap(t *testing.T) {
	for seed := range uint64(5) {
		n := 40
		src, dst := randomEdges(n, 150, seed)
		us, ud, err := UndirectedEdges(n, src, dst)
		if err != nil {
			t.Fatal(err)
		}
		// Reference: a set of ordered pairs, both directions, loops dropped, then sorted.
		set := map[[2]int32]bool{}
		for i := range src {
			if src[i] != dst[i] {
				set[[2]int32{src[i], dst[i]}] = true
				set[[2]int32{dst[i], src[i]}] = true
			}
		}
		var want [][2]int32
		for e := range set {
			want = append(want, e)
		}
		slices.SortFunc(want, func(a, b [2]int32) int {
			if a[0] != b[0] {
				return int(a[0] - b[0])
			}
			return int(a[1] - b[1])
		})
		var got [][2]int32
		for i := range us {
			got = append(got, [2]int32{us[i], ud[i]})
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: got %v, want %v", seed, got, want)
		}
	}
}

func TestConnectedComponentsMatchesBFS(t *testing.T) {
	n := 200
	src, dst := randomEdges(n, 120, 7) // sparse: many components
	comp, sizes, err := ConnectedComponents(n, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	adj := make([][]int, n)
	for i := range src {
		adj[src[i]] = append(adj[src[i]], int(dst[i]))
		adj[dst[i]] = append(adj[dst[i]], int(src[i]))
	}
	label := make([]int, n)
	for i := range label {
		label[i] = -1
	}
	var bfsSizes []int
	for s := range n { // components discovered in order of their smallest node
		if label[s] >= 0 {
			continue
		}
		c := len(bfsSizes)
		bfsSizes = append(bfsSizes, 0)
		queue := []int{s}
		label[s] = c
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			bfsSizes[c]++
			for _, v := range adj[u] {
				if label[v] < 0 {
					label[v] = c
					queue = append(queue, v)
				}
			}
		}
	}
	for v := range n {
		if int(comp[v]) != label[v] {
			t.Fatalf("node %d: component %d, BFS says %d", v, comp[v], label[v])
		}
	}
	if !reflect.DeepEqual(sizes, bfsSizes) || len(sizes) < 10 {
		t.Fatalf("sizes %v, BFS %v", sizes, bfsSizes)
	}
}

func TestLargestComponentTieAndFeatures(t *testing.T) {
	// Components {0, 2} and {1, 3} tie (node 4 is alone): the one holding node 0 wins.
	g := Graph{
		NumNodes: 5, Src: []int32{2, 0, 3, 1}, Dst: []int32{0, 2, 1, 3},
		Node:       Features{Kind: Dense, Rows: 5, Cols: 2, Dense: []float32{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}},
		Edge:       Features{Kind: Categorical, Rows: 4, Cols: 1, Categorical: []int32{0, 1, 2, 3}, Cardinality: []int{4}},
		NodeLabels: []int32{10, 11, 12, 13, 14},
		Targets:    []float32{1, 0},
	}
	sub, nodes, err := LargestComponent(&g)
	if err != nil {
		t.Fatal(err)
	}
	want := Graph{
		NumNodes: 2, Src: []int32{1, 0}, Dst: []int32{0, 1},
		Node:       Features{Kind: Dense, Rows: 2, Cols: 2, Dense: []float32{0, 0.5, 2, 2.5}},
		Edge:       Features{Kind: Categorical, Rows: 2, Cols: 1, Categorical: []int32{0, 1}, Cardinality: []int{4}},
		NodeLabels: []int32{10, 12},
		Targets:    []float32{1, 0},
	}
	if !reflect.DeepEqual(nodes, []int32{0, 2}) || !reflect.DeepEqual(sub, want) {
		t.Fatalf("nodes %v, subgraph %+v; want %+v", nodes, sub, want)
	}
}

func TestInducedSubgraphOrderAndSparse(t *testing.T) {
	g := Graph{
		NumNodes: 4, Src: []int32{0, 1, 2, 3, 3}, Dst: []int32{1, 2, 3, 0, 1},
		Node: Features{Kind: Sparse, Rows: 4, Cols: 5, Indptr: []int64{0, 1, 1, 3, 4},
			Indices: []int32{4, 0, 2, 1}, Values: []float32{1, 2, 3, 4}},
		Edge: Features{Kind: Dense, Rows: 5, Cols: 1, Dense: []float32{10, 11, 12, 13, 14}},
	}
	sub, err := InducedSubgraph(&g, []int32{3, 1}) // node 3 becomes 0, node 1 becomes 1
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sub.Src, []int32{0}) || !reflect.DeepEqual(sub.Dst, []int32{1}) || !reflect.DeepEqual(sub.Edge.Dense, []float32{14}) {
		t.Errorf("edges %v→%v features %v; want 0→1 with 14", sub.Src, sub.Dst, sub.Edge.Dense)
	}
	wantNode := Features{Kind: Sparse, Rows: 2, Cols: 5, Indptr: []int64{0, 1, 1}, Indices: []int32{1}, Values: []float32{4}}
	if !reflect.DeepEqual(sub.Node, wantNode) {
		t.Errorf("node features %+v, want %+v", sub.Node, wantNode)
	}
	for _, tc := range []struct {
		nodes []int32
		want  string
	}{{[]int32{1, 1}, "listed twice"}, {[]int32{4}, "node 4 outside [0, 4)"}, {[]int32{-1}, "node -1"}} {
		if _, err := InducedSubgraph(&g, tc.nodes); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("nodes %v: error %v, want %q", tc.nodes, err, tc.want)
		}
	}
	bad := g
	bad.Node.Indptr = []int64{0, 1, 5, 3, 4}
	if _, err := InducedSubgraph(&bad, []int32{0}); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("malformed CSR: %v", err)
	}
}

func TestEdgeChecks(t *testing.T) {
	if _, _, err := UndirectedEdges(3, []int32{0, 1}, []int32{1}); err == nil || !strings.Contains(err.Error(), "2 sources but 1") {
		t.Errorf("length mismatch: %v", err)
	}
	if _, _, err := UndirectedEdges(3, []int32{0, 1}, []int32{1, 3}); err == nil || !strings.Contains(err.Error(), "edge 1 (1 → 3) outside [0, 3)") {
		t.Errorf("out of range: %v", err)
	}
	if _, _, err := ConnectedComponents(-1, nil, nil); err == nil {
		t.Error("negative node count accepted")
	}
	if _, _, err := LargestComponent(&Graph{}); err == nil {
		t.Error("empty graph accepted")
	}
}

// TestAddDenseToWritesSparseRowsDense checks the dense writing of a CSR matrix (a
// duplicate column summed, an empty row) and of a dense one, added to what dst holds.
func TestAddDenseToWritesSparseRowsDense(t *testing.T) {
	sp := Features{Kind: Sparse, Rows: 3, Cols: 3, Indptr: []int64{0, 2, 2, 4},
		Indices: []int32{2, 0, 1, 1}, Values: []float32{1, 2, 3, 4}}
	dst := []float32{0, 0, 0, 0, 0, 0, 0, 0, 0, 9}
	sp.AddDenseTo(dst)
	if want := []float32{2, 0, 1, 0, 0, 0, 0, 7, 0, 9}; !slices.Equal(dst, want) {
		t.Errorf("sparse: %v, want %v", dst, want)
	}
	dn := Features{Kind: Dense, Rows: 1, Cols: 2, Dense: []float32{1.5, -1}}
	d := []float32{1, 1}
	dn.AddDenseTo(d)
	if !slices.Equal(d, []float32{2.5, 0}) {
		t.Errorf("dense: %v", d)
	}
}
