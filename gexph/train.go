package gexph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph/buildcheck"
	"github.com/gexph/gexph/gexph/metrics"
	"github.com/gexph/gexph/internal/jsonfile"
	"github.com/gexph/gexph/internal/progress"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// TrainOptions sets where and how a run executes; the Config says what is trained.
type TrainOptions struct {
	// OutDir receives the checkpoints (last.ckpt, best.ckpt), the per-epoch JSON log
	// (log.jsonl) and result.json. Empty: nothing is written.
	OutDir string
	// Backend is a backend spec for NewBackend ("" is the pure-Go backend).
	Backend string
	// Padding pads batches to bucketed shapes: "none", "pow2", "exp:B", "linear:S",
	// "plan" or "plan:T,E" (a few shapes planned for the run's batches: Model.PaddingPlan),
	// or "" for "none" on the pure-Go backend and on a transductive graph, "plan" for
	// batches of graphs on XLA. Padding never changes results; it lets compiled
	// programs be reused.
	Padding string
	// Prefetch is the number of batches built ahead of the training step (see
	// ModelOptions.Prefetch; 0: the backend's default).
	Prefetch int
	// ScoresFrom is the checkpoint of a Spexphormer first-stage model (EstimatorConfig)
	// of the same data set, whose attention scores draw the per-layer attention graphs of
	// a config with SparseAttentionK > 0 (see AttentionScores.Sparsify).
	ScoresFrom string
	// Log receives a progress line per epoch (and a bar on a terminal); nil is silent.
	Log io.Writer
	// Resume continues from OutDir/last.ckpt when it exists. The checkpoint's config
	// must equal the run's apart from epochs (no fewer than it has run) and patience,
	// and its data the run's.
	// Without last.ckpt the run starts afresh, but only where that overwrites nothing
	// it would not write again (an empty directory, or what this same run left when it
	// was killed before its first checkpoint); Train refuses otherwise.
	Resume bool
	// Force starts afresh in an OutDir that holds a run (without it Train refuses,
	// ErrRunExists). The earlier run's files are moved aside and removed only once the
	// new run has written its first last.ckpt; should the new run end before that (an
	// error, an interruption, a kill), they come back.
	Force bool
	// StopAfter, if positive, stops the run after that many epochs of this call (the
	// checkpoint allows resuming later); the schedule still follows Config.Epochs.
	StopAfter int
	// NoMemoryCheck lets a run start that Train would refuse as out of memory
	// (ErrOutOfMemory: its full attention, head, weights or step beyond the memory
	// budget, see CheckMemory): for callers that watch the process's memory themselves,
	// as the scaling suite does. NewModel still refuses weights beyond the budget.
	NoMemoryCheck bool
	// Data configures TrainFromSpec's data.Load (its Seed is the Config's Seed, and the
	// generated split sizes default to the Config's MaxTrain/MaxVal/MaxTest).
	Data data.LoadOptions
	// DataSpec is the data.Load spec of the data set, recorded in checkpoints
	// (CheckpointInfo.DatasetSpec) so that they can load the data again; TrainFromSpec
	// sets it (data.AbsoluteSpec of its spec), and Train leaves it empty unless given.
	DataSpec string
	// TensorBoardDir, if set, receives a TensorBoard event file with the per-epoch
	// scalars (losses, metrics, learning rate, seconds).
	TensorBoardDir string
}

// Result summarises a training run. The JSON names are stable.
type Result struct {
	// Dataset is the data set's name and Preset the config's preset.
	Dataset string `json:"dataset"`
	Preset  string `json:"preset"`
	// Params is the number of trainable parameters.
	Params int `json:"params"`
	// Epochs is the number of completed epochs; BestEpoch the one with the best
	// validation metric.
	Epochs    int `json:"epochs"`
	BestEpoch int `json:"best_epoch"`
	// ValMetric is the best validation metric and TestMetric the test metric of that
	// epoch; Metric names them.
	ValMetric  float64 `json:"val_metric"`
	TestMetric float64 `json:"test_metric"`
	Metric     string  `json:"metric"`
	// Seconds is the wall time of the run (this call).
	Seconds float64 `json:"seconds"`
	// PeakRSSMB is the process's peak resident memory at the end of the run, in MiB
	// (what the process held at its peak, the data set included; 0 where unknown).
	PeakRSSMB float64 `json:"peak_rss_mb"`
	// EarlyStopped tells whether patience ended the run.
	EarlyStopped bool `json:"early_stopped"`
	// Backend is the backend spec used.
	Backend string `json:"backend"`
	// Seed is the seed the run used (Config.Seed).
	Seed uint64 `json:"seed"`
	// Version is the toolkit's version: the module version and the commit it was built
	// from, where the build recorded them (see Version).
	Version string `json:"version"`
	// CompileStats (compiled_shapes, compiled_shapes_by_program, compilations,
	// compile_s) says what this call compiled and for how long.
	CompileStats
	// Config is the run's configuration.
	Config Config `json:"config"`
	// History holds every epoch's statistics.
	History []EpochStats `json:"history"`
}

// LearningRate returns the learning rate of epoch (0-based) of a run of cfg started
// afresh, as GraphGPS's cosine_with_warmup stepped once per epoch: a linear warm-up
// lr·max(10⁻⁶, e/W) over the first W = WarmupEpochs(cfg) epochs, then a half cosine
// lr·½(1 + cos(π·(e − W)/(Epochs − W))) towards 0; with Schedule "constant", lr. A
// resumed run keeps the warm-up it started with (see runWarmup).
func LearningRate(cfg Config, epoch int) float64 {
	return scheduledRate(cfg, WarmupEpochs(cfg), epoch)
}

