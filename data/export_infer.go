package data

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gexph/gexph/data/npy"
)

// exportHints is a meta.json written by hand: any of these fields, the rest of the
// meta inferred from the arrays (LoadExport).
type exportHints struct {
	Name         string          `json:"name"`
	Task         string          `json:"task"`
	NumClasses   int             `json:"num_classes"`
	NodeFeatures *ExportFeatures `json:"node_features"`
	EdgeFeatures *ExportFeatures `json:"edge_features"`
}

// exportSource is an export directory opened for reading: its meta (given whole, or
// completed by inference) and its archives.
type exportSource struct {
	dir  string
	meta *ExportMeta
	// full: meta.json is a complete export's; the layout is then held to it strictly.
	full bool
	// archives by split ("train", "val", "test"), or "graph" for a transductive graph.
	archives map[string]*exportArrays
	// inferred says what was inferred (Dataset.Inferred); unlabelled: no archive has y.
	inferred   []string
	unlabelled bool
}

// openExportDir opens the export in dir: its meta.json when complete, else what the
// arrays say, completed by the hints of a partial meta.json.
func openExportDir(dir string) (*exportSource, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("export: %s is not a directory (export:DIR names the folder that holds the .npz files)", dir)
	}
	meta, hints, err := readExportMeta(dir)
	if err != nil {
		return nil, err
	}
	src := &exportSource{dir: dir, meta: meta, full: meta != nil, archives: map[string]*exportArrays{}}
	if src.full {
		return src, src.openFull()
	}
	if err := src.openPresent(); err != nil {
		return nil, err
	}
	return src, src.infer(cmp.Or(hints, &exportHints{}))
}

// openFull opens the archives a complete meta.json names.
func (s *exportSource) openFull() error {
	var names []string
	for _, n := range SplitNames() {
		names = append(names, string(n))
	}
	if s.meta.Transductive {
		names = []string{"graph"}
	}
	return s.open(names)
}

// open opens the archives NAME.npz of names.
func (s *exportSource) open(names []string) error {
	for _, name := range names {
		e, err := openArchive(filepath.Join(s.dir, name+".npz"))
		if err != nil {
			return err
		}
		s.archives[name] = e
	}
	return nil
}

// openPresent opens graph.npz, or those of train.npz, val.npz and test.npz that exist.
func (s *exportSource) openPresent() error {
	exists := func(name string) bool {
		_, err := os.Lstat(filepath.Join(s.dir, name+".npz"))
		return err == nil
	}
	names := []string{}
	for _, name := range SplitNames() {
		if exists(string(name)) {
			names = append(names, string(name))
		}
	}
	switch {
	case exists("graph") && len(names) > 0:
		return fmt.Errorf("export: %s holds graph.npz (one graph, its nodes split) and %s.npz (graphs): keep one layout", s.dir, names[0])
	case exists("graph"):
		names = []string{"graph"}
	case len(names) == 0:
		return fmt.Errorf("export: %s holds no graph.npz (one graph) and none of train.npz, val.npz, test.npz (graphs by split)", s.dir)
	}
	return s.open(names)
}

// present returns the opened archives in graph order.
func (s *exportSource) present() []*exportArrays {
	var out []*exportArrays
	for _, name := range []string{"graph", string(TrainSplit), string(ValSplit), string(TestSplit)} {
		if e := s.archives[name]; e != nil {
			out = append(out, e)
		}
	}
	return out
}

// note records an inference.
func (s *exportSource) note(format string, args ...any) {
	s.inferred = append(s.inferred, fmt.Sprintf(format, args...))
}

