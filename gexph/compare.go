package gexph

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gexph/gexph/data"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// DefaultCompareTolerance is the largest relative difference CompareBackends accepts by
// default between two backends' outputs or gradients (float32 with another order of
// summation, another exp and another matmul stays well inside it).
const DefaultCompareTolerance = 1e-4

// CompareOptions selects what CompareBackends runs.
type CompareOptions struct {
	// Backend is the backend under test; Reference the one it is held to ("" is the
	// pure-Go backend).
	Backend, Reference string
	// Graphs are the graphs of the batch (nil: the first BatchSize training graphs; a
	// transductive data set always uses its whole graph, with the loss on the training
	// nodes).
	Graphs []int
	// Padding is the batch padding of both models ("" picks it for Backend, as Train
	// does), so that both see the same shapes.
	Padding string
	// Tolerance is the largest relative difference accepted (0: DefaultCompareTolerance).
	Tolerance float64
}

// TensorDiff is the difference of one tensor between two backends: the largest absolute
// difference over the largest magnitude of the reference's values (0 when both are
// zero everywhere).
type TensorDiff struct {
	Name   string  `json:"name"`
	Size   int     `json:"size"`
	MaxAbs float64 `json:"max_abs"`
	RelErr float64 `json:"rel_err"`
}

// MarshalJSON writes a non-finite difference (a NaN or an infinity: a missing or
// diverged value) as the string "NaN", "+Inf" or "-Inf", which JSON numbers cannot hold.
func (d TensorDiff) MarshalJSON() ([]byte, error) {
	type plain TensorDiff
	if finite(d.MaxAbs) && finite(d.RelErr) {
		return json.Marshal(plain(d))
	}
	return json.Marshal(struct {
		Name   string `json:"name"`
		Size   int    `json:"size"`
		MaxAbs any    `json:"max_abs"`
		RelErr any    `json:"rel_err"`
	}{d.Name, d.Size, jsonNumber(d.MaxAbs), jsonNumber(d.RelErr)})
}

