package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/jsonfile"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
)

// The scaling suite: seconds per epoch and peak memory of Exphormer attention against
// full dense attention on synthetic planted-partition graphs of growing size, with the
// same GCN + attention model and the same training loop as the transductive presets.

// SuiteScaling is the scaling suite's name (see ScalingPoints and RunScalingSuite).
const SuiteScaling = "scaling"

// ScalingSettings fixes the model and the graphs of the scaling suite. Every point of a
// suite uses the same settings, recorded beside its measurement.
type ScalingSettings struct {
	// Layers, Hidden and Heads size the GPS model (GCN + attention + FFN).
	Layers int `json:"layers"`
	Hidden int `json:"hidden"`
	Heads  int `json:"heads"`
	// ExpanderDegree is the degree of the Exphormer expander (no virtual nodes).
	ExpanderDegree int `json:"expander_degree"`
	// AvgDegree is the planted-partition graph's expected degree.
	AvgDegree float64 `json:"avg_degree"`
	// Epochs is the number of training epochs; the first (which compiles) is not timed.
	Epochs int `json:"epochs"`
	// Seed determines the graphs, expanders and weights.
	Seed uint64 `json:"seed"`
}

// DefaultScalingSettings returns the scaling suite's settings: 2 layers of width 16 with
// 2 heads, expander degree 6, graphs of expected degree 5, 3 epochs, seed 1. The model
// is smaller than the Computers preset so that Exphormer reaches 10⁶ nodes on a 24 GB
// machine (at width 32 it needed 15 GB at 5·10⁵ nodes and ran out at 10⁶); full
// attention's [heads, n, n] tensors do not depend on the width.
func DefaultScalingSettings() ScalingSettings {
	return ScalingSettings{Layers: 2, Hidden: 16, Heads: 2, ExpanderDegree: 6, AvgDegree: 5, Epochs: 3, Seed: 1}
}

// Validate checks the settings.
func (s ScalingSettings) Validate() error {
	if s.Layers < 1 || s.Hidden < 1 || s.Heads < 1 || s.ExpanderDegree < 1 || s.Epochs < 2 {
		return fmt.Errorf("scaling settings %+v: want Layers, Hidden, Heads, ExpanderDegree ≥ 1 and Epochs ≥ 2", s)
	}
	if !(s.AvgDegree > 0) || math.IsInf(s.AvgDegree, 0) {
		return fmt.Errorf("scaling settings: AvgDegree = %v, want > 0", s.AvgDegree)
	}
	return nil
}

// Config returns the model configuration of one scaling point: the "scaling" preset
// (the computers architecture: GCN + attention, batch norm, no virtual nodes; no dropout,
// no warm-up) sized by the settings, with the given attention (layers.GlobalExphormer or
// layers.GlobalFull).
func (s ScalingSettings) Config(attention layers.GlobalModel) (gexph.Config, error) {
	if attention != layers.GlobalExphormer && attention != layers.GlobalFull {
		return gexph.Config{}, fmt.Errorf("scaling: attention %q, want %q or %q", attention, layers.GlobalExphormer, layers.GlobalFull)
	}
	if err := s.Validate(); err != nil {
		return gexph.Config{}, err
	}
	cfg, err := gexph.Preset("scaling")
	if err != nil {
		return gexph.Config{}, err
	}
	cfg.Attention = attention
	cfg.Layers, cfg.HiddenDim, cfg.Heads = s.Layers, s.Hidden, s.Heads
	cfg.ExpanderDegree = s.ExpanderDegree
	cfg.Epochs = s.Epochs
	cfg.Seed = s.Seed
	return cfg, cfg.Validate()
}

// ScalingPoint is one measurement of the scaling suite: an attention on a graph size.
type ScalingPoint struct {
	Attention layers.GlobalModel `json:"attention"`
	Nodes     int                `json:"nodes"`
}

// Name identifies the point: "<attention>_<nodes>".
func (p ScalingPoint) Name() string { return fmt.Sprintf("%s_%d", p.Attention, p.Nodes) }

// ScalingSizes are the graph sizes of the scaling suite: 1, 2 and 5 times each power
// of ten from 10³ to 10⁶.
var ScalingSizes = []int{1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000}

