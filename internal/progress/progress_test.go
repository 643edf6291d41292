package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// terminalProgress is a progress that writes to out as to a terminal of width columns.
func terminalProgress(out *bytes.Buffer, width, epochs int) *Progress {
	p := New(out, epochs)
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
					if n := Columns(line); n >= width {
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
			t.Errorf("line %q (%d columns) lacks %q", line, Columns(line), want)
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

func TestTerminalStatusLineShowsEvaluationAndIsClearedBeforeALine(t *testing.T) {
	var out bytes.Buffer
	p := terminalProgress(&out, 80, 30)
	p.Step(3, 10, 20, 0.5, time.Now().Add(-time.Second))
	p.Working(3, "evaluating val")
	p.Epoch(0, []string{"epoch  3/30  train loss 0.0000 weighted-accuracy 0.0000", "val loss 0.0000 weighted-accuracy 0.0000"})
	got := out.String()
	if !strings.Contains(got, "\repoch  3/30  evaluating val …\x1b[K") {
		t.Errorf("no evaluating status line drawn in place: %q", got)
	}
	if !strings.Contains(got, "\r\x1b[Kepoch  3/30  train loss") {
		t.Errorf("the epoch line does not clear the status line first: %q", got)
	}
	for i, draw := range strings.Split(got, "\r")[1:] {
		line, _, _ := strings.Cut(strings.TrimSuffix(draw, "\x1b[K"), "\n")
		if n := Columns(strings.ReplaceAll(line, "\x1b[K", "")); n >= 80 {
			t.Errorf("draw %d: %d columns at width 80: %q", i, n, line)
		}
	}
}

func TestNoStatusLineWhereNoTerminal(t *testing.T) {
	var out bytes.Buffer
	p := New(&out, 5)
	p.Working(1, "evaluating val")
	if out.Len() != 0 {
		t.Errorf("a log file got a status line: %q", out.String())
	}
	p.Printf("%s", strings.Repeat("x", 200))
	if got := out.String(); got != strings.Repeat("x", 200)+"\n" {
		t.Errorf("a log file's line was changed: %q", got)
	}
}

func TestLongLinesBreakBetweenWordsBelowTheWidth(t *testing.T) {
	line := "· warm-up shortened from 5 to 1 epochs for a run of 2 epochs, because the run is shorter than twice its warm-up, which would train at tiny learning rates"
	got := wrapWords(line, 40)
	lines := strings.Split(got, "\n")
	if len(lines) < 2 {
		t.Fatalf("%q at 40 columns: one line", got)
	}
	for _, l := range lines {
		if Columns(l) >= 40 {
			t.Errorf("line of %d columns: %q", Columns(l), l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != line {
		t.Errorf("words lost or changed:\n%q\nfrom\n%q", got, line)
	}
	if wrapWords(line, 0) != line {
		t.Errorf("width 0 (no terminal) changed the line")
	}
}

// Where no terminal shows a bar, progress within an epoch comes as a plain line at most
// every progressEvery, with the step, the rate, the running loss and the ETAs.
func TestPlainProgressLinesAreRateLimited(t *testing.T) {
	var out bytes.Buffer
	p := New(&out, 10)
	started := time.Now().Add(-2 * time.Second)
	p.lastLine = time.Now().Add(-progressEvery - time.Second)
	p.Step(3, 4, 10, 0.5, started)
	line := out.String()
	for _, want := range []string{"epoch  3/10", "loss 0.5000", "step 4/10", "steps/s", "epoch ETA", "run ETA"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	p.Step(3, 5, 10, 0.5, started)
	if out.String() != line {
		t.Errorf("a second line within %v: %q", progressEvery, strings.TrimPrefix(out.String(), line))
	}
}
