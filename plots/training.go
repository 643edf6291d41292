package plots

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxLogLine bounds the length of one line of a training log.
const maxLogLine = 1 << 20

// ReadTrainingLog reads a JSON-lines training log, such as the one gexph.Train
// writes: one JSON object per line (blank lines, and a header line holding a "config"
// object, are skipped) with fields like
// epoch, train_loss, train_metric, val_loss, val_metric, lr, seconds and
// examples_per_sec. Each line becomes one record of its numeric fields; true and
// false become 1 and 0, and null, strings, arrays and objects are left out, so a
// field missing from some epochs (test_metric) is simply absent there. Errors
// name the file and line.
func ReadTrainingLog(path string) ([]map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("plots: reading training log: %w", err)
	}
	defer f.Close()
	return readTrainingLog(f, path)
}

// readTrainingLog parses a JSON-lines log from r; name is used in errors.
func readTrainingLog(r io.Reader, name string) ([]map[string]float64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLogLine)
	records := []map[string]float64{}
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if isRunHeader(text) {
			continue
		}
		rec, err := decodeRecord(text)
		if err != nil {
			return nil, fmt.Errorf("plots: %s:%d: %w", name, line, err)
		}
		records = append(records, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("plots: %s:%d: line longer than %d bytes", name, line+1, maxLogLine)
		}
		return nil, fmt.Errorf("plots: %s:%d: %w", name, line+1, err)
	}
	return records, nil
}

// RunHeader is what ReadRunHeader takes from the first line of a run's log (gexph's
// LogHeader): the data set, preset, metric name and seed, for labels, and the epochs
// the run plans (its config's), for the x axis.
type RunHeader struct {
	Dataset string `json:"dataset"`
	Preset  string `json:"preset"`
	Metric  string `json:"metric"`
	Seed    uint64 `json:"seed"`
	Epochs  int    `json:"-"`
}

// ReadRunHeader returns the header line of the training log at path; a log without one
// gives a zero RunHeader and no error.
func ReadRunHeader(path string) (RunHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return RunHeader{}, fmt.Errorf("plots: reading training log: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), maxLogLine)
	var h RunHeader
	if sc.Scan() && isRunHeader(bytes.TrimSpace(sc.Bytes())) {
		var planned struct {
			Config struct {
				Epochs int `json:"epochs"`
			} `json:"config"`
		}
		if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
			return RunHeader{}, fmt.Errorf("plots: %s:1: %w", path, err)
		}
		if err := json.Unmarshal(sc.Bytes(), &planned); err != nil {
			return RunHeader{}, fmt.Errorf("plots: %s:1: config: %w", path, err)
		}
		h.Epochs = planned.Config.Epochs
	}
	return h, sc.Err()
}

// isRunHeader tells a log's header line (an object with a "config" object) from an
// epoch line.
func isRunHeader(text []byte) bool {
	var probe struct {
		Config json.RawMessage `json:"config"`
	}
	return bytes.HasPrefix(text, []byte("{")) && json.Unmarshal(text, &probe) == nil && bytes.HasPrefix(bytes.TrimSpace(probe.Config), []byte("{"))
}

// decodeRecord decodes one JSON object into its numeric (and boolean) fields.
func decodeRecord(text []byte) (map[string]float64, error) {
	var fields map[string]any
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&fields); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if fields == nil {
		return nil, fmt.Errorf("not a JSON object: null")
	}
	if dec.More() {
		return nil, fmt.Errorf("text after the JSON object")
	}
	rec := make(map[string]float64, len(fields))
	for k, v := range fields {
		switch v := v.(type) {
		case float64:
			rec[k] = v
		case bool:
			rec[k] = 0
			if v {
				rec[k] = 1
			}
		}
	}
	return rec, nil
}

