package gexph

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gexph/gexph/gexph/buildcheck"
	"github.com/gexph/gexph/internal/logfile"
	"github.com/gexph/gexph/internal/tfevents"
)

// LogHeader is the first line of a run's log.jsonl: what the run is, so that a log read
// alone (by `gexph plot`, a notebook, `tail -f`) says which data, metric and config its
// epoch lines belong to. Every later line is one EpochStats.
type LogHeader struct {
	Dataset string `json:"dataset"`
	// DatasetFingerprint identifies the data's content (data.Dataset.Fingerprint; empty
	// in logs of older versions and of runs without an output directory).
	DatasetFingerprint string `json:"dataset_fingerprint,omitempty"`
	Preset             string `json:"preset"`
	// Metric names train_metric, val_metric and test_metric of the epoch lines.
	Metric  string `json:"metric"`
	Seed    uint64 `json:"seed"`
	Version string `json:"version"`
	Config  Config `json:"config"`
}

// CSVLogFile is the per-epoch log as CSV, one row per epoch under a header row.
const CSVLogFile = "log.csv"

// runLogs are the per-epoch logs of a run: log.jsonl and log.csv in the output
// directory, appended one line per finished epoch, and a TensorBoard event file.
type runLogs struct {
	jsonl, csv *os.File
	tb         *tfevents.Writer
}

// openRunLogs starts the logs of a run whose checkpoint info holds the epochs so far
// (none for a fresh run): log.jsonl and log.csv are made to hold the header and those
// epochs (a resumed run continues the logs of its checkpoint, whatever a killed run left
// after it) and then opened for appending; see logfile.OpenAppend for when a file is kept.
func openRunLogs(opts TrainOptions, info CheckpointInfo, cfg Config, dataset string) (*runLogs, error) {
	l := &runLogs{}
	if opts.OutDir != "" {
		hdr := LogHeader{Dataset: dataset, DatasetFingerprint: info.DatasetFingerprint, Preset: cfg.Preset, Metric: cfg.Metric, Seed: cfg.Seed, Version: buildcheck.Version(), Config: cfg}
		var js, cs bytes.Buffer
		if err := json.NewEncoder(&js).Encode(hdr); err != nil {
			return nil, err
		}
		cw := csv.NewWriter(&cs)
		cw.Write(logfile.CSVColumns[EpochStats]())
		for _, st := range info.History {
			if err := json.NewEncoder(&js).Encode(st); err != nil {
				return nil, err
			}
			cw.Write(logfile.CSVRow(st))
		}
		cw.Flush()
		var err error
		if l.jsonl, err = logfile.OpenAppend(filepath.Join(opts.OutDir, LogFile), js.Bytes()); err != nil {
			return nil, err
		}
		if l.csv, err = logfile.OpenAppend(filepath.Join(opts.OutDir, CSVLogFile), cs.Bytes()); err != nil {
			l.Close()
			return nil, err
		}
	}
	if opts.TensorBoardDir != "" {
		var err error
		if l.tb, err = tfevents.Create(opts.TensorBoardDir); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

// epoch appends one epoch to every log; each line goes out in one write, so a reader
// (tail -f) never sees half of it unless the process dies inside that write.
func (l *runLogs) epoch(st EpochStats) error {
	if l.jsonl != nil {
		line, err := json.Marshal(st)
		if err != nil {
			return err
		}
		if _, err := l.jsonl.Write(append(line, '\n')); err != nil {
			return fmt.Errorf("log: %w", err)
		}
		var b bytes.Buffer
		cw := csv.NewWriter(&b)
		cw.Write(logfile.CSVRow(st))
		cw.Flush()
		if _, err := l.csv.Write(b.Bytes()); err != nil {
			return fmt.Errorf("log: %w", err)
		}
	}
	if l.tb != nil {
		scalars := map[string]float64{"loss/train": st.TrainLoss, "loss/val": st.ValLoss,
			"metric/train": st.TrainMetric, "metric/val": st.ValMetric, "lr": st.LR, "seconds": st.Seconds}
		if st.TestMetric != nil {
			scalars["metric/test"] = *st.TestMetric
		}
		if err := l.tb.Scalars(int64(st.Epoch), scalars); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the logs.
func (l *runLogs) Close() error {
	var first error
	closers := []io.Closer{fileCloser(l.jsonl), fileCloser(l.csv)}
	if l.tb != nil {
		closers = append(closers, l.tb)
	}
	for _, c := range closers {
		if c == nil {
			continue
		}
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func fileCloser(f *os.File) io.Closer {
	if f == nil {
		return nil
	}
	return f
}
