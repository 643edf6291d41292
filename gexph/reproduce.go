package gexph

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/layers"
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
func (r SuiteRun) config() (Config, error) {
	cfg, err := Preset(r.Preset)
	if err != nil {
		return Config{}, fmt.Errorf("suite run %q: %w", r.Name, err)
	}
	if r.Overrides != "" {
		if cfg, err = ParseConfig(cfg, r.Overrides); err != nil {
			return Config{}, fmt.Errorf("suite run %q: overrides %s: %w", r.Name, r.Overrides, err)
		}
	}
	cfg.Seed = r.Seed
	if err := cfg.Validate(); err != nil {
		return Config{}, fmt.Errorf("suite run %q: %w", r.Name, err)
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
// with full attention, with Performer and with BigBird — and the ablations of Table 5
// without local edges and without expander edges.
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

// InductiveFullBudgetCommand is the command that runs InductiveSuite with the paper's
// four seeds on a CUDA GPU (a gexph binary built with the "xla" build tag; the plugin
// path is the machine's).
const InductiveFullBudgetCommand = "gexph reproduce -suite inductive -seeds 4 -backend xla:/path/to/xla_cuda_plugin.so -out docs/results -results docs/RESULTS.md"

// SuiteNames lists the training suites Suite knows (the scaling suite, SuiteScaling,
// has points rather than training runs: see ScalingPoints).
func SuiteNames() []string {
	return []string{SuiteTransductive, SuiteSearch, SuiteInductiveBudget, SuiteInductive}
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
	Result
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
		layers.ResetPeakRSS()
		res, err := TrainFromSpec(ctx, r.Dataset, cfg, TrainOptions{
			OutDir:  filepath.Join(opts.OutDir, "ckpt", r.Name),
			Backend: opts.Backend,
			Log:     opts.Log,
			Resume:  true,
			Data:    data.LoadOptions{DataDir: opts.DataDir},
		})
		var rec SuiteRecord
		switch {
		case errors.Is(err, ErrOutOfMemory):
			logf(opts.Log, "[%d/%d] %s: %v\n", i+1, len(runs), r.Name, err)
			rec = SuiteRecord{Name: r.Name, Variant: r.Variant, Seed: r.Seed, Spec: r.Dataset, OutOfMemory: true, Note: err.Error(),
				Result: Result{Dataset: r.Dataset, Preset: cfg.Preset, Metric: cfg.Metric, Config: cfg}}
		case err != nil:
			return fmt.Errorf("suite run %q: %w", r.Name, err)
		default:
			rec = SuiteRecord{Name: r.Name, Variant: r.Variant, Seed: r.Seed, Spec: r.Dataset, PeakRSSMB: layers.PeakRSSMB(),
				EpochSeconds: medianEpochSeconds(res.History), EpochCPUSeconds: medianEpochCPUSeconds(res.History), Result: *res}
		}
		rec.History = nil
		rec.Machine = machine
		if err := writeJSONFile(path, rec); err != nil {
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
// than the run has now (its preset or overrides changed since), each as
// "name (field: old → new, …)". Runs without a record are not listed.
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
		if changes := configChanges(rec.Config, cfg); len(changes) > 0 {
			stale = append(stale, fmt.Sprintf("%s (%s)", r.Name, strings.Join(changes, ", ")))
		}
	}
	return stale, nil
}

// recordPath is the path of run name's record in a suite directory.
func recordPath(dir, name string) string { return filepath.Join(dir, "runs", name+".json") }

// medianEpochSeconds returns the median of the epochs' wall times (0 for none).
func medianEpochSeconds(h []EpochStats) float64 {
	return medianOf(h, func(st EpochStats) float64 { return st.Seconds })
}

// medianEpochCPUSeconds returns the median of the epochs' CPU times (0 for none).
func medianEpochCPUSeconds(h []EpochStats) float64 {
	return medianOf(h, func(st EpochStats) float64 { return st.CPUSeconds })
}

// medianOf returns the median of f over the epochs (0 for none).
func medianOf(h []EpochStats, f func(EpochStats) float64) float64 {
	if len(h) == 0 {
		return 0
	}
	secs := make([]float64, len(h))
	for i, st := range h {
		secs[i] = f(st)
	}
	sort.Float64s(secs)
	if len(secs)%2 == 1 {
		return secs[len(secs)/2]
	}
	return (secs[len(secs)/2-1] + secs[len(secs)/2]) / 2
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

// SummaryRow aggregates the runs of one data set and variant over their seeds.
type SummaryRow struct {
	// Dataset, Variant and Metric identify the group.
	Dataset, Variant, Metric string
	// Runs is the number of runs (seeds).
	Runs int
	// TestMean and TestStd are the mean and the standard deviation (population, ddof 0,
	// as GraphGPS aggregates seeds) of the test metric; ValMean the validation's mean.
	TestMean, TestStd, ValMean float64
	// Params is the runs' parameter count (their mean, rounded, if they differ).
	Params int
	// SecondsPerEpoch is the mean wall time per epoch.
	SecondsPerEpoch float64
	// CPUSecondsPerEpoch is the mean CPU time per epoch of the runs that recorded it
	// (0 if none did).
	CPUSecondsPerEpoch float64
	// PeakRSSMB is the largest peak RSS recorded (see SuiteRecord.PeakRSSMB).
	PeakRSSMB float64
	// OutOfMemory counts the runs refused as out of memory (not in Runs or the means).
	OutOfMemory int
	// TestBySeed is each run's test metric by seed: runs of two variants with the same
	// seed share their split, so TransductiveTargets compares variants on them.
	TestBySeed map[int]float64
}

// Summarize reads a results.csv written by RunSuite and groups its rows by data set and
// variant, in the order of first appearance.
func Summarize(csvPath string) ([]SummaryRow, error) {
	records, err := readCSVFile(csvPath)
	if err != nil {
		return nil, fmt.Errorf("summarize: %w", err)
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("summarize: %s: empty file, want the header %q", csvPath, strings.Join(csvHeader, ","))
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[h] = i
	}
	for _, h := range csvHeader {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("summarize: %s: missing column %q", csvPath, h)
		}
	}
	type group struct {
		row                 SummaryRow
		valSum, params, spe float64
		cpuSum              float64
		cpuRuns             int
	}
	var order []string
	groups := map[string]*group{}
	statusCol, hasStatus := col[statusColumn]
	cpuCol, hasCPU := col[cpuColumn]
	for line, rec := range records[1:] {
		if hasStatus && rec[statusCol] == StatusOutOfMemory {
			ds, variant := rec[col["dataset"]], rec[col["variant"]]
			key := ds + "\x00" + variant
			g, ok := groups[key]
			if !ok {
				g = &group{row: SummaryRow{Dataset: ds, Variant: variant, Metric: rec[col["metric"]]}}
				groups[key] = g
				order = append(order, key)
			}
			g.row.OutOfMemory++
			continue
		} else if hasStatus && rec[statusCol] != StatusOK {
			return nil, fmt.Errorf("summarize: %s line %d: status = %q, want %q or %q", csvPath, line+2, rec[statusCol], StatusOK, StatusOutOfMemory)
		}
		num := func(name string) (float64, error) {
			s := rec[col[name]]
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("summarize: %s line %d: %s = %q, want a finite number", csvPath, line+2, name, s)
			}
			return v, nil
		}
		var vals [5]float64
		for i, name := range []string{"test_metric", "val_metric", "params", "seconds_per_epoch", "peak_rss_mb"} {
			if vals[i], err = num(name); err != nil {
				return nil, err
			}
		}
		ds, variant, metric := rec[col["dataset"]], rec[col["variant"]], rec[col["metric"]]
		seed, err := strconv.Atoi(rec[col["seed"]])
		if err != nil {
			return nil, fmt.Errorf("summarize: %s line %d: seed = %q, want an integer", csvPath, line+2, rec[col["seed"]])
		}
		key := ds + "\x00" + variant
		g, ok := groups[key]
		if !ok {
			g = &group{row: SummaryRow{Dataset: ds, Variant: variant, Metric: metric}}
			groups[key] = g
			order = append(order, key)
		} else if g.row.Metric != metric {
			return nil, fmt.Errorf("summarize: %s line %d: metric %q, but earlier rows of %s/%s have %q", csvPath, line+2, metric, ds, variant, g.row.Metric)
		}
		if g.row.TestBySeed == nil {
			g.row.TestBySeed = map[int]float64{}
		}
		if _, dup := g.row.TestBySeed[seed]; dup {
			return nil, fmt.Errorf("summarize: %s line %d: a second run of %s/%s with seed %d", csvPath, line+2, ds, variant, seed)
		}
		g.row.TestBySeed[seed] = vals[0]
		g.valSum += vals[1]
		g.params += vals[2]
		g.spe += vals[3]
		g.row.PeakRSSMB = math.Max(g.row.PeakRSSMB, vals[4])
		if hasCPU {
			cpu, err := strconv.ParseFloat(rec[cpuCol], 64)
			if err != nil || !(cpu >= 0) || math.IsInf(cpu, 0) {
				return nil, fmt.Errorf("summarize: %s line %d: %s = %q, want a number ≥ 0", csvPath, line+2, cpuColumn, rec[cpuCol])
			}
			if cpu > 0 {
				g.cpuSum += cpu
				g.cpuRuns++
			}
		}
	}
	out := make([]SummaryRow, 0, len(order))
	for _, key := range order {
		g := groups[key]
		r := g.row
		r.Runs = len(r.TestBySeed)
		if r.Runs == 0 {
			out = append(out, r)
			continue
		}
		n := float64(r.Runs)
		test := make([]float64, 0, r.Runs)
		for _, s := range slices.Sorted(maps.Keys(r.TestBySeed)) {
			test = append(test, r.TestBySeed[s])
		}
		r.TestMean, r.TestStd = meanStd(test)
		r.ValMean = g.valSum / n
		r.Params = int(math.Round(g.params / n))
		r.SecondsPerEpoch = g.spe / n
		if g.cpuRuns > 0 {
			r.CPUSecondsPerEpoch = g.cpuSum / float64(g.cpuRuns)
		}
		out = append(out, r)
	}
	return out, nil
}

// meanStd returns the mean and the population standard deviation of xs (not empty).
func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// PaperFigure is a result the paper reports: mean ± standard deviation in the paper's
// units (percent for accuracies, a fraction for AP), and where it is from.
type PaperFigure struct {
	Mean, Std float64
	// Text, if set, replaces the numbers (e.g. "OOM" where the paper's model ran out of
	// memory).
	Text string
	// Source names the paper's table.
	Source string
}

// PaperFigures returns the paper's figures by data set spec and variant
// (key "dataset/variant"). Cora and CiteSeer are not in the paper.
func PaperFigures() map[string]PaperFigure {
	t4, t1 := "Table 4 (transductive)", "Table 1 (GNN benchmarks)"
	t5 := "Table 5 (ablations)"
	return map[string]PaperFigure{
		"computers/" + VariantExphormer:  {Mean: 91.59, Std: 0.31, Source: t4},
		"computers/" + VariantNoLocal:    {Mean: 90.34, Std: 0.45, Source: t5},
		"computers/" + VariantNoExpander: {Mean: 91.48, Std: 0.41, Source: t5},
		"cs/" + VariantExphormer:         {Mean: 95.77, Std: 0.15, Source: t4},
		// GraphGPS with full attention, Table 4.
		"computers/" + VariantFull:          {Text: "OOM", Source: t4},
		"cs/" + VariantFull:                 {Mean: 93.93, Std: 0.12, Source: t4},
		"pattern/" + VariantExphormer:       {Mean: 86.74, Std: 0.015, Source: t1},
		"cluster/" + VariantExphormer:       {Mean: 78.07, Std: 0.037, Source: t1},
		"mnist/" + VariantExphormer:         {Mean: 98.55, Std: 0.039, Source: t1},
		"peptides-func/" + VariantExphormer: {Mean: 0.6527, Std: 0.0043, Source: "Table 3 (LRGB)"},
	}
}

// metricScale is the factor from our metric to the paper's units: accuracies are
// reported in percent.
func metricScale(metric string) float64 {
	if metric == MetricAccuracy || metric == MetricWeightedAccuracy {
		return 100
	}
	return 1
}

// ResultsMeta describes how results were produced, for WriteResultsMarkdown.
type ResultsMeta struct {
	// Suite is the suite's name and Command the exact command line that ran it.
	Suite   string `json:"suite"`
	Command string `json:"command"`
	// Seeds is the number of seeds the command asked for (0: unknown, taken as 5).
	Seeds int `json:"seeds,omitempty"`
	// Backend is the backend spec ("" for the pure-Go backend).
	Backend string `json:"backend"`
	// Machine describes the machine (see MachineDescription).
	Machine string `json:"machine"`
	// Date is when the suite last ran.
	Date time.Time `json:"date"`
	// Notes are extra paragraphs (e.g. that a budget is reduced).
	Notes []string `json:"notes,omitempty"`
}

// MachineDescription returns the OS/architecture, the CPU count and the CPU model
// (from /proc/cpuinfo where readable).
func MachineDescription() string {
	s := fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return s + ", " + strings.TrimSpace(v)
			}
		}
	}
	return s
}

