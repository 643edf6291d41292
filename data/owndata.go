package data

import (
	"fmt"
	"slices"
)

// The names Dataset.Transforms gives the transforms a loader may apply.
const (
	// TransformBinaryFeatures: every positive node feature set to 1 (LoadOptions.BinaryFeatures).
	TransformBinaryFeatures = "binary-features"
	// TransformLargestComponent: only the largest connected component kept, followed by
	// how many nodes were kept (LoadOptions.LargestComponent).
	TransformLargestComponent = "largest-component"
	// TransformDoubledEdges: every edge stored twice in each direction (LoadOptions.DoubledEdges).
	TransformDoubledEdges = "doubled-edges"
	// TransformSelfLoops: a self loop added to every node (LoadOptions.SelfLoops).
	TransformSelfLoops = "self-loops"
	// TransformNormalizedFeatures: every node's features divided by their sum, at least 1
	// (LoadOptions.NormalizeFeatures).
	TransformNormalizedFeatures = "normalized-features"
)

// largestComponent returns the largest connected component of g with the original id of
// each kept node in NodeIDs, and the transform's description.
func largestComponent(g *Graph) (Graph, string, error) {
	sub, nodes, err := LargestComponent(g)
	if err != nil {
		return Graph{}, "", err
	}
	sub.NodeIDs = make([]int64, len(nodes))
	for i, v := range nodes {
		sub.NodeIDs[i] = g.NodeID(int(v))
	}
	return sub, fmt.Sprintf("%s (kept %d of %d nodes)", TransformLargestComponent, sub.NumNodes, g.NumNodes), nil
}

// referenceEdges applies opts.DoubledEdges and opts.SelfLoops to g and returns the
// transforms applied.
func referenceEdges(g *Graph, opts LoadOptions) []string {
	var applied []string
	if opts.DoubledEdges {
		g.Src, g.Dst = append(g.Src, g.Src...), append(g.Dst, g.Dst...)
		applied = append(applied, TransformDoubledEdges)
	}
	if opts.SelfLoops {
		for i := range int32(g.NumNodes) {
			g.Src, g.Dst = append(g.Src, i), append(g.Dst, i)
		}
		applied = append(applied, TransformSelfLoops)
	}
	return applied
}

// warnLabels reports to warn (when not nil) labels that look like node ids rather than
// classes: a label column that is a permutation of the node ids (every node labelled,
// each with its own class), or as many classes as labelled nodes. Each class then has a
// single node, so no validation or test node's class is ever seen in training. where
// names the file (and entry or column) holding the labels.
func warnLabels(labels []int32, where string, warn func(string)) {
	if warn == nil {
		return
	}
	labelled, classes := 0, 0
	for _, y := range labels {
		if y != Unlabelled {
			labelled++
			classes = max(classes, int(y)+1)
		}
	}
	if labelled < 2 || classes != labelled || !distinctLabels(labels, classes) {
		return
	}
	const why = "each class has a single node, so no validation or test node's class is seen in training; " +
		"is it a node-id column? The label comes first in each row, then the features"
	if labelled == len(labels) {
		warn(fmt.Sprintf("%s: the labels are a permutation of the node ids 0…%d (%d classes on %d nodes): %s",
			where, len(labels)-1, classes, len(labels), why))
		return
	}
	warn(fmt.Sprintf("%s: as many classes (%d) as labelled nodes (%d): %s", where, classes, labelled, why))
}

// distinctLabels tells whether no class in [0, classes) labels two nodes.
func distinctLabels(labels []int32, classes int) bool {
	seen := make([]bool, classes)
	for _, y := range labels {
		if y == Unlabelled {
			continue
		}
		if seen[y] {
			return false
		}
		seen[y] = true
	}
	return true
}

// binaryDense sets every positive value of the dense features f to 1.
func binaryDense(f *Features) {
	for i, x := range f.Dense {
		if x > 0 {
			f.Dense[i] = 1
		}
	}
}

// remapSplit renumbers the node indices of s through newID (−1: the node was dropped)
// and returns how many were dropped.
func remapSplit(s *Split, newID []int32) int {
	dropped := 0
	for _, part := range []*[]int{&s.Train, &s.Val, &s.Test} {
		kept := (*part)[:0]
		for _, v := range *part {
			if w := newID[v]; w >= 0 {
				kept = append(kept, int(w))
			} else {
				dropped++
			}
		}
		*part = slices.Clip(kept)
	}
	return dropped
}
