package plots

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runLog is a training log of val_metric values at epochs 1, 2, ….
func runLog(vals ...float64) []map[string]float64 {
	recs := make([]map[string]float64, len(vals))
	for i, v := range vals {
		recs[i] = map[string]float64{"epoch": float64(i + 1), "val_metric": v}
	}
	return recs
}

// RunCurves draws each series' mean over its runs, labels a series of several runs as a
// mean ± std, draws each reference as a grey line that the y axis always shows, named in
// the legend, and spans the epochs a series plans; a reference that is not a number is
// an error naming it.
func TestRunCurvesDrawReferencesInView(t *testing.T) {
	series := []RunSeries{
		{Label: "seeds", Runs: [][]map[string]float64{runLog(50, 60, 70), runLog(60, 70, 80)}},
		{Label: "seed 3", Runs: [][]map[string]float64{runLog(40, 45)}, Planned: 10},
	}
	p, err := RunCurves(series, "val_metric", "PATTERN", "accuracy (%)", Limit{Label: "the paper: 90", Y: 90})
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Max <= 90 || p.Y.Min > 40 {
		t.Errorf("y axis %g to %g: want the runs (40 to 75) and the reference (90) in view, off the frame", p.Y.Min, p.Y.Max)
	}
	if p.X.Min > 1 || p.X.Max < 10 {
		t.Errorf("x axis %g to %g: want the planned epochs 1 to 10", p.X.Min, p.X.Max)
	}
	s := renderPNG(t, p, 6, 4, 100)
	requireColour(t, s, "first series", 0x1f77b4, 100)
	requireColour(t, s, "reference line", targetRGB, 100)
	texts := renderSVG(t, p)
	requireText(t, texts, "the paper: 90")
	requireText(t, texts, "seeds (2 runs, mean ± std)")

	without, err := RunCurves(series, "val_metric", "PATTERN", "accuracy (%)")
	if err != nil {
		t.Fatal(err)
	}
	if without.Y.Max >= 90 {
		t.Errorf("y axis reaches %g without a reference: the reference did not widen it", without.Y.Max)
	}
	series[1].Planned = 0
	if unplanned, err := RunCurves(series, "val_metric", "PATTERN", "accuracy (%)"); err != nil || unplanned.X.Max != 3 {
		t.Errorf("without planned epochs: x axis ends at %g (%v), want the last epoch, 3", unplanned.X.Max, err)
	}
	_, err = RunCurves(series, "val_metric", "PATTERN", "accuracy (%)", Limit{Label: "broken", Y: math.NaN()})
	if err == nil || !strings.Contains(err.Error(), `"broken"`) {
		t.Errorf("a NaN reference: error %v, want one naming it", err)
	}
}

// ReadRunHeader takes the planned epochs from the header's config (for RunSeries.Planned),
// and a log without a header gives none.
func TestReadRunHeaderTakesThePlannedEpochs(t *testing.T) {
	dir := t.TempDir()
	withHeader := filepath.Join(dir, "a.jsonl")
	header := `{"dataset":"cluster","preset":"cluster-ref","metric":"weighted-accuracy","seed":1,"config":{"epochs":150,"lr":0.0002}}` + "\n"
	if err := os.WriteFile(withHeader, []byte(header+`{"epoch":1,"val_metric":0.2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := ReadRunHeader(withHeader)
	if err != nil || h.Epochs != 150 || h.Dataset != "cluster" || h.Seed != 1 {
		t.Errorf("header %+v (%v), want cluster, seed 1, 150 epochs", h, err)
	}
	bare := filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(bare, []byte(`{"epoch":1,"val_metric":0.2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, err := ReadRunHeader(bare); err != nil || h != (RunHeader{}) {
		t.Errorf("a log without a header: %+v (%v), want the zero header", h, err)
	}
}
