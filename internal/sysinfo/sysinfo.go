// Package sysinfo reads and sets what a training process needs to know about its
// machine: memory size, peak and current resident memory, CPU time, the vector
// instructions of the go backend's kernels, the garbage collector's settings and the
// heap headroom the pure-Go backend needs. Nothing here
// runs on import: programs call gexph.SetupRuntime, which uses ReserveHeapHeadroom and
// TuneGC, once at start.
package sysinfo

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// MemTotalMB returns the machine's memory (MemTotal of /proc/meminfo) in MiB, or 0
// where unknown.
func MemTotalMB() float64 { return procKB("/proc/meminfo", "MemTotal:") / 1024 }

// memTotalBytes returns MemTotal from /proc/meminfo, or 0 when unknown.
func memTotalBytes() int64 { return int64(procKB("/proc/meminfo", "MemTotal:") * 1024) }

// ProcessCPUSeconds returns the user plus system CPU time this process has used so
// far, in seconds (0 where unavailable). Set against wall time it tells how many cores a
// computation kept busy, which shows when another process shared the machine.
func ProcessCPUSeconds() float64 { return processCPUTime().Seconds() }

// PeakRSSMB returns the process's peak resident set size (VmHWM of /proc/self/status)
// in MiB, or 0 where that is unavailable.
func PeakRSSMB() float64 { return procKB("/proc/self/status", "VmHWM:") / 1024 }

// ProcessRSSMB returns the current resident set size (VmRSS) of process pid in MiB, or
// 0 where that is unavailable (the process ended, or no /proc).
func ProcessRSSMB(pid int) float64 {
	return procKB("/proc/"+strconv.Itoa(pid)+"/status", "VmRSS:") / 1024
}

// ResetPeakRSS returns the heap's free memory to the operating system and resets the
// process's peak resident set size (VmHWM) to the current one, where the kernel allows
// it (Linux's /proc/self/clear_refs), so that a later PeakRSSMB measures what came
// after. It reports whether the reset took effect.
func ResetPeakRSS() bool {
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// procKB reads the "key value kB" line of a /proc file; 0 when absent or unreadable.
func procKB(path, key string) float64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			if fields := strings.Fields(rest); len(fields) > 0 {
				if kb, err := strconv.ParseFloat(fields[0], 64); err == nil {
					return kb
				}
			}
			return 0
		}
	}
	return 0
}

// DefaultGCPercent is the garbage collector's target that TuneGC sets.
const DefaultGCPercent = 400

// TuneGC sets the garbage collector for training on the pure-Go backend, unless the
// user chose otherwise: where GOGC is unset it sets the GC percent to
// DefaultGCPercent, and where GOMEMLIMIT is unset it sets a soft memory limit of the
// process's MemoryBudget (three quarters of the machine's memory, less under a tight
// address-space limit, where a limit sized to the machine let the heap and the
// backend's buffer cache grow into a fatal out-of-memory error), so that the larger heap target (up to five times
// the live heap) gives way to more frequent collections before the process crowds out
// others. The pure-Go backend keeps the buffers a step releases for the next one
// within 90 % of that limit; a lower limit made large graphs thrash (a 5·10⁵-node
// graph at width 64 took 44 s a step under half the memory), a missing one let the
// collector return buffers to the operating system, which faulted them in again at
// every step. It changes process-wide settings: programs call it once at start,
// packages never do.
func TuneGC() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(DefaultGCPercent)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		if b := MemoryBudget(); b.Bytes > 0 {
			debug.SetMemoryLimit(b.Bytes)
		}
	}
}

// Heap headroom guards the pure-Go backend against reads past the end of buffers.
//
// With GOEXPERIMENT=simd, go1.27's simd/archsimd LoadFloat32x16Part (and the 8-lane
// variant) loads a whole vector and masks it afterwards, so the tail of a vector
// operation reads up to 60 bytes beyond its slice. Inside the Go heap that is harmless,
// except when a buffer ends exactly where the heap's mapped memory ends: then the read
// touches reserved, inaccessible address space and the process dies with SIGSEGV
// ("unexpected fault address"). The compute backend's SIMD kernels hit this now and
// then, for rows whose width is not a multiple of 16 floats.
//
// The heap maps memory as it grows and never unmaps it. ReserveHeapHeadroom allocates,
// once per process, one untouched block and drops it: the heap's mapped region then
// ends far beyond anything a run can use, so no live buffer ends next to inaccessible
// memory. The block is fresh memory from the operating system and is never written, so
// it costs address space, not resident memory — as long as the heap is fresh. Once a
// process has used and freed heap memory, the runtime may zero the block on allocation
// and touch all of it (measured: a test process that reserved it late grew past 17 GB),
// so it must be reserved when the program starts.

