package gexph

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/gexph/gexph/internal/progress"
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
	// Backend says where the epoch ran (BackendLabel of the model's backend: "go",
	// "xla:cuda,tf32=false"); a run resumed on another backend mixes them. Empty in logs
	// of older versions.
	Backend string `json:"backend,omitempty"`
	// Machine says which machine the epoch ran on (sysinfo.Machine: "linux/amd64, 2 CPUs,
	// AMD EPYC, AVX2", the host of a GPU backend); a run resumed on another machine mixes
	// them, and its seconds per epoch differ by it. Empty in logs of older versions.
	Machine string `json:"machine,omitempty"`
	// CompiledShapes counts the input shapes compiled by the end of the epoch, all
	// programs together; CompiledTrainShapes and CompiledEvalShapes those of the
	// training step and of inference; CompileSeconds the seconds spent compiling (see
	// CompileStats). They count from the start of the run's call (a resumed run's from
	// its resumption); 0 in logs of older versions.
	CompiledShapes      int     `json:"compiled_shapes"`
	CompiledTrainShapes int     `json:"compiled_train_shapes"`
	CompiledEvalShapes  int     `json:"compiled_eval_shapes"`
	CompileSeconds      float64 `json:"compile_s"`
}

// setCompiles records what the run has compiled so far in the epoch's statistics.
func (s *EpochStats) setCompiles(c CompileStats) {
	s.CompiledShapes, s.CompileSeconds = c.CompiledShapes, c.CompileSeconds
	s.CompiledTrainShapes, s.CompiledEvalShapes = c.ShapesByProgram[programTrain], c.ShapesByProgram[programEval]
}

// epochStatsJSON is EpochStats as JSON holds it: a float that is not finite (which JSON
// cannot hold) is null.
type epochStatsJSON struct {
	Epoch               int      `json:"epoch"`
	TrainLoss           *float64 `json:"train_loss"`
	TrainMetric         *float64 `json:"train_metric"`
	ValLoss             *float64 `json:"val_loss"`
	ValMetric           *float64 `json:"val_metric"`
	TestMetric          *float64 `json:"test_metric,omitempty"`
	Best                bool     `json:"best,omitempty"`
	LR                  *float64 `json:"lr"`
	Seconds             *float64 `json:"seconds"`
	CPUSeconds          *float64 `json:"cpu_seconds"`
	ExamplesPerSec      *float64 `json:"examples_per_sec"`
	Diverged            bool     `json:"diverged,omitempty"`
	Backend             string   `json:"backend,omitempty"`
	Machine             string   `json:"machine,omitempty"`
	CompiledShapes      int      `json:"compiled_shapes"`
	CompiledTrainShapes int      `json:"compiled_train_shapes"`
	CompiledEvalShapes  int      `json:"compiled_eval_shapes"`
	CompileSeconds      *float64 `json:"compile_s"`
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
		{&s.CompileSeconds, &j.CompileSeconds},
	}
}

// MarshalJSON writes the epoch with null for each value that is not finite (the values
// of a diverged epoch), which encoding/json would refuse.
func (s EpochStats) MarshalJSON() ([]byte, error) {
	j := epochStatsJSON{Epoch: s.Epoch, Best: s.Best, Diverged: s.Diverged, Backend: s.Backend, Machine: s.Machine,
		CompiledShapes: s.CompiledShapes, CompiledTrainShapes: s.CompiledTrainShapes, CompiledEvalShapes: s.CompiledEvalShapes}
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
	*s = EpochStats{Epoch: j.Epoch, TestMetric: j.TestMetric, Best: j.Best, Diverged: j.Diverged, Backend: j.Backend, Machine: j.Machine,
		CompiledShapes: j.CompiledShapes, CompiledTrainShapes: j.CompiledTrainShapes, CompiledEvalShapes: j.CompiledEvalShapes}
	for _, f := range s.floatFields(&j) {
		*f.v = math.NaN()
		if *f.p != nil {
			*f.v = **f.p
		}
	}
	return nil
}

// epochParts are the parts of an epoch's progress line (progress.JoinParts): epoch and
// training, validation, test, learning rate, time.
func (s EpochStats) epochParts(metric string, epochs int) []string {
	parts := []string{
		fmt.Sprintf("epoch %*d/%d  train loss %.4f %s %.4f", progress.Digits(epochs), s.Epoch, epochs, s.TrainLoss, metric, s.TrainMetric),
		fmt.Sprintf("val loss %.4f %s %.4f", s.ValLoss, metric, s.ValMetric),
	}
	if s.TestMetric != nil {
		parts = append(parts, fmt.Sprintf("test %s %.4f", metric, *s.TestMetric))
	}
	parts = append(parts, fmt.Sprintf("lr %.2e", s.LR), fmt.Sprintf("%.1fs (%.0f ex/s)", s.Seconds, s.ExamplesPerSec))
	if s.Best {
		parts[len(parts)-1] += " *"
	}
	return parts
}

// printEpoch writes the progress line of epoch st of a run of cfg.
func printEpoch(prog *progress.Progress, st EpochStats, cfg Config) {
	prog.Epoch(st.Seconds, st.epochParts(cfg.Metric, cfg.Epochs))
}
