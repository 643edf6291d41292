package suite

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
)

// The report's first section: one line per data set of the paper's tables saying what
// the report holds of it, derived from the same records as the sections below, and why
// it holds no more, with the commands that would add it.

// paperDataset is a data set the paper reports Exphormer on.
type paperDataset struct {
	// name is the data set's name in the registry (data.KnownDatasets).
	name string
	// title is the paper's name for it, table the table that reports it and metric the
	// paper's metric there.
	title, table, metric string
}

// paperDatasets lists the fifteen data sets of the paper's tables of results, in the
// paper's order: Table 1 (GNN benchmarks), Table 3 (LRGB) and Table 4 (transductive).
func paperDatasets() []paperDataset {
	return []paperDataset{
		{"cifar10", "CIFAR10", "1", "accuracy (%)"},
		{"malnet-tiny", "MalNet-Tiny", "1", "accuracy (%)"},
		{"mnist", "MNIST", "1", "accuracy (%)"},
		{"cluster", "CLUSTER", "1", "accuracy (%)"},
		{"pattern", "PATTERN", "1", "accuracy (%)"},
		{"pascalvoc-sp", "PascalVOC-SP", "3", "F1"},
		{"coco-sp", "COCO-SP", "3", "F1"},
		{"peptides-func", "Peptides-Func", "3", "AP"},
		{"peptides-struct", "Peptides-Struct", "3", "MAE, lower is better"},
		{"pcqm-contact", "PCQM-Contact", "3", "MRR"},
		{"ogbn-arxiv", "ogbn-arxiv", "4", "accuracy (%)"},
		{"computers", "Computer", "4", "accuracy (%)"},
		{"photo", "Photo", "4", "accuracy (%)"},
		{"cs", "CS", "4", "accuracy (%)"},
		{"physics", "Physics", "4", "accuracy (%)"},
	}
}

// holdings is what the records under a results root hold of each data set.
type holdings struct {
	// full groups the full-budget runs (root/FullBudgetDir) by data set.
	full map[string][]loggedRun
	// suites holds each suite's summary rows by data set, for the suites with a CSV.
	suites map[string]map[string][]SummaryRow
	// equal holds the equal-budget records by data set.
	equal map[string]equalBudget
}

// notRun is what the table of holdings says of a data set without any record.
const notRun = "not run"

// holdingSuites are the suites whose rows the table of holdings reports.
var holdingSuites = []string{SuiteInductive, SuiteTransductive, SuiteSearch, SuiteInductiveBudget}

// readHoldings reads the records under root that the table of holdings reports.
func readHoldings(root string) (holdings, error) {
	h := holdings{full: map[string][]loggedRun{}, suites: map[string]map[string][]SummaryRow{}, equal: map[string]equalBudget{}}
	runs, err := readFullRuns(root)
	if err != nil {
		return h, err
	}
	for _, l := range runs {
		h.full[l.run.header.Dataset] = append(h.full[l.run.header.Dataset], l)
	}
	for _, s := range holdingSuites {
		csvPath := suiteCSVPath(root, s)
		if _, err := os.Stat(csvPath); errors.Is(err, os.ErrNotExist) {
			continue
		}
		rows, err := Summarize(csvPath)
		if err != nil {
			return h, err
		}
		h.suites[s] = map[string][]SummaryRow{}
		for _, r := range rows {
			h.suites[s][r.Dataset] = append(h.suites[s][r.Dataset], r)
		}
	}
	for _, d := range paperDatasets() {
		e, err := readEqualBudget(filepath.Join(root, EqualBudgetDir, d.name))
		if err != nil {
			return h, err
		}
		if e.complete() {
			h.equal[d.name] = e
		}
	}
	return h, nil
}

