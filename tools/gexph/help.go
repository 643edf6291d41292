package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/gexph/buildcheck"
	"github.com/gexph/gexph/internal/cudafind"
	"github.com/gexph/gexph/suite"
	"github.com/gomlx/compute"
)

// commandExamples are the examples that `gexph COMMAND -h` shows below the flags: a
// command line and what it does, two or three per command.
func commandExamples() map[string][][2]string {
	return map[string][][2]string{
		"expander": {
			{"gexph expander -n 1000000 -d 6", "a certified random 6-regular expander on 10⁶ nodes"},
			{"gexph expander -n 10000 -d 4 -algo hamiltonian -out g.txt", "another process; its edges written for gexph spectral"},
		},
		"spectral": {
			{"gexph spectral -edges g.txt", "λ₂, λₙ, the mixing bound and measured mixing, the diameter"},
			{"gexph expander -n 1000 -d 4 -out g.txt && gexph spectral -edges g.txt -json", "an expander analysed, as JSON"},
		},
		"data": {
			{"gexph data -dataset pattern", "statistics of a data set known by name"},
			{"gexph data -dataset npz:my_graph.npz -json", "your own file, as JSON"},
			{"gexph data -dataset cora -export exported/cora", "write it as gexph trains on it, for PyG"},
		},
		"train": {
			{"gexph train -dataset pattern -preset demo -epochs 2", "a quick run, nothing written"},
			{"gexph train -dataset computers -set lr=0.002 -out runs/c1", "checkpoints and logs in runs/c1 (add -resume after an interruption)"},
			{"gexph train -dataset cora -seeds 1,2,3 -out runs/cora", "one run per seed, and their mean ± std"},
		},
		"eval": {
			{"gexph eval -ckpt runs/c1/best.ckpt", "loss and metric of every split"},
			{"gexph eval -ckpt runs/c1/best.ckpt -split test -json", "the test split, as JSON"},
		},
		"predict": {
			{"gexph predict -ckpt runs/c1/best.ckpt -out preds.csv", "the test split's predictions"},
			{"gexph predict -ckpt runs/c1/best.ckpt -split val -out val.csv", "another split"},
		},
		"export": {
			{"gexph export -ckpt runs/c1/best.ckpt -out c1.safetensors", "weights that safetensors.torch.load_file reads"},
			{"gexph export -ckpt runs/c1/last.ckpt -out last.safetensors", "the last epoch's weights"},
		},
		"plot": {
			{"gexph plot runs/c1 -o c1.png", "validation metric per epoch"},
			{"gexph plot runs/c1-seeds runs/c1 -o seeds.svg -key val_loss", "seeds as mean ± band, beside another run"},
			{"gexph plot runs/cluster-full -o cluster.png -ref 'the paper=0.7807'", "a run still going over its planned epochs, beside the paper's figure"},
		},
		"config": {
			{"gexph config -preset computers > my.yaml", "a full config to edit and pass to -config"},
			{"gexph config -dataset cora -set lr=0.002 -json", "a data set's preset with an override, as JSON"},
		},
		"bench": {
			{"gexph bench -case model -preset pattern", "one training step of the PATTERN preset's whole model"},
			{"gexph bench -case expander -n 1000000 -d 6", "expander generation and certification time"},
			{"gexph bench -table", "the standard table, each row in its own process"},
		},
		"compare": {
			{"gexph compare -backend cuda,tf32=false -dataset pattern", "the GPU held to 1e-4 (TF32, XLA's default on CUDA, cannot meet it; make build-xla)"},
			{"gexph compare -backend xla:cpu -dataset pattern -preset demo", "XLA on the CPU against the go backend (an xla build)"},
			{"gexph compare -backend go:parallelism=1 -dataset cluster -batch 4 -json", "two settings of the go backend, as JSON"},
		},
		"reproduce": {
			{"gexph reproduce -suite transductive -runs '_s1$' -out docs/results", "one seed of every transductive run"},
			{"gexph reproduce -suite scaling -out docs/results", "seconds and memory against graph size"},
			{"gexph reproduce -report -out docs/results -results docs/RESULTS.md", "only regenerate the report"},
		},
		"repl": {
			{"gexph repl", "an interactive session"},
			{"gexph repl spectrum.go", "run a script"},
			{"gexph repl -echo < script.go", "a script from standard input, printing each expression's value"},
		},
		"version": {
			{"gexph version", "module version, commit, Go version, GOEXPERIMENT, backends linked, the CUDA plugin found"},
			{"gexph version -json", "the same as JSON"},
		},
	}
}

// writeExamples writes a command's examples as a section of its help.
func writeExamples(w io.Writer, name string) {
	ex := commandExamples()[name]
	if len(ex) == 0 {
		return
	}
	fmt.Fprintln(w, "\nExamples:")
	for _, e := range ex {
		fmt.Fprintf(w, "  %s\n      %s\n", e[0], e[1])
	}
}

