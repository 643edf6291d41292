package suite

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
)

func TestSearchGridRuns(t *testing.T) {
	sg := SearchGrid{Dataset: "cs", Seed: 1, Overrides: `{"dropout":0.2}`, Axes: []SearchAxis{
		{Field: "lr", Values: []any{1e-3, 3e-3}}, {Field: "epochs", Values: []any{70, 150}}}}
	runs, err := sg.Runs()
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"cs_search_lr0.001-e70_s1", "cs_search_lr0.001-e150_s1", "cs_search_lr0.003-e70_s1", "cs_search_lr0.003-e150_s1"}
	if len(runs) != len(wantNames) {
		t.Fatalf("%d runs, want %d", len(runs), len(wantNames))
	}
	for i, r := range runs {
		if r.Name != wantNames[i] || r.Preset != "cs" || r.Seed != 1 {
			t.Errorf("run %d: %+v, want name %s", i, r, wantNames[i])
		}
		cfg, err := r.config()
		if err != nil {
			t.Fatal(err)
		}
		wantLR, wantEpochs := sg.Axes[0].Values[i/2].(float64), sg.Axes[1].Values[i%2].(int)
		if cfg.LearningRate != wantLR || cfg.Epochs != wantEpochs || cfg.Dropout != 0.2 || cfg.HiddenDim != 72 {
			t.Errorf("%s: lr %g epochs %d dropout %g hidden %d, want %g %d 0.2 72 (the cs preset)",
				r.Name, cfg.LearningRate, cfg.Epochs, cfg.Dropout, cfg.HiddenDim, wantLR, wantEpochs)
		}
	}
	if err := validateRuns(runs); err != nil {
		t.Error(err)
	}
	// A second grid of the same data set, named apart, with string values and a preset.
	other, err := SearchGrid{Dataset: "cs", Preset: "cs-ref", Name: "search-mpnn", Seed: 2, Axes: []SearchAxis{
		{Field: "mpnn", Values: []any{"sage", "gat"}}, {Field: "hidden_dim", Values: []any{32}}}}.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(other) != 2 || other[0].Name != "cs_search-mpnn_sage-h32_s2" || other[1].Name != "cs_search-mpnn_gat-h32_s2" ||
		other[0].Preset != "cs-ref" || other[0].Variant != "search-mpnn-sage-h32" {
		t.Errorf("named grid runs %+v", other)
	}
	if cfg, err := other[1].config(); err != nil || cfg.MPNN != "gat" || cfg.HiddenDim != 32 || cfg.PreMPLayers != 1 {
		t.Errorf("named grid point: %+v, %v; want gat, hidden 32 on the cs-ref preset", cfg, err)
	}
	for name, bad := range map[string]SearchGrid{
		"no axes":       {Dataset: "cs"},
		"empty axis":    {Dataset: "cs", Axes: []SearchAxis{{Field: "lr"}}},
		"bad overrides": {Dataset: "cs", Axes: []SearchAxis{{Field: "lr", Values: []any{1e-3}}}, Overrides: "[1]"},
	} {
		if _, err := bad.Runs(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// The default grids are valid and each holds its preset's own learning rate.
	if err := validateRuns(SearchSuite()); err != nil {
		t.Fatal(err)
	}
	for _, g := range DefaultSearchGrids() {
		runs, _ := g.Runs()
		found := false
		for _, r := range runs {
			cfg, _ := r.config()
			preset, _ := gexph.Preset(r.Preset)
			found = found || cfg.LearningRate == preset.LearningRate
		}
		if !found {
			t.Errorf("default grid %s %s lacks its preset's learning rate", g.Dataset, g.Name)
		}
	}
}

// writeRecord writes a fake record of run r to dir/runs.
func writeRecord(t *testing.T, dir string, r SuiteRun, val, test float64, metric string) {
	t.Helper()
	rec := SuiteRecord{Name: r.Name, Variant: r.Variant, Seed: r.Seed, Spec: r.Dataset,
		Result: gexph.Result{ValMetric: val, TestMetric: test, Metric: metric, Epochs: 1}}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "runs", r.Name+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestChooseSearch(t *testing.T) {
	grid := SearchGrid{Dataset: "cs", Seed: 1, Axes: []SearchAxis{{Field: "lr", Values: []any{1e-3, 3e-3, 1e-2}}}}
	runs, err := grid.Runs()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeRecord(t, dir, runs[0], 0.90, 0.99, gexph.MetricAccuracy)
	if _, err := ChooseSearch(dir, grid); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unfinished grid: error %v, want one wrapping os.ErrNotExist", err)
	}
	// The highest validation wins, whatever the test metric; a tie goes to the earlier
	// point.
	writeRecord(t, dir, runs[1], 0.95, 0.80, gexph.MetricAccuracy)
	writeRecord(t, dir, runs[2], 0.95, 0.99, gexph.MetricAccuracy)
	c, err := ChooseSearch(dir, grid)
	if err != nil {
		t.Fatal(err)
	}
	if c.Run.Name != runs[1].Name || c.Record.ValMetric != 0.95 {
		t.Errorf("selected %s (val %g), want %s", c.Run.Name, c.Record.ValMetric, runs[1].Name)
	}
	tuned := c.TunedRuns(3)
	if len(tuned) != 3 || tuned[0].Name != "cs_exphormer-tuned_s1" || tuned[2].Seed != 3 || tuned[1].Overrides != runs[1].Overrides || tuned[0].Variant != VariantTuned {
		t.Errorf("tuned runs %+v", tuned)
	}
	// For MAE the lowest validation wins.
	for i, v := range []float64{0.3, 0.2, 0.25} {
		writeRecord(t, dir, runs[i], v, 0, gexph.MetricMAE)
	}
	if c, err := ChooseSearch(dir, grid); err != nil || c.Run.Name != runs[1].Name {
		t.Errorf("MAE: selected %s (%v), want %s", c.Run.Name, err, runs[1].Name)
	}
	if err := os.WriteFile(filepath.Join(dir, "runs", runs[2].Name+".json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ChooseSearch(dir, grid); err == nil || errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), runs[2].Name) {
		t.Errorf("malformed record: error %v, want one naming %s", err, runs[2].Name)
	}
}

func TestRunSearchSuite(t *testing.T) {
	grid := SearchGrid{Dataset: "pattern", Seed: 1, Tuned: VariantGPSTuned, Axes: []SearchAxis{{Field: "lr", Values: []any{1e-4, 1e-2}}, {Field: "epochs", Values: []any{2}}},
		Overrides: `{"layers":1,"hidden_dim":16,"heads":4,"warmup_epochs":0,"batch_size":8,"max_train":16,"max_val":8,"max_test":8}`}
	dir := t.TempDir()
	var trained []string
	opts := SuiteOptions{OutDir: dir, OnRun: func(name string) { trained = append(trained, name) }}
	ctx := context.Background()
	if _, err := RunSearchSuite(ctx, []SearchGrid{grid}, 2, "^nothing$", opts); err == nil {
		t.Error("a filter matching no run: no error")
	}
	// The tuned runs wait for the whole grid.
	if n, err := RunSearchSuite(ctx, []SearchGrid{grid}, 2, "lr0.0001", opts); err != nil || n != 1 || len(trained) != 1 {
		t.Fatalf("first grid point: %d runs, trained %v, error %v", n, trained, err)
	}
	if n, err := RunSearchSuite(ctx, []SearchGrid{grid}, 2, "", opts); err != nil || n != 4 {
		t.Fatalf("whole search: %d runs, error %v", n, err)
	}
	gridRuns, _ := grid.Runs()
	c, err := ChooseSearch(dir, grid)
	if err != nil {
		t.Fatal(err)
	}
	// The seed-1 tuned run is the selected grid run's record, not a new training.
	want := []string{gridRuns[0].Name, gridRuns[1].Name, "pattern_gps-tuned_s2"}
	if strings.Join(trained, ",") != strings.Join(want, ",") {
		t.Errorf("trained %v, want %v", trained, want)
	}
	s1, err := readSuiteRecord(filepath.Join(dir, "runs", "pattern_gps-tuned_s1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s1.Variant != VariantGPSTuned || s1.ValMetric != c.Record.ValMetric || s1.TestMetric != c.Record.TestMetric || s1.Config.LearningRate != c.Record.Config.LearningRate || !strings.Contains(s1.Note, c.Run.Name) {
		t.Errorf("tuned s1 %+v, want a copy of %s", s1, c.Run.Name)
	}
	s2, err := readSuiteRecord(filepath.Join(dir, "runs", "pattern_gps-tuned_s2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if s2.Config.LearningRate != c.Record.Config.LearningRate || s2.Config.Seed != 2 {
		t.Errorf("tuned s2: lr %g seed %d, want lr %g seed 2", s2.Config.LearningRate, s2.Config.Seed, c.Record.Config.LearningRate)
	}
	trained = nil
	if _, err := RunSearchSuite(ctx, []SearchGrid{grid}, 2, "", opts); err != nil || len(trained) != 0 {
		t.Errorf("resume trained %v (%v), want nothing", trained, err)
	}
	rows, err := Summarize(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var tunedRow *SummaryRow
	for i := range rows {
		if rows[i].Variant == VariantGPSTuned {
			tunedRow = &rows[i]
		}
	}
	if tunedRow == nil || tunedRow.Runs != 2 {
		t.Fatalf("summary %+v: want a tuned row of 2 runs", rows)
	}
	var sb strings.Builder
	if err := writeSearchSection(&sb, filepath.Join(dir, "results.csv"), dir, ResultsMeta{Seeds: 2, Command: "gexph reproduce -suite search"}, []SearchGrid{grid}); err != nil {
		t.Fatal(err)
	}
	out := sb.String()
	for _, want := range []string{"**selected**", "| lr | epochs |", "| 0.0001 | 2 |", "| 0.01 | 2 |",
		"| pattern | — | ", "(" + strings.TrimPrefix(c.Run.Variant, "search-") + "; 2 seeds) |"} {
		if !strings.Contains(out, want) {
			t.Errorf("search section lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Not yet run") {
		t.Errorf("finished search listed as unfinished:\n%s", out)
	}
}
