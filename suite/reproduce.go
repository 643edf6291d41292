package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/jsonfile"
	"github.com/gexph/gexph/internal/sysinfo"
)

// Reproduction suites: lists of training runs that reproduce the paper's tables, a
// resumable runner that records every run (OutDir/runs/<name>.json and one CSV row), a
// summary over seeds and a RESULTS.md table that sets the paper's figures beside ours.

// Suite names for Suite.
const (
	// SuiteTransductive is TransductiveSuite: Computers, CS, Cora and CiteSeer with
	// Exphormer, the MPNN and attention baselines and the ablations of Table 5.
	SuiteTransductive = "transductive"
	// SuiteInductiveBudget is InductiveBudgetSuite: PATTERN, CLUSTER, MNIST and
	// Peptides-func on subsets and few epochs, for a CPU.
	SuiteInductiveBudget = "inductive-budget"
	// SuiteInductive is InductiveSuite: the same data sets at the paper's full budget,
	// for a GPU (see InductiveFullBudgetCommand).
	SuiteInductive = "inductive"
	// SuiteLarge is LargeSuite: mini-batch training over the interaction graph on
	// planted-partition graphs of 10⁵ to 10⁷ nodes, against full-batch training where
	// both fit.
	SuiteLarge = "large"
)

// Variant names of suite runs (the CSV's variant column).
const (
	// VariantExphormer is the preset's model unchanged.
	VariantExphormer = "exphormer"
	// VariantMPNN is the preset's MPNN alone (attention "none").
	VariantMPNN = "mpnn"
	// VariantFull, VariantPerformer and VariantBigBird replace Exphormer attention by
	// full attention, Performer and BigBird, keeping the MPNN.
	VariantFull      = "mpnn+full"
	VariantPerformer = "mpnn+performer"
	VariantBigBird   = "mpnn+bigbird"
	// VariantNoLocal and VariantNoExpander drop the graph's own edges or the expander
	// edges from the Exphormer interaction graph (Table 5).
	VariantNoLocal    = "no-local"
	VariantNoExpander = "no-expander"
	// VariantReference is the data set's *-ref preset: the reference code's config and
	// training details exactly (docs/REFERENCE.md).
	VariantReference = "reference"
	// VariantMiniBatch and VariantFullBatch are the large preset's model trained on
	// sampled mini-batches and on the whole graph at once (SuiteLarge).
	VariantMiniBatch = "mini-batch"
	VariantFullBatch = "full-batch"
)

// baselineSeeds is the number of seeds of the baselines and ablations.
const baselineSeeds = 3

// SuiteRun is one training run of a suite: a preset, JSON overrides on top of it and a
// seed, trained on a data set.
type SuiteRun struct {
	// Name identifies the run; it names OutDir/runs/<Name>.json, so it holds only
	// letters, digits, '-', '_', '+' and '.'.
	Name string
	// Dataset is the data set's spec for data.Load.
	Dataset string
	// Preset is the base configuration's preset name.
	Preset string
	// Variant names the model variant (VariantExphormer, VariantMPNN, …); runs of the
	// same data set and variant with different seeds are summarised together.
	Variant string
	// Overrides is a partial JSON config applied on top of the preset ("" for none).
	Overrides string
	// Seed is the run's seed (the config's Seed: weights, batches, expanders and the
	// random splits of the data set).
	Seed uint64
}

// config returns the run's validated configuration.
func (r SuiteRun) config() (gexph.Config, error) {
	cfg, err := gexph.Preset(r.Preset)
	if err != nil {
		return gexph.Config{}, fmt.Errorf("suite run %q: %w", r.Name, err)
	}
	if r.Overrides != "" {
		if cfg, err = gexph.ParseConfig(cfg, r.Overrides); err != nil {
			return gexph.Config{}, fmt.Errorf("suite run %q: overrides %s: %w", r.Name, r.Overrides, err)
		}
	}
	cfg.Seed = r.Seed
	if err := cfg.Validate(); err != nil {
		return gexph.Config{}, fmt.Errorf("suite run %q: %w", r.Name, err)
	}
	return cfg, nil
}

