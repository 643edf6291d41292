// Package data holds graph data sets for gexph: the types the model and the expander
// code consume, generators for the synthetic benchmarks (PATTERN, CLUSTER), loaders for
// real files (gnn-benchmark npz, OGB node-property layout, LRGB Peptides-func and
// Peptides-struct SMILES, MNIST and CIFAR10 superpixels, MalNet-Tiny edge lists, plain
// edge lists), random splits and an on-disk cache.
//
// Load opens a data set by name ("pattern", "computers", "mnist", "cifar10",
// "malnet-tiny", … — see KnownDatasets), finding its files under the data root
// ($GEXPH_DATA, or ../shared/data beside the module), or by path: "npz:FILE" for a
// gnn-benchmark .npz (or a .zip holding one), "ogb:DIR" for an OGB node property
// directory, "edgelist:DIR" for a user's own graph. Slow data sets are cached on disk
// ($GEXPH_CACHE, else the user cache directory), one file per data set and options, keyed
// by the bytes of its input files (not their place or times): a changed file replaces
// the entry. Load and every loader it calls (LoadNPZ,
// LoadMNISTSuperpixels, …) have one signature, Loader: the path and LoadOptions.
//
// Files a user downloads go under the data root as follows:
//
//   - cifar10/: the binary version of CIFAR-10 (cifar-10-binary.tar.gz as it is, or
//     its cifar-10-batches-bin/ unpacked); see LoadCIFAR10Superpixels;
//   - peptides-struct/: LRGB's peptide_structure_dataset.csv.gz and the split as
//     splits_random_stratified_peptide_structure.json; see LoadPeptidesStruct;
//   - malnet-tiny/: malnet-graphs-tiny/ (malnet-graphs-tiny.tar.gz unpacked) and
//     split_info_tiny/type/ (split_info_tiny.zip unpacked); see LoadMalNetTiny.
//
// LRGB ships PascalVOC-SP, COCO-SP and PCQM-Contact only as Python pickles, which the
// package never unpickles: loading them by name gives an error wrapping
// ErrUnsupportedFormat. The superpixel node-classification sets can be converted once
// with Python into the edge-list format below, the graphs of all splits side by side as
// one graph on disjoint node ranges (node classes and features in nodes.csv, edges and
// their features in edges.csv, the nodes of each split's graphs in train.csv, val.csv
// and test.csv).
//
// A user's own graph is a directory of comma-separated files: nodes.csv (row i: node i's
// integer label, then its numeric features), edges.csv (one undirected edge per row: two
// 0-based node indices, then its numeric features) and optionally train.csv, val.csv and
// test.csv (one node index per row); see LoadEdgeListDir. In every comma-separated file
// the loaders read, a UTF-8 byte order mark at the start is ignored, and the first row is
// a header (skipped) only when none of its fields is a number; see LoadEdgeListDir for
// the rule.
//
// The file loaders check what they read, with errors naming the file and the line, entry
// or node, and Dataset.Validate checks any data set: a graph has at least one node; a
// feature matrix that is present has at least one column; a class label is a 0-based
// class index in [0, NumClasses) with NumClasses ≤ MaxClasses (the npz, OGB and edge
// list loaders also want every label below the number of nodes, and set NumClasses to
// one more than the largest label); the train and val splits are not empty (nor is the
// test split, when it is read from a file), no split repeats an index and no index is in
// two splits. A graph without edges (isolated nodes only) is valid.
//
// Three self-contained formats the loaders build on live in sub-packages that do not
// depend on this one: npy reads NumPy .npy arrays and .npz archives (the gnn-benchmark
// files), smiles parses SMILES strings and computes OGB's atom and bond features (the
// LRGB peptides), and superpixel segments images by SLIC and builds their superpixel
// k-nearest-neighbour graphs as plain slices (MNIST, CIFAR10).
package data

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Task says what a data set asks the model to predict.
type Task int

const (
	// NodeClassification predicts one class per node (PATTERN, CLUSTER, Computers).
	NodeClassification Task = iota
	// GraphClassification predicts one class per graph (MNIST, CIFAR10, MalNet-Tiny).
	GraphClassification
	// GraphMultiLabel predicts several binary labels per graph (Peptides-func, metric AP).
	GraphMultiLabel
	// GraphRegression predicts real targets per graph (Peptides-struct, metric MAE).
	GraphRegression
)

