package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gexph/gexph/internal/atomicfile"

	"github.com/gexph/gexph/gexph"
)

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reproduce", "-suite "+strings.Join(gexph.SuiteNames(), "|")+" [-seeds K] [-out DIR] [-backend B] [-data-dir D] [-results FILE] [-json]", stderr)
	suite := fs.String("suite", "", "suite to run: "+strings.Join(gexph.SuiteNames(), ", "))
	seeds := fs.Int("seeds", 5, "seeds of the main runs (baselines and ablations use at most 3; inductive-budget uses 1)")
	out := fs.String("out", "", "directory of the runs (runs/*.json, ckpt/, results.csv, RESULTS.md); default runs/reproduce-SUITE")
	backend := fs.String("backend", "go", "compute backend: go, xla:cpu or xla:/path/to/plugin.so")
	dataDir := fs.String("data-dir", "", "data root (default $GEXPH_DATA, else ../shared/data)")
	results := fs.String("results", "", "also write RESULTS.md to this path (e.g. docs/RESULTS.md)")
	asJSON := fs.Bool("json", false, "print the summary rows as one JSON object")
	quiet := fs.Bool("quiet", false, "no per-run and per-epoch progress lines")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *suite == "" {
		return fmt.Errorf("-suite is required (choices: %s)", strings.Join(gexph.SuiteNames(), ", "))
	}
	runs, err := gexph.Suite(*suite, *seeds)
	if err != nil {
		return fmt.Errorf("-suite/-seeds: %w", err)
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("runs", "reproduce-"+*suite)
	}
	opts := gexph.SuiteOptions{OutDir: dir, Backend: *backend, DataDir: *dataDir}
	if !*quiet {
		opts.Log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := gexph.RunSuite(ctx, runs, opts); err != nil {
		return err
	}
	rows, err := gexph.Summarize(filepath.Join(dir, "results.csv"))
	if err != nil {
		return err
	}
	meta := gexph.ResultsMeta{
		Suite: *suite, Command: commandLine("gexph reproduce", args), Backend: *backend,
		Machine: gexph.MachineDescription(), Date: time.Now(), Notes: gexph.SuiteNotes(*suite),
	}
	paths := []string{filepath.Join(dir, "RESULTS.md")}
	if *results != "" {
		paths = append(paths, *results)
	}
	for _, p := range paths {
		if err := atomicfile.Write(p, func(w io.Writer) error { return gexph.WriteResultsMarkdown(w, rows, meta) }); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"suite": *suite, "out": dir, "results": paths, "rows": rows})
	}
	fmt.Fprintf(stdout, "%d runs of suite %s in %s; results: %s\n", len(runs), *suite, dir, strings.Join(paths, ", "))
	return nil
}

// commandLine renders a command and its arguments, quoting those that need it.
func commandLine(cmd string, args []string) string {
	parts := []string{cmd}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?") {
			a = strconv.Quote(a)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
