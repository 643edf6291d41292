package layers

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// EnsureHeapHeadroom guards the pure-Go backend against a read past the end of buffers.
//
// With GOEXPERIMENT=simd, go1.27's simd/archsimd LoadFloat32x16Part (and the 8-lane
// variant) loads a whole vector and masks it afterwards, so the tail of a vector
// operation reads up to 60 bytes beyond its slice. Inside the Go heap that is harmless,
// except when a buffer ends exactly where the heap's mapped memory ends: then the read
// touches reserved, inaccessible address space and the process dies with SIGSEGV
// ("unexpected fault address"). The compute backend's SIMD kernels hit this now and
// then, for rows whose width is not a multiple of 16 floats.
//
// The heap maps memory as it grows and never unmaps it. EnsureHeapHeadroom allocates,
// once per process, one untouched block of three quarters of the machine's memory and
// drops it: the heap's mapped region then ends far beyond anything a run can use, so no
// live buffer ends next to inaccessible memory. The block is fresh memory from the
// operating system and is never written, so it costs address space, not resident
// memory. gexph.NewBackend and RunStepBenchmark call it; call it yourself before
// creating a backend by other means.
func EnsureHeapHeadroom() {
	headroomOnce.Do(func() {
		size := memTotalBytes() / 4 * 3
		if size <= 0 || strictOvercommit() {
			return
		}
		block := make([]byte, size)
		runtime.KeepAlive(block)
		block = nil
		runtime.GC()
		debug.FreeOSMemory()
	})
}

var headroomOnce sync.Once

// strictOvercommit tells whether the kernel refuses to overcommit memory
// (vm.overcommit_memory = 2), where reserving untouched memory would count against the
// commit limit and could fail.
func strictOvercommit() bool {
	b, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err == nil && strings.TrimSpace(string(b)) == "2"
}

// memTotalBytes returns MemTotal from /proc/meminfo, or 0 when unknown.
func memTotalBytes() int { return int(procKB("/proc/meminfo", "MemTotal:") * 1024) }

// PeakRSSMB returns the process's peak resident set size (VmHWM of /proc/self/status)
// in MiB, or 0 where that is unavailable.
func PeakRSSMB() float64 { return procKB("/proc/self/status", "VmHWM:") / 1024 }

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