// String returns the task's name as used in configs and on the command line.
func (t Task) String() string {
	switch t {
	case NodeClassification:
		return "node-classification"
	case GraphClassification:
		return "graph-classification"
	case GraphMultiLabel:
		return "graph-multilabel"
	case GraphRegression:
		return "graph-regression"
	}
	return fmt.Sprintf("Task(%d)", int(t))
}

// ParseTask returns the task of a name Task.String gives.
func ParseTask(name string) (Task, error) {
	for t := NodeClassification; t <= GraphRegression; t++ {
		if t.String() == name {
			return t, nil
		}
	}
	return 0, fmt.Errorf("task %q: want node-classification, graph-classification, graph-multilabel or graph-regression", name)
}

// FeatureKind tells how a Features value stores its numbers.
type FeatureKind int

const (
	// NoFeatures: the graph carries no such features (Rows may still be set).
	NoFeatures FeatureKind = iota
	// Dense features: Dense holds Rows×Cols float32 values, row-major.
	Dense
	// Sparse features: a CSR matrix in Indptr, Indices, Values.
	Sparse
	// Categorical features: Categorical holds Rows×Cols int32 codes, row-major, and column c
	// takes values in [0, Cardinality[c]).
	Categorical
)

// Features is a Rows×Cols matrix of node or edge features, stored densely, sparsely (CSR)
// or as categorical codes.
type Features struct {
	Kind       FeatureKind
	Rows, Cols int
	// Dense values, Rows*Cols, row-major (Kind == Dense).
	Dense []float32
	// CSR storage (Kind == Sparse): row r spans Indices/Values[Indptr[r]:Indptr[r+1]].
	Indptr  []int64
	Indices []int32
	Values  []float32
	// Categorical codes, Rows*Cols, row-major (Kind == Categorical).
	Categorical []int32
	// Cardinality[c] is the number of values column c can take (Kind == Categorical).
	Cardinality []int
}

// Graph is one graph of a data set: N nodes and directed edges Src[i] → Dst[i]. An
// undirected data set stores each edge in both directions.
type Graph struct {
	NumNodes int
	Src, Dst []int32
	// Node features (Rows == NumNodes) and edge features (Rows == len(Src)); either may be
	// NoFeatures.
	Node, Edge Features
	// NodeLabels holds one class per node for node tasks (len NumNodes), else nil.
	NodeLabels []int32
	// Label is the graph's class for GraphClassification.
	Label int32
	// Targets holds the graph's targets for GraphMultiLabel (0/1) and GraphRegression.
	Targets []float32
	// NodeIDs, when not nil, holds the original id of each node (len NumNodes): its
	// index in the files the graph was read from, for a loader that dropped nodes and
	// renumbered the rest (the largest connected component). Nil means node i is id i.
	NodeIDs []int64
}

// NodeID returns the original id of node v: NodeIDs[v], or v when NodeIDs is nil.
func (g *Graph) NodeID(v int) int64 {
	if g.NodeIDs != nil {
		return g.NodeIDs[v]
	}
	return int64(v)
}

// Split lists the indices of the training, validation and test examples: graph indices
// for inductive data sets, node indices for a transductive (single graph) data set.
type Split struct {
	Train, Val, Test []int
}

// Unlabelled is the label of a node whose class is unknown (semi-supervised node
// classification): such a node is part of the graph, its features and edges, but of no
// split; the loss and the metrics leave it out.
const Unlabelled int32 = -1

// MaxClasses bounds the number of classes of a classification data set: every class
// label is in [0, MaxClasses). Graph benchmarks have far fewer classes (ogbn-products 47,
// ogbn-papers100M 172, MalNet 696), so the bound never rejects a real data set, while a
// label beyond it is almost surely a corrupt value or an ID column read as labels: the
// model's head has one output per class, and a label of 2³¹−1 or 10⁶ would build a head
// of that many outputs (10⁵ outputs of width 256 are already 25.6M parameters).
const MaxClasses = 100_000

