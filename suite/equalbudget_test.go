package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEqualBudgetSectionSetsBothStacksSideBySide writes the records of two data sets
// (one complete, one without gexph runs yet) and checks the section: per-seed metrics
// in percent, the verdict against the reference's seed range, the epoch seconds
// (after the first epoch) and their ratio; a data set without both sides is left out.
func TestEqualBudgetSectionSetsBothStacksSideBySide(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for s, test := range []float64{0.80, 0.83, 0.82} {
		write(fmt.Sprintf("pattern/reference-s%d.json", s+1), fmt.Sprintf(`{"dataset":"pattern","graphs":{"train":500,"val":125,"test":125},"seed":%d,"epochs":8,"metric":"accuracy-SBM","val_metric":0.8,"test_metric":%g,"seconds_per_epoch":40,"peak_rss_mib":13000}`, s+1, test))
	}
	for s, test := range []float64{0.81, 0.84, 0.82} {
		write(fmt.Sprintf("pattern/gexph-s%d.json", s+1), fmt.Sprintf(`{"dataset":"pattern","epochs":8,"test_metric":%g,"val_metric":0.8,"peak_rss_mb":2000,`+
			`"history":[{"epoch":1,"seconds":30},{"epoch":2,"seconds":10},{"epoch":3,"seconds":12}]}`, test))
	}
	write("mnist/gexph-s1.json", `{"dataset":"mnist","test_metric":0.9}`) // no history: refused
	write("cluster/reference-s1.json", `{"dataset":"cluster","graphs":{"train":1,"val":1,"test":1},"seed":1,"epochs":1,"test_metric":0.5}`)
	var b strings.Builder
	if err := writeEqualBudgetSection(&b, dir); err == nil || !strings.Contains(err.Error(), "no epoch history") {
		t.Errorf("a record without history: %v", err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "mnist")); err != nil {
		t.Fatal(err)
	}
	if err := writeEqualBudgetSection(&b, dir); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| pattern | 500/125/125 graphs, 8 epochs | 80.00, 83.00, 82.00 (mean 81.67) | 81.00, 84.00, 82.00 (mean 82.33) | **within** the reference's range (mean 82.33 in [80.00, 83.00]) | 40.0, 11.0 (3.6× faster) | 13000, 2000 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| cluster |") {
		t.Errorf("a data set without gexph runs has a row:\n%s", out)
	}
	if got := equalBudgetVerdict([]float64{80, 81}, []float64{79}); !strings.Contains(got, "**below** the reference's range by 1.00 points") {
		t.Errorf("verdict below: %s", got)
	}
	if got := equalBudgetVerdict([]float64{80, 81}, []float64{82}); !strings.Contains(got, "**above**") {
		t.Errorf("verdict above: %s", got)
	}
	var empty strings.Builder
	if err := writeEqualBudgetSection(&empty, filepath.Join(dir, "none")); err != nil || empty.Len() != 0 {
		t.Errorf("no records: %q, %v", empty.String(), err)
	}
}
