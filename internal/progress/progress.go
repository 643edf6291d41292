// Package progress writes what a training run is doing for a person to read: a line per
// phase and per epoch and, during an epoch, a status line redrawn in place on a terminal
// (a bar, steps per second, the epoch's and the run's ETA, the running loss) or a plain
// line every few seconds elsewhere. Lines never reach a terminal's width.
package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// Progress writes the human-readable progress of a run to an io.Writer: one line per
// epoch and per phase; during an epoch, on a terminal a status line redrawn in place
// (a bar with steps, steps per second, elapsed time and the epoch's ETA, the running loss
// and the run's ETA; "evaluating" while the epoch's evaluation runs) that fits the
// terminal's width, and elsewhere (a log file, a pipe) a plain line every progressEvery.
// A nil writer makes every method a no-op.
type Progress struct {
	w        io.Writer
	terminal bool
	// width returns the terminal's width in columns (0: unknown).
	width  func() int
	epochs int
	// status tells that a status line is on the terminal (to clear before a line);
	// lastDraw is the time it was last drawn, lastLine the time of the last plain
	// progress line.
	status   bool
	lastDraw time.Time
	lastLine time.Time
	// epochSecs accumulates the seconds of the epochs run so far, for the run's ETA.
	epochSecs float64
	epochsRun int
}

// progressEvery is the interval of the plain progress lines written where no terminal
// shows a bar; drawEvery the least interval between two redraws of a status line.
const (
	progressEvery = 10 * time.Second
	drawEvery     = 100 * time.Millisecond
)

// defaultWidth is the width assumed for a terminal whose size cannot be read.
const defaultWidth = 80

// New returns the progress of a run of epochs epochs written to w (nil: silent); it
// draws a status line when w is a terminal.
func New(w io.Writer, epochs int) *Progress {
	p := &Progress{w: w, epochs: epochs, lastLine: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.terminal = true
		p.width = func() int {
			if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
				return cols
			}
			return defaultWidth
		}
	}
	return p
}

// columns is the width that lines must fit in: the terminal's, or 0 (no limit) for a
// writer that is not a terminal.
func (p *Progress) columns() int {
	if !p.terminal || p.width == nil {
		return 0
	}
	return p.width()
}

// Printf writes a line (nothing without a writer), clearing a status line first; on a
// terminal a line wider than the terminal is broken between words (see wrapWords).
func (p *Progress) Printf(format string, args ...any) {
	if p.w == nil {
		return
	}
	p.clearStatus()
	fmt.Fprintln(p.w, wrapWords(fmt.Sprintf(format, args...), p.columns()))
}

// wrapWords breaks line between words into lines of fewer than width columns (0: no
// limit), the continuation lines indented by two spaces; a word too long for a line is
// cut (fitLine).
func wrapWords(line string, width int) string {
	if width <= 0 || Columns(line) < width {
		return line
	}
	var lines []string
	cur := ""
	for _, w := range strings.Split(line, " ") {
		switch {
		case cur == "":
			cur = w
		case Columns(cur+" "+w) < width:
			cur += " " + w
		default:
			lines = append(lines, fitLine(cur, width))
			cur = "  " + w
		}
	}
	return strings.Join(append(lines, fitLine(cur, width)), "\n")
}

// Phase names what the run does now (loading, building, compiling, evaluating).
func (p *Progress) Phase(format string, args ...any) {
	p.Printf("· "+format, args...)
}

// drawStatus shows line as the terminal's status line, replacing the one before, at
// most every drawEvery unless force; nothing where no terminal shows one.
func (p *Progress) drawStatus(line string, force bool) {
	if p.w == nil || !p.terminal || (!force && time.Since(p.lastDraw) < drawEvery) {
		return
	}
	p.lastDraw = time.Now()
	p.status = true
	fmt.Fprint(p.w, "\r"+fitLine(line, p.columns())+"\x1b[K")
}

// clearStatus removes the status line from the terminal.
func (p *Progress) clearStatus() {
	if p.status {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.status = false
	}
}

// Working shows what the epoch does where no step counts come (a full-batch training
// step, the evaluation): on a terminal only, as the status line.
func (p *Progress) Working(epoch int, what string) {
	p.drawStatus(fmt.Sprintf("epoch %*d/%d  %s …", Digits(p.epochs), epoch, p.epochs, what), true)
}

// Step reports done of total training steps of epoch, and the running training loss.
func (p *Progress) Step(epoch, done, total int, loss float64, started time.Time) {
	if p.w == nil || total <= 1 {
		return
	}
	desc := fmt.Sprintf("epoch %*d/%d  loss %.4f%s", Digits(p.epochs), epoch, p.epochs, loss, p.runETA(epoch, done, total, started))
	el := time.Since(started).Seconds()
	if p.terminal {
		p.drawStatus(formatStepLine(p.columns(), desc, done, total, el), done == total)
		return
	}
	if time.Since(p.lastLine) < progressEvery {
		return
	}
	p.lastLine = time.Now()
	rate := float64(done) / math.Max(el, 1e-9)
	fmt.Fprintf(p.w, "%s | step %d/%d, %s, epoch ETA %s\n", desc, done, total, fmtRate(rate), fmtSeconds(float64(total-done)/math.Max(rate, 1e-9)))
}

