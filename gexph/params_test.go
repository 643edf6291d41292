package gexph

import (
	"testing"

	"github.com/gexph/gexph/data"
)

// shapedDataset returns a one- or two-graph data set whose features have the shapes of
// a real data set, for counting parameters.
func shapedDataset(task data.Task, classes int, transductive bool, node, edge data.Features) *data.Dataset {
	const n = 12
	src, dst := []int32{}, []int32{}
	for i := 0; i < n; i++ {
		src, dst = append(src, int32(i), int32((i+1)%n)), append(dst, int32((i+1)%n), int32(i))
	}
	g := data.Graph{NumNodes: n, Src: src, Dst: dst, Label: 1, NodeLabels: make([]int32, n)}
	node.Rows = n
	switch node.Kind {
	case data.Dense:
		node.Dense = make([]float32, n*node.Cols)
	case data.Categorical:
		node.Categorical = make([]int32, n*node.Cols)
	case data.Sparse:
		node.Indptr = make([]int64, n+1)
		for i := 0; i < n; i++ {
			node.Indices = append(node.Indices, int32(i%node.Cols))
			node.Values = append(node.Values, 1)
			node.Indptr[i+1] = int64(len(node.Indices))
		}
	}
	g.Node = node
	if edge.Kind == data.Dense {
		edge.Rows = len(src)
		edge.Dense = make([]float32, len(src)*edge.Cols)
	}
	g.Edge = edge
	ds := &data.Dataset{Name: "shaped", Task: task, NumClasses: classes, Transductive: transductive, Graphs: []data.Graph{g}}
	if transductive {
		ds.Split = data.Split{Train: []int{0, 1, 2}, Val: []int{3}, Test: []int{4}}
	} else {
		ds.Graphs = append(ds.Graphs, g)
		ds.Split = data.Split{Train: []int{0}, Val: []int{1}}
	}
	return ds
}

// TestParamCountsMatchPaper builds each preset's model on data shaped like the paper's
// data set and compares the trainable parameter count with tables 7, 8 and 9.
func TestParamCountsMatchPaper(t *testing.T) {
	cat := func(card int) data.Features {
		return data.Features{Kind: data.Categorical, Cols: 1, Cardinality: []int{card}}
	}
	dense := func(cols int) data.Features { return data.Features{Kind: data.Dense, Cols: cols} }
	sparse := func(cols int) data.Features { return data.Features{Kind: data.Sparse, Cols: cols} }
	none := data.Features{}
	cases := []struct {
		preset string
		ds     *data.Dataset
		paper  int
	}{
		// PATTERN: 3 node feature values, no edge features, 2 classes (one logit).
		{"pattern", shapedDataset(data.NodeClassification, 2, false, cat(3), none), 91045},
		// CLUSTER: 7 node feature values, 6 classes.
		{"cluster", shapedDataset(data.NodeClassification, 6, false, cat(7), none), 282970},
		// MNIST: intensity and 2 coordinates per superpixel (GraphGPS concatenates x and
		// pos), 1 edge feature, 10 classes; CIFAR10: 3 colours and 2 coordinates. With 10
		// eigenvectors instead of 8 both counts would be 80 higher.
		{"mnist", shapedDataset(data.GraphClassification, 10, false, dense(3), dense(1)), 111015},
		{"cifar10", shapedDataset(data.GraphClassification, 10, false, dense(5), dense(1)), 111095},
		// COCO-SP: 14 superpixel features, 2 edge features, 81 classes.
		{"coco-sp", shapedDataset(data.NodeClassification, 81, false, dense(14), dense(2)), 498993},
		// Transductive graphs: bag-of-words features, classes.
		{"computers", shapedDataset(data.NodeClassification, 10, true, sparse(767), none), 302570},
		{"photo", shapedDataset(data.NodeClassification, 8, true, sparse(745), none), 202632},
		{"cs", shapedDataset(data.NodeClassification, 15, true, sparse(6805), none), 686103},
		{"physics", shapedDataset(data.NodeClassification, 5, true, sparse(8415), none), 801293},
	}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, tc := range cases {
		cfg, err := Preset(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewModel(cfg, tc.ds)
		if err != nil {
			t.Fatalf("%s: %v", tc.preset, err)
		}
		if got := m.ParamCount(); got != tc.paper {
			t.Errorf("%s: %d parameters, the paper reports %d", tc.preset, got, tc.paper)
		}
	}
}