// scheduledRate is LearningRate with a warm-up of w epochs.
func scheduledRate(cfg Config, w, epoch int) float64 {
	if cfg.Schedule == ScheduleConstant {
		return cfg.LearningRate
	}
	if epoch < w {
		return cfg.LearningRate * math.Max(1e-6, float64(epoch)/float64(max(1, w)))
	}
	progress := float64(epoch-w) / float64(max(1, cfg.Epochs-w))
	return cfg.LearningRate * math.Max(0, 0.5*(1+math.Cos(math.Pi*progress)))
}

// WarmupEpochs returns the warm-up a run of cfg starts with: Config.WarmupEpochs, or
// none when the run is shorter than twice it. The warm-up's first epoch trains at
// lr·10⁻⁶, as in the paper's code, so a warm-up in a short run would spend an epoch
// that the run does not have (a 2-epoch try of a preset with 5 warm-up epochs would show
// nothing after its first); runs of at least twice the warm-up follow the paper's
// schedule exactly. Train says so when it drops the warm-up.
func WarmupEpochs(cfg Config) int {
	if cfg.Epochs < 2*cfg.WarmupEpochs {
		return 0
	}
	return cfg.WarmupEpochs
}

// runWarmup returns the warm-up of a run of cfg whose completed epochs are history: the
// warm-up it started with, as the learning rates of its epochs record it, so that a
// run resumed with more epochs keeps the schedule of the epochs it ran instead of
// computing another from its new length. The first epoch at the full rate (the cosine's
// start) ends the warm-up; before it, the second epoch's rate lr/W gives W; after one
// epoch of warm-up, it is Config.WarmupEpochs (the only warm-up WarmupEpochs gives); a
// run without epochs starts with WarmupEpochs(cfg).
func runWarmup(cfg Config, history []EpochStats) int {
	for i, st := range history {
		if st.LR >= cfg.LearningRate {
			return i
		}
	}
	switch {
	case len(history) == 0:
		return WarmupEpochs(cfg)
	case len(history) >= 2 && history[1].LR > 0:
		return int(math.Round(cfg.LearningRate / history[1].LR))
	}
	return cfg.WarmupEpochs
}

// warmupNote says why a run's warm-up w is not its config's: a fresh run too short for
// it, or a resumed run keeping the warm-up it started with.
func warmupNote(cfg Config, w int, resumed bool) string {
	if !resumed {
		return fmt.Sprintf("no warm-up: a run of %d epochs is shorter than twice the config's %d warm-up epochs (the first would train at lr·10⁻⁶)", cfg.Epochs, cfg.WarmupEpochs)
	}
	return fmt.Sprintf("warm-up %d epochs, as the run started: a resumed run keeps the schedule of the epochs it ran (the config's warm-up is %d)", w, cfg.WarmupEpochs)
}

// subsetSplit returns ds with its split cut to cfg's MaxTrain/MaxVal/MaxTest (a shallow
// copy; ds is not modified).
func subsetSplit(ds *data.Dataset, cfg *Config) *data.Dataset {
	if cfg.MaxTrain == 0 && cfg.MaxVal == 0 && cfg.MaxTest == 0 {
		return ds
	}
	cut := func(idx []int, n int) []int {
		if n > 0 && n < len(idx) {
			return idx[:n]
		}
		return idx
	}
	out := *ds
	out.Split = data.Split{Train: cut(ds.Split.Train, cfg.MaxTrain), Val: cut(ds.Split.Val, cfg.MaxVal), Test: cut(ds.Split.Test, cfg.MaxTest)}
	return &out
}

// gradientOptimizer is an optimizer that applies given gradients (GoMLX's Adam).
type gradientOptimizer interface {
	UpdateGraphWithGradients(scope *model.Scope, grads []*Node, lossDType dtypes.DType)
}

// clipByGlobalNorm scales the gradients by min(1, maxNorm/(‖g‖ + 10⁻⁶)), ‖g‖ the L2
// norm of all of them together (PyTorch's clip_grad_norm_).
func clipByGlobalNorm(grads []*Node, maxNorm float64) []*Node {
	var sq *Node
	for _, g := range grads {
		s := ReduceAllSum(Square(g))
		if sq == nil {
			sq = s
		} else {
			sq = Add(sq, s)
		}
	}
	coef := MinScalar(Reciprocal(MulScalar(AddScalar(Sqrt(sq), 1e-6), 1/maxNorm)), 1)
	out := make([]*Node, len(grads))
	for i, g := range grads {
		out[i] = Mul(g, ConvertDType(coef, g.DType()))
	}
	return out
}

// prepareTraining creates the optimizer, its learning-rate variable and the training
// step executor.
func (m *Model) prepareTraining() error {
	if m.trainExec != nil {
		return nil
	}
	decoupled, l2 := m.cfg.WeightDecay, 0.0
	if m.cfg.Optimizer == OptimizerAdam {
		decoupled, l2 = 0, m.cfg.WeightDecay
	}
	opt := optimizer.Adam().LearningRate(m.cfg.LearningRate).WeightDecay(decoupled).Epsilon(1e-8).Done()
	gopt, ok := opt.(gradientOptimizer)
	if !ok {
		return errors.New("train: the Adam optimizer does not accept gradients")
	}
	clip := m.cfg.GradClip
	e, err := model.NewExec(m.backend, m.store, func(scope *model.Scope, ins []*Node) []*Node {
		g := ins[0].Graph()
		scope.SetTraining(g, true) // variables as parameters, dropout and batch statistics on
		in := m.bind(ins)
		out := m.modelGraph(scope, in)
		loss := m.lossGraph(out, in)
		grads := scope.BuildTrainableVariablesGradientsGraph(withL2(scope, loss, l2))
		if clip > 0 {
			grads = clipByGlobalNorm(grads, clip)
		}
		gopt.UpdateGraphWithGradients(scope, grads, loss.DType())
		return []*Node{loss, out}
	})
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	m.trainExec = e
	return nil
}

