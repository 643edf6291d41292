package suite

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/plots"
)

// FullBudgetDir is the folder under a results root that holds the runs on full training
// sets: NAME/log.jsonl, a copy of the run's log (a header, then one line per finished
// epoch; a run still going is copied as far as it got), NAME being the data set's name
// for its first run and another (e.g. pattern-s2) for other seeds. The run's best.ckpt is
// kept as checkpoints/NAME-full.ckpt under the same root.
const FullBudgetDir = "full"

// fullRun is what the report reads of one full-budget run's log.
type fullRun struct {
	header gexph.LogHeader
	epochs []gexph.EpochStats
}

// readFullRun reads a run's log.jsonl: the header line, then the epoch lines.
func readFullRun(path string) (fullRun, error) {
	var r fullRun
	f, err := os.Open(path)
	if err != nil {
		return r, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if line == 1 {
			if err := json.Unmarshal(sc.Bytes(), &r.header); err != nil {
				return r, fmt.Errorf("%s: line 1 (the header): %w", path, err)
			}
			continue
		}
		var st gexph.EpochStats
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			return r, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		r.epochs = append(r.epochs, st)
	}
	if err := sc.Err(); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	if r.header.Dataset == "" {
		return r, fmt.Errorf("%s: no header line", path)
	}
	return r, nil
}

// best returns the epoch with the best validation metric (the last one marked best).
func (r fullRun) best() (gexph.EpochStats, bool) {
	var b gexph.EpochStats
	found := false
	for _, st := range r.epochs {
		if st.Best {
			b, found = st, true
		}
	}
	return b, found
}

// writeFullBudgetSection writes the section of the full-training-set runs from the logs
// under root/FullBudgetDir, with links relative to the report's folder from; it writes
// nothing when there are none. Other seeds of a data set's run sit in folders of other
// names (e.g. pattern-s2); once two or more runs of one data set, preset and budget have
// finished every planned epoch, a last row gives their mean.
func writeFullBudgetSection(w io.Writer, root, from string) error {
	runs, err := readFullRuns(root)
	if err != nil {
		return err
	}
	var rows, figures []string
	figs := figureLinker{dir: filepath.Join(root, "figures"), from: from}
	for start := 0; start < len(runs); {
		end := start + 1
		for end < len(runs) && runs[end].run.header.Dataset == runs[start].run.header.Dataset &&
			runs[end].run.header.Preset == runs[start].run.header.Preset {
			end++
		}
		for _, l := range runs[start:end] {
			row, err := fullBudgetRow(root, from, l.path, l.run)
			if err != nil {
				return fmt.Errorf("full budget: %w", err)
			}
			if row != "" {
				rows = append(rows, row)
			}
		}
		rows = append(rows, fullBudgetMeanRows(runs[start:end])...)
		link, err := fullBudgetFigure(&figs, runs[start:end])
		if err != nil {
			return fmt.Errorf("full budget: %w", err)
		}
		if link != "" {
			figures = append(figures, link)
		}
		start = end
	}
	writeTableSection(w, "Full training sets", "One row per run: a seed on the data set's whole training split, at the paper's budget (epochs as the preset says), on 2 cores of this project's CPUs (the go backend); the s/epoch column names the backend and the CPU where the run's log recorded them, and for a run resumed on other backends or CPUs each of them with the epochs that ran there (the same code runs at different speeds on CPUs of one model name, with AVX-512 or AVX2 kernels, and on one machine from day to day), each with the median of its epochs after the first, which compiles, in wall seconds and in the process's CPU seconds (wall seconds also count the time a run shared the machine or was paused for a timing; CPU seconds do not) (a run continues on any backend with `-resume`; docs/GPU.md, \"Continuing a run on a GPU\"); a run that is still going (`gexph train … -out DIR -resume` continues it) shows the epochs it has finished. Test metric at the best validation epoch so far. A generated data set (PATTERN, CLUSTER) is drawn from the run's seed, so its seeds differ in their graphs too. Where two or more seeds of one preset have finished, a row after the runs gives their mean ± standard deviation. These rows are not a reduced budget (the smoke tests of the last section are); the paper's figure is its mean ± std over its seeds. Each row's checkpoint re-derives its figures: `gexph eval -ckpt CHECKPOINT -split test`; a checkpoint with float16 weights (`gexph export -half`, for models over the repository's 1 MB file limit) re-derives the figures in parentheses beside it, its rounded model's own.",
		"| Data set | Preset | Seed | Epochs | Best epoch | Validation | Test | Paper | s/epoch | Checkpoint |",
		"|---|---|---:|---|---:|---:|---:|---:|---:|---|", rows)
	if len(rows) > 0 && len(figures) > 0 {
		fmt.Fprintln(w, "\nEach preset's runs by epoch: the validation metric of each seed, and the paper's test figure as a dashed line (a run still going ends at its last finished epoch).")
		for _, link := range figures {
			fmt.Fprintf(w, "\n%s\n", link)
		}
	}
	return nil
}

