package metrics

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestAccuracyAndWeightedAccuracy(t *testing.T) {
	// 8 examples, class 1 rare: targets 0×6, 1×2.
	target := []int32{0, 0, 0, 0, 0, 0, 1, 1}
	pred := []int32{0, 0, 0, 0, 0, 1, 1, 0}
	acc, err := Accuracy(pred, target)
	if err != nil || !near(acc, 6.0/8) {
		t.Errorf("Accuracy = %v, %v; want 0.75", acc, err)
	}
	// Recalls: class 0 5/6, class 1 1/2 → mean 2/3.
	wacc, err := WeightedAccuracy(pred, target)
	if err != nil || !near(wacc, (5.0/6+0.5)/2) {
		t.Errorf("WeightedAccuracy = %v, %v; want %v", wacc, err, (5.0/6+0.5)/2)
	}
	// Predicting the majority class everywhere: accuracy 0.75 but weighted accuracy 0.5.
	all0 := make([]int32, 8)
	if w, _ := WeightedAccuracy(all0, target); !near(w, 0.5) {
		t.Errorf("majority classifier weighted accuracy %v, want 0.5", w)
	}
	// A class predicted but absent from the targets counts with recall 0 (GraphGPS):
	// class 0 recall 1/2, class 2 recall 0.
	if w, _ := WeightedAccuracy([]int32{0, 2}, []int32{0, 0}); !near(w, 0.25) {
		t.Errorf("weighted accuracy with a spurious class = %v, want 0.25", w)
	}
}

func TestMacroF1(t *testing.T) {
	target := []int32{0, 0, 1, 1, 2}
	pred := []int32{0, 1, 1, 1, 0}
	// class 0: tp 1, fp 1, fn 1 → 2/4; class 1: tp 2, fp 1, fn 0 → 4/5; class 2: tp 0, fn 1 → 0.
	want := (0.5 + 0.8 + 0) / 3
	got, err := MacroF1(pred, target)
	if err != nil || !near(got, want) {
		t.Errorf("MacroF1 = %v, %v; want %v", got, err, want)
	}
	if got, _ := MacroF1(target, target); !near(got, 1) {
		t.Errorf("perfect MacroF1 = %v", got)
	}
}

func TestAveragePrecision(t *testing.T) {
	// Column 0: scores 0.9(1) 0.8(0) 0.7(1) 0.1(0): P@1 = 1 (R 0.5), P@3 = 2/3 (R 1)
	// → AP = 0.5·1 + 0.5·2/3. Column 1: tied scores 0.5 for all, two positives of four →
	// one threshold: AP = 1·(2/4). Column 2: no negatives → skipped.
	scores := []float64{
		0.9, 0.5, 0.3,
		0.8, 0.5, 0.2,
		0.7, 0.5, 0.1,
		0.1, 0.5, 0.0,
	}
	labels := []float64{
		1, 1, 1,
		0, 0, 1,
		1, 1, 1,
		0, 0, 1,
	}
	want := ((0.5 + 0.5*2.0/3) + 0.5) / 2
	got, err := AveragePrecision(scores, labels, 3)
	if err != nil || !near(got, want) {
		t.Errorf("AP = %v, %v; want %v", got, err, want)
	}
	// NaN labels are skipped: column 0 without its third row: 0.9(1) 0.8(0) 0.1(0) → AP 1.
	labels2 := []float64{1, 0, math.NaN(), 0}
	if got, err := AveragePrecision([]float64{0.9, 0.8, 0.7, 0.1}, labels2, 1); err != nil || !near(got, 1) {
		t.Errorf("AP with NaN = %v, %v; want 1", got, err)
	}
}

func TestMAE(t *testing.T) {
	if got, err := MAE([]float64{1, 2, 3}, []float64{1.5, 2, 1}); err != nil || !near(got, 2.5/3) {
		t.Errorf("MAE = %v, %v", got, err)
	}
}

func TestMetricErrors(t *testing.T) {
	if _, err := Accuracy([]int32{1}, []int32{1, 0}); err == nil {
		t.Error("Accuracy: length mismatch accepted")
	}
	if _, err := WeightedAccuracy(nil, nil); err == nil {
		t.Error("WeightedAccuracy: empty accepted")
	}
	if _, err := MacroF1([]int32{1}, nil); err == nil {
		t.Error("MacroF1: length mismatch accepted")
	}
	if _, err := AveragePrecision([]float64{1, 0}, []float64{1}, 1); err == nil {
		t.Error("AP: length mismatch accepted")
	}
	if _, err := AveragePrecision([]float64{1, 0}, []float64{1, 1}, 1); err == nil {
		t.Error("AP: no negatives accepted")
	}
	if _, err := AveragePrecision([]float64{1, 0}, []float64{1, 2}, 1); err == nil {
		t.Error("AP: label 2 accepted")
	}
	if _, err := AveragePrecision([]float64{1}, []float64{1}, 0); err == nil {
		t.Error("AP: 0 labels accepted")
	}
	if _, err := MAE(nil, nil); err == nil {
		t.Error("MAE: empty accepted")
	}
	if _, err := MAE([]float64{1}, nil); err == nil {
		t.Error("MAE: mismatch accepted")
	}
}
