package data

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// edgeDensities returns, over all graphs, the fraction of node pairs joined by an edge
// among pairs of the same class and among pairs of different classes, using NodeLabels as
// classes, with a map-based adjacency independent of the generator's edge order.
func edgeDensities(gs []Graph) (same, diff float64) {
	var sameE, samePairs, diffE, diffPairs float64
	for gi := range gs {
		g := &gs[gi]
		adj := map[[2]int32]bool{}
		for i := range g.Src {
			adj[[2]int32{g.Src[i], g.Dst[i]}] = true
		}
		for u := range int32(g.NumNodes) {
			for v := u + 1; v < int32(g.NumNodes); v++ {
				e := 0.0
				if adj[[2]int32{u, v}] {
					e = 1
				}
				if g.NodeLabels[u] == g.NodeLabels[v] {
					sameE, samePairs = sameE+e, samePairs+1
				} else {
					diffE, diffPairs = diffE+e, diffPairs+1
				}
			}
		}
	}
	return sameE / samePairs, diffE / diffPairs
}

func TestCLUSTERStatistics(t *testing.T) {
	d, err := GenerateCLUSTER(SBMOptions{Seed: 7, Train: 300, Val: 20, Test: 20})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(d.Graphs) != 340 || len(d.Split.Train) != 300 || len(d.Split.Val) != 20 || len(d.Split.Test) != 20 {
		t.Fatalf("got %d graphs, split %d/%d/%d", len(d.Graphs), len(d.Split.Train), len(d.Split.Val), len(d.Split.Test))
	}
	s := d.Stats()
	t.Logf("CLUSTER: %.2f nodes, %.1f edges per graph", s.AvgNodes, s.AvgEdges)
	// Paper (Table 6): 117.2 nodes and 2,150.9 edges per graph. Standard errors over 340
	// graphs: about 1.2 nodes and about 30 edges.
	if math.Abs(s.AvgNodes-117.2) > 4 || math.Abs(s.AvgEdges-2150.9) > 100 {
		t.Errorf("avg nodes %.1f, avg edges %.1f; want ≈117.2, ≈2150.9", s.AvgNodes, s.AvgEdges)
	}
	same, diff := edgeDensities(d.Graphs)
	if math.Abs(same-0.55) > 0.01 || math.Abs(diff-0.25) > 0.01 {
		t.Errorf("edge density inside communities %.4f, between %.4f; want 0.55, 0.25", same, diff)
	}
	for gi := range d.Graphs {
		g := &d.Graphs[gi]
		checkSimpleUndirected(t, g)
		var sizes, marked [clusterCommunities]int
		for v := range g.NumNodes {
			c := g.NodeLabels[v]
			sizes[c]++
			switch f := g.Node.Categorical[v]; f {
			case 0:
			case c + 1:
				marked[c]++
			default:
				t.Fatalf("graph %d node %d: community %d but feature %d", gi, v, c, f)
			}
		}
		for c := range sizes {
			if sizes[c] < 5 || sizes[c] > 34 || marked[c] != 1 {
				t.Fatalf("graph %d community %d: size %d, %d marked nodes; want size in [5, 34], 1 marked", gi, c, sizes[c], marked[c])
			}
		}
	}
}