// metricLabel names a metric in words: "weighted accuracy", "AP", "MAE".
func metricLabel(metric string) string {
	switch metric {
	case gexph.MetricAP, gexph.MetricMAE:
		return strings.ToUpper(metric)
	}
	return strings.ReplaceAll(metric, "-", " ")
}

// fullBudgetFigure draws the validation metric of one data set's runs of one preset
// (ordered by seed) against the epoch, a line a seed, in the paper's units, with the
// paper's figure as a reference line, and saves it as full_FOLDER.png, FOLDER the first
// run's folder; "" when no run has finished an epoch.
func fullBudgetFigure(figs *figureLinker, group []loggedRun) (string, error) {
	hdr := group[0].run.header
	scale := metricScale(hdr.Metric)
	var series []plots.RunSeries
	for _, l := range group {
		records := make([]map[string]float64, len(l.run.epochs))
		for i, st := range l.run.epochs {
			records[i] = map[string]float64{"epoch": float64(st.Epoch), "val_metric": st.ValMetric * scale}
		}
		if len(records) > 0 {
			series = append(series, plots.RunSeries{Label: fmt.Sprintf("seed %d", l.run.header.Seed), Runs: [][]map[string]float64{records}, Planned: l.run.header.Config.Epochs})
		}
	}
	if len(series) == 0 {
		return "", nil
	}
	var refs []plots.Limit
	if fig, ok := PaperFigures()[hdr.Dataset+"/"+VariantExphormer]; ok && fig.Text == "" {
		refs = append(refs, plots.Limit{Label: "the paper's test figure, " + fig.text(), Y: fig.Mean})
	}
	yLabel := "validation " + metricLabel(hdr.Metric)
	if scale == 100 {
		yLabel += " (%)"
	}
	title := fmt.Sprintf("%s, %s: validation by epoch (%d planned)", hdr.Dataset, hdr.Preset, hdr.Config.Epochs)
	p, err := plots.RunCurves(series, "val_metric", title, yLabel, refs...)
	if err != nil {
		return "", fmt.Errorf("%s: %w", group[0].path, err)
	}
	folder := filepath.Base(filepath.Dir(group[0].path))
	return figs.save(p, "full_"+folder+".png", hdr.Dataset+" by epoch", 9, 4)
}

// loggedRun is a full-budget run's log and its path.
type loggedRun struct {
	path string
	run  fullRun
}

// readFullRuns reads the logs under root/FullBudgetDir, ordered by data set, preset and
// seed.
func readFullRuns(root string) ([]loggedRun, error) {
	logs, err := filepath.Glob(filepath.Join(root, FullBudgetDir, "*", "log.jsonl"))
	if err != nil {
		return nil, err
	}
	runs := make([]loggedRun, len(logs))
	for i, p := range logs {
		r, err := readFullRun(p)
		if err != nil {
			return nil, fmt.Errorf("full budget: %w", err)
		}
		runs[i] = loggedRun{p, r}
	}
	slices.SortStableFunc(runs, func(x, y loggedRun) int {
		a, b := x.run.header, y.run.header
		return cmp.Or(cmp.Compare(a.Dataset, b.Dataset), cmp.Compare(a.Preset, b.Preset), cmp.Compare(a.Seed, b.Seed))
	})
	return runs, nil
}

// fullBudgetMeanRows are the rows of the means over the runs of one data set and
// preset (ordered by seed) that finished every planned epoch, one for each budget that
// two or more of them have.
func fullBudgetMeanRows(runs []loggedRun) []string {
	budgets, finished := finishedByBudget(runs)
	var rows []string
	for _, planned := range budgets {
		if len(finished[planned]) > 1 {
			rows = append(rows, fullBudgetMeanRow(finished[planned]))
		}
	}
	return rows
}

// finishedByBudget groups the runs that finished every planned epoch (and have a best
// epoch) by their planned epochs, the budgets in order of first appearance.
func finishedByBudget(runs []loggedRun) (budgets []int, finished map[int][]fullRun) {
	finished = map[int][]fullRun{}
	for _, l := range runs {
		r := l.run
		if !r.finished() {
			continue
		}
		planned := r.header.Config.Epochs
		if _, seen := finished[planned]; !seen {
			budgets = append(budgets, planned)
		}
		finished[planned] = append(finished[planned], r)
	}
	return budgets, finished
}

// finished tells whether the run has a best epoch and has run every planned epoch.
func (r fullRun) finished() bool {
	_, ok := r.best()
	return ok && len(r.epochs) >= r.header.Config.Epochs
}

