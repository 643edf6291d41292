package data

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/internal/jsonfile"
)

// maxExportMeta bounds meta.json (a few hundred bytes in practice).
const maxExportMeta = 1 << 20

// LoadExport reads a data set written by Export, or written in the same layout by
// another program (a PyG data set saved as its documented arrays): dense features come
// back dense, categorical ones as codes. The split is the export's: train.npz, val.npz
// and test.npz in that order for an inductive set (graphs numbered in that order), the
// index arrays of graph.npz for a transductive one. Every array is checked against the
// others and errors name the file and array.
func LoadExport(dir string) (*Dataset, error) {
	meta, err := readExportMeta(dir)
	if err != nil {
		return nil, err
	}
	task, err := ParseTask(meta.Task)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "meta.json"), err)
	}
	ds := &Dataset{Name: meta.Name, Task: task, NumClasses: meta.NumClasses, Transductive: meta.Transductive}
	if meta.Transductive {
		err = readTransductiveExport(dir, meta, ds)
	} else {
		for _, split := range []string{"train", "val", "test"} {
			if err = readSplitExport(dir, meta, split, ds); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if err := ds.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return ds, nil
}

// readExportMeta reads and checks dir/meta.json.
func readExportMeta(dir string) (*ExportMeta, error) {
	path := filepath.Join(dir, "meta.json")
	raw, err := jsonfile.ReadFileLimit(path, maxExportMeta, "export meta")
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	var meta ExportMeta
	if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if meta.Format != ExportFormat || meta.Version < 1 || meta.Version > ExportVersion {
		return nil, fmt.Errorf("%s: format %q version %d: want %q version 1..%d", path, meta.Format, meta.Version, ExportFormat, ExportVersion)
	}
	return &meta, nil
}

// exportArrays is one archive of an export with typed accessors that name it in errors.
type exportArrays struct {
	path string
	z    *npy.NPZ
}

func openExport(path string) (*exportArrays, error) {
	z, err := npy.ReadNPZFile(path)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return &exportArrays{path, z}, nil
}

// get returns array name with the given number of dimensions, or an error naming it;
// optional arrays that are absent give nil.
func (e *exportArrays) get(name string, dims int, optional bool) (*npy.Array, error) {
	a := e.z.Arrays[name]
	if a == nil {
		if optional {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: no array %q", e.path, name)
	}
	if len(a.Shape) != dims {
		return nil, fmt.Errorf("%s: %s has shape %v, want %d dimensions", e.path, name, a.Shape, dims)
	}
	return a, nil
}

func (e *exportArrays) ints(name string, dims int) ([]int64, []int, error) {
	a, err := e.get(name, dims, false)
	if err != nil {
		return nil, nil, err
	}
	v, err := a.Int64s()
	return v, a.Shape, err
}

// features reads x or edge_attr ([rows, cols]) as desc says.
func (e *exportArrays) features(name string, desc ExportFeatures, rows int) (Features, error) {
	a, err := e.get(name, 2, desc.Kind == "none")
	if err != nil || a == nil {
		return Features{}, err
	}
	if a.Shape[0] != rows || a.Shape[1] != desc.Cols {
		return Features{}, fmt.Errorf("%s: %s has shape %v, want [%d %d]", e.path, name, a.Shape, rows, desc.Cols)
	}
	switch desc.Kind {
	case "dense":
		v, err := a.Float32s()
		return Features{Kind: Dense, Rows: rows, Cols: desc.Cols, Dense: v}, err
	case "categorical":
		v, err := a.Int32s()
		if len(desc.Cardinality) != desc.Cols {
			return Features{}, fmt.Errorf("%s: %s has %d columns but meta.json gives %d cardinalities", e.path, name, desc.Cols, len(desc.Cardinality))
		}
		return Features{Kind: Categorical, Rows: rows, Cols: desc.Cols, Categorical: v, Cardinality: slices.Clone(desc.Cardinality)}, err
	}
	return Features{}, fmt.Errorf("%s: meta.json: feature kind %q (want none, dense or categorical)", e.path, desc.Kind)
}

// nodeAndEdgeFeatures reads x ([n, …]) and edge_attr ([m, …]) as meta describes them.
func (e *exportArrays) nodeAndEdgeFeatures(meta *ExportMeta, n, m int64) (x, ea Features, err error) {
	if x, err = e.features("x", meta.NodeFeatures, int(n)); err != nil {
		return x, ea, err
	}
	ea, err = e.features("edge_attr", meta.EdgeFeatures, int(m))
	return x, ea, err
}

// readSplitExport appends the graphs of one split's archive to ds.
func readSplitExport(dir string, meta *ExportMeta, split string, ds *Dataset) error {
	e, err := openExport(filepath.Join(dir, split+".npz"))
	if err != nil {
		return err
	}
	nodePtr, _, err := e.ints("node_ptr", 1)
	if err != nil {
		return err
	}
	edgePtr, _, err := e.ints("edge_ptr", 1)
	if err != nil {
		return err
	}
	ei, shape, err := e.ints("edge_index", 2)
	if err != nil {
		return err
	}
	graphs, n, m := len(nodePtr)-1, nodePtr[len(nodePtr)-1], int64(len(ei)/2)
	if graphs < 0 || len(edgePtr) != graphs+1 || shape[0] != 2 || int64(shape[1]) != m || edgePtr[graphs] != m ||
		!ascendingFromZero(nodePtr) || !ascendingFromZero(edgePtr) {
		return fmt.Errorf("%s: node_ptr, edge_ptr and edge_index disagree (want [G+1] offsets from 0 that end at the node and edge counts)", e.path)
	}
	x, ea, err := e.nodeAndEdgeFeatures(meta, n, m)
	if err != nil {
		return err
	}
	labels, err := e.labels(ds, graphs, int(n))
	if err != nil {
		return err
	}
	for g := range graphs {
		gr, err := exportGraph(ei, nodePtr[g], nodePtr[g+1], edgePtr[g], edgePtr[g+1], m, x, ea)
		if err != nil {
			return fmt.Errorf("%s: graph %d: %w", e.path, g, err)
		}
		labels.assign(&gr, g, nodePtr[g], nodePtr[g+1])
		idx := len(ds.Graphs)
		ds.Graphs = append(ds.Graphs, gr)
		switch split {
		case "train":
			ds.Split.Train = append(ds.Split.Train, idx)
		case "val":
			ds.Split.Val = append(ds.Split.Val, idx)
		default:
			ds.Split.Test = append(ds.Split.Test, idx)
		}
	}
	return nil
}

// ascendingFromZero tells whether p starts at 0 and never decreases.
func ascendingFromZero(p []int64) bool {
	if len(p) == 0 || p[0] != 0 {
		return false
	}
	for i := 1; i < len(p); i++ {
		if p[i] < p[i-1] {
			return false
		}
	}
	return true
}

// exportLabels holds y of an archive, by task.
type exportLabels struct {
	classes []int64
	targets []float32
	task    Task
	width   int
}

// labels reads y: [N] or [G] int64 classes, or [G, T] float32 values.
func (e *exportArrays) labels(ds *Dataset, graphs, nodes int) (*exportLabels, error) {
	l := &exportLabels{task: ds.Task, width: ds.NumClasses}
	switch ds.Task {
	case NodeClassification, GraphClassification:
		want := graphs
		if ds.Task == NodeClassification {
			want = nodes
		}
		v, shape, err := e.ints("y", 1)
		if err == nil && shape[0] != want {
			err = fmt.Errorf("%s: y has %d values, want %d", e.path, shape[0], want)
		}
		l.classes = v
		return l, err
	}
	a, err := e.get("y", 2, false)
	if err != nil {
		return nil, err
	}
	if a.Shape[0] != graphs || a.Shape[1] != ds.NumClasses {
		return nil, fmt.Errorf("%s: y has shape %v, want [%d %d]", e.path, a.Shape, graphs, ds.NumClasses)
	}
	l.targets, err = a.Float32s()
	return l, err
}

// assign gives graph g (nodes lo..hi of the archive) its labels.
func (l *exportLabels) assign(gr *Graph, g int, lo, hi int64) {
	switch l.task {
	case NodeClassification:
		gr.NodeLabels = make([]int32, hi-lo)
		for i := range gr.NodeLabels {
			gr.NodeLabels[i] = int32(l.classes[lo+int64(i)])
		}
	case GraphClassification:
		gr.Label = int32(l.classes[g])
	default:
		gr.Targets = slices.Clone(l.targets[g*l.width : (g+1)*l.width])
	}
}

// exportGraph cuts one graph out of an archive's concatenated arrays.
func exportGraph(ei []int64, n0, n1, e0, e1, m int64, x, ea Features) (Graph, error) {
	gr := Graph{NumNodes: int(n1 - n0)}
	for k := e0; k < e1; k++ {
		s, d := ei[k], ei[m+k]
		if s < 0 || d < 0 || s >= n1-n0 || d >= n1-n0 {
			return gr, fmt.Errorf("edge %d: %d→%d outside the graph's %d nodes", k-e0, s, d, n1-n0)
		}
		gr.Src, gr.Dst = append(gr.Src, int32(s)), append(gr.Dst, int32(d))
	}
	gr.Node, gr.Edge = sliceRows(x, n0, n1), sliceRows(ea, e0, e1)
	return gr, nil
}

// sliceRows returns rows lo..hi of f (dense or categorical) as their own matrix.
func sliceRows(f Features, lo, hi int64) Features {
	out := Features{Kind: f.Kind, Rows: int(hi - lo), Cols: f.Cols, Cardinality: f.Cardinality}
	c := int64(f.Cols)
	switch f.Kind {
	case Dense:
		out.Dense = slices.Clone(f.Dense[lo*c : hi*c])
	case Categorical:
		out.Categorical = slices.Clone(f.Categorical[lo*c : hi*c])
	default:
		out.Rows = 0
	}
	return out
}

// readTransductiveExport reads graph.npz of a transductive export into ds.
func readTransductiveExport(dir string, meta *ExportMeta, ds *Dataset) error {
	e, err := openExport(filepath.Join(dir, "graph.npz"))
	if err != nil {
		return err
	}
	ei, shape, err := e.ints("edge_index", 2)
	if err != nil {
		return err
	}
	if shape[0] != 2 {
		return fmt.Errorf("%s: edge_index has shape %v, want [2 E]", e.path, shape)
	}
	m := int64(shape[1])
	y, yShape, err := e.ints("y", 1)
	if err != nil {
		return err
	}
	n := int64(yShape[0])
	x, ea, err := e.nodeAndEdgeFeatures(meta, n, m)
	if err != nil {
		return err
	}
	gr, err := exportGraph(ei, 0, n, 0, m, m, x, ea)
	if err != nil {
		return fmt.Errorf("%s: %w", e.path, err)
	}
	(&exportLabels{classes: y, task: NodeClassification}).assign(&gr, 0, 0, n)
	ds.Graphs = []Graph{gr}
	for _, s := range []struct {
		name string
		dst  *[]int
	}{{"train", &ds.Split.Train}, {"val", &ds.Split.Val}, {"test", &ds.Split.Test}} {
		v, _, err := e.ints(s.name+"_idx", 1)
		if err != nil {
			return err
		}
		for _, i := range v {
			*s.dst = append(*s.dst, int(i))
		}
	}
	return nil
}
