package suite

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/jsonfile"
	"github.com/gexph/gexph/layers"
)

// tinySuite is two PATTERN runs small enough for a unit test.
func tinySuite() []SuiteRun {
	o := `{"layers":1,"hidden_dim":16,"heads":4,"epochs":2,"warmup_epochs":0,"batch_size":8,"max_train":16,"max_val":8,"max_test":8}`
	return []SuiteRun{
		{Name: "pattern_exphormer_s1", Dataset: "pattern", Preset: "pattern", Variant: VariantExphormer, Overrides: o, Seed: 1},
		{Name: "pattern_mpnn_s1", Dataset: "pattern", Preset: "pattern", Variant: VariantMPNN,
			Overrides: strings.Replace(o, "{", `{"attention":"none",`, 1), Seed: 1},
	}
}

func TestRunSuiteWritesAndResumes(t *testing.T) {
	dir := t.TempDir()
	var started []string
	opts := SuiteOptions{OutDir: dir, OnRun: func(name string) { started = append(started, name) }}
	runs := tinySuite()
	if err := RunSuite(context.Background(), runs, opts); err != nil {
		t.Fatal(err)
	}
	if len(started) != 2 {
		t.Fatalf("first pass trained %v, want both runs", started)
	}
	mtimes := map[string]time.Time{}
	for _, r := range runs {
		path := filepath.Join(dir, "runs", r.Name+".json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var rec SuiteRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Name != r.Name || rec.Variant != r.Variant || rec.Seed != r.Seed || rec.Spec != r.Dataset {
			t.Errorf("%s: record identity %+v", r.Name, rec)
		}
		if rec.Epochs != 2 || rec.Params <= 0 || rec.Metric != gexph.MetricWeightedAccuracy || rec.Config.Seed != r.Seed {
			t.Errorf("%s: epochs %d, params %d, metric %q, seed %d", r.Name, rec.Epochs, rec.Params, rec.Metric, rec.Config.Seed)
		}
		if rec.Machine != MachineDescription() {
			t.Errorf("%s: machine %q, want %q", r.Name, rec.Machine, MachineDescription())
		}
		if rec.History != nil {
			t.Errorf("%s: the record holds the history", r.Name)
		}
		if rec.PeakRSSMB <= 0 && runtimeHasProc() {
			t.Errorf("%s: peak RSS %v", r.Name, rec.PeakRSSMB)
		}
		// CPU time: positive where measurable, and no more than all cores for the epoch
		// (with slack for the timers' granularity).
		if runtimeHasProc() && !(rec.EpochCPUSeconds > 0 && rec.EpochCPUSeconds < float64(runtime.NumCPU())*rec.EpochSeconds+0.05) {
			t.Errorf("%s: CPU %v s per epoch of %v s on %d CPUs", r.Name, rec.EpochCPUSeconds, rec.EpochSeconds, runtime.NumCPU())
		}
		st, _ := os.Stat(path)
		mtimes[path] = st.ModTime()
	}
	// The MPNN-only model has fewer parameters than the one with attention.
	recs := readCSV(t, filepath.Join(dir, "results.csv"))
	if len(recs) != 3 || strings.Join(recs[0], ",") != strings.Join(csvHeader, ",")+","+cpuColumn+","+statusColumn || recs[1][len(csvHeader)+1] != StatusOK {
		t.Fatalf("results.csv = %v, want the header and 2 rows", recs)
	}
	byName := map[string][]string{}
	for _, r := range recs[1:] {
		byName[r[0]] = r
	}
	if e, m := byName["pattern_exphormer_s1"], byName["pattern_mpnn_s1"]; e == nil || m == nil || e[2] != VariantExphormer || m[2] != VariantMPNN || !(atoi(t, e[4]) > atoi(t, m[4])) {
		t.Errorf("rows %v and %v: want both variants, attention adding parameters", e, m)
	}

	if m, err := RecordedMachines(dir); err != nil || m != MachineDescription() {
		t.Errorf("RecordedMachines = %q, %v; want %q", m, err, MachineDescription())
	}

	started = nil
	if err := RunSuite(context.Background(), runs, opts); err != nil {
		t.Fatal(err)
	}
	if len(started) != 0 {
		t.Errorf("second pass trained %v, want none (resumed)", started)
	}
	for path, mt := range mtimes {
		if st, err := os.Stat(path); err != nil || !st.ModTime().Equal(mt) {
			t.Errorf("%s rewritten on resume", path)
		}
	}
	// A run interrupted after its checkpoints but before its record trains again, from
	// its last checkpoint, and only it.
	lost := filepath.Join(dir, "runs", "pattern_mpnn_s1.json")
	if err := os.Remove(lost); err != nil {
		t.Fatal(err)
	}
	if err := RunSuite(context.Background(), runs, opts); err != nil {
		t.Fatal(err)
	}
	if len(started) != 1 || started[0] != "pattern_mpnn_s1" {
		t.Errorf("third pass trained %v, want only pattern_mpnn_s1", started)
	}
	if recs := readCSV(t, filepath.Join(dir, "results.csv")); len(recs) != 3 {
		t.Errorf("results.csv after the third pass: %d lines, want 3", len(recs))
	}
	rows, err := Summarize(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Runs != 1 || rows[0].TestStd != 0 {
		t.Errorf("summary %+v, want 2 groups of one run", rows)
	}
	// A run whose configuration changed since its record was made is neither skipped as
	// done nor trained over: the suite stops before training and names the change.
	started = nil
	changed := tinySuite()
	changed[1].Overrides = strings.Replace(changed[1].Overrides, `"hidden_dim":16`, `"hidden_dim":8`, 1)
	err = RunSuite(context.Background(), changed, opts)
	if err == nil || !strings.Contains(err.Error(), "pattern_mpnn_s1 (hidden_dim: 16 → 8)") || strings.Contains(err.Error(), "pattern_exphormer_s1") {
		t.Errorf("suite with a changed run: error %v, want one naming pattern_mpnn_s1 and the change only", err)
	}
	if len(started) != 0 {
		t.Errorf("suite with a changed run trained %v, want none", started)
	}
}

// TestReportFlagsStaleRecords holds the report's line on records made with another
// configuration to the fields that change results.
func TestReportFlagsStaleRecords(t *testing.T) {
	dir := t.TempDir()
	var run SuiteRun
	for _, r := range TransductiveSuite(1) {
		if r.Name == "cora_exphormer_s1" {
			run = r
		}
	}
	cfg, err := run.config()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(c gexph.Config) {
		rec := SuiteRecord{Name: run.Name, Variant: run.Variant, Seed: run.Seed, Spec: run.Dataset, Result: gexph.Result{Config: c}}
		if err := jsonfile.Write(recordPath(dir, run.Name), rec); err != nil {
			t.Fatal(err)
		}
	}
	meta := ResultsMeta{Suite: SuiteTransductive, Seeds: 1}
	var out bytes.Buffer
	write(cfg)
	if err := writeStaleLine(&out, meta, dir); err != nil || out.Len() != 0 {
		t.Fatalf("current record: %q, %v; want nothing", out.String(), err)
	}
	// The bound of attention's chunks changes how a run computes, not its results.
	neutral := cfg
	neutral.AttentionChunkMB = 1024
	write(neutral)
	if err := writeStaleLine(&out, meta, dir); err != nil || out.Len() != 0 {
		t.Fatalf("record with another attention_chunk_mb: %q, %v; want nothing", out.String(), err)
	}
	cfg.HiddenDim = 64
	write(cfg)
	if err := writeStaleLine(&out, meta, dir); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "**Made with another configuration:** 1 record no longer") || !strings.Contains(out.String(), "cora_exphormer_s1 (hidden_dim: 64 → 80)") {
		t.Errorf("stale line %q", out.String())
	}
}

