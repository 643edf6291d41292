//go:build xla

package gexph_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/gexph/compare"
	"github.com/gexph/gexph/layers"
)

// xlaUnderTest returns the XLA backend the tests run on: $GEXPH_XLA_BACKEND (e.g.
// "xla:/path/to/xla_cuda_plugin.so,tf32=false", as tools/gpu/check.sh sets it), else
// XLA's CPU plugin. When it cannot be opened the test is skipped, unless
// $GEXPH_XLA_REQUIRED is set (the device check), where that is a failure.
func xlaUnderTest(t *testing.T) string {
	t.Helper()
	spec := os.Getenv("GEXPH_XLA_BACKEND")
	if spec == "" {
		spec = "xla:cpu"
	}
	b, err := gexph.NewBackend(spec)
	if err != nil {
		if os.Getenv("GEXPH_XLA_REQUIRED") != "" {
			t.Fatalf("XLA backend %q: %v", spec, err)
		}
		t.Skipf("no XLA backend %q: %v", spec, err)
	}
	b.Finalize()
	return spec
}

func TestXLABackendMissingPlugin(t *testing.T) {
	if _, err := gexph.NewBackend("xla:/nonexistent/pjrt_plugin.so"); err == nil {
		t.Error("a missing PJRT plugin gave no error")
	}
}

// TestXLATrainsWhenAvailable trains two epochs of a tiny model on the XLA backend: the
// run completes, and the result names the backend.
func TestXLATrainsWhenAvailable(t *testing.T) {
	spec := xlaUnderTest(t)
	cfg := gexph.TinyConfig()
	cfg.Epochs = 2
	res, err := gexph.Train(context.Background(), cfg, gexph.TinyNodeDataset(8, 1), gexph.TrainOptions{Backend: spec})
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend != spec || res.Epochs != 2 {
		t.Errorf("result %+v", res)
	}
}

// TestXLAMatchesGoBackend holds XLA to the go backend on one batch: inference outputs,
// training-mode outputs, loss and every gradient within 1e-4 relative, for batches of
// graphs (padded, categorical edges, mean pooling with PE) and a transductive graph.
func TestXLAMatchesGoBackend(t *testing.T) {
	spec := xlaUnderTest(t)
	for _, tc := range []struct {
		name string
		ds   *data.Dataset
		edit func(c *gexph.Config)
	}{
		{"node-gatedgcn", gexph.TinyNodeDataset(8, 3), func(c *gexph.Config) {}},
		{"graph-categorical-edges", gexph.CategoricalEdges(gexph.TinyGraphDataset(data.GraphClassification, 8, 3), 3), func(c *gexph.Config) {}},
		{"graph-mean-eslappe", gexph.TinyGraphDataset(data.GraphRegression, 8, 3), func(c *gexph.Config) {
			c.Pooling, c.PE, c.PESize, c.Metric = layers.PoolMean, gexph.PEESLap, 4, gexph.MetricMAE
		}},
		{"transductive", gexph.TinyTransductiveDataset(5), func(c *gexph.Config) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := gexph.TinyConfig()
			cfg.Layers = 2
			tc.edit(&cfg)
			res, err := compare.Backends(cfg, tc.ds, compare.Options{Backend: spec})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s against go: inference %.3g, training %.3g, loss %.3g, worst gradient %s %.3g of the scale (noise %+v)",
				spec, res.Inference.RelErr, res.Training.RelErr, res.LossDiff.RelErr, res.WorstGradient.Name, res.WorstGradient.OfScale, res.Noise)
			if !res.OK {
				t.Errorf("%s differs from go: %s", spec, strings.Join(res.Failures(), "; "))
			}
		})
	}
}

// TestXLAMatchesGoOnPATTERN holds XLA to the go backend on a batch of 32 generated
// PATTERN graphs with the paper's PATTERN preset (dropout off).
func TestXLAMatchesGoOnPATTERN(t *testing.T) {
	spec := xlaUnderTest(t)
	if testing.Short() {
		t.Skip("a full PATTERN batch: skipped with -short")
	}
	cfg, ds := patternBatchData(t)
	res, err := compare.Backends(cfg, ds, compare.Options{Backend: spec})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("PATTERN %d graphs: inference %.3g, training %.3g, loss %.3g, worst gradient %s %.3g of the scale (noise %+v)",
		res.Graphs, res.Inference.RelErr, res.Training.RelErr, res.LossDiff.RelErr, res.WorstGradient.Name, res.WorstGradient.OfScale, res.Noise)
	if !res.OK {
		t.Errorf("%s differs from go: %s", spec, strings.Join(res.Failures(), "; "))
	}
}
