package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/cpuprofile"
)

// settingsFlag collects the repeatable -set flag: key=value pairs or JSON objects,
// applied in order.
type settingsFlag []string

func (s *settingsFlag) String() string     { return strings.Join(*s, " ") }
func (s *settingsFlag) Set(v string) error { *s = append(*s, v); return nil }
func (s *settingsFlag) repeatable()        {}

// configFlags are the flags that make a config: a preset, a config file and overrides.
type configFlags struct {
	fs             *flag.FlagSet
	preset, config *string
	set            *settingsFlag
	// batchNodes and fanout are shortcuts for -set batch_nodes=N and -set fanout=SPEC,
	// applied when given (a given 0 or "" included).
	batchNodes *int
	fanout     *string
}

func addConfigFlags(fs *flag.FlagSet) configFlags {
	c := configFlags{
		fs:     fs,
		preset: fs.String("preset", "", "hyperparameter preset ("+strings.Join(gexph.PresetNames(), ", ")+"); default: the data set's name"),
		config: fs.String("config", "", "config `FILE` overriding the preset: YAML or JSON (as 'gexph config' prints), a run's result.json or a checkpoint"),
		set:    new(settingsFlag),
	}
	c.batchNodes = fs.Int("batch-nodes", 0, "train a transductive graph on mini-batches of this many seed nodes with sampled neighbourhoods, evaluated layer-wise (0: full-batch; not given: the config's)")
	c.fanout = fs.String("fanout", "", "mini-batch sampling per layer, e.g. local=10,expander=all,global-in=32,global-out=all (one spec, or one per layer separated by /; not given: the config's); needs mini-batches (-batch-nodes or the config's batch_nodes)")
	fs.Var(c.set, "set", "override one config field, key=value (e.g. -set layers=3 -set lr=0.01; repeatable, each key once), or a JSON object")
	return c
}

