package gexph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph/buildcheck"
	"github.com/gexph/gexph/internal/jsonfile"
	"github.com/gexph/gexph/internal/progress"
	"github.com/gexph/gexph/internal/sysinfo"
)

// epochRun is what the training steps of one epoch measured.
type epochRun struct {
	loss, metric float64
	// examples is the number of training examples, steps the number of steps.
	examples, steps int
	secs            float64
}

// trainEpoch runs one epoch of training steps and returns its loss, metric, number of
// training examples and steps, and training seconds.
func (m *Model) trainEpoch(ctx context.Context, ds *data.Dataset, epoch int, prog *progress.Progress) (epochRun, error) {
	start := time.Now()
	c := &collector{m: m}
	examples, err := m.run.trainEpoch(ctx, ds, epoch, prog, c)
	if err != nil {
		return epochRun{}, err
	}
	metric, err := c.metric(m.cfg.Metric)
	if err != nil {
		return epochRun{}, fmt.Errorf("epoch %d: train %w", epoch, err)
	}
	return epochRun{loss: c.loss(), metric: metric, examples: examples, steps: c.steps, secs: time.Since(start).Seconds()}, nil
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
	saver := &checkpointSaver{rd: rd, m: m, every: opts.CheckpointEvery, saved: info.Epoch}
	interrupted := func(epoch int, err error) error {
		if ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
			return fmt.Errorf("train: %w", err)
		}
		ie := &InterruptedError{Epoch: epoch, OutDir: opts.OutDir, Err: ctx.Err()}
		if rd != nil {
			ie.Saved, ie.Restored = saver.saved, rd.Replaced()
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
			if serr := saver.flush(*info); serr != nil {
				return finish(), errors.Join(interrupted(epoch, err), fmt.Errorf("train: %w", serr))
			}
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
		if err := saver.epoch(*info, st); err != nil {
			return finish(), fmt.Errorf("train: %w", err)
		}
		if err := logs.epoch(st); err != nil {
			return finish(), fmt.Errorf("train: %w", err)
		}
	}
	if err := saver.flush(*info); err != nil {
		return finish(), fmt.Errorf("train: %w", err)
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
			Backend: BackendLabel(m.Backend()), Machine: sysinfo.Machine()}, err
	}
	if err != nil {
		return EpochStats{}, err
	}
	// The way of running names the splits its evaluation scores: a transductive graph
	// scores every node in one pass, validation and test together, and its test metric
	// is logged every epoch (of graph data sets, only at a new best validation, when it
	// is computed). A cancelled ctx stops the evaluation too.
	splits := m.run.epochEval(ds, epoch, prog)
	val, err := m.evaluate(ctx, ds, splits)
	if err != nil {
		return EpochStats{}, fmt.Errorf("epoch %d: %w", epoch, err)
	}
	st := EpochStats{Epoch: epoch, TrainLoss: run.loss, TrainMetric: run.metric, ValLoss: val[0].Loss,
		ValMetric: val[0].Metric, LR: lr, ExamplesPerSec: float64(run.examples) / math.Max(run.secs, 1e-9),
		Backend: BackendLabel(m.Backend()), Machine: sysinfo.Machine()}
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
		test, err := m.evaluate(ctx, ds, []data.SplitName{data.TestSplit})
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

// allRows returns 0..n−1.
func allRows(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}