// RecordedMachines describes the machines the records of the suite directory dir were
// made on (see SuiteRecord.Machine), for ResultsMeta.Machine: the machine alone when all
// runs share one, else each machine with its number of runs, most runs first, and last
// the runs whose record does not say. Without records it describes this machine.
func RecordedMachines(dir string) (string, error) {
	paths, err := filepath.Glob(recordPath(dir, "*"))
	if err != nil {
		return "", fmt.Errorf("recorded machines: %w", err)
	}
	counts := map[string]int{}
	for _, p := range paths {
		rec, err := readSuiteRecord(p)
		if err != nil {
			return "", fmt.Errorf("recorded machines: %w", err)
		}
		counts[rec.Machine]++
	}
	machines := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		if (a == "") != (b == "") { // the unrecorded last
			return strings.Compare(b, a)
		}
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	switch {
	case len(machines) == 0:
		return MachineDescription(), nil
	case len(machines) == 1 && machines[0] != "":
		return machines[0], nil
	}
	parts := make([]string, len(machines))
	for i, m := range machines {
		name := m
		if name == "" {
			name = "not recorded"
		}
		parts[i] = fmt.Sprintf("%s (%s)", name, countOf(counts[m], "run", "runs"))
	}
	return strings.Join(parts, "; "), nil
}

