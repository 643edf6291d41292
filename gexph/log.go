package gexph

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// EpochStats are the statistics of one training epoch; the JSON log holds one per line.
type EpochStats struct {
	// Epoch is 1-based.
	Epoch int `json:"epoch"`
	// TrainLoss and TrainMetric come from the training steps (dropout active).
	TrainLoss   float64 `json:"train_loss"`
	TrainMetric float64 `json:"train_metric"`
	// ValLoss and ValMetric come from an inference pass over the validation split.
	ValLoss   float64 `json:"val_loss"`
	ValMetric float64 `json:"val_metric"`
	// TestMetric is measured in the epochs where the validation metric improved.
	TestMetric *float64 `json:"test_metric,omitempty"`
	// Best marks an epoch whose validation metric is the best so far.
	Best bool `json:"best,omitempty"`
	// LR is the learning rate of the epoch.
	LR float64 `json:"lr"`
	// Seconds is the wall time of the epoch (training and evaluation).
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the process's CPU time (user plus system) over the same span.
	CPUSeconds float64 `json:"cpu_seconds"`
	// ExamplesPerSec is the training throughput (graphs, or labelled nodes of a
	// transductive data set, per second of training steps).
	ExamplesPerSec float64 `json:"examples_per_sec"`
	// Diverged marks the epoch in which the loss became NaN or infinite, the run's last
	// (see DivergedError); its values that are not finite are null in JSON.
	Diverged bool `json:"diverged,omitempty"`
}

// epochStatsJSON is EpochStats as JSON holds it: a float that is not finite (which JSON
// cannot hold) is null.
type epochStatsJSON struct {
	Epoch          int      `json:"epoch"`
	TrainLoss      *float64 `json:"train_loss"`
	TrainMetric    *float64 `json:"train_metric"`
	ValLoss        *float64 `json:"val_loss"`
	ValMetric      *float64 `json:"val_metric"`
	TestMetric     *float64 `json:"test_metric,omitempty"`
	Best           bool     `json:"best,omitempty"`
	LR             *float64 `json:"lr"`
	Seconds        *float64 `json:"seconds"`
	CPUSeconds     *float64 `json:"cpu_seconds"`
	ExamplesPerSec *float64 `json:"examples_per_sec"`
	Diverged       bool     `json:"diverged,omitempty"`
}

// floatFields lists the float fields of s and j side by side.
func (s *EpochStats) floatFields(j *epochStatsJSON) []struct {
	v *float64
	p **float64
} {
	return []struct {
		v *float64
		p **float64
	}{
		{&s.TrainLoss, &j.TrainLoss}, {&s.TrainMetric, &j.TrainMetric}, {&s.ValLoss, &j.ValLoss},
		{&s.ValMetric, &j.ValMetric}, {&s.LR, &j.LR}, {&s.Seconds, &j.Seconds},
		{&s.CPUSeconds, &j.CPUSeconds}, {&s.ExamplesPerSec, &j.ExamplesPerSec},
	}
}