// seedRuns returns the runs of one data set and variant with seeds 1..seeds.
func seedRuns(dataset, preset, variant, overrides string, seeds int) []SuiteRun {
	runs := make([]SuiteRun, 0, seeds)
	for s := 1; s <= seeds; s++ {
		runs = append(runs, SuiteRun{
			Name:    fmt.Sprintf("%s_%s_s%d", dataset, variant, s),
			Dataset: dataset, Preset: preset, Variant: variant, Overrides: overrides, Seed: uint64(s),
		})
	}
	return runs
}

// TransductiveSuite returns the transductive runs: Exphormer with the presets of the
// paper's Table 9 on Computers, CS, Cora and CiteSeer with seeds 1..seeds, and with
// seeds 1..min(seeds, 3) (the same random splits) the baselines — the GCN alone, GCN
// with full attention, with Performer and with BigBird —, the ablations of Table 5
// without local edges and without expander edges, and on Computers and CS the
// reference mode (VariantReference).
//
// The ablation without global nodes is not a separate run: these presets have no
// virtual nodes, so it is the full model itself. (The paper's Table 5 accordingly lists
// Computers' 91.59 under "No Global Nodes"; its "All Components" adds virtual nodes.)
func TransductiveSuite(seeds int) []SuiteRun {
	var runs []SuiteRun
	nb := min(seeds, baselineSeeds)
	for _, ds := range []string{"computers", "cs", "cora", "citeseer"} {
		runs = append(runs, seedRuns(ds, ds, VariantExphormer, "", seeds)...)
		for _, v := range []struct{ variant, overrides string }{
			{VariantMPNN, `{"attention":"none"}`},
			{VariantFull, `{"attention":"full"}`},
			{VariantPerformer, `{"attention":"performer"}`},
			{VariantBigBird, `{"attention":"bigbird"}`},
			{VariantNoLocal, `{"local_edges":false}`},
			{VariantNoExpander, `{"expander_edges":false}`},
		} {
			runs = append(runs, seedRuns(ds, ds, v.variant, v.overrides, nb)...)
		}
		if ds == "computers" || ds == "cs" {
			runs = append(runs, seedRuns(ds, ds+"-ref", VariantReference, "", nb)...)
		}
	}
	return runs
}

// inductiveBudget lists the inductive suites' data sets with their reduced budget:
// split sizes (graphs) and epochs, each sized for about 20 minutes on a 2-core CPU with
// the pure-Go backend: they took 21 (PATTERN), 20 (CLUSTER; both sharing the machine with
// another run), 17 (MNIST) and 20 (Peptides-func) minutes.
var inductiveBudget = []struct {
	dataset                  string
	train, val, test, epochs int
}{
	{"pattern", 1000, 250, 250, 8},
	{"cluster", 500, 125, 125, 5},
	{"mnist", 5000, 1000, 1000, 15},
	{"peptides-func", 3000, 500, 500, 25},
}

// InductiveBudgetSuite returns the inductive runs on a CPU budget: PATTERN, CLUSTER,
// MNIST and Peptides-func with their presets (architecture, optimiser, interaction
// graph) but, as overrides, the first graphs of the train/validation/test splits (PATTERN
// 1000/250/250, CLUSTER 500/125/125, MNIST 5000/1000/1000, Peptides-func 3000/500/500)
// and 5–25 epochs without warm-up (the schedule's first warm-up epoch runs at lr·10⁻⁶,
// up to a fifth of such a budget); one seed each.
// Their metrics are therefore not comparable to the paper's full-budget figures;
// InductiveSuite (see InductiveFullBudgetCommand) runs those.
func InductiveBudgetSuite() []SuiteRun {
	var runs []SuiteRun
	for _, b := range inductiveBudget {
		o := fmt.Sprintf(`{"max_train":%d,"max_val":%d,"max_test":%d,"epochs":%d,"warmup_epochs":0}`,
			b.train, b.val, b.test, b.epochs)
		runs = append(runs, seedRuns(b.dataset, b.dataset, VariantExphormer, o, 1)...)
	}
	return runs
}

// InductiveSuite returns the inductive runs at the paper's budget: PATTERN, CLUSTER,
// MNIST and Peptides-func with their presets unchanged and seeds 1..seeds.
func InductiveSuite(seeds int) []SuiteRun {
	var runs []SuiteRun
	for _, b := range inductiveBudget {
		runs = append(runs, seedRuns(b.dataset, b.dataset, VariantExphormer, "", seeds)...)
	}
	return runs
}

