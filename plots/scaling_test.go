package plots

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

func TestScalingCurves(t *testing.T) {
	curves := []ScalingCurve{
		{Series: Series{Label: "linear", X: []float64{1e3, 1e4, 1e5}, Y: []float64{0.1, 1, 10}}},
		{Series: Series{Label: "quadratic", X: []float64{1e3, 1e4}, Y: []float64{0.1, 10}}, FailedAt: 2e4},
	}
	p, err := ScalingCurves("cost", "nodes", "seconds", curves, []Limit{{Label: "budget", Y: 100}})
	if err != nil {
		t.Fatal(err)
	}
	// Log–log axes: the drawn coordinates are decimal logarithms.
	if p.X.Min > 3 || p.X.Max < 5 || p.Y.Max < 2 {
		t.Errorf("axes x [%v, %v], y max %v; want log10 ranges covering the data and the limit", p.X.Min, p.X.Max, p.Y.Max)
	}
	b, err := PNG(p, 5, 3.5)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || img.Bounds().Dx() < 300 {
		t.Fatalf("PNG: %v", err)
	}
	for _, bad := range []struct {
		curves []ScalingCurve
		limits []Limit
		want   string
	}{
		{nil, nil, "no curves"},
		{[]ScalingCurve{{Series: Series{Label: "z", X: []float64{0}, Y: []float64{1}}}}, nil, "positive"},
		{[]ScalingCurve{{Series: Series{Label: "n", Y: []float64{1}}}}, nil, "no sizes"},
		{curves, []Limit{{Label: "neg", Y: -1}}, "neg"},
	} {
		if _, err := ScalingCurves("t", "x", "y", bad.curves, bad.limits); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error %v, want one with %q", err, bad.want)
		}
	}
}
