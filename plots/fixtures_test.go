package plots

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/spectral"
	"gonum.org/v1/plot"
)

// testExpander draws a certified d-regular expander on n nodes.
func testExpander(t testing.TB, n, d int, seed uint64) *expander.Expander {
	t.Helper()
	e, err := expander.Generate(expander.DefaultOptions(n, d, seed))
	if err != nil {
		t.Fatalf("expander.Generate(%d, %d, %d): %v", n, d, seed, err)
	}
	return e
}

// testEigenvalues returns the adjacency eigenvalues of e.
func testEigenvalues(t testing.TB, e *expander.Expander) []float64 {
	t.Helper()
	eigs, err := spectral.DenseEigenvalues(e.Graph(), spectral.Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	return eigs
}

// pngStats summarises a decoded PNG.
type pngStats struct {
	img     image.Image
	colours int     // distinct colours
	ink     float64 // fraction of pixels that are not near white
}

// renderPNG renders p at w×h inches and dpi, decodes it and checks the pixel size
// and that the figure is not blank.
func renderPNG(t *testing.T, p *plot.Plot, w, h float64, dpi int) pngStats {
	t.Helper()
	data, err := PNGAtDPI(p, w, h, dpi)
	if err != nil {
		t.Fatalf("PNGAtDPI: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding the PNG: %v", err)
	}
	b := img.Bounds()
	wantW, wantH := int(math.Round(w*float64(dpi))), int(math.Round(h*float64(dpi)))
	if b.Dx() != wantW || b.Dy() != wantH {
		t.Fatalf("PNG is %d×%d pixels, want %g×%g inches × %d dpi = %d×%d", b.Dx(), b.Dy(), w, h, dpi, wantW, wantH)
	}
	seen := map[color.RGBA]bool{}
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			seen[c] = true
			if int(c.R)+int(c.G)+int(c.B) < 3*235 {
				ink++
			}
		}
	}
	s := pngStats{img: img, colours: len(seen), ink: float64(ink) / float64(b.Dx()*b.Dy())}
	if s.colours < 8 || s.ink < 0.01 {
		t.Fatalf("PNG looks blank: %d colours, %.2f%% of pixels inked", s.colours, 100*s.ink)
	}
	return s
}

// countNear counts the pixels within tol (per channel) of the colour 0xRRGGBB.
func countNear(img image.Image, hex uint32, tol int) int {
	want := rgb(hex)
	near := func(a, b uint8) bool { return int(a)-int(b) <= tol && int(b)-int(a) <= tol }
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if near(c.R, want.R) && near(c.G, want.G) && near(c.B, want.B) {
				n++
			}
		}
	}
	return n
}

// requireColour fails unless at least minPixels pixels have the colour 0xRRGGBB.
func requireColour(t *testing.T, s pngStats, what string, hex uint32, minPixels int) {
	t.Helper()
	if n := countNear(s.img, hex, 12); n < minPixels {
		t.Errorf("%s (#%06x): %d pixels, want at least %d", what, hex, n, minPixels)
	}
}

// renderSVG renders p as SVG, checks that it parses as XML and draws paths, and
// returns the text of its <text> elements joined by newlines.
func renderSVG(t *testing.T, p *plot.Plot) string {
	t.Helper()
	data, err := SVG(p, 6, 4)
	if err != nil {
		t.Fatalf("SVG: %v", err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	paths := 0
	var texts []string
	inText := false
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			paths += btoi(tok.Name.Local == "path")
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		case xml.EndElement:
			inText = false
		}
	}
	if root != "svg" || paths == 0 {
		t.Fatalf("SVG root <%s> with %d <path> elements, want <svg> with paths", root, paths)
	}
	return strings.Join(texts, "\n")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// requireText fails unless the figure's texts contain want.
func requireText(t *testing.T, texts, want string) {
	t.Helper()
	if !strings.Contains(texts, want) {
		t.Errorf("figure has no text %q; texts:\n%s", want, texts)
	}
}

// pathEdges returns the edges of the path 0–1–…–(n−1).
func pathEdges(n int) (src, dst []int32) {
	for i := 0; i+1 < n; i++ {
		src, dst = append(src, int32(i)), append(dst, int32(i+1))
	}
	return src, dst
}