// LargeSuite returns the runs of SuiteLarge, all with the large preset (docs/LARGE.md):
// on a planted-partition graph of 10⁵ nodes, where both fit, mini-batch training
// (20 epochs over every training node) against full-batch training (200 epochs of one
// step), seeds 1..min(seeds, 3); then mini-batches alone on 10⁶ and 10⁷ nodes, as the
// preset has it, seed 1. Run each in its own process (-runs NAME) for its own peak
// memory: the largest run's RSS would otherwise cover the smaller ones'.
func LargeSuite(seeds int) []SuiteRun {
	const small = "planted:100000"
	n := min(seeds, baselineSeeds)
	runs := largeRuns("planted-1e5", small, VariantMiniBatch, `{"epochs":20,"max_train":0}`, n)
	runs = append(runs, largeRuns("planted-1e5", small, VariantFullBatch, `{"batch_nodes":0,"epochs":200,"max_train":0}`, n)...)
	runs = append(runs, largeRuns("planted-1e6", "planted:1000000", VariantMiniBatch, "", 1)...)
	return append(runs, largeRuns("planted-1e7", "planted:10000000", VariantMiniBatch, "", 1)...)
}

// largeRuns returns the large-preset runs of one graph and variant with seeds 1..seeds,
// named NAME_VARIANT_sS.
func largeRuns(name, dataset, variant, overrides string, seeds int) []SuiteRun {
	runs := seedRuns(dataset, "large", variant, overrides, seeds)
	for i := range runs {
		runs[i].Name = fmt.Sprintf("%s_%s_s%d", name, variant, runs[i].Seed)
	}
	return runs
}

// InductiveFullBudgetCommand is the command that runs InductiveSuite with the paper's
// four seeds on a CUDA GPU (a gexph binary built with the "xla" build tag; the plugin
// path is the machine's).
const InductiveFullBudgetCommand = "gexph reproduce -suite inductive -seeds 4 -backend xla:/path/to/xla_cuda_plugin.so -out docs/results -results docs/RESULTS.md"

// SuiteNames lists the training suites Suite knows (the scaling suite, SuiteScaling,
// has points rather than training runs: see ScalingPoints).
func SuiteNames() []string {
	return []string{SuiteTransductive, SuiteSearch, SuitePlus, SuiteInductiveBudget, SuiteInductive, SuiteLarge}
}

// Suite returns the runs of the named suite (see SuiteNames) with seeds seeds (ignored
// by SuiteInductiveBudget, which runs one). For SuiteSearch these are the grid runs
// only: RunSearchSuite adds the selected setting's seeds once the grid has finished.
func Suite(name string, seeds int) ([]SuiteRun, error) {
	if seeds < 1 {
		return nil, fmt.Errorf("suite %q: seeds = %d, want ≥ 1", name, seeds)
	}
	switch name {
	case SuiteTransductive:
		return TransductiveSuite(seeds), nil
	case SuiteInductiveBudget:
		return InductiveBudgetSuite(), nil
	case SuiteInductive:
		return InductiveSuite(seeds), nil
	case SuiteSearch:
		return SearchSuite(), nil
	case SuiteLarge:
		return LargeSuite(seeds), nil
	case SuitePlus:
		return PlusSuite(seeds), nil
	}
	if name == SuiteScaling {
		return nil, fmt.Errorf("suite %q measures points, not training runs: see ScalingPoints and RunScalingSuite", name)
	}
	return nil, fmt.Errorf("suite: unknown name %q (choices: %s)", name, quoteList(SuiteNames()))
}

// FilterRuns returns the runs whose names match the regular expression pattern (all of
// them for ""), in their order. A pattern that matches no run is an error, so that a
// typing mistake does not pass for a finished suite.
func FilterRuns(runs []SuiteRun, pattern string) ([]SuiteRun, error) {
	return filterByName(runs, pattern, func(r SuiteRun) string { return r.Name })
}

// FilterScalingPoints is FilterRuns for scaling points (names such as "full_20000").
func FilterScalingPoints(points []ScalingPoint, pattern string) ([]ScalingPoint, error) {
	return filterByName(points, pattern, ScalingPoint.Name)
}

