package data

import (
	"fmt"
	"math"
)

// PlantedPartitionOptions describes a synthetic transductive data set of any size: one
// graph whose nodes fall into Classes planted communities.
type PlantedPartitionOptions struct {
	// Nodes is the number of nodes (≥ 2).
	Nodes int
	// Classes is the number of communities, which are also the node labels (≥ 2).
	Classes int
	// AvgDegree is the expected degree of a node before duplicates and loops are
	// dropped (> 0).
	AvgDegree float64
	// Homophily is the probability that an edge joins two nodes of the same community
	// (in [0, 1]); otherwise both ends are uniform.
	Homophily float64
	// FeatureDim is the number of dense node features (≥ Classes): a one-hot of the
	// node's community with probability FeatureSignal, else a one-hot of a random one,
	// plus Gaussian noise of standard deviation 0.5 on every feature.
	FeatureDim    int
	FeatureSignal float64
	// Seed determines the graph, the features and the 60/20/20 random split.
	Seed uint64
}

// DefaultPlantedPartitionOptions returns the options of the scaling experiments (and of
// Load's "planted:N"): 5 communities, expected degree 5, homophily 0.8, 16 features with
// signal 0.5.
func DefaultPlantedPartitionOptions(nodes int, seed uint64) PlantedPartitionOptions {
	return PlantedPartitionOptions{Nodes: nodes, Classes: 5, AvgDegree: 5, Homophily: 0.8,
		FeatureDim: 16, FeatureSignal: 0.5, Seed: seed}
}

// PlantedPartitionBytes estimates the memory of GeneratePlantedPartition(opts): per
// node its label, FeatureDim float32 features and split index (4 + 4·FeatureDim + 8
// bytes), per drawn edge its endpoints in both directions and the dedup's sort keys
// (32 bytes). Sizes beyond int64 give math.MaxInt64.
func PlantedPartitionBytes(opts PlantedPartitionOptions) int64 {
	n := float64(max(opts.Nodes, 0))
	m := n * max(opts.AvgDegree, 0) / 2
	b := n*(12+4*float64(max(opts.FeatureDim, 0))) + 32*m
	if b >= math.MaxInt64 || math.IsNaN(b) {
		return math.MaxInt64
	}
	return int64(b)
}

// streamPlanted is the random stream of GeneratePlantedPartition.
const streamPlanted = 4 << 56

// GeneratePlantedPartition generates a planted-partition graph as described by opts, in
// time and memory linear in Nodes·AvgDegree: node i belongs to community i mod Classes
// (so communities differ in size by at most one); each of ⌊Nodes·AvgDegree/2⌉ edges
// picks a uniform source and, with probability Homophily, a uniform destination in the
// source's community, otherwise a uniform one. Loops and duplicates are dropped and
// edges are stored in both directions. The split is RandomSplit(Nodes, 0.6, 0.2, Seed).
func GeneratePlantedPartition(opts PlantedPartitionOptions) (*Dataset, error) {
	o := opts
	switch {
	case o.Nodes < 2:
		return nil, fmt.Errorf("planted partition: Nodes = %d, want ≥ 2", o.Nodes)
	case o.Nodes > math.MaxInt32:
		return nil, fmt.Errorf("planted partition: Nodes = %d exceeds %d", o.Nodes, math.MaxInt32)
	case o.Classes < 2 || o.Classes > o.Nodes:
		return nil, fmt.Errorf("planted partition: Classes = %d, want in [2, Nodes = %d]", o.Classes, o.Nodes)
	case !(o.AvgDegree > 0) || math.IsInf(o.AvgDegree, 0) || o.AvgDegree >= float64(o.Nodes):
		return nil, fmt.Errorf("planted partition: AvgDegree = %v, want in (0, Nodes = %d)", o.AvgDegree, o.Nodes)
	case !(o.Homophily >= 0 && o.Homophily <= 1):
		return nil, fmt.Errorf("planted partition: Homophily = %v, want in [0, 1]", o.Homophily)
	case o.FeatureDim < o.Classes:
		return nil, fmt.Errorf("planted partition: FeatureDim = %d, want ≥ Classes = %d", o.FeatureDim, o.Classes)
	case !(o.FeatureSignal >= 0 && o.FeatureSignal <= 1):
		return nil, fmt.Errorf("planted partition: FeatureSignal = %v, want in [0, 1]", o.FeatureSignal)
	}
	rng := newRNG(o.Seed, streamPlanted)
	n, c := o.Nodes, o.Classes
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = int32(i % c)
	}
	m := int(math.Round(float64(n) * o.AvgDegree / 2))
	src, dst := make([]int32, m), make([]int32, m)
	for k := range m {
		u := rng.IntN(n)
		var v int
		if rng.Float64() < o.Homophily {
			// A uniform member of u's community: indices ≡ u (mod c) below n.
			size := (n - u%c + c - 1) / c
			v = u%c + c*rng.IntN(size)
		} else {
			v = rng.IntN(n)
		}
		src[k], dst[k] = int32(u), int32(v)
	}
	usrc, udst, err := UndirectedEdges(n, src, dst)
	if err != nil {
		return nil, fmt.Errorf("planted partition: %w", err)
	}
	feat := make([]float32, n*o.FeatureDim)
	for i := range n {
		row := feat[i*o.FeatureDim : (i+1)*o.FeatureDim]
		for j := range row {
			row[j] = float32(0.5 * rng.NormFloat64())
		}
		class := int(labels[i])
		if rng.Float64() >= o.FeatureSignal {
			class = rng.IntN(c)
		}
		row[class]++
	}
	split, err := RandomSplit(n, 0.6, 0.2, o.Seed)
	if err != nil {
		return nil, fmt.Errorf("planted partition: %w", err)
	}
	d := &Dataset{
		Name: fmt.Sprintf("planted-%d", n), Task: NodeClassification, NumClasses: c, Transductive: true,
		Graphs: []Graph{{
			NumNodes: n, Src: usrc, Dst: udst, NodeLabels: labels,
			Node: Features{Kind: Dense, Rows: n, Cols: o.FeatureDim, Dense: feat},
		}},
		Split: split,
	}
	return d, nil
}
