package data

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gexph/gexph/data/superpixel"
)

// Superpixel graphs as in benchmarking-gnns (data/superpixels.py), built by package
// superpixel (see its documentation for the construction) with the settings of
// superpixel.MNISTSpec and superpixel.CIFAR10Spec. Each image's graph becomes a Graph
// with Dense node features (channels+2 columns: channel means, then the centre of mass
// as row/side and column/side), the directed k-nearest-neighbour edges in Src and Dst,
// Dense edge features (1 column: the similarity) and the image's class as Label.

// SuperpixelOptions selects a subset and the parallelism of the superpixel loaders
// (LoadMNISTSuperpixels, LoadCIFAR10Superpixels).
type SuperpixelOptions struct {
	// MaxTrain, MaxVal, MaxTest cap the number of training, validation and test
	// images, taking the first ones of each part; 0 means all.
	MaxTrain, MaxVal, MaxTest int
	// Workers is the number of goroutines computing superpixels; 0 means GOMAXPROCS.
	// The result does not depend on it.
	Workers int
}

// sizes returns the number of training, validation and test images to use out of
// the full counts, checking the options.
func (o SuperpixelOptions) sizes(name string, fullTrain, fullVal, fullTest int) (nTrain, nVal, nTest int, err error) {
	if o.MaxTrain < 0 || o.MaxVal < 0 || o.MaxTest < 0 || o.Workers < 0 {
		return 0, 0, 0, fmt.Errorf("%s: negative option in %+v", name, o)
	}
	pick := func(limit, all int) int {
		if limit == 0 || limit > all {
			return all
		}
		return limit
	}
	return pick(o.MaxTrain, fullTrain), pick(o.MaxVal, fullVal), pick(o.MaxTest, fullTest), nil
}

// superpixelGraphs builds the graph of every image (spec.Channels planes of spec.Side²
// bytes each) on the given number of goroutines (0: GOMAXPROCS) and sets its label.
func superpixelGraphs(spec superpixel.Spec, images [][]byte, labels []int32, workers int) ([]Graph, error) {
	graphs := make([]Graph, len(images))
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	builders := make([]*superpixel.Builder, min(workers, len(images)))
	for w := range builders {
		var err error
		if builders[w], err = superpixel.NewBuilder(spec); err != nil {
			return nil, err
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, b := range builders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(images) {
					return
				}
				graphs[i] = superpixelGraph(b, images[i])
				graphs[i].Label = labels[i]
			}
		}()
	}
	wg.Wait()
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
