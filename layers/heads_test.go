package layers

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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
	// For the max pool: all values negative, and a mask leaving graph 2 without pooled
	// nodes.
	xNeg := make([]float64, n*d)
	for i, v := range x {
		xNeg[i] = v - 10
	}
	maskMax := []float32{1, 0, 1, 0, 0, 0, 0}
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		m := in[2]
		return []*Node{
			GraphPool(in[0], in[1], m, 3, PoolMean),
			GraphPool(in[0], in[1], nil, 3, PoolSum),
			NewMLPHead(scope.In("head"), GraphPool(in[0], in[1], m, 3, PoolMean), 4).Layers(2).Done(),
			in[0], // (unused slot)
			GraphPool(in[0], in[1], m, 3, PoolMax),
			GraphPool(in[0], in[1], nil, 3, PoolMax),
			GraphPool(in[5], in[1], in[6], 3, PoolMax),
		}
	}, xT, graphID, mask, []int32{0, 3, 6}, []int32{1, 3, 2}, tensors.FromFlatDataAndDimensions(xNeg, n, d), maskMax)
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
	hidden := affine(mean, 3, d, v("hidden_0/dense/weights"), v("hidden_0/dense/biases"), d)
	for i := range hidden {
		hidden[i] = max(hidden[i], 0)
	}
	if diff := maxAbsDiff(t, flat64(t, outs[2]), affine(hidden, 3, d, v("output/dense/weights"), v("output/dense/biases"), 4)); diff > 1e-12 {
		t.Errorf("graph head differs by %g", diff)
	}
	if store.GetVariable("/head/hidden_1/dense/weights") != nil {
		t.Errorf("a head of 2 layers has a variable hidden_1")
	}
	// Max pools: the feature-wise maximum over each graph's pooled nodes, zeros for a
	// graph without any.
	maxPool := func(x []float64, keep func(i int) bool) []float64 {
		out := make([]float64, 3*d)
		seen := make([]bool, 3)
		for i, g := range graphID {
			if !keep(i) {
				continue
			}
			for c := range d {
				if v := x[i*d+c]; !seen[g] || v > out[int(g)*d+c] {
					out[int(g)*d+c] = v
				}
			}
			seen[g] = true
		}
		return out
	}
	for k, want := range [][]float64{
		maxPool(x, func(i int) bool { return mask[i] }),
		maxPool(x, func(int) bool { return true }),
		maxPool(xNeg, func(i int) bool { return maskMax[i] != 0 }),
	} {
		if diff := maxAbsDiff(t, flat64(t, outs[4+k]), want); diff != 0 {
			t.Errorf("max pool %d: got %v, want %v", k, flat64(t, outs[4+k]), want)
		}
	}
	if got := flat64(t, outs[6]); got[0] >= -5 || got[2*d] != 0 || got[d] != 0 {
		t.Errorf("max pool of negative values: got %v, want negative maxima for graph 0 and zeros for graphs 1, 2", got)
	}
}