// EpochRecords turns training statistics into records for TrainingCurves: history
// is a slice of structs with JSON field tags, such as the []gexph.EpochStats of a
// training result, or anything else that encodes as a JSON array of objects (a nil
// slice gives no records). Each element becomes one record of its numeric fields,
// as in ReadTrainingLog.
func EpochRecords(history any) ([]map[string]float64, error) {
	data, err := json.Marshal(history)
	if err != nil {
		return nil, fmt.Errorf("plots: epoch records: %w", err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("plots: epoch records: %T does not encode as a JSON array: %w", history, err)
	}
	records := make([]map[string]float64, len(items))
	for i, item := range items {
		if records[i], err = decodeRecord(item); err != nil {
			return nil, fmt.Errorf("plots: epoch records: element %d: %w", i, err)
		}
	}
	return records, nil
}

// TrainingCurves draws the fields keys of the records (from ReadTrainingLog or
// EpochRecords) against the epoch, one line with markers per key; nil keys draw
// train_loss and val_loss. The x value of a record is its "epoch" field, or its
// position (from 1) when any record lacks one; records without a key leave a gap
// in that key's line. Losses and metrics have different scales, so draw them in
// separate figures. logY draws the values on a log scale (non-positive values are
// then left out).
func TrainingCurves(records []map[string]float64, keys []string, logY bool) (*plot.Plot, error) {
	if len(records) == 0 {
		return nil, fmt.Errorf("plots: training curves: no records")
	}
	if keys == nil {
		keys = []string{"train_loss", "val_loss"}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("plots: training curves: no keys")
	}
	byEpoch := true
	for _, r := range records {
		if _, ok := r["epoch"]; !ok {
			byEpoch = false
			break
		}
	}
	yLabel := trainingYLabel(keys)
	p := newPlot("Training curves: "+yLabel, "epoch", yLabel)
	p.X.Tick.Marker = linearTicks{integer: true}
	if logY {
		useLogY(p)
	}
	m := &marks{}
	for i, key := range keys {
		var xys plotter.XYs
		for j, r := range records {
			y, ok := r[key]
			if !ok {
				continue
			}
			x := float64(j + 1)
			if byEpoch {
				x = r["epoch"]
			}
			if !isFinite(x) || !isFinite(y) {
				return nil, fmt.Errorf("plots: training curves: record %d has %s = %v at epoch %v", j, key, y, x)
			}
			if logY {
				if y <= 0 {
					continue
				}
				y = math.Log10(y)
			}
			xys = append(xys, plotter.XY{X: x, Y: y})
		}
		if len(xys) == 0 && logY {
			return nil, fmt.Errorf("plots: training curves: no record has a %s above 0 for a log scale", key)
		}
		if len(xys) == 0 {
			return nil, fmt.Errorf("plots: training curves: no record has a %s", key)
		}
		l := newSeriesLine(xys, i)
		pts := newSeriesScatter(xys, i, vg.Points(2.5))
		p.Add(l, pts)
		// With a shared quantity on the axis, the legend names what differs:
		// "train" and "val" under "loss".
		addLegend(p, strings.TrimSuffix(key, "_"+yLabel), l, pts)
		m.line(xys)
	}
	finishLegend(p, m)
	return p, nil
}

// trainingYLabel names the y axis after what the keys have in common.
func trainingYLabel(keys []string) string {
	if len(keys) == 1 {
		return keys[0]
	}
	for _, part := range [...]string{"loss", "metric"} {
		if !slices.ContainsFunc(keys, func(k string) bool { return !strings.Contains(k, part) }) {
			return part
		}
	}
	return "value"
}

// Comparison draws one variant per column, as the results of a paper's comparison or
// ablation table: a dot at means[i] with an error bar of ±errs[i] (nil errs draws
// none), labels[i] under it, and the value written beside it with as many decimals as
// the errors need (92.20 ± 0.54). The y axis spans the data, not zero to the top:
// 91.5 against 92.2 must be visible. yLabel names the measured quantity.
func Comparison(labels []string, means, errs []float64, yLabel string) (*plot.Plot, error) {
	n := len(labels)
	if n == 0 {
		return nil, fmt.Errorf("plots: comparison: no labels")
	}
	if len(means) != n {
		return nil, fmt.Errorf("plots: comparison: %d labels but %d means", n, len(means))
	}
	if errs != nil && len(errs) != n {
		return nil, fmt.Errorf("plots: comparison: %d labels but %d errors", n, len(errs))
	}
	errAt := func(i int) float64 {
		if errs == nil {
			return 0
		}
		return errs[i]
	}
	for i, m := range means {
		if !isFinite(m) {
			return nil, fmt.Errorf("plots: comparison: mean %d (%q) is %v", i, labels[i], m)
		}
		if e := errAt(i); !isFinite(e) || e < 0 {
			return nil, fmt.Errorf("plots: comparison: error %d (%q) is %v", i, labels[i], e)
		}
	}
	decimals := comparisonDecimals(means, errs)
	p := newPlot("Comparison", "", yLabel)
	lo, hi := math.Inf(1), math.Inf(-1)
	anchor := make(plotter.XYs, n)
	text := make([]string, n)
	for i, m := range means {
		e := errAt(i)
		dot, err := plotter.NewScatter(plotter.XYs{{X: float64(i), Y: m}})
		if err != nil {
			return nil, fmt.Errorf("plots: comparison: %w", err)
		}
		dot.GlyphStyle = draw.GlyphStyle{Color: seriesColor(i), Radius: vg.Points(4.5), Shape: draw.CircleGlyph{}}
		p.Add(dot)
		lo, hi = min(lo, m-e), max(hi, m+e)
		anchor[i] = plotter.XY{X: float64(i), Y: m}
		text[i] = strconv.FormatFloat(m, 'f', decimals, 64)
		if errs != nil {
			text[i] += " ± " + strconv.FormatFloat(e, 'f', decimals, 64)
		}
	}
	if errs != nil {
		p.Add(&errorBars{means: means, errs: errs, style: lineStyle(rgb(theoryRGB), 1.2, nil)})
	}
	values, err := plotter.NewLabels(plotter.XYLabels{XYs: anchor, Labels: text})
	if err != nil {
		return nil, fmt.Errorf("plots: comparison: value labels: %w", err)
	}
	for i := range values.TextStyle {
		values.TextStyle[i].Font.Size = vg.Points(9)
		values.TextStyle[i].XAlign = draw.XLeft
		values.TextStyle[i].YAlign = draw.YCenter
	}
	values.Offset = vg.Point{X: vg.Points(9)}
	p.Add(values)
	p.NominalX(labels...)
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(hi), 1) * 0.01
	}
	p.Y.Min, p.Y.Max = lo-0.15*span, hi+0.15*span
	p.X.Min, p.X.Max = -0.5, float64(n)-0.2
	return p, nil
}

// comparisonDecimals is the number of decimals that shows the errors to two
// significant digits (the means to the same place), between 0 and 6; 2 without errors.
func comparisonDecimals(means, errs []float64) int {
	smallest := math.Inf(1)
	for _, e := range errs {
		if e > 0 {
			smallest = min(smallest, e)
		}
	}
	if math.IsInf(smallest, 1) {
		return 2
	}
	return max(0, min(6, 1-int(math.Floor(math.Log10(smallest)))))
}

// errorBars draws vertical ±err bars with caps on bars at x = 0, 1, ….
type errorBars struct {
	means, errs []float64
	style       draw.LineStyle
}

// Plot implements plot.Plotter.
func (e *errorBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	capHalf := vg.Points(5)
	for i, m := range e.means {
		if e.errs[i] == 0 {
			continue
		}
		x := trX(float64(i))
		y0, y1 := trY(m-e.errs[i]), trY(m+e.errs[i])
		c.StrokeLine2(e.style, x, y0, x, y1)
		c.StrokeLine2(e.style, x-capHalf, y0, x+capHalf, y0)
		c.StrokeLine2(e.style, x-capHalf, y1, x+capHalf, y1)
	}
}
