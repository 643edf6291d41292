package plots

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
)

// simplePlot is a small figure with two curves.
func simplePlot(t *testing.T) *plot.Plot {
	t.Helper()
	p, err := TrainingCurves([]map[string]float64{
		{"epoch": 1, "train_loss": 1.0, "val_loss": 1.2},
		{"epoch": 2, "train_loss": 0.6, "val_loss": 0.9},
		{"epoch": 3, "train_loss": 0.4, "val_loss": 0.8},
	}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPNGPixelSizeIsInchesTimesDPI(t *testing.T) {
	p := simplePlot(t)
	for _, c := range []struct {
		w, h float64
		dpi  int
	}{{6, 4, DefaultDPI}, {3, 2, 100}, {2.5, 1.5, 72}, {4.1, 3.3, 96}} {
		renderPNG(t, p, c.w, c.h, c.dpi)
	}
	// PNG uses DefaultDPI.
	data, err := PNG(p, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 2*DefaultDPI || cfg.Height != DefaultDPI {
		t.Errorf("PNG(p, 2, 1) is %d×%d, want %d×%d", cfg.Width, cfg.Height, 2*DefaultDPI, DefaultDPI)
	}
}

func TestSVGIsXMLWithPaths(t *testing.T) {
	texts := renderSVG(t, simplePlot(t))
	for _, want := range []string{"Training curves: loss", "epoch", "loss", "train", "val"} {
		requireText(t, texts, want)
	}
}

func TestRenderFormats(t *testing.T) {
	p := simplePlot(t)
	for format, magic := range map[string]string{"pdf": "%PDF", "svg": "<?xml", "PNG": "\x89PNG"} {
		data, err := Render(p, 3, 2, format)
		if err != nil {
			t.Fatalf("Render %s: %v", format, err)
		}
		if !bytes.HasPrefix(data, []byte(magic)) {
			t.Errorf("Render %s starts with %q, want %q", format, data[:min(len(data), 8)], magic)
		}
	}
}

func TestSaveWritesAtomicallyByExtension(t *testing.T) {
	dir := t.TempDir()
	p := simplePlot(t)
	for _, name := range []string{"a.png", "b.svg", "c.pdf", "d.SVG"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Save(p, path, 3, 2); err != nil {
			t.Fatalf("Save %s: %v", name, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Render(p, 3, 2, strings.TrimPrefix(filepath.Ext(name), "."))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 100 || !bytes.Equal(data[:16], want[:16]) {
			t.Errorf("%s holds %d bytes starting %q, want the rendered figure", name, len(data), data[:min(len(data), 16)])
		}
	}
	// A failed save leaves neither a file nor a temporary one behind.
	if err := Save(p, filepath.Join(dir, "bad.png"), -1, 2); err == nil {
		t.Error("Save with a negative width succeeded")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 4 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only the four figures", names)
	}
}

func TestOutputErrors(t *testing.T) {
	p := simplePlot(t)
	dir := t.TempDir()
	cases := map[string]func() error{
		"nil plot":         func() error { _, err := PNG(nil, 3, 2); return err },
		"zero width":       func() error { _, err := PNG(p, 0, 2); return err },
		"negative height":  func() error { _, err := SVG(p, 3, -2); return err },
		"NaN width":        func() error { _, err := SVG(p, math.NaN(), 2); return err },
		"infinite height":  func() error { _, err := PNG(p, 3, math.Inf(1)); return err },
		"huge vector":      func() error { _, err := Render(p, 2000, 2, "pdf"); return err },
		"too many pixels":  func() error { _, err := PNGAtDPI(p, 100, 100, 300); return err },
		"zero dpi":         func() error { _, err := PNGAtDPI(p, 3, 2, 0); return err },
		"unknown format":   func() error { _, err := Render(p, 3, 2, "gif"); return err },
		"no extension":     func() error { return Save(p, filepath.Join(dir, "figure"), 3, 2) },
		"bad extension":    func() error { return Save(p, filepath.Join(dir, "figure.jpg"), 3, 2) },
		"eps":              func() error { _, err := Render(p, 3, 2, "eps"); return err },
		"missing dir":      func() error { return Save(p, filepath.Join(dir, "no", "such", "f.png"), 3, 2) },
		"nil plot to file": func() error { return Save(nil, filepath.Join(dir, "f.png"), 3, 2) },
	}
	for name, f := range cases {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDrawingPanicBecomesError(t *testing.T) {
	p := simplePlot(t)
	// gonum/plot panics when a log scale meets a non-positive range.
	p.Y.Scale = plot.LogScale{}
	p.Y.Min = -1
	if _, err := PNG(p, 3, 2); err == nil || !strings.Contains(err.Error(), "drawing png") {
		t.Errorf("PNG of an impossible plot: err = %v, want a drawing error", err)
	}
}

func TestShowOutsideNotebookDoesNothing(t *testing.T) {
	if gonbui.IsNotebook || InNotebook() {
		t.Skip("running inside a notebook kernel")
	}
	p := simplePlot(t)
	// Outside a notebook nothing is rendered, so not even a bad size fails.
	for name, err := range map[string]error{
		"Show":               Show(p),
		"ShowSize bad size":  ShowSize(p, -1, 0),
		"ShowSVG":            ShowSVG(p, 3, 2),
		"ShowSVG nil figure": ShowSVG(nil, 3, 2),
	} {
		if err != nil {
			t.Errorf("%s outside a notebook: %v", name, err)
		}
	}
	Sync() // returns at once
}