// writeHoldingsSection writes the table of holdings: one row per data set of the paper's
// tables with the paper's Exphormer figure, what the records under root hold of it, and
// why they hold no run at the paper's budget, the data looked for under dataRoots.
func writeHoldingsSection(w io.Writer, root string, dataRoots []string) error {
	h, err := readHoldings(root)
	if err != nil {
		return fmt.Errorf("holdings: %w", err)
	}
	full := filepath.ToSlash(filepath.Join(root, FullBudgetDir))
	fmt.Fprintf(w, "\n## What this report holds\n\n")
	fmt.Fprintf(w, "One line per data set of the paper's tables of results (Tables 1, 3 and 4): the paper's Exphormer figure, what this report holds of the data set, and why it holds no run at the paper's budget. *Full budget* is a run on the whole training split for the preset's epochs (the next section); an *equal-budget verdict* compares gexph with the paper's code on the same graphs and few epochs; a *smoke run* trains on a subset for a few epochs and is no result (the last section). A run trained with `gexph train … -out DIR` enters the report once its `log.jsonl` is copied to `%s/NAME/` (README, \"Reproducing the paper\"). *No data on this machine*: the data set's files were not under the data root (%s) when this report was generated.\n\n",
		full, dataRootsText(dataRoots))
	fmt.Fprintln(w, "| Data set | Table | Paper's Exphormer | This report holds | Why not more |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, d := range paperDatasets() {
		held, atBudget := h.of(d.name)
		why := "—"
		if !atBudget {
			if why, err = whyNotRun(d.name, dataRoots, held != notRun); err != nil {
				return fmt.Errorf("holdings: %s: %w", d.name, err)
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s %s | %s | %s |\n", d.title, d.table, paperText(d.name), d.metric, held, why)
	}
	return nil
}

// dataRootsText names the data roots that exist, relative to the working directory
// where they lie below its parent (../shared/data), so that the report does not carry
// one machine's absolute paths.
func dataRootsText(roots []string) string {
	wd, _ := os.Getwd()
	var names []string
	for _, r := range roots {
		if _, err := os.Stat(r); err != nil {
			continue
		}
		if rel, err := filepath.Rel(wd, r); err == nil && wd != "" && !strings.HasPrefix(rel, "../..") {
			r = rel
		}
		if name := "`" + filepath.ToSlash(r) + "`"; !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "none was found"
	}
	return strings.Join(names, ", ")
}

// of says what the records hold of a data set, and whether any of it is at the paper's
// budget (a full-budget run, finished or not, or a run of the inductive or transductive
// suite).
func (h holdings) of(name string) (held string, atBudget bool) {
	var parts []string
	if runs := h.full[name]; len(runs) > 0 {
		parts = append(parts, fullHolding(runs))
		atBudget = true
	}
	if ex, ok := exphormerRow(h.suites[SuiteInductive][name]); ok {
		parts = append(parts, "full budget (inductive suite): test "+rowFigure(ex))
		atBudget = true
	}
	if rows := h.suites[SuiteTransductive][name]; len(rows) > 0 {
		s := "transductive suite"
		if ex, ok := exphormerRow(rows); ok {
			s += ": Exphormer " + rowFigure(ex)
			atBudget = true
		}
		if others := len(rows) - 1; others > 0 {
			s += fmt.Sprintf(", beside %s", countOf(others, "other variant", "other variants"))
		}
		parts = append(parts, s)
	}
	if len(h.suites[SuiteSearch][name]) > 0 {
		parts = append(parts, "a validation-only search")
	}
	if e, ok := h.equal[name]; ok {
		parts = append(parts, fmt.Sprintf("equal-budget verdict (%s): %s the paper's code's seed range", e.budget, verdictWord(e.ref.test, e.ours.test)))
	}
	if len(h.suites[SuiteInductiveBudget][name]) > 0 {
		parts = append(parts, "a smoke run")
	}
	if len(parts) == 0 {
		return notRun, false
	}
	return strings.Join(parts, "; "), atBudget
}

// exphormerRow is the Exphormer row with runs among rows.
func exphormerRow(rows []SummaryRow) (SummaryRow, bool) {
	for _, r := range rows {
		if r.Variant == VariantExphormer && r.Runs > 0 {
			return r, true
		}
	}
	return SummaryRow{}, false
}

// rowFigure writes a summary row's test metric over its seeds: "92.20 ± 0.54 over 5 seeds".
func rowFigure(r SummaryRow) string {
	scale, digits := metricDigits(r.Metric)
	return formatMeanStd(r.TestMean*scale, r.TestStd*scale, r.Runs, digits) + " over " + seedCount(r.Runs)
}

// fullHolding describes one data set's full-budget runs (ordered by preset and seed):
// per preset, the test metric over the runs that finished each budget, and the runs
// still going with the epochs they have finished.
func fullHolding(runs []loggedRun) string {
	var parts []string
	for start := 0; start < len(runs); {
		end := start + 1
		for end < len(runs) && runs[end].run.header.Preset == runs[start].run.header.Preset {
			end++
		}
		preset := runs[start].run.header.Preset
		budgets, finished := finishedByBudget(runs[start:end])
		for _, planned := range budgets {
			tests, ok := bestTests(finished[planned])
			figure := "finished"
			if ok {
				_, digits := metricDigits(finished[planned][0].header.Metric)
				m, s := meanStd(tests)
				figure = "test " + formatMeanStd(m, s, len(tests), digits)
			}
			parts = append(parts, fmt.Sprintf("full budget: %s over %s (%s, %d epochs)", figure, seedCount(len(finished[planned])), preset, planned))
		}
		for _, l := range runs[start:end] {
			if r := l.run; !r.finished() {
				parts = append(parts, fmt.Sprintf("full budget: seed %d running (%s), %d of %d epochs done%s", r.header.Seed, preset, len(r.epochs), r.header.Config.Epochs, soFar(r)))
			}
		}
		start = end
	}
	return strings.Join(parts, "; ")
}

// soFar is ", test T so far, at its best validation epoch (E)" for a run still going whose best
// validation epoch has a test figure, in the paper's units; "" otherwise.
func soFar(r fullRun) string {
	b, ok := r.best()
	if !ok || b.TestMetric == nil {
		return ""
	}
	scale, digits := metricDigits(r.header.Metric)
	return fmt.Sprintf(", test %.*f so far, at its best validation epoch (%d)", digits, *b.TestMetric*scale, b.Epoch)
}

// whyNotRun says why a data set has no run at the paper's budget, with the commands that
// would make one: gexph has no preset for it or cannot read its data, its data is not on
// this machine (then the fetch), or it has not been run at that budget (then the
// training; heldOther tells that the report holds runs of other budgets).
func whyNotRun(name string, dataRoots []string, heldOther bool) (string, error) {
	info, ok := datasetInfo(name)
	if !ok {
		return "", fmt.Errorf("not a data set gexph knows by name (gexph data -list)")
	}
	preset, hasPreset := fullBudgetPreset(name)
	if !hasPreset {
		return fmt.Sprintf("gexph has no preset for it (`gexph data -list`: %s)", info.Description), nil
	}
	train := fmt.Sprintf("`gexph train -dataset %s -preset %s -out runs/%s-full`", name, preset, name)
	notYet := notRun + ": "
	if heldOther {
		notYet = "no run at the paper's budget yet: "
	}
	if len(info.Files) == 0 { // generated, or in a format gexph does not read
		_, err := data.Load(name, data.LoadOptions{TrainGraphs: 1, ValGraphs: 1, TestGraphs: 1, NoCache: true})
		if errors.Is(err, data.ErrUnsupportedFormat) {
			return fmt.Sprintf("gexph does not read its only distribution (pickled PyTorch objects): `gexph data -dataset %s` says how to convert it, then `gexph train -dataset edgelist:DIR -preset %s -out runs/%s-full`", name, preset, name), nil
		}
		if err != nil {
			return "", err
		}
		return notYet + train, nil
	}
	if dataPresent(info, dataRoots) {
		return notYet + train, nil
	}
	return "no data on this machine: " + fetchCommand(info) + ", then " + train, nil
}

// datasetInfo is the registry's entry of the named data set.
func datasetInfo(name string) (data.DatasetInfo, bool) {
	for _, d := range data.KnownDatasets() {
		if d.Name == name {
			return d, true
		}
	}
	return data.DatasetInfo{}, false
}

// fullBudgetPreset is the preset a full-budget run of the data set trains with: NAME-ref,
// the paper's code's settings, where there is one, else NAME; ok is false when neither
// exists.
func fullBudgetPreset(name string) (preset string, ok bool) {
	presets := gexph.PresetNames()
	for _, p := range []string{name + "-ref", name} {
		if slices.Contains(presets, p) {
			return p, true
		}
	}
	return name, false
}

// dataPresent tells whether one of the data set's files is under one of the roots, as
// data.Load looks for them.
func dataPresent(info data.DatasetInfo, roots []string) bool {
	for _, root := range roots {
		for _, f := range info.Files {
			if _, err := os.Stat(filepath.Join(root, f)); err == nil {
				return true
			}
		}
	}
	return false
}

// fetchCommand is the command that downloads the data set's files: with -trust-new when
// gexph pins no checksum of one of them, and a note when one has no download (the fetch's
// error then says how to make it).
func fetchCommand(info data.DatasetInfo) string {
	trust, noURL := false, false
	for _, f := range info.Sources {
		trust = trust || (f.SHA256 == "" && f.URL != "")
		noURL = noURL || f.URL == ""
	}
	cmd := "`gexph data -fetch " + info.Name
	if trust {
		cmd += " -trust-new"
	}
	cmd += "`"
	if noURL {
		cmd += " (a file of it has no download: the fetch's error says how to make it)"
	}
	return cmd
}
