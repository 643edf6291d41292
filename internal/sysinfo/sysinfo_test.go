package sysinfo

import "testing"

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
