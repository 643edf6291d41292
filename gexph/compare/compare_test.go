package compare

import (
	"encoding/json"
	"math"
	"testing"
)

// baseProbe is a small probe: three inference outputs, two training outputs, a loss and
// two variables' gradients (scale 0.2).
func baseProbe() *probeResult {
	return &probeResult{
		inference: []float32{1, -2, 3}, training: []float32{0.5, 0.25}, loss: 0.7,
		names: []string{"a/w", "b/w"},
		grads: map[string][]float32{"a/w": {0.1, -0.2}, "b/w": {1e-3, 0}},
	}
}

// TestCompareBackendsVerdictSeesEachDifference perturbs one quantity at a time past the
// tolerance and checks that the verdict fails and names it.
func TestCompareBackendsVerdictSeesEachDifference(t *testing.T) {
	ok := Result{Tolerance: 1e-4}
	ok.fill(baseProbe(), baseProbe(), nil)
	if !ok.OK || len(ok.Failures()) != 0 {
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
		{"gradient", func(p *probeResult) { p.grads["a/w"][0] += 1e-4 }, func(r Result) bool {
			return r.WorstGradient.Name == "a/w" && math.Abs(r.WorstGradient.OfScale-5e-4) < 1e-6
		}},
		// A difference of 1e-4 on a variable whose own gradient is 1e-3 is 5e-4 of the
		// gradient's scale (0.2): beyond the tolerance although the variable is small.
		{"small gradient", func(p *probeResult) { p.grads["b/w"][1] = 1e-4 }, func(r Result) bool { return r.WorstGradient.Name == "b/w" }},
		{"missing gradient", func(p *probeResult) { delete(p.grads, "a/w") }, func(r Result) bool {
			return r.WorstGradient.Name == "a/w" && math.IsInf(r.WorstGradient.OfScale, 1)
		}},
		{"NaN gradient", func(p *probeResult) { p.grads["a/w"][0] = float32(math.NaN()) }, func(r Result) bool {
			return r.WorstGradient.Name == "a/w" && math.IsNaN(r.WorstGradient.OfScale)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := baseProbe()
			tc.edit(got)
			r := Result{Tolerance: 1e-4}
			r.fill(got, baseProbe(), nil)
			if r.OK || !tc.check(r) || len(r.Failures()) != 1 {
				t.Errorf("verdict OK=%v, failures %q, worst gradient %s %g, inference %g, training %g, loss %g",
					r.OK, r.Failures(), r.WorstGradient.Name, r.WorstGradient.OfScale, r.Inference.RelErr, r.Training.RelErr, r.LossDiff.RelErr)
			}
		})
	}
}

// TestCompareBackendsZeroGradientHoldsOnlyNoise checks that a variable whose exact
// gradient is zero (a bias before batch norm), where both backends hold rounding noise,
// is judged against the gradient's scale and passes, while a real difference there
// fails.
func TestCompareBackendsZeroGradientHoldsOnlyNoise(t *testing.T) {
	want, got := baseProbe(), baseProbe()
	want.grads["b/w"], got.grads["b/w"] = []float32{0, 2e-11}, []float32{1e-9, -3e-11}
	r := Result{Tolerance: 1e-4}
	r.fill(got, want, nil)
	if !r.OK || r.WorstGradient.Name != "b/w" || r.WorstGradient.RelErr < 1 || r.WorstGradient.OfScale > 1e-8 {
		t.Errorf("rounding noise on a zero gradient: OK=%v, worst %s rel %g of scale %g", r.OK, r.WorstGradient.Name,
			r.WorstGradient.RelErr, r.WorstGradient.OfScale)
	}
	got.grads["b/w"] = []float32{0.01, 0}
	r.fill(got, want, nil)
	if r.OK || r.WorstGradient.Name != "b/w" {
		t.Errorf("a real difference on a zero gradient passes: worst %s %g", r.WorstGradient.Name, r.WorstGradient.OfScale)
	}
}

// TestCompareBackendsBoundFollowsNoise checks that each bound is the larger of the
// tolerance and NoiseFactor times the reference's own noise on the batch: a difference
// of 5e-4 fails against the tolerance alone and passes where float32's noise is 1e-4.
func TestCompareBackendsBoundFollowsNoise(t *testing.T) {
	want, got := baseProbe(), baseProbe()
	got.training[0] *= 1 + 5e-4
	got.grads["a/w"][1] += 1e-4 // 5e-4 of the scale
	quiet := Result{Tolerance: 1e-4}
	quiet.fill(got, want, &Result{})
	if quiet.OK || len(quiet.Failures()) != 2 {
		t.Fatalf("without noise: OK=%v, failures %q", quiet.OK, quiet.Failures())
	}
	noisy := baseProbe()
	noisy.training[0] *= 1 + 1e-4
	noisy.grads["a/w"][0] += 2e-5 // 1e-4 of the scale
	var noise Result
	noise.fill(noisy, want, nil)
	r := Result{Tolerance: 1e-4}
	r.fill(got, want, &noise)
	if !r.OK || math.Abs(r.Bounds.Training-NoiseFactor*r.Noise.Training) > 1e-12 || r.Bounds.Gradients < 9e-4 ||
		r.Bounds.Inference != 1e-4 {
		t.Errorf("with noise %+v: OK=%v, bounds %+v, failures %q", r.Noise, r.OK, r.Bounds, r.Failures())
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
		{TensorDiff{Name: "d", Size: 2, MaxAbs: 1e-9, RelErr: math.Inf(1), OfScale: 5e-9}, `{"name":"d","size":2,"max_abs":1e-9,"rel_err":"+Inf","of_scale":5e-9}`},
	} {
		got, err := json.Marshal(tc.d)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.d.Name, got, err, tc.want)
		}
	}
}
