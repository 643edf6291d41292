package gexph

import (
	"github.com/gexph/gexph/internal/jsonfile"
	"gonum.org/v1/gonum/stat"
)

// AggregateFile is the aggregate of a multi-seed run (`gexph train -seeds`), beside
// its seed-S directories.
const AggregateFile = "aggregate.json"

// MeanStd is a mean and a sample standard deviation (0 for one value).
type MeanStd struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// AggregateResult summarises runs of one config over several seeds, as GraphGym's
// agg_runs does: the mean ± standard deviation of each final figure, and the runs.
type AggregateResult struct {
	Dataset string `json:"dataset"`
	Preset  string `json:"preset"`
	Metric  string `json:"metric"`
	// Seeds lists the seeds in the order of Runs.
	Seeds      []uint64 `json:"seeds"`
	ValMetric  MeanStd  `json:"val_metric"`
	TestMetric MeanStd  `json:"test_metric"`
	BestEpoch  MeanStd  `json:"best_epoch"`
	Seconds    MeanStd  `json:"seconds"`
	// Runs are the runs' results without their per-epoch histories.
	Runs []Result `json:"runs"`
}

// Aggregate summarises results (of one config, one per seed).
func Aggregate(results []*Result) AggregateResult {
	var agg AggregateResult
	var val, test, best, secs []float64
	for _, r := range results {
		if agg.Dataset == "" {
			agg.Dataset, agg.Preset, agg.Metric = r.Dataset, r.Preset, r.Metric
		}
		agg.Seeds = append(agg.Seeds, r.Seed)
		val, test = append(val, r.ValMetric), append(test, r.TestMetric)
		best, secs = append(best, float64(r.BestEpoch)), append(secs, r.Seconds)
		short := *r
		short.History = nil
		agg.Runs = append(agg.Runs, short)
	}
	agg.ValMetric, agg.TestMetric, agg.BestEpoch, agg.Seconds = meanStd(val), meanStd(test), meanStd(best), meanStd(secs)
	return agg
}

// WriteAggregate writes agg as JSON to path atomically.
func WriteAggregate(path string, agg AggregateResult) error {
	return jsonfile.Write(path, agg)
}

// meanStd returns the mean and the sample standard deviation (n − 1) of xs, 0 for a
// single value.
func meanStd(xs []float64) MeanStd {
	switch len(xs) {
	case 0:
		return MeanStd{}
	case 1:
		return MeanStd{Mean: xs[0]}
	}
	mean, std := stat.MeanStdDev(xs, nil)
	return MeanStd{Mean: mean, Std: std}
}