// bestTests returns each run's test metric at its best validation epoch, scaled to the
// paper's units; ok is false when a run has no best epoch or no test metric there.
func bestTests(runs []fullRun) (tests []float64, ok bool) {
	for _, r := range runs {
		b, found := r.best()
		if !found || b.TestMetric == nil {
			return nil, false
		}
		scale, _ := metricDigits(r.header.Metric)
		tests = append(tests, *b.TestMetric*scale)
	}
	return tests, true
}

// fullBudgetMeanRow is the row of the mean ± standard deviation over finished runs of one
// setting, at each run's best validation epoch.
func fullBudgetMeanRow(runs []fullRun) string {
	hdr := runs[0].header
	scale, digits := metricDigits(hdr.Metric)
	seeds := make([]string, len(runs))
	var vals []float64
	for i, r := range runs {
		seeds[i] = fmt.Sprint(r.header.Seed)
		b, _ := r.best()
		vals = append(vals, b.ValMetric*scale)
	}
	val, valStd := meanStd(vals)
	test := "—"
	if tests, ok := bestTests(runs); ok {
		m, s := meanStd(tests)
		test = "**" + formatMeanStd(m, s, len(tests), digits) + "**"
	}
	return fmt.Sprintf("| %s | %s | mean of %s | %d each | — | %s | %s | %s | — | — |", hdr.Dataset, hdr.Preset,
		strings.Join(seeds, ", "), hdr.Config.Epochs, formatMeanStd(val, valStd, len(vals), digits), test, paperText(hdr.Dataset))
}

// paperText is the paper's figure for dataset's Exphormer row, or "—".
func paperText(dataset string) string {
	if fig, ok := PaperFigures()[dataset+"/"+VariantExphormer]; ok {
		return fig.text()
	}
	return "—"
}

// fullBudgetRow is run r's table row ("" when it has no finished epoch yet); its
// checkpoint is checkpoints/FOLDER-full.ckpt for the log at FOLDER/log.jsonl.
func fullBudgetRow(root, from, logPath string, r fullRun) (string, error) {
	b, ok := r.best()
	if !ok {
		return "", nil
	}
	name := filepath.Base(filepath.Dir(logPath))
	scale, digits := metricDigits(r.header.Metric)
	test := "—"
	if b.TestMetric != nil {
		test = fmt.Sprintf("%.*f", digits, *b.TestMetric*scale)
	}
	done, planned := len(r.epochs), r.header.Config.Epochs
	epochs := fmt.Sprintf("%d of %d", done, planned)
	if done < planned {
		epochs += " (in progress)"
	}
	ckpt, err := fullCheckpointCell(root, from, name, scale, digits)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("| %s | %s | %d | %s | %d | %.*f | %s | %s | %s | %s |", r.header.Dataset, r.header.Preset, r.header.Seed,
		epochs, b.Epoch, digits, b.ValMetric*scale, test, paperText(r.header.Dataset), epochSecondsByBackend(r.epochs), ckpt), nil
}

// fullCheckpointCell links checkpoints/NAME-full.ckpt with its float16 note, or is "—"
// when there is none.
func fullCheckpointCell(root, from, name string, scale float64, digits int) (string, error) {
	path := filepath.Join(root, "checkpoints", name+"-full.ckpt")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return "—", nil
	} else if err != nil {
		return "", err
	}
	link, err := relativeLink(from, path)
	if err != nil {
		return "", err
	}
	info, err := gexph.ReadCheckpointInfo(path)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("[%s](%s)", filepath.Base(path), filepath.ToSlash(link)) + halfNote(info.Half, scale, digits), nil
}

// epochSecondsByBackend is the s/epoch cell: the median epoch's seconds (the first
// epoch, which compiles, left out) with the median of the process's CPU seconds where the
// epochs recorded them (wall seconds count the time a run shared the machine or was
// paused; CPU seconds do not), or, for a run resumed on other backends or machines, those
// medians on each (as its epochs name them; "unrecorded" for logs of older versions)
// with the epochs that ran there ("epochs 1, 14–120"), in the order the run first
// reached each. A run on one backend and machine names them without epochs where its
// epochs recorded the machine.
func epochSecondsByBackend(epochs []gexph.EpochStats) string {
	if len(epochs) == 0 {
		return "—"
	}
	type where struct{ backend, machine string }
	var order []where
	groups := map[where][]gexph.EpochStats{}
	timed := map[where][]gexph.EpochStats{} // without the run's first epoch, which compiles
	machines := map[string]bool{}
	for i, st := range epochs {
		w := where{st.Backend, st.Machine}
		if _, ok := groups[w]; !ok {
			order = append(order, w)
		}
		groups[w] = append(groups[w], st)
		if i > 0 {
			timed[w] = append(timed[w], st)
		}
		machines[st.Machine] = true
	}
	medianOver := func(w where) []gexph.EpochStats {
		if len(timed[w]) == 0 {
			return groups[w] // the first epoch alone: its own time
		}
		return timed[w]
	}
	if len(order) <= 1 {
		return oneMachineCell(order[0].backend, order[0].machine, medianOver(order[0]))
	}
	cells := make([]string, len(order))
	for i, w := range order {
		label := orUnrecorded(w.backend)
		if cpu := cpuSecondsNote(medianOver(w)); cpu != "" {
			label = cpu + "; " + label
		}
		if len(machines) > 1 {
			label += "; " + orUnrecorded(cpuOf(w.machine)) + ";"
		} else {
			label += ","
		}
		cells[i] = fmt.Sprintf("%s (%s %s)", epochSeconds(medianEpochSeconds(medianOver(w))), label, epochRanges(groups[w]))
	}
	return strings.Join(cells, "; ")
}