// filterByName keeps the items whose names match pattern ("" keeps all); matching none
// is an error.
func filterByName[T any](items []T, pattern string, name func(T) string) ([]T, error) {
	if pattern == "" {
		return items, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("run filter %q: %w", pattern, err)
	}
	out := selectByName(items, re, name)
	if len(out) == 0 {
		example := ""
		if len(items) > 0 {
			example = fmt.Sprintf(" (names look like %q)", name(items[0]))
		}
		return nil, fmt.Errorf("run filter %q: matches none of the suite's %d runs%s", pattern, len(items), example)
	}
	return out, nil
}

// selectByName keeps the items whose names re matches (all of them for a nil re).
func selectByName[T any](items []T, re *regexp.Regexp, name func(T) string) []T {
	if re == nil {
		return items
	}
	var out []T
	for _, it := range items {
		if re.MatchString(name(it)) {
			out = append(out, it)
		}
	}
	return out
}

// SuiteOptions sets where and how RunSuite executes.
type SuiteOptions struct {
	// OutDir receives runs/<name>.json per finished run, ckpt/<name>/ (the checkpoints
	// that let an interrupted run continue) and results.csv. Required.
	OutDir string
	// Backend is a backend spec for NewBackend ("" is the pure-Go backend).
	Backend string
	// Log receives a line per run and the runs' progress lines; nil is silent.
	Log io.Writer
	// DataDir is the data root for data.Load ("" for its default).
	DataDir string
	// OnRun, if set, is called with a run's name before it trains (not for runs
	// skipped because they are finished).
	OnRun func(name string)
	// CheckpointEvery is each run's gexph.TrainOptions.CheckpointEvery (0: last.ckpt
	// after every epoch).
	CheckpointEvery time.Duration
}

// SuiteRecord is what RunSuite writes to OutDir/runs/<name>.json: the run's identity,
// its Result without History and the process's peak resident memory.
type SuiteRecord struct {
	// Name, Variant and Seed are the SuiteRun's; the Result holds the rest.
	Name    string `json:"name"`
	Variant string `json:"variant"`
	Seed    uint64 `json:"seed"`
	// Spec is the SuiteRun's data set spec.
	Spec string `json:"spec"`
	// PeakRSSMB is VmHWM of /proc/self/status after the run, in MiB: the run's own
	// peak where the kernel lets RunSuite reset it first (Linux), else the process's
	// peak so far; 0 where unavailable.
	PeakRSSMB float64 `json:"peak_rss_mb"`
	// EpochSeconds is the median wall time of the run's epochs (training, validation
	// and, at a new best, test evaluation), without the data loading and the
	// compilation that the total Seconds also holds. 0 for records written before it
	// existed; readers then fall back to Seconds/Epochs.
	EpochSeconds float64 `json:"epoch_seconds,omitempty"`
	// EpochCPUSeconds is the median CPU time (user plus system, all threads) of the
	// run's epochs: about EpochSeconds times the cores in use, so a run that shared the
	// machine with another shows a lower ratio. 0 for records written before it existed.
	EpochCPUSeconds float64 `json:"epoch_cpu_seconds,omitempty"`
	// OutOfMemory tells that the run was refused because it would not fit in memory
	// (ErrOutOfMemory); Note then says why, and the Result is empty.
	OutOfMemory bool   `json:"out_of_memory,omitempty"`
	Note        string `json:"note,omitempty"`
	// Machine is the machine the run trained on (see MachineDescription): its timings
	// are that machine's. Empty for records written before it was kept.
	Machine string `json:"machine,omitempty"`
	gexph.Result
}

// csvHeader is results.csv's header.
var csvHeader = []string{"name", "dataset", "variant", "seed", "params", "epochs", "best_epoch",
	"val_metric", "test_metric", "metric", "seconds", "seconds_per_epoch", "peak_rss_mb"}

// cpuColumn is results.csv's median CPU seconds per epoch (0: not recorded), before
// the status; Summarize reads files without it as unrecorded.
const cpuColumn = "cpu_seconds_per_epoch"

// statusColumn is results.csv's last column: "ok", or "out-of-memory" for a run refused
// by ErrOutOfMemory. Summarize reads files without it as all "ok".
const statusColumn = "status"

