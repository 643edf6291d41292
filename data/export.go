package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/internal/atomicfile"
)

// ExportFormat names the layout Export writes (meta.json's "format"); ExportVersion is
// its version.
const (
	ExportFormat  = "gexph-export"
	ExportVersion = 1
)

// ExportMeta is meta.json of an export: what the data set is and how its arrays read.
// The JSON names are stable.
type ExportMeta struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Name is the data set's name; Spec, Seed and Options what made it (as given to
	// Export: the data set spec and the load options, for a reader to reproduce it).
	Name    string         `json:"name"`
	Spec    string         `json:"spec,omitempty"`
	Seed    uint64         `json:"seed"`
	Options map[string]any `json:"options,omitempty"`
	// Task is a Task's name; NumClasses the classes, or labels or targets per graph.
	Task         string `json:"task"`
	NumClasses   int    `json:"num_classes"`
	Transductive bool   `json:"transductive"`
	// NodeFeatures and EdgeFeatures describe x and edge_attr.
	NodeFeatures ExportFeatures `json:"node_features"`
	EdgeFeatures ExportFeatures `json:"edge_features"`
	// Splits gives each split's examples (graphs, or nodes of a transductive graph),
	// Files the archive of each split ("graph.npz" for all three of a transductive set).
	Splits map[string]int    `json:"splits"`
	Files  map[string]string `json:"files"`
}

// ExportFeatures describes a feature matrix of an export: "none", "dense" (float32
// [rows, cols]; sparse features are written dense) or "categorical" (int64 codes
// [rows, cols], column c in [0, cardinality[c])).
type ExportFeatures struct {
	Kind        string `json:"kind"`
	Cols        int    `json:"cols"`
	Cardinality []int  `json:"cardinality,omitempty"`
}

// ExportInfo is what Export records of how the data set was made.
type ExportInfo struct {
	Spec    string
	Seed    uint64
	Options map[string]any
}

// maxExportBytes bounds the dense arrays of one export file (sparse features are
// written dense): beyond it Export refuses instead of exhausting memory.
const maxExportBytes = 8 << 30

// Export writes ds to dir in the layout PyTorch Geometric users read with
// tools/pyg/load_export.py (numpy.load reads every file):
//
//   - meta.json: ExportMeta;
//   - inductive data sets: train.npz, val.npz and test.npz, each the graphs of its split
//     in split order, concatenated as PyG collates them: x [N, F] (node features),
//     edge_index [2, E] int64 (each graph's own node ids, 0-based), edge_attr [E, Fe],
//     y ([N] int64 node classes, −1 unlabelled; [G] int64 graph classes; [G, T] float32
//     labels or targets), node_ptr and edge_ptr [G+1] int64 (graph g's rows are
//     node_ptr[g]:node_ptr[g+1]) and graph_id [G] int64 (the graph's index in ds);
//   - transductive data sets: graph.npz with x, edge_index, edge_attr, y and the split as
//     train_idx/val_idx/test_idx (int64) and train_mask/val_mask/test_mask ([N] bool).
//
// Features are written as the data set holds them (no transform): dense and sparse as
// float32, categorical as int64 codes. ds is validated first, and dir must be absent,
// empty or an earlier export; files are written atomically.
func Export(ds *Dataset, dir string, info ExportInfo) (*ExportMeta, error) {
	if err := ds.Validate(); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if err := checkExportDir(dir); err != nil {
		return nil, err
	}
	meta := exportMeta(ds, info)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if ds.Transductive {
		entries, err := transductiveEntries(ds)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		if err := writeNPZ(filepath.Join(dir, "graph.npz"), entries); err != nil {
			return nil, err
		}
	} else {
		for _, part := range SplitNames() {
			entries, err := splitEntries(ds, ds.Split.Part(part))
			if err != nil {
				return nil, fmt.Errorf("export %s: %w", part, err)
			}
			if err := writeNPZ(filepath.Join(dir, meta.Files[string(part)]), entries); err != nil {
				return nil, err
			}
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, "meta.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(meta)
	}); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return meta, nil
}

// checkExportDir refuses a dir that holds anything but an earlier export.
func checkExportDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) || err == nil && len(entries) == 0 {
		return nil
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	var m ExportMeta
	if err != nil || json.Unmarshal(raw, &m) != nil || m.Format != ExportFormat {
		return fmt.Errorf("export: %s is not empty and holds no earlier export (meta.json of format %q): choose another directory", dir, ExportFormat)
	}
	known := map[string]bool{"meta.json": true, "graph.npz": true, "train.npz": true, "val.npz": true, "test.npz": true}
	for _, e := range entries {
		if !known[e.Name()] {
			return fmt.Errorf("export: %s holds %s, which is not part of an export: choose another directory", dir, e.Name())
		}
	}
	return nil
}

// exportMeta describes ds for meta.json.
func exportMeta(ds *Dataset, info ExportInfo) *ExportMeta {
	g := &ds.Graphs[0]
	m := &ExportMeta{Format: ExportFormat, Version: ExportVersion, Name: ds.Name, Spec: info.Spec, Seed: info.Seed,
		Options: info.Options, Task: ds.Task.String(), NumClasses: ds.NumClasses, Transductive: ds.Transductive,
		NodeFeatures: exportFeatures(g.Node), EdgeFeatures: exportFeatures(g.Edge),
		Splits: map[string]int{"train": len(ds.Split.Train), "val": len(ds.Split.Val), "test": len(ds.Split.Test)},
		Files:  map[string]string{"train": "train.npz", "val": "val.npz", "test": "test.npz"}}
	if ds.Transductive {
		m.Files = map[string]string{"train": "graph.npz", "val": "graph.npz", "test": "graph.npz"}
	}
	return m
}

