package suite

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/sysinfo"
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
// (key "dataset/variant"): Exphormer's on each of the fifteen data sets of its tables 1,
// 3 and 4, and those of the baselines and ablations the transductive suite runs. Cora
// and CiteSeer are not in the paper.
func PaperFigures() map[string]PaperFigure {
	t4, t1 := "Table 4 (transductive)", "Table 1 (GNN benchmarks)"
	t3, t5 := "Table 3 (LRGB)", "Table 5 (ablations)"
	return map[string]PaperFigure{
		"computers/" + VariantExphormer:  {Mean: 91.59, Std: 0.31, Source: t4},
		"computers/" + VariantNoLocal:    {Mean: 90.34, Std: 0.45, Source: t5},
		"computers/" + VariantNoExpander: {Mean: 91.48, Std: 0.41, Source: t5},
		"cs/" + VariantExphormer:         {Mean: 95.77, Std: 0.15, Source: t4},
		"computers/" + VariantReference:  {Mean: 91.59, Std: 0.31, Source: t4},
		"cs/" + VariantReference:         {Mean: 95.77, Std: 0.15, Source: t4},
		// GraphGPS with full attention, Table 4.
		"computers/" + VariantFull:        {Text: "OOM", Source: t4},
		"cs/" + VariantFull:               {Mean: 93.93, Std: 0.12, Source: t4},
		"photo/" + VariantExphormer:       {Mean: 95.27, Std: 0.42, Source: t4},
		"physics/" + VariantExphormer:     {Mean: 97.16, Std: 0.13, Source: t4},
		"ogbn-arxiv/" + VariantExphormer:  {Mean: 72.44, Std: 0.28, Source: t4},
		"pattern/" + VariantExphormer:     {Mean: 86.74, Std: 0.015, Source: t1},
		"cluster/" + VariantExphormer:     {Mean: 78.07, Std: 0.037, Source: t1},
		"mnist/" + VariantExphormer:       {Mean: 98.55, Std: 0.039, Source: t1},
		"cifar10/" + VariantExphormer:     {Mean: 74.69, Std: 0.125, Source: t1},
		"malnet-tiny/" + VariantExphormer: {Mean: 94.02, Std: 0.209, Source: t1},
		// LRGB, Table 3: F1 (PascalVOC-SP, COCO-SP), AP, MAE (lower is better), MRR.
		"pascalvoc-sp/" + VariantExphormer:    {Mean: 0.3975, Std: 0.0037, Source: t3},
		"coco-sp/" + VariantExphormer:         {Mean: 0.3455, Std: 0.0009, Source: t3},
		"peptides-func/" + VariantExphormer:   {Mean: 0.6527, Std: 0.0043, Source: t3},
		"peptides-struct/" + VariantExphormer: {Mean: 0.2481, Std: 0.0007, Source: t3},
		"pcqm-contact/" + VariantExphormer:    {Mean: 0.3637, Std: 0.0020, Source: t3},
	}
}

// metricScale is the factor from our metric to the paper's units: accuracies are
// reported in percent.
func metricScale(metric string) float64 {
	if metric == gexph.MetricAccuracy || metric == gexph.MetricWeightedAccuracy {
		return 100
	}
	return 1
}

// metricDigits is metricScale with the decimals a report prints the scaled metric with:
// two for percentages, four for fractions (AP) and errors.
func metricDigits(metric string) (scale float64, digits int) {
	scale = metricScale(metric)
	if scale == 1 {
		return scale, 4
	}
	return scale, 2
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

// MachineDescription describes this machine as suite records name it: sysinfo.Machine,
// e.g. "linux/amd64, 2 CPUs, AMD EPYC, AVX2" (the OS/architecture, the CPU count, the CPU
// model and the vector instructions of the go backend's kernels).
func MachineDescription() string { return sysinfo.Machine() }

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
			"The reference variant is the data set's *-ref preset, the paper's code's config and training loop exactly (docs/REFERENCE.md); it reads the graph as that code does, every node and every edge twice, so its random split differs from the other variants' at the same seed.",
			"There is no separate \"no global nodes\" ablation: the transductive presets have no virtual nodes, so it is the full model (the paper's Table 5 lists Computers' 91.59 under \"No Global Nodes\").",
			"The paper does not report Cora or CiteSeer.",
			"Node features are read as PyTorch Geometric, on which the paper's code runs, reads the gnn-benchmark files: made binary. Only Coauthor CS stores keyword counts; with the counts, CS seed 1 reached 93.59 % test accuracy instead of 94.27 %.",
		}
	case SuiteLarge:
		return []string{
			"Every run uses the large preset: GCN + Exphormer (expander degree 6, uncertified), 2 layers of width 32, batches of 1024 seed nodes with 5 local and 2 expander edges per node and layer, evaluated by exact layer-wise inference (docs/LARGE.md).",
			"The full-batch runs train the same model on the whole 10⁵-node graph, one step per epoch for 200 epochs; the mini-batch runs take 20 epochs over the same training nodes (59 steps each; 5 epochs were short of it: on 2·10⁴ nodes validation accuracy 80.4 % after 5 epochs, 83.4 % after 20, 81.9 % full-batch). On 10⁶ and 10⁷ nodes an epoch is 196 batches of training nodes drawn from the first 200,000 (max_train).",
			"Peak memory is each run's own only when it ran in its own process (`-runs NAME`), as these did.",
		}
	case SuiteInductiveBudget:
		var budgets []string
		for _, b := range inductiveBudget {
			budgets = append(budgets, fmt.Sprintf("%s %d/%d/%d graphs, %d epochs", b.dataset, b.train, b.val, b.test, b.epochs))
		}
		return []string{
			"Smoke tests: each preset's model trained on the first graphs of each split for a few epochs without warm-up (train/validation/test graphs, epochs): " + strings.Join(budgets, "; ") + ". They show that each data set trains end to end on a 2-core CPU; their figures are no results, and the paper's full-budget figures are not set beside them (the sections \"Full training sets\" and \"Equal budget\" hold the comparisons).",
			"Full budget, on a GPU: `" + InductiveFullBudgetCommand + "`.",
		}
	}
	return nil
}

