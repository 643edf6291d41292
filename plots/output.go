package plots

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Default figure size and raster resolution.
const (
	// DefaultWidth is the width, in inches, of the figures Show displays.
	DefaultWidth = 6.0
	// DefaultHeight is the height, in inches, of the figures Show displays.
	DefaultHeight = 4.0
	// DefaultDPI is the resolution of PNG output, in pixels per inch: a 6×4 inch
	// figure is 900×600 pixels.
	DefaultDPI = 150
	// maxPixels bounds PNG output (about 400 MB of RGBA), so that a mistyped size
	// fails instead of exhausting memory.
	maxPixels = 100_000_000
	// maxInches bounds vector output sizes.
	maxInches = 1000
)

// PNG renders p as a PNG image of widthInches × heightInches at DefaultDPI.
func PNG(p *plot.Plot, widthInches, heightInches float64) ([]byte, error) {
	return PNGAtDPI(p, widthInches, heightInches, DefaultDPI)
}

// PNGAtDPI renders p as a PNG image of widthInches × heightInches at dpi pixels per
// inch; the image is round(width·dpi) × round(height·dpi) pixels.
func PNGAtDPI(p *plot.Plot, widthInches, heightInches float64, dpi int) ([]byte, error) {
	if err := checkSize(p, widthInches, heightInches); err != nil {
		return nil, err
	}
	if dpi <= 0 {
		return nil, fmt.Errorf("plots: dpi %d is not positive", dpi)
	}
	if px := widthInches * heightInches * float64(dpi) * float64(dpi); px > maxPixels {
		return nil, fmt.Errorf("plots: %g×%g inches at %d dpi is %.3g pixels, more than %d",
			widthInches, heightInches, dpi, px, maxPixels)
	}
	w, h := vg.Length(widthInches)*vg.Inch, vg.Length(heightInches)*vg.Inch
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
	return render(p, vgimg.PngCanvas{Canvas: c}, "png")
}

// SVG renders p as an SVG document of widthInches × heightInches.
func SVG(p *plot.Plot, widthInches, heightInches float64) ([]byte, error) {
	return Render(p, widthInches, heightInches, "svg")
}

// Render renders p in the given format, case-insensitively: "png" (at DefaultDPI),
// "svg" or "pdf".
func Render(p *plot.Plot, widthInches, heightInches float64, format string) ([]byte, error) {
	format = strings.ToLower(format)
	switch format {
	case "png":
		return PNG(p, widthInches, heightInches)
	case "svg", "pdf":
	default:
		return nil, fmt.Errorf("plots: unsupported format %q (want png, svg or pdf)", format)
	}
	if err := checkSize(p, widthInches, heightInches); err != nil {
		return nil, err
	}
	c, err := draw.NewFormattedCanvas(vg.Length(widthInches)*vg.Inch, vg.Length(heightInches)*vg.Inch, format)
	if err != nil {
		return nil, fmt.Errorf("plots: %s canvas: %w", format, err)
	}
	return render(p, c, format)
}

// Save writes p to path as a widthInches × heightInches figure; the format follows
// the extension: .png (at DefaultDPI), .svg or .pdf. The figure is written to a
// temporary file in the same directory and renamed over path, so readers never see
// a partial file.
func Save(p *plot.Plot, path string, widthInches, heightInches float64) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if ext == "" {
		return fmt.Errorf("plots: %s: no file extension to choose the format", path)
	}
	data, err := Render(p, widthInches, heightInches, ext)
	if err != nil {
		return fmt.Errorf("plots: saving %s: %w", path, err)
	}
	if err := atomicfile.WriteBytes(path, data); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// checkSize validates a plot and its size in inches.
func checkSize(p *plot.Plot, widthInches, heightInches float64) error {
	if p == nil {
		return fmt.Errorf("plots: nil plot")
	}
	for _, v := range [...]struct {
		name string
		val  float64
	}{{"width", widthInches}, {"height", heightInches}} {
		if math.IsNaN(v.val) || v.val <= 0 || v.val > maxInches {
			return fmt.Errorf("plots: %s %v inches is outside (0, %d]", v.name, v.val, maxInches)
		}
	}
	return nil
}

// render draws p on c and encodes it. gonum/plot panics on some impossible plots
// (a log axis over non-positive values, for one); such panics come back as errors.
func render(p *plot.Plot, c vg.CanvasWriterTo, format string) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, fmt.Errorf("plots: drawing %s: %v", format, r)
		}
	}()
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: encoding %s: %w", format, err)
	}
	return buf.Bytes(), nil
}