// SuiteNotes returns the notes RESULTS.md should carry for the named suite.
func SuiteNotes(suite string) []string {
	switch suite {
	case SuiteTransductive:
		return []string{
			"Baselines (" + strings.Join([]string{VariantMPNN, VariantFull, VariantPerformer, VariantBigBird}, ", ") +
				") and ablations (" + VariantNoLocal + ", " + VariantNoExpander + ") run on the same seeds, hence the same random splits, as the first Exphormer runs; the MPNN is the preset's GCN.",
			"There is no separate \"no global nodes\" ablation: the transductive presets have no virtual nodes, so it is the full model (the paper's Table 5 lists Computers' 91.59 under \"No Global Nodes\").",
			"The paper does not report Cora or CiteSeer.",
			"Node features are read as PyTorch Geometric, on which the paper's code runs, reads the gnn-benchmark files: made binary. Only Coauthor CS stores keyword counts; with the counts, CS seed 1 reached 93.59 % test accuracy instead of 94.27 %.",
		}
	case SuiteInductiveBudget:
		var budgets []string
		for _, b := range inductiveBudget {
			budgets = append(budgets, fmt.Sprintf("%s %d/%d/%d graphs, %d epochs", b.dataset, b.train, b.val, b.test, b.epochs))
		}
		return []string{
			"Reduced budget (train/validation/test graphs, epochs; no warm-up): " + strings.Join(budgets, "; ") + ". The metrics are therefore not comparable to the paper's figures, which are at the full budget.",
			"Full budget, on a GPU: `" + InductiveFullBudgetCommand + "`.",
		}
	}
	return nil
}

