package bench

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gexph/gexph/internal/sysinfo"
)

// benchSizes are the benchmark graphs: N nodes and E = 12·N random edges.
var benchSizes = []struct {
	name string
	n, e int
}{
	{"N=1e4", 10_000, 120_000},
	{"N=1e5", 100_000, 1_200_000},
}

// runStepBench runs RunStepBenchmark for each size with b.N timed steps and reports
// the median step time, the median CPU time and the peak RSS.
func runStepBench(b *testing.B, benchCase string) {
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			res, err := RunStepBenchmark(StepBenchConfig{
				Case: benchCase, N: size.n, E: size.e, Hidden: 64, Heads: 4, Steps: b.N, Seed: 1,
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(res.MedianMs, "ms/step")
			b.ReportMetric(res.MedianCPUMs, "cpu-ms/step")
			b.ReportMetric(res.PeakRSSMB, "peakMB")
			b.ReportMetric(0, "ns/op")
			if testing.Verbose() {
				fmt.Printf("%s %s: median %.1f ms (CPU %.1f ms), warm-up %.1f ms, peak %.0f MiB, loss %.4g\n",
					benchCase, size.name, res.MedianMs, res.MedianCPUMs, res.WarmupMs, res.PeakRSSMB, res.Loss)
			}
		})
	}
}

// BenchmarkExphormerAttentionStep times one training step (forward, backward, AdamW) of
// one Exphormer attention layer, hidden 64, 4 heads.
func BenchmarkExphormerAttentionStep(b *testing.B) { runStepBench(b, BenchAttention) }

// BenchmarkGPSLayerStep times one training step of a GPS layer (GatedGCN + Exphormer
// attention + FFN, BatchNorm), hidden 64, 4 heads.
func BenchmarkGPSLayerStep(b *testing.B) { runStepBench(b, BenchGPS) }

func TestRunStepBenchmarkSmall(t *testing.T) {
	for _, c := range []string{BenchAttention, BenchGPS} {
		res, err := RunStepBenchmark(StepBenchConfig{Case: c, N: 40, E: 200, Hidden: 8, Heads: 2, Steps: 3, Seed: 2,
			RecomputeGathers: c == BenchGPS})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if len(res.StepMs) != 3 || len(res.StepCPUMs) != 3 || !(res.MedianMs > 0) || math.IsNaN(res.Loss) || res.Loss <= 0 {
			t.Errorf("%s: implausible result %+v", c, res)
		}
	}
}

func TestRunStepBenchmarkErrors(t *testing.T) {
	good := StepBenchConfig{Case: BenchAttention, N: 10, E: 20, Hidden: 8, Heads: 2, Steps: 1}
	bad := map[string]func(c *StepBenchConfig){
		"case":     func(c *StepBenchConfig) { c.Case = "mlp" },
		"nodes":    func(c *StepBenchConfig) { c.N = 0 },
		"edges":    func(c *StepBenchConfig) { c.E = -1 },
		"hidden":   func(c *StepBenchConfig) { c.Hidden = 0 },
		"heads":    func(c *StepBenchConfig) { c.Heads = 3 },
		"steps":    func(c *StepBenchConfig) { c.Steps = -2 },
		"backend":  func(c *StepBenchConfig) { c.Backend = "nonexistent" },
		"backend2": func(c *StepBenchConfig) { c.Backend = "go:bogus_option" },
	}
	for name, mutate := range bad {
		c := good
		mutate(&c)
		if _, err := RunStepBenchmark(c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// Every flag that sizes a step benchmark (-n, -e, -hidden) is estimated and, beyond the
// budget, refused with an error naming it before anything is allocated; bench -e 2·10⁹
// is refused on any machine rather than ending in a fatal out-of-memory error.
func TestStepBenchmarkRefusesSizesBeyondTheBudget(t *testing.T) {
	ok := StepBenchConfig{Case: BenchGPS, N: 1000, E: 12000, Hidden: 64, Heads: 4}
	budget := sysinfo.Budget{Bytes: 1 << 30, Bound: "a test budget"}
	if err := checkStepMemory(ok, budget); err != nil {
		t.Fatalf("1000 nodes, 12000 edges: %v", err)
	}
	for _, c := range []struct {
		name string
		mod  func(*StepBenchConfig)
		want string
	}{
		{"edges", func(c *StepBenchConfig) { c.E = 2_000_000_000 }, "-e 2000000000"},
		{"nodes", func(c *StepBenchConfig) { c.N = 100_000_000 }, "-n 100000000"},
		{"hidden", func(c *StepBenchConfig) { c.Hidden = 1 << 20 }, "-hidden 1048576"},
	} {
		cfg := ok
		c.mod(&cfg)
		err := checkStepMemory(cfg, budget)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "more than the 1.0 GiB available (a test budget)") {
			t.Errorf("%s: %v, want a refusal naming %q and the budget", c.name, err, c.want)
		}
	}
	if sysinfo.MemoryBudget().Bytes == 0 {
		t.Skip("memory size unknown")
	}
	huge := ok
	huge.E = 2_000_000_000
	if _, err := RunStepBenchmark(huge); err == nil || !strings.Contains(err.Error(), "-e 2000000000") {
		t.Errorf("RunStepBenchmark with 2·10⁹ edges: %v, want a refusal", err)
	}
}
