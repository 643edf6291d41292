package gexph

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
)

// wayCase is a short run of one way of running: batches of graphs (with and without a
// padding plan and prefetching), one whole transductive graph, sampled mini-batches with
// layer-wise evaluation, and Spexphormer's per-layer graphs.
type wayCase struct {
	name string
	ds   func(t *testing.T) *data.Dataset
	cfg  func() Config
	// opts returns the run's options and those of the model that evaluates and predicts.
	opts func(t *testing.T, ds *data.Dataset) (TrainOptions, ModelOptions)
}

func wayCases() []wayCase {
	none := func(*testing.T, *data.Dataset) (TrainOptions, ModelOptions) { return TrainOptions{}, ModelOptions{} }
	return []wayCase{
		{"graphs", func(*testing.T) *data.Dataset { return tinyNodeDataset(20, 1) }, tinyConfig, none},
		{"graphs, plan and prefetch", func(*testing.T) *data.Dataset { return tinyGraphDataset(data.GraphRegression, 24, 2) },
			func() Config {
				c := tinyConfig()
				c.Metric = MetricMAE
				return c
			}, func(*testing.T, *data.Dataset) (TrainOptions, ModelOptions) {
				return TrainOptions{Padding: "plan", Prefetch: 2}, ModelOptions{Padding: "plan", Prefetch: 2}
			}},
		{"whole graph", func(*testing.T) *data.Dataset { return tinyTransductiveDataset(4) }, tinyConfig, none},
		{"sampled", func(t *testing.T) *data.Dataset { return plantedDataset(t, 300) }, func() Config {
			c := miniConfig()
			c.BatchNodes, c.EvalChunkNodes, c.Fanout = 64, 100, "local=5,expander=2,global-in=16,global-out=all"
			return c
		}, none},
		{"per-layer graphs", func(t *testing.T) *data.Dataset { return plantedDataset(t, 300) }, func() Config {
			c := miniConfig()
			c.SparseAttentionK = 3
			return c
		}, func(t *testing.T, ds *data.Dataset) (TrainOptions, ModelOptions) {
			dir := t.TempDir()
			stage1 := EstimatorConfig(miniConfig())
			if _, err := Train(context.Background(), stage1, ds, TrainOptions{OutDir: dir}); err != nil {
				t.Fatal(err)
			}
			scoresFrom := filepath.Join(dir, BestCheckpointFile)
			scores, err := LoadAttentionScores(context.Background(), scoresFrom, ds, ModelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			lg, err := scores.Sparsify(3, miniConfig().Seed)
			if err != nil {
				t.Fatal(err)
			}
			return TrainOptions{ScoresFrom: scoresFrom}, ModelOptions{LayerGraphs: lg}
		}},
	}
}

// wayNumbers runs c for its config's epochs and returns every epoch's losses and
// metrics, then the loss and metric of each split as Evaluate gives them from best.ckpt,
// then the sum of Predict's scores over every example.
func wayNumbers(t *testing.T, c wayCase) []float64 {
	t.Helper()
	ds := c.ds(t)
	opts, mopts := c.opts(t, ds)
	opts.OutDir = t.TempDir()
	res, err := Train(context.Background(), c.cfg(), ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, st := range res.History {
		got = append(got, st.TrainLoss, st.TrainMetric, st.ValLoss, st.ValMetric)
		if st.TestMetric != nil {
			got = append(got, *st.TestMetric)
		}
	}
	ckpt := filepath.Join(opts.OutDir, BestCheckpointFile)
	ev, err := Evaluate(context.Background(), ckpt, ds, mopts)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, ev.Train.Loss, ev.Train.Metric, ev.Val.Loss, ev.Val.Metric, ev.Test.Loss, ev.Test.Metric)
	preds, err := Predict(context.Background(), ckpt, ds, "all", mopts)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, p := range preds {
		for _, s := range p.Scores {
			sum += s
		}
	}
	return append(got, sum, float64(len(preds)))
}

// kernelProbe returns a hash of the outputs of a forward pass of a freshly built model
// (width 64) on a small graph: where the backend's kernels sum in another order (AVX2
// rather than AVX-512, arm64, no simd), the hash differs.
func kernelProbe(t *testing.T) uint64 {
	t.Helper()
	ds := tinyTransductiveDataset(4)
	cfg := miniConfig()
	cfg.HiddenDim, cfg.Heads = 64, 4
	m := newTestModel(t, cfg, ds, "")
	b, err := m.BuildBatch(ds, []int{0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Predict(b)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	for _, x := range out {
		bits := math.Float32bits(x)
		h.Write([]byte{byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24)})
	}
	return h.Sum64()
}

// wayProbe is kernelProbe on the machine that recorded wayGolden.
const wayProbe uint64 = 0xf085adc1818c2b5e

// wayGolden holds the numbers of each case (float64 bits), as the runs gave them on
// linux/amd64 (AVX-512, GOEXPERIMENT=simd, the pure-Go backend) before the ways of
// running became types of their own.
var wayGolden = map[string][]uint64{
	"graphs":                    {0x3fe8aaf41c000000, 0x3fe4000000000000, 0x3fee3a5bf764b868, 0x3fdee58469ee5847, 0x3fe294a5294a5295, 0x3fe542aabf555555, 0x3fe8aaaaaaaaaaab, 0x3fe8b8bb317dcb76, 0x3fdee58469ee5847, 0x3fe7edaf09c92049, 0x3fe8aaaaaaaaaaab, 0x3fee3a5bf764b868, 0x3fdee58469ee5847, 0x3fec48ba554d3828, 0x3fe294a5294a5295, 0x4063800000000000, 0x4063800000000000},
	"graphs, plan and prefetch": {0x3fe0234524924925, 0x3fe0234528db6db7, 0x3fd1fbd6a6666666, 0x3fd1fbd6a6666666, 0x3fd5f5c8d199999a, 0x3fd5ae0224924925, 0x3fd5ae021b6db6db, 0x3fcacb8666666666, 0x3fcacb8666666666, 0x3fd262e78199999a, 0x3fcabf8c50000000, 0x3fcabf8c50000000, 0x3fcacb8666666666, 0x3fcacb8666666666, 0x3fd262e78199999a, 0x3fd262e78199999a, 0x4033b9b120800000, 0x4038000000000000},
	"whole graph":               {0x3ff2b51040000000, 0x3fc5555555555555, 0x3ff1b6731549c912, 0x3fd999999999999a, 0x3fd5555555555555, 0x3ff19233e0000000, 0x3fd3333333333333, 0x3ff19a1ec4c660d2, 0x3fd999999999999a, 0x3fd5555555555555, 0x3ff19a4ec7e58e7e, 0x3fd1111111111111, 0x3ff1b6731549c912, 0x3fd999999999999a, 0x3ff181eacb24908a, 0x3fd5555555555555, 0x404e000000000004, 0x404e000000000000},
	"sampled":                   {0x3ff8579a416c16c1, 0x3fd4fa4fa4fa4fa5, 0x3ff73926365ddc6a, 0x3fd4444444444444, 0x3fd8888888888889, 0x3ff454d131c71c72, 0x3fe0b60b60b60b61, 0x3ff6405f999257c4, 0x3fd999999999999a, 0x3fdbbbbbbbbbbbbc, 0x3ff41227f5bae9f2, 0x3fe0888888888889, 0x3ff6405f999257c4, 0x3fd999999999999a, 0x3ff7e03a6de0f114, 0x3fdbbbbbbbbbbbbc, 0x4072c00000000001, 0x4072c00000000000},
	"per-layer graphs":          {0x3ff9803a00000000, 0x3fd1c71c71c71c72, 0x3ff986ee3efb4305, 0x3fd2222222222222, 0x3fd999999999999a, 0x3ff6c73380000000, 0x3fd8888888888889, 0x3ff85e05f8e087ea, 0x3fd3333333333333, 0x3fdbbbbbbbbbbbbc, 0x3ff5c23342cf62fd, 0x3fdbbbbbbbbbbbbc, 0x3ff85e05f8e087ea, 0x3fd3333333333333, 0x3ff8ced0bfff2900, 0x3fdbbbbbbbbbbbbc, 0x4072bffffffffff9, 0x4072c00000000000},
}

// TestEveryWayOfRunningKeepsItsLossesBitForBit checks that a short run of each way of
// running gives the per-epoch losses and metrics, the evaluation of its best checkpoint
// and its predictions that it gave when recorded, bit for bit. It runs where the kernels
// sum as on the recording machine (kernelProbe), and is skipped elsewhere.
func TestEveryWayOfRunningKeepsItsLossesBitForBit(t *testing.T) {
	if p := kernelProbe(t); p != wayProbe {
		t.Skipf("this machine's kernels sum in another order than the recording machine's (probe %#x, recorded %#x): the numbers hold bit for bit only there", p, wayProbe)
	}
	var record strings.Builder
	for _, c := range wayCases() {
		t.Run(c.name, func(t *testing.T) {
			got := wayNumbers(t, c)
			bits := make([]string, len(got))
			for i, x := range got {
				bits[i] = fmt.Sprintf("%#x", math.Float64bits(x))
			}
			fmt.Fprintf(&record, "\t%q: {%s},\n", c.name, strings.Join(bits, ", "))
			want, ok := wayGolden[c.name]
			if !ok {
				t.Errorf("no recorded numbers; got %v", got)
				return
			}
			if len(want) != len(got) {
				t.Fatalf("%d numbers, recorded %d: %v", len(got), len(want), got)
			}
			for i, w := range want {
				if math.Float64bits(got[i]) != w {
					t.Errorf("number %d: %v (%#x), recorded %v (%#x)", i, got[i], math.Float64bits(got[i]), math.Float64frombits(w), w)
				}
			}
		})
	}
	if t.Failed() {
		t.Logf("numbers of this run:\n%s", record.String())
	}
}
