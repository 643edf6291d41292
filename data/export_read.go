package data

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
//
// meta.json is optional. Without it, or with a meta.json that gives only some of
// name, task, num_classes, node_features and edge_features (no "format"), the rest is
// inferred from the arrays and listed in Dataset.Inferred: the layout from the files
// present (graph.npz: one graph; any of train.npz, val.npz, test.npz: graphs), the
// feature kinds from x's and edge_attr's types (floating point or boolean: dense;
// integers: categorical, each column's cardinality its largest code + 1), the task from
// y (integers, one per graph: graph classification; one per node: node classification;
// 0/1 values per graph: multi-label; other numbers: regression), the classes from the
// largest label. The graphs of an archive may be given as PyG collates them: node
// offsets as node_ptr, ptr or a batch vector, edge_index in the batch's numbering, and
// edge_ptr left out. An archive without y holds unlabelled graphs (Dataset.Unlabelled),
// to predict on; a split file left out is an empty split. An export holds its split and
// its transforms, so no field of opts is read.
func LoadExport(dir string, _ LoadOptions) (*Dataset, error) {
	src, err := openExportDir(dir)
	if err != nil {
		return nil, err
	}
	meta := src.meta
	task, err := ParseTask(meta.Task)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "meta.json"), err)
	}
	ds := &Dataset{Name: meta.Name, Task: task, NumClasses: meta.NumClasses, Transductive: meta.Transductive,
		Inferred: src.inferred, Unlabelled: src.unlabelled}
	if meta.Transductive {
		err = readTransductiveExport(src.archives["graph"], meta, ds, src.full)
	} else {
		for _, split := range SplitNames() {
			if e := src.archives[string(split)]; e != nil {
				if err = readSplitExport(e, meta, split, ds); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	validate := ds.Validate
	if !src.full {
		validate = ds.ValidateForPrediction
	}
	if err := validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return ds, nil
}

// readExportMeta reads and checks dir/meta.json: the complete meta of an export (it
// names the format), or the hints of a meta.json written by hand (no format), or
// neither when there is no meta.json.
func readExportMeta(dir string) (*ExportMeta, *exportHints, error) {
	path := filepath.Join(dir, "meta.json")
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	raw, err := jsonfile.ReadFileLimit(path, maxExportMeta, "export meta")
	if err != nil {
		return nil, nil, fmt.Errorf("export: %w", err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, full := keys["format"]; !full {
		var h exportHints
		if err := jsonfile.DecodeStrict(string(raw), &h); err != nil {
			return nil, nil, fmt.Errorf("%s (a meta.json without \"format\" gives some of name, task, num_classes, node_features, edge_features; the rest is inferred): %w", path, err)
		}
		return nil, &h, nil
	}
	var meta ExportMeta
	if err := json.Unmarshal(raw, &meta); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if meta.Format != ExportFormat || meta.Version < 1 || meta.Version > ExportVersion {
		return nil, nil, fmt.Errorf("%s: format %q version %d: want %q version 1..%d", path, meta.Format, meta.Version, ExportFormat, ExportVersion)
	}
	return &meta, nil, nil
}

// exportArrays is one archive of an export with typed accessors that name it in errors.
type exportArrays struct {
	path string
	z    *npy.NPZ
	// lay is the archive's graph layout, once read (layout).
	lay *exportLayout
}

func openArchive(path string) (*exportArrays, error) {
	z, err := npy.ReadNPZFile(path)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return &exportArrays{path: path, z: z}, nil
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

// matrix returns x or edge_attr as a [rows, cols] matrix (a vector [rows] is one
// column), or nil when optional and absent.
func (e *exportArrays) matrix(name string, optional bool) (a *npy.Array, rows, cols int, err error) {
	a = e.z.Arrays[name]
	switch {
	case a == nil && optional:
		return nil, 0, 0, nil
	case a == nil:
		return nil, 0, 0, fmt.Errorf("%s: no array %q", e.path, name)
	case len(a.Shape) == 1:
		return a, a.Shape[0], 1, nil
	case len(a.Shape) == 2:
		return a, a.Shape[0], a.Shape[1], nil
	}
	return nil, 0, 0, fmt.Errorf("%s: %s has shape %v, want [rows, columns]", e.path, name, a.Shape)
}

// features reads x or edge_attr ([rows, cols]) as desc says.
func (e *exportArrays) features(name string, desc ExportFeatures, rows int) (Features, error) {
	a, r, c, err := e.matrix(name, desc.Kind == "none")
	if err != nil || a == nil {
		return Features{}, err
	}
	if r != rows || c != desc.Cols {
		return Features{}, fmt.Errorf("%s: %s has shape %v, want [%d %d]", e.path, name, a.Shape, rows, desc.Cols)
	}
	switch desc.Kind {
	case "dense":
		v, err := a.Float32s()
		return Features{Kind: Dense, Rows: rows, Cols: desc.Cols, Dense: v}, err
	case "categorical":
		v, err := codesOf(a)
		if len(desc.Cardinality) != desc.Cols {
			return Features{}, fmt.Errorf("%s: %s has %d columns but meta.json gives %d cardinalities", e.path, name, desc.Cols, len(desc.Cardinality))
		}
		return Features{Kind: Categorical, Rows: rows, Cols: desc.Cols, Categorical: v, Cardinality: slices.Clone(desc.Cardinality)}, err
	}
	return Features{}, fmt.Errorf("%s: meta.json: feature kind %q (want none, dense or categorical)", e.path, desc.Kind)
}

// codesOf returns the categorical codes of a: integers, or floating-point numbers that
// are whole (a PyG tensor of codes saved as floats).
func codesOf(a *npy.Array) ([]int32, error) {
	if !a.IsFloat() {
		return a.Int32s()
	}
	f, err := a.Float32s()
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(f))
	for i, x := range f {
		if x != float32(int32(x)) {
			return nil, fmt.Errorf("%s: element %d is %v, not a whole number: categorical codes are integers", a.Name, i, x)
		}
		out[i] = int32(x)
	}
	return out, nil
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
func readSplitExport(e *exportArrays, meta *ExportMeta, split SplitName, ds *Dataset) error {
	lay, err := e.layout()
	if err != nil {
		return err
	}
	x, ea, err := e.nodeAndEdgeFeatures(meta, lay.nodes(), lay.edges())
	if err != nil {
		return err
	}
	labels, err := e.labels(ds, lay.graphs(), int(lay.nodes()))
	if err != nil {
		return err
	}
	for g := range lay.graphs() {
		n0, n1, e0, e1 := lay.nodePtr[g], lay.nodePtr[g+1], lay.edgePtr[g], lay.edgePtr[g+1]
		gr, err := exportGraph(lay.ei, n0, n1, e0, e1, lay.edges(), x, ea)
		if err != nil {
			return fmt.Errorf("%s: graph %d: %w", e.path, g, err)
		}
		labels.assign(&gr, g, n0, n1)
		idx := len(ds.Graphs)
		ds.Graphs = append(ds.Graphs, gr)
		ds.Split.Append(split, idx)
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
	classes    []int64
	targets    []float32
	task       Task
	width      int
	unlabelled bool
}

// labels reads y: [N] or [G] int64 classes, or [G, T] float32 values ([G] for one
// target); an unlabelled data set has none.
func (e *exportArrays) labels(ds *Dataset, graphs, nodes int) (*exportLabels, error) {
	l := &exportLabels{task: ds.Task, width: ds.NumClasses, unlabelled: ds.Unlabelled}
	if ds.Unlabelled {
		return l, nil
	}
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
	a, rows, cols, err := e.matrix("y", false)
	if err != nil {
		return nil, err
	}
	if rows != graphs || cols != ds.NumClasses {
		return nil, fmt.Errorf("%s: y has shape %v, want [%d %d]", e.path, a.Shape, graphs, ds.NumClasses)
	}
	l.targets, err = a.Float32s()
	return l, err
}

// assign gives graph g (nodes lo..hi of the archive) its labels: Unlabelled ones when
// the data set has none.
func (l *exportLabels) assign(gr *Graph, g int, lo, hi int64) {
	switch {
	case l.task == NodeClassification:
		gr.NodeLabels = make([]int32, hi-lo)
		for i := range gr.NodeLabels {
			gr.NodeLabels[i] = Unlabelled
			if !l.unlabelled {
				gr.NodeLabels[i] = int32(l.classes[lo+int64(i)])
			}
		}
	case l.unlabelled:
		gr.Label = Unlabelled
	case l.task == GraphClassification:
		gr.Label = int32(l.classes[g])
	default:
		gr.Targets = slices.Clone(l.targets[g*l.width : (g+1)*l.width])
	}
}

// exportGraph cuts one graph out of an archive's concatenated arrays: ei holds the
// sources, then the destinations, of all m edges, in each graph's own numbering.
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

// readTransductiveExport reads graph.npz of a transductive export into ds. The split's
// index arrays (train_idx, …) are required by an export's own meta.json (strict); else
// they may be given as boolean masks (train_mask, …) or left out (an empty split).
func readTransductiveExport(e *exportArrays, meta *ExportMeta, ds *Dataset, strict bool) error {
	ei, shape, err := e.ints("edge_index", 2)
	if err != nil {
		return err
	}
	if shape[0] != 2 {
		return fmt.Errorf("%s: edge_index has shape %v, want [2 E]", e.path, shape)
	}
	m := int64(shape[1])
	n, err := e.transductiveNodes(ds.Unlabelled)
	if err != nil {
		return err
	}
	x, ea, err := e.nodeAndEdgeFeatures(meta, n, m)
	if err != nil {
		return err
	}
	gr, err := exportGraph(ei, 0, n, 0, m, m, x, ea)
	if err != nil {
		return fmt.Errorf("%s: %w", e.path, err)
	}
	var y []int64
	if !ds.Unlabelled {
		if y, _, err = e.ints("y", 1); err != nil {
			return err
		}
	}
	(&exportLabels{classes: y, task: NodeClassification, unlabelled: ds.Unlabelled}).assign(&gr, 0, 0, n)
	ds.Graphs = []Graph{gr}
	for _, s := range []struct {
		name string
		dst  *[]int
	}{{"train", &ds.Split.Train}, {"val", &ds.Split.Val}, {"test", &ds.Split.Test}} {
		idx, err := e.splitNodes(s.name, n, strict)
		if err != nil {
			return err
		}
		*s.dst = idx
	}
	return nil
}

// transductiveNodes is the node count of graph.npz: y's length, or x's rows when the
// graph is unlabelled.
func (e *exportArrays) transductiveNodes(unlabelled bool) (int64, error) {
	if !unlabelled {
		_, shape, err := e.ints("y", 1)
		if err != nil {
			return 0, err
		}
		return int64(shape[0]), nil
	}
	a, rows, _, err := e.matrix("x", true)
	if err != nil || a == nil {
		return 0, cmp.Or(err, fmt.Errorf("%s: neither y nor x: the graph's number of nodes is unknown", e.path))
	}
	return int64(rows), nil
}

// splitNodes returns the nodes of a transductive split: NAME_idx, else the true entries
// of NAME_mask ([n] booleans), else none (an error when strict).
func (e *exportArrays) splitNodes(name string, n int64, strict bool) ([]int, error) {
	var idx []int
	if _, ok := e.z.Arrays[name+"_idx"]; ok || strict {
		v, _, err := e.ints(name+"_idx", 1)
		for _, i := range v {
			idx = append(idx, int(i))
		}
		return idx, err
	}
	if _, ok := e.z.Arrays[name+"_mask"]; !ok {
		return nil, nil
	}
	mask, shape, err := e.ints(name+"_mask", 1)
	if err == nil && int64(shape[0]) != n {
		err = fmt.Errorf("%s: %s_mask has %d entries, want one per node (%d)", e.path, name, shape[0], n)
	}
	for i, v := range mask {
		if v != 0 {
			idx = append(idx, i)
		}
	}
	return idx, err
}