func runtimeHasProc() bool { _, err := os.Stat("/proc/self/status"); return err == nil }

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

func TestRunSuiteRejectsBadRunsBeforeTraining(t *testing.T) {
	good := tinySuite()[0]
	cases := map[string][]SuiteRun{
		"empty name":     {{Dataset: "pattern", Preset: "pattern"}},
		"path in name":   {{Name: "../x", Dataset: "pattern", Preset: "pattern"}},
		"dot name":       {{Name: ".x", Dataset: "pattern", Preset: "pattern"}},
		"duplicate":      {good, good},
		"no data set":    {{Name: "x", Preset: "pattern"}},
		"unknown preset": {good, {Name: "x", Dataset: "pattern", Preset: "nope"}},
		"unknown key":    {good, {Name: "x", Dataset: "pattern", Preset: "pattern", Overrides: `{"layerz":1}`}},
		"invalid value":  {good, {Name: "x", Dataset: "pattern", Preset: "pattern", Overrides: `{"layers":0}`}},
		"bad JSON":       {good, {Name: "x", Dataset: "pattern", Preset: "pattern", Overrides: `{`}},
	}
	for name, runs := range cases {
		trained := 0
		err := RunSuite(context.Background(), runs, SuiteOptions{OutDir: t.TempDir(), OnRun: func(string) { trained++ }})
		if err == nil || trained != 0 {
			t.Errorf("%s: err %v after %d runs, want an error before any run", name, err, trained)
		}
	}
	if err := RunSuite(context.Background(), tinySuite(), SuiteOptions{}); err == nil {
		t.Error("empty OutDir: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := RunSuite(ctx, tinySuite(), SuiteOptions{OutDir: t.TempDir()}); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestSuites(t *testing.T) {
	tr := TransductiveSuite(5)
	// 4 data sets × (5 Exphormer seeds + 6 variants × 3 seeds), and the reference mode
	// on 2 of them × 3 seeds.
	if len(tr) != 4*(5+6*3)+2*3 {
		t.Errorf("transductive suite: %d runs, want %d", len(tr), 4*(5+6*3)+2*3)
	}
	if err := validateRuns(tr); err != nil {
		t.Error(err)
	}
	want := map[string]func(c gexph.Config) bool{
		VariantExphormer: func(c gexph.Config) bool {
			return c.Attention == layers.GlobalExphormer && c.LocalEdges && c.ExpanderEdges && c.VirtualNodes == 0
		},
		VariantMPNN:       func(c gexph.Config) bool { return c.Attention == layers.GlobalNone && c.MPNN == layers.LocalGCN },
		VariantFull:       func(c gexph.Config) bool { return c.Attention == layers.GlobalFull && c.MPNN == layers.LocalGCN },
		VariantPerformer:  func(c gexph.Config) bool { return c.Attention == layers.GlobalPerformer },
		VariantBigBird:    func(c gexph.Config) bool { return c.Attention == layers.GlobalBigBird },
		VariantNoLocal:    func(c gexph.Config) bool { return !c.LocalEdges && c.ExpanderEdges },
		VariantNoExpander: func(c gexph.Config) bool { return c.LocalEdges && !c.ExpanderEdges },
		VariantReference:  func(c gexph.Config) bool { return c.ReferenceAttention && c.PreMPLayers == 1 },
	}
	for _, r := range tr {
		c, err := r.config()
		if err != nil {
			t.Fatal(err)
		}
		preset := r.Dataset
		if r.Variant == VariantReference {
			preset += "-ref"
		}
		if ok := want[r.Variant]; ok == nil || !ok(c) || c.Seed != r.Seed || c.Preset != preset {
			t.Errorf("%s: config does not match variant %q", r.Name, r.Variant)
		}
	}
	if n := len(TransductiveSuite(1)); n != 4*7+2 {
		t.Errorf("transductive suite with 1 seed: %d runs, want 30", n)
	}
	ib := InductiveBudgetSuite()
	if err := validateRuns(ib); err != nil {
		t.Error(err)
	}
	for _, r := range ib {
		c, _ := r.config()
		full, _ := gexph.Preset(r.Preset)
		if c.MaxTrain == 0 || c.Epochs >= full.Epochs || c.Layers != full.Layers || c.HiddenDim != full.HiddenDim {
			t.Errorf("%s: %+v is not the preset on a reduced budget", r.Name, c)
		}
	}
	if !strings.Contains(InductiveFullBudgetCommand, "-suite "+SuiteInductive) {
		t.Errorf("full-budget command %q does not run the inductive suite", InductiveFullBudgetCommand)
	}
	if _, err := Suite("nope", 1); err == nil || !strings.Contains(err.Error(), `"transductive"`) || !strings.Contains(err.Error(), `"inductive-budget"`) {
		t.Errorf("unknown suite: %v, want an error naming the choices", err)
	}
	if _, err := Suite(SuiteScaling, 1); err == nil || !strings.Contains(err.Error(), "RunScalingSuite") {
		t.Errorf("scaling suite as training runs: %v, want an error pointing to RunScalingSuite", err)
	}
	if _, err := Suite(SuiteTransductive, 0); err == nil {
		t.Error("0 seeds: no error")
	}
	if runs, err := Suite(SuiteInductive, 2); err != nil || len(runs) != 8 {
		t.Errorf("inductive suite: %d runs, %v", len(runs), err)
	}
}

const summaryCSV = `name,dataset,variant,seed,params,epochs,best_epoch,val_metric,test_metric,metric,seconds,seconds_per_epoch,peak_rss_mb
computers_exphormer_s1,computers,exphormer,1,100,10,5,0.85,0.9,accuracy,10,1,50
cs_exphormer_s1,cs,exphormer,1,200,4,2,0.5,0.6,accuracy,8,2,70
computers_exphormer_s2,computers,exphormer,2,100,10,5,0.75,0.8,accuracy,20,2,60
computers_exphormer_s3,computers,exphormer,3,100,10,5,0.65,0.7,accuracy,30,3,40
`

func TestSummarizeAgainstHandValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.csv")
	if err := os.WriteFile(path, []byte(summaryCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Dataset != "computers" || rows[1].Dataset != "cs" {
		t.Fatalf("rows %+v, want computers then cs", rows)
	}
	c := rows[0]
	// Test 0.9, 0.8, 0.7: mean 0.8, population std √((0.01+0+0.01)/3).
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("mean", c.TestMean, 0.8)
	near("std", c.TestStd, math.Sqrt(0.02/3))
	near("val mean", c.ValMean, 0.75)
	near("s/epoch", c.SecondsPerEpoch, 2)
	near("peak", c.PeakRSSMB, 60)
	if c.Runs != 3 || c.Params != 100 || c.Metric != gexph.MetricAccuracy || c.Variant != VariantExphormer {
		t.Errorf("computers row %+v", c)
	}
	if rows[1].Runs != 1 || rows[1].TestStd != 0 || rows[1].TestMean != 0.6 || rows[1].Params != 200 {
		t.Errorf("cs row %+v", rows[1])
	}
	if want := map[int]float64{1: 0.9, 2: 0.8, 3: 0.7}; !maps.Equal(c.TestBySeed, want) {
		t.Errorf("computers TestBySeed %v, want %v", c.TestBySeed, want)
	}
	// A second run of a variant with the same seed (the same split) is an error naming it.
	dup := filepath.Join(t.TempDir(), "results.csv")
	if err := os.WriteFile(dup, []byte(summaryCSV+"again_s2,computers,exphormer,2,100,10,5,0.75,0.8,accuracy,20,2,60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Summarize(dup); err == nil || !strings.Contains(err.Error(), "line 6") || !strings.Contains(err.Error(), "seed 2") {
		t.Errorf("duplicate seed: err = %v, want one naming line 6 and seed 2", err)
	}

	var buf bytes.Buffer
	meta := ResultsMeta{Suite: SuiteTransductive, Command: "gexph reproduce -suite transductive", Machine: MachineDescription(),
		Date: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), Notes: SuiteNotes(SuiteTransductive)}
	if err := WriteResultsMarkdown(&buf, rows, meta); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, s := range []string{
		"| computers | exphormer | accuracy | 3 | 80.00 ± 8.16 | 91.59 ± 0.31 | 100 |", // ours ×100 beside the paper's
		"| cs | exphormer | accuracy | 1 | 60.00 | 95.77 ± 0.15 | 200 |",
		"`gexph reproduce -suite transductive`", "2026-01-02 03:04 UTC", meta.Machine, "No Global Nodes",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

// TestSummarizeCPUColumn: CPU seconds per epoch average over the runs that recorded
// them (0 = not recorded); a file without the column has none.
func TestSummarizeCPUColumn(t *testing.T) {
	text := `name,dataset,variant,seed,params,epochs,best_epoch,val_metric,test_metric,metric,seconds,seconds_per_epoch,peak_rss_mb,cpu_seconds_per_epoch,status
a_s1,cs,exphormer,1,100,10,5,0.85,0.9,accuracy,10,1,50,3,ok
a_s2,cs,exphormer,2,100,10,5,0.85,0.9,accuracy,10,1,50,0,ok
a_s3,cs,exphormer,3,100,10,5,0.85,0.9,accuracy,10,1,50,5,ok
b_s1,cs,mpnn,1,100,10,5,0.85,0.9,accuracy,10,1,50,0,ok
`
	dir := t.TempDir()
	path := filepath.Join(dir, "results.csv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].CPUSecondsPerEpoch != 4 || rows[1].CPUSecondsPerEpoch != 0 {
		t.Errorf("rows %+v: want CPU s/epoch 4 (mean of 3 and 5) and 0", rows)
	}
	var buf bytes.Buffer
	if err := WriteResultsMarkdown(&buf, rows, ResultsMeta{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 100 | 1 | 4 | 50 |", "| 100 | 1 | — | 50 |"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, buf.String())
		}
	}
	bad := strings.Replace(text, "50,5,ok", "50,-1,ok", 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Summarize(path); err == nil || !strings.Contains(err.Error(), cpuColumn) {
		t.Errorf("negative CPU time: error %v, want one naming %s", err, cpuColumn)
	}
}

func TestSummarizeErrors(t *testing.T) {
	dir := t.TempDir()
	header := strings.SplitN(summaryCSV, "\n", 2)[0]
	cases := map[string]string{
		"empty":          "",
		"missing column": strings.Replace(summaryCSV, ",peak_rss_mb", "", 1),
		"bad number":     header + "\nx,cs,exphormer,1,100,10,5,0.5,abc,accuracy,8,2,70\n",
		"NaN":            header + "\nx,cs,exphormer,1,100,10,5,0.5,NaN,accuracy,8,2,70\n",
		"mixed metrics":  header + "\nx,cs,exphormer,1,100,10,5,0.5,0.6,accuracy,8,2,70\ny,cs,exphormer,2,100,10,5,0.5,0.6,ap,8,2,70\n",
		"ragged":         header + "\nx,cs\n",
	}
	for name, text := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".csv")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Summarize(path); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Summarize(filepath.Join(dir, "absent.csv")); err == nil {
		t.Error("absent file: no error")
	}
}

// TestRecordedMachines: records made on several machines, and older ones that do not
// say, are each counted, most runs first and the unrecorded last.
func TestRecordedMachines(t *testing.T) {
	dir := t.TempDir()
	if m, err := RecordedMachines(dir); err != nil || m != MachineDescription() {
		t.Errorf("no records: %q, %v; want this machine, %q", m, err, MachineDescription())
	}
	if err := os.MkdirAll(filepath.Join(dir, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, machine := range []string{"B", "A", "", "A", "B", "A", "", "C"} {
		name := fmt.Sprintf("r%d", i)
		if err := jsonfile.Write(recordPath(dir, name), SuiteRecord{Name: name, Machine: machine}); err != nil {
			t.Fatal(err)
		}
	}
	want := "A (3 runs); B (2 runs); C (1 run); not recorded (2 runs)"
	if m, err := RecordedMachines(dir); err != nil || m != want {
		t.Errorf("RecordedMachines = %q, %v; want %q", m, err, want)
	}
	if err := os.WriteFile(recordPath(dir, "bad"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordedMachines(dir); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("malformed record: err = %v, want one naming bad.json", err)
	}
}