// WriteResultsMarkdown writes a suite's results section: the metadata, then one table row per
// summary row with our mean ± std (in the paper's units), the paper's figure where it
// reports one, the parameter count, seconds per epoch and peak memory, then the notes.
func WriteResultsMarkdown(w io.Writer, rows []SummaryRow, meta ResultsMeta) error {
	bw := bufio.NewWriter(w)
	writeMetaLines(bw, meta)
	fmt.Fprintln(bw, "Metrics are test metrics at the best validation epoch, mean ± std over seeds (accuracies in percent).")
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "| Data set | Variant | Metric | Seeds | Ours | Paper | Params | s/epoch | CPU s/epoch | Peak RSS (MiB) |")
	fmt.Fprintln(bw, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
	paper := PaperFigures()
	for _, r := range rows {
		scale := metricScale(r.Metric)
		digits := 2
		if scale == 1 {
			digits = 4
		}
		p := "—"
		if fig, ok := paper[r.Dataset+"/"+r.Variant]; ok {
			p = fig.Text
			if p == "" {
				p = fmt.Sprintf("%s ± %s", strconv.FormatFloat(fig.Mean, 'f', -1, 64), strconv.FormatFloat(fig.Std, 'f', -1, 64))
			}
		}
		if r.Runs == 0 {
			fmt.Fprintf(bw, "| %s | %s | %s | %d | OOM | %s | — | — | — | — |\n", r.Dataset, r.Variant, r.Metric, r.OutOfMemory, p)
			continue
		}
		cpu := "—"
		if r.CPUSecondsPerEpoch > 0 {
			cpu = fmt.Sprintf("%.3g", r.CPUSecondsPerEpoch)
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %d | %.*f ± %.*f | %s | %d | %.3g | %s | %.0f |\n",
			r.Dataset, r.Variant, r.Metric, r.Runs, digits, r.TestMean*scale, digits, r.TestStd*scale, p,
			r.Params, r.SecondsPerEpoch, cpu, r.PeakRSSMB)
	}
	if len(meta.Notes) > 0 {
		fmt.Fprintln(bw)
		for _, n := range meta.Notes {
			fmt.Fprintf(bw, "- %s\n", n)
		}
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "Peak RSS is the run's peak resident memory (VmHWM, reset before each run where the kernel allows). The gexph command runs with GOGC=400 under a soft limit of half the machine's memory (layers.TuneGC), so these peaks include the collector's slack and overstate what a model needs; the scaling section measures memory with Go's default collector. s/epoch is the median epoch (training step, then validation and test inference), averaged over seeds; CPU s/epoch is the process's CPU time (user plus system, all threads) over the same epoch: a run alone on this 2-core machine keeps both cores busy for much of the epoch, while a run that shared the machine with another shows CPU s/epoch close to, or below, its s/epoch, and a longer s/epoch (— : recorded before CPU time was). OOM: refused because full attention's [heads, n, n] tensors alone would need more than three quarters of the machine's memory (see gexph.DenseAttentionBytes); the Seeds column then counts the refused runs.")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("results markdown: %w", err)
	}
	return nil
}
