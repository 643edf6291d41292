package sysinfo

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestHeadroomBytesRespectsMemoryAndAddressSpaceLimits(t *testing.T) {
	const gib = int64(1) << 30
	cases := []struct {
		name           string
		mem, limit, vm int64
		strict         bool
		want           int64
	}{
		{"no limit: three quarters of memory", 24 * gib, 0, gib, false, 18 * gib},
		{"loose limit: memory decides", 24 * gib, 100 * gib, gib, false, 18 * gib},
		{"16 GB limit: three quarters of what is left", 24 * gib, 16 * gib, 4 * gib, false, 9 * gib},
		{"limit nearly used up: skipped", 24 * gib, 2 * gib, gib, false, 0},
		{"limit below what is mapped: skipped", 24 * gib, gib, 2 * gib, false, 0},
		{"strict overcommit: skipped", 24 * gib, 0, gib, true, 0},
		{"unknown memory: skipped", 0, 0, gib, false, 0},
	}
	for _, c := range cases {
		if got := HeadroomBytes(c.mem, c.limit, c.vm, c.strict); got != c.want {
			t.Errorf("%s: HeadroomBytes = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestProcessFiguresArePlausible(t *testing.T) {
	if MemTotalMB() == 0 {
		t.Skip("no /proc/meminfo")
	}
	if PeakRSSMB() <= 0 || ProcessCPUSeconds() < 0 {
		t.Errorf("peak RSS %.1f MiB, CPU %.3f s", PeakRSSMB(), ProcessCPUSeconds())
	}
}

// The budget is three quarters of the memory, or, under a tighter address-space
// limit, three quarters of what the limit leaves after what is mapped (less the heap's
// idle part) and asReserve; a used-up limit leaves a budget of one byte, never the
// "unknown" 0.
func TestBudgetOfTakesTheTighterOfMemoryAndAddressSpace(t *testing.T) {
	const gib = int64(1) << 30
	cases := []struct {
		name                 string
		mem, limit, vm, idle int64
		want                 int64
		bound                string
	}{
		{"no limit", 24 * gib, 0, gib, 0, 18 * gib, "machine"},
		{"loose limit", 24 * gib, 100 * gib, gib, 0, 18 * gib, "machine"},
		{"tight limit", 24 * gib, 3 * gib, gib + gib/2, gib / 2, (2*gib - asReserve) / 4 * 3, "ulimit -v"},
		{"limit used up", 24 * gib, gib, 2 * gib, 0, 1, "ulimit -v"},
		{"unknown memory, limit", 0, 3 * gib, gib, 0, (2*gib - asReserve) / 4 * 3, "ulimit -v"},
		{"unknown memory, no limit", 0, 0, gib, 0, 0, ""},
	}
	for _, c := range cases {
		b := BudgetOf(c.mem, c.limit, c.vm, c.idle)
		if b.Bytes != c.want || !strings.Contains(b.Bound, c.bound) {
			t.Errorf("%s: BudgetOf = %+v, want %d bytes bounded by %q", c.name, b, c.want, c.bound)
		}
	}
}

func TestBudgetRefusesOnlyWhatExceedsIt(t *testing.T) {
	b := Budget{Bytes: 1 << 30, Bound: "a test"}
	if err := b.Refuse("x", 1<<29); err != nil {
		t.Errorf("half the budget refused: %v", err)
	}
	err := b.Refuse("the weights", 3<<30)
	if err == nil || !strings.Contains(err.Error(), "the weights needs about 3.0 GiB of memory, more than the 1.0 GiB available (a test)") {
		t.Errorf("three times the budget: %v", err)
	}
	if err := (Budget{}).Refuse("x", 1e18); err != nil {
		t.Errorf("unknown budget refused: %v", err)
	}
}

func TestFormatBytesUsesMiBBelowAGiB(t *testing.T) {
	for b, want := range map[float64]string{300 << 20: "300 MiB", 1 << 30: "1.0 GiB", 3.5 * (1 << 30): "3.5 GiB"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%v) = %q, want %q", b, got, want)
		}
	}
}

func TestMachineNamesTheCPUCountAndTheSIMDKernels(t *testing.T) {
	m := Machine()
	if !strings.HasPrefix(m, fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())) {
		t.Errorf("Machine() = %q: no OS, architecture and CPU count first", m)
	}
	isa := SIMDKernels()
	if isa != "" && !strings.HasSuffix(m, ", "+isa) {
		t.Errorf("Machine() = %q: does not end with the SIMD kernels %q", m, isa)
	}
	if isa == "" && (strings.HasSuffix(m, "AVX2") || strings.HasSuffix(m, "AVX-512")) {
		t.Errorf("Machine() = %q names SIMD kernels this build does not have", m)
	}
}