// infer completes the meta from the hints and the arrays.
func (s *exportSource) infer(h *exportHints) error {
	name := h.Name
	if name == "" {
		abs, err := filepath.Abs(s.dir)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		name = filepath.Base(abs)
	}
	m := &ExportMeta{Format: ExportFormat, Version: ExportVersion, Name: name, Transductive: s.archives["graph"] != nil}
	var err error
	if m.NodeFeatures, err = s.inferFeatures("x", "node features", h.NodeFeatures); err != nil {
		return err
	}
	if m.EdgeFeatures, err = s.inferFeatures("edge_attr", "edge features", h.EdgeFeatures); err != nil {
		return err
	}
	if err := s.inferLabels(m, h); err != nil {
		return err
	}
	s.meta = m
	return nil
}

// inferFeatures describes the feature arrays called name of every archive: none when
// absent, else the hint's kind or the arrays' (floating point or boolean: dense;
// integers: categorical, each column's cardinality its largest code + 1 unless hinted).
func (s *exportSource) inferFeatures(name, what string, hint *ExportFeatures) (ExportFeatures, error) {
	arrays, err := s.arraysNamed(name)
	if err != nil || arrays == nil {
		if err == nil && hint != nil && hint.Kind != "none" {
			err = fmt.Errorf("export: %s: meta.json gives %s of kind %q, but no archive has %s", s.dir, what, hint.Kind, name)
		}
		return ExportFeatures{Kind: "none"}, err
	}
	cols := 0
	for i, e := range s.present() {
		_, _, c, err := e.matrix(name, false)
		if err != nil {
			return ExportFeatures{}, err
		}
		if i > 0 && c != cols {
			return ExportFeatures{}, fmt.Errorf("%s: %s has %d columns, %s %d", e.path, name, c, s.present()[0].path, cols)
		}
		cols = c
	}
	kind, a0 := "categorical", arrays[0]
	if a0.IsFloat() || a0.IsBool() {
		kind = "dense"
	}
	if hint != nil && hint.Kind != "" {
		kind = hint.Kind
	}
	f := ExportFeatures{Kind: kind, Cols: cols}
	switch kind {
	case "dense":
		s.note("%s: dense, %d columns (%s is %s)", what, cols, name, a0.DType)
	case "categorical":
		if hint != nil && hint.Cardinality != nil {
			f.Cardinality = slices.Clone(hint.Cardinality)
			break
		}
		if f.Cardinality, err = s.largestCodes(name, cols); err != nil {
			return f, err
		}
		s.note("%s: categorical, %d columns (%s is %s), cardinalities %v from the largest codes (give %s in meta.json if they are numbers, not codes)",
			what, cols, name, a0.DType, f.Cardinality, strings.ReplaceAll(what, " ", "_"))
	case "none":
	default:
		return f, fmt.Errorf("export: %s: meta.json: %s kind %q (want none, dense or categorical)", s.dir, what, kind)
	}
	return f, nil
}

// arraysNamed returns the array called name of every archive, nil when none has it, or
// an error naming an archive without it when others have it.
func (s *exportSource) arraysNamed(name string) ([]*npy.Array, error) {
	var out []*npy.Array
	var missing string
	for _, e := range s.present() {
		if a := e.z.Arrays[name]; a != nil {
			out = append(out, a)
		} else if missing == "" {
			missing = e.path
		}
	}
	if out != nil && missing != "" {
		return nil, fmt.Errorf("%s: no array %q, which the other archives have", missing, name)
	}
	return out, nil
}

// largestCodes returns, per column of the integer arrays called name, the largest code +
// 1 over every archive; a negative code is an error naming its place.
func (s *exportSource) largestCodes(name string, cols int) ([]int, error) {
	card := make([]int, cols)
	for _, e := range s.present() {
		a, _, _, err := e.matrix(name, false)
		if err != nil {
			return nil, err
		}
		v, err := codesOf(a)
		if err != nil {
			return nil, err
		}
		for i, c := range v {
			if c < 0 || c == math.MaxInt32 {
				return nil, fmt.Errorf("%s: %s row %d column %d is %d: categorical codes are in [0, 2³¹−1)", e.path, name, i/cols, i%cols, c)
			}
			card[i%cols] = max(card[i%cols], int(c)+1)
		}
	}
	return card, nil
}

