package gexph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/progress"
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
	// or "" for DefaultPadding ("plan" for batches of graphs, "none" for a transductive
	// graph). Padding changes no value the model computes, but dropout draws its masks
	// over the padded shapes (see parsePadding); it lets compiled programs be reused. A
	// resumed run with an empty Padding keeps the one its checkpoint records
	// (CheckpointInfo.Padding).
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
	// CheckpointEvery is how long OutDir/last.ckpt may go unwritten: it is written
	// after the first epoch of each call, at each new best epoch (with best.ckpt, so that
	// best.ckpt never holds an epoch that last.ckpt has not reached), after the last
	// epoch the call runs (the run's end, early stopping, StopAfter, an interruption
	// between epochs) and otherwise once this long has passed since its last write. An
	// interrupted or killed run resumes from the epoch last.ckpt holds and trains the
	// epochs after it again (the same seed gives the same epochs, so the same run).
	// 0 writes last.ckpt after every epoch. A write costs what the model's weights and
	// optimiser state take to write (Coauthor CS's 11-million-parameter cs-plus: 135 MB,
	// about 0.7 s on a 2-core AMD EPYC, against epochs of 3 s).
	CheckpointEvery time.Duration
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
	if ck != nil && opts.Padding == "" {
		opts.Padding = ck.info.Padding // A resumed run keeps its padding (dropout's masks).
	}
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
	info := CheckpointInfo{Config: cfg, Dataset: ds.Name, DatasetSpec: opts.DataSpec, DatasetFingerprint: id.fingerprint, Schema: &schema, Padding: m.paddingName}
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
		if ck.info.Padding != "" && ck.info.Padding != m.paddingName {
			prog.Printf("padding %q from here on; epochs 1–%d trained with %q (dropout draws its masks over the padded shapes)", m.paddingName, info.Epoch, ck.info.Padding)
		}
	}
	return runEpochs(ctx, m, ds, opts, rd, &info, prog, start)
}

// buildTrainModel builds the model of a run (with the attention graphs of a
// second-stage Spexphormer config) and precomputes the positional encodings of a graph
// data set.
func buildTrainModel(ctx context.Context, cfg Config, ds *data.Dataset, opts TrainOptions, prog *progress.Progress) (*Model, error) {
	layerGraphs, err := trainLayerGraphs(ctx, cfg, ds, opts, prog)
	if err != nil {
		return nil, err
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
	// The splits of a graph data set name graphs (those of a transductive one, nodes).
	if m.pe != nil && !ds.Transductive {
		all := append(append(append([]int(nil), ds.Split.Train...), ds.Split.Val...), ds.Split.Test...)
		prog.Phase("positional encodings of %d graphs", len(all))
		if err := m.pe.Precompute(ds, all, numWorkers()); err != nil {
			m.Close()
			return nil, err
		}
	}
	return m, nil
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
// result.json records), generated split sizes default to cfg.MaxTrain/MaxVal/MaxTest,
// and cfg.SplitFile is the split file unless lo names one. Load a data set with it to evaluate a checkpoint on the data it was trained on.
func DataOptions(cfg Config, lo data.LoadOptions) data.LoadOptions {
	lo.Seed = cfg.Seed
	if lo.TrainGraphs == 0 && lo.ValGraphs == 0 && lo.TestGraphs == 0 {
		lo.TrainGraphs, lo.ValGraphs, lo.TestGraphs = cfg.MaxTrain, cfg.MaxVal, cfg.MaxTest
	}
	lo.Transforms = lo.Transforms.Or(cfg.Transforms)
	if lo.SplitFile == "" {
		lo.SplitFile = cfg.SplitFile
	}
	return lo
}
