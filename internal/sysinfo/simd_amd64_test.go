//go:build goexperiment.simd && linux

package sysinfo

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// cpuFlags returns the flags of the first processor in /proc/cpuinfo.
func cpuFlags(t *testing.T) []string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			return strings.Fields(v)
		}
	}
	t.Skip("no flags line in /proc/cpuinfo")
	return nil
}

func TestSIMDKernelsAgreeWithTheKernelsCPUFlags(t *testing.T) {
	flags := cpuFlags(t)
	want := ""
	switch {
	case slices.Contains(flags, "avx512f") && !strings.Contains(os.Getenv("GODEBUG"), "cpu.avx512f=off"):
		want = "AVX-512"
	case slices.Contains(flags, "avx2"):
		want = "AVX2"
	}
	if got := SIMDKernels(); got != want {
		t.Errorf("SIMDKernels() = %q; the CPU's flags (avx512f %v, avx2 %v) and GODEBUG %q say %q",
			got, slices.Contains(flags, "avx512f"), slices.Contains(flags, "avx2"), os.Getenv("GODEBUG"), want)
	}
}