// formatStepLine formats the status line of a training epoch's steps for a terminal of
// width columns (0: no limit): the description (epoch, running loss, run ETA), the
// percentage, a bar, the steps done, the rate and the epoch's elapsed time and ETA. What
// does not fit goes, least useful first: the epoch's times, then the bar (it shrinks from
// 24 cells to 10 first), then the rate; what still does not fit is cut (fitLine). It never
// exceeds width − 1 columns, so that no terminal wraps it.
func formatStepLine(width int, desc string, done, total int, elapsed float64) string {
	rate := float64(done) / math.Max(elapsed, 1e-9)
	head := desc + " " + fmt.Sprintf("%3d%%", 100*done/max(total, 1))
	count := fmt.Sprintf("%d/%d", done, total)
	withRate := count + " (" + fmtRate(rate) + ")"
	withTimes := count + " (" + fmtRate(rate) + ", " + fmtSeconds(elapsed) + " < " + fmtSeconds(float64(total-done)/math.Max(rate, 1e-9)) + ")"
	if done == 0 {
		withRate, withTimes = count, count
	}
	const maxCells, minCells = 24, 10
	if width <= 0 {
		return head + " " + bar(maxCells, done, total) + " " + withTimes
	}
	for _, v := range []struct {
		tail    string
		withBar bool
	}{{withTimes, true}, {withRate, true}, {withTimes, false}, {withRate, false}, {count, false}} {
		line := head + " " + v.tail
		if !v.withBar {
			if Columns(line) < width {
				return line
			}
			continue
		}
		// The bar takes its cells, two brackets and a space.
		if cells := min(maxCells, width-1-Columns(line)-3); cells >= minCells {
			return head + " " + bar(cells, done, total) + " " + v.tail
		}
	}
	return fitLine(head+" "+count, width)
}

// bar draws a progress bar of cells cells between brackets.
func bar(cells, done, total int) string {
	full := cells * done / max(total, 1)
	return "[" + strings.Repeat("=", full) + strings.Repeat(" ", cells-full) + "]"
}

// fmtRate formats steps per second: "12 steps/s", "3.4 steps/s", or for slow steps the
// seconds per step, "2.5 s/step".
func fmtRate(rate float64) string {
	switch {
	case rate >= 10:
		return fmt.Sprintf("%.0f steps/s", rate)
	case rate >= 1:
		return fmt.Sprintf("%.1f steps/s", rate)
	case rate > 0:
		return fmt.Sprintf("%.1f s/step", 1/rate)
	}
	return "– steps/s"
}

// Columns is the number of columns line takes (one per rune: the progress lines hold no
// wide characters).
func Columns(line string) int { return utf8.RuneCountInString(line) }

// fitLine cuts line to width − 1 columns (0: no limit), ending it with "…" where cut.
func fitLine(line string, width int) string {
	if width <= 0 || Columns(line) < width {
		return line
	}
	if width < 2 {
		return ""
	}
	r := []rune(line)
	return string(r[:width-2]) + "…"
}

// runETA estimates the rest of the run from the epochs so far (or, in the first, from
// this epoch's progress).
func (p *Progress) runETA(epoch, done, total int, started time.Time) string {
	per := 0.0
	switch {
	case p.epochsRun > 0:
		per = p.epochSecs / float64(p.epochsRun)
	case done > 0:
		per = time.Since(started).Seconds() * float64(total) / float64(done)
	default:
		return ""
	}
	left := per*float64(p.epochs-epoch) + per*float64(total-done)/float64(max(total, 1))
	return ", run ETA " + fmtSeconds(left)
}

// fmtSeconds formats a duration in seconds as 42s, 3m05s or 2h07m.
func fmtSeconds(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}

// Epoch writes the line of one finished epoch, which took seconds, made of parts (see
// JoinParts); on a terminal narrower than the line it goes on over several lines. The
// epochs' times make the run's ETA.
func (p *Progress) Epoch(seconds float64, parts []string) {
	p.epochSecs += seconds
	p.epochsRun++
	if p.w == nil {
		return
	}
	p.clearStatus()
	fmt.Fprintln(p.w, JoinParts(parts, p.columns()))
}

// JoinParts joins the parts of a line with " | ", and for a width > 0 breaks it between
// parts onto indented continuation lines so that no line reaches width columns (a part
// wider than that is cut).
func JoinParts(parts []string, width int) string {
	if width <= 0 || len(parts) == 0 {
		return strings.Join(parts, " | ")
	}
	const indent = "    "
	var lines []string
	line := parts[0]
	for _, part := range parts[1:] {
		if Columns(line+" | "+part) < width {
			line += " | " + part
			continue
		}
		lines = append(lines, fitLine(line, width))
		line = indent + part
	}
	return strings.Join(append(lines, fitLine(line, width)), "\n")
}

// Digits is the number of digits of n (for numbers printed to a common width).
func Digits(n int) int { return len(fmt.Sprint(n)) }