// inferLabels sets the task and the classes (or targets) from y and the hints; without y
// anywhere, the data set is unlabelled.
func (s *exportSource) inferLabels(m *ExportMeta, h *exportHints) error {
	ys, err := s.arraysNamed("y")
	if err != nil {
		return err
	}
	if ys == nil {
		return s.inferUnlabelled(m, h)
	}
	task, width, why, err := s.taskOfLabels(m.Transductive)
	if err != nil {
		return err
	}
	if h.Task != "" {
		t, err := ParseTask(h.Task)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(s.dir, "meta.json"), err)
		}
		task, why = t, "meta.json"
	}
	m.Task = task.String()
	switch {
	case task == NodeClassification || task == GraphClassification:
		m.NumClasses = h.NumClasses
		if m.NumClasses == 0 {
			if m.NumClasses, err = s.largestLabel(); err != nil {
				return err
			}
			s.note("task: %s (%s); %d classes from the largest label (give num_classes in meta.json if some are absent)", task, why, m.NumClasses)
			return nil
		}
	default:
		m.NumClasses = cmp.Or(h.NumClasses, width)
	}
	what := "targets per graph"
	if task == NodeClassification || task == GraphClassification {
		what = "classes"
	}
	s.note("task: %s (%s); %s: %d", task, why, what, m.NumClasses)
	return nil
}

// inferUnlabelled makes an export without y unlabelled: graphs to predict on, at the
// hint's level (node classification for one graph), else the graph level.
func (s *exportSource) inferUnlabelled(m *ExportMeta, h *exportHints) error {
	s.unlabelled = true
	task := GraphClassification
	if m.Transductive {
		task = NodeClassification
	}
	if h.Task != "" {
		t, err := ParseTask(h.Task)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(s.dir, "meta.json"), err)
		}
		task = t
	}
	m.Task = task.String()
	level := "graph"
	if task == NodeClassification {
		level = "node"
	}
	s.note("labels: none (no archive has y): unlabelled %ss, to predict on, not to train or evaluate", level)
	return nil
}

// taskOfLabels reads the task from y's type and shape in the first archive: integers, one
// per graph, graph classification; one per node, node classification; per graph, 0/1
// values (in every archive) multi-label, other numbers regression. width is the labels
// or targets per graph; why says what decided.
func (s *exportSource) taskOfLabels(transductive bool) (task Task, width int, why string, err error) {
	e := s.present()[0]
	y, rows, cols, err := e.matrix("y", false)
	if err != nil {
		return 0, 0, "", err
	}
	if transductive {
		if y.IsFloat() || len(y.Shape) != 1 {
			return 0, 0, "", fmt.Errorf("%s: y is %s %v: one graph's labels are one integer class per node", e.path, y.DType, y.Shape)
		}
		return NodeClassification, 1, "one graph, y one integer per node", nil
	}
	lay, err := e.layout()
	if err != nil {
		return 0, 0, "", err
	}
	graphs, nodes := lay.graphs(), int(lay.nodes())
	integers := !y.IsFloat()
	switch {
	case integers && len(y.Shape) == 1 && rows == graphs:
		why = "y is one integer per graph"
		if graphs == nodes {
			why += "; as many graphs as nodes, so it could be per node: give task in meta.json if it is"
		}
		return GraphClassification, 1, why, nil
	case integers && len(y.Shape) == 1 && rows == nodes:
		return NodeClassification, 1, "y is one integer per node", nil
	case rows != graphs:
		return 0, 0, "", fmt.Errorf("%s: y has shape %v: want one value per graph (%d) or, integers, per node (%d)", e.path, y.Shape, graphs, nodes)
	}
	binary, err := s.binaryLabels()
	if err != nil {
		return 0, 0, "", err
	}
	per := fmt.Sprintf("%d numbers per graph", cols)
	if cols == 1 {
		per = "one number per graph"
	}
	if binary {
		return GraphMultiLabel, cols, "y is " + per + ", all 0 or 1", nil
	}
	return GraphRegression, cols, "y is " + per + ", not all 0 or 1", nil
}