// validateRuns checks the runs' names and configurations before anything trains.
func validateRuns(runs []SuiteRun) error {
	seen := map[string]bool{}
	for i, r := range runs {
		if r.Name == "" {
			return fmt.Errorf("suite run %d: empty name", i)
		}
		if strings.IndexFunc(r.Name, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_+.", c))
		}) >= 0 || strings.HasPrefix(r.Name, ".") {
			return fmt.Errorf("suite run %q: the name may hold only letters, digits, '-', '_', '+' and '.' (not first)", r.Name)
		}
		if seen[r.Name] {
			return fmt.Errorf("suite run %q: duplicate name", r.Name)
		}
		seen[r.Name] = true
		if r.Dataset == "" {
			return fmt.Errorf("suite run %q: empty data set", r.Name)
		}
		if _, err := r.config(); err != nil {
			return err
		}
	}
	return nil
}

// RunSuite trains the runs in order and records each: a run whose
// OutDir/runs/<name>.json exists is skipped (so an interrupted suite resumes where it
// stopped, an interrupted run from its last checkpoint); otherwise it trains with
// TrainFromSpec and its SuiteRecord is written atomically. After every run, and at the
// end, OutDir/results.csv is rewritten from all records in OutDir/runs (sorted by
// name). All configurations are validated before the first run trains.
func RunSuite(ctx context.Context, runs []SuiteRun, opts SuiteOptions) error {
	if opts.OutDir == "" {
		return errors.New("suite: empty OutDir")
	}
	if err := validateRuns(runs); err != nil {
		return err
	}
	if err := checkRecords(opts.OutDir, runs); err != nil {
		return err
	}
	machine := MachineDescription()
	runDir := filepath.Join(opts.OutDir, "runs")
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	csvPath := filepath.Join(opts.OutDir, "results.csv")
	for i, r := range runs {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("suite: %w", err)
		}
		path := recordPath(opts.OutDir, r.Name)
		if _, err := os.Stat(path); err == nil {
			logf(opts.Log, "[%d/%d] %s: done (%s)\n", i+1, len(runs), r.Name, path)
			continue
		} else if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("suite: %w", err)
		}
		if opts.OnRun != nil {
			opts.OnRun(r.Name)
		}
		logf(opts.Log, "[%d/%d] %s: %s, preset %s, variant %s, seed %d\n", i+1, len(runs), r.Name, r.Dataset, r.Preset, r.Variant, r.Seed)
		cfg, err := r.config()
		if err != nil {
			return err
		}
		sysinfo.ResetPeakRSS()
		res, err := gexph.TrainFromSpec(ctx, r.Dataset, cfg, gexph.TrainOptions{
			OutDir:  filepath.Join(opts.OutDir, "ckpt", r.Name),
			Backend: opts.Backend,
			Log:     opts.Log,
			Resume:  true,
			Data:    data.LoadOptions{DataDir: opts.DataDir},
			// Each run's last.ckpt at most this often.
			CheckpointEvery: opts.CheckpointEvery,
		})
		var rec SuiteRecord
		switch {
		case errors.Is(err, gexph.ErrOutOfMemory):
			logf(opts.Log, "[%d/%d] %s: %v\n", i+1, len(runs), r.Name, err)
			rec = SuiteRecord{Name: r.Name, Variant: r.Variant, Seed: r.Seed, Spec: r.Dataset, OutOfMemory: true, Note: err.Error(),
				Result: gexph.Result{Dataset: r.Dataset, Preset: cfg.Preset, Metric: cfg.Metric, Config: cfg}}
		case err != nil:
			return fmt.Errorf("suite run %q: %w", r.Name, err)
		default:
			rec = SuiteRecord{Name: r.Name, Variant: r.Variant, Seed: r.Seed, Spec: r.Dataset, PeakRSSMB: sysinfo.PeakRSSMB(),
				EpochSeconds: medianEpochSeconds(res.History), EpochCPUSeconds: medianEpochCPUSeconds(res.History), Result: *res}
		}
		rec.History = nil
		rec.Machine = machine
		if err := jsonfile.Write(path, rec); err != nil {
			return fmt.Errorf("suite: %w", err)
		}
		if err := writeSuiteCSV(runDir, csvPath); err != nil {
			return err
		}
	}
	return writeSuiteCSV(runDir, csvPath)
}

