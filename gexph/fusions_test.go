package gexph

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gomlx/compute/gobackend"
)

// fusionPatterns names, for each fused kernel of the pure-Go backend (third_party/compute,
// PATCHES.md), the pattern of the layers it takes: the layer to look at when its count
// changes.
var fusionPatterns = map[string]string{
	"GatherMulScatter": "out[dst] += a ⊙ x[src]: attention's weighted sum of values and GatedGCN's gated sum (layers/attention.go, layers/mpnn.go), and their backward",
	"GatheredDot":      "per-edge dot products of two gathered rows: attention's scores q_dst·k_src (layers/attention.go)",
	"GatheredOperand":  "element-wise Add/Sub/Mul of row-gathered operands: GatedGCN's endpoint sums and their backward products (layers/mpnn.go)",
	"SegmentSoftmax":   "softmax over each destination's edges and its gradient (layers/attention.go, exact softmax)",
	"TallDense":        "dense maps x·w over edges with narrow outputs (layers/util.go denseParts)",
	"TallGram":         "weight gradients xᵀ·g over the long axis (layers/util.go denseParts' custom gradient)",
	"ProductSum":       "column sums of products: batch-norm statistics and the gradients of broadcast factors (layers/norm.go)",
	"AffineRows":       "per-column affine rows: a batch norm's x ⊙ a + c and its input gradient (layers/norm.go)",
	"LogisticSlope":    "the gradient through the logistic function: GatedGCN's gates (layers/mpnn.go)",
	"ThresholdProduct": "the PE gate's MLP on one number per edge, its rectifier's pattern never formed (layers/mpnn.go scalarMLP)",
	"GatherScatter":    "out[dst] += x[src] without weights: a mean or sum aggregation's neighbour sums and their backward (layers/mpnn.go SAGEAggregate)",
	"SparseGradient":   "weight gradients xᵀ·g of dense maps on wide inputs (node features: the input encoder, a classic layer's input maps) without autodiff's two transposes",
}

// trainFusions builds the preset's model on ds and returns the fused kernels of its
// training step on its first batch of batch graphs (the whole graph when transductive).
func trainFusions(t *testing.T, preset string, ds *data.Dataset, batch int) map[string]int {
	t.Helper()
	cfg, err := Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	graphs, loss := []int{0}, ds.Split.Train
	if !ds.Transductive {
		graphs, loss = ds.Split.Train[:batch], nil
	}
	b, err := m.BuildBatch(ds, graphs, loss)
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Census(b, true)
	if err != nil {
		t.Fatal(err)
	}
	return c.Fusions
}

// checkFusions compares the fused kernels of a training step with want, naming each
// kernel whose count differs and the layer pattern it takes. The counts are those of a
// machine with 16-lane float32 vectors (AVX-512); elsewhere the tall dense kernel, which
// the backend chooses over the GEMM by the CPU's features (gobackend.TallDenseFuses: with
// AVX-512 every width up to 128 but 16, with AVX2 17 to 48 but 32), is not compared.
func checkFusions(t *testing.T, what string, got, want map[string]int) {
	t.Helper()
	avx512 := gobackend.Float32Lanes() == 16 && gobackend.TallDenseFuses(40)
	for _, name := range slices.Sorted(maps.Keys(fusionPatterns)) {
		if name == "TallDense" && !avx512 {
			continue // the counts below are AVX-512's
		}
		if got[name] != want[name] {
			t.Errorf("%s: %d %s nodes, want %d: the pattern of %s no longer matches (or matches more): check that layer, or update this count with the reason",
				what, got[name], name, want[name], fusionPatterns[name])
		}
	}
	for name := range got {
		if fusionPatterns[name] == "" {
			t.Errorf("%s: a fused kernel %q this test does not know: add it to fusionPatterns", what, name)
		}
	}
}

