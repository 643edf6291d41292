package gexph

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// terminalProgress is a progress that writes to out as to a terminal of width columns.
func terminalProgress(out *bytes.Buffer, width, epochs int) *progress {
	p := newProgress(out, MetricWeightedAccuracy, epochs)
	p.terminal, p.width = true, func() int { return width }
	return p
}

func TestStepLineNeverReachesTheTerminalWidth(t *testing.T) {
	descs := []string{
		"epoch 3/30  loss 0.6931, run ETA 4m05s",
		"epoch 1234/10000  loss 123456.7890, run ETA 2345h59m and then some more words to make it long",
	}
	for _, width := range []int{80, 60, 40, 20, 3} {
		for _, desc := range descs {
			for _, total := range []int{2, 50, 123456} {
				for _, done := range []int{0, 1, total / 2, total} {
					line := formatStepLine(width, desc, done, total, 3.7)
					if n := runewidth(line); n >= width {
						t.Errorf("width %d, step %d/%d: %d columns: %q", width, done, total, n, line)
					}
				}
			}
		}
	}
}

func TestStepLineAtEightyColumnsShowsBarAndRate(t *testing.T) {
	line := formatStepLine(80, "epoch  3/30  loss 0.6931, run ETA 4m05s", 25, 100, 10)
	for _, want := range []string{"epoch  3/30", "loss 0.6931", " 25%", "[==", "25/100", "2.5 steps/s"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q (%d columns) lacks %q", line, runewidth(line), want)
		}
	}
	wide := formatStepLine(120, "epoch  3/30  loss 0.6931, run ETA 4m05s", 25, 100, 10)
	if !strings.Contains(wide, "10s < 30s") || !strings.Contains(wide, "[======      ") {
		t.Errorf("at 120 columns %q lacks the epoch's times or a full bar", wide)
	}
}

func TestRatesReadAsStepsPerSecondOrSecondsPerStep(t *testing.T) {
	for rate, want := range map[float64]string{12.3: "12 steps/s", 1: "1.0 steps/s", 3.44: "3.4 steps/s", 0.4: "2.5 s/step", 0: "– steps/s"} {
		if got := fmtRate(rate); got != want {
			t.Errorf("fmtRate(%v) = %q, want %q", rate, got, want)
		}
	}
}

func TestEpochLineBreaksBetweenPartsBelowTheWidth(t *testing.T) {
	test := 0.8123
	s := EpochStats{Epoch: 7, TrainLoss: 0.4321, TrainMetric: 0.8, ValLoss: 0.5, ValMetric: 0.79, TestMetric: &test,
		Best: true, LR: 1e-3, Seconds: 123.4, ExamplesPerSec: 456}
	one := formatEpochLine(s, MetricWeightedAccuracy, 100, 0)
	if strings.Contains(one, "\n") {
		t.Errorf("width 0 (no terminal): %q, want one line", one)
	}
	if runewidth(one) < 80 {
		t.Fatalf("the line %q fits 80 columns: the test needs one that does not", one)
	}
	for _, width := range []int{80, 50} {
		got := formatEpochLine(s, MetricWeightedAccuracy, 100, width)
		lines := strings.Split(got, "\n")
		if len(lines) < 2 {
			t.Errorf("width %d: %q, want it broken over lines", width, got)
		}
		for _, l := range lines {
			if runewidth(l) >= width {
				t.Errorf("width %d: line of %d columns: %q", width, runewidth(l), l)
			}
		}
		if width < runewidth("epoch   7/100  train loss 0.4321 weighted-accuracy 0.8000") {
			continue // the first part itself is cut
		}
		joined := strings.Join(strings.Fields(strings.ReplaceAll(got, "\n", " | ")), " ")
		if joined != strings.Join(strings.Fields(one), " ") {
			t.Errorf("width %d: the broken line says\n%q, want what the single line says\n%q", width, joined, one)
		}
	}
}

func TestTerminalStatusLineShowsEvaluationAndIsClearedBeforeALine(t *testing.T) {
	var out bytes.Buffer
	p := terminalProgress(&out, 80, 30)
	p.step(3, 10, 20, 0.5, time.Now().Add(-time.Second))
	p.working(3, "evaluating val")
	p.epoch(EpochStats{Epoch: 3})
	got := out.String()
	if !strings.Contains(got, "\repoch  3/30  evaluating val …\x1b[K") {
		t.Errorf("no evaluating status line drawn in place: %q", got)
	}
	if !strings.Contains(got, "\r\x1b[Kepoch  3/30  train loss") {
		t.Errorf("the epoch line does not clear the status line first: %q", got)
	}
	for i, draw := range strings.Split(got, "\r")[1:] {
		line, _, _ := strings.Cut(strings.TrimSuffix(draw, "\x1b[K"), "\n")
		if n := runewidth(strings.ReplaceAll(line, "\x1b[K", "")); n >= 80 {
			t.Errorf("draw %d: %d columns at width 80: %q", i, n, line)
		}
	}
}

func TestNoStatusLineWhereNoTerminal(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, MetricAccuracy, 5)
	p.working(1, "evaluating val")
	if out.Len() != 0 {
		t.Errorf("a log file got a status line: %q", out.String())
	}
	p.printf("%s", strings.Repeat("x", 200))
	if got := out.String(); got != strings.Repeat("x", 200)+"\n" {
		t.Errorf("a log file's line was changed: %q", got)
	}
}

func ExampleEpochStats_summaryAtEightyColumns() {
	test := 0.8123
	s := EpochStats{Epoch: 7, TrainLoss: 0.4321, TrainMetric: 0.8, ValLoss: 0.5, ValMetric: 0.79, TestMetric: &test,
		Best: true, LR: 1e-3, Seconds: 123.4, ExamplesPerSec: 456}
	fmt.Println(formatEpochLine(s, MetricWeightedAccuracy, 100, 80))
	// Output:
	// epoch   7/100  train loss 0.4321 weighted-accuracy 0.8000
	//     val loss 0.5000 weighted-accuracy 0.7900 | test weighted-accuracy 0.8123
	//     lr 1.00e-03 | 123.4s (456 ex/s) *
}

func TestLongLinesBreakBetweenWordsBelowTheWidth(t *testing.T) {
	line := "· warm-up shortened from 5 to 1 epochs for a run of 2 epochs, because the run is shorter than twice its warm-up, which would train at tiny learning rates"
	got := wrapWords(line, 40)
	lines := strings.Split(got, "\n")
	if len(lines) < 2 {
		t.Fatalf("%q at 40 columns: one line", got)
	}
	for _, l := range lines {
		if runewidth(l) >= 40 {
			t.Errorf("line of %d columns: %q", runewidth(l), l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != line {
		t.Errorf("words lost or changed:\n%q\nfrom\n%q", got, line)
	}
	if wrapWords(line, 0) != line {
		t.Errorf("width 0 (no terminal) changed the line")
	}
}