// headroomOnce makes ReserveHeapHeadroom act once per process.
var headroomOnce sync.Once

// headroomReserved is the size reserved by ReserveHeapHeadroom (0 before, or when the
// reservation was skipped).
var headroomReserved int64

// ReserveHeapHeadroom reserves the heap headroom described above, sized by
// HeadroomBytes, and returns the number of bytes reserved (0 when it was skipped:
// unknown memory size, strict overcommit, or an address-space limit too tight for it).
// Later calls do nothing and return the first call's size. Call it first thing in
// main, before the heap has grown.
func ReserveHeapHeadroom() int64 {
	headroomOnce.Do(func() {
		size := HeadroomBytes(memTotalBytes(), addressSpaceLimit(), vmSizeBytes(), strictOvercommit())
		if size <= 0 {
			return
		}
		block := make([]byte, size)
		runtime.KeepAlive(block)
		block = nil
		runtime.GC()
		debug.FreeOSMemory()
		headroomReserved = size
	})
	return headroomReserved
}

// minHeadroom is the smallest reservation worth making; below it the guard is skipped.
const minHeadroom = 1 << 30

// HeadroomBytes returns the size of the heap headroom for a machine with memTotal bytes
// of memory, an address-space limit of asLimit bytes (≤ 0: none) of which the process
// already maps vmSize, and the kernel's overcommit policy: three quarters of the
// memory, capped at three quarters of the address space the limit still leaves (the
// rest stays for stacks, the runtime and anything mapped outside the heap), and 0 —
// no reservation — when memory is unknown, overcommit is strict (the reservation would
// count against the commit limit) or less than minHeadroom would fit. An allocation
// the limit refuses is fatal in Go, so the limit is checked before, never tried.
func HeadroomBytes(memTotal, asLimit, vmSize int64, strict bool) int64 {
	if memTotal <= 0 || strict {
		return 0
	}
	size := memTotal / 4 * 3
	if asLimit > 0 {
		size = min(size, max(0, asLimit-vmSize)/4*3)
	}
	if size < minHeadroom {
		return 0
	}
	return size
}

// strictOvercommit tells whether the kernel refuses to overcommit memory
// (vm.overcommit_memory = 2), where reserving untouched memory would count against the
// commit limit and could fail.
func strictOvercommit() bool {
	b, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err == nil && strings.TrimSpace(string(b)) == "2"
}

// vmSizeBytes returns the address space the process maps now (VmSize), or 0.
func vmSizeBytes() int64 { return int64(procKB("/proc/self/status", "VmSize:") * 1024) }

// SetGCPercentUnlessSet sets the garbage collector's target percent, unless the GOGC
// environment variable chose one.
func SetGCPercentUnlessSet(percent int) {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(percent)
	}
}

// Machine describes this machine as records and timings name it: the OS/architecture,
// the CPU count, the CPU model (from /proc/cpuinfo where readable) and the vector
// instructions of the go backend's kernels (SIMDKernels, where there are any), as in
// "linux/amd64, 2 CPUs, AMD EPYC, AVX2". Two CPUs of one model name can differ in the
// last (a virtual machine's name hides the generation), and so can the speed of the
// same run. It reads /proc/cpuinfo once a process (every epoch's log line names it).
func Machine() string { return machine() }

// machine is Machine's description, made on first use: nothing it reads changes while
// the process runs.
var machine = sync.OnceValue(describeMachine)

// describeMachine makes Machine's description.
func describeMachine() string {
	parts := []string{fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				parts = append(parts, strings.TrimSpace(v))
				break
			}
		}
	}
	if isa := SIMDKernels(); isa != "" {
		parts = append(parts, isa)
	}
	return strings.Join(parts, ", ")
}
