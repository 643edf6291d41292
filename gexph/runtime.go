package gexph

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/gexph/gexph/gexph/buildcheck"
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
// the pure-Go backend slow (see buildcheck.Warnings). It returns the headroom reserved in
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
			writeBuildWarnings(os.Stderr, buildcheck.Warnings(bi))
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