// ScalingPoints returns the suite's points up to maxNodes: Exphormer and full attention
// at every size of ScalingSizes, smallest first, the two attentions alternating.
// RunScalingSuite stops an attention at its first size that runs out of memory.
func ScalingPoints(maxNodes int) []ScalingPoint {
	var pts []ScalingPoint
	for _, n := range ScalingSizes {
		if n > maxNodes {
			break
		}
		pts = append(pts, ScalingPoint{layers.GlobalExphormer, n}, ScalingPoint{layers.GlobalFull, n})
	}
	return pts
}

// ScalingResult is the measurement of one ScalingPoint, written to
// OutDir/points/<name>.json and as a row of scaling.csv.
type ScalingResult struct {
	ScalingPoint
	// Edges is the number of directed edges of the input graph (both directions of
	// each undirected edge).
	Edges int `json:"edges"`
	// Params is the model's number of trainable parameters.
	Params int `json:"params"`
	// EpochSeconds is the median wall time of the epochs after the first (a
	// full-batch training step, then validation and, at a new best, test evaluation).
	EpochSeconds float64 `json:"epoch_seconds"`
	// PeakRSSMB is the peak resident memory of the measurement, in MiB.
	PeakRSSMB float64 `json:"peak_rss_mb"`
	// OutOfMemory tells that the measurement exceeded the memory limit (then only
	// PeakRSSMB, the memory reached when it was stopped, is set), and Skipped that it was
	// not run because a smaller graph of the same attention ran out of memory.
	OutOfMemory bool `json:"out_of_memory,omitempty"`
	Skipped     bool `json:"skipped,omitempty"`
	// MemLimitMB is the memory limit of the measurement in MiB (0: none).
	MemLimitMB float64 `json:"mem_limit_mb,omitempty"`
	// Settings are the suite's settings.
	Settings ScalingSettings `json:"settings"`
}

// MeasureScaling measures one scaling point in this process: it generates the
// planted-partition graph of p.Nodes nodes (data.DefaultPlantedPartitionOptions with
// the settings' degree and seed), trains the settings' model with p.Attention for
// Settings.Epochs epochs and reports the median epoch time after the first and the peak
// memory since the start (reset where the kernel allows; run each point in a process of
// its own for a peak of its own). It does not refuse full attention that would not fit
// (TrainOptions.NoMemoryCheck): run it under a memory watchdog, as RunScalingSuite's
// caller in the gexph command does.
func MeasureScaling(ctx context.Context, s ScalingSettings, p ScalingPoint, backend string) (ScalingResult, error) {
	cfg, err := s.Config(p.Attention)
	if err != nil {
		return ScalingResult{}, err
	}
	sysinfo.ResetPeakRSS()
	o := data.DefaultPlantedPartitionOptions(p.Nodes, s.Seed)
	o.AvgDegree = s.AvgDegree
	ds, err := data.GeneratePlantedPartition(o)
	if err != nil {
		return ScalingResult{}, fmt.Errorf("scaling %s: %w", p.Name(), err)
	}
	res, err := gexph.Train(ctx, cfg, ds, gexph.TrainOptions{Backend: backend, NoMemoryCheck: true})
	if err != nil {
		return ScalingResult{}, fmt.Errorf("scaling %s: %w", p.Name(), err)
	}
	return ScalingResult{
		ScalingPoint: p, Edges: len(ds.Graphs[0].Src), Params: res.Params,
		EpochSeconds: medianEpochSeconds(res.History[1:]), PeakRSSMB: sysinfo.PeakRSSMB(), Settings: s,
	}, nil
}

// ScalingOptions sets where and how RunScalingSuite measures.
type ScalingOptions struct {
	// OutDir receives points/<name>.json per point and scaling.csv. Required.
	OutDir string
	// Settings are the suite's settings (zero: DefaultScalingSettings).
	Settings ScalingSettings
	// Measure measures one point; nil measures in this process with MeasureScaling on
	// Backend. The gexph command runs each point in a child process under a memory
	// limit instead, and reports OutOfMemory when the child exceeds it.
	Measure func(ctx context.Context, s ScalingSettings, p ScalingPoint) (ScalingResult, error)
	// Backend is the backend spec of the in-process measurement.
	Backend string
	// Log receives a line per point; nil is silent.
	Log io.Writer
}