// withL2 returns loss + ½·l2·Σ‖w‖² over the trainable variables the loss reads, whose
// gradient adds l2·w to each variable's: the weight decay of PyTorch's Adam
// (OptimizerAdam). The step reports loss without it. l2 = 0 returns loss.
func withL2(scope *model.Scope, loss *Node, l2 float64) *Node {
	if l2 == 0 {
		return loss
	}
	g := loss.Graph()
	total := loss
	for v := range scope.IterVariables() {
		if v.Trainable && v.InUseByGraph(g) {
			sq := ConvertDType(ReduceAllSum(Square(v.NodeValue(g))), loss.DType())
			total = Add(total, MulScalar(sq, l2/2))
		}
	}
	return total
}

// SetLearningRate sets the optimizer's learning rate for the following steps (Train
// sets it once per epoch, as LearningRate says).
func (m *Model) SetLearningRate(lr float64) error {
	v := optimizer.LearningRateVar(m.store.RootScope(), dtypes.Float32, lr)
	if err := v.SetValue(tensors.FromScalar(float32(lr))); err != nil {
		return fmt.Errorf("train: setting the learning rate: %w", err)
	}
	return nil
}

// TrainStep runs one optimisation step on b — forward, backward, gradient clipping and an
// AdamW (or Adam, Config.Optimizer) update at the current learning rate — and returns the batch's loss. Train runs
// these; programs with loops of their own call it directly.
func (m *Model) TrainStep(b *Batch) (float64, error) {
	loss, _, err := m.trainStep(b)
	return loss, err
}

// trainStep runs one optimisation step on b and returns the loss and the outputs.
func (m *Model) trainStep(b *Batch) (float64, []float32, error) {
	if err := m.float32Only("train step"); err != nil {
		return 0, nil, err
	}
	if err := m.checkPresence(b); err != nil {
		return 0, nil, err
	}
	if noteShape(&m.trainShapes, b) && m.trainExec != nil {
		m.trainExec.Finalize()
		m.trainExec = nil
	}
	if err := m.prepareTraining(); err != nil {
		return 0, nil, err
	}
	outs, err := m.execute(m.trainExec, programTrain, b.tensors()...)
	m.weightsChanged()
	if err != nil {
		return 0, nil, fmt.Errorf("train step: %w", err)
	}
	loss := float64(tensors.MustCopyFlatData[float32](outs[0])[0])
	out := tensors.MustCopyFlatData[float32](outs[1])
	for _, t := range outs {
		t.FinalizeAll()
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return loss, out, &DivergedError{Loss: loss}
	}
	return loss, out, nil
}

// DivergedError reports a run whose loss became NaN or infinite: the step's update left
// weights that are not finite, so training stops (checkpoints of earlier epochs stay as
// they were).
type DivergedError struct {
	// Epoch and Step (1-based, the step within the epoch) locate the diverged step; 0
	// where unknown (TrainStep called directly).
	Epoch, Step int
	// Loss is the non-finite loss (NaN, +Inf or −Inf).
	Loss float64
	// Validation tells that the training loss of the step was finite and the validation
	// loss after it was not (the update itself diverged).
	Validation bool
}

// Error says that the loss diverged, to what and where.
func (e *DivergedError) Error() string {
	what := "loss"
	if e.Validation {
		what = "validation loss"
	}
	if e.Epoch == 0 {
		return fmt.Sprintf("%s diverged (%v)", what, e.Loss)
	}
	if e.Validation {
		return fmt.Sprintf("%s diverged (%v) at epoch %d, after step %d", what, e.Loss, e.Epoch, e.Step)
	}
	return fmt.Sprintf("%s diverged (%v) at epoch %d, step %d", what, e.Loss, e.Epoch, e.Step)
}

// stepError completes the error of training step step (1-based) of an epoch: a
// diverged loss is located, any other error wrapped with where it happened.
func stepError(err error, epoch, step int) error {
	var d *DivergedError
	if errors.As(err, &d) {
		d.Epoch, d.Step = epoch, step
		return d
	}
	return fmt.Errorf("epoch %d, batch %d: %w", epoch, step-1, err)
}

// collector gathers the predictions of a pass for a metric and the loss.
type collector struct {
	m             *Model
	pred, label   []int32
	score, target []float64
	lossSum, wSum float64
	// steps counts the batches added.
	steps int
}

// add records rows of out ([b.padded rows × outDim]) with their batch loss.
func (c *collector) add(out []float32, b *Batch, rows []int, loss, weight float64) {
	k := c.m.spec.outDim
	c.steps++
	c.lossSum += loss * weight
	c.wSum += weight
	for _, r := range rows {
		row := out[r*k : (r+1)*k]
		if b.Labels != nil && b.Labels[r] == data.Unlabelled {
			continue
		}
		if b.Labels != nil {
			c.label = append(c.label, b.Labels[r])
			c.pred = append(c.pred, predictClass(row))
		} else {
			for j, v := range row {
				c.score = append(c.score, float64(v))
				c.target = append(c.target, float64(b.Targets[r*k+j]))
			}
		}
	}
}

// predictClass returns the class of one output row: the sign of a single logit, else
// the arg-max.
func predictClass(row []float32) int32 {
	if len(row) == 1 {
		if row[0] > 0 {
			return 1
		}
		return 0
	}
	best := 0
	for j, v := range row {
		if v > row[best] {
			best = j
		}
	}
	return int32(best)
}

func (c *collector) loss() float64 {
	if c.wSum == 0 {
		return 0
	}
	return c.lossSum / c.wSum
}

