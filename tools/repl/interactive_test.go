package repl

import (
	"bytes"
	"strings"
	"testing"
)

// TestInteractiveGoesOn feeds an interactive session errors of every kind and checks
// that it reports each one with its line and keeps the state of earlier statements.
func TestInteractiveGoesOn(t *testing.T) {
	input := strings.Join([]string{
		`x := 20`,            // 1
		`x + 1`,              // 2: echoed
		`y := )`,             // 3: syntax error
		`panic("boom")`,      // 4: panic
		`for i := range 3 {`, // 5-7: cannot compile
		`	x += i`,
		`}`,
		`z := min(1, 2)`, // 8: no min builtin
		`import "os"`,    // 9
		`os.Exit(2)`,     // 10: ignored
		`x * 2`,          // 11: still there
		`s := []int{`,    // 12-14: continuation
		`	1, 2,`,
		`}`,
		`len(s) + x`, // 15
	}, "\n") + "\n"
	var out, errs bytes.Buffer
	s, err := newSession("", strings.NewReader(input), &out, &errs)
	if err != nil {
		t.Fatal(err)
	}
	s.interactive(strings.NewReader(input))

	values := strings.Fields(strings.NewReplacer(">", " ", ".", " ").Replace(afterBanner(out.String())))
	want := []string{"21", "40", "22"}
	if strings.Join(values, " ") != strings.Join(want, " ") {
		t.Errorf("echoed values %q, want %q; output:\n%s", values, want, out.String())
	}
	for _, msg := range []string{
		"line 3:6: expected operand",
		"line 4: panic: boom",
		"line 5-7: the interpreter cannot compile this (line 5: the interpreter cannot range over an integer)",
		"(line 8: the interpreter has no min builtin)",
		"os.Exit(2) ignored",
	} {
		if !strings.Contains(errs.String(), msg) {
			t.Errorf("error stream lacks %q:\n%s", msg, errs.String())
		}
	}
}

// afterBanner drops the first line of an interactive session's output.
func afterBanner(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

// TestRelocate checks the mapping of interpreter positions to input positions.
func TestRelocate(t *testing.T) {
	tests := []struct {
		name, msg, want string
	}{
		{"script", "_.go:5:3: undefined: q", "a.go:4:3: undefined: q"},
		{"script", "5:3: undefined: q", "a.go:4:3: undefined: q"},
		{"script", "import cycle at _.go:2:1", "import cycle at a.go:1:1"},
		{"script", "x 5:3: y", "x 5:3: y"},
		{"", "12:1: panic", "line 11:1: panic"},
	}
	for _, tt := range tests {
		name := tt.name
		if name == "script" {
			name = "a.go"
		}
		p := &positionWriter{name: name}
		if got := p.relocate(tt.msg); got != tt.want {
			t.Errorf("relocate(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}
