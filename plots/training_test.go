package plots

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// epochStats has the JSON fields of the training log's lines.
type epochStats struct {
	Epoch          int      `json:"epoch"`
	TrainLoss      float64  `json:"train_loss"`
	TrainMetric    float64  `json:"train_metric"`
	ValLoss        float64  `json:"val_loss"`
	ValMetric      float64  `json:"val_metric"`
	TestMetric     *float64 `json:"test_metric,omitempty"`
	Best           bool     `json:"best,omitempty"`
	LR             float64  `json:"lr"`
	Seconds        float64  `json:"seconds"`
	ExamplesPerSec float64  `json:"examples_per_sec"`
}

func testHistory(epochs int) []epochStats {
	var h []epochStats
	for e := 1; e <= epochs; e++ {
		x := float64(e)
		s := epochStats{Epoch: e, TrainLoss: 2*math.Exp(-x/4) + 0.1, TrainMetric: 1 - math.Exp(-x/3),
			ValLoss: 2*math.Exp(-x/5) + 0.2, ValMetric: 0.9 - 0.7*math.Exp(-x/4), LR: 1e-3, Seconds: 1.5,
			ExamplesPerSec: 1000 + x}
		if e%3 == 0 {
			test := 0.8 + x/100
			s.TestMetric, s.Best = &test, true
		}
		h = append(h, s)
	}
	return h
}

// writeLog writes lines to a log file and returns its path.
func writeLog(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkRecords compares records with the history they came from.
func checkRecords(t *testing.T, got []map[string]float64, want []epochStats) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, s := range want {
		r := got[i]
		for key, v := range map[string]float64{"epoch": float64(s.Epoch), "train_loss": s.TrainLoss,
			"train_metric": s.TrainMetric, "val_loss": s.ValLoss, "val_metric": s.ValMetric, "lr": s.LR,
			"seconds": s.Seconds, "examples_per_sec": s.ExamplesPerSec} {
			if r[key] != v {
				t.Errorf("record %d: %s = %v, want %v", i, key, r[key], v)
			}
		}
		if tm, ok := r["test_metric"]; ok != (s.TestMetric != nil) || (ok && tm != *s.TestMetric) {
			t.Errorf("record %d: test_metric = %v (present %v), want %v", i, tm, ok, s.TestMetric)
		}
		if best, ok := r["best"]; ok != s.Best || (ok && best != 1) {
			t.Errorf("record %d: best = %v (present %v), want %v", i, best, ok, s.Best)
		}
	}
}

