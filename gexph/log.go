package gexph

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"
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
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// ExamplesPerSec is the training throughput (graphs, or labelled nodes of a
	// transductive data set, per second of training steps).
	ExamplesPerSec float64 `json:"examples_per_sec"`
}

// progress writes the human-readable progress of a run to an io.Writer: one line per
// epoch, and on a terminal a bar that advances during the epoch.
type progress struct {
	w        io.Writer
	terminal bool
	metric   string
	epochs   int
	barShown bool
}

func newProgress(w io.Writer, metric string, epochs int) *progress {
	p := &progress{w: w, metric: metric, epochs: epochs}
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

// step redraws the bar after done of total training steps of epoch (terminals only).
func (p *progress) step(epoch, done, total int) {
	if p.w == nil || !p.terminal || total <= 1 {
		return
	}
	const width = 30
	fill := done * width / total
	fmt.Fprintf(p.w, "\r  epoch %*d/%d [%s%s] %d/%d", digits(p.epochs), epoch, p.epochs,
		strings.Repeat("=", fill), strings.Repeat(" ", width-fill), done, total)
	p.barShown = true
}

func (p *progress) clearBar() {
	if p.barShown {
		fmt.Fprint(p.w, "\r\033[K")
		p.barShown = false
	}
}

// epoch writes the line of one finished epoch.
func (p *progress) epoch(s EpochStats) {
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

// writeHistory rewrites the JSON-lines log of the epochs atomically.
func writeHistory(path string, history []EpochStats) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, s := range history {
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
		return nil
	})
}
