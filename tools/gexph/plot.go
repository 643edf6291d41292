package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/plots"
)

func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plot", "RUN_DIR... -o FILE.png|svg|pdf [-key val_metric] [-ref LABEL=VALUE ...]", stderr)
	out := fs.String("o", "", "figure to write (.png, .svg or .pdf)")
	key := fs.String("key", "val_metric", "what to plot: train_loss, val_loss, train_metric, val_metric, test_metric, lr, seconds")
	refs := new(refsFlag)
	fs.Var(refs, "ref", "a dashed reference line, LABEL=VALUE or VALUE, in the key's units as the logs hold them (e.g. -ref 'the paper=0.7807'; repeatable)")
	// Flags may follow the run directories: parse what comes after them too.
	if err := checkRepeated(fs, args, true); err != nil {
		return err
	}
	var dirs []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		dirs = append(dirs, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(dirs) == 0 || *out == "" {
		return fmt.Errorf("want one or more run directories and -o FILE (see -h)")
	}
	var series []plots.RunSeries
	var headers []plots.RunHeader
	for _, dir := range dirs {
		logs, err := runLogs(dir)
		if err != nil {
			return err
		}
		s := plots.RunSeries{}
		var hdr plots.RunHeader
		for _, path := range logs {
			recs, err := plots.ReadTrainingLog(path)
			if err != nil {
				return err
			}
			if hdr, err = plots.ReadRunHeader(path); err != nil {
				return err
			}
			s.Runs = append(s.Runs, recs)
			s.Planned = max(s.Planned, hdr.Epochs)
		}
		s.Label = filepath.Base(filepath.Clean(dir))
		if hdr.Dataset != "" {
			s.Label = fmt.Sprintf("%s (%s, %s)", s.Label, hdr.Dataset, hdr.Preset)
		}
		series = append(series, s)
		headers = append(headers, hdr)
	}
	title, yLabel := plotLabels(headers, *key)
	p, err := plots.RunCurves(series, *key, title, yLabel, *refs...)
	if err != nil {
		return err
	}
	if err := plots.Save(p, *out, 6, 4); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

// refsFlag collects the repeatable -ref flag: reference lines LABEL=VALUE or VALUE.
type refsFlag []plots.Limit

func (r *refsFlag) String() string {
	parts := make([]string, len(*r))
	for i, l := range *r {
		parts[i] = fmt.Sprintf("%s=%g", l.Label, l.Y)
	}
	return strings.Join(parts, " ")
}

func (r *refsFlag) Set(v string) error {
	label, value := v, v
	if i := strings.LastIndex(v, "="); i >= 0 {
		label, value = v[:i], v[i+1:]
	}
	y, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || math.IsNaN(y) || math.IsInf(y, 0) {
		return fmt.Errorf("reference %q: want LABEL=VALUE or VALUE, VALUE a finite number", v)
	}
	*r = append(*r, plots.Limit{Label: label, Y: y})
	return nil
}

func (r *refsFlag) repeatable() {}

// runLogs returns the training logs of a run directory: its own log.jsonl, or those of
// its seed-* runs (a `train -seeds` directory).
func runLogs(dir string) ([]string, error) {
	own := filepath.Join(dir, gexph.LogFile)
	if _, err := os.Stat(own); err == nil {
		return []string{own}, nil
	}
	seeds, err := filepath.Glob(filepath.Join(dir, "seed-*", gexph.LogFile))
	if err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("%s: no %s (nor seed-*/%s): not a run directory", dir, gexph.LogFile, gexph.LogFile)
	}
	sort.Strings(seeds)
	return seeds, nil
}

// plotLabels titles a figure after what its runs share, and names the y axis after the
// key and the runs' metric.
func plotLabels(headers []plots.RunHeader, key string) (string, string) {
	same := func(f func(plots.RunHeader) string) string {
		v := f(headers[0])
		for _, h := range headers[1:] {
			if f(h) != v {
				return ""
			}
		}
		return v
	}
	dataset := same(func(h plots.RunHeader) string { return h.Dataset })
	preset := same(func(h plots.RunHeader) string { return h.Preset })
	metric := same(func(h plots.RunHeader) string { return h.Metric })
	yLabel := key
	if metric != "" && strings.HasSuffix(key, "_metric") {
		yLabel = strings.TrimSuffix(key, "_metric") + " " + metric
	}
	yLabel = strings.ReplaceAll(yLabel, "_", " ")
	var parts []string
	if dataset != "" {
		parts = append(parts, dataset)
	}
	if preset != "" && preset != dataset {
		parts = append(parts, "preset "+preset)
	}
	title := yLabel + " per epoch"
	if len(parts) > 0 {
		title = strings.Join(parts, ", ") + ": " + title
	}
	return title, yLabel
}
