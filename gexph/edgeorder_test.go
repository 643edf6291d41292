package gexph_test

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
)

// TestShuffledEdgesComputeTheSameFunction checks that a batch with its local edges in
// another order holds the same edges (and the interaction edges still point at the
// same local edges), and that the model's loss, outputs and gradients on it equal the
// original's up to float32's reordering of sums.
func TestShuffledEdgesComputeTheSameFunction(t *testing.T) {
	cfg, err := gexph.Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dropout, cfg.AttnDropout = 0, 0
	ds, err := data.Load("pattern", data.LoadOptions{Seed: 3, TrainGraphs: 4, ValGraphs: 1, TestGraphs: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, b := trainingBatch(t, cfg, ds)
	s := b.ShuffledEdges(7)
	if !b.Inputs.HSource.Present() {
		t.Fatal("the demo preset's batch has no interaction edges: nothing refers to local edges")
	}
	checkSameEdges(t, b, s)
	want, err := m.LossGradients(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.LossGradients(s)
	if err != nil {
		t.Fatal(err)
	}
	if e := maxRel(got.Outputs, want.Outputs); e > 1e-5 || math.Abs(got.Loss-want.Loss) > 1e-5*math.Abs(want.Loss) {
		t.Errorf("outputs differ by %g relative, loss %g against %g", e, got.Loss, want.Loss)
	}
	var scale, diff float64
	for _, name := range want.Names {
		for i, w := range want.ByName[name] {
			scale = math.Max(scale, math.Abs(float64(w)))
			diff = math.Max(diff, math.Abs(float64(got.ByName[name][i]-w)))
		}
	}
	if diff > 1e-4*scale {
		t.Errorf("gradients differ by %g of their scale %g", diff/scale, scale)
	}
}

// checkSameEdges checks that s lists b's real edges (endpoints, mask) in another order,
// its padding edges where b has them, and that every interaction edge refers to the
// same local edge in both.
func checkSameEdges(t *testing.T, b, s *gexph.Batch) {
	t.Helper()
	in, sh := b.Inputs, s.Inputs
	type edge struct{ src, dst int32 }
	var was, now []edge
	moved := 0
	for i := 0; i < b.NumEdges; i++ {
		was = append(was, edge{in.Src.I32[i], in.Dst.I32[i]})
		now = append(now, edge{sh.Src.I32[i], sh.Dst.I32[i]})
		if was[i] != now[i] {
			moved++
		}
	}
	order := func(a, c edge) int { return cmp.Or(cmp.Compare(a.src, c.src), cmp.Compare(a.dst, c.dst)) }
	slices.SortFunc(was, order)
	slices.SortFunc(now, order)
	if !slices.Equal(was, now) || moved == 0 {
		t.Fatalf("shuffled edges are not the same edges in another order (%d of %d moved)", moved, b.NumEdges)
	}
	if !slices.Equal(in.Src.I32[b.NumEdges:], sh.Src.I32[b.NumEdges:]) || !slices.Equal(in.EdgeMask.F32[b.NumEdges:], sh.EdgeMask.F32[b.NumEdges:]) {
		t.Error("padding edges moved")
	}
	refs := 0
	for h, code := range in.HSource.I32 {
		if code < 0 {
			continue
		}
		refs++
		now := sh.HSource.I32[h]
		if in.Src.I32[code] != sh.Src.I32[now] || in.Dst.I32[code] != sh.Dst.I32[now] {
			t.Fatalf("interaction edge %d refers to local edge %d (%d→%d), after the shuffle to %d (%d→%d)", h, code,
				in.Src.I32[code], in.Dst.I32[code], now, sh.Src.I32[now], sh.Dst.I32[now])
		}
	}
	if refs == 0 {
		t.Error("no interaction edge refers to a local edge: the renumbering is untested")
	}
}

// maxRel is max|got − want| / max|want|.
func maxRel(got, want []float32) float64 {
	var d, s float64
	for i := range want {
		d = math.Max(d, math.Abs(float64(got[i]-want[i])))
		s = math.Max(s, math.Abs(float64(want[i])))
	}
	return d / s
}

// TestWithEdgeOrderRefusesANonPermutation names the entry that breaks the permutation.
func TestWithEdgeOrderRefusesANonPermutation(t *testing.T) {
	_, b := trainingBatch(t, gexph.TinyConfig(), gexph.TinyGraphDataset(data.GraphClassification, 4, 1))
	if b.NumEdges < 2 {
		t.Fatalf("tiny batch has %d edges", b.NumEdges)
	}
	dup := make([]int, b.NumEdges)
	if _, err := b.WithEdgeOrder(dup); err == nil || !strings.Contains(err.Error(), "entry 1") {
		t.Errorf("repeated entry: %v", err)
	}
	if _, err := b.WithEdgeOrder([]int{0}); err == nil || !strings.Contains(err.Error(), "1 entries") {
		t.Errorf("short order: %v", err)
	}
}

// trainingBatch builds cfg's model for ds (closed when the test ends) and the batch of
// all its training graphs.
func trainingBatch(t *testing.T, cfg gexph.Config, ds *data.Dataset) (*gexph.Model, *gexph.Batch) {
	t.Helper()
	m, err := gexph.NewModel(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	b, err := m.BuildBatch(ds, ds.Split.Train, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, b
}