// given tells whether the flag of that name was on the command line.
func given(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// load returns the config of the flags for the data set spec.
func (c configFlags) load(spec string) (gexph.Config, error) {
	if err := c.checkShortcutConflicts(); err != nil {
		return gexph.Config{}, err
	}
	name, task, err := c.presetName(spec)
	if err != nil {
		return gexph.Config{}, err
	}
	cfg, err := gexph.Preset(name)
	if err != nil {
		return gexph.Config{}, err
	}
	if task != nil {
		cfg.Metric = gexph.DefaultMetric(*task) // the generic graph preset on the export's task
	}
	if *c.config != "" {
		if cfg, err = gexph.LoadConfig(cfg, *c.config); err != nil {
			return gexph.Config{}, err
		}
	}
	if cfg, err = gexph.ParseSettings(cfg, *c.set); err != nil {
		return gexph.Config{}, fmt.Errorf("-set: %w", err)
	}
	return c.applyShortcuts(cfg)
}

// presetName is the preset the config starts from: -preset, or the data set's. Data
// loaded by path takes a generic preset: "graph" for an export of a graph-level task
// (task then says which, for its metric), "node" otherwise.
func (c configFlags) presetName(spec string) (name string, task *data.Task, err error) {
	if *c.preset != "" {
		return *c.preset, nil, nil
	}
	name = strings.ToLower(spec)
	kind, arg, byPath := data.KindOf(spec)
	if byPath && kind.Generated {
		return "scaling", nil, nil // planted:N, the scaling experiments' graph
	}
	if slices.Contains(gexph.PresetNames(), name) {
		return name, nil, nil
	}
	generic := "node"
	if byPath {
		// Data by path holds one graph's nodes, or an export's graphs of any task: a
		// graph-level task takes the generic graph preset.
		t, _, err := kind.Task(arg)
		if err != nil {
			return "", nil, fmt.Errorf("-dataset %s: %w", spec, err)
		}
		if t != data.NodeClassification {
			generic, task = "graph", &t
		}
	}
	switch {
	case *c.config != "":
		return generic, task, nil // the config file's fields go on top
	case strings.Contains(name, ":"):
		// Files loaded by path hold node classification, or an export's task.
		fmt.Fprintf(os.Stderr, "gexph: data set %s has no preset of its name: using the generic preset %q (-preset chooses another)\n", spec, generic)
		return generic, task, nil
	}
	return "", nil, fmt.Errorf("-preset is required for data set %q (presets: %s)", spec, strings.Join(gexph.PresetNames(), ", "))
}

// checkShortcutConflicts refuses -batch-nodes or -fanout given with a -set of the
// same key: one command line says each value once.
func (c configFlags) checkShortcutConflicts() error {
	for _, sc := range []struct{ flag, key string }{{"batch-nodes", "batch_nodes"}, {"fanout", "fanout"}} {
		if !given(c.fs, sc.flag) {
			continue
		}
		for _, s := range *c.set {
			if keys, err := gexph.SettingKeys(s); err == nil && slices.Contains(keys, sc.key) {
				return fmt.Errorf("-%s and -set %s both set %s; give it once", sc.flag, s, sc.key)
			}
		}
	}
	return nil
}

// applyShortcuts applies -batch-nodes and -fanout when given: a negative -batch-nodes
// and a bad -fanout are errors naming the flag.
func (c configFlags) applyShortcuts(cfg gexph.Config) (gexph.Config, error) {
	if given(c.fs, "batch-nodes") {
		if *c.batchNodes < 0 {
			return gexph.Config{}, fmt.Errorf("-batch-nodes %d: want ≥ 0 seed nodes per mini-batch (0 trains full-batch)", *c.batchNodes)
		}
		cfg.BatchNodes = *c.batchNodes
	}
	if given(c.fs, "fanout") {
		cfg.Fanout = *c.fanout
		if _, err := gexph.ParseFanout(cfg.Fanout, cfg.Layers); err != nil {
			return gexph.Config{}, fmt.Errorf("-fanout %q: %w", cfg.Fanout, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return gexph.Config{}, fmt.Errorf("-batch-nodes %d -fanout %q: %w", cfg.BatchNodes, cfg.Fanout, err)
	}
	return cfg, nil
}

// checkFullBatchFanout refuses -fanout for a run that trains full-batch: it would
// sample nothing (as PyG's num_neighbors, a NeighborLoader's, means nothing without one).
func (c configFlags) checkFullBatchFanout(cfg gexph.Config) error {
	if given(c.fs, "fanout") && cfg.BatchNodes == 0 {
		return fmt.Errorf("-fanout %q: this run trains full-batch (batch_nodes = 0), which samples no neighbourhoods; give -batch-nodes N to train on mini-batches, or leave -fanout out", *c.fanout)
	}
	return nil
}

func runTrain(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("train", "-dataset "+specUsage()+" [-preset NAME] [-config FILE] [-set key=value ...] [-epochs N] [-seed S | -seeds S1,S2,...] [-backend B] [-out DIR [-resume | -force]] [-json]", stderr)
	df := addDataFlags(fs, "pattern")
	cf := addConfigFlags(fs)
	epochs := fs.Int("epochs", 0, "training epochs (not given: the config's)")
	seed := fs.Uint64("seed", 0, "seed of initialisation, expanders, shuffling and splits, 0 included (not given: the config's, 1 in every preset)")
	seeds := fs.String("seeds", "", "comma-separated seeds: one run per seed (in OUT/seed-S with -out) and their mean ± std")
	backend := fs.String("backend", "go", "compute backend: go; cuda (an NVIDIA GPU, through the pip-installed jax-cuda13-pjrt that gexph finds; needs make build-xla); auto (cuda where there is one, else go); xla:cpu or xla:/path/to/plugin.so")
	padding := fs.String("padding", "", "pad batches to bucketed shapes: none, pow2, exp:B, linear:S, plan (a few shapes planned for the run), plan:T,E (T training and E evaluation shapes) (default: plan for batches of graphs, none for a transductive graph)")
	prefetch := fs.Int("prefetch", 0, "batches of graphs built ahead of the training step on another goroutine, so the device need not wait for the host (0: one on XLA, none on the go backend; -1: none); the batches are the same")
	out := fs.String("out", "", "directory for checkpoints, the per-epoch log (log.jsonl, log.csv) and result.json")
	ckptEvery := fs.Duration("ckpt-every", time.Minute, "write OUT/last.ckpt at most this often (and after the first and last epoch of the call, at each new best epoch, and on an interrupt between epochs); an interrupted run resumes from it and trains the epochs after it again, to the same result; 0: after every epoch")
	resume := fs.Bool("resume", false, "continue from OUT/last.ckpt (same config but -epochs and patience, same data); without last.ckpt start afresh only where that overwrites nothing of another run")
	force := fs.Bool("force", false, "start afresh in an -out directory that holds a run: its files are moved aside, removed once the new run has written its first checkpoint, and put back if it ends before")
	tensorboard := fs.String("tensorboard", "", "also write TensorBoard scalars (an event file) to this directory")
	asJSON := fs.Bool("json", false, "print the final result as one JSON object (without the per-epoch history)")
	quiet := fs.Bool("quiet", false, "no progress output")
	noMemCheck := fs.Bool("no-memory-check", false, "start a run that the memory estimate refuses (an upper bound: the run may still run out of memory)")
	estimator := fs.Bool("estimator", false, "Spexphormer's first stage: train the config made an attention-score estimator (width 4, one head, unit-norm values; gexph.EstimatorConfig)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole call (data, compiling, epochs) to this file (go tool pprof)")
	scoresFrom := fs.String("scores-from", "", "Spexphormer's second stage: the first stage's checkpoint, whose attention scores draw each layer's k edges per node (with -set sparse_attention_k=K)")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if given(fs, "epochs") && *epochs < 1 {
		return fmt.Errorf("-epochs %d: want ≥ 1 epochs (leave -epochs out for the config's)", *epochs)
	}
	if *resume && *force {
		return errors.New("-resume and -force exclude each other")
	}
	if *resume && *out == "" {
		return fmt.Errorf("-resume needs -out (the directory holding last.ckpt)")
	}
	cfg, err := cf.load(*df.spec)
	if err != nil {
		return err
	}
	if err := cf.checkFullBatchFanout(cfg); err != nil {
		return err
	}
	if *estimator {
		cfg = gexph.EstimatorConfig(cfg)
	}
	gexph.SetupMiniBatchRuntime(cfg)
	if given(fs, "epochs") {
		cfg.Epochs = *epochs
	}
	if given(fs, "seed") {
		cfg.Seed = *seed
	}
	seedList, err := parseSeeds(*seeds, given(fs, "seed"))
	if err != nil {
		return err
	}
	opts := gexph.TrainOptions{Backend: *backend, Padding: *padding, Prefetch: *prefetch, Resume: *resume, Force: *force, CheckpointEvery: *ckptEvery, Data: df.options(0, stderr), TensorBoardDir: *tensorboard, ScoresFrom: *scoresFrom, NoMemoryCheck: *noMemCheck}
	if !*quiet {
		opts.Log = stderr
	}
	ctx, stop := interruptContext()
	defer stop()
	if err := checkOutDirs(*out, seedList, *resume, *force); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stopProfile, err := cpuprofile.Start(*cpuProfile)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, stopProfile()) }()
	}
	if seedList == nil {
		opts.OutDir = *out
		res, err := gexph.TrainFromSpec(ctx, *df.spec, cfg, opts)
		if err != nil {
			return howToContinue(err, args)
		}
		if *asJSON {
			short := *res
			short.History = nil
			return writeJSON(stdout, short)
		}
		printResult(stdout, res, *out)
		return nil
	}
	var results []*gexph.Result
	for _, s := range seedList {
		c := cfg
		c.Seed = s
		o := opts
		if *out != "" {
			o.OutDir = seedDir(*out, s)
		}
		if o.TensorBoardDir != "" {
			o.TensorBoardDir = filepath.Join(o.TensorBoardDir, fmt.Sprintf("seed-%d", s))
		}
		res, err := gexph.TrainFromSpec(ctx, *df.spec, c, o)
		if err != nil {
			return howToContinue(fmt.Errorf("seed %d: %w", s, err), args)
		}
		results = append(results, res)
		if !*asJSON {
			fmt.Fprintf(stdout, "seed %-4d val %s %.4f  test %s %.4f  (%d epochs, %.1fs)\n", s, res.Metric, res.ValMetric, res.Metric, res.TestMetric, res.Epochs, res.Seconds)
		}
	}
	agg := gexph.Aggregate(results)
	if *out != "" {
		if err := gexph.WriteAggregate(filepath.Join(*out, gexph.AggregateFile), agg); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, agg)
	}
	fmt.Fprintf(stdout, "%d seeds      val %s %.4f ± %.4f  test %s %.4f ± %.4f\n", len(results), agg.Metric, agg.ValMetric.Mean, agg.ValMetric.Std, agg.Metric, agg.TestMetric.Mean, agg.TestMetric.Std)
	if *out != "" {
		fmt.Fprintf(stdout, "outputs      %s (seed-*/, %s)\n", *out, gexph.AggregateFile)
	}
	return nil
}

