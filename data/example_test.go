package data_test

import (
	"fmt"
	"log"

	"github.com/gexph/gexph/data"
)

// ExampleLoad loads a small PATTERN data set: the generated sets need no files, and
// TrainGraphs, ValGraphs and TestGraphs shrink their splits (graph i of a split is the
// same at every size).
func ExampleLoad() {
	ds, err := data.Load("pattern", data.LoadOptions{Seed: 1, TrainGraphs: 8, ValGraphs: 2, TestGraphs: 2})
	if err != nil {
		log.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		log.Fatal(err)
	}
	nodes, edges := 0, 0
	for _, g := range ds.Graphs {
		nodes += g.NumNodes
		edges += len(g.Src)
	}
	fmt.Printf("%s: %v, %d classes\n", ds.Name, ds.Task, ds.NumClasses)
	fmt.Printf("%d graphs, %d nodes, %d directed edges\n", len(ds.Graphs), nodes, edges)
	g := ds.Graphs[0]
	inPattern := 0
	for _, y := range g.NodeLabels {
		inPattern += int(y)
	}
	fmt.Printf("first graph: %d nodes, %d of them in the planted pattern\n", g.NumNodes, inPattern)
	fmt.Printf("split: %d train, %d val, %d test graphs\n", len(ds.Split.Train), len(ds.Split.Val), len(ds.Split.Test))
	// Output:
	// pattern: node-classification, 2 classes
	// 12 graphs, 1453 nodes, 76226 directed edges
	// first graph: 130 nodes, 31 of them in the planted pattern
	// split: 8 train, 2 val, 2 test graphs
}
