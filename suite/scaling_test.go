package suite

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
)

func TestFitPowerLawKnownValues(t *testing.T) {
	// y = 3·x² exactly, and y = 0.5·x^1.1 with a zero (dropped) and a negative x.
	f, err := FitPowerLaw([]float64{10, 100, 1000}, []float64{300, 30000, 3e6})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Exponent-2) > 1e-12 || math.Abs(f.Coefficient-3) > 1e-9 || f.Points != 3 {
		t.Errorf("fit %+v, want exponent 2, coefficient 3", f)
	}
	if x := f.Solve(f.At(1234)); math.Abs(x-1234) > 1e-6 {
		t.Errorf("Solve(At(1234)) = %v", x)
	}
	xs := []float64{2, 4, 8, 0, -1}
	ys := []float64{0.5 * math.Pow(2, 1.1), 0.5 * math.Pow(4, 1.1), 0.5 * math.Pow(8, 1.1), 1, 1}
	if f, err = FitPowerLaw(xs, ys); err != nil || math.Abs(f.Exponent-1.1) > 1e-12 || f.Points != 3 {
		t.Errorf("fit %+v, %v; want exponent 1.1 over 3 points", f, err)
	}
	if _, err := FitPowerLaw([]float64{5, 5}, []float64{1, 2}); err == nil {
		t.Error("one distinct x: no error")
	}
}

func TestScalingPoints(t *testing.T) {
	pts := ScalingPoints(20000)
	var names []string
	for _, p := range pts {
		names = append(names, p.Name())
	}
	want := []string{"exphormer_1000", "full_1000", "exphormer_2000", "full_2000", "exphormer_5000", "full_5000",
		"exphormer_10000", "full_10000", "exphormer_20000", "full_20000"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("points %v, want %v", names, want)
	}
	if n := len(ScalingPoints(1000000)); n != 2*len(ScalingSizes) || ScalingSizes[len(ScalingSizes)-1] != 1000000 || ScalingSizes[0] != 1000 {
		t.Errorf("%d points up to 10⁶ over sizes %v", n, ScalingSizes)
	}
	s := DefaultScalingSettings()
	for _, attn := range []layers.GlobalModel{layers.GlobalExphormer, layers.GlobalFull} {
		c, err := s.Config(attn)
		if err != nil {
			t.Fatal(err)
		}
		if c.Attention != attn || c.MPNN != layers.LocalGCN || c.Layers != s.Layers || c.HiddenDim != s.Hidden || c.VirtualNodes != 0 || c.Dropout != 0 {
			t.Errorf("%s: config %+v", attn, c)
		}
	}
	if _, err := s.Config(layers.GlobalPerformer); err == nil {
		t.Error("performer: no error")
	}
	bad := s
	bad.Epochs = 1
	if err := bad.Validate(); err == nil {
		t.Error("1 epoch (nothing timed): no error")
	}
}