// metric returns the named metric of the collected predictions.
func (c *collector) metric(name string) (float64, error) {
	switch name {
	case MetricAccuracy:
		return metrics.Accuracy(c.pred, c.label)
	case MetricWeightedAccuracy:
		return metrics.WeightedAccuracy(c.pred, c.label)
	case MetricMacroF1:
		return metrics.MacroF1(c.pred, c.label)
	case MetricAP:
		return metrics.AveragePrecision(c.score, c.target, c.m.spec.outDim)
	case MetricMAE:
		return metrics.MAE(c.score, c.target)
	}
	return 0, fmt.Errorf("metric %q is not supported for training", name)
}

// allRows returns 0..n−1.
func allRows(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// epochOrder returns the training examples idx (graphs, or seed nodes) shuffled for an
// epoch: the same seed and epoch give the same order.
func (m *Model) epochOrder(idx []int, epoch int) []int {
	order := slices.Clone(idx)
	rng := rand.New(rand.NewPCG(m.cfg.Seed, uint64(epoch)))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// batchesOf cuts graph indices into batches of size.
func batchesOf(idx []int, size int) [][]int {
	var out [][]int
	for i := 0; i < len(idx); i += size {
		out = append(out, idx[i:min(i+size, len(idx))])
	}
	return out
}

// SplitResult is the loss and metric of one split.
type SplitResult struct {
	// Loss is the training loss function's value, averaged over the split's examples.
	Loss float64 `json:"loss"`
	// Metric is the configured metric (Config.Metric) on the split.
	Metric float64 `json:"metric"`
}

// EvaluateSplit runs the model in inference mode over one split of ds ("train", "val"
// or "test") and returns its loss and the configured metric.
func (m *Model) EvaluateSplit(ds *data.Dataset, split string) (SplitResult, error) {
	res, err := m.evaluate(ds, []string{split})
	if err != nil {
		return SplitResult{}, err
	}
	return res[0], nil
}

// splitIndices returns the indices of the named split.
func splitIndices(ds *data.Dataset, split string) ([]int, error) {
	switch split {
	case "train":
		return ds.Split.Train, nil
	case "val":
		return ds.Split.Val, nil
	case "test":
		return ds.Split.Test, nil
	}
	return nil, fmt.Errorf("evaluate: unknown split %q (choices: \"train\", \"val\", \"test\")", split)
}

// transductiveOutputs runs inference on the graph of the transductive data set ds and
// returns the outputs of its nodes with the batch describing them: one forward pass, or
// layer-wise inference when the model trains on mini-batches (then the batch carries
// only the layout and the labels).
func (m *Model) transductiveOutputs(ctx context.Context, ds *data.Dataset) ([]float32, *Batch, error) {
	if m.miniBatch() {
		out, err := m.LayerwiseOutputs(ctx, ds)
		if err != nil {
			return nil, nil, err
		}
		n := ds.Graphs[0].NumNodes
		return out, &Batch{Graphs: []int{0}, NumGraphs: 1, NumNodes: n, NodeOffset: []int{0, n}, Rows: n, Labels: ds.Graphs[0].NodeLabels}, nil
	}
	b, err := m.transductiveBatch(ds, false)
	if err != nil {
		return nil, nil, err
	}
	out, err := m.forwardHost(b)
	return out, b, err
}

// evaluate returns the loss and metric of each split (one inference pass for a
// transductive data set).
func (m *Model) evaluate(ds *data.Dataset, splits []string) ([]SplitResult, error) {
	res := make([]SplitResult, len(splits))
	if m.spec.transductive {
		out, b, err := m.transductiveOutputs(context.Background(), ds)
		if err != nil {
			return nil, err
		}
		for i, split := range splits {
			idx, err := splitIndices(ds, split)
			if err != nil {
				return nil, err
			}
			w := make([]float32, b.Rows)
			for _, v := range idx {
				w[v] = 1
			}
			loss, sumW := m.hostLoss(out, b.Labels, b.Targets, w)
			c := &collector{m: m}
			c.add(out, b, idx, loss, sumW)
			if res[i].Metric, err = c.metric(m.cfg.Metric); err != nil {
				return nil, fmt.Errorf("evaluate %s: %w", split, err)
			}
			res[i].Loss = c.loss()
		}
		return res, nil
	}
	for i, split := range splits {
		idx, err := splitIndices(ds, split)
		if err != nil {
			return nil, err
		}
		c := &collector{m: m}
		if err := m.inferBatches(context.Background(), ds, idx, func(out []float32, b *Batch) {
			loss, sumW := m.hostLoss(out, b.Labels, b.Targets, b.Weights[:b.Rows])
			c.add(out, b, allRows(b.Rows), loss, sumW)
		}); err != nil {
			return nil, err
		}
		if res[i].Metric, err = c.metric(m.cfg.Metric); err != nil {
			return nil, fmt.Errorf("evaluate %s: %w", split, err)
		}
		res[i].Loss = c.loss()
	}
	return res, nil
}

// epochRun is what the training steps of one epoch measured.
type epochRun struct {
	loss, metric float64
	// examples is the number of training examples, steps the number of steps.
	examples, steps int
	secs            float64
}

// trainEpoch runs one epoch of training steps and returns its loss, metric, number of
// training examples and steps, and training seconds.
func (m *Model) trainEpoch(ctx context.Context, ds *data.Dataset, epoch int, prog *progress.Progress) (run epochRun, err error) {
	start := time.Now()
	c := &collector{m: m}
	examples := 0
	if m.miniBatch() {
		if examples, err = m.trainSampledEpoch(ctx, ds, epoch, prog, c); err != nil {
			return epochRun{}, err
		}
	} else if m.spec.transductive {
		b, err := m.transductiveBatch(ds, true)
		if err != nil {
			return epochRun{}, err
		}
		prog.Working(epoch, "training (one full-batch step)")
		l, out, err := m.trainStep(b)
		if err != nil {
			return epochRun{}, stepError(err, epoch, 1)
		}
		c.add(out, b, ds.Split.Train, l, float64(len(ds.Split.Train)))
		examples = len(ds.Split.Train)
	} else {
		order := m.epochOrder(ds.Split.Train, epoch)
		batches := batchesOf(order, m.cfg.BatchSize)
		stream := m.streamBatches(ctx, ds, batches, m.padding)
		defer stream.Stop()
		for bi := range batches {
			if err := ctx.Err(); err != nil {
				return epochRun{}, err
			}
			b, err := stream.Next()
			if err != nil {
				return epochRun{}, err
			}
			l, out, err := m.trainStep(b)
			b.Release()
			if err != nil {
				return epochRun{}, stepError(err, epoch, bi+1)
			}
			sumW := 0.0
			for _, w := range b.Weights {
				sumW += float64(w)
			}
			c.add(out, b, allRows(b.Rows), l, sumW)
			prog.Step(epoch, bi+1, len(batches), c.loss(), start)
		}
		examples = len(order)
	}
	metric, err := c.metric(m.cfg.Metric)
	if err != nil {
		return epochRun{}, fmt.Errorf("epoch %d: train %w", epoch, err)
	}
	return epochRun{loss: c.loss(), metric: metric, examples: examples, steps: c.steps, secs: time.Since(start).Seconds()}, nil
}

// Train trains a model of cfg on ds and returns the result: AdamW with the cosine
// schedule of LearningRate, gradient clipping, early stopping on the validation metric
// (Config.Patience), the test metric of the best validation epoch, and — with
// opts.OutDir — checkpoints after every epoch (last.ckpt) and of the best epoch
// (best.ckpt), log.jsonl and result.json. Inductive data sets train on mini-batches of
// graphs shuffled per epoch by the seed; transductive ones full-batch with the loss on
// the training nodes. The same seed gives the same run; a resumed run (opts.Resume)
// continues exactly as an uninterrupted one. A loss (training, or validation after an
// epoch's steps) that becomes NaN or infinite stops the run with a *DivergedError naming
// the epoch and step; that epoch is logged, marked diverged, and no checkpoint is written
// for it, so best.ckpt and last.ckpt keep the epochs before.
//
// Train locks opts.OutDir first and checks everything (config, data, memory, model,
// the checkpoint to resume) before it writes, moves or removes a file there; see
// rundir.go for what it promises about the directory. A run ended by ctx returns an
// *InterruptedError saying what last.ckpt holds. It prepares the process's runtime
// first (SetupRuntime), as TrainFromSpec, Evaluate and NewModel do.
func Train(ctx context.Context, cfg Config, ds *data.Dataset, opts TrainOptions) (*Result, error) {
	start := time.Now()
	SetupRuntime()
	if err := checkTrainOptions(cfg, opts); err != nil {
		return nil, err
	}
	if idle := cfg.withoutIdleFanout(); idle.Fanout != cfg.Fanout {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "· fanout %q not used: batch_nodes = 0 trains full-batch, sampling nothing (left out of this run's config)\n", cfg.Fanout)
		}
		cfg = idle
	}
	if ds == nil {
		return nil, errors.New("train: nil data set")
	}
	rd, err := openOutDir(opts)
	if err != nil {
		return nil, err
	}
	return trainIn(ctx, cfg, ds, opts, rd, start)
}