// parseSeeds reads -seeds ("" → nil: one run); it excludes -seed (seedGiven). Every
// uint64 is a seed, 0 included.
func parseSeeds(list string, seedGiven bool) ([]uint64, error) {
	if list == "" {
		return nil, nil
	}
	if seedGiven {
		return nil, errors.New("-seed and -seeds exclude each other")
	}
	var out []uint64
	for _, f := range strings.Split(list, ",") {
		s, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("-seeds %s: %q is not a seed (an integer from 0 to 2^64 − 1)", list, f)
		}
		if slices.Contains(out, s) {
			return nil, fmt.Errorf("-seeds %s: seed %d twice", list, s)
		}
		out = append(out, s)
	}
	return out, nil
}

// seedDir is the run directory of one seed of a -seeds run in out.
func seedDir(out string, seed uint64) string {
	return filepath.Join(out, fmt.Sprintf("seed-%d", seed))
}

// checkOutDirs refuses, before any data is loaded, a fresh run (neither -resume nor
// -force) over an earlier run in out or in any seed's directory of it. It only reads:
// gexph.Train checks again under the directory's lock, and replaces an earlier run
// (-force) only once the new run has a checkpoint.
func checkOutDirs(out string, seeds []uint64, resume, force bool) error {
	if out == "" || resume || force {
		return nil
	}
	dirs := []string{out}
	if seeds != nil {
		dirs = dirs[:0]
		for _, s := range seeds {
			dirs = append(dirs, seedDir(out, s))
		}
	}
	for _, dir := range dirs {
		found, err := gexph.ExistingRunFiles(dir)
		if err != nil {
			return fmt.Errorf("-out %s: %w", dir, err)
		}
		if len(found) > 0 {
			return fmt.Errorf("-out %s holds a run (%s): continue it with -resume, or replace it with -force", dir, strings.Join(found, ", "))
		}
	}
	return nil
}

