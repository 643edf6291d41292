// Package compare holds a backend to another: the same model with the same weights, on
// one batch, on two GoMLX backends (the pure-Go one and XLA on a GPU, say), compared
// tensor by tensor — inference outputs, training-mode outputs and loss, and the gradient
// of every trainable variable. It is `gexph compare`, and how a new backend is held to
// the pure-Go one (docs/GPU.md).
package compare

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
)

// DefaultTolerance is the largest relative difference Backends accepts by
// default between two backends' outputs or gradients, unless float32's own error on the
// batch is larger (NoiseFactor).
const DefaultTolerance = 1e-4

// NoiseFactor scales the reference's float32 error into a bound. The error is what
// float32 alone costs on the batch: the reference against the same model computed in
// float64 on the same backend (gexph.ModelOptions.Float64). Another backend sums in
// another order (a GPU's tree and atomic reductions) and may land further from float64
// by a few times that; ten times it is accepted. Where a computation is well
// conditioned, the error is far below the tolerance and the tolerance decides. Where it
// is not, no float32 backend can meet the tolerance and the error decides. Gradients
// that are small residues of large cancelling sums are of this kind: GatedGCN's under a
// class-balanced loss, for one, which float32 gets to within 1e-4 to 1e-2 of the
// gradient's scale.
const NoiseFactor = 10

// Options selects what Backends runs.
type Options struct {
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
	// Tolerance is the largest relative difference accepted (0: DefaultTolerance).
	Tolerance float64
	// ReferenceFloat64 runs the reference in float64 (gexph.ModelOptions.Float64): the
	// differences are then the tested backend's own float32 error, and no noise is
	// measured (the tolerance decides).
	ReferenceFloat64 bool
}

// TensorDiff is the difference of one tensor between two backends: the largest absolute
// difference, over the largest magnitude of the reference's values (RelErr; 0 when both
// are zero everywhere) and, for a gradient, over the largest magnitude of the whole
// gradient, every variable's (OfScale). A gradient is judged by OfScale: a variable
// whose exact gradient is zero (a bias followed by batch norm) holds only rounding
// noise on both backends, which RelErr would divide by itself.
type TensorDiff struct {
	Name    string  `json:"name"`
	Size    int     `json:"size"`
	MaxAbs  float64 `json:"max_abs"`
	RelErr  float64 `json:"rel_err"`
	OfScale float64 `json:"of_scale,omitempty"`
}

// MarshalJSON writes a non-finite difference (a NaN or an infinity: a missing or
// diverged value) as the string "NaN", "+Inf" or "-Inf", which JSON numbers cannot hold.
func (d TensorDiff) MarshalJSON() ([]byte, error) {
	type plain TensorDiff
	if finite(d.MaxAbs) && finite(d.RelErr) && finite(d.OfScale) {
		return json.Marshal(plain(d))
	}
	return json.Marshal(struct {
		Name    string `json:"name"`
		Size    int    `json:"size"`
		MaxAbs  any    `json:"max_abs"`
		RelErr  any    `json:"rel_err"`
		OfScale any    `json:"of_scale,omitempty"`
	}{d.Name, d.Size, jsonNumber(d.MaxAbs), jsonNumber(d.RelErr), ofScaleJSON(d.OfScale)})
}

// ofScaleJSON is OfScale for JSON: nil (left out) when 0, as for outputs and the loss.
func ofScaleJSON(x float64) any {
	if x == 0 {
		return nil
	}
	return jsonNumber(x)
}

// Levels holds one figure per compared quantity: the relative errors of the inference
// outputs, the training outputs and the loss, and the largest gradient difference over
// the gradient's scale (TensorDiff.OfScale).
type Levels struct {
	Inference float64 `json:"inference"`
	Training  float64 `json:"training"`
	Loss      float64 `json:"loss"`
	Gradients float64 `json:"gradients"`
}