func TestPATTERNStatistics(t *testing.T) {
	d, err := GeneratePATTERN(SBMOptions{Seed: 3, Train: 300, Val: 100, Test: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	s := d.Stats()
	t.Logf("PATTERN: %.2f nodes, %.1f edges per graph", s.AvgNodes, s.AvgEdges)
	// A simulation of the original generator gives 117.0 nodes and 2,930 edges (the paper's
	// Table 6: 118.9 and 3,039.3 for the published files).
	if math.Abs(s.AvgNodes-117) > 2 || math.Abs(s.AvgEdges-2930) > 120 {
		t.Errorf("avg nodes %.1f, avg edges %.1f; want 117 ± 2, 2930 ± 120", s.AvgNodes, s.AvgEdges)
	}
	if s.Features != 1 || s.Classes != 2 {
		t.Errorf("features %d, classes %d; want 1, 2", s.Features, s.Classes)
	}
	// Pattern nodes (label 1) join background nodes with probability 0.5; background pairs
	// mix p = 0.5 within and q = 0.35 between communities, so their density lies strictly
	// between those.
	_, cross := edgeDensities(d.Graphs)
	if math.Abs(cross-0.5) > 0.01 {
		t.Errorf("pattern–background edge density %.4f, want 0.5", cross)
	}
	for gi := range d.Graphs {
		checkSimpleUndirected(t, &d.Graphs[gi])
	}
	// Graph i of every split holds pattern i mod 100: the subgraph induced by its pattern
	// nodes has the same size, edge count, degree sequence and feature counts each time.
	type signature struct {
		n, edges int
		degrees  string
		feats    [3]int
	}
	sig := func(g *Graph) signature {
		var nodes []int32
		var s signature
		for v, y := range g.NodeLabels {
			if y == 1 {
				nodes = append(nodes, int32(v))
				s.feats[g.Node.Categorical[v]]++
			}
		}
		sub, err := InducedSubgraph(g, nodes)
		if err != nil {
			t.Fatal(err)
		}
		deg := make([]int, sub.NumNodes)
		for _, u := range sub.Src {
			deg[u]++
		}
		slices.Sort(deg)
		s.n, s.edges, s.degrees = sub.NumNodes, len(sub.Src), fmt.Sprint(deg)
		return s
	}
	differ := 0
	for i := range 100 {
		a, b, c := sig(&d.Graphs[i]), sig(&d.Graphs[i+100]), sig(&d.Graphs[300+i])
		if a != b || a != c {
			t.Fatalf("pattern %d differs between graphs: %+v, %+v, %+v", i, a, b, c)
		}
		if i > 0 && a != sig(&d.Graphs[i-1]) {
			differ++
		}
	}
	if differ < 90 {
		t.Errorf("only %d of 99 consecutive patterns differ", differ)
	}
}

func TestSBMDeterminism(t *testing.T) {
	small := SBMOptions{Seed: 11, Train: 30, Val: 5, Test: 5}
	a, _ := GeneratePATTERN(small)
	b, _ := GeneratePATTERN(small)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed gave different PATTERN data sets")
	}
	c, _ := GenerateCLUSTER(small)
	if reflect.DeepEqual(a.Graphs[0], c.Graphs[0]) {
		t.Fatal("PATTERN and CLUSTER coincide")
	}
	other := small
	other.Seed = 12
	e, _ := GeneratePATTERN(other)
	if reflect.DeepEqual(a.Graphs[0].Src, e.Graphs[0].Src) {
		t.Fatal("different seeds gave the same graph")
	}
	// A larger data set extends each split of a smaller one.
	big, _ := GeneratePATTERN(SBMOptions{Seed: 11, Train: 40, Val: 7, Test: 6})
	for i, j := range map[int]int{0: 0, 29: 29, 30: 40, 34: 44, 35: 47, 39: 51} {
		if !reflect.DeepEqual(a.Graphs[i], big.Graphs[j]) {
			t.Errorf("graph %d of the small set differs from graph %d of the large one", i, j)
		}
	}
}

func TestSBMCounts(t *testing.T) {
	d, err := GenerateCLUSTER(SBMOptions{Train: 3, Test: 2, Val: 0})
	if err == nil && len(d.Split.Val) != 1000 {
		t.Errorf("Val: 0 gave %d validation graphs, want the full 1000", len(d.Split.Val))
	}
	if _, err := GeneratePATTERN(SBMOptions{Train: -1}); err == nil {
		t.Error("negative count accepted")
	}
}

func BenchmarkPATTERNFull(b *testing.B) {
	for b.Loop() {
		d, err := GeneratePATTERN(SBMOptions{Seed: 1})
		if err != nil || len(d.Graphs) != 14000 {
			b.Fatal(err)
		}
	}
}

func BenchmarkCLUSTERFull(b *testing.B) {
	for b.Loop() {
		d, err := GenerateCLUSTER(SBMOptions{Seed: 1})
		if err != nil || len(d.Graphs) != 12000 {
			b.Fatal(err)
		}
	}
}

// PATTERN and CLUSTER estimate their graphs before generating any and refuse counts
// beyond the bound (LoadOptions.MaxBytes, else DefaultMaxBytes), naming the counts and
// the bound; a count within it is generated.
func TestSBMGeneratorsRefuseGraphCountsBeyondTheBound(t *testing.T) {
	if _, err := GeneratePATTERN(SBMOptions{Train: 1_000_000_000}); err == nil ||
		!strings.Contains(err.Error(), "1000000000 train") || !strings.Contains(err.Error(), "LoadOptions.MaxBytes") {
		t.Errorf("10⁹ PATTERN graphs: %v, want a refusal naming the count and the bound", err)
	}
	if _, err := GenerateCLUSTER(SBMOptions{Train: 1_000_000_000}); err == nil || !strings.Contains(err.Error(), "cluster: 1000000000 train") {
		t.Errorf("10⁹ CLUSTER graphs: %v, want a refusal", err)
	}
	small := LoadOptions{TrainGraphs: 10, ValGraphs: 5, TestGraphs: 5, NoCache: true}
	small.MaxBytes = 1 << 20
	if _, err := Load("pattern", small); err == nil || !strings.Contains(err.Error(), "more than the 1048576") {
		t.Errorf("20 graphs under 1 MiB: %v, want a refusal", err)
	}
	small.MaxBytes = 4 << 20
	if d, err := Load("pattern", small); err != nil || len(d.Graphs) != 20 {
		t.Errorf("20 graphs under 4 MiB: %v", err)
	}
}
