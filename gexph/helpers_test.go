package gexph

import (
	"math/rand/v2"

	"github.com/gexph/gexph/data"
)

// randomGraph returns a connected graph on n nodes (a ring plus chords), edges stored in
// both directions.
func randomGraph(rng *rand.Rand, n, chords int) (src, dst []int32) {
	add := func(u, v int) {
		src = append(src, int32(u), int32(v))
		dst = append(dst, int32(v), int32(u))
	}
	for i := 0; i < n; i++ {
		add(i, (i+1)%n)
	}
	for c := 0; c < chords; c++ {
		u, v := rng.IntN(n), rng.IntN(n)
		if u != v {
			add(u, v)
		}
	}
	return src, dst
}

// tinyNodeDataset returns numGraphs small graphs (6–10 nodes) for binary node
// classification: one categorical feature in {0, 1, 2}, label 1 when the feature is 2.
func tinyNodeDataset(numGraphs int, seed uint64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 1))
	ds := &data.Dataset{Name: "tiny-node", Task: data.NodeClassification, NumClasses: 2}
	for gi := 0; gi < numGraphs; gi++ {
		n := 6 + rng.IntN(5)
		src, dst := randomGraph(rng, n, 3)
		g := data.Graph{NumNodes: n, Src: src, Dst: dst, NodeLabels: make([]int32, n)}
		g.Node = data.Features{Kind: data.Categorical, Rows: n, Cols: 1, Categorical: make([]int32, n), Cardinality: []int{3}}
		for v := 0; v < n; v++ {
			c := int32(rng.IntN(3))
			g.Node.Categorical[v] = c
			if c == 2 {
				g.NodeLabels[v] = 1
			}
		}
		ds.Graphs = append(ds.Graphs, g)
	}
	nTrain := numGraphs * 6 / 10
	nVal := (numGraphs - nTrain) / 2
	ds.Split = data.Split{Train: rangeInts(0, nTrain), Val: rangeInts(nTrain, nTrain+nVal), Test: rangeInts(nTrain+nVal, numGraphs)}
	return ds
}

// tinyGraphDataset returns small graphs for a graph-level task with dense node features
// (2 columns) and dense edge features (1 column): classification (3 classes by the
// share of nodes with a large first feature), regression or multi-label (2 targets).
func tinyGraphDataset(task data.Task, numGraphs int, seed uint64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 2))
	ds := &data.Dataset{Name: "tiny-graph", Task: task}
	switch task {
	case data.GraphClassification:
		ds.NumClasses = 3
	default:
		ds.NumClasses = 2
	}
	for gi := 0; gi < numGraphs; gi++ {
		n := 5 + rng.IntN(6)
		src, dst := randomGraph(rng, n, 2)
		g := data.Graph{NumNodes: n, Src: src, Dst: dst}
		g.Node = data.Features{Kind: data.Dense, Rows: n, Cols: 2, Dense: make([]float32, 2*n)}
		high := 0
		for v := 0; v < n; v++ {
			x := rng.Float32()
			g.Node.Dense[2*v], g.Node.Dense[2*v+1] = x, rng.Float32()
			if x > 0.5 {
				high++
			}
		}
		g.Edge = data.Features{Kind: data.Dense, Rows: len(src), Cols: 1, Dense: make([]float32, len(src))}
		for e := range src {
			g.Edge.Dense[e] = rng.Float32()
		}
		frac := float32(high) / float32(n)
		switch task {
		case data.GraphClassification:
			g.Label = int32(min(2, int(frac*3)))
		case data.GraphRegression:
			g.Targets = []float32{frac, float32(n) / 10}
		case data.GraphMultiLabel:
			g.Targets = []float32{0, 0}
			if frac > 0.5 {
				g.Targets[0] = 1
			}
			if n > 7 {
				g.Targets[1] = 1
			}
		}
		ds.Graphs = append(ds.Graphs, g)
	}
	nTrain := numGraphs * 6 / 10
	nVal := (numGraphs - nTrain) / 2
	ds.Split = data.Split{Train: rangeInts(0, nTrain), Val: rangeInts(nTrain, nTrain+nVal), Test: rangeInts(nTrain+nVal, numGraphs)}
	return ds
}

// tinyTransductiveDataset returns one graph of 3 communities of 20 nodes (dense inside,
// sparse between) with sparse bag-of-words features that hint at the community, and a
// random 50/25/25 node split.
func tinyTransductiveDataset(seed uint64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 3))
	const k, size, words = 3, 20, 12
	n := k * size
	var src, dst []int32
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			p := 0.02
			if u/size == v/size {
				p = 0.3
			}
			if rng.Float64() < p {
				src, dst = append(src, int32(u), int32(v)), append(dst, int32(v), int32(u))
			}
		}
	}
	g := data.Graph{NumNodes: n, Src: src, Dst: dst, NodeLabels: make([]int32, n)}
	f := data.Features{Kind: data.Sparse, Rows: n, Cols: words, Indptr: make([]int64, n+1)}
	for u := 0; u < n; u++ {
		c := u / size
		g.NodeLabels[u] = int32(c)
		for w := 0; w < words; w++ {
			p := 0.1
			if w%k == c {
				p = 0.5
			}
			if rng.Float64() < p {
				f.Indices = append(f.Indices, int32(w))
				f.Values = append(f.Values, 1)
			}
		}
		f.Indptr[u+1] = int64(len(f.Indices))
	}
	g.Node = f
	perm := rng.Perm(n)
	ds := &data.Dataset{Name: "tiny-transductive", Task: data.NodeClassification, NumClasses: k, Transductive: true,
		Graphs: []data.Graph{g}, Split: data.Split{Train: perm[:n/2], Val: perm[n/2 : 3*n/4], Test: perm[3*n/4:]}}
	return ds
}

// tinyConfig is a small full Exphormer config (GatedGCN, batch norm, expander, one
// virtual node) that trains in a fraction of a second per epoch.
func tinyConfig() Config {
	c := baseConfig()
	c.Layers, c.HiddenDim, c.Heads = 1, 8, 2
	c.ExpanderDegree, c.VirtualNodes = 4, 1
	c.HeadLayers = 2
	c.BatchSize, c.LearningRate, c.Epochs, c.WarmupEpochs = 4, 1e-2, 2, 0
	c.Seed = 7
	return c
}

func rangeInts(a, b int) []int {
	r := make([]int, 0, b-a)
	for i := a; i < b; i++ {
		r = append(r, i)
	}
	return r
}

// categoricalEdges replaces the edge features of ds by one categorical column with
// codes in [0, card), drawn from the edge's dense feature.
func categoricalEdges(ds *data.Dataset, card int) *data.Dataset {
	for gi := range ds.Graphs {
		g := &ds.Graphs[gi]
		codes := make([]int32, len(g.Src))
		for e := range codes {
			codes[e] = int32(min(card-1, int(g.Edge.Dense[e]*float32(card))))
		}
		g.Edge = data.Features{Kind: data.Categorical, Rows: len(codes), Cols: 1, Categorical: codes, Cardinality: []int{card}}
	}
	return ds
}