// RunScalingSuite measures the points in order and records each in
// OutDir/points/<name>.json (atomically); a point already recorded with the same
// settings is not measured again, so an interrupted suite resumes. Once an attention
// runs out of memory at some size, its larger sizes are recorded as skipped. After every
// point OutDir/scaling.csv is rewritten from all records.
func RunScalingSuite(ctx context.Context, points []ScalingPoint, opts ScalingOptions) error {
	if opts.OutDir == "" {
		return errors.New("scaling suite: empty OutDir")
	}
	s := opts.Settings
	if s == (ScalingSettings{}) {
		s = DefaultScalingSettings()
	}
	if err := s.Validate(); err != nil {
		return err
	}
	for _, p := range points {
		if _, err := s.Config(p.Attention); err != nil {
			return err
		}
		if p.Nodes < 2 {
			return fmt.Errorf("scaling suite: point %s: want ≥ 2 nodes", p.Name())
		}
	}
	measure := opts.Measure
	if measure == nil {
		measure = func(ctx context.Context, s ScalingSettings, p ScalingPoint) (ScalingResult, error) {
			return MeasureScaling(ctx, s, p, opts.Backend)
		}
	}
	dir := filepath.Join(opts.OutDir, "points")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("scaling suite: %w", err)
	}
	oomAt := map[layers.GlobalModel]int{} // attention → smallest size out of memory
	for i, p := range points {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("scaling suite: %w", err)
		}
		path := filepath.Join(dir, p.Name()+".json")
		rec, err := readScalingResult(path)
		switch {
		case err == nil && rec.Settings == s && !rec.Skipped:
			logf(opts.Log, "[%d/%d] %s: done (%s)\n", i+1, len(points), p.Name(), path)
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return err
		default:
			if n, ok := oomAt[p.Attention]; ok && n <= p.Nodes {
				rec = ScalingResult{ScalingPoint: p, Skipped: true, Settings: s}
				logf(opts.Log, "[%d/%d] %s: skipped (out of memory at %d nodes)\n", i+1, len(points), p.Name(), n)
			} else {
				logf(opts.Log, "[%d/%d] %s: measuring\n", i+1, len(points), p.Name())
				if rec, err = measure(ctx, s, p); err != nil {
					return err
				}
				rec.ScalingPoint, rec.Settings = p, s
				logf(opts.Log, "[%d/%d] %s: %.3g s/epoch, %.0f MiB%s\n", i+1, len(points), p.Name(), rec.EpochSeconds, rec.PeakRSSMB,
					map[bool]string{true: " (out of memory)", false: ""}[rec.OutOfMemory])
			}
			if err := jsonfile.Write(path, rec); err != nil {
				return fmt.Errorf("scaling suite: %w", err)
			}
		}
		if rec.OutOfMemory {
			if n, ok := oomAt[p.Attention]; !ok || p.Nodes < n {
				oomAt[p.Attention] = p.Nodes
			}
		}
		if err := writeScalingCSV(dir, filepath.Join(opts.OutDir, "scaling.csv")); err != nil {
			return err
		}
	}
	return writeScalingCSV(dir, filepath.Join(opts.OutDir, "scaling.csv"))
}

// readScalingResult reads one point's record.
func readScalingResult(path string) (ScalingResult, error) {
	var r ScalingResult
	if err := jsonfile.Read(path, &r); err != nil {
		return ScalingResult{}, fmt.Errorf("scaling suite: %w", err)
	}
	return r, nil
}

// scalingHeader is scaling.csv's header.
var scalingHeader = []string{"attention", "nodes", "edges", "params", "epoch_seconds", "peak_rss_mb", "status",
	"layers", "hidden", "heads", "expander_degree", "avg_degree", "epochs", "seed", "mem_limit_mb"}

// status returns the point's status column.
func (r ScalingResult) status() string {
	switch {
	case r.Skipped:
		return StatusSkipped
	case r.OutOfMemory:
		return StatusOutOfMemory
	}
	return StatusOK
}

// writeScalingCSV rewrites csvPath atomically from the records in dir, sorted by
// attention, then size.
func writeScalingCSV(dir, csvPath string) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return fmt.Errorf("scaling suite: %w", err)
	}
	var recs []ScalingResult
	for _, p := range paths {
		r, err := readScalingResult(p)
		if err != nil {
			return err
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].Attention != recs[j].Attention {
			return recs[i].Attention < recs[j].Attention
		}
		return recs[i].Nodes < recs[j].Nodes
	})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	rows := [][]string{scalingHeader}
	for _, r := range recs {
		s := r.Settings
		rows = append(rows, []string{string(r.Attention), strconv.Itoa(r.Nodes), strconv.Itoa(r.Edges), strconv.Itoa(r.Params),
			f(r.EpochSeconds), f(r.PeakRSSMB), r.status(), strconv.Itoa(s.Layers), strconv.Itoa(s.Hidden),
			strconv.Itoa(s.Heads), strconv.Itoa(s.ExpanderDegree), f(s.AvgDegree), strconv.Itoa(s.Epochs),
			strconv.FormatUint(s.Seed, 10), f(r.MemLimitMB)})
	}
	if err := writeCSVFile(csvPath, rows); err != nil {
		return fmt.Errorf("scaling suite: %w", err)
	}
	return nil
}

