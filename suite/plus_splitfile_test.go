package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
)

// writeSplitRun writes the result.json of a run of preset on a split file into dir.
func writeSplitRun(t *testing.T, dir, preset, split string, seed uint64, test float64) {
	t.Helper()
	r := gexph.Result{Dataset: "computers", Preset: preset, Epochs: 1000, Seed: seed, TestMetric: test, Metric: "accuracy"}
	r.Config.SplitFile = split
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, preset+"_s"+string(rune('0'+seed))+".json")
	if err := os.WriteFile(name, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPlusSplitFileRowsAndWelchVerdict holds the report's rows of runs on a split file
// to their records: means ± std by preset in seed order, and the Welch verdict to the
// t statistic computed by hand (equal sizes and spreads: t = Δ / √(2s²/n), 4 degrees of
// freedom); the same accuracies on both sides are no difference.
func TestPlusSplitFileRowsAndWelchVerdict(t *testing.T) {
	dir := t.TempDir()
	split := "/somewhere/amazon-computer_split.npz"
	for i, acc := range []float64{0.940, 0.942, 0.938} {
		writeSplitRun(t, dir, "computers-plus", split, uint64(3-i), acc) // seeds 3, 2, 1: sorted on reading
		writeSplitRun(t, dir, "computers-plus-exphormer", split, uint64(3-i), acc+0.01)
	}
	var buf bytes.Buffer
	if err := writePlusSplitFiles(&buf, dir); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// Seeds 1, 2, 3 hold 93.8, 94.2, 94.0: mean 94.00, population std 0.16 (as every row
	// of the report), sample std 0.20.
	for _, want := range []string{"| Computer | amazon-computer_split.npz | 94.09 ± 0.37 (GAT) | 94.00 ± 0.16 (seeds 1, 2, 3) | 95.00 ± 0.16 (seeds 1, 2, 3) |", "**helps**, +1.00 points"} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
	tHand := 1.0 / math.Sqrt(2*0.2*0.2/3)
	if want := fmt.Sprintf("Welch's t = %.2f against ±2.78, 4.0 degrees of freedom", tHand); !strings.Contains(out, want) {
		t.Errorf("section lacks %q (t by hand %.4f):\n%s", want, tHand, out)
	}
	same := welchVerdict(splitFileRuns{metric: "accuracy", tests: []float64{0.9, 0.9}}, splitFileRuns{metric: "accuracy", tests: []float64{0.9, 0.9}})
	if !strings.Contains(same, verdictNothing) {
		t.Errorf("equal runs: %q, want %q", same, verdictNothing)
	}
}

// TestPlusSplitFileRefusesOtherRecords holds readSplitFileRuns to naming the file of a
// record it cannot use: a run without a split file, a seed twice, a file that is no
// result; a folder without records gives nothing.
func TestPlusSplitFileRefusesOtherRecords(t *testing.T) {
	if groups, err := readSplitFileRuns(filepath.Join(t.TempDir(), "absent")); err != nil || len(groups) != 0 {
		t.Fatalf("absent folder: %v, %v; want nothing", groups, err)
	}
	for name, write := range map[string]func(dir string){
		"no split file": func(dir string) { writeSplitRun(t, dir, "computers-plus", "", 1, 0.9) },
		"a seed twice": func(dir string) {
			writeSplitRun(t, dir, "computers-plus", "a/s.npz", 1, 0.9)
			raw, _ := os.ReadFile(filepath.Join(dir, "computers-plus_s1.json"))
			if err := os.WriteFile(filepath.Join(dir, "copy.json"), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"not a result": func(dir string) {
			if err := os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"name": "x"}`), 0o644); err != nil {
				t.Fatal(err)
			}
		},
	} {
		dir := t.TempDir()
		write(dir)
		if _, err := readSplitFileRuns(dir); err == nil || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: error %v, want one naming the file under %s", name, err, dir)
		}
	}
}