// oneMachineCell is the s/epoch cell of a run whose epochs all ran on one backend and
// machine: the medians, with the backend and the CPU named where the epochs recorded the
// machine ("251 (CPU 238; go; AMD EPYC, AVX-512)"), and the plain medians for older logs.
func oneMachineCell(backend, machine string, epochs []gexph.EpochStats) string {
	if machine == "" {
		return secondsCell(epochs)
	}
	label := orUnrecorded(backend) + "; " + cpuOf(machine)
	if cpu := cpuSecondsNote(epochs); cpu != "" {
		label = cpu + "; " + label
	}
	return fmt.Sprintf("%s (%s)", epochSeconds(medianEpochSeconds(epochs)), label)
}

// secondsCell is the median of the epochs' seconds, with their median CPU seconds in
// parentheses where every epoch recorded them.
func secondsCell(epochs []gexph.EpochStats) string {
	if cpu := cpuSecondsNote(epochs); cpu != "" {
		return fmt.Sprintf("%s (%s)", epochSeconds(medianEpochSeconds(epochs)), cpu)
	}
	return epochSeconds(medianEpochSeconds(epochs))
}

// epochRanges names the epochs, in the order given, with consecutive ones joined:
// "epoch 7", "epochs 2–13", "epochs 1, 14–120".
func epochRanges(epochs []gexph.EpochStats) string {
	var parts []string
	for i := 0; i < len(epochs); {
		j := i
		for j+1 < len(epochs) && epochs[j+1].Epoch == epochs[j].Epoch+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(epochs[i].Epoch))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", epochs[i].Epoch, epochs[j].Epoch))
		}
		i = j + 1
	}
	if len(epochs) == 1 {
		return "epoch " + parts[0]
	}
	return "epochs " + strings.Join(parts, ", ")
}

// cpuSecondsNote is "CPU S", S the median of the epochs' CPU seconds, or "" where an
// epoch recorded none (older logs).
func cpuSecondsNote(epochs []gexph.EpochStats) string {
	for _, st := range epochs {
		if st.CPUSeconds <= 0 {
			return ""
		}
	}
	return "CPU " + epochSeconds(medianEpochCPUSeconds(epochs))
}

// orUnrecorded is s, or "unrecorded" for the empty value of an older log.
func orUnrecorded(s string) string {
	if s == "" {
		return "unrecorded"
	}
	return s
}

// cpuOf is a machine description (sysinfo.Machine) without its leading OS/architecture
// and CPU count: the CPU model and its SIMD kernels ("AMD EPYC, AVX2").
func cpuOf(machine string) string {
	parts := strings.SplitN(machine, ", ", 3)
	if len(parts) == 3 && strings.Contains(parts[0], "/") && strings.HasSuffix(parts[1], " CPUs") {
		return parts[2]
	}
	return machine
}

// epochSeconds formats seconds per epoch: whole seconds from 10 on, tenths below.
func epochSeconds(secs float64) string {
	if secs < 10 {
		return fmt.Sprintf("%.1f", secs)
	}
	return fmt.Sprintf("%.0f", secs)
}

// relativeLink is target's path relative to the folder from, either given relative to
// the working directory or absolute.
func relativeLink(from, target string) (string, error) {
	absFrom, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	absTarget, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	return filepath.Rel(absFrom, absTarget)
}

// halfNote is the note beside a checkpoint with float16 weights: the rounded model's own
// figures (scaled and printed as the row's), or that they were not taken; "" for a
// float32 checkpoint.
func halfNote(h *gexph.HalfPrecision, scale float64, digits int) string {
	switch {
	case h == nil:
		return ""
	case h.Val == nil || h.Test == nil:
		return " (float16 weights, not evaluated: `gexph export -half` evaluates them)"
	}
	return fmt.Sprintf(" (float16 weights: validation %.*f, test %.*f)", digits, *h.Val*scale, digits, *h.Test*scale)
}