// The speed of the pure-Go backend rests on graph transformations that fuse the ops the
// layers build into kernels; an edit of a layer that changes its ops silently turns a
// fusion off (its results stay the same, see TestFusedKernelsEqualUnfused). The training
// steps of PATTERN's and Amazon Computers' presets, and of the GraphSAGE of cs-plus (on
// Cora, whose features are as sparse as CS's), hold exactly these fused nodes; a count
// that moves names the fusion and the layer pattern it takes.
func TestTrainingStepsHoldTheirFusedKernels(t *testing.T) {
	pattern, err := data.Load("pattern", data.LoadOptions{Seed: 1, TrainGraphs: 32, ValGraphs: 1, TestGraphs: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkFusions(t, "PATTERN's training step (pattern preset, 32 graphs)", trainFusions(t, "pattern", pattern, 32), map[string]int{
		"AffineRows": 38, "GatherMulScatter": 24, "GatheredDot": 8, "GatheredOperand": 15, "LogisticSlope": 4,
		"ProductSum": 61, "SegmentSoftmax": 8, "TallDense": 83, "TallGram": 42, "ThresholdProduct": 16,
	})
	if testing.Short() {
		return
	}
	dir := realDataDir(t, "gnn-benchmark/amazon-computers.zip")
	computers, err := data.Load("computers", data.LoadOptions{DataDir: dir, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	checkFusions(t, "Amazon Computers' training step (computers preset, the whole graph)", trainFusions(t, "computers", computers, 1), map[string]int{
		"AffineRows": 26, "GatherMulScatter": 24, "GatheredDot": 8, "ProductSum": 39, "SegmentSoftmax": 8, "SparseGradient": 1, "TallDense": 44, "TallGram": 26,
	})
	cora, err := data.Load("cora", data.LoadOptions{DataDir: realDataDir(t, "gnn-benchmark/cora.npz"), NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	checkFusions(t, "Luo et al.'s GraphSAGE on Cora's features (cs-plus preset, the whole graph)", trainFusions(t, "cs-plus", cora, 1), map[string]int{
		"GatherScatter": 4, "ProductSum": 2, "SparseGradient": 1,
	})
}

// Without fusion (go:no_fusion) a training step holds no fused node: the census counts
// what the transformations did, not the ops the layers build.
func TestNoFusionBackendFusesNothing(t *testing.T) {
	ds := tinyNodeDataset(6, 1)
	cfg := smallPreset(t, "pattern")
	m, err := NewModelWithOptions(cfg, ds, ModelOptions{Backend: "go:no_fusion"})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b, err := m.BuildBatch(ds, ds.Split.Train[:3], nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Census(b, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Fusions) != 0 {
		t.Errorf("go:no_fusion: fused nodes %v, want none", c.Fusions)
	}
}

// Bag-of-words node features (Cora's: 1.3 % of [2,708, 1,433] non-zero) take the pure-Go
// backend's products on a sparse operand (third_party/compute, ops/sparselhs.go) for the
// encoder's x · w and its weight gradient, instead of the GEMM; the losses of two
// training steps equal go:no_fusion's (the GEMM everywhere) to float32 rounding; the
// weight gradient is one fused node (SparseGradient), autodiff's transposes gone. A
// change that makes the features dense before their first product (a normalisation in
// the graph, a concatenation with the encodings) fails here.
func TestSparseFeaturesTakeTheSparseProducts(t *testing.T) {
	if testing.Short() {
		t.Skip("two training steps on a 2.7k-node graph, twice")
	}
	dir := realDataDir(t, "gnn-benchmark/cora.npz")
	cora, err := data.Load("cora", data.LoadOptions{DataDir: dir, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	steps := func(spec string) (losses [2]float64, sparse int64) {
		cfg, err := Preset("cora")
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewModelWithOptions(cfg, cora, ModelOptions{Backend: spec})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		b, err := m.BuildBatch(cora, []int{0}, cora.Split.Train)
		if err != nil {
			t.Fatal(err)
		}
		for i := range losses {
			if losses[i], err = m.TrainStep(b); err != nil {
				t.Fatal(err)
			}
		}
		if sparse, err = gobackend.SparseProducts(m.backend); err != nil {
			t.Fatal(err)
		}
		return losses, sparse
	}
	got, sparse := steps("go")
	want, gemm := steps("go:no_fusion")
	if sparse < 4 || gemm != 0 {
		t.Errorf("products on a sparse operand in two steps: %d (go), %d (go:no_fusion); want at least 4 (x · w and its weight gradient a step) and 0", sparse, gemm)
	}
	if n := trainFusions(t, "cora", cora, 1)["SparseGradient"]; n != 1 {
		t.Errorf("Cora's training step: %d SparseGradient nodes, want 1 (the encoder's weight gradient read from the features by column, not transposed twice)", n)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-5*math.Abs(want[i]) {
			t.Errorf("step %d: loss %.9g with the sparse products, %.9g with the GEMM: more than float32 rounding apart", i+1, got[i], want[i])
		}
	}
}