// exportFeatures describes f.
func exportFeatures(f Features) ExportFeatures {
	switch f.Kind {
	case Dense, Sparse:
		return ExportFeatures{Kind: "dense", Cols: f.Cols}
	case Categorical:
		return ExportFeatures{Kind: "categorical", Cols: f.Cols, Cardinality: slices.Clone(f.Cardinality)}
	}
	return ExportFeatures{Kind: "none"}
}

// writeNPZ writes entries atomically to path.
func writeNPZ(path string, entries []npy.Entry) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return npy.WriteNPZ(w, entries) }); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// featureRows appends f's rows to a dense float32 or an int64 code matrix.
type featureRows struct {
	kind  FeatureKind
	cols  int
	dense []float32
	codes []int64
}

func (r *featureRows) add(f Features) {
	switch f.Kind {
	case Dense, Sparse:
		start := len(r.dense)
		r.dense = append(r.dense, make([]float32, f.Rows*f.Cols)...)
		f.AddDenseTo(r.dense[start:])
	case Categorical:
		for _, c := range f.Categorical {
			r.codes = append(r.codes, int64(c))
		}
	}
}

// entry is the matrix as an npz entry of the given rows, or none for NoFeatures.
func (r *featureRows) entry(name string, rows int) []npy.Entry {
	switch r.kind {
	case Dense, Sparse:
		return []npy.Entry{{Name: name, Shape: []int{rows, r.cols}, Data: r.dense}}
	case Categorical:
		return []npy.Entry{{Name: name, Shape: []int{rows, r.cols}, Data: r.codes}}
	}
	return nil
}

// splitEntries returns the arrays of the graphs idx of an inductive data set.
func splitEntries(ds *Dataset, idx []int) ([]npy.Entry, error) {
	g0 := &ds.Graphs[0]
	x := &featureRows{kind: g0.Node.Kind, cols: g0.Node.Cols}
	ea := &featureRows{kind: g0.Edge.Kind, cols: g0.Edge.Cols}
	nodePtr, edgePtr := []int64{0}, []int64{0}
	var src, dst, graphID, classes []int64
	var targets []float32
	var size int64
	for _, gi := range idx {
		g := &ds.Graphs[gi]
		size += 4 * (int64(g.NumNodes)*int64(g.Node.Cols) + int64(len(g.Src))*int64(g.Edge.Cols))
		if size > maxExportBytes {
			return nil, fmt.Errorf("the features of %d graphs take more than %d GiB written dense", len(graphID), maxExportBytes>>30)
		}
		if g.Node.Kind != x.kind || g.Node.Cols != x.cols || g.Edge.Kind != ea.kind || g.Edge.Cols != ea.cols {
			return nil, fmt.Errorf("graph %d has other features than graph 0 (node %d×%d, edge %d×%d)", gi, g.Node.Rows, g.Node.Cols, g.Edge.Rows, g.Edge.Cols)
		}
		for e := range g.Src {
			src, dst = append(src, int64(g.Src[e])), append(dst, int64(g.Dst[e]))
		}
		x.add(g.Node)
		ea.add(g.Edge)
		nodePtr = append(nodePtr, nodePtr[len(nodePtr)-1]+int64(g.NumNodes))
		edgePtr = append(edgePtr, edgePtr[len(edgePtr)-1]+int64(len(g.Src)))
		graphID = append(graphID, int64(gi))
		switch ds.Task {
		case NodeClassification:
			for _, y := range g.NodeLabels {
				classes = append(classes, int64(y))
			}
		case GraphClassification:
			classes = append(classes, int64(g.Label))
		default:
			targets = append(targets, g.Targets...)
		}
	}
	n, e, graphs := int(nodePtr[len(nodePtr)-1]), len(src), len(idx)
	entries := []npy.Entry{
		{Name: "edge_index", Shape: []int{2, e}, Data: append(src, dst...)},
		{Name: "node_ptr", Shape: []int{graphs + 1}, Data: nodePtr},
		{Name: "edge_ptr", Shape: []int{graphs + 1}, Data: edgePtr},
		{Name: "graph_id", Shape: []int{graphs}, Data: graphID},
	}
	entries = append(entries, x.entry("x", n)...)
	entries = append(entries, ea.entry("edge_attr", e)...)
	switch ds.Task {
	case NodeClassification:
		entries = append(entries, npy.Entry{Name: "y", Shape: []int{n}, Data: classes})
	case GraphClassification:
		entries = append(entries, npy.Entry{Name: "y", Shape: []int{graphs}, Data: classes})
	default:
		entries = append(entries, npy.Entry{Name: "y", Shape: []int{graphs, ds.NumClasses}, Data: targets})
	}
	return entries, nil
}

// transductiveEntries returns the arrays of a transductive data set's graph.
func transductiveEntries(ds *Dataset) ([]npy.Entry, error) {
	g := &ds.Graphs[0]
	entries, err := splitEntries(ds, []int{0})
	if err != nil {
		return nil, err
	}
	entries = slices.DeleteFunc(entries, func(e npy.Entry) bool {
		return e.Name == "node_ptr" || e.Name == "edge_ptr" || e.Name == "graph_id"
	})
	for _, part := range SplitNames() {
		idx := ds.Split.Part(part)
		ids := make([]int64, len(idx))
		mask := make([]bool, g.NumNodes)
		for i, v := range idx {
			ids[i], mask[v] = int64(v), true
		}
		entries = append(entries,
			npy.Entry{Name: string(part) + "_idx", Shape: []int{len(ids)}, Data: ids},
			npy.Entry{Name: string(part) + "_mask", Shape: []int{g.NumNodes}, Data: mask})
	}
	return entries, nil
}