// MarshalJSON writes the epoch with null for each value that is not finite (the values
// of a diverged epoch), which encoding/json would refuse.
func (s EpochStats) MarshalJSON() ([]byte, error) {
	j := epochStatsJSON{Epoch: s.Epoch, Best: s.Best, Diverged: s.Diverged}
	for _, f := range s.floatFields(&j) {
		if finite(*f.v) {
			x := *f.v
			*f.p = &x
		}
	}
	if t := s.TestMetric; t != nil && finite(*t) {
		j.TestMetric = t
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads an epoch as MarshalJSON writes it: null is NaN, an absent value 0.
func (s *EpochStats) UnmarshalJSON(b []byte) error {
	var j epochStatsJSON
	for _, f := range s.floatFields(&j) {
		*f.p = new(float64)
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = EpochStats{Epoch: j.Epoch, TestMetric: j.TestMetric, Best: j.Best, Diverged: j.Diverged}
	for _, f := range s.floatFields(&j) {
		*f.v = math.NaN()
		if *f.p != nil {
			*f.v = **f.p
		}
	}
	return nil
}

// progress writes the human-readable progress of a run to an io.Writer: one line per
// epoch and per phase; during an epoch, on a terminal a progress bar (steps, steps per
// second, elapsed time and the epoch's ETA, the running loss and the run's ETA), and
// elsewhere (a log file, a pipe) a plain line every progressEvery.
type progress struct {
	w        io.Writer
	terminal bool
	metric   string
	epochs   int
	// bar is the current epoch's bar (terminals only); lastLine the time of the last
	// plain progress line.
	bar      *progressbar.ProgressBar
	lastLine time.Time
	// epochSecs accumulates the seconds of the epochs run so far, for the run's ETA.
	epochSecs float64
	epochsRun int
}

// progressEvery is the interval of the plain progress lines written where no terminal
// shows a bar.
const progressEvery = 10 * time.Second

func newProgress(w io.Writer, metric string, epochs int) *progress {
	p := &progress{w: w, metric: metric, epochs: epochs, lastLine: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// printf writes a line (nothing without a writer).
func (p *progress) printf(format string, args ...any) {
	if p.w == nil {
		return
	}
	p.clearBar()
	fmt.Fprintf(p.w, format+"\n", args...)
}

// phase names what the run does now (loading, building, compiling, evaluating).
func (p *progress) phase(format string, args ...any) {
	p.printf("· "+format, args...)
}

// step reports done of total training steps of epoch, and the running training loss.
func (p *progress) step(epoch, done, total int, loss float64, started time.Time) {
	if p.w == nil || total <= 1 {
		return
	}
	desc := fmt.Sprintf("epoch %*d/%d  loss %.4f%s", digits(p.epochs), epoch, p.epochs, loss, p.runETA(epoch, done, total, started))
	if p.terminal {
		if p.bar == nil {
			p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetWidth(24),
				progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("steps"),
				progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
		p.bar.Describe(desc)
		p.bar.Set(done)
		return
	}
	if time.Since(p.lastLine) < progressEvery {
		return
	}
	p.lastLine = time.Now()
	el := time.Since(started).Seconds()
	rate := float64(done) / math.Max(el, 1e-9)
	fmt.Fprintf(p.w, "%s | step %d/%d, %.2f steps/s, epoch ETA %s\n", desc, done, total, rate, fmtSeconds(float64(total-done)/math.Max(rate, 1e-9)))
}

// runETA estimates the rest of the run from the epochs so far (or, in the first, from
// this epoch's progress).
func (p *progress) runETA(epoch, done, total int, started time.Time) string {
	per := 0.0
	switch {
	case p.epochsRun > 0:
		per = p.epochSecs / float64(p.epochsRun)
	case done > 0:
		per = time.Since(started).Seconds() * float64(total) / float64(done)
	default:
		return ""
	}
	left := per*float64(p.epochs-epoch) + per*float64(total-done)/float64(max(total, 1))
	return ", run ETA " + fmtSeconds(left)
}

// fmtSeconds formats a duration in seconds as 42s, 3m05s or 2h07m.
func fmtSeconds(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}

func (p *progress) clearBar() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}

// epoch writes the line of one finished epoch.
func (p *progress) epoch(s EpochStats) {
	p.epochSecs += s.Seconds
	p.epochsRun++
	test := ""
	if s.TestMetric != nil {
		test = fmt.Sprintf(" | test %s %.4f", p.metric, *s.TestMetric)
	}
	star := ""
	if s.Best {
		star = " *"
	}
	p.printf("epoch %*d/%d  train loss %.4f %s %.4f | val loss %.4f %s %.4f%s | lr %.2e | %.1fs (%.0f ex/s)%s",
		digits(p.epochs), s.Epoch, p.epochs, s.TrainLoss, p.metric, s.TrainMetric, s.ValLoss, p.metric, s.ValMetric,
		test, s.LR, s.Seconds, s.ExamplesPerSec, star)
}

func digits(n int) int { return len(fmt.Sprint(n)) }
