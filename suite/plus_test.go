package suite

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/jsonfile"
)

func TestPlusSuiteRunsBothPresetsOnTheSameSeeds(t *testing.T) {
	runs := PlusSuite(5)
	if len(runs) != 4*2*5 {
		t.Fatalf("%d runs, want 40 (4 data sets, 2 presets, 5 seeds)", len(runs))
	}
	seeds := map[string]map[string][]uint64{}
	for _, r := range runs {
		if r.Preset != r.Dataset+"-"+r.Variant {
			t.Errorf("run %s: preset %s, want %s-%s", r.Name, r.Preset, r.Dataset, r.Variant)
		}
		if seeds[r.Dataset] == nil {
			seeds[r.Dataset] = map[string][]uint64{}
		}
		seeds[r.Dataset][r.Variant] = append(seeds[r.Dataset][r.Variant], r.Seed)
	}
	for ds, byVariant := range seeds {
		a, b := byVariant[VariantPlus], byVariant[VariantPlusExphormer]
		if fmtSeeds(a) != "[1 2 3 4 5]" || fmtSeeds(b) != fmtSeeds(a) {
			t.Errorf("%s: seeds %v (plus) and %v (plus-exphormer), want 1–5 for both", ds, a, b)
		}
	}
	if err := validateRuns(runs); err != nil {
		t.Error(err)
	}
}

