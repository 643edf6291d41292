package suite

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
)

// writeFullLog writes root/full/NAME/log.jsonl: a header and the given epochs.
func writeFullLog(t *testing.T, root, name string, hdr gexph.LogHeader, epochs []gexph.EpochStats) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if err := enc.Encode(hdr); err != nil {
		t.Fatal(err)
	}
	for _, st := range epochs {
		if err := enc.Encode(st); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, FullBudgetDir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFullBudgetSectionReportsTheBestEpochSoFar checks that a run still going is shown
// with the epochs it finished, the best validation epoch's figures (not the last
// epoch's), the paper's figure and a link to its checkpoint relative to the report.
func TestFullBudgetSectionReportsTheBestEpochSoFar(t *testing.T) {
	root := filepath.Join(t.TempDir(), "docs", "results")
	f := func(x float64) *float64 { return &x }
	hdr := gexph.LogHeader{Dataset: "pattern", Preset: "pattern-ref", Metric: gexph.MetricWeightedAccuracy, Seed: 1,
		Config: gexph.Config{Epochs: 120}}
	writeFullLog(t, root, "pattern", hdr, []gexph.EpochStats{
		{Epoch: 1, ValMetric: 0.70, TestMetric: f(0.69), Best: true, Seconds: 300},
		{Epoch: 2, ValMetric: 0.85, TestMetric: f(0.8512), Best: true, Seconds: 200},
		{Epoch: 3, ValMetric: 0.84, TestMetric: f(0.86), Seconds: 210},
	})
	if err := os.MkdirAll(filepath.Join(root, "checkpoints"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "checkpoints", "pattern-full.ckpt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeFullBudgetSection(&out, root, filepath.Dir(root)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"## Full training sets", "| pattern | pattern-ref | 1 | 3 of 120 (in progress) | 2 | 85.00 | 85.12 | 86.74 ± 0.015 | 205 |",
		"[pattern-full.ckpt](results/checkpoints/pattern-full.ckpt)"} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
}

// TestFullBudgetSectionNamesABadLine checks that a damaged log is an error naming the
// file and line, and that no records write no section.
func TestFullBudgetSectionNamesABadLine(t *testing.T) {
	root := t.TempDir()
	var out bytes.Buffer
	if err := writeFullBudgetSection(&out, root, root); err != nil || out.Len() != 0 {
		t.Fatalf("no records: %v, %q", err, out.String())
	}
	writeFullLog(t, root, "pattern", gexph.LogHeader{Dataset: "pattern"}, nil)
	p := filepath.Join(root, FullBudgetDir, "pattern", "log.jsonl")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(data, []byte("{\"epoch\": oops}\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeFullBudgetSection(&out, root, root)
	if err == nil || !strings.Contains(err.Error(), "log.jsonl: line 2") {
		t.Errorf("damaged log: %v", err)
	}
}
