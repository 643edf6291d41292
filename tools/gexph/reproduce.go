package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/suite"
)

// reproduceSuites lists the suites `gexph reproduce` runs: the training suites and the
// scaling suite.
func reproduceSuites() []string { return append(suite.SuiteNames(), suite.SuiteScaling) }

func runReproduce(args []string, stdout, stderr io.Writer) error {
	choices := strings.Join(reproduceSuites(), "|")
	fs := newFlagSet("reproduce", "-suite "+choices+" [-seeds K] [-runs REGEXP] [-out DIR] [-results FILE] [-backend B] [-json] | -report", stderr)
	suiteName := fs.String("suite", "", "suite to run: "+strings.Join(reproduceSuites(), ", "))
	seeds := fs.Int("seeds", 5, "seeds of the main runs (baselines and ablations use at most 3; inductive-budget uses 1; search: seeds of the selected setting)")
	out := fs.String("out", filepath.Join("runs", "reproduce"), "results root: each suite's records, CSV and meta.json go to OUT/SUITE, figures to OUT/figures")
	results := fs.String("results", "", "the report generated from every suite under -out (default OUT/RESULTS.md; the repository's is docs/RESULTS.md)")
	report := fs.Bool("report", false, "only regenerate the report from the results under -out")
	backend := fs.String("backend", "go", "compute backend: go; cuda (an NVIDIA GPU, through the pip-installed jax-cuda13-pjrt that gexph finds; needs make build-xla); auto (cuda where there is one, else go); xla:cpu or xla:/path/to/plugin.so")
	dataDir := fs.String("data-dir", "", "data root (default $GEXPH_DATA, else ../shared/data)")
	ckptEvery := fs.Duration("ckpt-every", time.Minute, "write each run's last.ckpt at most this often (and after its first and last epoch and at each new best epoch); 0: after every epoch")
	only := fs.String("runs", "", "run only the suite's runs (scaling: points such as full_20000) whose names match this regular expression (e.g. '^cora_' or '_s1$')")
	maxNodes := fs.Int("max-nodes", 1000000, "scaling: largest graph")
	memLimit := fs.Float64("mem-limit-gb", 0, "scaling: stop a point whose process exceeds this many GiB and record it as out of memory (0: 85% of this machine's memory)")
	settings := fs.String("settings", "", "scaling: JSON object of suite.ScalingSettings fields overriding the defaults")
	asJSON := fs.Bool("json", false, "print a summary as one JSON object")
	quiet := fs.Bool("quiet", false, "no per-run and per-epoch progress lines")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	reportPath := *results
	if reportPath == "" {
		reportPath = filepath.Join(*out, "RESULTS.md")
	}
	if *report {
		if err := suite.WriteReport(*out, reportPath); err != nil {
			return err
		}
		return printReproduce(stdout, *asJSON, "", *out, reportPath, 0)
	}
	if *suiteName == "" {
		return fmt.Errorf("-suite is required (choices: %s)", strings.Join(reproduceSuites(), ", "))
	}
	dir := filepath.Join(*out, *suiteName)
	var logw io.Writer
	if !*quiet {
		logw = stderr
	}
	// SIGINT or SIGTERM (a scheduler's, or timeout's) ends the running run after its last
	// complete epoch, with its checkpoint written, as `gexph train` does.
	ctx, stop := interruptContext()
	defer stop()
	var count int
	suiteOpts := suite.SuiteOptions{OutDir: dir, Backend: *backend, DataDir: *dataDir, Log: logw, CheckpointEvery: *ckptEvery}
	if *suiteName == suite.SuiteScaling {
		s, err := parseScalingSettings(*settings)
		if err != nil {
			return err
		}
		points, err := suite.FilterScalingPoints(suite.ScalingPoints(*maxNodes), *only)
		if err != nil {
			return fmt.Errorf("-runs: %w", err)
		}
		limitMB := *memLimit * 1024
		if limitMB <= 0 {
			limitMB = 0.85 * sysinfo.MemTotalMB()
		}
		self, err := os.Executable()
		if err != nil {
			return err
		}
		err = suite.RunScalingSuite(ctx, points, suite.ScalingOptions{
			OutDir: dir, Settings: s, Log: logw,
			Measure: func(ctx context.Context, s suite.ScalingSettings, p suite.ScalingPoint) (suite.ScalingResult, error) {
				return measureInChild(ctx, self, s, p, *backend, limitMB, stderr)
			},
		})
		if err != nil {
			return err
		}
		count = len(points)
	} else if *suiteName == suite.SuiteSearch {
		n, err := suite.RunSearchSuite(ctx, suite.DefaultSearchGrids(), *seeds, *only, suiteOpts)
		if err != nil {
			return err
		}
		count = n
	} else {
		runs, err := suite.Suite(*suiteName, *seeds)
		if err != nil {
			return fmt.Errorf("-suite/-seeds: %w", err)
		}
		if runs, err = suite.FilterRuns(runs, *only); err != nil {
			return fmt.Errorf("-runs: %w", err)
		}
		if *suiteName == suite.SuitePlus {
			// Photo and Physics run where their files are; the report says of the others
			// that they are not on this machine.
			var missing []string
			runs, missing = suite.WithData(runs, data.DataRoots(data.LoadOptions{DataDir: *dataDir}))
			for _, ds := range missing {
				fmt.Fprintf(stderr, "%s: no data on this machine (gexph data -fetch %s): its runs are skipped\n", ds, ds)
			}
			if len(runs) == 0 {
				return fmt.Errorf("-suite %s: none of its data sets is on this machine (%s)", *suiteName, strings.Join(missing, ", "))
			}
		}
		if *suiteName == suite.SuiteLarge {
			// The suite's runs but its full-batch ones train on mini-batches.
			gexph.SetupMiniBatchRuntime(gexph.Config{BatchNodes: 1})
		}
		if err := suite.RunSuite(ctx, runs, suiteOpts); err != nil {
			if errors.As(err, new(*gexph.InterruptedError)) {
				return fmt.Errorf("%w; the same command continues the suite from there: %s", err, commandLine("gexph reproduce", args))
			}
			return err
		}
		count = len(runs)
	}
	// The machine line names the machines of all the suite's records, which resumed
	// suites may have made on several.
	machine, err := suite.RecordedMachines(dir)
	if err != nil {
		return err
	}
	// The recorded command reruns the whole suite: a -runs filter is left out.
	meta := suite.ResultsMeta{
		Suite: *suiteName, Command: commandLine("gexph reproduce", dropFlag(args, "runs")), Seeds: *seeds, Backend: *backend,
		Machine: machine, Date: time.Now(), Notes: suite.SuiteNotes(*suiteName),
	}
	if err := suite.WriteSuiteMeta(dir, meta); err != nil {
		return err
	}
	if err := suite.WriteReport(*out, reportPath); err != nil {
		return err
	}
	return printReproduce(stdout, *asJSON, *suiteName, dir, reportPath, count)
}