// ReadScalingCSV reads a scaling.csv written by RunScalingSuite.
func ReadScalingCSV(path string) ([]ScalingResult, error) {
	records, err := readCSVFile(path)
	if err != nil {
		return nil, fmt.Errorf("scaling csv: %w", err)
	}
	if len(records) == 0 || !slices.Equal(records[0], scalingHeader) {
		return nil, fmt.Errorf("scaling csv: %s: want the header %q", path, scalingHeader)
	}
	var out []ScalingResult
	for line, rec := range records[1:] {
		var r ScalingResult
		ints := []*int{&r.Nodes, &r.Edges, &r.Params, &r.Settings.Layers, &r.Settings.Hidden, &r.Settings.Heads, &r.Settings.ExpanderDegree, &r.Settings.Epochs}
		for i, col := range []int{1, 2, 3, 7, 8, 9, 10, 12} {
			v, err := strconv.Atoi(rec[col])
			if err != nil {
				return nil, fmt.Errorf("scaling csv: %s line %d: %s = %q, want an integer", path, line+2, scalingHeader[col], rec[col])
			}
			*ints[i] = v
		}
		floats := []*float64{&r.EpochSeconds, &r.PeakRSSMB, &r.Settings.AvgDegree, &r.MemLimitMB}
		for i, col := range []int{4, 5, 11, 14} {
			v, err := strconv.ParseFloat(rec[col], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("scaling csv: %s line %d: %s = %q, want a finite number", path, line+2, scalingHeader[col], rec[col])
			}
			*floats[i] = v
		}
		seed, err := strconv.ParseUint(rec[13], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("scaling csv: %s line %d: seed = %q, want an integer", path, line+2, rec[13])
		}
		r.Settings.Seed = seed
		r.Attention = layers.GlobalModel(rec[0])
		switch rec[6] {
		case StatusOK:
		case StatusOutOfMemory:
			r.OutOfMemory = true
		case StatusSkipped:
			r.Skipped = true
		default:
			return nil, fmt.Errorf("scaling csv: %s line %d: status = %q, want %s, %s or %s", path, line+2, rec[6], StatusOK, StatusOutOfMemory, StatusSkipped)
		}
		out = append(out, r)
	}
	return out, nil
}

// ScalingFit is a power law seconds (or MiB) ≈ C·xᵏ fitted by least squares on
// logarithms, over the measured points of one attention.
type ScalingFit struct {
	// Exponent is k; Coefficient is C.
	Exponent, Coefficient float64
	// Points is the number of points fitted.
	Points int
}

// FitPowerLaw fits y ≈ C·xᵏ to the points with x, y > 0 (least squares on log x,
// log y). It needs two distinct x.
func FitPowerLaw(x, y []float64) (ScalingFit, error) {
	var lx, ly []float64
	for i := range x {
		if x[i] > 0 && y[i] > 0 {
			lx, ly = append(lx, math.Log(x[i])), append(ly, math.Log(y[i]))
		}
	}
	n := float64(len(lx))
	var mx, my float64
	for i := range lx {
		mx, my = mx+lx[i], my+ly[i]
	}
	mx, my = mx/n, my/n
	var sxx, sxy float64
	for i := range lx {
		sxx += (lx[i] - mx) * (lx[i] - mx)
		sxy += (lx[i] - mx) * (ly[i] - my)
	}
	if len(lx) < 2 || sxx == 0 {
		return ScalingFit{}, fmt.Errorf("power-law fit: %d usable points, want two with distinct x > 0 and y > 0", len(lx))
	}
	k := sxy / sxx
	return ScalingFit{Exponent: k, Coefficient: math.Exp(my - k*mx), Points: len(lx)}, nil
}

// At returns C·xᵏ.
func (f ScalingFit) At(x float64) float64 { return f.Coefficient * math.Pow(x, f.Exponent) }

// Solve returns the x at which C·xᵏ = y.
func (f ScalingFit) Solve(y float64) float64 { return math.Pow(y/f.Coefficient, 1/f.Exponent) }
