package gexph

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/gomlx/core/tensors"
)

func newTestModel(t *testing.T, cfg Config, ds *data.Dataset, padding string) *Model {
	t.Helper()
	m, err := NewModelWithOptions(cfg, ds, ModelOptions{Padding: padding})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// TestBatchMatchesBuildBatch checks the unpadded interaction inputs against the expander
// package's batch, edge by edge.
func TestBatchMatchesBuildBatch(t *testing.T) {
	ds := tinyNodeDataset(6, 1)
	cfg := tinyConfig()
	cfg.VirtualNodes = 2
	m := newTestModel(t, cfg, ds, "none")
	graphs := []int{0, 3, 4}
	b, err := m.BuildBatch(ds, graphs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var in []expander.InputGraph
	for _, gi := range graphs {
		g := ds.Graphs[gi]
		in = append(in, expander.InputGraph{NumNodes: g.NumNodes, Src: g.Src, Dst: g.Dst, Seed: uint64(gi)})
	}
	h, err := expander.BuildBatch(in, m.interaction)
	if err != nil {
		t.Fatal(err)
	}
	hs, hd, src := b.Inputs.HSrc.I32, b.Inputs.HDst.I32, b.Inputs.HSource.I32
	if len(hs) != h.NumEdges() {
		t.Fatalf("%d interaction edges, BuildBatch has %d", len(hs), h.NumEdges())
	}
	for e := range hs {
		if hs[e] != h.Src[e] || hd[e] != h.Dst[e] {
			t.Fatalf("edge %d: %d→%d, BuildBatch %d→%d", e, hs[e], hd[e], h.Src[e], h.Dst[e])
		}
		var want int32
		switch expander.EdgeType(h.Type[e]) {
		case expander.EdgeLocal:
			want = h.LocalEdge[e]
		case expander.EdgeExpander:
			want = -1 - expander.LearnedEdgeType(expander.EdgeExpander, 0)
		case expander.EdgeGlobalIn:
			want = -1 - expander.LearnedEdgeType(expander.EdgeGlobalIn, int(h.Virtual[e]))
		case expander.EdgeGlobalOut:
			want = -1 - expander.LearnedEdgeType(expander.EdgeGlobalOut, int(h.Virtual[e]))
		}
		if src[e] != want {
			t.Fatalf("edge %d (type %d): source %d, want %d", e, h.Type[e], src[e], want)
		}
	}
	// Local edge e of H gathers input edge LocalEdge[e]: its endpoints must agree.
	ls, ld := b.Inputs.Src.I32, b.Inputs.Dst.I32
	for e := range hs {
		if k := src[e]; k >= 0 && (ls[k] != hs[e] || ld[k] != hd[e]) {
			t.Fatalf("interaction edge %d %d→%d takes the features of input edge %d %d→%d", e, hs[e], hd[e], k, ls[k], ld[k])
		}
	}
}

// TestModelCertifiesEachGraphsExpanderOnce checks that a model keeps the expanders it
// certified: a graph batched again is not certified again (its draws grow only with new
// graphs) and gets the same interaction graph.
func TestModelCertifiesEachGraphsExpanderOnce(t *testing.T) {
	ds := tinyNodeDataset(6, 1)
	m := newTestModel(t, tinyConfig(), ds, "none")
	before := m.draws.Len()
	first, err := m.BuildBatch(ds, []int{4, 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept := m.draws.Len()
	if kept == before {
		t.Fatalf("the model holds %d certified expanders before and after batching new graphs: it does not keep them", kept)
	}
	again, err := m.BuildBatch(ds, []int{4, 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := m.draws.Len(); n != kept {
		t.Fatalf("the same graphs batched again certified %d more expanders", n-kept)
	}
	if !slices.Equal(first.interaction.Src, again.interaction.Src) || !slices.Equal(first.interaction.Dst, again.interaction.Dst) {
		t.Fatal("the same graphs batched again have other interaction edges")
	}
}

// TestBatchPaddingLayout checks the padded layout: masks, padding edges and the virtual
// node ids behind the padded real nodes.
func TestBatchPaddingLayout(t *testing.T) {
	ds := tinyNodeDataset(6, 2)
	cfg := tinyConfig()
	cfg.VirtualNodes = 2
	m := newTestModel(t, cfg, ds, "pow2")
	b, err := m.BuildBatch(ds, []int{1, 2, 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pow2 := func(n int) int {
		p := 1
		for p < n {
			p *= 2
		}
		return p
	}
	if b.PadNodes != pow2(b.NumNodes+1) || b.PadGraphs != pow2(b.NumGraphs+1) || b.PadEdges != pow2(b.NumEdges) || b.PadInteraction != pow2(b.NumInteraction) {
		t.Fatalf("padded sizes %d %d %d %d for %d %d %d %d", b.PadNodes, b.PadGraphs, b.PadEdges, b.PadInteraction,
			b.NumNodes, b.NumGraphs, b.NumEdges, b.NumInteraction)
	}
	sum := func(x []float32) (s float64) {
		for _, v := range x {
			s += float64(v)
		}
		return s
	}
	if s := sum(b.Inputs.NodeMask.F32); s != float64(b.NumNodes) {
		t.Errorf("node mask sums to %v, want %d", s, b.NumNodes)
	}
	if s := sum(b.Inputs.NormMask.F32); s != float64(b.NumNodes+2*b.NumGraphs) {
		t.Errorf("norm mask sums to %v, want %d", s, b.NumNodes+2*b.NumGraphs)
	}
	if s := sum(b.Inputs.Weights.F32); s != float64(b.NumNodes) {
		t.Errorf("loss weights sum to %v, want %d", s, b.NumNodes)
	}
	graphID := b.Inputs.GraphID.I32
	ls, ld := b.Inputs.Src.I32, b.Inputs.Dst.I32
	for e := b.NumEdges; e < b.PadEdges; e++ {
		if ls[e] != int32(b.NumNodes) || ld[e] != int32(b.NumNodes) {
			t.Fatalf("padding edge %d is %d→%d, want the padding node %d", e, ls[e], ld[e], b.NumNodes)
		}
	}
	hs, hd, src := b.Inputs.HSrc.I32, b.Inputs.HDst.I32, b.Inputs.HSource.I32
	np := int32(b.PadNodes)
	for e := range hs {
		s, d := hs[e], hd[e]
		if e >= b.NumInteraction {
			if s != int32(b.NumNodes) || d != s {
				t.Fatalf("padding interaction edge %d is %d→%d", e, s, d)
			}
			continue
		}
		if s >= int32(b.NumNodes) && s < np || d >= int32(b.NumNodes) && d < np {
			t.Fatalf("real interaction edge %d touches a padding node (%d→%d)", e, s, d)
		}
		if src[e] >= -1 { // local or expander: both ends real, same graph
			if s >= np || d >= np || graphID[s] != graphID[d] {
				t.Fatalf("edge %d %d→%d joins graphs %d and %d", e, s, d, graphID[s], graphID[d])
			}
			continue
		}
		// Global edge: the virtual end is np + g·V + t for the real end's graph g.
		typ := -src[e] - 1
		real, virt := s, d
		wantType := expander.LearnedEdgeType(expander.EdgeGlobalIn, int((virt-np)%2))
		if s >= np {
			real, virt = d, s
			wantType = expander.LearnedEdgeType(expander.EdgeGlobalOut, int((virt-np)%2))
		}
		g := graphID[real]
		if (virt-np)/2 != g || typ != wantType {
			t.Fatalf("global edge %d %d→%d: virtual node %d of graph %d with type %d (want graph %d type %d)",
				e, s, d, virt, (virt-np)/2, typ, g, wantType)
		}
	}
}

// relDiff returns max|a−b| / max(1, max|a|).
func relDiff(a, b []float32) float64 {
	d, scale := 0.0, 1.0
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i]-b[i])))
		scale = math.Max(scale, math.Abs(float64(a[i])))
	}
	return d / scale
}

// gradients returns the gradient of the training loss on b for every trainable variable.
func gradients(t *testing.T, m *Model, b *Batch) map[string][]float32 {
	t.Helper()
	p, err := m.LossGradients(b)
	if err != nil {
		t.Fatal(err)
	}
	return p.ByName
}

// TestPaddingDoesNotChangeResults compares a padded model (powers of two, and a plan's
// shapes) and an unpadded one with the same initial weights: same inference outputs, same
// training loss, outputs and gradients, same batch-norm statistics after a step.
func TestPaddingDoesNotChangeResults(t *testing.T) {
	for _, padding := range []string{"pow2", "plan"} {
		t.Run(padding, func(t *testing.T) { testPaddingDoesNotChangeResults(t, padding) })
	}
}

// plannedBatch returns the first training batch of m's run (the graphs of epoch 1's
// first step), which a plan pads to one of its training shapes.
func plannedBatch(m *Model, ds *data.Dataset) []int {
	order := m.epochOrder(ds.Split.Train, 1)
	return order[:min(m.cfg.BatchSize, len(order))]
}

// checkPlanned fails unless b, built by m, is padded to one of the shapes of m's plan
// (levels), and not beyond them.
func checkPlanned(t *testing.T, b *Batch, levels []batchDims) {
	t.Helper()
	if !slices.Contains(levels, b.padded) {
		t.Fatalf("batch padded to %v, none of the plan's shapes %v", b.padded, levels)
	}
}

func testPaddingDoesNotChangeResults(t *testing.T, padding string) {
	for _, tc := range []struct {
		name string
		ds   *data.Dataset
		edit func(c *Config)
	}{
		{"node-gatedgcn", tinyNodeDataset(8, 3), func(c *Config) {}},
		{"node-gine", tinyNodeDataset(8, 3), func(c *Config) { c.MPNN = layers.LocalGINE }},
		{"graph-max-headnorm", tinyGraphDataset(data.GraphClassification, 8, 3), func(c *Config) { c.Pooling, c.HeadNorm = layers.PoolMax, true }},
		{"graph-categorical-edges", categoricalEdges(tinyGraphDataset(data.GraphClassification, 8, 3), 3), func(c *Config) {}},
		{"graph-mean-eslappe", tinyGraphDataset(data.GraphRegression, 8, 3), func(c *Config) {
			c.Pooling, c.PE, c.PESize, c.Metric = layers.PoolMean, PEESLap, 4, MetricMAE
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig()
			cfg.Layers = 2
			tc.edit(&cfg)
			a := newTestModel(t, cfg, tc.ds, "none")
			b := newTestModel(t, cfg, tc.ds, padding)
			graphs := plannedBatch(b, tc.ds)
			ba, err := a.BuildBatch(tc.ds, graphs, nil)
			if err != nil {
				t.Fatal(err)
			}
			bb, err := b.BuildBatch(tc.ds, graphs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if bb.PadNodes == ba.PadNodes {
				t.Fatal("the padded batch is not padded")
			}
			if padding == "plan" {
				checkPlanned(t, bb, b.plan.train.levels)
			}
			k := a.spec.outDim
			rows := ba.Rows * k
			oa, err := a.forward(ba)
			if err != nil {
				t.Fatal(err)
			}
			ob, err := b.forward(bb)
			if err != nil {
				t.Fatal(err)
			}
			fa, fb := tensors.MustCopyFlatData[float32](oa), tensors.MustCopyFlatData[float32](ob)
			if d := relDiff(fa[:rows], fb[:rows]); d > 1e-5 {
				t.Errorf("inference outputs differ by %g (relative)", d)
			}
			ga, gb := gradients(t, a, ba), gradients(t, b, bb)
			if len(ga) == 0 || len(ga) != len(gb) {
				t.Fatalf("%d and %d gradients", len(ga), len(gb))
			}
			for name, g := range ga {
				if d := relDiff(g, gb[name]); d > 1e-5 {
					t.Errorf("gradient of %s differs by %g (relative)", name, d)
				}
			}
			for _, m := range []*Model{a, b} {
				if err := m.SetLearningRate(1e-2); err != nil {
					t.Fatal(err)
				}
			}
			la, outA, err := a.trainStep(ba)
			if err != nil {
				t.Fatal(err)
			}
			lb, outB, err := b.trainStep(bb)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(la-lb) > 1e-5*math.Max(1, math.Abs(la)) {
				t.Errorf("training loss %v unpadded, %v padded", la, lb)
			}
			if d := relDiff(outA[:rows], outB[:rows]); d > 1e-5 {
				t.Errorf("training outputs differ by %g (relative)", d)
			}
			// Batch-norm running statistics (not trainable, not optimizer state).
			checked := 0
			for v := range a.store.IterVariables() {
				if v.Trainable || !v.Shape().DType.IsFloat() || strings.HasPrefix(v.Path(), "/AdamOptimizer") ||
					!(strings.HasSuffix(v.Path(), "/mean") || strings.HasSuffix(v.Path(), "/variance")) {
					continue
				}
				w := b.store.GetVariable(v.Path())
				va, vb := tensors.MustCopyFlatData[float32](v.MustValue()), tensors.MustCopyFlatData[float32](w.MustValue())
				if d := relDiff(va, vb); d > 1e-5 {
					t.Errorf("%s differs by %g after a step", v.Path(), d)
				}
				checked++
			}
			if checked == 0 {
				t.Error("no batch-norm statistics compared")
			}
		})
	}
}

// maxAbsDiff returns max|a−b|.
func maxAbsDiff(a, b []float32) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i]-b[i])))
	}
	return d
}
