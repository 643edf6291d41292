package gexph

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// graphLoss evaluates lossGraph on host values.
func graphLoss(t *testing.T, m *Model, out []float32, rows int, labels []int32, targets, weights []float32) float64 {
	t.Helper()
	backend, err := NewBackend("")
	if err != nil {
		t.Fatal(err)
	}
	k := m.spec.outDim
	args := []any{tensors.FromFlatDataAndDimensions(out, rows, k), tensors.FromFlatDataAndDimensions(weights, rows)}
	if labels != nil {
		args = append(args, tensors.FromFlatDataAndDimensions(labels, rows))
	} else {
		args = append(args, tensors.FromFlatDataAndDimensions(targets, rows, k))
	}
	res, err := model.CallOnce(backend, model.NewStore(), func(scope *model.Scope, ins []*Node) *Node {
		in := &Inputs[*Node]{Weights: ins[1]}
		if labels != nil {
			in.Labels = ins[2]
		} else {
			in.Targets = ins[2]
		}
		return m.lossGraph(ins[0], in)
	}, args...)
	if err != nil {
		t.Fatal(err)
	}
	return float64(tensors.MustCopyFlatData[float32](res)[0])
}

func TestLossGraphMatchesHost(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const rows = 23
	for _, tc := range []struct {
		loss    string
		task    data.Task
		classes int
	}{
		{LossCrossEntropy, data.NodeClassification, 4},
		{LossCrossEntropy, data.NodeClassification, 2},
		{LossWeightedCrossEntropy, data.NodeClassification, 4},
		{LossWeightedCrossEntropy, data.NodeClassification, 2},
		{LossBCE, data.GraphMultiLabel, 3},
		{LossL1, data.GraphRegression, 3},
		{LossMSE, data.GraphRegression, 2},
	} {
		m := &Model{loss: tc.loss, spec: dataSpec{task: tc.task, numClasses: tc.classes, outDim: tc.classes}}
		if tc.classes == 2 && tc.task == data.NodeClassification {
			m.spec.outDim = 1
		}
		k := m.spec.outDim
		out := make([]float32, rows*k)
		for i := range out {
			out[i] = float32(rng.NormFloat64() * 2)
		}
		weights := make([]float32, rows)
		for i := range weights {
			if rng.IntN(4) > 0 {
				weights[i] = 1
			}
		}
		var labels []int32
		var targets []float32
		if tc.task == data.NodeClassification {
			labels = make([]int32, rows)
			for i := range labels {
				labels[i] = int32(rng.IntN(tc.classes))
			}
		} else {
			targets = make([]float32, rows*k)
			for i := range targets {
				if tc.loss == LossBCE {
					targets[i] = float32(rng.IntN(2))
				} else {
					targets[i] = float32(rng.NormFloat64())
				}
			}
		}
		want, _ := m.hostLoss(out, labels, targets, weights)
		got := graphLoss(t, m, out, rows, labels, targets, weights)
		if math.Abs(got-want) > 1e-5*math.Max(1, want) {
			t.Errorf("%s with %d outputs: graph loss %v, host loss %v", tc.loss, k, got, want)
		}
	}
}

// TestWeightedCrossEntropyByHand checks the binary weighted loss on four rows.
func TestWeightedCrossEntropyByHand(t *testing.T) {
	m := &Model{loss: LossWeightedCrossEntropy, spec: dataSpec{task: data.NodeClassification, numClasses: 2, outDim: 1}}
	z := []float32{0, 2, -1, 1}
	y := []int32{1, 0, 0, 0}
	w := []float32{1, 1, 1, 1}
	bce := func(z, y float64) float64 { return math.Log(1+math.Exp(z)) - z*y }
	// V = 4, one positive: class weights W1 = 3/4, W0 = 1/4; divided by V (PyTorch's mean).
	want := (0.75*bce(0, 1) + 0.25*(bce(2, 0)+bce(-1, 0)+bce(1, 0))) / 4
	if got := graphLoss(t, m, z, 4, y, nil, w); math.Abs(got-want) > 1e-6 {
		t.Errorf("graph loss %v, want %v", got, want)
	}
	if got, sumW := m.hostLoss(z, y, nil, w); math.Abs(got-want) > 1e-12 || sumW != 4 {
		t.Errorf("host loss %v (weight %v), want %v", got, sumW, want)
	}
	// Three classes: Σ W_y ℓ / Σ W_y with W_c = (V − n_c)/V.
	m3 := &Model{loss: LossWeightedCrossEntropy, spec: dataSpec{task: data.NodeClassification, numClasses: 3, outDim: 3}}
	out := []float32{1, 0, 0, 0, 1, 0, 0, 0, 1}
	labels := []int32{0, 0, 1}
	ce := func(row []float32, y int32) float64 {
		s := 0.0
		for _, v := range row {
			s += math.Exp(float64(v))
		}
		return math.Log(s) - float64(row[y])
	}
	w0, w1 := 1.0/3, 2.0/3
	want3 := (w0*ce(out[0:3], 0) + w0*ce(out[3:6], 0) + w1*ce(out[6:9], 1)) / (2*w0 + w1)
	if got := graphLoss(t, m3, out, 3, labels, nil, []float32{1, 1, 1}); math.Abs(got-want3) > 1e-6 {
		t.Errorf("three classes: graph loss %v, want %v", got, want3)
	}
}

// TestLossGradientsChangesNoVariable checks that the training-mode pass leaves the
// batch norms' running statistics and the random state as they were: the inference
// outputs after it are those before it, and a second pass (dropout on) repeats the
// first exactly.
func TestLossGradientsChangesNoVariable(t *testing.T) {
	cfg := tinyConfig()
	cfg.Layers, cfg.Dropout = 2, 0.3
	ds := tinyTransductiveDataset(5)
	m, err := NewModel(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b, err := m.BuildBatch(ds, []int{0}, ds.Split.Train)
	if err != nil {
		t.Fatal(err)
	}
	before, err := m.Predict(b)
	if err != nil {
		t.Fatal(err)
	}
	first, err := m.LossGradients(b)
	if err != nil {
		t.Fatal(err)
	}
	second, err := m.LossGradients(b)
	if err != nil {
		t.Fatal(err)
	}
	after, err := m.Predict(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, after) {
		t.Error("inference outputs changed after a training-mode pass")
	}
	if first.Loss != second.Loss || !slices.Equal(first.Outputs, second.Outputs) {
		t.Errorf("a second training-mode pass differs: loss %v against %v", second.Loss, first.Loss)
	}
}

// TestFloat64ModelRefusesToTrain checks that a float64 model, a reference for compare,
// refuses a training step with an error that names it, instead of failing inside.
func TestFloat64ModelRefusesToTrain(t *testing.T) {
	ds := tinyNodeDataset(8, 3)
	m, err := NewModelWithOptions(tinyConfig(), ds, ModelOptions{Float64: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b, err := m.BuildBatch(ds, ds.Split.Train, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(b); err != nil {
		t.Fatalf("a float64 model predicts: %v", err)
	}
	if _, err := m.TrainStep(b); err == nil || !strings.Contains(err.Error(), "Float64") {
		t.Errorf("TrainStep on a float64 model: %v", err)
	}
}