// checkRecords returns an error naming every run whose record in dir was made with
// another configuration than the run has now (see staleRecords): skipping such a run
// as done would publish its record as if it described the run.
func checkRecords(dir string, runs []SuiteRun) error {
	stale, err := staleRecords(dir, runs)
	if err != nil {
		return err
	}
	if len(stale) > 0 {
		return fmt.Errorf("suite: %s in %s made with another configuration than the run has now: %s; delete runs/NAME.json and ckpt/NAME of each to run it again",
			countOf(len(stale), "record", "records"), dir, strings.Join(stale, "; "))
	}
	return nil
}

// staleRecords lists the runs whose record in dir was made with another configuration
// than the run has now (its preset or overrides changed since, in a field that changes
// results: gexph.ResultChanges), each as "name (field: old → new, …)". Runs without a
// record are not listed.
func staleRecords(dir string, runs []SuiteRun) ([]string, error) {
	var stale []string
	for _, r := range runs {
		rec, err := readSuiteRecord(recordPath(dir, r.Name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("suite: %w", err)
		}
		cfg, err := r.config()
		if err != nil {
			return nil, err
		}
		if changes := gexph.ResultChanges(rec.Config, cfg); len(changes) > 0 {
			stale = append(stale, fmt.Sprintf("%s (%s)", r.Name, strings.Join(changes, ", ")))
		}
	}
	return stale, nil
}

// recordPath is the path of run name's record in a suite directory.
func recordPath(dir, name string) string { return filepath.Join(dir, "runs", name+".json") }

// medianEpochSeconds returns the median of the epochs' wall times (0 for none).
func medianEpochSeconds(h []gexph.EpochStats) float64 {
	return medianOf(h, func(st gexph.EpochStats) float64 { return st.Seconds })
}

// medianEpochCPUSeconds returns the median of the epochs' CPU times (0 for none).
func medianEpochCPUSeconds(h []gexph.EpochStats) float64 {
	return medianOf(h, func(st gexph.EpochStats) float64 { return st.CPUSeconds })
}

// medianOf returns the median of f over the epochs (0 for none).
func medianOf(h []gexph.EpochStats, f func(gexph.EpochStats) float64) float64 {
	xs := make([]float64, len(h))
	for i, st := range h {
		xs[i] = f(st)
	}
	return median(xs)
}

// median returns the median of xs (0 for none); xs is not changed.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// logf writes to w unless it is nil.
func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// writeSuiteCSV rewrites csvPath atomically from the records in runDir.
func writeSuiteCSV(runDir, csvPath string) error {
	paths, err := filepath.Glob(filepath.Join(runDir, "*.json"))
	if err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	sort.Strings(paths)
	rows := [][]string{append(slices.Clone(csvHeader), cpuColumn, statusColumn)}
	for _, p := range paths {
		rec, err := readSuiteRecord(p)
		if err != nil {
			return fmt.Errorf("suite: %w", err)
		}
		perEpoch := rec.EpochSeconds
		if perEpoch == 0 && rec.Epochs > 0 {
			perEpoch = rec.Seconds / float64(rec.Epochs)
		}
		f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		rows = append(rows, []string{rec.Name, rec.Spec, rec.Variant, strconv.FormatUint(rec.Seed, 10),
			strconv.Itoa(rec.Params), strconv.Itoa(rec.Epochs), strconv.Itoa(rec.BestEpoch),
			f(rec.ValMetric), f(rec.TestMetric), rec.Metric, f(rec.Seconds), f(perEpoch), f(rec.PeakRSSMB),
			f(rec.EpochCPUSeconds), rec.status()})
	}
	if err := writeCSVFile(csvPath, rows); err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	return nil
}

// status returns the record's status column.
func (rec SuiteRecord) status() string {
	if rec.OutOfMemory {
		return StatusOutOfMemory
	}
	return StatusOK
}

// Statuses of a run or a scaling point (the status column of results.csv and
// scaling.csv).
const (
	StatusOK          = "ok"
	StatusOutOfMemory = "out-of-memory"
	// StatusSkipped marks a scaling point not measured because a smaller graph of the
	// same attention ran out of memory.
	StatusSkipped = "skipped"
)

// quoteList quotes names for error messages: "a", "b".
func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}
