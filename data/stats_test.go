package data

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestStatsCountsUnorderedPairs(t *testing.T) {
	d := &Dataset{
		Name: "h", Task: NodeClassification, NumClasses: 3,
		Graphs: []Graph{
			// 0→1, 1→0 and the repeat 0→1 are one pair; 1→2 alone is one; the loop 2→2 one.
			{NumNodes: 3, Src: []int32{0, 1, 1, 2, 0}, Dst: []int32{1, 0, 2, 2, 1},
				Node: Features{Kind: Dense, Rows: 3, Cols: 4, Dense: make([]float32, 12)}},
			{NumNodes: 5, Src: []int32{4}, Dst: []int32{0}},
		},
		Split: Split{Train: []int{0}, Test: []int{1}},
	}
	s := d.Stats()
	want := Stats{Name: "h", Task: "node-classification", Graphs: 2, Nodes: 8, Edges: 6, EdgesUndirected: 4,
		Features: 4, Classes: 3, Train: 1, Test: 1, AvgNodes: 4, AvgEdges: 2}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v\nwant %+v", s, want)
	}
	b, _ := json.Marshal(s)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, key := range []string{"graphs", "nodes", "edges", "edges_undirected", "features", "classes", "train", "val", "test", "avg_nodes", "avg_edges"} {
		if _, ok := m[key]; !ok {
			t.Errorf("JSON lacks %q: %s", key, b)
		}
	}
}

func TestStatsSymmetricGraphs(t *testing.T) {
	// Generated graphs store each undirected edge twice, without loops.
	d := mustCLUSTER(t, 40)
	s := d.Stats()
	if s.Edges != 2*s.EdgesUndirected || s.Graphs != 60 || s.Train != 40 {
		t.Errorf("%+v", s)
	}
}

func BenchmarkStatsPATTERN(b *testing.B) {
	d, err := GeneratePATTERN(SBMOptions{Seed: 1, Train: 2000, Val: 200, Test: 200})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		d.Stats()
	}
}
