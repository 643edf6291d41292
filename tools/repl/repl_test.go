package repl_test

import (
	"bytes"
	"errors"
	"image/png"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/spectral"
	"github.com/gexph/gexph/tools/repl"
)

// runScript pipes script into the REPL and returns its output, error stream and error.
func runScript(t *testing.T, script string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errs bytes.Buffer
	err = repl.Run(args, strings.NewReader(script), &out, &errs)
	return out.String(), errs.String(), err
}

// TestExpanderScript builds an expander, prints its λ₂ and saves its spectrum plot from
// an interpreted script, and checks λ₂ against a dense eigendecomposition of the same
// graph computed by compiled code.
func TestExpanderScript(t *testing.T) {
	const n, d, seed = 200, 4, 7
	pngPath := filepath.Join(t.TempDir(), "spectrum.png")
	script := `import (
	"fmt"

	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/plots"
	"github.com/gexph/gexph/spectral"
)

e, err := expander.Generate(expander.DefaultOptions(200, 4, 7))
if err != nil {
	panic(err)
}
fmt.Printf("lambda2 %.9f\n", e.Certificate.Lambda2)
vals, err := spectral.DenseEigenvalues(e.Graph(), spectral.Adjacency)
if err != nil {
	panic(err)
}
p, err := plots.SpectrumHistogram(vals, 4, 30)
if err != nil {
	panic(err)
}
if err := plots.Save(p, ` + strconv.Quote(pngPath) + `, 6, 4); err != nil {
	panic(err)
}
`
	stdout, stderr, err := runScript(t, script, "-")
	if err != nil {
		t.Fatalf("Run: %v\nstderr:\n%s", err, stderr)
	}
	m := regexp.MustCompile(`lambda2 (\S+)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no λ₂ in output %q", stdout)
	}
	lambda2, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatalf("λ₂ %q: %v", m[1], err)
	}
	if !(lambda2 > 0 && lambda2 < d) {
		t.Errorf("λ₂ = %g, want in (0, %d): below the trivial eigenvalue d", lambda2, d)
	}

	// Reference: the same graph, compiled, through a dense eigendecomposition.
	e, err := expander.Generate(expander.DefaultOptions(n, d, seed))
	if err != nil {
		t.Fatal(err)
	}
	vals, err := spectral.DenseEigenvalues(e.Graph(), spectral.Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	second := secondLargest(vals)
	if math.Abs(second-lambda2) > 1e-6 {
		t.Errorf("interpreted λ₂ = %.9f, dense eigendecomposition gives %.9f", lambda2, second)
	}

	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatalf("plot file: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("plot file is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("plot is %d×%d pixels, want at least 100×100", b.Dx(), b.Dy())
	}
}

// secondLargest returns the second largest value of xs.
func secondLargest(xs []float64) float64 {
	first, second := math.Inf(-1), math.Inf(-1)
	for _, x := range xs {
		switch {
		case x > first:
			first, second = x, first
		case x > second:
			second = x
		}
	}
	return second
}

// TestScriptErrors checks that every kind of failure ends the script with ErrScript and
// a message naming the input line, without crashing the host.
func TestScriptErrors(t *testing.T) {
	tests := []struct {
		name, script string
		wantErr      string // regexp on the error stream
		wantOut      string // exact standard output
	}{
		{
			name:    "syntax error",
			script:  "import \"fmt\"\nfmt.Println(\"ok\")\nx := )\nfmt.Println(\"not reached\")\n",
			wantErr: `stdin:3:6: expected operand`,
			wantOut: "ok\n",
		},
		{
			name:    "undefined name",
			script:  "x := 1\n\ny := x + z\n",
			wantErr: `stdin:3:10: undefined: z`,
		},
		{
			name:    "panic in a function of an earlier statement",
			script:  "func at(a []int, i int) int {\n\treturn a[i]\n}\n\nv := at([]int{1}, 5)\n",
			wantErr: `(?s)stdin:2:9: panic.*stdin:5: panic: .*index out of range`,
		},
		{
			name:    "undefined name in a constant",
			script:  "const c = undefinedThing\n",
			wantErr: `stdin:1:\d+: constant definition loop \(a name the interpreter does not know: check its spelling, and import its package first`,
		},
		{
			name:    "explicit panic",
			script:  "panic(\"boom\")\n",
			wantErr: `stdin:1: panic: boom`,
		},
		{
			name:    "range over an integer",
			script:  "s := 0\nfor i := range 3 {\n\ts += i\n}\n",
			wantErr: `stdin:2-4: the interpreter cannot compile this \(stdin:2: the interpreter cannot range over an integer\)`,
		},
		{
			name:    "min builtin",
			script:  "a := min(1, 2)\n",
			wantErr: `stdin:1:\d+: .*\(stdin:1: the interpreter has no min builtin\)`,
		},
		{
			name:    "unterminated input",
			script:  "import \"fmt\"\nfmt.Println(\"a\",\n",
			wantErr: `stdin:\d+:\d+: `,
		},
		{
			name:    "program panics",
			script:  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"run\")\n\tvar m map[string]int\n\tm[\"a\"] = 1\n}\n",
			wantErr: `stdin:1-9: panic: .*nil map`,
			wantOut: "run\n",
		},
		{
			name:    "non-zero exit",
			script:  "import \"os\"\nos.Exit(3)\n",
			wantErr: ``,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runScript(t, tt.script)
			if !errors.Is(err, repl.ErrScript) {
				t.Fatalf("error = %v, want ErrScript; stderr:\n%s", err, stderr)
			}
			if !regexp.MustCompile(tt.wantErr).MatchString(stderr) {
				t.Errorf("stderr = %q, want a match of %q", stderr, tt.wantErr)
			}
			if stdout != tt.wantOut {
				t.Errorf("stdout = %q, want %q", stdout, tt.wantOut)
			}
		})
	}
}

// TestScriptForms checks the accepted inputs: statements split over lines, a program
// with main, a clean os.Exit(0), and echoed expression values.
func TestScriptForms(t *testing.T) {
	tests := []struct {
		name, script string
		args         []string
		want         string
	}{
		{
			name: "statements over several lines",
			script: "import (\n\t\"fmt\"\n\t\"strings\"\n)\n\ns := strings.NewReplacer(\"a\", \"b\").\n\tReplace(\"banana\")\n" +
				"n := len([]int{\n\t1,\n\t2,\n})\nfmt.Println(s, n)\n",
			want: "bbnbnb 2\n",
		},
		{
			name:   "program",
			script: "// A program.\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(6 * 7)\n}\n",
			want:   "42\n",
		},
		{
			name:   "exit zero ends the script",
			script: "import (\n\t\"fmt\"\n\t\"os\"\n)\nfmt.Println(\"a\")\nos.Exit(0)\nfmt.Println(\"b\")\n",
			want:   "a\n",
		},
		{
			name:   "echo of expressions only",
			script: "import \"fmt\"\nx := 20\nx + 1\nfmt.Println(\"printed\")\nx * 2\n",
			args:   []string{"-echo"},
			want:   "21\nprinted\n40\n",
		},
		{
			name:   "gonum matrices",
			script: "import (\n\t\"fmt\"\n\n\t\"gonum.org/v1/gonum/mat\"\n)\na := mat.NewDense(2, 2, []float64{1, 2, 3, 4})\nfmt.Println(mat.Det(a))\n",
			want:   "-2\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runScript(t, tt.script, tt.args...)
			if err != nil {
				t.Fatalf("Run: %v\nstderr:\n%s", err, stderr)
			}
			if stdout != tt.want {
				t.Errorf("stdout = %q, want %q (stderr %q)", stdout, tt.want, stderr)
			}
		})
	}
}

// TestScriptFile runs a script given by path and names the file in its errors.
func TestScriptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calc.go")
	if err := os.WriteFile(path, []byte("import \"fmt\"\nfmt.Println(1 << 10)\nq := 1 +\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := repl.Run([]string{path}, strings.NewReader(""), &out, &errs)
	if !errors.Is(err, repl.ErrScript) {
		t.Fatalf("error = %v, want ErrScript", err)
	}
	if out.String() != "1024\n" {
		t.Errorf("stdout = %q, want %q", out.String(), "1024\n")
	}
	if !strings.Contains(errs.String(), path+":") {
		t.Errorf("stderr = %q, want the script path %s", errs.String(), path)
	}
}

// TestBadArguments covers the argument errors.
func TestBadArguments(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.go")
	var out, errs bytes.Buffer
	if err := repl.Run([]string{missing}, strings.NewReader(""), &out, &errs); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing script: error = %v, want fs.ErrNotExist", err)
	}
	if err := repl.Run([]string{"a.go", "b.go"}, strings.NewReader(""), &out, &errs); err == nil {
		t.Error("two scripts: no error")
	}
	if err := repl.Run([]string{"-no-such-flag"}, strings.NewReader(""), &out, &errs); err == nil {
		t.Error("unknown flag: no error")
	}
	errs.Reset()
	if err := repl.Run([]string{"-h"}, strings.NewReader(""), &out, &errs); err != nil {
		t.Errorf("-h: error %v", err)
	}
	if !strings.Contains(errs.String(), "Usage: gexph repl") {
		t.Errorf("-h: usage not printed, stderr %q", errs.String())
	}
}

// A script run with -echo shows every result of a call, as a session does: an error
// returned second is never hidden behind the first result.
func TestEchoedScriptShowsEveryResultOfACall(t *testing.T) {
	stdout, stderr, err := runScript(t, "import \"strconv\"\nstrconv.Atoi(\"x\") // a comment\nstrconv.ParseBool(\"true\")\n", "-echo", "-")
	want := "0\nstrconv.Atoi: parsing \"x\": invalid syntax\ntrue\n<nil>\n"
	if err != nil || stdout != want {
		t.Errorf("stdout %q (err %v, stderr %q), want %q", stdout, err, stderr, want)
	}
}

// A script of statements starts with the packages a session starts with, so that the
// same lines run in both: one that uses data, expander and fmt without importing them
// runs (a two-result call of a package not imported used to fail with "nil pointer
// dereference"). Its own imports and declarations stand: a script importing math/rand
// and declaring a func sort runs as written.
func TestScriptsStartWithTheSessionsImports(t *testing.T) {
	for _, tc := range []struct{ name, script, want string }{
		{"packages used without imports",
			"ds, err := data.Load(\"no-such-set\", data.LoadOptions{})\nfmt.Println(ds == nil, err != nil)\n" +
				"e, err := expander.Generate(expander.DefaultOptions(20, 4, 1))\nif err != nil {\n\tpanic(err)\n}\n" +
				"fmt.Println(strings.Repeat(\"n\", 2), e.Graph().N)\n",
			"true true\nnn 20\n"},
		{"names the script binds itself",
			"import (\n\t\"fmt\"\n\t\"math/rand\"\n)\n\nfunc sort(n int) int { return rand.Intn(n) }\n\nfmt.Println(sort(1))\n",
			"0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := runScript(t, tc.script)
			if err != nil || stdout != tc.want {
				t.Errorf("stdout %q, error %v (stderr %q); want %q", stdout, err, stderr, tc.want)
			}
		})
	}
}

// A package that a script uses without importing it, and that scripts do not start
// with, is named with its import path, whatever the interpreter's own failure.
func TestScriptNamesAMissingImport(t *testing.T) {
	for _, script := range []string{
		"acc, err := metrics.Accuracy(nil, nil)\n",
		"f := metrics.Accuracy\n",
	} {
		_, stderr, err := runScript(t, script)
		want := `metrics is not imported: add import "github.com/gexph/gexph/gexph/metrics"`
		if !errors.Is(err, repl.ErrScript) || !strings.Contains(stderr, want) || strings.Contains(stderr, "range over integers") {
			t.Errorf("%q: error %v, stderr %q; want one saying %s", script, err, stderr, want)
		}
	}
}