// jsonNumber is x, or its name when JSON cannot hold it.
func jsonNumber(x float64) any {
	if finite(x) {
		return x
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// Result is the outcome of Backends. The JSON names are stable.
type Result struct {
	Backend   string `json:"backend"`
	Reference string `json:"reference"`
	// ReferenceFloat64 tells that the reference computed in float64.
	ReferenceFloat64 bool   `json:"reference_float64,omitempty"`
	Dataset          string `json:"dataset"`
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
	// Gradients holds one entry per trainable variable, worst first (by OfScale);
	// WorstGradient is Gradients[0]. GradientScale is the largest magnitude of the
	// reference's gradient over every variable.
	Gradients     []TensorDiff `json:"gradients"`
	WorstGradient TensorDiff   `json:"worst_gradient"`
	GradientScale float64      `json:"gradient_scale"`
	// Noise is float32's own error on the batch: the same differences between the
	// reference and its float64 twin (NoiseFactor); zero with ReferenceFloat64.
	Noise Levels `json:"noise"`
	// Tolerance is the tolerance asked for; Bounds the bound applied to each quantity,
	// the larger of Tolerance and NoiseFactor times its noise. OK tells whether every
	// difference is within its bound.
	Tolerance float64 `json:"tolerance"`
	Bounds    Levels  `json:"bounds"`
	OK        bool    `json:"ok"`
}

// Backends builds the model of cfg for ds on two backends with the same weights (the
// float32 model's initial weights, copied into the other) and compares, on one
// batch, the inference outputs, the training-mode outputs and loss, and the gradient of
// the loss for every trainable variable. Dropout is switched off, so that both backends
// compute the same function. The reference also runs the batch in float64, which
// measures float32's own error on it (Result.Noise, NoiseFactor). It is how a new
// backend (XLA on a GPU) is held to the pure-Go one.
func Backends(cfg gexph.Config, ds *data.Dataset, opts Options) (Result, error) {
	cfg.Dropout, cfg.AttnDropout = 0, 0
	res := Result{Backend: backendOrDefault(opts.Backend), Reference: backendOrDefault(opts.Reference),
		ReferenceFloat64: opts.ReferenceFloat64, Dataset: ds.Name, Tolerance: opts.Tolerance}
	if res.Tolerance == 0 {
		res.Tolerance = DefaultTolerance
	}
	if res.Tolerance < 0 || math.IsNaN(res.Tolerance) {
		return res, fmt.Errorf("compare: tolerance %v: want a positive number", opts.Tolerance)
	}
	padding := opts.Padding
	if padding == "" {
		padding = gexph.DefaultPadding(ds.Transductive)
	}
	test, err := gexph.NewModelWithOptions(cfg, ds, gexph.ModelOptions{Backend: opts.Backend, Padding: padding})
	if err != nil {
		return res, fmt.Errorf("compare: backend %s: %w", res.Backend, err)
	}
	defer test.Close()
	ref, err := gexph.NewModelWithOptions(cfg, ds, gexph.ModelOptions{Backend: opts.Reference, Padding: padding,
		Float64: opts.ReferenceFloat64})
	if err != nil {
		return res, fmt.Errorf("compare: reference %s: %w", res.Reference, err)
	}
	defer ref.Close()
	// The weights are a float32 model's initial ones: a float64 model draws others.
	if opts.ReferenceFloat64 {
		err = ref.CopyWeightsFrom(test)
	} else {
		err = test.CopyWeightsFrom(ref)
	}
	if err != nil {
		return res, fmt.Errorf("compare: %w", err)
	}
	b, err := batch(ref, cfg, ds, opts.Graphs)
	if err != nil {
		return res, fmt.Errorf("compare: %w", err)
	}
	res.Graphs, res.Nodes, res.PadNodes, res.Params = b.NumGraphs, b.NumNodes, b.PadNodes, ref.ParamCount()
	want, err := probe(ref, b)
	if err != nil {
		return res, fmt.Errorf("compare: reference %s: %w", res.Reference, err)
	}
	got, err := probe(test, b)
	if err != nil {
		return res, fmt.Errorf("compare: backend %s: %w", res.Backend, err)
	}
	res.Loss, res.RefLoss = got.loss, want.loss
	var noise *Result
	if !opts.ReferenceFloat64 {
		if noise, err = float32Error(cfg, ds, ref, b, want, opts.Reference, padding); err != nil {
			return res, err
		}
	}
	res.fill(got, want, noise)
	return res, nil
}

// float32Error measures the reference's own float32 error on the batch: its results
// (want) against those of a float64 twin with the same weights on the same backend.
func float32Error(cfg gexph.Config, ds *data.Dataset, ref *gexph.Model, b *gexph.Batch, want *probeResult,
	backend, padding string) (*Result, error) {
	twin, err := gexph.NewModelWithOptions(cfg, ds, gexph.ModelOptions{Backend: backend, Padding: padding, Float64: true})
	if err != nil {
		return nil, fmt.Errorf("compare: reference %s in float64: %w", backendOrDefault(backend), err)
	}
	defer twin.Close()
	if err := twin.CopyWeightsFrom(ref); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	exact, err := probe(twin, b)
	if err != nil {
		return nil, fmt.Errorf("compare: reference %s in float64: %w", backendOrDefault(backend), err)
	}
	var r Result
	r.fill(want, exact, nil)
	return &r, nil
}

// backendOrDefault names the pure-Go backend for "".
func backendOrDefault(spec string) string {
	if spec == "" {
		return gexph.DefaultBackend
	}
	return spec
}

// fill sets the differences of got against want and, given the noise (the same
// differences of the reference's float32 results against float64's; nil: none),
// the bounds and the verdict.
func (r *Result) fill(got, want *probeResult, noise *Result) {
	r.Inference = diffTensor("inference outputs", got.inference, want.inference)
	r.Training = diffTensor("training outputs", got.training, want.training)
	r.LossDiff = diffTensor("loss", []float32{float32(got.loss)}, []float32{float32(want.loss)})
	r.GradientScale = 0
	for _, name := range want.names {
		for _, v := range want.grads[name] {
			r.GradientScale = math.Max(r.GradientScale, math.Abs(float64(v)))
		}
	}
	r.Gradients = r.Gradients[:0]
	for _, name := range want.names {
		g, ok := got.grads[name]
		if !ok {
			g = nil // diffTensor reports a missing gradient as an infinite error
		}
		d := diffTensor(name, g, want.grads[name])
		d.OfScale = ofScale(d.MaxAbs, r.GradientScale)
		r.Gradients = append(r.Gradients, d)
	}
	slices.SortStableFunc(r.Gradients, worseFirst)
	if len(r.Gradients) > 0 {
		r.WorstGradient = r.Gradients[0]
	}
	if noise != nil {
		r.Noise = noise.levels()
	}
	bound := func(noise float64) float64 { return math.Max(r.Tolerance, NoiseFactor*noise) }
	r.Bounds = Levels{Inference: bound(r.Noise.Inference), Training: bound(r.Noise.Training),
		Loss: bound(r.Noise.Loss), Gradients: bound(r.Noise.Gradients)}
	r.OK = r.Inference.RelErr <= r.Bounds.Inference && r.Training.RelErr <= r.Bounds.Training &&
		r.LossDiff.RelErr <= r.Bounds.Loss && (len(r.Gradients) == 0 || r.WorstGradient.OfScale <= r.Bounds.Gradients)
}

// levels are r's differences, one per quantity.
func (r *Result) levels() Levels {
	return Levels{Inference: r.Inference.RelErr, Training: r.Training.RelErr, Loss: r.LossDiff.RelErr,
		Gradients: r.WorstGradient.OfScale}
}

// ofScale is a difference over the gradient's scale: 0 for no difference, infinite for
// a difference where the reference's gradient is zero everywhere, NaN stays NaN.
func ofScale(maxAbs, scale float64) float64 {
	switch {
	case maxAbs == 0:
		return 0
	case scale == 0:
		return math.Inf(1)
	default:
		return maxAbs / scale
	}
}

// worseFirst orders gradient differences by OfScale, largest first, a NaN (a diverged
// value) before everything.
func worseFirst(a, b TensorDiff) int {
	key := func(x float64) float64 {
		if math.IsNaN(x) {
			return math.Inf(1)
		}
		return x
	}
	return cmp.Compare(key(b.OfScale), key(a.OfScale))
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

// batch is the batch Backends runs: a transductive data set's whole graph (loss on the
// training nodes), or the given graphs (default: the first cfg.BatchSize training
// graphs).
func batch(m *gexph.Model, cfg gexph.Config, ds *data.Dataset, graphs []int) (*gexph.Batch, error) {
	if ds.Transductive {
		return m.BuildBatch(ds, []int{0}, ds.Split.Train)
	}
	if graphs == nil {
		graphs = ds.Split.Train[:min(max(cfg.BatchSize, 1), len(ds.Split.Train))]
	}
	if len(graphs) == 0 {
		return nil, fmt.Errorf("data set %s has no training graph to compare on", ds.Name)
	}
	return m.BuildBatch(ds, graphs, nil)
}

// probeResult is what one backend computes on a batch for Backends.
type probeResult struct {
	inference, training []float32
	loss                float64
	names               []string
	grads               map[string][]float32
}

// probe runs b through m in inference mode, then in training mode with the gradients of
// the loss. The batch's tensors are released before and after, so that each backend
// makes its own.
func probe(m *gexph.Model, b *gexph.Batch) (*probeResult, error) {
	b.Release()
	defer b.Release()
	inf, err := m.Predict(b)
	if err != nil {
		return nil, err
	}
	g, err := m.LossGradients(b)
	if err != nil {
		return nil, err
	}
	return &probeResult{inference: inf, training: g.Outputs, loss: g.Loss, names: g.Names, grads: g.ByName}, nil
}

// finite tells whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Failures names each quantity beyond its bound, as "NAME ERR > BOUND" (a gradient by
// its variable and OfScale); empty when OK.
func (r Result) Failures() []string {
	var out []string
	for _, q := range []struct {
		d          TensorDiff
		err, bound float64
	}{
		{r.Inference, r.Inference.RelErr, r.Bounds.Inference},
		{r.Training, r.Training.RelErr, r.Bounds.Training},
		{r.LossDiff, r.LossDiff.RelErr, r.Bounds.Loss},
		{r.WorstGradient, r.WorstGradient.OfScale, r.Bounds.Gradients},
	} {
		if q.d.Name != "" && !(q.err <= q.bound) {
			out = append(out, fmt.Sprintf("%s %.3g > %.3g", q.d.Name, q.err, q.bound))
		}
	}
	return out
}