// interruptContext returns a context that SIGINT or SIGTERM cancels, so that a run ends
// cleanly after its last complete checkpoint; a second signal has its default effect.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// howToContinue completes the error of an interrupted run with the command that
// continues it: this command's arguments with -resume in place of -force; a run without
// -out, which saved nothing, gets the command that would keep what it trains. A run
// refused by the memory estimate is told how to start it anyway.
func howToContinue(err error, args []string) error {
	if errors.Is(err, gexph.ErrOutOfMemory) {
		return fmt.Errorf("%w (the estimate is an upper bound: -no-memory-check starts the run anyway)", err)
	}
	var ie *gexph.InterruptedError
	if !errors.As(err, &ie) {
		return err
	}
	if ie.OutDir == "" {
		return fmt.Errorf("%w; to be able to continue a run, give it a directory: %s", err, commandLine("gexph train", append(slices.Clone(args), "-out", "DIR")))
	}
	var kept []string
	for _, a := range args {
		switch strings.TrimLeft(a, "-") {
		case "force", "force=true", "resume", "resume=true":
			continue
		}
		kept = append(kept, a)
	}
	return fmt.Errorf("%w; continue with: %s", err, commandLine("gexph train", append(kept, "-resume")))
}

func printResult(w io.Writer, res *gexph.Result, out string) {
	fmt.Fprintf(w, "data set     %s\npreset       %s\nseed         %d\nparameters   %d\nepochs       %d (best %d%s)\n",
		res.Dataset, res.Preset, res.Seed, res.Params, res.Epochs, res.BestEpoch, map[bool]string{true: ", stopped early", false: ""}[res.EarlyStopped])
	fmt.Fprintf(w, "val %-8s %.4f\ntest %-7s %.4f\nseconds      %.1f\npeak memory  %.0f MiB\nbackend      %s\n",
		res.Metric, res.ValMetric, res.Metric, res.TestMetric, res.Seconds, res.PeakRSSMB, res.Backend)
	if out != "" {
		fmt.Fprintf(w, "outputs      %s (best.ckpt, last.ckpt, log.jsonl, log.csv, result.json)\n", out)
	}
}

func runConfig(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("config", "[-preset NAME] [-dataset NAME] [-config FILE] [-set key=value ...] [-json]", stderr)
	spec := fs.String("dataset", "", "data set whose preset to print when -preset is not given")
	cf := addConfigFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON instead of YAML")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *cf.preset == "" && *spec == "" && *cf.config == "" {
		return fmt.Errorf("-preset (or -dataset, or -config) is required (presets: %s)", strings.Join(gexph.PresetNames(), ", "))
	}
	cfg, err := cf.load(*spec)
	if err != nil {
		return err
	}
	var text string
	if *asJSON {
		text, err = cfg.ToJSON()
		text += "\n"
	} else {
		text, err = cfg.ToYAML()
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, text)
	return err
}