// printReproduce prints what reproduce did.
func printReproduce(w io.Writer, asJSON bool, suite, dir, report string, runs int) error {
	if asJSON {
		return writeJSON(w, map[string]any{"suite": suite, "out": dir, "runs": runs, "report": report})
	}
	if suite == "" {
		_, err := fmt.Fprintf(w, "report: %s\n", report)
		return err
	}
	noun := "runs"
	if runs == 1 {
		noun = "run"
	}
	_, err := fmt.Fprintf(w, "%d %s of suite %s in %s; report: %s\n", runs, noun, suite, dir, report)
	return err
}

// measureInChild measures one scaling point with `gexph bench -case scaling` in a child
// process, stopped and reported out of memory past limitMB.
func measureInChild(ctx context.Context, self string, s suite.ScalingSettings, p suite.ScalingPoint, backend string, limitMB float64, stderr io.Writer) (suite.ScalingResult, error) {
	sj, err := json.Marshal(s)
	if err != nil {
		return suite.ScalingResult{}, err
	}
	args := []string{"bench", "-case", suite.SuiteScaling, "-n", strconv.Itoa(p.Nodes), "-attention", string(p.Attention),
		"-settings", string(sj), "-backend", backend, "-json"}
	// Go's default collector, so that a point's peak memory tracks what its computation
	// holds rather than the slack of TuneGC's larger heap target.
	var env []string
	if _, ok := os.LookupEnv("GOGC"); !ok {
		env = []string{"GOGC=100", "GOMEMLIMIT=off"}
	}
	run, err := runWithMemoryLimit(ctx, self, args, env, limitMB, stderr)
	if err != nil {
		return suite.ScalingResult{}, err
	}
	if run.OverLimit {
		return suite.ScalingResult{ScalingPoint: p, OutOfMemory: true, PeakRSSMB: run.PeakRSSMB, MemLimitMB: limitMB, Settings: s}, nil
	}
	var res suite.ScalingResult
	if err := json.Unmarshal(run.Stdout, &res); err != nil {
		return res, fmt.Errorf("scaling %s: reading the child's output: %w", p.Name(), err)
	}
	res.MemLimitMB = limitMB
	// The child's own peak misses nothing the watchdog saw, and vice versa.
	res.PeakRSSMB = max(res.PeakRSSMB, run.PeakRSSMB)
	return res, nil
}

// dropFlag returns args without the flag -name (or --name) and its value.
func dropFlag(args []string, name string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := strings.TrimLeft(args[i], "-")
		if strings.HasPrefix(args[i], "-") && a == name {
			i++ // its value
			continue
		}
		if strings.HasPrefix(args[i], "-") && strings.HasPrefix(a, name+"=") {
			continue
		}
		out = append(out, args[i])
	}
	return out
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
