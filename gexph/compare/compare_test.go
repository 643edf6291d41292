package compare

import (
	"encoding/json"
	"math"
	"testing"
)

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
	ok := Result{Tolerance: 1e-4}
	ok.fill(base(), base())
	if !ok.OK {
		t.Fatalf("identical probes fail: %+v", ok)
	}
	for _, tc := range []struct {
		name  string
		edit  func(p *probeResult)
		check func(r Result) bool
	}{
		{"inference", func(p *probeResult) { p.inference[2] *= 1.001 }, func(r Result) bool { return r.Inference.RelErr > 1e-4 }},
		{"training", func(p *probeResult) { p.training[0] = 0.5001 }, func(r Result) bool { return r.Training.RelErr > 1e-4 }},
		{"loss", func(p *probeResult) { p.loss = 0.7001 }, func(r Result) bool { return r.LossDiff.RelErr > 1e-4 }},
		{"small gradient", func(p *probeResult) { p.grads["b/w"][1] = 1e-6 }, func(r Result) bool { return r.WorstGradient.Name == "b/w" }},
		{"missing gradient", func(p *probeResult) { delete(p.grads, "a/w") }, func(r Result) bool {
			return r.WorstGradient.Name == "a/w" && math.IsInf(r.WorstGradient.RelErr, 1)
		}},
		{"NaN gradient", func(p *probeResult) { p.grads["a/w"][0] = float32(math.NaN()) }, func(r Result) bool {
			return r.WorstGradient.Name == "a/w" && math.IsNaN(r.WorstGradient.RelErr)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := base()
			tc.edit(got)
			r := Result{Tolerance: 1e-4}
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
	r := Result{Tolerance: 1e-4}
	r.fill(got, want)
	if r.OK || r.WorstGradient.Name != "b/w" || !math.IsInf(r.WorstGradient.RelErr, 1) {
		t.Errorf("zero reference gradient: OK=%v, worst %s %g", r.OK, r.WorstGradient.Name, r.WorstGradient.RelErr)
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