// TestMLPHeadBatchNorm checks the head with batch norm in training: each hidden layer
// is a bias-free linear map, a batch norm over the masked rows (initial scale 1, offset
// 0, ε = 1e-5) and a ReLU, and the output map has a bias.
func TestMLPHeadBatchNorm(t *testing.T) {
	const b, d, out = 7, 3, 2
	rng := rand.New(rand.NewPCG(74, 1))
	xT := tensor64(rng, 1, b, d)
	x := flat64(t, xT)
	mask := []bool{true, true, false, true, false, true, true}
	build := func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewMLPHead(scope.In("head"), in[0], out).Layers(3).BatchNorm(in[1]).Done()}
	}
	// A mask of the wrong length is an error.
	if err := runGraphErr(t, build, xT, mask[:5]); err == nil || !strings.Contains(err.Error(), "mask") {
		t.Errorf("batch norm mask of 5 rows for 7: got error %v", err)
	}
	store := newStore(t, 75)
	got := flat64(t, runGraph(t, store, true, build, xT, mask)[0])
	v := func(path string) []float64 { return varValue(t, store, "/head/"+path) }
	h := x
	for _, name := range []string{"hidden_0", "hidden_1"} {
		if store.GetVariable("/head/"+name+"/dense/biases") != nil {
			t.Errorf("%s has a bias before its batch norm", name)
		}
		for _, nv := range []string{"scale", "offset", "mean", "variance"} {
			if store.GetVariable("/head/"+name+"/norm/"+nv) == nil {
				t.Errorf("no batch norm variable %s/norm/%s", name, nv)
			}
		}
		h = matmulRows(h, b, d, v(name+"/dense/weights"), d)
		mean, variance, _ := columnStats(h, b, d, mask)
		for i := range b {
			for c := range d {
				h[i*d+c] = max((h[i*d+c]-mean[c])/math.Sqrt(variance[c]+1e-5), 0)
			}
		}
	}
	want := affine(h, b, d, v("output/dense/weights"), v("output/dense/biases"), out)
	if diff := maxAbsDiff(t, got, want); diff > 1e-12 {
		t.Errorf("head with batch norm differs by %g", diff)
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

// bceRef is the binary cross-entropy of logit z against target y in float64.
func bceRef(z, y float64) float64 {
	p := 1 / (1 + math.Exp(-z))
	return -(y*math.Log(p) + (1-y)*math.Log1p(-p))
}

// TestWeightedLosses checks the losses' weights (row weights as bool or 0/1 float, entry
// weights, a batch without weight) and the single-logit paths of the cross-entropies
// against float64 loops.
func TestWeightedLosses(t *testing.T) {
	const b, c = 4, 3
	logits := []float64{2, -1, 0.5, 0, 0, 0, -3, 4, 1, 30, -30, 0}
	labels := []int32{0, 2, 1, 0}
	rowW := []float64{1, 0, 1, 1}
	rowMask := []bool{true, false, true, true}
	targets := []float64{1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0}
	entryW := []float32{1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0}
	values := []float64{1.5, -1, 0.5, 2, 0, 0, -2, 4, 2, 29, -31, 1}
	// Single logit: a binary task.
	z := []float64{1.5, -0.5, 0.25, -2, 3, 0.75}
	y := []int32{1, 0, 0, 1, 1, 1}
	zW := []float64{1, 1, 0, 1, 1, 0}
	noW := []float64{0, 0, 0, 0}
	outs := runGraph(t, newStore(t, 76), false, func(scope *model.Scope, in []*Node) []*Node {
		lg, lb := in[0], in[1]
		return []*Node{
			CrossEntropy(lg, lb, in[2]),               // 0
			CrossEntropy(lg, lb, in[3]),               // 1
			WeightedCrossEntropy(lg, lb, in[2]),       // 2
			BCEWithLogits(lg, in[4], in[2]),           // 3
			BCEWithLogits(lg, in[4], in[5]),           // 4
			BCEWithLogits(lg, in[4], in[3]),           // 5
			MSE(lg, in[6], nil),                       // 6
			MSE(lg, in[6], in[2]),                     // 7
			MSE(lg, in[6], in[5]),                     // 8
			MAE(lg, in[6], in[3]),                     // 9
			CrossEntropy(in[7], in[8], nil),           // 10
			CrossEntropy(in[7], in[8], in[9]),         // 11
			WeightedCrossEntropy(in[7], in[8], in[9]), // 12
			WeightedCrossEntropy(in[7], in[8], nil),   // 13
			CrossEntropy(lg, lb, in[10]),              // 14
			MSE(lg, in[6], in[10]),                    // 15
		}
	}, tensors.FromFlatDataAndDimensions(logits, b, c), labels, rowW, rowMask,
		tensors.FromFlatDataAndDimensions(targets, b, c), tensors.FromFlatDataAndDimensions(entryW, b, c),
		tensors.FromFlatDataAndDimensions(values, b, c),
		tensors.FromFlatDataAndDimensions(z, len(z), 1), y, zW, noW)

	nll := func(i int) float64 {
		row := logits[i*c : (i+1)*c]
		top := slices.Max(row)
		sum := 0.0
		for _, v := range row {
			sum += math.Exp(v - top)
		}
		return top + math.Log(sum) - row[labels[i]]
	}
	// weightedMean is Σ w v / Σ w (0 without weight).
	weightedMean := func(v, w []float64) float64 {
		num, den := 0.0, 0.0
		for i := range v {
			num += w[i] * v[i]
			den += w[i]
		}
		if den == 0 {
			return 0
		}
		return num / den
	}
	// classWeighted is GraphGPS's weighted cross-entropy of per-row losses l with
	// classes cls and row weights w: Σ w W ℓ over Σ w W (norm = false) or over V (norm =
	// true), W_k = (V − n_k)/V.
	classWeighted := func(l []float64, cls []int32, w []float64, numClasses int, overV bool) float64 {
		total, count := 0.0, make([]float64, numClasses)
		for i := range l {
			total += w[i]
			count[cls[i]] += w[i]
		}
		num, den := 0.0, 0.0
		for i := range l {
			wc := 0.0
			if count[cls[i]] > 0 {
				wc = (total - count[cls[i]]) / total
			}
			num += w[i] * wc * l[i]
			den += w[i] * wc
		}
		if overV {
			return num / total
		}
		return num / den
	}
	rowNLL := make([]float64, b)
	for i := range b {
		rowNLL[i] = nll(i)
	}
	// Row weights broadcast over the entries, and entry weights.
	perEntry := func(f func(i int) float64, w func(i int) float64) float64 {
		num, den := 0.0, 0.0
		for i := range b * c {
			num += w(i) * f(i)
			den += w(i)
		}
		return num / den
	}
	rowOf := func(i int) float64 { return rowW[i/c] }
	entryOf := func(i int) float64 { return float64(entryW[i]) }
	bce := func(i int) float64 { return bceRef(logits[i], targets[i]) }
	sq := func(i int) float64 { return (logits[i] - values[i]) * (logits[i] - values[i]) }
	abs := func(i int) float64 { return math.Abs(logits[i] - values[i]) }
	ones := func(int) float64 { return 1 }
	zNLL := make([]float64, len(z))
	for i := range z {
		zNLL[i] = bceRef(z[i], float64(y[i]))
	}
	zOnes := []float64{1, 1, 1, 1, 1, 1}
	ce := weightedMean(rowNLL, rowW)
	want := []float64{
		ce, ce, // Float and bool row weights.
		classWeighted(rowNLL, labels, rowW, c, false),
		perEntry(bce, rowOf), perEntry(bce, entryOf), perEntry(bce, rowOf),
		perEntry(sq, ones), perEntry(sq, rowOf), perEntry(sq, entryOf),
		perEntry(abs, rowOf),
		weightedMean(zNLL, zOnes), weightedMean(zNLL, zW),
		classWeighted(zNLL, y, zW, 2, true), classWeighted(zNLL, y, zOnes, 2, true),
		0, 0, // No weight.
	}
	// The cases must differ for the comparisons to tell the weightings apart.
	if ce == weightedMean(rowNLL, zOnes[:b]) || perEntry(bce, rowOf) == perEntry(bce, entryOf) ||
		classWeighted(zNLL, y, zW, 2, true) == classWeighted(zNLL, y, zW, 2, false) {
		t.Fatalf("the test cases do not tell the weightings apart")
	}
	for i, w := range want {
		if got := flat64(t, outs[i])[0]; math.Abs(got-w) > 1e-9*max(1, math.Abs(w)) || math.IsNaN(got) {
			t.Errorf("loss %d: %.12g, want %.12g", i, got, w)
		}
	}
}

// TestMLPHeadL2Normalize checks the head with L2Normalize against the reference code's
// GraphGym MLP computed here by hand: each hidden layer Linear, ReLU, then the row
// divided by its L2 norm (F.normalize), the output layer a plain linear map.
func TestMLPHeadL2Normalize(t *testing.T) {
	const b, d, out = 6, 4, 1
	rng := rand.New(rand.NewPCG(76, 1))
	xT := tensor64(rng, 1, b, d)
	x := flat64(t, xT)
	build := func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewMLPHead(scope.In("head"), in[0], out).Layers(3).L2Normalize(true).Done()}
	}
	store := newStore(t, 77)
	got := flat64(t, runGraph(t, store, true, build, xT)[0])
	v := func(path string) []float64 { return varValue(t, store, "/head/"+path) }
	h := x
	for _, name := range []string{"hidden_0", "hidden_1"} {
		h = affine(h, b, d, v(name+"/dense/weights"), v(name+"/dense/biases"), d)
		for i := range b {
			norm := 0.0
			for c := range d {
				h[i*d+c] = max(h[i*d+c], 0)
				norm += h[i*d+c] * h[i*d+c]
			}
			norm = max(math.Sqrt(norm), 1e-12)
			for c := range d {
				h[i*d+c] /= norm
			}
		}
	}
	want := affine(h, b, d, v("output/dense/weights"), v("output/dense/biases"), out)
	if diff := maxAbsDiff(t, got, want); diff > 1e-12 {
		t.Errorf("head with L2 normalisation differs from the hand computation by %g", diff)
	}
	// Without it the same variables give another result: the option is not a no-op.
	plain := flat64(t, runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewMLPHead(scope.In("head"), in[0], out).Layers(3).Done()}
	}, xT)[0])
	if diff := maxAbsDiff(t, plain, want); diff < 1e-6 {
		t.Errorf("head without L2 normalisation equals the normalised one (diff %g)", diff)
	}
}