// binaryLabels tells whether every y value of every archive is 0 or 1.
func (s *exportSource) binaryLabels() (bool, error) {
	for _, e := range s.present() {
		v, err := e.z.Arrays["y"].Float32s()
		if err != nil {
			return false, err
		}
		for _, x := range v {
			if x != 0 && x != 1 {
				return false, nil
			}
		}
	}
	return true, nil
}

// largestLabel returns the largest integer label over every archive + 1 (at least 1);
// −1 (unlabelled) is skipped, other negative labels are errors naming their place.
func (s *exportSource) largestLabel() (int, error) {
	classes := 1
	for _, e := range s.present() {
		v, err := e.z.Arrays["y"].Int64s()
		if err != nil {
			return 0, fmt.Errorf("%s: y: %w", e.path, err)
		}
		for i, y := range v {
			if y < -1 || y >= MaxClasses {
				return 0, fmt.Errorf("%s: y[%d] = %d: a class is in [0, %d), or −1 for an unlabelled node", e.path, i, y, MaxClasses)
			}
			classes = max(classes, int(y)+1)
		}
	}
	return classes, nil
}

// exportLayout is where an archive's graphs lie: graph g has nodes nodePtr[g]:nodePtr[g+1]
// and edges edgePtr[g]:edgePtr[g+1]; ei holds the sources, then the destinations, of the
// edges in each graph's own numbering.
type exportLayout struct {
	nodePtr, edgePtr, ei []int64
	// offsets names the array the node offsets came from (node_ptr, ptr or batch).
	offsets string
}

func (l *exportLayout) graphs() int  { return len(l.nodePtr) - 1 }
func (l *exportLayout) nodes() int64 { return l.nodePtr[len(l.nodePtr)-1] }
func (l *exportLayout) edges() int64 { return int64(len(l.ei) / 2) }
func (l *exportLayout) graphOf(v int64) int {
	return sort.Search(l.graphs(), func(g int) bool { return l.nodePtr[g+1] > v })
}

// layout reads where the archive's graphs lie: node offsets from node_ptr, ptr (PyG's
// name) or a batch vector; edge offsets from edge_ptr, or from edge_index when it
// numbers the nodes of the whole archive (as a PyG batch does) with each graph's edges
// together; edge_index in each graph's numbering or the archive's.
func (e *exportArrays) layout() (*exportLayout, error) {
	if e.lay != nil {
		return e.lay, nil
	}
	nodePtr, offsets, err := e.nodeOffsets()
	if err != nil {
		return nil, err
	}
	ei, shape, err := e.ints("edge_index", 2)
	if err != nil {
		return nil, err
	}
	if shape[0] != 2 {
		return nil, fmt.Errorf("%s: edge_index has shape %v, want [2 E]", e.path, shape)
	}
	l := &exportLayout{nodePtr: nodePtr, ei: ei, offsets: offsets}
	if _, ok := e.z.Arrays["edge_ptr"]; ok {
		err = e.readEdgeOffsets(l)
	} else {
		err = e.edgeOffsetsFromIndex(l)
	}
	if err != nil {
		return nil, err
	}
	e.lay = l
	return l, nil
}

