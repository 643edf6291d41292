package bench

import (
	"fmt"
	"math"
	"testing"
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