// jsonNumber is x, or its name when JSON cannot hold it.
func jsonNumber(x float64) any {
	if finite(x) {
		return x
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// BackendComparison is the outcome of CompareBackends. The JSON names are stable.
type BackendComparison struct {
	Backend   string `json:"backend"`
	Reference string `json:"reference"`
	Dataset   string `json:"dataset"`
	// The batch: graphs, real nodes and padded node rows.
	Graphs   int `json:"graphs"`
	Nodes    int `json:"nodes"`
	PadNodes int `json:"pad_nodes"`
	Params   int `json:"params"`
	// Loss and RefLoss are the training-mode losses of the batch on each backend.
	Loss    float64 `json:"loss"`
	RefLoss float64 `json:"ref_loss"`
	// Inference compares the outputs of an inference pass (Predict); Training the
	// outputs of the training-mode pass (batch statistics on, dropout off) and the loss.
	Inference TensorDiff `json:"inference"`
	Training  TensorDiff `json:"training"`
	LossDiff  TensorDiff `json:"loss_diff"`
	// Gradients holds one entry per trainable variable, worst first; WorstGradient is
	// Gradients[0].
	Gradients     []TensorDiff `json:"gradients"`
	WorstGradient TensorDiff   `json:"worst_gradient"`
	// Tolerance is the bound applied; OK tells whether every difference is within it.
	Tolerance float64 `json:"tolerance"`
	OK        bool    `json:"ok"`
}

// CompareBackends builds the model of cfg for ds on two backends with the same weights
// (the reference model's initial weights are copied into the other) and compares, on one
// batch, the inference outputs, the training-mode outputs and loss, and the gradient of
// the loss for every trainable variable. Dropout is switched off, so that both backends
// compute the same function. It is how a new backend (XLA on a GPU) is held to the
// pure-Go one.
func CompareBackends(cfg Config, ds *data.Dataset, opts CompareOptions) (BackendComparison, error) {
	cfg.Dropout, cfg.AttnDropout = 0, 0
	res := BackendComparison{Backend: backendOrDefault(opts.Backend), Reference: backendOrDefault(opts.Reference),
		Dataset: ds.Name, Tolerance: opts.Tolerance}
	if res.Tolerance == 0 {
		res.Tolerance = DefaultCompareTolerance
	}
	if res.Tolerance < 0 || math.IsNaN(res.Tolerance) {
		return res, fmt.Errorf("compare: tolerance %v: want a positive number", opts.Tolerance)
	}
	padding := opts.Padding
	if padding == "" {
		padding = defaultPadding(res.Backend, ds.Transductive)
	}
	test, err := NewModelWithOptions(cfg, ds, ModelOptions{Backend: opts.Backend, Padding: padding})
	if err != nil {
		return res, fmt.Errorf("compare: backend %s: %w", res.Backend, err)
	}
	defer test.Close()
	ref, err := NewModelWithOptions(cfg, ds, ModelOptions{Backend: opts.Reference, Padding: padding})
	if err != nil {
		return res, fmt.Errorf("compare: reference %s: %w", res.Reference, err)
	}
	defer ref.Close()
	if err := copyVariables(test.store, ref.store); err != nil {
		return res, fmt.Errorf("compare: %w", err)
	}
	b, err := ref.compareBatch(ds, opts.Graphs)
	if err != nil {
		return res, fmt.Errorf("compare: %w", err)
	}
	res.Graphs, res.Nodes, res.PadNodes, res.Params = b.NumGraphs, b.NumNodes, b.PadNodes, ref.params
	want, err := ref.probe(b)
	if err != nil {
		return res, fmt.Errorf("compare: reference %s: %w", res.Reference, err)
	}
	got, err := test.probe(b)
	if err != nil {
		return res, fmt.Errorf("compare: backend %s: %w", res.Backend, err)
	}
	res.Loss, res.RefLoss = got.loss, want.loss
	res.fill(got, want)
	return res, nil
}

// backendOrDefault names the pure-Go backend for "".
func backendOrDefault(spec string) string {
	if spec == "" {
		return DefaultBackend
	}
	return spec
}

// fill sets the differences and the verdict from the two probes.
func (r *BackendComparison) fill(got, want *probeResult) {
	r.Inference = diffTensor("inference outputs", got.inference, want.inference)
	r.Training = diffTensor("training outputs", got.training, want.training)
	r.LossDiff = diffTensor("loss", []float32{float32(got.loss)}, []float32{float32(want.loss)})
	for _, name := range want.names {
		g, ok := got.grads[name]
		if !ok {
			g = nil // diffTensor reports a missing gradient as an infinite error
		}
		r.Gradients = append(r.Gradients, diffTensor(name, g, want.grads[name]))
	}
	slices.SortStableFunc(r.Gradients, worseFirst)
	r.OK = r.Inference.RelErr <= r.Tolerance && r.Training.RelErr <= r.Tolerance && r.LossDiff.RelErr <= r.Tolerance
	if len(r.Gradients) > 0 {
		r.WorstGradient = r.Gradients[0]
		r.OK = r.OK && r.WorstGradient.RelErr <= r.Tolerance
	}
}

// worseFirst orders differences by relative error, largest first, a NaN (a diverged
// value) before everything.
func worseFirst(a, b TensorDiff) int {
	key := func(x float64) float64 {
		if math.IsNaN(x) {
			return math.Inf(1)
		}
		return x
	}
	return cmp.Compare(key(b.RelErr), key(a.RelErr))
}

// diffTensor measures got against want: max|got−want| / max|want|. A length mismatch or
// a non-finite value is an infinite (or NaN) error, never a pass.
func diffTensor(name string, got, want []float32) TensorDiff {
	d := TensorDiff{Name: name, Size: len(want)}
	if len(got) != len(want) {
		d.MaxAbs, d.RelErr = math.Inf(1), math.Inf(1)
		return d
	}
	scale := 0.0
	for i := range want {
		w, g := float64(want[i]), float64(got[i])
		diff := math.Abs(g - w)
		if math.IsNaN(diff) {
			d.MaxAbs, d.RelErr = math.NaN(), math.NaN()
			return d
		}
		d.MaxAbs = math.Max(d.MaxAbs, diff)
		scale = math.Max(scale, math.Abs(w))
	}
	switch {
	case d.MaxAbs == 0:
		d.RelErr = 0
	case scale == 0:
		d.RelErr = math.Inf(1)
	default:
		d.RelErr = d.MaxAbs / scale
	}
	return d
}

// copyVariables gives every variable of dst the value of the variable of the same path
// in src (as a host copy, so the stores may live on different backends).
func copyVariables(dst, src *model.Store) error {
	for v := range src.IterVariables() {
		if !v.HasValue() {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return fmt.Errorf("variable %s: %w", v.Path(), err)
		}
		host, err := t.LocalClone()
		if err != nil {
			return fmt.Errorf("variable %s: %w", v.Path(), err)
		}
		w := dst.GetVariable(v.Path())
		if w == nil {
			if w, err = dst.CreateVariable(v.Path(), host); err != nil {
				return fmt.Errorf("variable %s: %w", v.Path(), err)
			}
			w.SetTrainable(v.Trainable)
			continue
		}
		if !w.Shape().Equal(host.Shape()) {
			return fmt.Errorf("variable %s: shape %s against %s", v.Path(), w.Shape(), host.Shape())
		}
		if err := w.SetValue(host); err != nil {
			return fmt.Errorf("variable %s: %w", v.Path(), err)
		}
	}
	return nil
}

// compareBatch is the batch CompareBackends runs: a transductive data set's whole graph
// (loss on the training nodes), or the given graphs (default: the first BatchSize
// training graphs).
func (m *Model) compareBatch(ds *data.Dataset, graphs []int) (*Batch, error) {
	if m.spec.transductive {
		return m.BuildBatch(ds, []int{0}, ds.Split.Train)
	}
	if graphs == nil {
		graphs = ds.Split.Train[:min(max(m.cfg.BatchSize, 1), len(ds.Split.Train))]
	}
	if len(graphs) == 0 {
		return nil, fmt.Errorf("data set %s has no training graph to compare on", ds.Name)
	}
	return m.BuildBatch(ds, graphs, nil)
}

// probeResult is what one backend computes on a batch for CompareBackends.
type probeResult struct {
	inference, training []float32
	loss                float64
	names               []string
	grads               map[string][]float32
}

// probe runs b through m in inference mode, then in training mode with the gradients of
// the loss. The batch's tensors are released before and after, so that each backend
// makes its own.
func (m *Model) probe(b *Batch) (*probeResult, error) {
	b.Release()
	defer b.Release()
	inf, err := m.Predict(b)
	if err != nil {
		return nil, err
	}
	p, err := m.lossGradients(b)
	if err != nil {
		return nil, err
	}
	p.inference = inf
	return p, nil
}

// lossGradients runs the training-mode pass on b and returns its outputs for the real
// rows, its loss and the gradient of the loss for every trainable variable the graph
// uses (by variable path). No variable changes.
func (m *Model) lossGradients(b *Batch) (*probeResult, error) {
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
		return append([]*Node{loss, out}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
	})
	if err != nil {
		return nil, fmt.Errorf("gradients: %w", err)
	}
	defer e.Finalize()
	outs, err := e.Call(b.tensors()...)
	if err != nil {
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
	p := &probeResult{
		loss:     float64(tensors.MustCopyFlatData[float32](outs[0])[0]),
		training: tensors.MustCopyFlatData[float32](outs[1])[:b.Rows*m.spec.outDim],
		names:    names,
		grads:    map[string][]float32{},
	}
	for i, name := range names {
		p.grads[name] = tensors.MustCopyFlatData[float32](outs[i+2])
	}
	return p, nil
}