// nodeOffsets reads the node offsets from node_ptr, ptr or a batch vector, and names
// the array.
func (e *exportArrays) nodeOffsets() ([]int64, string, error) {
	for _, name := range []string{"node_ptr", "ptr"} {
		if _, ok := e.z.Arrays[name]; !ok {
			continue
		}
		p, _, err := e.ints(name, 1)
		if err == nil && !ascendingFromZero(p) {
			err = fmt.Errorf("%s: %s must start at 0 and never decrease (graph g's nodes are %s[g]:%s[g+1])", e.path, name, name, name)
		}
		return p, name, err
	}
	if _, ok := e.z.Arrays["batch"]; !ok {
		return nil, "", fmt.Errorf("%s: no node_ptr, ptr or batch array: which nodes belong to which graph is unknown", e.path)
	}
	batch, _, err := e.ints("batch", 1)
	if err != nil {
		return nil, "", err
	}
	p := []int64{0}
	for v, g := range batch {
		if g < int64(len(p)-1) || g > int64(len(p)) {
			return nil, "", fmt.Errorf("%s: batch[%d] = %d: want the graphs' numbers 0, 1, … in order, each graph's nodes together", e.path, v, g)
		}
		if g == int64(len(p)) {
			p = append(p, int64(v))
		}
	}
	return append(p, int64(len(batch))), "batch", nil
}

// readEdgeOffsets reads edge_ptr and puts edge_index in each graph's numbering: it is
// either already, or numbers the archive's nodes.
func (e *exportArrays) readEdgeOffsets(l *exportLayout) error {
	p, _, err := e.ints("edge_ptr", 1)
	if err != nil {
		return err
	}
	if len(p) != len(l.nodePtr) || !ascendingFromZero(p) || p[len(p)-1] != l.edges() {
		return fmt.Errorf("%s: %s, edge_ptr and edge_index disagree (want [G+1] offsets from 0 that end at the node and edge counts)", e.path, l.offsets)
	}
	l.edgePtr = p
	m := l.edges()
	local, global := true, true
	for g := range l.graphs() {
		n0, n1 := l.nodePtr[g], l.nodePtr[g+1]
		for k := p[g]; k < p[g+1]; k++ {
			for _, v := range []int64{l.ei[k], l.ei[m+k]} {
				local = local && v >= 0 && v < n1-n0
				global = global && v >= n0 && v < n1
			}
		}
	}
	if !local && global {
		l.toLocal()
	}
	return nil // an edge outside its graph in both numberings: exportGraph names it
}

// edgeOffsetsFromIndex derives the edge offsets from an edge_index in the archive's
// numbering, each graph's edges together and in graph order.
func (e *exportArrays) edgeOffsetsFromIndex(l *exportLayout) error {
	m, n := l.edges(), l.nodes()
	l.edgePtr = make([]int64, 0, len(l.nodePtr))
	l.edgePtr = append(l.edgePtr, 0)
	for k := range m {
		s, d := l.ei[k], l.ei[m+k]
		if s < 0 || s >= n || d < 0 || d >= n {
			return fmt.Errorf("%s: edge %d: %d→%d outside the archive's %d nodes (without edge_ptr, edge_index numbers the nodes of the whole archive, as a PyG batch does)", e.path, k, s, d, n)
		}
		g := l.graphOf(s)
		if h := l.graphOf(d); h != g {
			return fmt.Errorf("%s: edge %d: %d→%d joins graph %d to graph %d", e.path, k, s, d, g, h)
		}
		if g < len(l.edgePtr)-1 {
			return fmt.Errorf("%s: edge %d belongs to graph %d after edges of graph %d: without edge_ptr, each graph's edges must come together, in graph order", e.path, k, g, len(l.edgePtr)-1)
		}
		for len(l.edgePtr)-1 < g {
			l.edgePtr = append(l.edgePtr, k)
		}
	}
	for len(l.edgePtr) < len(l.nodePtr) {
		l.edgePtr = append(l.edgePtr, m)
	}
	l.toLocal()
	return nil
}

// toLocal renumbers edge_index from the archive's node numbers to each graph's.
func (l *exportLayout) toLocal() {
	m := l.edges()
	local := slices.Clone(l.ei)
	for g := range l.graphs() {
		for k := l.edgePtr[g]; k < l.edgePtr[g+1]; k++ {
			local[k] -= l.nodePtr[g]
			local[m+k] -= l.nodePtr[g]
		}
	}
	l.ei = local
}