func TestReadTrainingLog(t *testing.T) {
	history := testHistory(7)
	var lines []string
	for i, s := range history {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
		if i == 2 {
			lines = append(lines, "   ") // blank lines are skipped
		}
	}
	records, err := ReadTrainingLog(writeLog(t, lines...))
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, records, history)

	// Non-numeric fields are left out, false is 0.
	records, err = ReadTrainingLog(writeLog(t, `{"epoch": 1, "phase": "train", "best": false, "x": null, "v": [1]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 || len(records[0]) != 2 || records[0]["epoch"] != 1 || records[0]["best"] != 0 {
		t.Errorf("records = %v, want epoch 1 and best 0 only", records)
	}
	// An empty log has no records.
	if records, err := ReadTrainingLog(writeLog(t)); err != nil || len(records) != 0 {
		t.Errorf("empty log: %v, %v", records, err)
	}
}

func TestReadTrainingLogErrorsNameFileAndLine(t *testing.T) {
	good := `{"epoch": 1, "train_loss": 0.5}`
	for name, c := range map[string]struct {
		lines []string
		line  int
	}{
		"broken JSON":   {[]string{good, good, `{"epoch": 3, "train_loss": }`}, 3},
		"array":         {[]string{good, `[1, 2]`}, 2},
		"null":          {[]string{`null`}, 1},
		"number":        {[]string{good, "", `42`}, 3},
		"trailing text": {[]string{`{"epoch": 1} {"epoch": 2}`}, 1},
		"long line":     {[]string{good, `{"x": "` + strings.Repeat("a", maxLogLine) + `"}`}, 2},
	} {
		path := writeLog(t, c.lines...)
		_, err := ReadTrainingLog(path)
		if want := fmt.Sprintf("%s:%d:", path, c.line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to name %s", name, err, want)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	if _, err := ReadTrainingLog(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v, want it to name the file", err)
	}
}

func TestEpochRecords(t *testing.T) {
	history := testHistory(5)
	records, err := EpochRecords(history)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, records, history)
	// Pointers to structs and maps work too; anything that is not an array of
	// objects is an error.
	if r, err := EpochRecords([]*epochStats{&history[0]}); err != nil || r[0]["epoch"] != 1 {
		t.Errorf("pointers: %v, %v", r, err)
	}
	var none []epochStats
	if r, err := EpochRecords(none); err != nil || len(r) != 0 {
		t.Errorf("nil history: %v, %v, want no records", r, err)
	}
	for name, v := range map[string]any{
		"number":     3,
		"one struct": history[0],
		"numbers":    []int{1, 2},
		"nil item":   []*epochStats{nil},
		"channel":    []chan int{make(chan int)},
	} {
		if _, err := EpochRecords(v); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestTrainingCurves(t *testing.T) {
	records, err := EpochRecords(testHistory(12))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		keys  []string
		logY  bool
		label string
	}{
		{nil, false, "loss"},
		{nil, true, "loss"},
		{[]string{"train_metric", "val_metric", "test_metric"}, false, "metric"},
		{[]string{"lr"}, false, "lr"},
		{[]string{"val_loss", "val_metric"}, false, "value"},
	} {
		p, err := TrainingCurves(records, c.keys, c.logY)
		if err != nil {
			t.Fatalf("keys %v: %v", c.keys, err)
		}
		if p.Y.Label.Text != c.label {
			t.Errorf("keys %v: y label %q, want %q", c.keys, p.Y.Label.Text, c.label)
		}
		s := renderPNG(t, p, 6, 4, 100)
		requireColour(t, s, "first curve", 0x1f77b4, 100)
		keys := c.keys
		if keys == nil {
			keys = []string{"train_loss", "val_loss"}
		}
		if len(keys) > 1 {
			requireColour(t, s, "second curve", 0xff7f0e, 100)
		}
		texts := renderSVG(t, p)
		for _, k := range keys {
			// The legend names what differs between the keys, the axis what they share.
			requireText(t, texts, strings.TrimSuffix(k, "_"+c.label))
		}
	}
	// The x axis follows the epoch field, or the position without one.
	shifted := []map[string]float64{{"epoch": 10, "train_loss": 1, "val_loss": 2}, {"epoch": 20, "train_loss": 0.5, "val_loss": 1}}
	p, err := TrainingCurves(shifted, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 10 || p.X.Max != 20 {
		t.Errorf("x axis spans %g to %g, want the epochs 10 to 20", p.X.Min, p.X.Max)
	}
	delete(shifted[1], "epoch")
	if p, err = TrainingCurves(shifted, nil, false); err != nil || p.X.Min != 1 || p.X.Max != 2 {
		t.Errorf("records without epochs: x axis %g to %g (%v), want positions 1 to 2", p.X.Min, p.X.Max, err)
	}

	for name, c := range map[string]struct {
		records []map[string]float64
		keys    []string
		logY    bool
	}{
		"no records":   {nil, nil, false},
		"no keys":      {records, []string{}, false},
		"missing key":  {records, []string{"accuracy"}, false},
		"NaN value":    {[]map[string]float64{{"train_loss": math.NaN()}}, []string{"train_loss"}, false},
		"log of zeros": {[]map[string]float64{{"train_loss": 0}}, []string{"train_loss"}, true},
	} {
		if _, err := TrainingCurves(c.records, c.keys, c.logY); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// Comparison draws each variant's dot in its colour with its value and error at the
// precision of the errors, on an axis zoomed to the data (not from zero).
func TestComparisonDotsOnAZoomedAxis(t *testing.T) {
	labels := []string{"all", "no-local", "no-expander", "no-global"}
	means := []float64{91.58, 90.31, 91.12, 91.45}
	errs := []float64{0.2, 0.41, 0.3, 0.25}
	p, err := Comparison(labels, means, errs, "test accuracy")
	if err != nil {
		t.Fatal(err)
	}
	s := renderPNG(t, p, 6, 4, 100)
	for i := range labels {
		c := seriesColor(i).(interface{ RGBA() (r, g, b, a uint32) })
		r, g, b, _ := c.RGBA()
		requireColour(t, s, "dot "+labels[i], uint32(r>>8)<<16|uint32(g>>8)<<8|uint32(b>>8), 20)
	}
	texts := renderSVG(t, p)
	for i, l := range labels {
		requireText(t, texts, l)
		requireText(t, texts, fmt.Sprintf("%.2f ± %.2f", means[i], errs[i]))
	}
	requireText(t, texts, "test accuracy")
	if p.Y.Min < 89 || p.Y.Max > 93 {
		t.Errorf("y axis [%v, %v]: want it zoomed to the data, about [89.9, 92.0]", p.Y.Min, p.Y.Max)
	}
	// Without errors, and with negative values.
	if _, err := Comparison(labels[:2], []float64{-1, 2}, nil, "Δ"); err != nil {
		t.Errorf("no errors, negative mean: %v", err)
	}
	for name, c := range map[string]struct {
		labels      []string
		means, errs []float64
	}{
		"no labels":      {nil, nil, nil},
		"means mismatch": {labels, means[:2], nil},
		"errs mismatch":  {labels, means, errs[:3]},
		"NaN mean":       {labels[:1], []float64{math.NaN()}, nil},
		"negative error": {labels[:1], []float64{1}, []float64{-0.1}},
		"infinite error": {labels[:1], []float64{1}, []float64{math.Inf(1)}},
	} {
		if _, err := Comparison(c.labels, c.means, c.errs, "y"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
