package plots

import "testing"

func BenchmarkForceLayout200(b *testing.B) {
	e := testExpander(b, 200, 4, 1)
	for b.Loop() {
		if _, err := ForceLayout(e.N, e.Src, e.Dst, DefaultLayoutIters, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpectralLayout200(b *testing.B) {
	e := testExpander(b, 200, 4, 1)
	for b.Loop() {
		if _, err := SpectralLayout(e.N, e.Src, e.Dst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpectrumHistogramPNG(b *testing.B) {
	eigs := testEigenvalues(b, testExpander(b, 600, 4, 1))
	for b.Loop() {
		p, err := SpectrumHistogram(eigs, 4, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := PNG(p, DefaultWidth, DefaultHeight); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpectrumHistogramSVG(b *testing.B) {
	eigs := testEigenvalues(b, testExpander(b, 600, 4, 1))
	for b.Loop() {
		p, err := SpectrumHistogram(eigs, 4, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := SVG(p, DefaultWidth, DefaultHeight); err != nil {
			b.Fatal(err)
		}
	}
}
