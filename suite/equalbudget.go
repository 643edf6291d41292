package suite

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/jsonfile"
)

// EqualBudgetDir is the folder under a results root that holds the equal-budget
// comparison's records: DATASET/reference-sS.json (tools/pyg/ref_graph_train.py) and
// DATASET/gexph-sS.json, a run's result.json (tools/pyg/equal_budget.sh).
const EqualBudgetDir = "equal-budget"

// referenceRun is a record of tools/pyg/ref_graph_train.py: one training of the paper's
// code on gexph's exported graphs.
type referenceRun struct {
	Dataset         string         `json:"dataset"`
	Graphs          map[string]int `json:"graphs"`
	Seed            int            `json:"seed"`
	Epochs          int            `json:"epochs"`
	Metric          string         `json:"metric"`
	ValMetric       float64        `json:"val_metric"`
	TestMetric      float64        `json:"test_metric"`
	SecondsPerEpoch float64        `json:"seconds_per_epoch"`
	PeakRSSMiB      float64        `json:"peak_rss_mib"`
}

// equalBudgetSide is one stack's runs on one data set.
type equalBudgetSide struct {
	test, secs, rss []float64
}

func (s *equalBudgetSide) add(test, secs, rss float64) {
	s.test, s.secs, s.rss = append(s.test, test), append(s.secs, secs), append(s.rss, rss)
}

// writeEqualBudgetSection writes the section of the equal-budget comparison from the
// records under dir (one folder per data set); it writes nothing when there are none.
func writeEqualBudgetSection(w io.Writer, dir string) error {
	sets, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var rows []string
	for _, d := range sets {
		if !d.IsDir() {
			continue
		}
		row, err := equalBudgetRow(filepath.Join(dir, d.Name()), d.Name())
		if err != nil {
			return err
		}
		if row != "" {
			rows = append(rows, row)
		}
	}
	writeTableSection(w, "Equal budget: gexph against the paper's code", "Both stacks train on the same graphs (`gexph data -export`, read by the reference through `tools/pyg`), with the reference's config and gexph's preset set to the same hyperparameters, for the same epochs, the same seeds on each side (1–3, or more where a row lists more), one run at a time on the same machine (`bash tools/pyg/equal_budget.sh DATASET`; differences between the presets and the reference's configs: [REFERENCE.md](REFERENCE.md#graph-level-data-sets-at-equal-budget)). Test metric at the best validation epoch, each seed; the verdict asks whether gexph's mean lies within the reference's seed range or above it. Seconds per epoch are medians over the seeds; some runs shared the machine with other work, which makes their seconds no timing: REFERENCE.md names them and gives the figures measured alone.",
		"| Data set | Budget | Reference (seeds) | gexph (seeds) | Verdict | s/epoch: reference, gexph | Peak RSS (MiB): reference, gexph |",
		"|---|---|---|---|---|---|---|", rows)
	return nil
}

// writeTableSection writes a report section of a title, an introduction and a table of
// the given header, alignment line and rows; nothing when there are no rows.
func writeTableSection(w io.Writer, title, intro, header, align string, rows []string) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## %s\n\n%s\n\n%s\n%s\n", title, intro, header, align)
	for _, r := range rows {
		fmt.Fprintln(w, r)
	}
}

// equalBudget is one data set's equal-budget records: both stacks' runs and the budget
// they trained on.
type equalBudget struct {
	ref, ours equalBudgetSide
	// budget describes the splits and epochs ("250/60/60 graphs, 5 epochs").
	budget string
}

// complete tells whether both stacks have at least one run.
func (e equalBudget) complete() bool { return len(e.ref.test) > 0 && len(e.ours.test) > 0 }

// readEqualBudget reads the records of one data set's folder dir (none: an empty result).
func readEqualBudget(dir string) (equalBudget, error) {
	var e equalBudget
	refs, err := filepath.Glob(filepath.Join(dir, "reference-s*.json"))
	if err != nil {
		return e, err
	}
	sort.Strings(refs)
	for _, p := range refs {
		var r referenceRun
		if err := jsonfile.Read(p, &r); err != nil {
			return e, fmt.Errorf("equal budget: %w", err)
		}
		e.ref.add(100*r.TestMetric, r.SecondsPerEpoch, r.PeakRSSMiB)
		e.budget = fmt.Sprintf("%d/%d/%d graphs, %d epochs", r.Graphs["train"], r.Graphs["val"], r.Graphs["test"], r.Epochs)
	}
	ourRuns, err := filepath.Glob(filepath.Join(dir, "gexph-s*.json"))
	if err != nil {
		return e, err
	}
	sort.Strings(ourRuns)
	for _, p := range ourRuns {
		var r gexph.Result
		if err := jsonfile.Read(p, &r); err != nil {
			return e, fmt.Errorf("equal budget: %w", err)
		}
		if len(r.History) == 0 {
			return e, fmt.Errorf("equal budget: %s: no epoch history", p)
		}
		// The first epoch compiles: the steady state is the epochs after it.
		e.ours.add(100*r.TestMetric, medianEpochSeconds(r.History[min(1, len(r.History)-1):]), r.PeakRSSMB)
	}
	return e, nil
}

// equalBudgetRow summarises one data set's records as a table row ("" when a side has
// no run yet).
func equalBudgetRow(dir, name string) (string, error) {
	e, err := readEqualBudget(dir)
	if err != nil || !e.complete() {
		return "", err
	}
	ref, ours := e.ref, e.ours
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %.1f, %.1f (%.1f× faster) | %.0f, %.0f |", name, e.budget,
		metricList(ref.test), metricList(ours.test), equalBudgetVerdict(ref.test, ours.test),
		median(ref.secs), median(ours.secs), median(ref.secs)/median(ours.secs), median(ref.rss), median(ours.rss)), nil
}

// verdictWord places gexph's mean test metric against the reference's seeds: "above"
// its range, "within" it or "below" it.
func verdictWord(ref, ours []float64) string {
	m, _ := meanStd(ours)
	switch {
	case m > slices.Max(ref):
		return "above"
	case m >= slices.Min(ref):
		return "within"
	}
	return "below"
}

// equalBudgetVerdict compares gexph's mean test metric with the reference's seeds.
func equalBudgetVerdict(ref, ours []float64) string {
	m, _ := meanStd(ours)
	lo, hi := slices.Min(ref), slices.Max(ref)
	switch verdictWord(ref, ours) {
	case "above":
		return fmt.Sprintf("**above** the reference's range (mean %.2f > %.2f)", m, hi)
	case "within":
		return fmt.Sprintf("**within** the reference's range (mean %.2f in [%.2f, %.2f])", m, lo, hi)
	}
	return fmt.Sprintf("**below** the reference's range by %.2f points (mean %.2f < %.2f)", lo-m, m, lo)
}

// metricList writes the per-seed metrics and their mean.
func metricList(xs []float64) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += strconv.FormatFloat(x, 'f', 2, 64)
	}
	m, _ := meanStd(xs)
	return fmt.Sprintf("%s (mean %.2f)", s, m)
}
