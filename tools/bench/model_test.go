package bench

import (
	"math"
	"strings"
	"testing"
)

func TestRunModelBenchmarkReportsTheBatchAndItsSteps(t *testing.T) {
	for _, c := range []ModelBenchConfig{
		{Preset: "demo", Set: `{"layers":1,"hidden_dim":8,"heads":2}`, Batch: 4, Steps: 2},
		{Preset: "scaling", Dataset: "planted:500", Set: `{"layers":1,"hidden_dim":8}`, Steps: 2},
	} {
		res, err := RunModelBenchmark(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Preset, err)
		}
		wantGraphs := c.Batch
		if c.Preset == "scaling" {
			wantGraphs = 1
			if res.Nodes != 500 {
				t.Errorf("scaling: %d nodes, want the whole graph of 500", res.Nodes)
			}
		}
		if res.Graphs != wantGraphs || res.Nodes <= 0 || res.Edges <= 0 || res.InteractionEdges < res.Edges || res.Params <= 0 {
			t.Errorf("%s: batch %+v", c.Preset, res)
		}
		if len(res.StepMs) != c.Steps || !(res.MsPerStep > 0) || !(res.ForwardMs > 0) || math.IsNaN(res.Loss) {
			t.Errorf("%s: steps %v, median %v, forward %v, loss %v", c.Preset, res.StepMs, res.MsPerStep, res.ForwardMs, res.Loss)
		}
		if got, want := res.GraphsPerSec, float64(res.Graphs)/(res.MsPerStep/1000); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: %v graphs/s, want %v", c.Preset, got, want)
		}
		if !(res.PeakRSSMB > 0) {
			t.Errorf("%s: peak %v MiB", c.Preset, res.PeakRSSMB)
		}
	}
}

func TestRunModelBenchmarkErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  ModelBenchConfig
		want string
	}{
		{ModelBenchConfig{Preset: "nonexistent"}, "unknown name"},
		{ModelBenchConfig{Preset: "demo", Set: `{"layer":1}`}, "unknown field"},
		{ModelBenchConfig{Preset: "scaling"}, "planted"},
		{ModelBenchConfig{Preset: "demo", Steps: -1}, "Steps"},
		{ModelBenchConfig{Preset: "demo", Dataset: "nosuchset"}, "unknown data set"},
	} {
		if _, err := RunModelBenchmark(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one mentioning %q", c.cfg, err, c.want)
		}
	}
}

// BenchmarkModelStep times one training step (forward, backward, AdamW) of a preset's whole
// model, as `gexph bench -case model` does: PATTERN's 32 generated graphs, CLUSTER's 16, and
// the scaling preset at width 64 on a planted-partition graph of 10⁵ nodes.
func BenchmarkModelStep(b *testing.B) {
	for _, c := range []ModelBenchConfig{
		{Preset: "pattern"},
		{Preset: "cluster"},
		{Preset: "scaling", Dataset: "planted:100000", Set: `{"hidden_dim":64}`},
	} {
		b.Run(c.Preset, func(b *testing.B) {
			c.Steps = b.N
			res, err := RunModelBenchmark(c)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(res.MsPerStep, "ms/step")
			b.ReportMetric(res.ForwardMs, "fwd-ms")
			b.ReportMetric(res.PeakRSSMB, "peakMB")
			b.ReportMetric(0, "ns/op")
		})
	}
}
