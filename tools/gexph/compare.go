package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/gexph/compare"
)

// errBackendsDiffer is returned by compare when a difference exceeds the tolerance.
var errBackendsDiffer = errors.New("the backends differ beyond the tolerance")

func runCompare(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "-backend B [-reference go] [-reference-float64] -dataset SPEC [-preset NAME] [-set key=value ...] [-batch N] [-tol T] [-json]", stderr)
	backend := fs.String("backend", "", "the backend under test, e.g. cuda (the GPU's pip-installed plugin), xla:/path/to/pjrt_plugin.so or xla:cpu")
	reference := fs.String("reference", "go", "the backend it is held to")
	float64Ref := fs.Bool("reference-float64", false, "run the reference in float64: the differences are then the tested backend's own float32 error")
	cf := addConfigFlags(fs)
	df := addDataFlags(fs, "pattern")
	batch := fs.Int("batch", 0, "graphs in the batch (0: the config's batch_size); transductive data sets use their whole graph")
	padding := fs.String("padding", "", "batch padding of both models: none, pow2, exp:B, linear:S, plan, plan:T,E (default: plan for batches of graphs, none for a transductive graph)")
	tol := fs.Float64("tol", compare.DefaultTolerance, "largest difference accepted: max|a−b|/max|b| for outputs and loss, max|a−b| over the gradient's largest entry for gradients (raised to NoiseFactor × float32's noise where that is larger)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *backend == "" {
		return errors.New("-backend is required (e.g. -backend xla:/path/to/pjrt_plugin.so)")
	}
	if *batch < 0 {
		return fmt.Errorf("-batch %d: want a number of graphs ≥ 0", *batch)
	}
	cfg, err := cf.load(*df.spec)
	if err != nil {
		return err
	}
	if *batch > 0 {
		cfg.BatchSize = *batch
	}
	ds, err := data.Load(*df.spec, compareDataOptions(cfg, df, stderr))
	if err != nil {
		return fmt.Errorf("-dataset %s: %w", *df.spec, err)
	}
	res, err := compare.Backends(cfg, ds, compare.Options{Backend: *backend, Reference: *reference, Padding: *padding, Tolerance: *tol,
		ReferenceFloat64: *float64Ref})
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSON(stdout, res); err != nil {
			return err
		}
	} else {
		printComparison(stdout, res)
	}
	if !res.OK {
		return fmt.Errorf("%w: %s against %s: %s", errBackendsDiffer, res.Backend, res.Reference,
			strings.Join(res.Failures(), "; "))
	}
	return nil
}

// compareDataOptions loads only what one batch needs: for generated and superpixel data
// sets one batch of training graphs and one graph of each other split, unless the flags
// say otherwise. Warnings about the data go to warnings.
func compareDataOptions(cfg gexph.Config, df dataFlags, warnings io.Writer) data.LoadOptions {
	lo := df.options(0, warnings)
	if lo.TrainGraphs == 0 && lo.ValGraphs == 0 && lo.TestGraphs == 0 {
		lo.TrainGraphs, lo.ValGraphs, lo.TestGraphs = max(cfg.BatchSize, 1), 1, 1
	}
	return gexph.DataOptions(cfg, lo)
}

// printComparison writes the readable report of a comparison.
func printComparison(w io.Writer, r compare.Result) {
	ref := r.Reference
	if r.ReferenceFloat64 {
		ref += " (float64)"
	}
	fmt.Fprintf(w, "backend      %s\nreference    %s\ndata set     %s (%d graphs, %d nodes, %d node rows padded)\nparameters   %d\n",
		r.Backend, ref, r.Dataset, r.Graphs, r.Nodes, r.PadNodes, r.Params)
	fmt.Fprintf(w, "loss         %.7g against %.7g\n", r.Loss, r.RefLoss)
	for _, q := range []struct {
		d            compare.TensorDiff
		noise, bound float64
	}{{r.Inference, r.Noise.Inference, r.Bounds.Inference}, {r.Training, r.Noise.Training, r.Bounds.Training},
		{r.LossDiff, r.Noise.Loss, r.Bounds.Loss}} {
		fmt.Fprintf(w, "%-22s rel %.3g  (max abs %.3g over %d values; noise %.3g, bound %.3g)\n",
			q.d.Name, q.d.RelErr, q.d.MaxAbs, q.d.Size, q.noise, q.bound)
	}
	fmt.Fprintf(w, "gradients of %d variables, worst first, as max abs over the gradient's scale %.3g (noise %.3g, bound %.3g):\n",
		len(r.Gradients), r.GradientScale, r.Noise.Gradients, r.Bounds.Gradients)
	for i, d := range r.Gradients {
		if i == 5 {
			fmt.Fprintf(w, "  … %d more\n", len(r.Gradients)-i)
			break
		}
		fmt.Fprintf(w, "  %-40s %.3g  (max abs %.3g, rel to its own scale %.3g, %d values)\n", d.Name, d.OfScale, d.MaxAbs, d.RelErr, d.Size)
	}
	verdict := "OK"
	if !r.OK {
		verdict = "DIFFERENT: " + strings.Join(r.Failures(), "; ")
	}
	fmt.Fprintf(w, "verdict      %s (tolerance %.3g, or %d× float32's noise where larger)\n", verdict, r.Tolerance, compare.NoiseFactor)
}
