package suite

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
)

// holdingsLines writes the table of holdings of the records under root, with the data
// looked for under dataRoot, and returns its rows by data set title.
func holdingsLines(t *testing.T, root, dataRoot string) map[string][]string {
	t.Helper()
	var b strings.Builder
	if err := writeHoldingsSection(&b, root, []string{dataRoot}); err != nil {
		t.Fatal(err)
	}
	lines := map[string][]string{}
	for _, l := range strings.Split(b.String(), "\n") {
		if title, _, ok := strings.Cut(strings.TrimPrefix(l, "| "), " |"); ok && strings.HasPrefix(l, "| ") {
			lines[title] = append(lines[title], l)
		}
	}
	return lines
}

// TestPaperDatasetsAreTheFifteenOfThePaper checks the list the table of holdings is
// made from: fifteen distinct data sets (the paper's "fifteen benchmark datasets"), each
// known to the registry by name and with the paper's Exphormer figure.
func TestPaperDatasetsAreTheFifteenOfThePaper(t *testing.T) {
	ds := paperDatasets()
	var names []string
	for _, d := range ds {
		if _, ok := datasetInfo(d.name); !ok {
			t.Errorf("%s (%s) is not in the registry", d.name, d.title)
		}
		if _, ok := PaperFigures()[d.name+"/"+VariantExphormer]; !ok {
			t.Errorf("%s has no paper figure", d.name)
		}
		if slices.Contains(names, d.name) {
			t.Errorf("%s listed twice", d.name)
		}
		names = append(names, d.name)
	}
	if len(ds) != 15 {
		t.Errorf("%d data sets, want the paper's fifteen", len(ds))
	}
}

// TestHoldingsHaveOneLinePerPaperDataset checks that the table of holdings has exactly
// one row per data set of the paper's list and no other, with records of several kinds
// present (a full-budget log, a suite CSV).
func TestHoldingsHaveOneLinePerPaperDataset(t *testing.T) {
	root := t.TempDir()
	writeText(t, filepath.Join(root, SuiteTransductive, "results.csv"), summaryCSV)
	writeFullLog(t, root, "pattern", gexph.LogHeader{Dataset: "pattern", Preset: "pattern-ref", Metric: gexph.MetricWeightedAccuracy, Seed: 1,
		Config: gexph.Config{Epochs: 1}}, []gexph.EpochStats{{Epoch: 1, ValMetric: 0.8, TestMetric: ptr(0.81), Best: true}})
	lines := holdingsLines(t, root, t.TempDir())
	for _, d := range paperDatasets() {
		if n := len(lines[d.title]); n != 1 {
			t.Errorf("%s: %d lines, want 1: %q", d.title, n, lines[d.title])
		}
		delete(lines, d.title)
	}
	delete(lines, "Data set") // the header
	if len(lines) != 0 {
		t.Errorf("rows of no paper data set: %q", lines)
	}
}

// TestHoldingsLineSwitchesToFullBudgetWhenARecordAppears checks CLUSTER's row as its
// full-budget log appears in ROOT/full/cluster and grows: "not run" with the training
// command, then the run in progress with its test figure so far, at its best validation
// epoch, then the finished run's test figure; and MNIST's
// row, whose data is looked for: the fetch when its files are absent, the training alone
// once they are there.
func TestHoldingsLineSwitchesToFullBudgetWhenARecordAppears(t *testing.T) {
	root, dataRoot := t.TempDir(), t.TempDir()
	line := func(title string) string {
		t.Helper()
		return holdingsLines(t, root, dataRoot)[title][0]
	}
	want := func(got string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(got, p) {
				t.Errorf("row lacks %q:\n%s", p, got)
			}
		}
	}
	want(line("CLUSTER"), "| not run | not run: `gexph train -dataset cluster -preset cluster-ref -out runs/cluster-full` |")
	hdr := gexph.LogHeader{Dataset: "cluster", Preset: "cluster-ref", Metric: gexph.MetricWeightedAccuracy, Seed: 1, Config: gexph.Config{Epochs: 3}}
	epochs := []gexph.EpochStats{
		{Epoch: 1, ValMetric: 0.70, TestMetric: ptr(0.69), Best: true},
		{Epoch: 2, ValMetric: 0.75, TestMetric: ptr(0.7712), Best: true},
	}
	writeFullLog(t, root, "cluster", hdr, epochs)
	want(line("CLUSTER"), "| full budget: seed 1 running (cluster-ref), 2 of 3 epochs done, test 77.12 so far, at its best validation epoch (2) | — |")
	writeFullLog(t, root, "cluster", hdr, append(epochs, gexph.EpochStats{Epoch: 3, ValMetric: 0.74, TestMetric: ptr(0.9)}))
	want(line("CLUSTER"), "| full budget: test 77.12 over 1 seed (cluster-ref, 3 epochs) | — |")

	want(line("MNIST"), "| not run | no data on this machine: `gexph data -fetch mnist`, then `gexph train -dataset mnist -preset mnist-ref -out runs/mnist-full` |")
	if err := os.Mkdir(filepath.Join(dataRoot, "mnist"), 0o755); err != nil {
		t.Fatal(err)
	}
	want(line("MNIST"), "| not run | not run: `gexph train -dataset mnist -preset mnist-ref -out runs/mnist-full` |")
}

// TestHoldingsCommandsNameWhatExists checks every command the table of holdings prints
// when nothing is run and no data is present (so that each row prints its commands):
// each data set it trains or fetches is known by name (or is a converted edgelist:DIR),
// each preset exists, each fetched data set has files to fetch, and a fetch without
// -trust-new fetches only files whose checksums gexph pins.
func TestHoldingsCommandsNameWhatExists(t *testing.T) {
	var b strings.Builder
	if err := writeHoldingsSection(&b, t.TempDir(), []string{t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var known []string
	for _, d := range data.KnownDatasets() {
		known = append(known, d.Name)
	}
	checked := 0
	for _, m := range regexp.MustCompile("`gexph ([^`]*)`").FindAllStringSubmatch(out, -1) {
		args := strings.Fields(m[1])
		flag := func(name string) (string, bool) {
			i := slices.Index(args, name)
			if i < 0 || i+1 >= len(args) {
				return "", false
			}
			return args[i+1], true
		}
		if ds, ok := flag("-dataset"); ok && !slices.Contains(known, ds) && ds != "edgelist:DIR" {
			t.Errorf("`gexph %s`: no data set %q", m[1], ds)
		}
		if p, ok := flag("-preset"); ok && !slices.Contains(gexph.PresetNames(), p) {
			t.Errorf("`gexph %s`: no preset %q", m[1], p)
		}
		if name, ok := flag("-fetch"); ok {
			sources, err := data.FetchSources(name)
			if err != nil {
				t.Errorf("`gexph %s`: %v", m[1], err)
			}
			for _, f := range sources {
				if f.SHA256 == "" && f.URL != "" && !slices.Contains(args, "-trust-new") {
					t.Errorf("`gexph %s`: %s has no pinned checksum, so the fetch needs -trust-new", m[1], f.Path)
				}
			}
		}
		checked++
	}
	if checked < 15 {
		t.Errorf("%d commands checked, want at least one per data set:\n%s", checked, out)
	}
	for _, title := range []string{"PascalVOC-SP", "PCQM-Contact", "CIFAR10", "Computer"} {
		if !strings.Contains(out, "| "+title+" |") {
			t.Errorf("no row of %s", title)
		}
	}
}

// TestReportPutsFullBudgetBeforeReducedBudget writes a report from a full-budget log,
// equal-budget records, the reduced-budget suite's CSV and a transductive CSV, and checks
// the order of its sections: the table of holdings, then the full-budget section leading
// the graph-level part, the equal-budget comparison, the transductive section, the plus
// section (written before its suite has records), and the reduced-budget smoke tests
// last; no reduced-budget figure appears before their section, and their table has no
// column of the paper's figures.
func TestReportPutsFullBudgetBeforeReducedBudget(t *testing.T) {
	t.Setenv("GEXPH_DATA", t.TempDir())
	root := t.TempDir()
	writeText(t, filepath.Join(root, SuiteTransductive, "results.csv"), summaryCSV)
	writeText(t, filepath.Join(root, SuiteInductiveBudget, "results.csv"), strings.Join(csvHeader, ",")+"\n"+
		"cluster_exphormer_s1,cluster,exphormer,1,282970,5,5,0.38,0.3855,weighted-accuracy,1180,237,9243\n")
	writeFullLog(t, root, "pattern", gexph.LogHeader{Dataset: "pattern", Preset: "pattern-ref", Metric: gexph.MetricWeightedAccuracy, Seed: 1,
		Config: gexph.Config{Epochs: 1}}, []gexph.EpochStats{{Epoch: 1, ValMetric: 0.8, TestMetric: ptr(0.8633), Best: true}})
	writeText(t, filepath.Join(root, EqualBudgetDir, "cluster", "reference-s1.json"),
		`{"dataset":"cluster","graphs":{"train":250,"val":60,"test":60},"seed":1,"epochs":5,"test_metric":0.3,"seconds_per_epoch":90,"peak_rss_mib":8000}`)
	writeText(t, filepath.Join(root, EqualBudgetDir, "cluster", "gexph-s1.json"),
		`{"dataset":"cluster","test_metric":0.3,"history":[{"epoch":1,"seconds":20},{"epoch":2,"seconds":15}]}`)
	md := writeReportText(t, root, filepath.Join(t.TempDir(), "RESULTS.md"))
	var titles []string
	for _, l := range strings.Split(md, "\n") {
		if t, ok := strings.CutPrefix(l, "## "); ok {
			titles = append(titles, t)
		}
	}
	want := []string{"What this report holds", "Full training sets", "Equal budget: gexph against the paper's code",
		"Transductive node classification (Table 4, Table 5, sparse vs dense attention)", plusTitle, smokeTestsTitle}
	if !slices.Equal(titles, want) {
		t.Errorf("sections %q, want %q", titles, want)
	}
	smoke := strings.Index(md, "## "+smokeTestsTitle)
	if i := strings.Index(md, "38.55"); i < 0 || i < smoke {
		t.Errorf("the reduced-budget figure 38.55 at %d, want it only in the smoke tests' section (from %d)", i, smoke)
	}
	section := md[smoke:]
	if !strings.Contains(section, "| cluster | exphormer | weighted-accuracy | 1 | 38.55 | 282970 |") || strings.Contains(section, "78.07") ||
		strings.Contains(section, "| Paper |") {
		t.Errorf("the smoke tests' table sets the paper's figures beside its own:\n%s", section)
	}
	if !strings.Contains(md, "| CLUSTER | 1 | 78.07 ± 0.037 accuracy (%) | equal-budget verdict (250/60/60 graphs, 5 epochs): within the paper's code's seed range; a smoke run |") {
		t.Errorf("CLUSTER's holdings row:\n%s", md)
	}
}

// writeReportText writes the report of the records under root to path and returns it.
func writeReportText(t *testing.T, root, path string) string {
	t.Helper()
	if err := WriteReport(root, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeText writes text to path, making its folder.
func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ptr(x float64) *float64 { return &x }
