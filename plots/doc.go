// Package plots draws the figures of gexph experiments with gonum.org/v1/plot.
//
// Figures, each a *plot.Plot with a title, axis labels and a legend that callers may
// restyle before rendering:
//
//   - SpectrumHistogram: adjacency eigenvalues against the Ramanujan bound ±2√(d−1),
//     the trivial eigenvalue d and the Kesten–McKay density; ExtremeEigenvalues:
//     λₙ against λ₂ per sampled graph over the Ramanujan region.
//   - MixingCurves: random-walk L1 distance to stationarity per step (such as
//     spectral.Mixing.Curve) against Lemma 4.2 of the paper.
//   - BallGrowth: |B(v, k)| against k (BallSeries converts spectral.BallGrowth) with
//     optional bound series (spectral.BallBounds) and the largest eccentricity seen
//     (a lower bound on the diameter); DegreeDistribution.
//   - InteractionGraph: a small expander.Interaction with its local, expander and
//     global edges and its virtual nodes, laid out by ForceLayout (Fruchterman–
//     Reingold, seeded) or SpectralLayout (Laplacian eigenvectors).
//   - TrainingCurves: fields of training records, read by ReadTrainingLog from the
//     JSON-lines log of a run or converted by EpochRecords from []gexph.EpochStats;
//     Comparison: the variants of a comparison or ablation as dots with error bars on an
//     axis zoomed to them.
//
// Builders take plain Go values (slices, small structs) and reject bad input with an
// error. A figure drawn with logY plots log10 of its values on a linear axis whose
// ticks are labelled with the values, so p.Y.Min and p.Y.Max are then exponents.
// The legend goes to the corner where it hides the least, on a translucent backdrop.
//
// Rendering:
//
//	png, err := plots.PNG(p, 6, 4)                  // 6×4 inches at DefaultDPI: 900×600 pixels
//	svg, err := plots.SVG(p, 6, 4)
//	err = plots.Save(p, "spectrum.pdf", 6, 4)       // .png, .svg or .pdf; written atomically
//
// In a GoNB (Jupyter) notebook, plots.Show(p) displays a PNG inline; outside a notebook
// it does nothing, so the same code runs in programs and in the yaegi REPL. Output
// reaches the notebook asynchronously: a cell that shows figures must start its main
// with
//
//	defer plots.Sync() // gonbui.Sync: waits until the figures are displayed
//
// or figures still in transit when the cell's program exits are lost.
//
// All exported functions are non-generic, so the yaegi REPL can call them.
package plots
