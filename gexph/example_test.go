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
// PATTERN graphs and reports the run.
func Example() {
	cfg, err := gexph.Preset("demo")
	if err != nil {
		log.Fatal(err)
	}
	cfg.Layers, cfg.HiddenDim, cfg.Epochs = 1, 16, 2
	ds, err := data.Load("pattern", data.LoadOptions{Seed: cfg.Seed, TrainGraphs: 32, ValGraphs: 8, TestGraphs: 8})
	if err != nil {
		log.Fatal(err)
	}
	res, err := gexph.Train(context.Background(), cfg, ds, gexph.TrainOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, preset %s: %d parameters, %d epochs, best epoch in [1, %d]: %v\n",
		res.Dataset, res.Preset, res.Params, res.Epochs, cfg.Epochs, res.BestEpoch >= 1 && res.BestEpoch <= cfg.Epochs)
	fmt.Printf("test %s in [0, 1]: %v\n", res.Metric, res.TestMetric >= 0 && res.TestMetric <= 1)
	// Output:
	// pattern, preset demo: 4514 parameters, 2 epochs, best epoch in [1, 2]: true
	// test weighted-accuracy in [0, 1]: true
}
