package gexph_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/gexph/compare"
)

// TestCompareBackendsSameBackendIsExact holds the comparison itself: the pure-Go backend
// against itself, with the weights copied across and dropout requested in the config,
// gives identical outputs, loss and gradients for graph-level and transductive batches,
// padded or not.
func TestCompareBackendsSameBackendIsExact(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ds      *data.Dataset
		padding string
	}{
		{"graphs-pow2", gexph.TinyGraphDataset(data.GraphClassification, 8, 3), "pow2"},
		{"nodes-none", gexph.TinyNodeDataset(8, 3), "none"},
		{"transductive", gexph.TinyTransductiveDataset(5), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gexph.TinyConfig()
			cfg.Layers, cfg.Dropout, cfg.AttnDropout = 2, 0.5, 0.3
			res, err := compare.Backends(cfg, tc.ds, compare.Options{Backend: "go", Reference: "go", Padding: tc.padding})
			if err != nil {
				t.Fatal(err)
			}
			if !res.OK || res.Inference.RelErr != 0 || res.Training.RelErr != 0 || res.LossDiff.RelErr != 0 || res.WorstGradient.RelErr != 0 {
				t.Errorf("go against go differs: inference %g, training %g, loss %g, worst gradient %s %g",
					res.Inference.RelErr, res.Training.RelErr, res.LossDiff.RelErr, res.WorstGradient.Name, res.WorstGradient.RelErr)
			}
			// The noise is the reference's float32 results against its float64 twin's:
			// small, finite, and it can only raise the bounds above the tolerance.
			if n := res.Noise; !(n.Inference < 1e-4 && n.Training < 1e-4 && n.Loss < 1e-4 && n.Gradients < 1e-3) ||
				res.Bounds.Gradients < res.Tolerance || res.Bounds.Training < res.Tolerance {
				t.Errorf("noise %+v, bounds %+v", res.Noise, res.Bounds)
			}
			if len(res.Gradients) == 0 || res.Params == 0 || res.Inference.Size == 0 {
				t.Errorf("nothing compared: %d gradients, %d parameters, %d outputs", len(res.Gradients), res.Params, res.Inference.Size)
			}
			if tc.padding == "pow2" && res.PadNodes == res.Nodes {
				t.Errorf("pow2 padding left %d nodes unpadded", res.Nodes)
			}
		})
	}
}

// TestFloat64ReferenceComputesInFloat64 holds the go backend to a float64 reference on
// every kind of batch: the outputs, loss and gradients differ (so the reference does
// compute in another precision), by no more than float32's rounding, and the float64
// reference needs no noise of its own.
func TestFloat64ReferenceComputesInFloat64(t *testing.T) {
	for _, tc := range []struct {
		name string
		ds   *data.Dataset
	}{
		{"graphs", gexph.CategoricalEdges(gexph.TinyGraphDataset(data.GraphClassification, 8, 3), 3)},
		{"nodes", gexph.TinyNodeDataset(8, 3)},
		{"transductive", gexph.TinyTransductiveDataset(5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gexph.TinyConfig()
			cfg.Layers = 2
			res, err := compare.Backends(cfg, tc.ds, compare.Options{Backend: "go", ReferenceFloat64: true})
			if err != nil {
				t.Fatal(err)
			}
			if !res.ReferenceFloat64 || res.Noise != (compare.Levels{}) {
				t.Errorf("float64 reference: flag %v, noise %+v", res.ReferenceFloat64, res.Noise)
			}
			if !(res.Inference.RelErr > 0 && res.Inference.RelErr < 1e-5 && res.Training.RelErr < 1e-4 &&
				res.WorstGradient.OfScale > 0 && res.WorstGradient.OfScale < 1e-3) {
				t.Errorf("float32 against float64: inference %g, training %g, worst gradient %s %g", res.Inference.RelErr,
					res.Training.RelErr, res.WorstGradient.Name, res.WorstGradient.OfScale)
			}
		})
	}
}

// TestCompareBackendsRefusesBadInput names the backend that fails and the tolerance
// that cannot be right.
func TestCompareBackendsRefusesBadInput(t *testing.T) {
	ds := gexph.TinyGraphDataset(data.GraphClassification, 6, 1)
	if _, err := compare.Backends(gexph.TinyConfig(), ds, compare.Options{Backend: "nosuch"}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown backend: %v", err)
	}
	if _, err := compare.Backends(gexph.TinyConfig(), ds, compare.Options{Tolerance: math.NaN()}); err == nil || !strings.Contains(err.Error(), "tolerance") {
		t.Errorf("NaN tolerance: %v", err)
	}
}

// TestFusedEngineMatchesUnfusedOnPATTERN holds the go backend with its fused kernels to
// the same backend without them (go:no_fusion) on a batch of 32 PATTERN graphs with the
// paper's preset: outputs, loss and every gradient, within compare's bounds. Its edges
// are many enough for every fusion to apply, the tall Gram products of the weight
// gradients included (which sum in another order than the unfused matrix product).
func TestFusedEngineMatchesUnfusedOnPATTERN(t *testing.T) {
	if testing.Short() {
		t.Skip("a full PATTERN batch: skipped with -short")
	}
	cfg, ds := patternBatchData(t)
	res, err := compare.Backends(cfg, ds, compare.Options{Backend: "go", Reference: "go:no_fusion"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fused against unfused: inference %.3g, training %.3g, loss %.3g, worst gradient %s %.3g of the scale (float32 error %+v)",
		res.Inference.RelErr, res.Training.RelErr, res.LossDiff.RelErr, res.WorstGradient.Name, res.WorstGradient.OfScale, res.Noise)
	if !res.OK || res.WorstGradient.OfScale == 0 {
		t.Errorf("fused kernels differ from the unfused ops: %s (worst gradient %g: zero means nothing was fused)",
			strings.Join(res.Failures(), "; "), res.WorstGradient.OfScale)
	}
}

// patternBatchData is the pattern preset and a PATTERN data set of one batch of training
// graphs (and one graph in each other split), as compare takes them.
func patternBatchData(t *testing.T) (gexph.Config, *data.Dataset) {
	t.Helper()
	cfg, err := gexph.Preset("pattern")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.Load("pattern", data.LoadOptions{Seed: cfg.Seed, TrainGraphs: cfg.BatchSize, ValGraphs: 1, TestGraphs: 1})
	if err != nil {
		t.Fatal(err)
	}
	return cfg, ds
}
