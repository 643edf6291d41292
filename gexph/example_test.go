package gexph_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
)

// Example trains a small Exphormer model (GatedGCN + Exphormer attention over the
// input edges, a degree-6 expander and one virtual node per graph) on generated
// PATTERN graphs and reports the run. README.md's "From Go" section shows this
// function's body (TestREADMEFromGoIsTheExample holds it to it).
func Example() {
	cfg, err := gexph.Preset("demo")
	if err != nil {
		log.Fatal(err)
	}
	cfg.Layers, cfg.HiddenDim, cfg.Epochs = 1, 16, 2 // a quick run (the demo preset: 3 layers of 32, 5 epochs)
	ds, err := data.Load("pattern", data.LoadOptions{Seed: cfg.Seed, TrainGraphs: 32, ValGraphs: 8, TestGraphs: 8})
	if err != nil {
		log.Fatal(err)
	}
	// TrainOptions{Log: os.Stderr} shows the progress; OutDir keeps checkpoints and logs.
	res, err := gexph.Train(context.Background(), cfg, ds, gexph.TrainOptions{})
	if err != nil {
		log.Fatal(err)
	}
	// res.Metric is the metric's name; ValMetric and TestMetric are its values.
	fmt.Printf("%s, preset %s: %d parameters, %d epochs, best epoch in [1, %d]: %v\n",
		res.Dataset, res.Preset, res.Params, res.Epochs, cfg.Epochs, res.BestEpoch >= 1 && res.BestEpoch <= cfg.Epochs)
	fmt.Printf("%s: val and test in [0, 1]: %v\n", res.Metric, res.ValMetric >= 0 && res.ValMetric <= 1 && res.TestMetric >= 0 && res.TestMetric <= 1)
	// Output:
	// pattern, preset demo: 4514 parameters, 2 epochs, best epoch in [1, 2]: true
	// weighted-accuracy: val and test in [0, 1]: true
}
