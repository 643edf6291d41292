package gexph

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/gexph/gexph/internal/logfile"
)

// TestCSVLogColumnsAreTheEpochJSON checks log.csv against log.jsonl's encoding of the
// same epoch: the same names, and each cell the same value (an absent test metric an
// empty cell), so that the two logs cannot drift apart.
func TestCSVLogColumnsAreTheEpochJSON(t *testing.T) {
	test := 0.625
	for _, st := range []EpochStats{
		{Epoch: 3, TrainLoss: 0.5, TrainMetric: 0.75, ValLoss: 0.25, ValMetric: 0.875, TestMetric: &test, Best: true,
			LR: 1e-3, Seconds: 12.5, CPUSeconds: 20, ExamplesPerSec: 80, Diverged: true, Backend: "xla:cuda,tf32=false",
			Machine: "linux/amd64, 2 CPUs, AMD EPYC, AVX2"},
		{Epoch: 1, TrainLoss: 1, ValLoss: 2, LR: 0.1},
	} {
		raw, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]any
		if err := json.Unmarshal(raw, &fields); err != nil {
			t.Fatal(err)
		}
		cols, row := logfile.CSVColumns[EpochStats](), logfile.CSVRow(st)
		if len(cols) != len(row) {
			t.Fatalf("%d columns, %d cells", len(cols), len(row))
		}
		for i, name := range cols {
			v, ok := fields[name]
			switch x := v.(type) {
			case nil:
				if ok || row[i] != "" && row[i] != "false" {
					t.Errorf("%s: cell %q, JSON %v (present %v)", name, row[i], v, ok)
				}
			case float64:
				if got, err := strconv.ParseFloat(row[i], 64); err != nil || got != x {
					t.Errorf("%s: cell %q, JSON %v", name, row[i], x)
				}
			case bool:
				if row[i] != strconv.FormatBool(x) {
					t.Errorf("%s: cell %q, JSON %v", name, row[i], x)
				}
			case string:
				if row[i] != x {
					t.Errorf("%s: cell %q, JSON %q", name, row[i], x)
				}
			}
		}
		if len(fields) > len(cols) {
			t.Errorf("JSON has %d fields, log.csv %d columns", len(fields), len(cols))
		}
	}
}
