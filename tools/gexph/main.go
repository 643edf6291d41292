// Command gexph explores, trains and measures Exphormer sparse graph transformers.
//
// Usage:
//
//	gexph <command> [flags]
//
// Commands:
//
//	expander   generate and certify a random regular expander
//	spectral   spectral analysis of a graph read from an edge list
//	data       statistics of a data set
//	train      train and evaluate a model
//	bench      benchmark expanders and training steps
//	compare    hold a backend (XLA on a GPU) to the go backend on one batch
//	reproduce  run a suite of the paper's experiments (resumable) and write RESULTS.md
//	repl       an interactive Go interpreter with gexph's packages
//	version    module version, commit, Go version, GOEXPERIMENT and the backends linked
//
// Run `gexph <command> -h` for the flags and examples of a command. Every command takes -json for
// machine-readable output.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/cudafind"
	"github.com/gexph/gexph/internal/sysinfo"
)

// command is one subcommand of the CLI.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
	// computes marks commands that train or benchmark models: main prepares the
	// runtime for them (gexph.SetupRuntime) and for no other.
	computes bool
}

func commands() map[string]command {
	return map[string]command{
		"expander":  {"generate and certify a random regular expander", runExpander, false},
		"spectral":  {"spectral analysis of a graph read from an edge list", runSpectral, false},
		"data":      {"statistics of a data set", runData, false},
		"train":     {"train and evaluate a model", runTrain, true},
		"eval":      {"evaluate a checkpoint on a data set's splits", runEval, true},
		"predict":   {"write a checkpoint's predictions (classes and probabilities) as CSV", runPredict, true},
		"export":    {"export a checkpoint's weights as safetensors (readable from PyTorch)", runExport, false},
		"plot":      {"plot the training curves of runs (seeds as mean ± band)", runPlot, false},
		"config":    {"print a preset's config (with overrides) as YAML to edit and pass to -config", runConfig, false},
		"bench":     {"benchmark expanders and training steps", runBench, true},
		"compare":   {"hold a backend (XLA on a GPU) to the go backend: outputs and gradients of one batch", runCompare, true},
		"reproduce": {"run a suite of the paper's experiments and write RESULTS.md", runReproduce, true},
		"repl":      {"an interactive Go interpreter with gexph's packages", runREPL, true},
		"version":   {"module version, commit, Go version, GOEXPERIMENT and the backends linked", runVersion, false},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "gexph: sparse graph transformers (Exphormer) — explore, train, measure.")
	fmt.Fprintln(w, "\nUsage: gexph <command> [flags]\n\nCommands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for name := range cmds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-10s %s\n", name, cmds[name].summary)
	}
	fmt.Fprintln(w, "\nRun 'gexph <command> -h' for a command's flags and examples.")
}

func main() { os.Exit(runMain(os.Args[1:])) }

// runMain is the command: it prepares the runtime for commands that compute
// (gexph.SetupRuntime, which also warns of a build without GOEXPERIMENT=simd) and runs
// args, returning the exit code.
func runMain(args []string) int {
	if len(args) > 0 {
		if cmd, ok := commands()[args[0]]; ok && cmd.computes && !isHelp(args[1:]) {
			gexph.SetupRuntime()
		}
	}
	return run(args, os.Stdout, os.Stderr)
}

// buildSetting returns a setting the build recorded in the binary (go version -m).
func buildSetting(key string) (string, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value, true
		}
	}
	return "", false
}

// isHelp tells whether a command's arguments ask for its help only.
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// run executes the CLI with the given arguments and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gexph: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	if err := cmd.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		var exit exitError
		if errors.As(err, &exit) {
			return exit.code
		}
		fmt.Fprintf(stderr, "gexph %s: %v\n", args[0], err)
		if errors.Is(err, data.ErrTooLarge) {
			b := sysinfo.MemoryBudget()
			fmt.Fprintf(stderr, "gexph: data may take half of the %s of memory available (%s)\n", sysinfo.FormatBytes(float64(b.Bytes)), b.Bound)
		}
		return 1
	}
	return 0
}

// newFlagSet returns a flag set for a subcommand that reports errors instead of exiting.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gexph "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: gexph %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
		writeExamples(stderr, name)
	}
	return fs
}

// parseFlags parses args and rejects stray positional arguments unless allowed, and a
// flag given twice (see checkRepeated). A -backend flag is then made the backend it
// stands for on this machine, its environment set (useBackend).
func parseFlags(fs *flag.FlagSet, args []string, maxPositional int) error {
	if err := checkRepeated(fs, args, false); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > maxPositional {
		return fmt.Errorf("unexpected argument %q (see -h)", fs.Arg(maxPositional))
	}
	return useBackend(fs, cudafind.Default(), gexph.HasXLA(), reexec)
}

// repeatable marks a flag value that may be given more than once (-set).
type repeatable interface{ repeatable() }

// checkRepeated refuses a flag that args give twice, which the flag package would
// settle silently by keeping the last value; repeatable flags (-set) are exempt. It
// reads args as the flag package does (-name, --name, -name=value, a non-boolean flag's
// value in the next argument, "--" ending the flags), up to the first positional
// argument, or past positional arguments with acrossPositionals (gexph plot). Unknown
// flags are left to the parser to report.
func checkRepeated(fs *flag.FlagSet, args []string, acrossPositionals bool) error {
	given := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			if acrossPositionals {
				continue
			}
			return nil
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		switch b, ok := f.Value.(interface{ IsBoolFlag() bool }); {
		case hasValue:
		case ok && b.IsBoolFlag():
			value = "true"
		case i+1 < len(args):
			i++
			value = args[i]
		}
		if _, ok := f.Value.(repeatable); ok {
			continue
		}
		if prev, twice := given[name]; twice {
			return fmt.Errorf("-%s given twice (%s, then %s); give it once", name, prev, value)
		}
		given[name] = value
	}
	return nil
}

// exitError ends the command with its exit code and no message of its own: a child
// process (a REPL script's worker) that printed its error already ended so.
type exitError struct{ code int }

// Error returns the exit code in words.
func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }
