package suite

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gexph/gexph/gexph"
)

func TestTransductiveTargets(t *testing.T) {
	rows := []SummaryRow{
		{Dataset: "computers", Variant: VariantExphormer, Metric: gexph.MetricAccuracy, Runs: 5, TestMean: 0.9170, TestStd: 0.003,
			TestBySeed: map[int]float64{1: 0.92, 2: 0.91, 3: 0.93, 4: 0.90, 5: 0.925}},
		{Dataset: "computers", Variant: VariantMPNN, Metric: gexph.MetricAccuracy, Runs: 3, TestMean: 0.9000,
			TestBySeed: map[int]float64{1: 0.90, 2: 0.915, 3: 0.91}},
		// Seeds 1 and 3 shared: the 5-seed mean (91.70) is below Performer's (92.00),
		// but on the shared splits Exphormer is ahead (92.50 vs 92.00).
		{Dataset: "computers", Variant: VariantPerformer, Metric: gexph.MetricAccuracy, Runs: 3, TestMean: 0.9200,
			TestBySeed: map[int]float64{1: 0.915, 3: 0.925, 6: 0.92}},
		{Dataset: "cs", Variant: VariantExphormer, Metric: gexph.MetricAccuracy, Runs: 1, TestMean: 0.9500,
			TestBySeed: map[int]float64{1: 0.95}},
		{Dataset: "cs", Variant: VariantMPNN, Metric: gexph.MetricAccuracy, Runs: 1, TestMean: 0.9500,
			TestBySeed: map[int]float64{2: 0.95}},
	}
	got := strings.Join(TransductiveTargets(rows), "\n")
	for _, want := range []string{
		"computers: Exphormer 91.70 ± 0.30 over 5 seeds, target ≥ 91.6 — met",
		"cs: Exphormer 95.00 over 1 seed, target ≥ 95.8 — missed by 0.80 points",
		"computers: Exphormer vs mpnn on the same 3 splits (seeds 1, 2, 3): 92.00 vs 90.83 — above by 1.17 points, ahead on 2 of 3",
		"computers: Exphormer vs mpnn+performer on the same 2 splits (seeds 1, 3): 92.50 vs 92.00 — above by 0.50 points, ahead on 2 of 2",
		"cs: Exphormer vs mpnn — no split in common (seeds differ)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("targets lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "bigbird") {
		t.Errorf("a variant without runs is compared:\n%s", got)
	}
}

func TestHumanCount(t *testing.T) {
	for x, want := range map[float64]string{1000: "10³", 20000: "2·10⁴", 1e6: "10⁶", 13381: "13,381", 999: "999", 1234567: "1,234,567"} {
		if got := humanCount(x); got != want {
			t.Errorf("humanCount(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestWriteReport builds a results root by hand — a transductive CSV with its meta and
// a scaling CSV — and checks the report's sections, numbers and figures.
func TestWriteReport(t *testing.T) {
	root := t.TempDir()
	tr := filepath.Join(root, SuiteTransductive)
	if err := os.MkdirAll(tr, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tr, "results.csv"), []byte(summaryCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	meta := ResultsMeta{Suite: SuiteTransductive, Command: "gexph reproduce -suite transductive -out " + root, Seeds: 5,
		Machine: "test machine", Date: time.Date(2026, 11, 25, 1, 2, 0, 0, time.UTC)}
	if err := WriteSuiteMeta(tr, meta); err != nil {
		t.Fatal(err)
	}
	sc := filepath.Join(root, SuiteScaling)
	if err := os.MkdirAll(sc, 0o755); err != nil {
		t.Fatal(err)
	}
	csv := strings.Join(scalingHeader, ",") + "\n"
	for _, n := range []int{1000, 2000, 4000, 8000} {
		f := float64(n)
		csv += strings.Join([]string{"exphormer", itoa(n), itoa(10 * n), "100", ftoa(1e-3 * f), ftoa(10 + 0.01*f), "ok", "2", "32", "2", "6", "5", "3", "1", "0"}, ",") + "\n"
		if n < 8000 {
			csv += strings.Join([]string{"full", itoa(n), itoa(10 * n), "100", ftoa(1e-6 * f * f), ftoa(1e-4 * f * f), "ok", "2", "32", "2", "6", "5", "3", "1", "0"}, ",") + "\n"
		}
	}
	csv += strings.Join([]string{"full", "8000", "0", "0", "0", "9000", "out-of-memory", "2", "32", "2", "6", "5", "3", "1", "8000"}, ",") + "\n"
	if err := os.WriteFile(filepath.Join(sc, "scaling.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	docs := filepath.Join(t.TempDir(), "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(docs, "RESULTS.md")
	md := writeReportText(t, root, report)
	for _, want := range []string{
		"## Transductive node classification",
		"| computers | exphormer | accuracy | 3 | 80.00 ± 8.16 | 91.59 ± 0.31 | 100 |",
		"computers: Exphormer 80.00 ± 8.16 over 3 seeds, target ≥ 91.6 — missed by 11.60 points",
		"2026-11-25 01:02 UTC", "test machine",
		"**Not yet run:**", // the 5-seed protocol has many more runs than the CSV
		"## Scaling", "| 4000 | 40000 | 4 | 50 | 16 | 1600 |",
		"Exphormer: time ∝ n^1.00", "Full attention: time ∝ n^2.00 and peak memory ∝ n^2.00",
		"Full attention ran out of memory at 8·10³ nodes",
		"](../", // figures linked relative to the report
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	for _, fig := range []string{"transductive_computers.png", "transductive_cs.png", "scaling_time.png", "scaling_memory.png"} {
		f, err := os.Open(filepath.Join(root, "figures", fig))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() < 300 {
			t.Errorf("%s: %v, %v", fig, err, img)
		}
	}
	if err := WriteReport(t.TempDir(), report); err == nil || !strings.Contains(err.Error(), "no suite results") {
		t.Errorf("empty root: %v", err)
	}
}

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(x float64) string { return strconvFormat(x) }

func strconvFormat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func TestSummarizeOutOfMemoryRows(t *testing.T) {
	csv := strings.Join(append(csvHeader, statusColumn), ",") + "\n" +
		"cora_exphormer_s1,cora,exphormer,1,100,10,5,0.8,0.82,accuracy,10,1,50,ok\n" +
		"computers_mpnn+full_s1,computers,mpnn+full,1,0,0,0,0,0,accuracy,0,0,0,out-of-memory\n" +
		"computers_mpnn+full_s2,computers,mpnn+full,2,0,0,0,0,0,accuracy,0,0,0,out-of-memory\n"
	path := filepath.Join(t.TempDir(), "results.csv")
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1].Runs != 0 || rows[1].OutOfMemory != 2 || rows[0].OutOfMemory != 0 || rows[0].Runs != 1 {
		t.Fatalf("rows %+v", rows)
	}
	var buf bytes.Buffer
	if err := WriteResultsMarkdown(&buf, rows, ResultsMeta{Suite: SuiteTransductive}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| computers | mpnn+full | accuracy | 2 | OOM |") {
		t.Errorf("markdown lacks the OOM row:\n%s", buf.String())
	}
	if lines := TransductiveTargets(rows); len(lines) != 2 || !strings.Contains(lines[0], "not run yet") {
		t.Errorf("targets %q", lines)
	}
	// A report whose only computers rows are refused has no computers figure, and no error.
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, SuiteTransductive), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, SuiteTransductive, "results.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteReport(root, filepath.Join(root, "RESULTS.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "figures", "transductive_computers.png")); err == nil {
		t.Error("a figure of refused runs only")
	}
	bad := strings.Replace(csv, ",ok\n", ",fine\n", 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Summarize(path); err == nil || !strings.Contains(err.Error(), `"fine"`) {
		t.Errorf("unknown status: %v", err)
	}
}
