package gexph

import (
	"fmt"
	"math"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/gexph/gexph/layers"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
)

// lossEpsilon guards the denominators of the losses against empty batches.
const lossEpsilon = 1e-12

// lossGraph returns the scalar training loss of the outputs out [R, outDim] against the
// labels (or targets) of in, rows weighted by in.Weights (0 leaves a row out): the
// layers package's loss of the configured kind (cross-entropy with one output is the
// sigmoid binary cross-entropy; bce, l1 and mse average over the weighted rows and all
// outputs).
func (m *Model) lossGraph(out *Node, in *Inputs[*Node]) *Node {
	switch m.loss {
	case LossCrossEntropy:
		return layers.CrossEntropy(out, in.Labels, in.Weights)
	case LossWeightedCrossEntropy:
		return layers.WeightedCrossEntropy(out, in.Labels, in.Weights)
	case LossBCE:
		return layers.BCEWithLogits(out, in.Targets, in.Weights)
	case LossL1:
		return layers.MAE(out, in.Targets, in.Weights)
	case LossMSE:
		return layers.MSE(out, in.Targets, in.Weights)
	}
	panic(fmt.Errorf("loss %q not implemented", m.loss))
}

// hostLoss computes lossGraph's value in float64 on the host for the rows of out
// ([rows × outDim], row-major) selected by weights (len rows): the loss of evaluation
// passes. It also returns the weight sum, to average losses over batches.
func (m *Model) hostLoss(out []float32, labels []int32, targets []float32, weights []float32) (loss, sumW float64) {
	k := m.spec.outDim
	rows := len(weights)
	bce := func(z, y float64) float64 { return math.Max(z, 0) - z*y + math.Log1p(math.Exp(-math.Abs(z))) }
	perRow := make([]float64, rows)
	for i := 0; i < rows; i++ {
		if weights[i] == 0 {
			continue
		}
		sumW += float64(weights[i])
		row := out[i*k : (i+1)*k]
		switch m.loss {
		case LossCrossEntropy, LossWeightedCrossEntropy:
			if k == 1 {
				perRow[i] = bce(float64(row[0]), float64(labels[i]))
				continue
			}
			mx := math.Inf(-1)
			for _, v := range row {
				mx = math.Max(mx, float64(v))
			}
			s := 0.0
			for _, v := range row {
				s += math.Exp(float64(v) - mx)
			}
			perRow[i] = mx + math.Log(s) - float64(row[labels[i]])
		default:
			t := targets[i*k : (i+1)*k]
			for j, v := range row {
				switch m.loss {
				case LossBCE:
					perRow[i] += bce(float64(v), float64(t[j]))
				case LossL1:
					perRow[i] += math.Abs(float64(v) - float64(t[j]))
				case LossMSE:
					perRow[i] += (float64(v) - float64(t[j])) * (float64(v) - float64(t[j]))
				}
			}
			perRow[i] /= float64(k)
		}
	}
	if sumW == 0 {
		return 0, 0
	}
	if m.loss != LossWeightedCrossEntropy {
		s := 0.0
		for i, l := range perRow {
			s += float64(weights[i]) * l
		}
		return s / sumW, sumW
	}
	counts := map[int32]float64{}
	for i, y := range labels[:rows] {
		counts[y] += float64(weights[i])
	}
	num, den := 0.0, 0.0
	for i, l := range perRow {
		if weights[i] == 0 {
			continue
		}
		rw := float64(weights[i]) * (sumW - counts[labels[i]]) / sumW
		num += rw * l
		den += rw
	}
	if k == 1 {
		return num / sumW, sumW
	}
	return num / math.Max(den, lossEpsilon), sumW
}

// Gradients is what one training-mode pass computes on a batch (Model.LossGradients).
type Gradients struct {
	// Loss is the training loss of the batch; Outputs the model's outputs for its real
	// rows (rows × output dimension, row-major).
	Loss    float64
	Outputs []float32
	// Names are the paths of the trainable variables the graph uses, in the store's
	// order; ByName the gradient of the loss for each.
	Names  []string
	ByName map[string][]float32
}

// LossGradients runs the training-mode pass on b (batch statistics on; dropout as the
// config says) and returns its outputs for the real rows, its loss and the gradient of
// the loss for every trainable variable the graph uses. No variable changes.
func (m *Model) LossGradients(b *Batch) (*Gradients, error) {
	if err := m.checkPresence(b); err != nil {
		return nil, err
	}
	var names []string
	e, err := model.NewExec(m.backend, m.store, func(scope *model.Scope, ins []*Node) []*Node {
		g := ins[0].Graph()
		scope.SetTraining(g, true)
		in := m.bind(ins)
		out := m.modelGraph(scope, in)
		loss := m.lossGraph(out, in)
		names = names[:0]
		for v := range scope.IterVariables() {
			if v.Trainable && v.InUseByGraph(g) {
				names = append(names, v.Path())
			}
		}
		return asFloat32(append([]*Node{loss, out}, scope.BuildTrainableVariablesGradientsGraph(loss)...))
	})
	if err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	defer e.Finalize()
	// The training-mode pass updates the batch norms' running statistics (and the
	// random state); they are put back, so that the pass changes nothing.
	saved, err := m.untrainedValues()
	if err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	outs, err := m.execute(e, programGradients, b.tensors()...)
	if err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	if err := m.restoreValues(saved); err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	defer func() {
		for _, o := range outs {
			o.FinalizeAll()
		}
	}()
	if len(outs) != len(names)+2 {
		return nil, fmt.Errorf("gradients: %d outputs for %d variables", len(outs), len(names))
	}
	p := &Gradients{
		Loss:    float64(tensors.MustCopyFlatData[float32](outs[0])[0]),
		Outputs: tensors.MustCopyFlatData[float32](outs[1])[:b.Rows*m.spec.outDim],
		Names:   names,
		ByName:  map[string][]float32{},
	}
	for i, name := range names {
		p.ByName[name] = tensors.MustCopyFlatData[float32](outs[i+2])
	}
	return p, nil
}

// untrainedValues returns host copies of the values of the model's variables that are
// not trained (batch norms' running statistics, the random state), by path.
func (m *Model) untrainedValues() (map[string]*tensors.Tensor, error) {
	saved := map[string]*tensors.Tensor{}
	for v := range m.store.IterVariables() {
		if v.Trainable || !v.HasValue() {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", v.Path(), err)
		}
		if saved[v.Path()], err = t.LocalClone(); err != nil {
			return nil, fmt.Errorf("variable %s: %w", v.Path(), err)
		}
	}
	return saved, nil
}

// restoreValues sets the variables named in saved back to their saved values.
func (m *Model) restoreValues(saved map[string]*tensors.Tensor) error {
	for path, t := range saved {
		v := m.store.GetVariable(path)
		if v == nil {
			return fmt.Errorf("variable %s is gone", path)
		}
		if err := v.SetValue(t); err != nil {
			return fmt.Errorf("variable %s: %w", path, err)
		}
	}
	return nil
}
