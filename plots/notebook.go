package plots

import (
	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
)

// InNotebook reports whether the program runs inside a GoNB (Jupyter) kernel, where
// Show displays figures inline.
func InNotebook() bool { return gonbui.IsNotebook }

// Show displays p inline in a GoNB notebook as a DefaultWidth × DefaultHeight inch
// PNG at DefaultDPI. Outside a notebook it does nothing and returns nil, so code that
// calls Show also runs as a plain Go program. Cells should `defer plots.Sync()`.
func Show(p *plot.Plot) error {
	return ShowSize(p, DefaultWidth, DefaultHeight)
}

// ShowSize is Show with a figure size in inches.
func ShowSize(p *plot.Plot, widthInches, heightInches float64) error {
	if !gonbui.IsNotebook {
		return nil
	}
	png, err := PNG(p, widthInches, heightInches)
	if err != nil {
		return err
	}
	gonbui.DisplayPng(png)
	return nil
}

// ShowSVG displays p inline in a GoNB notebook as an SVG of widthInches ×
// heightInches (sharp at any zoom, larger for figures with many marks). Outside a
// notebook it does nothing and returns nil.
func ShowSVG(p *plot.Plot, widthInches, heightInches float64) error {
	if !gonbui.IsNotebook {
		return nil
	}
	svg, err := SVG(p, widthInches, heightInches)
	if err != nil {
		return err
	}
	gonbui.DisplaySvg(string(svg))
	return nil
}

// Sync waits until every figure sent to the notebook has been displayed; it is
// gonbui.Sync. A notebook cell that shows figures should start its main function
// with `defer plots.Sync()`, or output still in transit when the cell's program
// exits is lost. Outside a notebook Sync returns at once.
func Sync() { gonbui.Sync() }
