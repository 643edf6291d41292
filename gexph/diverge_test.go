package gexph

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
)

// divergingConfig trains sanely in its first epoch (the warm-up's learning rate is
// 10⁻⁶ of the peak) and then, at a peak learning rate of 10⁵ with weight decay 1 (each
// AdamW step scales the weights by 1 − lr·wd ≈ −10⁵), drives the weights past float32's
// range within a few steps of the second epoch.
func divergingConfig() Config {
	c := tinyConfig()
	c.LearningRate, c.WeightDecay, c.GradClip = 1e5, 1, 0
	c.Epochs, c.WarmupEpochs = 4, 2
	return c
}

// A run whose loss diverges — in a step of graph batches, of a full-batch graph, of
// sampled node batches — stops with an error naming the epoch and step, logs that epoch
// (non-finite values as null, marked diverged, readable again), and leaves the
// checkpoints of the epochs before valid.
func TestDivergedRunStopsNamingEpochAndLogsIt(t *testing.T) {
	miniBatch := divergingConfig()
	miniBatch.MPNN, miniBatch.BatchNodes, miniBatch.Fanout = "gcn", 8, "local=4,expander=2,global=all"
	for _, tc := range []struct {
		name string
		cfg  Config
		ds   *data.Dataset
	}{
		{"graph batches", divergingConfig(), tinyGraphDataset(data.GraphClassification, 24, 3)},
		{"full-batch graph", divergingConfig(), tinyTransductiveDataset(3)},
		{"sampled node batches", miniBatch, tinyTransductiveDataset(3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Epochs = 40
			checkDivergedRun(t, tc.cfg, tc.ds)
		})
	}
}

func checkDivergedRun(t *testing.T, cfg Config, ds *data.Dataset) {
	dir := t.TempDir()
	_, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: dir})
	var d *DivergedError
	if !errors.As(err, &d) {
		t.Fatalf("Train: %v; want a DivergedError", err)
	}
	t.Logf("the run stopped with: %v", err)
	if d.Epoch < 2 || d.Step < 1 || !strings.Contains(err.Error(), "diverged") ||
		!strings.Contains(err.Error(), "epoch "+itoa(d.Epoch)) || finite(d.Loss) {
		t.Fatalf("error %q (%+v): want the non-finite loss located at epoch ≥ 2, a step ≥ 1", err, d)
	}
	lines := readLines(t, filepath.Join(dir, LogFile))
	if len(lines) != d.Epoch+1 { // the header and every epoch, the diverged one included
		t.Fatalf("log.jsonl has %d lines; want the header and %d epochs", len(lines), d.Epoch)
	}
	last := lines[len(lines)-1]
	var st EpochStats
	if err := json.Unmarshal([]byte(last), &st); err != nil {
		t.Fatalf("reading the diverged epoch back: %v (%s)", err, last)
	}
	if !st.Diverged || st.Epoch != d.Epoch || !strings.Contains(last, "null") {
		t.Errorf("diverged epoch logged as %s; want epoch %d, \"diverged\":true and null values", last, d.Epoch)
	}
	for _, name := range []string{LastCheckpointFile, BestCheckpointFile} {
		info, err := ReadCheckpointInfo(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s after divergence: %v", name, err)
		}
		if info.Epoch != d.Epoch-1 || info.BestEpoch < 1 || info.BestEpoch >= d.Epoch {
			t.Errorf("%s holds epoch %d, best %d; want epoch %d, the last before divergence, and a best before it", name, info.Epoch, info.BestEpoch, d.Epoch-1)
		}
	}
}

// EpochStats round-trips every float field through JSON, a non-finite one as null
// read back as NaN, and an absent one as 0 (logs of older versions).
func TestEpochStatsJSONNonFiniteAsNull(t *testing.T) {
	st := EpochStats{Epoch: 3, Diverged: true}
	j := &epochStatsJSON{}
	fields := st.floatFields(j)
	if n := countFloatFields(reflect.TypeOf(st)); len(fields) != n {
		t.Fatalf("floatFields lists %d fields; EpochStats has %d float64 fields", len(fields), n)
	}
	for i := range fields {
		*fields[i].v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[i%3]
	}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var back EpochStats
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	for i, f := range back.floatFields(&epochStatsJSON{}) {
		if !math.IsNaN(*f.v) {
			t.Errorf("float field %d read back as %v from %s; want NaN", i, *f.v, b)
		}
	}
	if !back.Diverged || back.Epoch != 3 {
		t.Errorf("read back %+v", back)
	}
	var old EpochStats
	if err := json.Unmarshal([]byte(`{"epoch":1,"train_loss":0.5,"val_loss":0.25,"val_metric":0.75,"lr":0.001,"seconds":2,"examples_per_sec":10}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.TrainLoss != 0.5 || old.TrainMetric != 0 || old.CPUSeconds != 0 || old.ExamplesPerSec != 10 || old.Diverged {
		t.Errorf("older log line read as %+v", old)
	}
}

func countFloatFields(t reflect.Type) int {
	n := 0
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() == reflect.Float64 {
			n++
		}
	}
	return n
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