func fmtSeeds(s []uint64) string {
	var parts []string
	for _, x := range s {
		parts = append(parts, itoa(int(x)))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// dataRootWith returns a data root holding (empty) files of the named gnn-benchmark
// sets, as data.Load looks for them.
func dataRootWith(t *testing.T, names ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range names {
		info, ok := datasetInfo(name)
		if !ok {
			t.Fatalf("no data set %q", name)
		}
		path := filepath.Join(root, info.Files[0])
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestWithDataKeepsTheSetsOnTheMachine(t *testing.T) {
	root := dataRootWith(t, "computers", "cs")
	kept, missing := WithData(PlusSuite(2), []string{root})
	if strings.Join(missing, ",") != "photo,physics" {
		t.Errorf("missing %v, want photo and physics", missing)
	}
	for _, r := range kept {
		if r.Dataset != "computers" && r.Dataset != "cs" {
			t.Errorf("kept run %s of %s, whose files are absent", r.Name, r.Dataset)
		}
	}
	if len(kept) != 2*2*2 {
		t.Errorf("kept %d runs, want 8", len(kept))
	}
	gen, missing := WithData([]SuiteRun{{Name: "p", Dataset: "pattern"}, {Name: "q", Dataset: "planted:100"}}, nil)
	if len(gen) != 2 || len(missing) != 0 {
		t.Errorf("generated data sets: kept %d, missing %v; they are always on the machine", len(gen), missing)
	}
}

// row is a summary row of accuracies (fractions) by seed.
func row(variant string, bySeed map[int]float64) SummaryRow {
	return SummaryRow{Dataset: "computers", Variant: variant, Metric: "accuracy", Runs: len(bySeed), TestBySeed: bySeed}
}

func TestEffectOfAttentionPairedTTest(t *testing.T) {
	base := map[int]float64{1: 0.90, 2: 0.91, 3: 0.92, 4: 0.90, 5: 0.93}
	shifted := func(d ...float64) map[int]float64 {
		out := map[int]float64{}
		for s, v := range base {
			out[s] = v + d[s-1]/100
		}
		return out
	}
	cases := []struct {
		name    string
		ex      map[int]float64
		verdict string
		t       float64 // 0: not checked
		ahead   int
	}{
		// Differences 1, 2, 3 points on seeds 1–3 (4, 5 absent): mean 2, sd 1, t = 2√3,
		// below the critical 4.303 of 2 degrees of freedom.
		{"three seeds", map[int]float64{1: 0.91, 2: 0.93, 3: 0.95}, verdictNothing, 2 * math.Sqrt(3), 3},
		// +0.5 ± 0.05 points on 5 seeds: far beyond 2.776.
		{"helps", shifted(0.5, 0.55, 0.45, 0.5, 0.52), verdictHelps, 0, 5},
		{"hurts", shifted(-0.3, -0.35, -0.25, -0.3, -0.31), verdictHurts, 0, 0},
		{"mixed", shifted(0.4, -0.3, 0.2, -0.4, 0.1), verdictNothing, 0, 3},
		{"equal", base, verdictNothing, 0, 0},
		{"one seed", map[int]float64{2: 0.95}, verdictTooFew, 0, 1},
	}
	for _, c := range cases {
		e := effectOfAttention(row(VariantPlus, base), row(VariantPlusExphormer, c.ex))
		if e.verdict != c.verdict || e.ahead != c.ahead {
			t.Errorf("%s: verdict %q, ahead on %d; want %q, %d (%s)", c.name, e.verdict, e.ahead, c.verdict, c.ahead, e.reason)
		}
		if c.t != 0 && math.Abs(e.t-c.t) > 1e-9 {
			t.Errorf("%s: t = %.6f, want %.6f", c.name, e.t, c.t)
		}
	}
	// Two seeds: one degree of freedom, named in the singular.
	two := effectOfAttention(row(VariantPlus, base), row(VariantPlusExphormer, map[int]float64{1: 0.91, 2: 0.93}))
	if !strings.Contains(two.reason, "with 1 degree of freedom") {
		t.Errorf("two seeds: %q does not name 1 degree of freedom", two.reason)
	}
	// Student's t quantiles: 4.303 (2 degrees of freedom), 2.776 (4).
	for n, want := range map[int]float64{3: 4.3027, 5: 2.7764} {
		bySeed := map[int]float64{}
		for s := 1; s <= n; s++ {
			bySeed[s] = base[s] + float64(s)/1000
		}
		if got := effectOfAttention(row(VariantPlus, base), row(VariantPlusExphormer, bySeed)).critical; math.Abs(got-want) > 1e-3 {
			t.Errorf("%d seeds: critical value %.4f, want %.4f", n, got, want)
		}
	}
}

// TestPlusSectionFromSyntheticRecords writes synthetic records of the plus suite
// (Computers: attention 0.4–0.6 points ahead on every seed; CS: mixed) and checks the
// section: the published, paper's and our figures side by side, the per-seed
// differences and verdicts, the target lines, "no data" for the sets without files, and
// "not run yet" before any record.
func TestPlusSectionFromSyntheticRecords(t *testing.T) {
	root := t.TempDir()
	dataRoot := dataRootWith(t, "computers", "cs")
	var empty strings.Builder
	if found, err := writePlusSection(&empty, root, []string{dataRoot}, "CMD"); err != nil || found {
		t.Fatalf("section without records: found %v, %v", found, err)
	}
	for _, want := range []string{
		"| Computer | 94.09 ± 0.37 (GAT) | 91.59 ± 0.31 | not run yet | not run yet |",
		"| Photo | 96.78 ± 0.23 (GraphSAGE) | 95.27 ± 0.42 | no data on this machine | no data on this machine |",
		"- computers: not run yet (`CMD`)",
		"- physics: no data on this machine: `gexph data -fetch physics",
		"| Physics | 97.46 ± 0.10 (GCN) | 97.16 ± 0.13 |",
	} {
		if !strings.Contains(empty.String(), want) {
			t.Errorf("section without records lacks %q:\n%s", want, empty.String())
		}
	}
	dir := filepath.Join(root, SuitePlus)
	comp := []float64{0.940, 0.945, 0.938, 0.942, 0.941}
	compDiff := []float64{0.005, 0.006, 0.004, 0.005, 0.0055}
	csDiff := []float64{0.002, -0.001, 0.001, -0.002, 0.0005}
	for _, r := range PlusSuite(5) {
		var test float64
		switch {
		case r.Dataset == "computers" && r.Variant == VariantPlus:
			test = comp[r.Seed-1]
		case r.Dataset == "computers":
			test = comp[r.Seed-1] + compDiff[r.Seed-1]
		case r.Dataset == "cs" && r.Variant == VariantPlus:
			test = 0.96
		case r.Dataset == "cs":
			test = 0.96 + csDiff[r.Seed-1]
		default:
			continue
		}
		writeConfiguredRecord(t, dir, r, test)
	}
	if err := writeSuiteCSV(filepath.Join(dir, "runs"), filepath.Join(dir, "results.csv")); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := writePlusSection(&b, root, []string{dataRoot}, "CMD"); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"| Computer | 94.09 ± 0.37 (GAT) | 91.59 ± 0.31 | 94.12 ± 0.23 (5 seeds) | 94.63 ± 0.29 (5 seeds) |",
		"| CS | 96.38 ± 0.11 (GraphSAGE) | 95.77 ± 0.15 | 96.00 ± 0.00 (5 seeds) |",
		"computers: the better preset 94.63 (mean over its seeds), target ≥ 94.1 — met",
		"cs: the better preset 96.01 (mean over its seeds), target ≥ 96.4 — missed by 0.39 points",
		"computers: **helps** — plus-exphormer 94.63 ± 0.29 vs plus 94.12 ± 0.23 on the same 5 splits (seeds 1, 2, 3, 4, 5); difference per seed +0.50, +0.60, +0.40, +0.50, +0.55, mean +0.51 points, attention ahead on 5 of 5",
		"cs: **no detectable difference** — ", "difference per seed +0.20, -0.10, +0.10, -0.20, +0.05", "ahead on 3 of 5",
		"paired t = 0.14 against ±2.78",
		"- photo: no data on this machine",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
	for _, unwanted := range []string{"Not yet run", "Made with another configuration"} {
		if strings.Contains(md, unwanted) {
			t.Errorf("every run with data has a record of its configuration, yet the section says %q:\n%s", unwanted, md)
		}
	}
}

// writeConfiguredRecord writes a record of run r with its configuration, test and
// validation accuracy test, to dir/runs.
func writeConfiguredRecord(t *testing.T, dir string, r SuiteRun, test float64) {
	t.Helper()
	cfg, err := r.config()
	if err != nil {
		t.Fatal(err)
	}
	rec := SuiteRecord{Name: r.Name, Variant: r.Variant, Seed: r.Seed, Spec: r.Dataset,
		Result: gexph.Result{ValMetric: test, TestMetric: test, Metric: gexph.MetricAccuracy, Epochs: 1, Config: cfg}}
	if err := os.MkdirAll(filepath.Join(dir, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := jsonfile.Write(recordPath(dir, r.Name), rec); err != nil {
		t.Fatal(err)
	}
}

// TestPlusSectionWithOneVariantRun holds the section's line of a data set on which only
// NAME-plus has run to that preset's figure and target, with no verdict on the attention.
func TestPlusSectionWithOneVariantRun(t *testing.T) {
	root := t.TempDir()
	dataRoot := dataRootWith(t, "computers", "cs")
	dir := filepath.Join(root, SuitePlus)
	for _, r := range PlusSuite(2) {
		if r.Dataset == "cs" && r.Variant == VariantPlus {
			writeConfiguredRecord(t, dir, r, 0.96+0.002*float64(r.Seed))
		}
	}
	if err := writeSuiteCSV(filepath.Join(dir, "runs"), filepath.Join(dir, "results.csv")); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := writePlusSection(&b, root, []string{dataRoot}, "CMD"); err != nil {
		t.Fatal(err)
	}
	want := "- cs: cs-plus 96.30 ± 0.10 over 2 seeds so far, target ≥ 96.4 — missed by 0.10 points; cs-plus-exphormer not run yet, so no verdict on the attention yet (`CMD`)"
	if !strings.Contains(b.String(), want) {
		t.Errorf("section lacks %q:\n%s", want, b.String())
	}
}

// TestReportOfThePlusSuiteAloneIsWritten writes the report of a root that holds the plus
// suite's results and nothing else (what `gexph reproduce -suite plus -out DIR` leaves):
// a report with the section, not the error of a root without results.
func TestReportOfThePlusSuiteAloneIsWritten(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, SuitePlus)
	for _, r := range PlusSuite(1) {
		if r.Dataset == "cs" && r.Variant == VariantPlus {
			writeConfiguredRecord(t, dir, r, 0.96)
		}
	}
	if err := writeSuiteCSV(filepath.Join(dir, "runs"), filepath.Join(dir, "results.csv")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "RESULTS.md")
	if err := WriteReport(root, path); err != nil {
		t.Fatalf("report of the plus suite alone: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "## "+plusTitle) {
		t.Errorf("the report lacks the plus section:\n%s", b)
	}
}
