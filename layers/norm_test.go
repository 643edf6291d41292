package layers

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// columnStats returns the mean and biased variance of each column of x [m, d] over the
// rows where keep is true (all rows if keep is nil), and the row count.
func columnStats(x []float64, m, d int, keep []bool) (mean, variance []float64, count int) {
	mean, variance = make([]float64, d), make([]float64, d)
	for i := range m {
		if keep != nil && !keep[i] {
			continue
		}
		count++
		for c := range d {
			mean[c] += x[i*d+c]
		}
	}
	for c := range d {
		mean[c] /= float64(max(count, 1))
	}
	for i := range m {
		if keep != nil && !keep[i] {
			continue
		}
		for c := range d {
			variance[c] += (x[i*d+c] - mean[c]) * (x[i*d+c] - mean[c])
		}
	}
	for c := range d {
		variance[c] /= float64(max(count, 1))
	}
	return mean, variance, count
}

func TestBatchNormStatistics(t *testing.T) {
	const m, d, eps = 8, 3, 1e-5
	rng := rand.New(rand.NewPCG(31, 1))
	xT := tensor64(rng, 3, m, d)
	x := flat64(t, xT)
	keep := []bool{true, false, true, true, false, true, true, true}
	for _, masked := range []bool{false, true} {
		store := newStore(t, 32)
		bn := func(scope *model.Scope, in []*Node) []*Node {
			b := NewBatchNorm(scope.In("bn"), in[0])
			if masked {
				b.Mask(in[1])
			}
			return []*Node{b.Done()}
		}
		var mask []bool
		if masked {
			mask = keep
		}
		maskArg := keep
		// Training: batch statistics of the (masked) rows, applied to every row.
		got := flat64(t, runGraph(t, store, true, bn, xT, maskArg)[0])
		mean, variance, count := columnStats(x, m, d, mask)
		want := make([]float64, m*d)
		for i := range m {
			for c := range d {
				want[i*d+c] = (x[i*d+c] - mean[c]) / math.Sqrt(variance[c]+eps)
			}
		}
		if diff := maxAbsDiff(t, got, want); diff > 1e-12 {
			t.Errorf("masked=%v: training output differs from batch statistics by %g", masked, diff)
		}
		// The running averages moved 10 % of the way from (0, 1) to the batch mean and
		// unbiased variance.
		runMean, runVar := varValue(t, store, "/bn/mean"), varValue(t, store, "/bn/variance")
		for c := range d {
			unbiased := variance[c] * float64(count) / float64(count-1)
			if math.Abs(runMean[c]-0.1*mean[c]) > 1e-12 || math.Abs(runVar[c]-(0.9+0.1*unbiased)) > 1e-12 {
				t.Errorf("masked=%v: running stats (%g, %g), want (%g, %g)", masked, runMean[c], runVar[c],
					0.1*mean[c], 0.9+0.1*unbiased)
			}
		}
		// Inference: the running averages.
		got = flat64(t, runGraph(t, store, false, bn, xT, maskArg)[0])
		for i := range m {
			for c := range d {
				want[i*d+c] = (x[i*d+c] - runMean[c]) / math.Sqrt(runVar[c]+eps)
			}
		}
		if diff := maxAbsDiff(t, got, want); diff > 1e-12 {
			t.Errorf("masked=%v: inference output differs from running statistics by %g", masked, diff)
		}
	}
}

func TestBatchNormEmptyMaskKeepsRunningStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	store := newStore(t, 34)
	outs := runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewBatchNorm(scope.In("bn"), in[0]).Mask(in[1]).Done()}
	}, tensor64(rng, 1, 4, 2), []float32{0, 0, 0, 0})
	for _, v := range flat64(t, outs[0]) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("empty mask gives non-finite output %v", v)
		}
	}
	if mean, variance := varValue(t, store, "/bn/mean"), varValue(t, store, "/bn/variance"); maxAbsDiff(t, mean, []float64{0, 0}) != 0 ||
		maxAbsDiff(t, variance, []float64{1, 1}) != 0 {
		t.Errorf("a batch without masked rows moved the running stats to %v, %v", mean, variance)
	}
}

func TestBatchNormVariables(t *testing.T) {
	store := newStore(t, 35)
	runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewBatchNorm(scope.In("bn"), in[0]).Done()}
	}, tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4}, 2, 2))
	for path, trainable := range map[string]bool{"/bn/scale": true, "/bn/offset": true, "/bn/mean": false, "/bn/variance": false} {
		v := store.GetVariable(path)
		if v == nil || v.Trainable != trainable {
			t.Errorf("variable %s: got %v, want trainable=%v", path, v, trainable)
		}
	}
}

func TestLayerNormValues(t *testing.T) {
	const m, d = 4, 5
	rng := rand.New(rand.NewPCG(36, 1))
	xT := tensor64(rng, 2, m, d)
	x := flat64(t, xT)
	got := flat64(t, runGraph(t, newStore(t, 37), true, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{layerNorm(scope, in[0])}
	}, xT)[0])
	for i := range m {
		mean, variance, _ := columnStats(x[i*d:(i+1)*d], d, 1, nil)
		for c := range d {
			want := (x[i*d+c] - mean[0]) / math.Sqrt(variance[0]+1e-5)
			if math.Abs(got[i*d+c]-want) > 1e-12 {
				t.Fatalf("row %d: layer norm %g, want %g", i, got[i*d+c], want)
			}
		}
	}
}