// text is the figure as the report prints it: its Text, else "mean ± std".
func (f PaperFigure) text() string {
	if f.Text != "" {
		return f.Text
	}
	return fmt.Sprintf("%s ± %s", strconv.FormatFloat(f.Mean, 'f', -1, 64), strconv.FormatFloat(f.Std, 'f', -1, 64))
}

// WriteResultsMarkdown writes a suite's results section: the metadata, then one table row per
// summary row with our mean ± std (in the paper's units), the paper's figure where it
// reports one, the parameter count, seconds per epoch and peak memory, then the notes.
// The reduced-budget suite's table has no paper column: its figures are smoke tests,
// not to be set beside the paper's full-budget ones.
func WriteResultsMarkdown(w io.Writer, rows []SummaryRow, meta ResultsMeta) error {
	bw := bufio.NewWriter(w)
	writeMetaLines(bw, meta)
	withPaper := meta.Suite != SuiteInductiveBudget
	// row writes a table row of cells, the paper's (the sixth) left out without its column.
	row := func(cells ...string) {
		if !withPaper {
			cells = slices.Delete(cells, 5, 6)
		}
		fmt.Fprintf(bw, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintln(bw, "Metrics are test metrics at the best validation epoch, mean ± std over seeds (accuracies in percent).")
	fmt.Fprintln(bw)
	row("Data set", "Variant", "Metric", "Seeds", "Ours", "Paper", "Params", "s/epoch", "CPU s/epoch", "Peak RSS (MiB)")
	align := []string{"---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"}
	if !withPaper {
		align = slices.Delete(align, 5, 6)
	}
	fmt.Fprintf(bw, "|%s|\n", strings.Join(align, "|"))
	paper := PaperFigures()
	for _, r := range rows {
		scale, digits := metricDigits(r.Metric)
		p := "—"
		if fig, ok := paper[r.Dataset+"/"+r.Variant]; ok {
			p = fig.text()
		}
		if r.Runs == 0 {
			row(r.Dataset, r.Variant, r.Metric, strconv.Itoa(r.OutOfMemory), "OOM", p, "—", "—", "—", "—")
			continue
		}
		cpu := "—"
		if r.CPUSecondsPerEpoch > 0 {
			cpu = fmt.Sprintf("%.3g", r.CPUSecondsPerEpoch)
		}
		row(r.Dataset, r.Variant, r.Metric, strconv.Itoa(r.Runs), formatMeanStd(r.TestMean*scale, r.TestStd*scale, r.Runs, digits), p,
			strconv.Itoa(r.Params), fmt.Sprintf("%.3g", r.SecondsPerEpoch), cpu, fmt.Sprintf("%.0f", r.PeakRSSMB))
	}
	if len(meta.Notes) > 0 {
		fmt.Fprintln(bw)
		for _, n := range meta.Notes {
			fmt.Fprintf(bw, "- %s\n", n)
		}
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, "Peak RSS is the run's peak resident memory (VmHWM, reset before each run where the kernel allows). The gexph command runs with GOGC=400 under a soft limit of three quarters of the machine's memory (gexph.SetupRuntime; the large suite at GOGC=100, gexph.SetupMiniBatchRuntime), so these peaks include the collector's slack and overstate what a model needs; the scaling section measures memory with Go's default collector. s/epoch is the median epoch (training step, then validation and test inference), averaged over seeds; CPU s/epoch is the process's CPU time (user plus system, all threads) over the same epoch: a run alone on this 2-core machine keeps both cores busy for much of the epoch, while a run that shared the machine with another shows CPU s/epoch close to, or below, its s/epoch, and a longer s/epoch (— : recorded before CPU time was). OOM: refused because full attention's [heads, n, n] tensors alone would need more than three quarters of the machine's memory (see gexph.DenseAttentionBytes); the Seeds column then counts the refused runs.")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("results markdown: %w", err)
	}
	return nil
}
