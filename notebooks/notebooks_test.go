package notebooks_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// executedDir is where `make notebooks` writes the executed copies.
const executedDir = "../build/notebooks"

// notebook is the part of the nbformat 4 document the tests read.
type notebook struct {
	Cells    []cell `json:"cells"`
	Metadata struct {
		Kernelspec struct {
			Name string `json:"name"`
		} `json:"kernelspec"`
	} `json:"metadata"`
}

// cell is one notebook cell.
type cell struct {
	CellType       string   `json:"cell_type"`
	Source         text     `json:"source"`
	ExecutionCount *int     `json:"execution_count"`
	Outputs        []output `json:"outputs"`
}

// output is one output of a code cell: a stream, display data, a result or an error.
type output struct {
	OutputType string          `json:"output_type"`
	Name       string          `json:"name"` // stream: "stdout" or "stderr"
	Text       text            `json:"text"`
	Data       map[string]text `json:"data"`
	EName      string          `json:"ename"`
	EValue     string          `json:"evalue"`
	Traceback  []string        `json:"traceback"`
}

// text is a multi-line nbformat string, stored either as a string or as a list of lines.
type text string

// UnmarshalJSON accepts a string or a list of strings.
func (t *text) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = text(s)
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		return fmt.Errorf("notebook text: want a string or a list of strings: %w", err)
	}
	*t = text(strings.Join(lines, ""))
	return nil
}

// readNotebook parses an .ipynb file.
func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &nb, nil
}

// committedNotebooks returns the paths of the notebooks in this folder.
func committedNotebooks(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no notebooks in notebooks/")
	}
	return paths
}

// codeCells returns the code cells of nb.
func codeCells(nb *notebook) []cell {
	var cells []cell
	for _, c := range nb.Cells {
		if c.CellType == "code" {
			cells = append(cells, c)
		}
	}
	return cells
}

// displaysFigures matches code that shows images in the notebook.
var displaysFigures = regexp.MustCompile(`plots\.Show|gonbui\.Display`)

// TestCommittedNotebooks checks the notebooks as committed: outputs cleared, the gexph
// kernel, a first %noautoget cell, a deferred Sync in every cell that shows figures,
// and an expectation for every notebook.
func TestCommittedNotebooks(t *testing.T) {
	paths := committedNotebooks(t)
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			nb, err := readNotebook(path)
			if err != nil {
				t.Fatal(err)
			}
			if nb.Metadata.Kernelspec.Name != "gexph" {
				t.Errorf("kernel %q, want gexph", nb.Metadata.Kernelspec.Name)
			}
			cells := codeCells(nb)
			if len(cells) == 0 || strings.TrimSpace(string(cells[0].Source)) != "%noautoget" {
				t.Errorf("the first code cell must be %%noautoget (no module look-ups)")
			}
			for i, c := range cells {
				if len(c.Outputs) > 0 || c.ExecutionCount != nil {
					t.Errorf("code cell %d has outputs or an execution count: clear them before committing", i+1)
				}
				if displaysFigures.MatchString(string(c.Source)) && !strings.Contains(string(c.Source), "defer plots.Sync()") {
					t.Errorf("code cell %d shows figures without `defer plots.Sync()`", i+1)
				}
			}
			if _, ok := expectations[path]; !ok {
				t.Errorf("no expectations for %s in notebooks_test.go", path)
			}
		})
	}
	for name := range expectations {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("expectations for a missing notebook: %v", err)
		}
	}
}

// TestExecutedNotebooks checks the executed copies written by `make notebooks`. It
// skips when there are none, unless GEXPH_NOTEBOOKS=1.
func TestExecutedNotebooks(t *testing.T) {
	required := os.Getenv("GEXPH_NOTEBOOKS") == "1"
	if _, err := os.Stat(executedDir); errors.Is(err, fs.ErrNotExist) && !required {
		t.Skipf("no executed notebooks in %s (run `make notebooks`)", executedDir)
	}
	for _, path := range committedNotebooks(t) {
		t.Run(path, func(t *testing.T) {
			committed, err := readNotebook(path)
			if err != nil {
				t.Fatal(err)
			}
			executed, err := readNotebook(filepath.Join(executedDir, path))
			if err != nil {
				t.Fatalf("executed copy: %v (run `make notebooks`)", err)
			}
			checkExecuted(t, committed, executed, expectations[path])
		})
	}
}

// checkExecuted checks one executed notebook against its committed source and its
// expectations.
func checkExecuted(t *testing.T, committed, executed *notebook, want expectation) {
	t.Helper()
	src, cells := codeCells(committed), codeCells(executed)
	if len(src) != len(cells) {
		t.Fatalf("executed copy has %d code cells, the notebook %d: stale copy, run `make notebooks`", len(cells), len(src))
	}
	var stdout strings.Builder
	figures := 0
	for i, c := range cells {
		if c.Source != src[i].Source {
			t.Fatalf("code cell %d differs from the notebook: stale copy, run `make notebooks`", i+1)
		}
		if c.ExecutionCount == nil {
			t.Errorf("code cell %d did not run", i+1)
		}
		var stderr strings.Builder
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "stream":
				if o.Name == "stdout" {
					stdout.WriteString(string(o.Text))
				} else {
					stderr.WriteString(string(o.Text))
				}
			case "error":
				t.Errorf("code cell %d failed: %s: %s\n%s\nstderr:\n%s", i+1, o.EName, o.EValue,
					strings.Join(o.Traceback, "\n"), stderr.String())
			case "display_data", "execute_result":
				if img, ok := o.Data["image/png"]; ok {
					if err := checkPNG(string(img)); err != nil {
						t.Errorf("code cell %d: figure: %v", i+1, err)
					}
					figures++
				}
			}
		}
	}
	if figures < want.figures {
		t.Errorf("%d figures, want at least %d", figures, want.figures)
	}
	out := stdout.String()
	for _, v := range want.values {
		m := v.pattern.FindAllStringSubmatch(out, -1)
		if len(m) == 0 {
			t.Errorf("no output matches %q", v.pattern)
			continue
		}
		for _, match := range m {
			nums := make([]float64, len(match)-1)
			for j, s := range match[1:] {
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Errorf("%q: %v", match[0], err)
				}
				nums[j] = x
			}
			if err := v.check(nums); err != nil {
				t.Errorf("%q: %v", match[0], err)
			}
		}
	}
}

// checkPNG decodes a base64 PNG figure and checks that it is a real image.
func checkPNG(b64 string) error {
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
	if err != nil {
		return fmt.Errorf("base64: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("PNG: %w", err)
	}
	b := img.Bounds()
	if b.Dx() < 200 || b.Dy() < 150 {
		return fmt.Errorf("%d×%d pixels, want at least 200×150", b.Dx(), b.Dy())
	}
	colors := map[[4]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			colors[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colors) < 3 {
		return fmt.Errorf("a blank image (%d colours)", len(colors))
	}
	return nil
}