// Dataset is a named collection of graphs with a task and a split.
type Dataset struct {
	Name string
	Task Task
	// NumClasses is the number of classes (node or graph classification) or of
	// labels/targets per graph (multi-label, regression).
	NumClasses int
	// Transductive data sets hold a single graph and split its nodes.
	Transductive bool
	Graphs       []Graph
	Split        Split
	// Transforms lists what the loader changed in the data as read, in the order applied
	// ("binary-features", "largest-component (kept 70 of 80 nodes)", "doubled-edges",
	// "self-loops"); empty when the data is as given. The gnn-benchmark sets known by
	// name turn some on (see LoadGNNBenchmark); data loaded by path only those asked for
	// in LoadOptions.
	Transforms []string
	// Inferred lists what a loader inferred about the data set that its files do not say
	// (an export without meta.json: the task from the labels' shape, the classes from
	// the largest label, the feature kinds from the arrays' types); empty when the files
	// say everything.
	Inferred []string
	// Unlabelled marks a data set without labels: graphs (or nodes) to predict on. Its
	// Task then says only the level of its examples (node or graph), NumClasses is 0,
	// node labels are all Unlabelled, graph labels Unlabelled and targets nil. It
	// predicts (ValidateForPrediction) but neither trains nor evaluates.
	Unlabelled bool
}

// Validate checks every invariant of the data set (index ranges, feature shapes, label
// ranges and counts, finite values, splits) and returns an error naming the first
// violation. Class labels must lie in [0, NumClasses) with NumClasses in [1, MaxClasses]
// (or Unlabelled, −1, for a node of a node task, which no split of a transductive data set
// may then hold). The train and
// val splits must not be empty; the test split may be (a data set may hold no test
// examples), but the loaders that read split files refuse an empty one. No split may
// repeat an index, and no index may be in two splits.
func (d *Dataset) Validate() error {
	if d.Unlabelled {
		return fmt.Errorf("data set %q has no labels: it is for predictions only (training and evaluation need labels)", d.Name)
	}
	return d.validate(true)
}

// ValidateForPrediction checks what Validate checks except what only training needs:
// the train and val splits may be empty (new graphs to predict on may all be test
// graphs, or in no split), and an Unlabelled data set is accepted.
func (d *Dataset) ValidateForPrediction() error { return d.validate(false) }

// validate checks the data set's invariants; forTraining also asks for non-empty train
// and val splits.
func (d *Dataset) validate(forTraining bool) error {
	if len(d.Graphs) == 0 {
		return fmt.Errorf("data set %q: no graphs", d.Name)
	}
	if d.Transductive && len(d.Graphs) != 1 {
		return fmt.Errorf("data set %q: transductive but holds %d graphs", d.Name, len(d.Graphs))
	}
	if d.Unlabelled {
		return d.validateUnlabelled()
	}
	if (d.Task == NodeClassification || d.Task == GraphClassification) && (d.NumClasses < 1 || d.NumClasses > MaxClasses) {
		return fmt.Errorf("data set %q: %d classes, outside [1, MaxClasses = %d]", d.Name, d.NumClasses, MaxClasses)
	}
	for gi := range d.Graphs {
		if err := d.Graphs[gi].Validate(); err != nil {
			return fmt.Errorf("data set %q: graph %d: %w", d.Name, gi, err)
		}
		g := &d.Graphs[gi]
		switch d.Task {
		case NodeClassification:
			for i, y := range g.NodeLabels {
				if (y < 0 && y != Unlabelled) || int(y) >= d.NumClasses {
					return fmt.Errorf("data set %q: graph %d: node %d label %d outside [0, %d) (and not Unlabelled, -1)", d.Name, gi, i, y, d.NumClasses)
				}
			}
			if g.NodeLabels == nil {
				return fmt.Errorf("data set %q: graph %d: node task but no node labels", d.Name, gi)
			}
		case GraphClassification:
			if g.Label < 0 || int(g.Label) >= d.NumClasses {
				return fmt.Errorf("data set %q: graph %d: label %d outside [0, %d)", d.Name, gi, g.Label, d.NumClasses)
			}
		case GraphMultiLabel, GraphRegression:
			if len(g.Targets) != d.NumClasses {
				return fmt.Errorf("data set %q: graph %d: %d targets, want %d", d.Name, gi, len(g.Targets), d.NumClasses)
			}
		}
	}
	return d.validateSplit(forTraining)
}

// validateSplit checks d's split against its graphs (validate's last part): indices of
// its nodes (transductive) or graphs, none twice, none in two parts, none of an
// unlabelled node; forTraining also asks for non-empty train and val parts.
func (d *Dataset) validateSplit(forTraining bool) error {
	limit := len(d.Graphs)
	what := "graph"
	if d.Transductive {
		limit, what = d.Graphs[0].NumNodes, "node"
	}
	if err := d.Split.validate(limit, what, forTraining); err != nil {
		return fmt.Errorf("data set %q: %w", d.Name, err)
	}
	if !d.Transductive || d.Task != NodeClassification || len(d.Graphs[0].NodeLabels) != d.Graphs[0].NumNodes {
		return nil
	}
	labels := d.Graphs[0].NodeLabels
	for _, part := range SplitNames() {
		for _, v := range d.Split.Part(part) {
			if labels[v] == Unlabelled {
				return fmt.Errorf("data set %q: the %s split holds node %d, which is unlabelled (-1)", d.Name, part, v)
			}
		}
	}
	return nil
}

