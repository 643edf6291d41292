package gexph

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/gexph/gexph/internal/sysinfo"
)

// runtimeSetup makes SetupRuntime act once per process. It is process-wide state
// because what SetupRuntime changes is: the heap's reservation and the garbage
// collector's settings belong to the process, not to a Model.
var runtimeSetup struct {
	once     sync.Once
	reserved int64
}

// SetupRuntime prepares this process for training on the pure-Go backend: it reserves
// heap headroom against the backend's SIMD kernels,
// which read up to 60 bytes past the end of a buffer and would fault on a buffer that
// ends where the heap's mapped memory ends (the reservation makes the mapped heap end
// far beyond anything a run uses; it costs address space, not memory, and is sized to
// the machine's memory and any address-space limit, or skipped where the kernel would
// count it against a strict commit limit); it sets the garbage collector to
// GOGC=400 with a soft memory limit of the process's memory budget (three quarters of
// the machine's memory, or less under an address-space limit: see
// sysinfo.MemoryBudget, which the pre-checks of Train and NewModel use too), unless GOGC
// or GOMEMLIMIT are set (the backend allocates and drops large buffers every step, and with
// Go's default collector much of a step's time went to faulting returned memory back
// in); and it warns on standard error when the program was built in a way that makes
// the pure-Go backend slow (see BuildWarnings). It returns the headroom reserved in
// bytes.
//
// It acts once per process; later calls return the first call's headroom. Importing
// gexph does none of this. Train, TrainFromSpec, NewModel, NewModelWithOptions and
// Evaluate call it themselves, so a program that forgets it is still safe; calling it
// first thing (the gexph command does before it trains, benchmarks or starts the REPL,
// notebooks in their first cell) reserves the headroom while the heap is still small,
// which is when the reservation is certain to lie past everything else.
func SetupRuntime() int64 {
	runtimeSetup.once.Do(func() {
		runtimeSetup.reserved = sysinfo.ReserveHeapHeadroom()
		sysinfo.TuneGC()
		if bi, ok := debug.ReadBuildInfo(); ok {
			writeBuildWarnings(os.Stderr, BuildWarnings(bi))
		}
	})
	return runtimeSetup.reserved
}

// writeBuildWarnings writes each warning as a line "gexph: warning: …".
func writeBuildWarnings(w io.Writer, warnings []string) {
	for _, msg := range warnings {
		fmt.Fprintf(w, "gexph: warning: %s\n", msg)
	}
}

// computeModule is the module of the compute backends, which gexph builds against a
// patched copy of (third_party/compute).
const computeModule = "github.com/gomlx/compute"

// gexphModule is this toolkit's module path.
const gexphModule = "github.com/gexph/gexph"

// BuildWarnings returns what a program's build information (runtime/debug.ReadBuildInfo)
// says that makes gexph's pure-Go backend slow, one message per finding, each saying
// what to change:
//
//   - github.com/gomlx/compute linked unpatched: gexph's go.mod replaces it with the
//     patched copy in its third_party/compute, but a replace directive applies only in
//     the main module's go.mod, so a program that imports gexph links the upstream module
//     (a PATTERN training step about 1.6× slower) unless its own go.mod has the replace
//     line the message gives;
//   - built without GOEXPERIMENT=simd: the backend's SIMD kernels are left out (about 4×
//     slower).
//
// It returns nil for a build with neither problem (the gexph command built with make).
func BuildWarnings(bi *debug.BuildInfo) []string {
	if bi == nil {
		return nil
	}
	var out []string
	if msg := unpatchedComputeWarning(bi); msg != "" {
		out = append(out, msg)
	}
	if !buildHasSIMD(bi) {
		out = append(out, "built without GOEXPERIMENT=simd, which leaves out the pure-Go backend's SIMD kernels (about 4× slower): build with GOEXPERIMENT=simd go build (the gexph command: make build)")
	}
	return out
}

// buildHasSIMD tells whether the build's GOEXPERIMENT setting includes simd.
func buildHasSIMD(bi *debug.BuildInfo) bool {
	for _, s := range bi.Settings {
		if s.Key == "GOEXPERIMENT" {
			return slices.Contains(strings.Split(s.Value, ","), "simd")
		}
	}
	return false
}

// unpatchedComputeWarning returns the warning of a build that links computeModule
// without a replace, with the replace line to add, or "".
func unpatchedComputeWarning(bi *debug.BuildInfo) string {
	var compute, self *debug.Module
	for _, d := range bi.Deps {
		switch d.Path {
		case computeModule:
			compute = d
		case gexphModule:
			self = d
		}
	}
	if compute == nil || compute.Replace != nil {
		return ""
	}
	return fmt.Sprintf("%s %s is linked unpatched (a replace in gexph's go.mod does not apply to a program that imports gexph): "+
		"the pure-Go backend's PATTERN step is about 1.6× slower. Add to your go.mod:\n\t%s\n"+
		"(gexph's patched copy, a module of its own: see third_party/compute/PATCHES.md)",
		compute.Path, compute.Version, computeReplaceLine(self))
}

// computeReplaceLine is the replace directive that links gexph's patched copy of
// computeModule: the copy beside the gexph module the program builds with when that is a
// local directory (a replace of gexph itself), else in a checkout of gexph to make.
func computeReplaceLine(self *debug.Module) string {
	// A directory replacement has no version: "(devel)" in the build information.
	if self != nil && self.Replace != nil && (self.Replace.Version == "" || self.Replace.Version == "(devel)") {
		return fmt.Sprintf("replace %s => %s", computeModule, filepath.ToSlash(filepath.Join(self.Replace.Path, "third_party", "compute")))
	}
	version := "of the version you use"
	if self != nil {
		version = self.Version
	}
	return fmt.Sprintf("replace %s => /path/to/gexph/third_party/compute\n"+
		"where /path/to/gexph is a checkout of gexph %s (git clone https://%s /path/to/gexph)", computeModule, version, gexphModule)
}

// SetupMiniBatchRuntime sets the garbage collector's target to GOGC=100, unless GOGC is
// set, for a run of cfg that trains on mini-batches (BatchNodes > 0), and does nothing
// for other configs. Such a run holds the whole graph, its interaction graph and two
// layers of node states (gigabytes at 10⁷ nodes) while each step allocates little:
// SetupRuntime's GOGC=400, made for full-batch steps, would let the heap grow towards
// five times that live set (a 10⁷-node run of the large preset: 12 GB peak at
// GOGC=100). Like SetupRuntime it changes process-wide settings: programs call it;
// packages never do. It calls SetupRuntime first, so that SetupRuntime's GOGC=400 never
// overrides it later.
func SetupMiniBatchRuntime(cfg Config) {
	SetupRuntime()
	if cfg.BatchNodes > 0 {
		sysinfo.SetGCPercentUnlessSet(100)
	}
}
