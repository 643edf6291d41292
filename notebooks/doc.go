// Package notebooks holds gexph's Jupyter notebooks, written for the GoNB kernel
// installed as "gexph" by `make notebook-kernel`, and the tests that check them.
//
// The committed notebooks carry no outputs. `make notebooks` executes each one
// headless into build/notebooks and then runs this package's tests with
// GEXPH_NOTEBOOKS=1, which check the executed copies: every code cell ran without an
// error, the numbers each notebook is about were printed and agree with the theory they
// illustrate, and the figures are real PNG images.
package notebooks
