package gexph

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
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
		{"graphs-pow2", tinyGraphDataset(data.GraphClassification, 8, 3), "pow2"},
		{"nodes-none", tinyNodeDataset(8, 3), "none"},
		{"transductive", tinyTransductiveDataset(5), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig()
			cfg.Layers, cfg.Dropout, cfg.AttnDropout = 2, 0.5, 0.3
			res, err := CompareBackends(cfg, tc.ds, CompareOptions{Backend: "go", Reference: "go", Padding: tc.padding})
			if err != nil {
				t.Fatal(err)
			}
			if !res.OK || res.Inference.RelErr != 0 || res.Training.RelErr != 0 || res.LossDiff.RelErr != 0 || res.WorstGradient.RelErr != 0 {
				t.Errorf("go against go differs: inference %g, training %g, loss %g, worst gradient %s %g",
					res.Inference.RelErr, res.Training.RelErr, res.LossDiff.RelErr, res.WorstGradient.Name, res.WorstGradient.RelErr)
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

// TestCompareBackendsVerdictSeesEachDifference perturbs one quantity at a time past the
// tolerance and checks that the verdict fails and names it.
func TestCompareBackendsVerdictSeesEachDifference(t *testing.T) {
	base := func() *probeResult {
		return &probeResult{
			inference: []float32{1, -2, 3}, training: []float32{0.5, 0.25}, loss: 0.7,
			names: []string{"a/w", "b/w"},
			grads: map[string][]float32{"a/w": {0.1, -0.2}, "b/w": {1e-3, 0}},
		}
	}
	ok := BackendComparison{Tolerance: 1e-4}
	ok.fill(base(), base())
	if !ok.OK {
		t.Fatalf("identical probes fail: %+v", ok)
	}
	for _, tc := range []struct {
		name  string
		edit  func(p *probeResult)
		check func(r BackendComparison) bool
	}{
		{"inference", func(p *probeResult) { p.inference[2] *= 1.001 }, func(r BackendComparison) bool { return r.Inference.RelErr > 1e-4 }},
		{"training", func(p *probeResult) { p.training[0] = 0.5001 }, func(r BackendComparison) bool { return r.Training.RelErr > 1e-4 }},
		{"loss", func(p *probeResult) { p.loss = 0.7001 }, func(r BackendComparison) bool { return r.LossDiff.RelErr > 1e-4 }},
		{"small gradient", func(p *probeResult) { p.grads["b/w"][1] = 1e-6 }, func(r BackendComparison) bool { return r.WorstGradient.Name == "b/w" }},
		{"missing gradient", func(p *probeResult) { delete(p.grads, "a/w") }, func(r BackendComparison) bool {
			return r.WorstGradient.Name == "a/w" && math.IsInf(r.WorstGradient.RelErr, 1)
		}},
		{"NaN gradient", func(p *probeResult) { p.grads["a/w"][0] = float32(math.NaN()) }, func(r BackendComparison) bool {
			return r.WorstGradient.Name == "a/w" && math.IsNaN(r.WorstGradient.RelErr)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := base()
			tc.edit(got)
			r := BackendComparison{Tolerance: 1e-4}
			r.fill(got, base())
			if r.OK || !tc.check(r) {
				t.Errorf("verdict OK=%v, worst gradient %s %g, inference %g, training %g, loss %g",
					r.OK, r.WorstGradient.Name, r.WorstGradient.RelErr, r.Inference.RelErr, r.Training.RelErr, r.LossDiff.RelErr)
			}
		})
	}
	// A gradient that is zero on the reference and not on the other backend has no
	// scale to be relative to: an infinite error, never a pass.
	want, got := base(), base()
	want.grads["b/w"], got.grads["b/w"] = []float32{0, 0}, []float32{0, 1e-9}
	r := BackendComparison{Tolerance: 1e-4}
	r.fill(got, want)
	if r.OK || r.WorstGradient.Name != "b/w" || !math.IsInf(r.WorstGradient.RelErr, 1) {
		t.Errorf("zero reference gradient: OK=%v, worst %s %g", r.OK, r.WorstGradient.Name, r.WorstGradient.RelErr)
	}
}

// TestCompareBackendsRefusesBadInput names the backend that fails and the tolerance
// that cannot be right.
func TestCompareBackendsRefusesBadInput(t *testing.T) {
	ds := tinyGraphDataset(data.GraphClassification, 6, 1)
	if _, err := CompareBackends(tinyConfig(), ds, CompareOptions{Backend: "nosuch"}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown backend: %v", err)
	}
	if _, err := CompareBackends(tinyConfig(), ds, CompareOptions{Tolerance: math.NaN()}); err == nil || !strings.Contains(err.Error(), "tolerance") {
		t.Errorf("NaN tolerance: %v", err)
	}
}

// TestTensorDiffJSONHoldsNonFiniteErrors checks that a NaN or infinite difference is
// written as a string, not a JSON encoding error, and finite ones as numbers.
func TestTensorDiffJSONHoldsNonFiniteErrors(t *testing.T) {
	for _, tc := range []struct {
		d    TensorDiff
		want string
	}{
		{TensorDiff{Name: "a", Size: 2, MaxAbs: 0.5, RelErr: 0.25}, `{"name":"a","size":2,"max_abs":0.5,"rel_err":0.25}`},
		{TensorDiff{Name: "b", Size: 1, MaxAbs: math.NaN(), RelErr: math.NaN()}, `{"name":"b","size":1,"max_abs":"NaN","rel_err":"NaN"}`},
		{TensorDiff{Name: "c", Size: 3, MaxAbs: 1, RelErr: math.Inf(1)}, `{"name":"c","size":3,"max_abs":1,"rel_err":"+Inf"}`},
	} {
		got, err := json.Marshal(tc.d)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.d.Name, got, err, tc.want)
		}
	}
}
