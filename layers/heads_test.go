package layers

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

func TestGraphPoolAndHeads(t *testing.T) {
	const n, d = 7, 3
	rng := rand.New(rand.NewPCG(71, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	graphID := []int32{0, 2, 0, 2, 2, 0, 2} // Graph 1 has no node.
	mask := []bool{true, true, false, true, false, true, true}
	store := newStore(t, 72)
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		m := in[2]
		return []*Node{
			GraphPool(in[0], in[1], m, 3, PoolMean),
			GraphPool(in[0], in[1], nil, 3, PoolSum),
			GraphHead(scope.In("head"), in[0], in[1], m, 3, PoolMean, 2, 4),
			LinkScores(in[0], in[3], in[4]),
		}
	}, xT, graphID, mask, []int32{0, 3, 6}, []int32{1, 3, 2})
	sum, count := make([]float64, 3*d), make([]float64, 3)
	maskedSum := make([]float64, 3*d)
	for i, g := range graphID {
		for c := range d {
			sum[int(g)*d+c] += x[i*d+c]
			if mask[i] {
				maskedSum[int(g)*d+c] += x[i*d+c]
			}
		}
		if mask[i] {
			count[g]++
		}
	}
	mean := make([]float64, 3*d)
	for g := range 3 {
		for c := range d {
			if count[g] > 0 {
				mean[g*d+c] = maskedSum[g*d+c] / count[g]
			}
		}
	}
	if diff := maxAbsDiff(t, flat64(t, outs[0]), mean); diff > 1e-12 {
		t.Errorf("masked mean pool differs by %g", diff)
	}
	if diff := maxAbsDiff(t, flat64(t, outs[1]), sum); diff > 1e-12 {
		t.Errorf("sum pool differs by %g", diff)
	}
	// The head: Linear(d→d), ReLU, Linear(d→4) of the pooled states.
	v := func(path string) []float64 { return varValue(t, store, "/head/"+path) }
	hidden := affine(mean, 3, d, v("layer0/dense/weights"), v("layer0/dense/biases"), d)
	for i := range hidden {
		hidden[i] = max(hidden[i], 0)
	}
	if diff := maxAbsDiff(t, flat64(t, outs[2]), affine(hidden, 3, d, v("layer1/dense/weights"), v("layer1/dense/biases"), 4)); diff > 1e-12 {
		t.Errorf("graph head differs by %g", diff)
	}
	for p, pair := range [][2]int{{0, 1}, {3, 3}, {6, 2}} {
		want := 0.0
		for c := range d {
			want += x[pair[0]*d+c] * x[pair[1]*d+c]
		}
		if got := flat64(t, outs[3])[p]; math.Abs(got-want) > 1e-12 {
			t.Errorf("link score %d: %g, want %g", p, got, want)
		}
	}
}

func TestLosses(t *testing.T) {
	logits := []float64{2, -1, 0.5, 0, 0, 0, -3, 4, 1, 30, -30, 0}
	labels := []int32{0, 2, 1, 0}
	mask := []bool{true, true, true, false}
	binLabels := []float64{1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0}
	binMask := []float32{1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0}
	targets := []float64{1.5, -1, 0.5, 2, 0, 0, -2, 4, 2, 29, -31, 1}
	outs := runGraph(t, newStore(t, 73), false, func(scope *model.Scope, in []*Node) []*Node {
		lg := in[0]
		return []*Node{
			CrossEntropy(lg, in[1], in[2]),
			WeightedCrossEntropy(lg, in[1], nil),
			BCEWithLogits(Reshape(lg, 12), in[3], in[4]),
			MAE(Reshape(lg, 12), in[5], nil),
			CrossEntropy(lg, in[1], nil),
		}
	}, tensors.FromFlatDataAndDimensions(logits, 4, 3), labels, mask, binLabels, binMask, targets)
	nll := func(i int) float64 {
		row := logits[i*3 : i*3+3]
		top := max(row[0], row[1], row[2])
		lse := top + math.Log(math.Exp(row[0]-top)+math.Exp(row[1]-top)+math.Exp(row[2]-top))
		return lse - row[labels[i]]
	}
	ce := (nll(0) + nll(1) + nll(2)) / 3
	ceAll := (nll(0) + nll(1) + nll(2) + nll(3)) / 4
	// Class counts 2, 1, 1 of 4: weights (4−2)/4, 3/4, 3/4.
	w := []float64{0.5, 0.75, 0.75}
	wce := (w[0]*nll(0) + w[2]*nll(1) + w[1]*nll(2) + w[0]*nll(3)) / (w[0] + w[2] + w[1] + w[0])
	bce, bceCount := 0.0, 0.0
	mae := 0.0
	for i, z := range logits {
		if binMask[i] != 0 {
			p := 1 / (1 + math.Exp(-z))
			if binLabels[i] == 1 {
				bce -= math.Log(p)
			} else {
				bce -= math.Log1p(-p)
			}
			bceCount++
		}
		mae += math.Abs(z - targets[i])
	}
	want := []float64{ce, wce, bce / bceCount, mae / 12, ceAll}
	for i, w := range want {
		if got := flat64(t, outs[i])[0]; math.Abs(got-w) > 1e-9*max(1, math.Abs(w)) || math.IsNaN(got) {
			t.Errorf("loss %d: %.12g, want %.12g", i, got, w)
		}
	}
}