// TestL2NormalizeRowsZeroRow checks l2NormalizeRows against F.normalize on a zero row
// (a hidden layer whose ReLU is off everywhere): the row stays zero and its gradient is
// finite, c/1e-12 as PyTorch's (x / max(‖x‖, ε) with ‖x‖ = 0 below ε), where the
// square root's derivative alone would be infinite; behind the ReLU it is zeroed.
func TestL2NormalizeRowsZeroRow(t *testing.T) {
	x := tensors.FromFlatDataAndDimensions([]float64{3, 4, 0, 0}, 2, 2)
	outs := runGraph(t, newStore(t, 1), false, func(_ *model.Scope, in []*Node) []*Node {
		y := l2NormalizeRows(in[0])
		coef := Const(in[0].Graph(), [][]float64{{1, 2}, {3, 4}})
		return []*Node{y, Gradient(ReduceAllSum(Mul(y, coef)), in[0])[0]}
	}, x)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), []float64{0.6, 0.8, 0, 0}); diff > 1e-12 {
		t.Errorf("normalised rows %v, want [0.6 0.8 0 0]", flat64(t, outs[0]))
	}
	// d/dx (c·x/‖x‖) = (c − (c·y) y)/‖x‖ for the first row; c/1e-12 for the zero row.
	c, y := []float64{1, 2}, []float64{0.6, 0.8}
	cy := c[0]*y[0] + c[1]*y[1]
	want := []float64{(c[0] - cy*y[0]) / 5, (c[1] - cy*y[1]) / 5, 3e12, 4e12}
	got := flat64(t, outs[1])
	if diff := maxAbsDiff(t, got[:2], want[:2]); diff > 1e-12 {
		t.Errorf("gradient of the first row %v, want %v", got[:2], want[:2])
	}
	if diff := maxAbsDiff(t, got[2:], want[2:]); diff > 1 {
		t.Errorf("gradient of the zero row %v, want %v (PyTorch's)", got[2:], want[2:])
	}
}
