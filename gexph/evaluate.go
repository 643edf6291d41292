package gexph

import (
	"context"
	"fmt"
	"slices"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph/metrics"
)

// SplitResult is the loss and metric of one split.
type SplitResult struct {
	// Loss is the training loss function's value, averaged over the split's examples.
	Loss float64 `json:"loss"`
	// Metric is the configured metric (Config.Metric) on the split.
	Metric float64 `json:"metric"`
}

// EvalResult holds the loss and metric of every split of an evaluation.
type EvalResult struct {
	// Dataset is the data set's name and Metric the metric's.
	Dataset string `json:"dataset"`
	Metric  string `json:"metric"`
	// Epoch is the number of epochs the checkpoint had completed.
	Epoch int `json:"epoch"`
	// Params is the number of trainable parameters.
	Params int `json:"params"`
	// Train, Val and Test are the splits' results (zero for an empty split).
	Train SplitResult `json:"train"`
	Val   SplitResult `json:"val"`
	Test  SplitResult `json:"test"`
}

// Evaluate loads the checkpoint at path (e.g. OutDir/best.ckpt) and evaluates its model
// on the train, validation and test splits of ds (cut as the checkpoint's config says).
// A cancelled ctx stops it between batches (or chunks of layer-wise inference), with
// ctx's error.
func Evaluate(ctx context.Context, path string, ds *data.Dataset, opts ModelOptions) (*EvalResult, error) {
	return EvaluateSplits(ctx, path, ds, opts, string(data.TrainSplit), string(data.ValSplit), string(data.TestSplit))
}

// EvaluateSplits is Evaluate on the named splits only ("train", "val", "test"); the
// others are left zero.
func EvaluateSplits(ctx context.Context, path string, ds *data.Dataset, opts ModelOptions, splits ...string) (*EvalResult, error) {
	for _, s := range splits {
		if _, err := data.ParseSplitName(s); err != nil {
			return nil, fmt.Errorf("evaluate %s: %w", path, err)
		}
	}
	SetupRuntime()
	if ds != nil && ds.Unlabelled {
		return nil, fmt.Errorf("evaluate %s: data set %q has no labels: predict on it (gexph predict); evaluating needs labels", path, ds.Name)
	}
	m, ds, ck, err := loadCheckpointModel(path, ds, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	cfg := ck.info.Config
	out := &EvalResult{Dataset: ds.Name, Metric: cfg.Metric, Epoch: ck.info.Epoch, Params: m.ParamCount()}
	for i, name := range data.SplitNames() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(ds.Split.Part(name)) == 0 || !slices.Contains(splits, string(name)) {
			continue
		}
		r, err := m.evaluate(ctx, ds, []data.SplitName{name})
		if err != nil {
			return nil, err
		}
		*[]*SplitResult{&out.Train, &out.Val, &out.Test}[i] = r[0]
	}
	return out, nil
}

// EvaluateSplit runs the model in inference mode over one split of ds ("train", "val"
// or "test") and returns its loss and the configured metric. It runs to its end
// (EvaluateSplits stops when its context is cancelled).
func (m *Model) EvaluateSplit(ds *data.Dataset, split string) (SplitResult, error) {
	n, err := data.ParseSplitName(split)
	if err != nil {
		return SplitResult{}, fmt.Errorf("evaluate: %w", err)
	}
	res, err := m.evaluate(context.Background(), ds, []data.SplitName{n})
	if err != nil {
		return SplitResult{}, err
	}
	return res[0], nil
}

// evaluate returns the loss and metric of each split, scored as the model's way of
// running scores examples (one pass for every split of a transductive graph). It stops
// between batches (or chunks of layer-wise inference) when ctx is cancelled.
func (m *Model) evaluate(ctx context.Context, ds *data.Dataset, splits []data.SplitName) ([]SplitResult, error) {
	sets := make([][]int, len(splits))
	cs := make([]*collector, len(splits))
	for i, split := range splits {
		sets[i], cs[i] = ds.Split.Part(split), &collector{m: m}
	}
	err := m.run.outputs(ctx, ds, sets, func(i int, out []float32, b *Batch, rows []int) {
		// The loss weighs the set's rows as the batch does (1, 0 for unlabelled rows).
		w := make([]float32, b.Rows)
		for _, r := range rows {
			w[r] = b.Weights[r]
		}
		loss, sumW := m.hostLoss(out, b.Labels, b.Targets, w)
		cs[i].add(out, b, rows, loss, sumW)
	})
	if err != nil {
		return nil, err
	}
	res := make([]SplitResult, len(splits))
	for i, c := range cs {
		metric, err := c.metric(m.cfg.Metric)
		if err != nil {
			return nil, fmt.Errorf("evaluate %s: %w", splits[i], err)
		}
		res[i] = SplitResult{Loss: c.loss(), Metric: metric}
	}
	return res, nil
}

// collector gathers the predictions of a pass for a metric and the loss.
type collector struct {
	m             *Model
	pred, label   []int32
	score, target []float64
	lossSum, wSum float64
	// steps counts the batches added.
	steps int
}

// add records rows of out ([b.padded rows × outDim]) with their batch loss.
func (c *collector) add(out []float32, b *Batch, rows []int, loss, weight float64) {
	k := c.m.spec.outDim
	c.steps++
	c.lossSum += loss * weight
	c.wSum += weight
	for _, r := range rows {
		row := out[r*k : (r+1)*k]
		if b.Labels != nil && b.Labels[r] == data.Unlabelled {
			continue
		}
		if b.Labels != nil {
			c.label = append(c.label, b.Labels[r])
			c.pred = append(c.pred, predictClass(row))
		} else {
			for j, v := range row {
				c.score = append(c.score, float64(v))
				c.target = append(c.target, float64(b.Targets[r*k+j]))
			}
		}
	}
}

func (c *collector) loss() float64 {
	if c.wSum == 0 {
		return 0
	}
	return c.lossSum / c.wSum
}

// metric returns the named metric of the collected predictions.
func (c *collector) metric(name string) (float64, error) {
	switch name {
	case MetricAccuracy:
		return metrics.Accuracy(c.pred, c.label)
	case MetricWeightedAccuracy:
		return metrics.WeightedAccuracy(c.pred, c.label)
	case MetricMacroF1:
		return metrics.MacroF1(c.pred, c.label)
	case MetricAP:
		return metrics.AveragePrecision(c.score, c.target, c.m.spec.outDim)
	case MetricMAE:
		return metrics.MAE(c.score, c.target)
	}
	return 0, fmt.Errorf("metric %q is not supported for training", name)
}

// predictClass returns the class of one output row: the sign of a single logit, else
// the arg-max.
func predictClass(row []float32) int32 {
	if len(row) == 1 {
		if row[0] > 0 {
			return 1
		}
		return 0
	}
	best := 0
	for j, v := range row {
		if v > row[best] {
			best = j
		}
	}
	return int32(best)
}