// validateUnlabelled checks an Unlabelled data set: its graphs, no labels anywhere, its
// split.
func (d *Dataset) validateUnlabelled() error {
	if d.NumClasses != 0 {
		return fmt.Errorf("data set %q: unlabelled but %d classes", d.Name, d.NumClasses)
	}
	for gi := range d.Graphs {
		g := &d.Graphs[gi]
		if err := g.Validate(); err != nil {
			return fmt.Errorf("data set %q: graph %d: %w", d.Name, gi, err)
		}
		labelled := g.Targets != nil || d.Task != NodeClassification && g.Label != Unlabelled
		for _, y := range g.NodeLabels {
			labelled = labelled || y != Unlabelled
		}
		if labelled {
			return fmt.Errorf("data set %q: unlabelled, but graph %d carries labels", d.Name, gi)
		}
		if d.Task == NodeClassification && g.NodeLabels == nil {
			return fmt.Errorf("data set %q: graph %d: node task but no node labels (all Unlabelled, -1, when unknown)", d.Name, gi)
		}
	}
	limit, what := len(d.Graphs), "graph"
	if d.Transductive {
		limit, what = d.Graphs[0].NumNodes, "node"
	}
	if err := d.Split.validate(limit, what, false); err != nil {
		return fmt.Errorf("data set %q: %w", d.Name, err)
	}
	return nil
}

// SplitName names a part of a Split: "train", "val" or "test".
type SplitName string

// The parts of a split.
const (
	TrainSplit SplitName = "train"
	ValSplit   SplitName = "val"
	TestSplit  SplitName = "test"
)

// splitNames are the parts of a split in their order (Split.parts's).
var splitNames = [3]SplitName{TrainSplit, ValSplit, TestSplit}

// SplitNames lists the parts of a split in their order.
func SplitNames() []SplitName { return splitNames[:] }

// ParseSplitName returns the part of a split that name names; anything else is an
// error listing the parts and the extra words a caller also takes ("all").
func ParseSplitName(name string, extra ...string) (SplitName, error) {
	for _, n := range splitNames {
		if string(n) == name {
			return n, nil
		}
	}
	want := []string{"train", "val", "test"}
	want = append(want, extra...)
	return "", fmt.Errorf("split %q: want %s or %s", name, strings.Join(want[:len(want)-1], ", "), want[len(want)-1])
}

// Part returns the indices of the part named n (nil for an unknown name).
func (s *Split) Part(n SplitName) []int {
	for i, name := range splitNames {
		if name == n {
			return s.parts()[i]
		}
	}
	return nil
}

// Append adds index i to the part named n.
func (s *Split) Append(n SplitName, i int) {
	switch n {
	case TrainSplit:
		s.Train = append(s.Train, i)
	case ValSplit:
		s.Val = append(s.Val, i)
	case TestSplit:
		s.Test = append(s.Test, i)
	}
}

func (s *Split) parts() [3][]int { return [3][]int{s.Train, s.Val, s.Test} }

// validate checks that every index is in [0, limit), that the train and val parts are
// not empty (forTraining), that no part repeats an index and that no index is in two
// parts; what names the indices ("node" or "graph").
func (s *Split) validate(limit int, what string, forTraining bool) error {
	parts := s.parts()
	for p, idx := range parts {
		for _, i := range idx {
			if i < 0 || i >= limit {
				return fmt.Errorf("%s split: %s index %d outside [0, %d)", splitNames[p], what, i, limit)
			}
		}
	}
	for p := range 2 {
		if forTraining && len(parts[p]) == 0 {
			return fmt.Errorf("%s split is empty: training needs at least one %s in the train and in the val split", splitNames[p], what)
		}
	}
	// owner[i] is 1 + the part holding index i, or 0.
	owner := make([]uint8, limit)
	for p, idx := range parts {
		for k, i := range idx {
			if q := owner[i]; q != 0 {
				first := slices.Index(parts[q-1], i)
				if int(q-1) == p {
					return fmt.Errorf("%s split: %s index %d appears twice (positions %d and %d); a split lists each %s once", splitNames[p], what, i, first, k, what)
				}
				return fmt.Errorf("%s index %d is in both the %s split (position %d) and the %s split (position %d); the splits must not overlap",
					what, i, splitNames[q-1], first, splitNames[p], k)
			}
			owner[i] = uint8(p + 1)
		}
	}
	return nil
}