// versionInfo is what `gexph version` reports.
type versionInfo struct {
	// Version is the module version and commit (buildcheck.Version).
	Version string `json:"version"`
	// Commit and CommitTime are the build's VCS revision and its time; Modified tells a
	// build of a modified tree.
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	// GoVersion is the toolchain that built the binary; GOEXPERIMENT its experiments.
	GoVersion    string `json:"go_version"`
	GOEXPERIMENT string `json:"goexperiment"`
	// Backends are the compute backends linked in (go; xla in an xla build).
	Backends []string `json:"backends"`
	// Warnings are the build's problems for speed (buildcheck.Warnings).
	Warnings []string `json:"warnings,omitempty"`
	// Machine is this machine with the vector instructions of the go backend's kernels
	// (suite.MachineDescription), as every suite record and timing names it.
	Machine string `json:"machine"`
	// CUDA is what -backend cuda would use on this machine (cudaReportOf).
	CUDA *cudaReport `json:"cuda,omitempty"`
}

// cudaReport is what gexph finds of an NVIDIA GPU and its pip-installed plugin.
type cudaReport struct {
	// The plugin and the CUDA files beside it; nil where none was found.
	*cudafind.Install
	// Error says why there is none ("no CUDA plugin found: pip install …").
	Error string `json:"error,omitempty"`
	// Device is where an NVIDIA GPU shows (/proc/driver/nvidia/gpus, /dev/nvidia0), ""
	// where none does.
	Device string `json:"device,omitempty"`
	// Env is what this environment lacks for the plugin, as -backend cuda sets it
	// (and what a Go program using the plugin must be started with).
	Env []string `json:"env,omitempty"`
}

// cudaReportOf is what finder finds, in the environment getenv reads.
func cudaReportOf(finder cudafind.Finder, getenv func(string) string) *cudaReport {
	r := &cudaReport{}
	if ok, where := finder.HasDevice(); ok {
		r.Device = where
	}
	in, err := finder.Find()
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Install, r.Env = in, in.Env(getenv)
	return r
}

// writeCUDA writes r as lines of the version report.
func writeCUDA(w io.Writer, r *cudaReport, xla bool) {
	if !xla {
		fmt.Fprintln(w, "xla          not in this build: make build-xla builds gexph with it (cgo), for a GPU")
	}
	if r.Install == nil {
		fmt.Fprintf(w, "cuda plugin  %s\n", r.Error)
	} else {
		var about []string
		if r.Package != "" {
			about = append(about, strings.TrimSpace(r.Package+" "+r.Version))
		}
		fmt.Fprintf(w, "cuda plugin  %s (%s)\n", r.Plugin, strings.Join(append(about, "found by "+r.FoundBy), "; "))
		fmt.Fprintf(w, "cuda libs    %s\n", orElse(strings.Join(r.LibDirs, ", "), "(none)"))
		fmt.Fprintf(w, "cuda data    %s (libdevice); ptxas in %s\n", orElse(r.DataDir, "(none)"), orElse(r.PtxasDir, "(none)"))
		if len(r.Env) > 0 {
			fmt.Fprintf(w, "cuda env     %s (set by gexph itself for -backend cuda)\n", strings.Join(r.Env, " "))
		}
	}
	fmt.Fprintf(w, "gpu          %s\n", orElse(r.Device, "none found (no /proc/driver/nvidia/gpus or /dev/nvidia*)"))
}

// orElse is s, or otherwise for an empty s.
func orElse(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// buildVersion collects the versionInfo of the build bi (nil: no build information).
func buildVersion(bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: buildcheck.Version(), GoVersion: runtime.Version(), Backends: compute.List()}
	if bi == nil {
		return v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "GOEXPERIMENT":
			v.GOEXPERIMENT = s.Value
		}
	}
	v.Warnings = buildcheck.Warnings(bi)
	return v
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "[-json]", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	v := buildVersion(bi)
	v.Machine = suite.MachineDescription()
	v.CUDA = cudaReportOf(cudafind.Default(), os.Getenv)
	if *asJSON {
		return writeJSON(stdout, v)
	}
	commit := orElse(v.Commit, "(not recorded)")
	if v.Modified {
		commit += " (modified tree)"
	}
	if v.CommitTime != "" {
		commit += ", " + v.CommitTime
	}
	fmt.Fprintf(stdout, "gexph        %s\ncommit       %s\ngo           %s\nGOEXPERIMENT %s\nbackends     %s\nmachine      %s\n",
		v.Version, commit, v.GoVersion, orElse(v.GOEXPERIMENT, "(not recorded)"), strings.Join(v.Backends, ", "), v.Machine)
	for _, w := range v.Warnings {
		fmt.Fprintf(stdout, "warning      %s\n", w)
	}
	writeCUDA(stdout, v.CUDA, gexph.HasXLA())
	return nil
}