// TestRunScalingSuiteResumesAndSkips drives the runner with a fake measurement: full
// attention runs out of memory at 5000 nodes, so its larger sizes are skipped; a
// second pass measures nothing again; the CSV reads back.
func TestRunScalingSuiteResumesAndSkips(t *testing.T) {
	dir := t.TempDir()
	var measured []string
	measure := func(_ context.Context, s ScalingSettings, p ScalingPoint) (ScalingResult, error) {
		measured = append(measured, p.Name())
		n := float64(p.Nodes)
		r := ScalingResult{Edges: 10 * p.Nodes, Params: 1000, EpochSeconds: 1e-4 * n, PeakRSSMB: 100 + 0.01*n}
		if p.Attention == layers.GlobalFull {
			r.EpochSeconds, r.PeakRSSMB = 1e-7*n*n, 100+1e-5*n*n
			if p.Nodes >= 5000 {
				r = ScalingResult{OutOfMemory: true, PeakRSSMB: 400, MemLimitMB: 350}
			}
		}
		return r, nil
	}
	pts := ScalingPoints(20000)
	opts := ScalingOptions{OutDir: dir, Measure: measure}
	if err := RunScalingSuite(context.Background(), pts, opts); err != nil {
		t.Fatal(err)
	}
	want := []string{"exphormer_1000", "full_1000", "exphormer_2000", "full_2000", "exphormer_5000", "full_5000",
		"exphormer_10000", "exphormer_20000"}
	if !reflect.DeepEqual(measured, want) {
		t.Errorf("measured %v, want %v (full attention stops at its first out-of-memory size)", measured, want)
	}
	measured = nil
	if err := RunScalingSuite(context.Background(), pts, opts); err != nil {
		t.Fatal(err)
	}
	if len(measured) != 0 {
		t.Errorf("second pass measured %v, want nothing", measured)
	}
	// Other settings are another experiment: measured again.
	opts.Settings = DefaultScalingSettings()
	opts.Settings.Hidden = 24
	if err := RunScalingSuite(context.Background(), pts[:1], opts); err != nil || len(measured) != 1 {
		t.Errorf("changed settings: measured %v, %v", measured, err)
	}
	recs, err := ReadScalingCSV(filepath.Join(dir, "scaling.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(pts) {
		t.Fatalf("%d CSV rows, want %d", len(recs), len(pts))
	}
	status := map[string]string{}
	for _, r := range recs {
		status[r.Name()] = r.status()
	}
	if status["full_5000"] != StatusOutOfMemory || status["full_10000"] != StatusSkipped || status["full_2000"] != StatusOK || status["exphormer_20000"] != StatusOK {
		t.Errorf("statuses %v", status)
	}
	for _, r := range recs {
		if r.Name() == "full_2000" && (math.Abs(r.EpochSeconds-0.4) > 1e-9 || r.Edges != 20000 || r.Settings != DefaultScalingSettings()) {
			t.Errorf("full_2000 read back as %+v", r)
		}
	}
	// A broken record is an error naming the file, not a silent re-run.
	if err := os.WriteFile(filepath.Join(dir, "points", "full_1000.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Settings = ScalingSettings{}
	if err := RunScalingSuite(context.Background(), pts, opts); err == nil || !strings.Contains(err.Error(), "full_1000.json") {
		t.Errorf("broken record: %v", err)
	}
}

func TestReadScalingCSVErrors(t *testing.T) {
	dir := t.TempDir()
	header := strings.Join(scalingHeader, ",")
	row := "exphormer,1000,5000,100,0.5,120,ok,2,32,2,6,5,3,1,0"
	for name, text := range map[string]string{
		"no header":  row + "\n",
		"bad nodes":  header + "\n" + strings.Replace(row, ",1000,", ",x,", 1) + "\n",
		"NaN time":   header + "\n" + strings.Replace(row, ",0.5,", ",NaN,", 1) + "\n",
		"bad status": header + "\n" + strings.Replace(row, ",ok,", ",fine,", 1) + "\n",
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".csv")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadScalingCSV(path); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestMeasureScalingSmall measures both attentions on a small graph for real: the
// same model apart from the attention, a positive epoch time and peak memory.
func TestMeasureScalingSmall(t *testing.T) {
	s := DefaultScalingSettings()
	s.Layers, s.Hidden = 1, 8
	// The parameters in closed form (planted partition: 16 features, 5 classes): node
	// encoder F·d + d; per layer GCN d² + d, three batch norms 6d, FFN 4d² + 3d, and the
	// attention — Exphormer: Q, K, V and W_E without biases 4d², plus the edge encoder's
	// and the interaction edges' one learned type (d each); full: Q, K, V and the
	// output projection with biases 4d² + 4d; the head d² + 2d (bias-free hidden map and
	// its batch norm) and d·C + C.
	const f, classes = 16, 5
	d, l := s.Hidden, s.Layers
	common := f*d + d + l*(d*d+d+6*d+4*d*d+3*d) + d*d + 2*d + d*classes + classes
	want := map[layers.GlobalModel]int{
		layers.GlobalExphormer: common + l*4*d*d + 2*d,
		layers.GlobalFull:      common + l*(4*d*d+4*d),
	}
	for _, attn := range []layers.GlobalModel{layers.GlobalExphormer, layers.GlobalFull} {
		r, err := MeasureScaling(context.Background(), s, ScalingPoint{Attention: attn, Nodes: 300}, "")
		if err != nil {
			t.Fatal(err)
		}
		if !(r.EpochSeconds > 0) || r.Edges < 1000 || r.Nodes != 300 || r.Attention != attn {
			t.Errorf("%s: %+v", attn, r)
		}
		if r.Params != want[attn] {
			t.Errorf("%s: %d parameters, want %d", attn, r.Params, want[attn])
		}
		if total := sysinfo.MemTotalMB(); total > 0 && !(r.PeakRSSMB > 0 && r.PeakRSSMB <= total) {
			t.Errorf("%s: peak %.0f MiB, want in (0, %.0f]", attn, r.PeakRSSMB, total)
		}
		if now := sysinfo.ProcessRSSMB(os.Getpid()); now > 0 && r.PeakRSSMB < 0.5*now {
			t.Errorf("%s: peak %.0f MiB is below half of the resident memory %.0f MiB measured after it", attn, r.PeakRSSMB, now)
		}
	}
}

func TestFilterScalingPoints(t *testing.T) {
	pts, err := FilterScalingPoints(ScalingPoints(10000), `^full_[0-9]+000$`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pts {
		names = append(names, p.Name())
	}
	if want := []string{"full_1000", "full_2000", "full_5000", "full_10000"}; !reflect.DeepEqual(names, want) {
		t.Errorf("filtered %v, want %v", names, want)
	}
	if _, err := FilterScalingPoints(ScalingPoints(10000), "^nothing$"); err == nil || !strings.Contains(err.Error(), `"exphormer_1000"`) {
		t.Errorf("no match: %v, want an error with an example name", err)
	}
	if _, err := FilterScalingPoints(ScalingPoints(10000), "("); err == nil {
		t.Error("bad pattern: no error")
	}
}
