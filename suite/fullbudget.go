package suite

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gexph/gexph/gexph"
)

// FullBudgetDir is the folder under a results root that holds the runs on full training
// sets: DATASET/log.jsonl, a copy of the run's log (a header, then one line per finished
// epoch; a run still going is copied as far as it got). The run's best.ckpt is kept as
// checkpoints/DATASET-full.ckpt under the same root.
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
// nothing when there are none.
func writeFullBudgetSection(w io.Writer, root, from string) error {
	logs, err := filepath.Glob(filepath.Join(root, FullBudgetDir, "*", "log.jsonl"))
	if err != nil {
		return err
	}
	sort.Strings(logs)
	var rows []string
	for _, p := range logs {
		row, err := fullBudgetRow(root, from, p)
		if err != nil {
			return fmt.Errorf("full budget: %w", err)
		}
		if row != "" {
			rows = append(rows, row)
		}
	}
	writeTableSection(w, "Full training sets", "One seed on the data set's whole training split, at the paper's budget (epochs as the preset says), on this project's 2-core CPU (the go backend) unless the s/epoch column names other backends, each with the median of its epochs (a run continues on any backend with `-resume`; docs/GPU.md, \"Continuing a run on a GPU\"); a run that is still going (`gexph train … -out DIR -resume` continues it) shows the epochs it has finished. Test metric at the best validation epoch so far. Unlike the sections above, these rows are not a reduced budget; the paper's figure is its mean ± std over its seeds. Each row's checkpoint re-derives its figures: `gexph eval -ckpt CHECKPOINT -split test`; a checkpoint with float16 weights (`gexph export -half`, for models over the repository's 1 MB file limit) re-derives the figures in parentheses beside it, its rounded model's own.",
		"| Data set | Preset | Seed | Epochs | Best epoch | Validation | Test | Paper | s/epoch | Checkpoint |",
		"|---|---|---:|---|---:|---:|---:|---:|---:|---|", rows)
	return nil
}

// fullBudgetRow is one run's table row ("" when it has no finished epoch yet).
func fullBudgetRow(root, from, logPath string) (string, error) {
	r, err := readFullRun(logPath)
	if err != nil {
		return "", err
	}
	b, ok := r.best()
	if !ok {
		return "", nil
	}
	name := filepath.Base(filepath.Dir(logPath))
	scale, digits := metricScale(r.header.Metric), 2
	if scale == 1 {
		digits = 4
	}
	test := "—"
	if b.TestMetric != nil {
		test = fmt.Sprintf("%.*f", digits, *b.TestMetric*scale)
	}
	paper := "—"
	if fig, ok := PaperFigures()[r.header.Dataset+"/"+VariantExphormer]; ok {
		paper = fig.text()
	}
	done, planned := len(r.epochs), r.header.Config.Epochs
	epochs := fmt.Sprintf("%d of %d", done, planned)
	if done < planned {
		epochs += " (in progress)"
	}
	ckpt := "—"
	path := filepath.Join(root, "checkpoints", name+"-full.ckpt")
	if _, err := os.Stat(path); err == nil {
		link, err := relativeLink(from, path)
		if err != nil {
			return "", err
		}
		ckpt = fmt.Sprintf("[%s](%s)", filepath.Base(path), filepath.ToSlash(link))
		info, err := gexph.ReadCheckpointInfo(path)
		if err != nil {
			return "", err
		}
		ckpt += halfNote(info.Half, scale, digits)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return fmt.Sprintf("| %s | %s | %d | %s | %d | %.*f | %s | %s | %s | %s |", name, r.header.Preset, r.header.Seed,
		epochs, b.Epoch, digits, b.ValMetric*scale, test, paper, epochSecondsByBackend(r.epochs), ckpt), nil
}

// epochSecondsByBackend is the s/epoch cell: the median epoch's seconds (the first
// epoch, which compiles, left out), or, for a run resumed on other backends, the median
// on each backend (as its epochs name it; "unrecorded" for logs of older versions) with
// its number of epochs, the backend of most epochs first.
func epochSecondsByBackend(epochs []gexph.EpochStats) string {
	timed := epochs[min(1, len(epochs)-1):]
	var order []string
	groups := map[string][]gexph.EpochStats{}
	for _, st := range timed {
		if _, ok := groups[st.Backend]; !ok {
			order = append(order, st.Backend)
		}
		groups[st.Backend] = append(groups[st.Backend], st)
	}
	if len(order) <= 1 {
		return epochSeconds(medianEpochSeconds(timed))
	}
	sort.SliceStable(order, func(i, j int) bool { return len(groups[order[i]]) > len(groups[order[j]]) })
	cells := make([]string, len(order))
	for i, backend := range order {
		label := backend
		if label == "" {
			label = "unrecorded"
		}
		cells[i] = fmt.Sprintf("%s (%s, %d epochs)", epochSeconds(medianEpochSeconds(groups[backend])), label, len(groups[backend]))
	}
	return strings.Join(cells, "; ")
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
