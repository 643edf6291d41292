package gexph

import "github.com/gexph/gexph/internal/sysinfo"

// SetupRuntime prepares this process for training on the pure-Go backend, once, at the
// start of a program: it reserves heap headroom against the backend's SIMD kernels,
// which read up to 60 bytes past the end of a buffer and would fault on a buffer that
// ends where the heap's mapped memory ends (the reservation makes the mapped heap end
// far beyond anything a run uses; it costs address space, not memory, and is sized to
// the machine's memory and any address-space limit, or skipped where the kernel would
// count it against a strict commit limit); and it sets the garbage collector to
// GOGC=400 with a soft memory limit of the process's memory budget (three quarters of
// the machine's memory, or less under an address-space limit: see
// sysinfo.MemoryBudget, which the pre-checks of Train and NewModel use too), unless GOGC
// or GOMEMLIMIT are set (the backend allocates and drops large buffers every step, and with
// Go's default collector much of a step's time went to faulting returned memory back
// in). It returns the headroom reserved in bytes.
//
// Importing gexph does none of this: the gexph command calls SetupRuntime before it
// trains, benchmarks or starts the REPL, and so should notebooks (in their first cell)
// and programs of your own, before anything else has grown the heap.
func SetupRuntime() int64 {
	reserved := sysinfo.ReserveHeapHeadroom()
	sysinfo.TuneGC()
	return reserved
}

// SetupMiniBatchRuntime sets the garbage collector's target to GOGC=100, unless GOGC is
// set, for a run of cfg that trains on mini-batches (BatchNodes > 0), and does nothing
// for other configs. Such a run holds the whole graph, its interaction graph and two
// layers of node states (gigabytes at 10⁷ nodes) while each step allocates little:
// SetupRuntime's GOGC=400, made for full-batch steps, would let the heap grow towards
// five times that live set (a 10⁷-node run of the large preset: 12 GB peak at
// GOGC=100). Like SetupRuntime it changes process-wide settings: programs call it, after
// SetupRuntime; packages never do.
func SetupMiniBatchRuntime(cfg Config) {
	if cfg.BatchNodes > 0 {
		sysinfo.SetGCPercentUnlessSet(100)
	}
}
