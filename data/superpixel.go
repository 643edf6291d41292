package data

import (
	"fmt"

	"github.com/gexph/gexph/data/superpixel"
)

// Superpixel graphs as in benchmarking-gnns (data/superpixels.py), built by package
// superpixel (see its documentation for the construction) with the settings of
// superpixel.MNISTSpec and superpixel.CIFAR10Spec. Each image's graph becomes a Graph
// with Dense node features (channels+2 columns: channel means, then the centre of mass
// as row/side and column/side), the directed k-nearest-neighbour edges in Src and Dst,
// Dense edge features (1 column: the similarity) and the image's class as Label.

// superpixelSizes returns the number of training, validation and test images to use
// out of the full counts: opts.TrainGraphs, ValGraphs and TestGraphs where set, capped at
// the full counts. Negative counts or workers are refused, naming the field.
func superpixelSizes(name string, opts LoadOptions, fullTrain, fullVal, fullTest int) (nTrain, nVal, nTest int, err error) {
	for _, f := range []struct {
		field string
		value int
	}{{"TrainGraphs", opts.TrainGraphs}, {"ValGraphs", opts.ValGraphs}, {"TestGraphs", opts.TestGraphs}} {
		if f.value < 0 {
			return 0, 0, 0, fmt.Errorf("%s: LoadOptions.%s is %d, want ≥ 0 (0: all images)", name, f.field, f.value)
		}
	}
	if err := checkWorkers(name, opts.Workers); err != nil {
		return 0, 0, 0, err
	}
	pick := func(limit, all int) int {
		if limit == 0 || limit > all {
			return all
		}
		return limit
	}
	return pick(opts.TrainGraphs, fullTrain), pick(opts.ValGraphs, fullVal), pick(opts.TestGraphs, fullTest), nil
}

// checkWorkers refuses a negative LoadOptions.Workers.
func checkWorkers(name string, workers int) error {
	if workers < 0 {
		return fmt.Errorf("%s: LoadOptions.Workers is %d, want ≥ 0 (0: GOMAXPROCS)", name, workers)
	}
	return nil
}

// superpixelGraphs builds the graph of every image (spec.Channels planes of spec.Side²
// bytes each) on the given number of goroutines (0: GOMAXPROCS) and sets its label.
func superpixelGraphs(spec superpixel.Spec, images [][]byte, labels []int32, workers int) ([]Graph, error) {
	graphs := make([]Graph, len(images))
	builders := make([]*superpixel.Builder, workerCount(len(images), workers))
	for w := range builders {
		var err error
		if builders[w], err = superpixel.NewBuilder(spec); err != nil {
			return nil, err
		}
	}
	parallelEach(len(images), workers, func(w, i int) {
		graphs[i] = superpixelGraph(builders[w], images[i])
		graphs[i].Label = labels[i]
	})
	return graphs, nil
}

// superpixelGraph returns the superpixel graph of one image as a Graph (without its
// label).
func superpixelGraph(b *superpixel.Builder, pixels []byte) Graph {
	sg := b.Graph(pixels)
	return Graph{
		NumNodes: sg.N,
		Src:      sg.Src,
		Dst:      sg.Dst,
		Node:     Features{Kind: Dense, Rows: sg.N, Cols: sg.Cols, Dense: sg.Features},
		Edge:     Features{Kind: Dense, Rows: len(sg.Weights), Cols: 1, Dense: sg.Weights},
	}
}
