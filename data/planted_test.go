package data

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestPlantedPartitionStatistics(t *testing.T) {
	o := DefaultPlantedPartitionOptions(20000, 3)
	d, err := GeneratePlantedPartition(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	g := &d.Graphs[0]
	// ⌊N·deg/2⌉ draws; loops and duplicates (about deg²/(8·N/c) of them in a community)
	// are rare, so the directed count is close to N·deg.
	wantE := float64(o.Nodes) * o.AvgDegree
	if got := float64(len(g.Src)); got > wantE || got < 0.99*wantE {
		t.Errorf("%v directed edges, want just under %v", got, wantE)
	}
	// Symmetric, no loops, no duplicates; the fraction of same-community edges is
	// h + (1−h)/c.
	seen := map[[2]int32]bool{}
	same := 0
	for i := range g.Src {
		u, v := g.Src[i], g.Dst[i]
		if u == v {
			t.Fatalf("self loop at %d", u)
		}
		if seen[[2]int32{u, v}] {
			t.Fatalf("duplicate edge %d→%d", u, v)
		}
		seen[[2]int32{u, v}] = true
		if g.NodeLabels[u] == g.NodeLabels[v] {
			same++
		}
	}
	for e := range seen {
		if !seen[[2]int32{e[1], e[0]}] {
			t.Fatalf("edge %d→%d has no reverse", e[0], e[1])
		}
	}
	wantSame := o.Homophily + (1-o.Homophily)/float64(o.Classes)
	if got := float64(same) / float64(len(g.Src)); math.Abs(got-wantSame) > 0.01 {
		t.Errorf("same-community edge fraction %.4f, want %.4f", got, wantSame)
	}
	// The feature at the node's own class has mean s + (1−s)/c (its one-hot, plus
	// zero-mean noise); the last feature, beyond every class, has mean 0.
	var own, last float64
	for i := range g.NumNodes {
		own += float64(g.Node.Dense[i*o.FeatureDim+int(g.NodeLabels[i])])
		last += float64(g.Node.Dense[(i+1)*o.FeatureDim-1])
	}
	own, last = own/float64(g.NumNodes), last/float64(g.NumNodes)
	wantOwn := o.FeatureSignal + (1-o.FeatureSignal)/float64(o.Classes)
	if math.Abs(own-wantOwn) > 0.02 || math.Abs(last) > 0.02 {
		t.Errorf("mean own-class feature %.4f (want %.4f), mean last feature %.4f (want 0)", own, wantOwn, last)
	}
	if n := len(d.Split.Train) + len(d.Split.Val) + len(d.Split.Test); n != o.Nodes || len(d.Split.Train) != 12000 || len(d.Split.Val) != 4000 {
		t.Errorf("split %d/%d/%d of %d nodes, want 60/20/20", len(d.Split.Train), len(d.Split.Val), len(d.Split.Test), o.Nodes)
	}
}

func TestPlantedPartitionSeed(t *testing.T) {
	a, err := GeneratePlantedPartition(DefaultPlantedPartitionOptions(500, 1))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GeneratePlantedPartition(DefaultPlantedPartitionOptions(500, 1))
	c, _ := GeneratePlantedPartition(DefaultPlantedPartitionOptions(500, 2))
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different data sets")
	}
	if reflect.DeepEqual(a.Graphs[0].Src, c.Graphs[0].Src) {
		t.Error("seeds 1 and 2 gave the same edges")
	}
}

func TestPlantedPartitionBadOptions(t *testing.T) {
	ok := DefaultPlantedPartitionOptions(100, 1)
	for _, tc := range []struct {
		edit func(o *PlantedPartitionOptions)
		want string
	}{
		{func(o *PlantedPartitionOptions) { o.Nodes = 1 }, "Nodes = 1"},
		{func(o *PlantedPartitionOptions) { o.Classes = 1 }, "Classes = 1"},
		{func(o *PlantedPartitionOptions) { o.AvgDegree = math.NaN() }, "AvgDegree = NaN"},
		{func(o *PlantedPartitionOptions) { o.AvgDegree = 100 }, "AvgDegree = 100"},
		{func(o *PlantedPartitionOptions) { o.Homophily = 1.5 }, "Homophily = 1.5"},
		{func(o *PlantedPartitionOptions) { o.FeatureDim = 2 }, "FeatureDim = 2"},
		{func(o *PlantedPartitionOptions) { o.FeatureSignal = -1 }, "FeatureSignal = -1"},
	} {
		o := ok
		tc.edit(&o)
		if _, err := GeneratePlantedPartition(o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one naming %q", err, tc.want)
		}
	}
}

func TestLoadPlantedSpecIsTheScalingGraph(t *testing.T) {
	got, err := Load("planted:3000", LoadOptions{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	want, err := GeneratePlantedPartition(DefaultPlantedPartitionOptions(3000, 4))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Graphs[0].Src, want.Graphs[0].Src) || !reflect.DeepEqual(got.Split, want.Split) {
		t.Error(`Load("planted:3000") differs from GeneratePlantedPartition(DefaultPlantedPartitionOptions(3000, seed))`)
	}
	for _, bad := range []string{"planted:", "planted:x", "planted:1"} {
		if _, err := Load(bad, LoadOptions{}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