// Validate checks the graph's own invariants: edge indices in range, feature shapes,
// finite feature values, label count.
func (g *Graph) Validate() error {
	if g.NumNodes <= 0 {
		return fmt.Errorf("empty graph (%d nodes)", g.NumNodes)
	}
	if len(g.Src) != len(g.Dst) {
		return fmt.Errorf("edge index: %d sources but %d destinations", len(g.Src), len(g.Dst))
	}
	for i := range g.Src {
		if s, t := g.Src[i], g.Dst[i]; s < 0 || int(s) >= g.NumNodes || t < 0 || int(t) >= g.NumNodes {
			return fmt.Errorf("edge index: edge %d (%d → %d) outside [0, %d)", i, s, t, g.NumNodes)
		}
	}
	if err := g.Node.validate("node features", g.NumNodes); err != nil {
		return err
	}
	if err := g.Edge.validate("edge features", len(g.Src)); err != nil {
		return err
	}
	if g.NodeLabels != nil && len(g.NodeLabels) != g.NumNodes {
		return fmt.Errorf("node labels: %d labels for %d nodes", len(g.NodeLabels), g.NumNodes)
	}
	if g.NodeIDs != nil && len(g.NodeIDs) != g.NumNodes {
		return fmt.Errorf("node ids: %d ids for %d nodes", len(g.NodeIDs), g.NumNodes)
	}
	for i, t := range g.Targets {
		if math.IsNaN(float64(t)) || math.IsInf(float64(t), 0) {
			return fmt.Errorf("targets: value %d is %v", i, t)
		}
	}
	return nil
}

func (f *Features) validate(field string, rows int) error {
	if f.Kind == NoFeatures {
		return nil
	}
	if f.Rows != rows {
		return fmt.Errorf("%s: %d rows, want %d", field, f.Rows, rows)
	}
	if f.Cols < 1 {
		return fmt.Errorf("%s: %d columns; a feature matrix needs at least one (NoFeatures stands for none)", field, f.Cols)
	}
	switch f.Kind {
	case Dense:
		if len(f.Dense) != f.Rows*f.Cols {
			return fmt.Errorf("%s: %d values for %d×%d", field, len(f.Dense), f.Rows, f.Cols)
		}
		for i, v := range f.Dense {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s: row %d column %d is %v", field, i/max(f.Cols, 1), i%max(f.Cols, 1), v)
			}
		}
	case Sparse:
		if len(f.Indptr) != f.Rows+1 || f.Indptr[0] != 0 || int(f.Indptr[f.Rows]) != len(f.Indices) || len(f.Indices) != len(f.Values) {
			return fmt.Errorf("%s: malformed CSR (indptr %d entries for %d rows, %d indices, %d values)", field, len(f.Indptr), f.Rows, len(f.Indices), len(f.Values))
		}
		for r := 0; r < f.Rows; r++ {
			if f.Indptr[r+1] < f.Indptr[r] {
				return fmt.Errorf("%s: indptr decreases at row %d", field, r)
			}
		}
		for i, c := range f.Indices {
			if c < 0 || int(c) >= f.Cols {
				return fmt.Errorf("%s: column index %d at entry %d outside [0, %d)", field, c, i, f.Cols)
			}
			if v := f.Values[i]; math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s: entry %d is %v", field, i, v)
			}
		}
	case Categorical:
		if len(f.Categorical) != f.Rows*f.Cols || len(f.Cardinality) != f.Cols {
			return fmt.Errorf("%s: %d codes and %d cardinalities for %d×%d", field, len(f.Categorical), len(f.Cardinality), f.Rows, f.Cols)
		}
		for i, v := range f.Categorical {
			if c := i % f.Cols; v < 0 || int(v) >= f.Cardinality[c] {
				return fmt.Errorf("%s: row %d column %d code %d outside [0, %d)", field, i/f.Cols, c, v, f.Cardinality[c])
			}
		}
	default:
		return fmt.Errorf("%s: unknown kind %d", field, f.Kind)
	}
	return nil
}
