package sysinfo

import (
	"fmt"
	"runtime/metrics"
)

// Budget is the memory a process may plan to use from now on, and what bounds it.
// Estimates of what a run will allocate are checked against it before anything is
// allocated: an allocation the operating system refuses is a fatal error in Go, which
// no code can recover from.
type Budget struct {
	// Bytes is the memory available; 0 when unknown (nothing is checked then).
	Bytes int64
	// Bound says what sets Bytes, for error messages.
	Bound string
}

// FormatBytes formats a byte count in GiB with one decimal, or in whole MiB below
// 1 GiB.
func FormatBytes(b float64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.0f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", b/(1<<30))
}

// Refuse returns an error, "WHAT needs about X of memory, more than the Y available
// (BOUND)",
// when need bytes exceed the budget, and nil otherwise or when the budget is unknown.
func (b Budget) Refuse(what string, need float64) error {
	if b.Bytes <= 0 || need <= float64(b.Bytes) {
		return nil
	}
	return fmt.Errorf("%s needs about %s of memory, more than the %s available (%s)", what, FormatBytes(need), FormatBytes(float64(b.Bytes)), b.Bound)
}

// MemoryBudget returns the memory this process may still plan to use: three quarters
// of the machine's memory, and, under an address-space limit (ulimit -v, RLIMIT_AS),
// at most three quarters of the address space the limit leaves: the limit less what
// the process maps now, plus what the heap maps without using (the runtime reuses
// that). The Go runtime and, in a cgo build, each thread's stack and C heap map a
// great deal of address space they do not use (1.5 GB at the start of the gexph
// command), so a tight limit leaves far less than it seems.
func MemoryBudget() Budget {
	return BudgetOf(memTotalBytes(), addressSpaceLimit(), vmSizeBytes(), heapIdleBytes())
}

// asReserve is the address space kept, under an address-space limit, for what the
// process maps beyond its heap as it runs: threads started later map a stack and, in a
// cgo build, a C heap arena of up to 64 MB each (a gexph training run under ulimit -v
// 2000000 mapped 250 MB more outside its heap than at its start).
const asReserve = 256 << 20

// BudgetOf returns the budget (see MemoryBudget) of a machine with memTotal bytes of
// memory, a process with an address-space limit of asLimit bytes (≤ 0: none) mapping
// vmSize bytes of which heapIdle are heap the runtime maps but does not use.
func BudgetOf(memTotal, asLimit, vmSize, heapIdle int64) Budget {
	var b Budget
	if memTotal > 0 {
		b = Budget{Bytes: memTotal / 4 * 3, Bound: "three quarters of this machine's " + FormatBytes(float64(memTotal))}
	}
	if asLimit <= 0 {
		return b
	}
	left := max(0, asLimit-vmSize+heapIdle-asReserve)
	if as := max(1, left/4*3); b.Bytes <= 0 || as < b.Bytes {
		b = Budget{Bytes: as, Bound: fmt.Sprintf("three quarters of the %s the address-space limit (ulimit -v) of %s leaves, %s being mapped already",
			FormatBytes(float64(left)), FormatBytes(float64(asLimit)), FormatBytes(float64(vmSize-heapIdle)))}
	}
	return b
}

// heapIdleBytes returns the bytes the Go heap maps but holds no objects in (free and
// released pages), which later allocations reuse without mapping more.
func heapIdleBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	var idle int64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			idle += int64(x.Value.Uint64())
		}
	}
	return idle
}
