package gexph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gexph/gexph/internal/progress"
)

func TestEpochLineBreaksBetweenPartsBelowTheWidth(t *testing.T) {
	test := 0.8123
	s := EpochStats{Epoch: 7, TrainLoss: 0.4321, TrainMetric: 0.8, ValLoss: 0.5, ValMetric: 0.79, TestMetric: &test,
		Best: true, LR: 1e-3, Seconds: 123.4, ExamplesPerSec: 456}
	one := progress.JoinParts(s.epochParts(MetricWeightedAccuracy, 100), 0)
	if strings.Contains(one, "\n") {
		t.Errorf("width 0 (no terminal): %q, want one line", one)
	}
	if progress.Columns(one) < 80 {
		t.Fatalf("the line %q fits 80 columns: the test needs one that does not", one)
	}
	for _, width := range []int{80, 50} {
		got := progress.JoinParts(s.epochParts(MetricWeightedAccuracy, 100), width)
		lines := strings.Split(got, "\n")
		if len(lines) < 2 {
			t.Errorf("width %d: %q, want it broken over lines", width, got)
		}
		for _, l := range lines {
			if progress.Columns(l) >= width {
				t.Errorf("width %d: line of %d columns: %q", width, progress.Columns(l), l)
			}
		}
		if width < progress.Columns("epoch   7/100  train loss 0.4321 weighted-accuracy 0.8000") {
			continue // the first part itself is cut
		}
		joined := strings.Join(strings.Fields(strings.ReplaceAll(got, "\n", " | ")), " ")
		if joined != strings.Join(strings.Fields(one), " ") {
			t.Errorf("width %d: the broken line says\n%q, want what the single line says\n%q", width, joined, one)
		}
	}
}

func ExampleEpochStats_summaryAtEightyColumns() {
	test := 0.8123
	s := EpochStats{Epoch: 7, TrainLoss: 0.4321, TrainMetric: 0.8, ValLoss: 0.5, ValMetric: 0.79, TestMetric: &test,
		Best: true, LR: 1e-3, Seconds: 123.4, ExamplesPerSec: 456}
	fmt.Println(progress.JoinParts(s.epochParts(MetricWeightedAccuracy, 100), 80))
	// Output:
	// epoch   7/100  train loss 0.4321 weighted-accuracy 0.8000
	//     val loss 0.5000 weighted-accuracy 0.7900 | test weighted-accuracy 0.8123
	//     lr 1.00e-03 | 123.4s (456 ex/s) *
}
