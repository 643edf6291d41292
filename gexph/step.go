package gexph

import (
	"errors"
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

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
