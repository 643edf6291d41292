package repl

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
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

// Values echoed by a session print structs with their field names (as %+v), other
// values and Stringers as %v.
func TestPrintValueNamesStructFields(t *testing.T) {
	type point struct{ X, Y int }
	for _, tc := range []struct {
		v    any
		want string
	}{
		{point{1, 2}, "{X:1 Y:2}\n"},
		{&point{3, 4}, "&{X:3 Y:4}\n"},
		{[]int{1, 2}, "[1 2]\n"},
		{time.Second, "1s\n"},
	} {
		var b strings.Builder
		printValue(&b, reflect.ValueOf(tc.v))
		if b.String() != tc.want {
			t.Errorf("%T: printed %q, want %q", tc.v, b.String(), tc.want)
		}
	}
}

// An interactive session starts with the common packages imported: they are usable at
// once, and importing one again (or a new one) is accepted.
func TestInteractiveStartsWithCommonImports(t *testing.T) {
	input := "len(gexph.PresetNames()) > 10\nimport \"fmt\"\nimport \"strconv\"\nstrconv.Itoa(7) + fmt.Sprint(8)\n"
	var out, errs bytes.Buffer
	s, err := newSession("", strings.NewReader(input), &out, &errs)
	if err != nil {
		t.Fatal(err)
	}
	s.interactive(strings.NewReader(input))
	if errs.Len() > 0 {
		t.Errorf("errors: %s", errs.String())
	}
	if got := afterBanner(out.String()); !strings.Contains(got, "true") || !strings.Contains(got, "78") {
		t.Errorf("output %q: want true and 78", got)
	}
}

// Tab completes package members after "pkg." and package names otherwise.
func TestCompleterCompletesPackageMembers(t *testing.T) {
	c := newCompleter(map[string]map[string]reflect.Value{
		"github.com/gexph/gexph/gexph/gexph": {"Train": {}, "TrainFromSpec": {}, "Preset": {}},
		"strings/strings":                    {"TrimSpace": {}},
	})
	for _, tc := range []struct {
		line string
		want []string
		n    int
	}{
		{"res, err := gexph.Tra", []string{"in", "inFromSpec"}, 3},
		{"x := str", []string{"ings"}, 3},
		{"gexph.", []string{"Preset", "Train", "TrainFromSpec"}, 0},
	} {
		got, n := c.Do([]rune(tc.line), len([]rune(tc.line)))
		var words []string
		for _, g := range got {
			words = append(words, string(g))
		}
		if strings.Join(words, ",") != strings.Join(tc.want, ",") || n != tc.n {
			t.Errorf("%q: completions %q (length %d), want %q (%d)", tc.line, words, n, tc.want, tc.n)
		}
	}
}

// runInteractive runs an interactive session (without a terminal) on the lines and
// returns what it printed after its banner, and its error stream.
func runInteractive(t *testing.T, lines ...string) (out, errs string) {
	t.Helper()
	input := strings.Join(lines, "\n") + "\n"
	var o, e bytes.Buffer
	s, err := newSession("", strings.NewReader(input), &o, &e)
	if err != nil {
		t.Fatal(err)
	}
	s.interactive(strings.NewReader(input))
	return strings.ReplaceAll(strings.ReplaceAll(afterBanner(o.String()), "> ", ""), ". ", ""), e.String()
}

func TestCallShowsEveryResultErrorIncluded(t *testing.T) {
	out, errs := runInteractive(t,
		`import "strconv"`,
		`strconv.Atoi("x")`,
		`strconv.Atoi("12")`,
		`strconv.Itoa(5)`,
		`func pair() (string, error) { return "a", nil }`,
		`pair()`,
		`func none() {}`,
		`none()`,
	)
	want := "0\nstrconv.Atoi: parsing \"x\": invalid syntax\n12\n<nil>\n5\na\n<nil>\n"
	if strings.TrimSpace(out) != strings.TrimSpace(want) || errs != "" {
		t.Errorf("output:\n%s\nwant:\n%s\nerrors: %s", out, want, errs)
	}
}

func TestContextIsPreloadedForTrain(t *testing.T) {
	out, errs := runInteractive(t, `ctx := context.Background()`, `ctx.Err() == nil`)
	if strings.TrimSpace(out) != "true" || errs != "" {
		t.Errorf("context.Background() in a fresh session: output %q, errors %q", out, errs)
	}
}

func TestShortVarOfACompiledStructElementWorks(t *testing.T) {
	out, errs := runInteractive(t,
		`ds, _ := data.Load("pattern", data.LoadOptions{Seed: 1, TrainGraphs: 4, ValGraphs: 2, TestGraphs: 2})`,
		`x := ds.Graphs[0]`,
		`x.NumNodes == ds.Graphs[0].NumNodes && x.NumNodes > 0`,
		`y := ds.Graphs[len(ds.Graphs)-1]`,
		`y.NumNodes == ds.Graphs[len(ds.Graphs)-1].NumNodes`,
	)
	if strings.TrimSpace(out) != "true\ntrue" || errs != "" {
		t.Errorf("x := ds.Graphs[0]: output %q, errors %q", out, errs)
	}
}

func TestShortVarThatCannotBeRetypedSaysHowToWriteIt(t *testing.T) {
	_, errs := runInteractive(t,
		`ds, _ := data.Load("pattern", data.LoadOptions{Seed: 1, TrainGraphs: 4, ValGraphs: 2, TestGraphs: 2})`,
		`func first() int { return 0 }`,
		`x := ds.Graphs[first()]`,
	)
	want := "or a value of a compiled struct type whose type the interpreter cannot infer: declare it with its type, var x T = ds.Graphs[first()])"
	if !strings.Contains(errs, want) {
		t.Errorf("errors:\n%s\nwant %q", errs, want)
	}
}