// checkTrainOptions checks cfg and the options that do not need the data.
func checkTrainOptions(cfg Config, opts TrainOptions) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	switch {
	case opts.Resume && opts.Force:
		return errors.New("train: Resume and Force exclude each other (gexph train -resume, -force)")
	case opts.Resume && opts.OutDir == "":
		return errors.New("train: Resume needs OutDir")
	case opts.Force && opts.OutDir == "":
		return errors.New("train: Force needs OutDir")
	}
	return nil
}

// openOutDir creates and locks opts.OutDir (nil without one).
func openOutDir(opts TrainOptions) (*runDir, error) {
	if opts.OutDir == "" {
		return nil, nil
	}
	rd, err := openRunDir(opts.OutDir)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return rd, nil
}

// trainIn is Train in the run directory rd (nil: none), which it closes: an earlier run
// that this one was to replace comes back if this one ends before its first checkpoint.
func trainIn(ctx context.Context, cfg Config, ds *data.Dataset, opts TrainOptions, rd *runDir, start time.Time) (res *Result, err error) {
	if rd != nil {
		defer func() {
			if cerr := rd.Close(); cerr != nil {
				err = errors.Join(err, fmt.Errorf("train: %w", cerr))
			}
		}()
	}
	if err := ds.Validate(); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	// The fingerprint (a pass over all the data) is for checkpoints only.
	id := runIdentity{cfg: cfg, dataset: ds.Name}
	var ck *loadedCheckpoint
	var replaced []string
	if rd != nil {
		id.fingerprint = ds.Fingerprint()
		if ck, replaced, err = rd.start(opts, id); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	ds = subsetSplit(ds, &cfg)
	if !opts.NoMemoryCheck {
		if err := CheckMemory(cfg, ds); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	if len(ds.Split.Train) == 0 || len(ds.Split.Val) == 0 {
		return nil, fmt.Errorf("train: data set %q has %d training and %d validation examples, want ≥ 1 each", ds.Name, len(ds.Split.Train), len(ds.Split.Val))
	}
	prog := progress.New(opts.Log, cfg.Epochs)
	m, err := buildTrainModel(ctx, cfg, ds, opts, prog)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	schema := m.spec.schema()
	info := CheckpointInfo{Config: cfg, Dataset: ds.Name, DatasetSpec: opts.DataSpec, DatasetFingerprint: id.fingerprint, Schema: &schema}
	switch {
	case ck != nil:
		if err := ck.restore(m.store); err != nil {
			return nil, err
		}
		m.weightsChanged()
		info.Epoch, info.BestEpoch, info.BestVal, info.History = ck.info.Epoch, ck.info.BestEpoch, ck.info.BestVal, ck.info.History
	case opts.Resume:
		prog.Printf("no checkpoint in %s: starting from scratch", opts.OutDir)
	}
	// Everything is checked: from here on the run writes.
	if err := prepareFiles(rd, ck, replaced); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if ck != nil {
		prog.Printf("resuming after epoch %d", info.Epoch)
	}
	return runEpochs(ctx, m, ds, opts, rd, &info, prog, start)
}

// prepareFiles readies the checked run directory for the run's first write: the files of
// an earlier run that the run replaces are moved aside; the result of a run that it
// continues goes, so that result.json is never older than the checkpoints.
func prepareFiles(rd *runDir, ck *loadedCheckpoint, replaced []string) error {
	switch {
	case rd == nil:
	case len(replaced) > 0:
		return rd.Replace(replaced)
	case ck != nil:
		if err := os.Remove(rd.Path(ResultFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// buildTrainModel builds the model of a run (with the attention graphs of a
// second-stage Spexphormer config) and precomputes the positional encodings of a graph
// data set.
func buildTrainModel(ctx context.Context, cfg Config, ds *data.Dataset, opts TrainOptions, prog *progress.Progress) (*Model, error) {
	var layerGraphs *LayerGraphs
	if cfg.SparseAttentionK > 0 {
		if opts.ScoresFrom == "" {
			return nil, fmt.Errorf("train: sparse_attention_k = %d needs the first-stage model's checkpoint (TrainOptions.ScoresFrom, gexph train -scores-from)", cfg.SparseAttentionK)
		}
		prog.Phase("attention scores of %s", opts.ScoresFrom)
		scores, err := LoadAttentionScores(ctx, opts.ScoresFrom, ds, ModelOptions{Backend: opts.Backend})
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		if layerGraphs, err = scores.Sparsify(cfg.SparseAttentionK, cfg.Seed); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	prog.Phase("building the model")
	m, err := NewModelWithOptions(cfg, ds, ModelOptions{Backend: opts.Backend, Padding: opts.Padding, LayerGraphs: layerGraphs, Prefetch: opts.Prefetch})
	if err != nil {
		return nil, err
	}
	prog.Printf("gexph: %s, preset %q: %d parameters, backend %s", ds.Name, cfg.Preset, m.ParamCount(), m.Backend())
	if plan := m.PaddingPlan(); plan != "" {
		prog.Printf("%s", plan)
	}
	if m.pe != nil && !m.spec.transductive {
		all := append(append(append([]int(nil), ds.Split.Train...), ds.Split.Val...), ds.Split.Test...)
		prog.Phase("positional encodings of %d graphs", len(all))
		if err := m.pe.Precompute(ds, all, numWorkers()); err != nil {
			m.Close()
			return nil, err
		}
	}
	return m, nil
}

// runEpochs trains the epochs after info's, checkpointing and logging each in rd, and
// writes result.json at the end.
func runEpochs(ctx context.Context, m *Model, ds *data.Dataset, opts TrainOptions, rd *runDir, info *CheckpointInfo, prog *progress.Progress, start time.Time) (*Result, error) {
	cfg := m.cfg
	res := &Result{Dataset: ds.Name, Preset: cfg.Preset, Params: m.ParamCount(), Metric: cfg.Metric, Backend: m.Backend(),
		Seed: cfg.Seed, Version: buildcheck.Version(), Config: cfg}
	if w := runWarmup(cfg, info.History); w != cfg.WarmupEpochs {
		prog.Printf("%s", warmupNote(cfg, w, len(info.History) > 0))
	}
	logs, err := openRunLogs(opts, *info, cfg, ds.Name)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	defer logs.Close()
	finish := func() *Result {
		res.Epochs, res.BestEpoch, res.History = info.Epoch, info.BestEpoch, info.History
		if info.BestEpoch > 0 {
			res.ValMetric = info.BestVal
			if t := info.History[info.BestEpoch-1].TestMetric; t != nil {
				res.TestMetric = *t
			}
		}
		res.Seconds = time.Since(start).Seconds()
		res.PeakRSSMB = sysinfo.PeakRSSMB()
		res.CompileStats = m.CompileStats()
		return res
	}
	interrupted := func(epoch int, err error) error {
		if ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
			return fmt.Errorf("train: %w", err)
		}
		ie := &InterruptedError{Epoch: epoch, OutDir: opts.OutDir, Err: ctx.Err()}
		if rd != nil {
			ie.Saved, ie.Restored = info.Epoch, rd.Replaced()
		}
		return fmt.Errorf("train: %w", ie)
	}
	ran := 0
	if info.Epoch < cfg.Epochs {
		prog.Phase("compiling and training (expanders are drawn as batches are built)")
	}
	for epoch := info.Epoch + 1; epoch <= cfg.Epochs; epoch++ {
		if opts.StopAfter > 0 && ran >= opts.StopAfter {
			break
		}
		if cfg.Patience > 0 && info.BestEpoch > 0 && epoch-1-info.BestEpoch >= cfg.Patience {
			res.EarlyStopped = true
			prog.Printf("early stopping: no better validation %s in %d epochs", cfg.Metric, cfg.Patience)
			break
		}
		if err := ctx.Err(); err != nil {
			return finish(), interrupted(epoch, err)
		}
		st, err := m.runEpoch(ctx, ds, epoch, info, prog)
		st.setCompiles(m.CompileStats())
		var diverged *DivergedError
		if errors.As(err, &diverged) {
			printEpoch(prog, st, m.cfg)
			return divergedRun(finish(), st, logs, diverged)
		}
		if err != nil {
			return finish(), interrupted(epoch, err)
		}
		info.Epoch = epoch
		info.History = append(info.History, st)
		ran++
		printEpoch(prog, st, m.cfg)
		if err := saveEpoch(rd, *info, st, m); err != nil {
			return finish(), fmt.Errorf("train: %w", err)
		}
		if err := logs.epoch(st); err != nil {
			return finish(), fmt.Errorf("train: %w", err)
		}
	}
	finish()
	prog.Printf("best epoch %d: val %s %.4f, test %s %.4f (%.1fs)", res.BestEpoch, cfg.Metric, res.ValMetric, cfg.Metric, res.TestMetric, res.Seconds)
	prog.Printf("%s", res.summary())
	if rd != nil {
		if err := jsonfile.Write(rd.Path(ResultFile), res); err != nil {
			return res, fmt.Errorf("train: %w", err)
		}
	}
	return res, nil
}

// runEpoch trains and evaluates one epoch and returns its statistics; a new best
// validation metric updates info's best epoch (once the epoch has succeeded). A loss
// that diverged returns the epoch's statistics (marked diverged) with a *DivergedError.
func (m *Model) runEpoch(ctx context.Context, ds *data.Dataset, epoch int, info *CheckpointInfo, prog *progress.Progress) (EpochStats, error) {
	cfg := m.cfg
	epochStart, epochCPU := time.Now(), sysinfo.ProcessCPUSeconds()
	lr := scheduledRate(cfg, runWarmup(cfg, info.History), epoch-1)
	if err := m.SetLearningRate(lr); err != nil {
		return EpochStats{}, err
	}
	run, err := m.trainEpoch(ctx, ds, epoch, prog)
	var diverged *DivergedError
	if errors.As(err, &diverged) {
		return EpochStats{Epoch: epoch, TrainLoss: diverged.Loss, TrainMetric: math.NaN(), ValLoss: math.NaN(),
			ValMetric: math.NaN(), LR: lr, Seconds: time.Since(epochStart).Seconds(), Diverged: true,
			Backend: BackendLabel(m.Backend())}, err
	}
	if err != nil {
		return EpochStats{}, err
	}
	// A transductive graph scores every node in one pass: validation and test come
	// together, and the test metric is logged every epoch (of graph data sets, only
	// at a new best validation, when it is computed).
	splits := []string{"val"}
	if m.spec.transductive && len(ds.Split.Test) > 0 {
		splits = append(splits, "test")
	}
	if m.miniBatch() {
		prog.Phase("layer-wise evaluation of %d nodes", ds.Graphs[0].NumNodes)
	} else {
		prog.Working(epoch, "evaluating "+strings.Join(splits, " and "))
	}
	val, err := m.evaluate(ds, splits)
	if err != nil {
		return EpochStats{}, fmt.Errorf("epoch %d: %w", epoch, err)
	}
	st := EpochStats{Epoch: epoch, TrainLoss: run.loss, TrainMetric: run.metric, ValLoss: val[0].Loss,
		ValMetric: val[0].Metric, LR: lr, ExamplesPerSec: float64(run.examples) / math.Max(run.secs, 1e-9),
		Backend: BackendLabel(m.Backend())}
	if !finite(st.ValLoss) {
		st.ValMetric, st.Diverged = math.NaN(), true
		st.Seconds = time.Since(epochStart).Seconds()
		return st, &DivergedError{Epoch: epoch, Step: run.steps, Loss: st.ValLoss, Validation: true}
	}
	if len(val) > 1 {
		st.TestMetric = &val[1].Metric
	}
	st.Best = info.BestEpoch == 0 || Better(cfg.Metric, st.ValMetric, info.BestVal)
	if st.Best && len(val) == 1 && len(ds.Split.Test) > 0 {
		prog.Working(epoch, "evaluating test (a new best validation "+cfg.Metric+")")
		test, err := m.evaluate(ds, []string{"test"})
		if err != nil {
			return EpochStats{}, fmt.Errorf("epoch %d: %w", epoch, err)
		}
		st.TestMetric = &test[0].Metric
	}
	if st.Best {
		info.BestEpoch, info.BestVal = epoch, st.ValMetric
	}
	st.Seconds = time.Since(epochStart).Seconds()
	st.CPUSeconds = sysinfo.ProcessCPUSeconds() - epochCPU
	return st, nil
}

// saveEpoch writes the checkpoints of a finished epoch to rd (nil: none): best.ckpt
// first, should it be the best, then last.ckpt; the first last.ckpt of a run that
// replaces an earlier one removes that run's files.
func saveEpoch(rd *runDir, info CheckpointInfo, st EpochStats, m *Model) error {
	if rd == nil {
		return nil
	}
	// Should the run stop between the two writes, last.ckpt still holds the epoch
	// before, and a resumed run repeats this epoch (the same seed gives the same epoch)
	// and writes both again.
	if st.Best {
		if err := saveCheckpoint(rd.Path(BestCheckpointFile), info, m.store, true); err != nil {
			return err
		}
	}
	if err := saveCheckpoint(rd.Path(LastCheckpointFile), info, m.store, false); err != nil {
		return err
	}
	return rd.Commit()
}

// divergedRun ends a run whose loss diverged in epoch st (whose progress line the caller
// wrote): the epoch goes to the logs (marked diverged, its non-finite values null in
// log.jsonl) but to no checkpoint, so best.ckpt and last.ckpt keep the epochs before; the result holds
// it in its history.
func divergedRun(res *Result, st EpochStats, logs *runLogs, d *DivergedError) (*Result, error) {
	res.History = append(slices.Clone(res.History), st)
	err := fmt.Errorf("train: %w", d)
	if lerr := logs.epoch(st); lerr != nil {
		err = errors.Join(err, fmt.Errorf("train: logging the diverged epoch: %w", lerr))
	}
	return res, err
}

// finite tells whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// sameDataset checks that a checkpoint was made on the data set named name with the
// given fingerprint, and returns an error completing "the checkpoint … " otherwise.
// Checkpoints of older versions, without a fingerprint, are checked by name.
func sameDataset(ck CheckpointInfo, name, fingerprint string) error {
	switch {
	case ck.DatasetFingerprint != "" && ck.DatasetFingerprint != fingerprint:
		return fmt.Errorf("was made on other data (%q, fingerprint %s) than this run's (%q, fingerprint %s)", ck.Dataset, ck.DatasetFingerprint, name, fingerprint)
	case ck.DatasetFingerprint == "" && ck.Dataset != name:
		return fmt.Errorf("was made on data set %q, not %q", ck.Dataset, name)
	}
	return nil
}

// TrainFromSpec loads the data set named by spec with data.Load (opts.Data, completed
// by DataOptions) and trains cfg on it with Train. It locks opts.OutDir before loading,
// so that a directory in use is refused at once; a data set that fails to load leaves
// the directory as it was.
func TrainFromSpec(ctx context.Context, spec string, cfg Config, opts TrainOptions) (*Result, error) {
	start := time.Now()
	SetupRuntime()
	if err := checkTrainOptions(cfg, opts); err != nil {
		return nil, err
	}
	rd, err := openOutDir(opts)
	if err != nil {
		return nil, err
	}
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "· loading data set %s\n", spec)
	}
	lo := DataOptions(cfg, opts.Data)
	// The config records the transforms asked for, so that eval and predict apply them.
	cfg.BinaryFeatures, cfg.LargestComponent = lo.BinaryFeatures, lo.LargestComponent
	ds, err := data.Load(spec, lo)
	if err != nil {
		err = fmt.Errorf("train: %w", err)
		if rd != nil {
			if cerr := rd.Close(); cerr != nil {
				err = errors.Join(err, fmt.Errorf("train: %w", cerr))
			}
		}
		return nil, err
	}
	logTransforms(opts.Log, ds)
	opts.DataSpec = data.AbsoluteSpec(spec)
	return trainIn(ctx, cfg, ds, opts, rd, start)
}

// logTransforms writes to log (when not nil) what the loader changed in ds as read:
// the run's header line on its data.
func logTransforms(log io.Writer, ds *data.Dataset) {
	if log == nil {
		return
	}
	for _, what := range ds.Inferred {
		fmt.Fprintf(log, "· data set %s inferred: %s\n", ds.Name, what)
	}
	if len(ds.Transforms) == 0 {
		fmt.Fprintf(log, "· data set %s as read, no transforms\n", ds.Name)
		return
	}
	fmt.Fprintf(log, "· data set %s transformed: %s\n", ds.Name, strings.Join(ds.Transforms, ", "))
}

// DataOptions completes lo for a run of cfg, as TrainFromSpec does: the seed of random
// splits and generated data is cfg.Seed (0 included: a run's seed is the one its
// result.json records), and generated split sizes default to cfg.MaxTrain/MaxVal/MaxTest.
// Load a data set with it to evaluate a checkpoint on the data it was trained on.
func DataOptions(cfg Config, lo data.LoadOptions) data.LoadOptions {
	lo.Seed = cfg.Seed
	if lo.TrainGraphs == 0 && lo.ValGraphs == 0 && lo.TestGraphs == 0 {
		lo.TrainGraphs, lo.ValGraphs, lo.TestGraphs = cfg.MaxTrain, cfg.MaxVal, cfg.MaxTest
	}
	lo.Transforms = lo.Transforms.Or(cfg.Transforms)
	return lo
}

// EvalResult holds the loss and metric of every split of an evaluation.
type EvalResult struct {
	// Dataset is the data set's name and Metric the metric's.
	Dataset string `json:"dataset"`
	Metric  string `json:"metric"`
	// Epoch is the number of epochs the checkpoint had completed.
	Epoch int `json:"epoch"`
	// Params is the number of trainable parameters.
	Params int `json:"params"`
	// Train, Val and Test are the splits' results (zero for an empty split).
	Train SplitResult `json:"train"`
	Val   SplitResult `json:"val"`
	Test  SplitResult `json:"test"`
}

// Evaluate loads the checkpoint at path (e.g. OutDir/best.ckpt) and evaluates its model
// on the train, validation and test splits of ds (cut as the checkpoint's config says).
func Evaluate(ctx context.Context, path string, ds *data.Dataset, opts ModelOptions) (*EvalResult, error) {
	return EvaluateSplits(ctx, path, ds, opts, "train", "val", "test")
}

// EvaluateSplits is Evaluate on the named splits only ("train", "val", "test"); the
// others are left zero.
func EvaluateSplits(ctx context.Context, path string, ds *data.Dataset, opts ModelOptions, splits ...string) (*EvalResult, error) {
	for _, s := range splits {
		if s != "train" && s != "val" && s != "test" {
			return nil, fmt.Errorf("evaluate %s: split %q: want train, val or test", path, s)
		}
	}
	SetupRuntime()
	if ds != nil && ds.Unlabelled {
		return nil, fmt.Errorf("evaluate %s: data set %q has no labels: predict on it (gexph predict); evaluating needs labels", path, ds.Name)
	}
	m, ds, ck, err := loadCheckpointModel(path, ds, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	cfg := ck.info.Config
	out := &EvalResult{Dataset: ds.Name, Metric: cfg.Metric, Epoch: ck.info.Epoch, Params: m.ParamCount()}
	for _, s := range []struct {
		name string
		dst  *SplitResult
	}{{"train", &out.Train}, {"val", &out.Val}, {"test", &out.Test}} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		idx, _ := splitIndices(ds, s.name)
		if len(idx) == 0 || !slices.Contains(splits, s.name) {
			continue
		}
		r, err := m.evaluate(ds, []string{s.name})
		if err != nil {
			return nil, err
		}
		*s.dst = r[0]
	}
	return out, nil
}
