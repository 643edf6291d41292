package gexph

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"
)

func TestAttentionScoresSumToOneOverEachNodesIncomingEdges(t *testing.T) {
	ds := plantedDataset(t, 300)
	m, err := NewModel(EstimatorConfig(miniConfig()), ds)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := m.AttentionScores(ds)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Layers) != 2 {
		t.Fatalf("%d layers of scores, want 2", len(s.Layers))
	}
	for l, w := range s.Layers {
		for v := range s.H.NumNodes {
			lo, hi := s.H.Offsets[v], s.H.Offsets[v+1]
			if lo == hi {
				continue
			}
			sum := 0.0
			for e := lo; e < hi; e++ {
				sum += float64(w[e])
			}
			if math.Abs(sum-1) > 1e-4 {
				t.Fatalf("layer %d, node %d: scores of %d incoming edges sum to %.6f", l, v, hi-lo, sum)
			}
		}
	}
}

func TestSparsifyKeepsAtMostKEdgesPerNodeDrawnByScore(t *testing.T) {
	ds := plantedDataset(t, 300)
	_, b, _ := fullForward(t, miniConfig(), ds, ModelOptions{})
	h := b.interaction
	// Layer 0 puts all weight on the last incoming edge of each node, layer 1 none on it.
	s := &AttentionScores{H: h, Layers: [][]float32{make([]float32, h.NumEdges()), make([]float32, h.NumEdges())}}
	for v := range h.NumNodes {
		lo, hi := h.Offsets[v], h.Offsets[v+1]
		for e := lo; e < hi; e++ {
			if e == hi-1 {
				s.Layers[0][e] = 1
			} else {
				s.Layers[1][e] = 1
			}
		}
	}
	lg, err := s.Sparsify(1, 5)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.Sparsify(1, 5)
	for l := range lg.Edges {
		if !slices.Equal(lg.Edges[l], again.Edges[l]) {
			t.Fatalf("layer %d: two draws with one seed differ", l)
		}
		perNode := make([]int, h.NumNodes)
		for _, e := range lg.Edges[l] {
			v := h.Dst[e]
			perNode[v]++
			lo, hi := h.Offsets[v], h.Offsets[v+1]
			if l == 0 && hi-lo > 1 && e != hi-1 {
				t.Fatalf("layer 0 kept edge %d of node %d, not its only scored edge %d", e, v, hi-1)
			}
			if l == 1 && hi-lo > 1 && e == hi-1 {
				t.Fatalf("layer 1 kept edge %d of node %d, whose score is 0", e, v)
			}
		}
		for v, c := range perNode {
			if want := min(1, int(h.Offsets[v+1]-h.Offsets[v])); c != want {
				t.Fatalf("layer %d, node %d: %d edges kept, want %d", l, v, c, want)
			}
		}
	}
	if _, err := s.Sparsify(0, 1); err == nil {
		t.Error("k = 0: no error")
	}
}

func TestPerLayerGraphsOfEveryEdgeEqualFullAttention(t *testing.T) {
	ds := plantedDataset(t, 300)
	cfg := miniConfig()
	full, b, want := fullForward(t, cfg, ds, ModelOptions{})
	h := b.interaction
	all := make([]int64, h.NumEdges())
	for e := range all {
		all[e] = int64(e)
	}
	cfg.SparseAttentionK = 1 // any k: the graphs are given
	_, sb, got := fullForward(t, cfg, ds, ModelOptions{LayerGraphs: &LayerGraphs{H: h, Edges: [][]int64{all, all[h.Offsets[1]:]}}})
	if sb.Inputs.HSrc.Present() || sb.Inputs.LayerHSrc.Dims[0] != 2 || sb.Inputs.LayerHSrc.Dims[1] != len(all) {
		t.Fatalf("per-layer edges %v, full edges present %v", sb.Inputs.LayerHSrc.Dims, sb.Inputs.HSrc.Present())
	}
	// The last layer lacks node 0's incoming edges: its output alone differs; with them
	// all, nothing does.
	differ := 0
	k := full.spec.outDim
	for v := range ds.Graphs[0].NumNodes {
		diff, _ := diffAndScale(t, want[v*k:(v+1)*k], got[v*k:(v+1)*k])
		if diff > 1e-5 {
			differ++
		}
	}
	if differ != 1 {
		t.Errorf("%d nodes differ from full attention, want the one whose edges the last layer dropped", differ)
	}
	_, _, got2 := fullForward(t, cfg, ds, ModelOptions{LayerGraphs: &LayerGraphs{H: h, Edges: [][]int64{all, all}}})
	if diff, scale := diffAndScale(t, want, got2); diff > 1e-5*math.Max(1, scale) {
		t.Errorf("per-layer graphs of every edge differ from full attention by %.3g", diff)
	}
}

func TestSpexphormerTrainsFromFirstStageScores(t *testing.T) {
	ds := plantedDataset(t, 600)
	dir := t.TempDir()
	stage1 := EstimatorConfig(miniConfig())
	stage1.Epochs = 3
	if _, err := Train(context.Background(), stage1, ds, TrainOptions{OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	cfg := miniConfig()
	cfg.SparseAttentionK, cfg.Epochs = 3, 3
	if _, err := Train(context.Background(), cfg, ds, TrainOptions{}); err == nil {
		t.Fatal("sparse_attention_k without first-stage scores: no error")
	}
	res, err := Train(context.Background(), cfg, ds, TrainOptions{ScoresFrom: filepath.Join(dir, BestCheckpointFile)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Epochs != 3 || !(res.ValMetric > 0.3) {
		t.Errorf("second stage: %d epochs, validation accuracy %.3f", res.Epochs, res.ValMetric)
	}
}
