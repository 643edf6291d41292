// Package metrics computes the evaluation metrics of the paper's tasks from predictions
// and targets on the host: accuracy, weighted (class-balanced) accuracy, macro F1,
// average precision over labels and mean absolute error. Each refuses inputs of
// different lengths or none.
package metrics

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// The metrics run on the host in float64. Each returns an error for empty or
// mismatched inputs instead of a meaningless number.

func checkLabels(pred, target []int32) error {
	if len(pred) != len(target) {
		return fmt.Errorf("metric: %d predictions for %d targets", len(pred), len(target))
	}
	if len(pred) == 0 {
		return errors.New("metric: no examples")
	}
	return nil
}

// Accuracy returns the fraction of examples whose predicted class equals the target.
func Accuracy(pred, target []int32) (float64, error) {
	if err := checkLabels(pred, target); err != nil {
		return 0, err
	}
	correct := 0
	for i, p := range pred {
		if p == target[i] {
			correct++
		}
	}
	return float64(correct) / float64(len(pred)), nil
}

// classCounts returns, for every class seen in pred or target (in increasing order),
// its true positives, false positives and false negatives.
func classCounts(pred, target []int32) (classes []int32, tp, fp, fn map[int32]int) {
	tp, fp, fn = map[int32]int{}, map[int32]int{}, map[int32]int{}
	seen := map[int32]bool{}
	for i, p := range pred {
		t := target[i]
		seen[p], seen[t] = true, true
		if p == t {
			tp[t]++
		} else {
			fp[p]++
			fn[t]++
		}
	}
	for c := range seen {
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i] < classes[j] })
	return classes, tp, fp, fn
}

// WeightedAccuracy returns the mean over classes of the per-class recall, the
// class-balanced accuracy GraphGPS reports for PATTERN and CLUSTER ("accuracy-SBM",
// from the Benchmarking-GNNs code): the classes are those appearing among targets or
// predictions, and a class never among the targets counts with recall 0. Chance level
// is 1/(number of classes) whatever the class imbalance.
func WeightedAccuracy(pred, target []int32) (float64, error) {
	if err := checkLabels(pred, target); err != nil {
		return 0, err
	}
	classes, tp, _, fn := classCounts(pred, target)
	sum := 0.0
	for _, c := range classes {
		if n := tp[c] + fn[c]; n > 0 {
			sum += float64(tp[c]) / float64(n)
		}
	}
	return sum / float64(len(classes)), nil
}

// MacroF1 returns the unweighted mean of the per-class F1 scores 2TP/(2TP+FP+FN) over
// the classes appearing among targets or predictions, as scikit-learn's
// f1_score(average="macro", zero_division=0) used by LRGB for PascalVOC-SP and COCO-SP.
func MacroF1(pred, target []int32) (float64, error) {
	if err := checkLabels(pred, target); err != nil {
		return 0, err
	}
	classes, tp, fp, fn := classCounts(pred, target)
	sum := 0.0
	for _, c := range classes {
		if d := 2*tp[c] + fp[c] + fn[c]; d > 0 {
			sum += 2 * float64(tp[c]) / float64(d)
		}
	}
	return sum / float64(len(classes)), nil
}

// AveragePrecision returns the average precision per label averaged over labels, as
// OGB's and LRGB's Peptides-func evaluator: scores and labels are row-major
// [examples × numLabels] matrices, labels are 0 or 1 (NaN entries are skipped), and a
// label column lacking positives or negatives is left out of the average. Per column,
// AP = Σₖ (Rₖ − Rₖ₋₁)·Pₖ over the distinct score thresholds in decreasing order, tied
// scores forming one threshold (scikit-learn's average_precision_score).
func AveragePrecision(scores, labels []float64, numLabels int) (float64, error) {
	if numLabels < 1 {
		return 0, fmt.Errorf("metric: AP: %d labels, want ≥ 1", numLabels)
	}
	if len(scores) != len(labels) || len(scores)%numLabels != 0 {
		return 0, fmt.Errorf("metric: AP: %d scores and %d labels for %d labels per example", len(scores), len(labels), numLabels)
	}
	n := len(scores) / numLabels
	sum, used := 0.0, 0
	type pair struct{ s, y float64 }
	col := make([]pair, 0, n)
	for j := 0; j < numLabels; j++ {
		col = col[:0]
		pos := 0
		for i := 0; i < n; i++ {
			y := labels[i*numLabels+j]
			if math.IsNaN(y) {
				continue
			}
			if y != 0 && y != 1 {
				return 0, fmt.Errorf("metric: AP: label (%d, %d) = %v, want 0 or 1", i, j, y)
			}
			s := scores[i*numLabels+j]
			if math.IsNaN(s) {
				return 0, fmt.Errorf("metric: AP: score (%d, %d) is NaN", i, j)
			}
			col = append(col, pair{s, y})
			if y == 1 {
				pos++
			}
		}
		if pos == 0 || pos == len(col) {
			continue
		}
		sort.Slice(col, func(a, b int) bool { return col[a].s > col[b].s })
		ap, tp, seen, prevRecall := 0.0, 0, 0, 0.0
		for k := 0; k < len(col); {
			s := col[k].s
			for k < len(col) && col[k].s == s {
				if col[k].y == 1 {
					tp++
				}
				seen++
				k++
			}
			recall := float64(tp) / float64(pos)
			ap += (recall - prevRecall) * float64(tp) / float64(seen)
			prevRecall = recall
		}
		sum += ap
		used++
	}
	if used == 0 {
		return 0, errors.New("metric: AP: no label has both positive and negative examples")
	}
	return sum / float64(used), nil
}

// MAE returns the mean absolute difference between predictions and targets.
func MAE(pred, target []float64) (float64, error) {
	if len(pred) != len(target) {
		return 0, fmt.Errorf("metric: MAE: %d predictions for %d targets", len(pred), len(target))
	}
	if len(pred) == 0 {
		return 0, errors.New("metric: MAE: no examples")
	}
	sum := 0.0
	for i, p := range pred {
		sum += math.Abs(p - target[i])
	}
	return sum / float64(len(pred)), nil
}
