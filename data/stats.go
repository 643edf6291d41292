package data

// Stats summarises a data set, as `gexph data` prints it.
type Stats struct {
	Name   string `json:"name"`
	Task   string `json:"task"`
	Graphs int    `json:"graphs"`
	// Nodes and Edges total all graphs; Edges counts edges as stored (directed).
	Nodes int64 `json:"nodes"`
	Edges int64 `json:"edges"`
	// EdgesUndirected counts distinct unordered node pairs {u, v} joined by an edge in
	// either direction (a self loop counts once): the figure papers report.
	EdgesUndirected int64 `json:"edges_undirected"`
	// Features is the number of node feature columns; EdgeFeatures of edge feature columns.
	Features     int `json:"features"`
	EdgeFeatures int `json:"edge_features"`
	Classes      int `json:"classes"`
	// Train, Val and Test are the split sizes (graphs, or nodes when transductive).
	Train int `json:"train"`
	Val   int `json:"val"`
	Test  int `json:"test"`
	// AvgNodes and AvgEdges are per graph; AvgEdges counts undirected edges.
	AvgNodes float64 `json:"avg_nodes"`
	AvgEdges float64 `json:"avg_edges"`
	// Transforms lists what the loader changed in the data as read (Dataset.Transforms).
	Transforms []string `json:"transforms,omitempty"`
	// Inferred lists what the loader inferred that the files do not say
	// (Dataset.Inferred); Unlabelled marks data without labels (Dataset.Unlabelled).
	Inferred   []string `json:"inferred,omitempty"`
	Unlabelled bool     `json:"unlabelled,omitempty"`
}

// Stats computes the data set's summary statistics.
func (d *Dataset) Stats() Stats {
	s := Stats{
		Name: d.Name, Task: d.Task.String(), Graphs: len(d.Graphs), Classes: d.NumClasses,
		Train: len(d.Split.Train), Val: len(d.Split.Val), Test: len(d.Split.Test),
		Transforms: d.Transforms, Inferred: d.Inferred, Unlabelled: d.Unlabelled,
	}
	var scratch pairScratch
	for i := range d.Graphs {
		g := &d.Graphs[i]
		s.Nodes += int64(g.NumNodes)
		s.Edges += int64(len(g.Src))
		s.EdgesUndirected += scratch.countUnordered(g.NumNodes, g.Src, g.Dst)
	}
	if len(d.Graphs) > 0 {
		s.Features, s.EdgeFeatures = d.Graphs[0].Node.Cols, d.Graphs[0].Edge.Cols
		s.AvgNodes = float64(s.Nodes) / float64(len(d.Graphs))
		s.AvgEdges = float64(s.EdgesUndirected) / float64(len(d.Graphs))
	}
	return s
}

// pairScratch holds buffers reused across graphs by countUnordered.
type pairScratch struct {
	lo, hi, lo2, hi2 []int32
	pos              []int
}

// countUnordered returns the number of distinct pairs {src[i], dst[i]}, by sorting the
// pairs (min, max) with two counting passes. Edges outside [0, n) are ignored.
func (s *pairScratch) countUnordered(n int, src, dst []int32) int64 {
	m := min(len(src), len(dst))
	s.lo, s.hi = s.lo[:0], s.hi[:0]
	for i := range m {
		u, v := src[i], dst[i]
		if u < 0 || v < 0 || int(u) >= n || int(v) >= n {
			continue
		}
		s.lo, s.hi = append(s.lo, min(u, v)), append(s.hi, max(u, v))
	}
	m = len(s.lo)
	s.lo2, s.hi2 = slicesResize(s.lo2, m), slicesResize(s.hi2, m)
	s.pos = countingSort(s.pos, n, s.hi, s.lo, s.hi2, s.lo2) // by larger end
	s.pos = countingSort(s.pos, n, s.lo2, s.hi2, s.lo, s.hi) // stably by smaller end
	var count int64
	for i := range m {
		if i == 0 || s.lo[i] != s.lo[i-1] || s.hi[i] != s.hi[i-1] {
			count++
		}
	}
	return count
}
