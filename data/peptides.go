package data

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gexph/gexph/data/smiles"
	"github.com/gexph/gexph/internal/regfile"
)

// LRGB peptide file names inside the data set directories.
const (
	// PeptidesCSV is the gzipped CSV of Peptides-func (columns smiles, labels, ...).
	PeptidesCSV = "peptide_multi_class_dataset.csv.gz"
	// PeptidesSplit is the JSON file of Peptides-func's train/val/test row indices.
	PeptidesSplit = "splits_random_stratified_peptide.json"
	// PeptidesStructCSV is the gzipped CSV of Peptides-struct (columns smiles and the
	// 11 targets of PeptidesStructTargets, ...).
	PeptidesStructCSV = "peptide_structure_dataset.csv.gz"
	// PeptidesStructSplit is the JSON file of Peptides-struct's train/val/test row
	// indices.
	PeptidesStructSplit = "splits_random_stratified_peptide_structure.json"
	// peptidesLabels is the number of binary labels per peptide (Peptides-func).
	peptidesLabels = 10
)

// PeptidesStructTargets returns the names of Peptides-struct's 11 regression targets,
// in the order of Graph.Targets.
func PeptidesStructTargets() []string {
	return []string{"Inertia_mass_a", "Inertia_mass_b", "Inertia_mass_c",
		"Inertia_valence_a", "Inertia_valence_b", "Inertia_valence_c",
		"length_a", "length_b", "length_c", "Spherocity", "Plane_best_fit"}
}

// peptidesKind describes one of the two LRGB peptide data sets.
type peptidesKind struct {
	name, csv, split string
	// targets names the regression target columns; nil means one "labels" column
	// holding a list of 10 binary labels.
	targets []string
}

func peptidesFunc() peptidesKind {
	return peptidesKind{name: "peptides-func", csv: PeptidesCSV, split: PeptidesSplit}
}

func peptidesStruct() peptidesKind {
	return peptidesKind{name: "peptides-struct", csv: PeptidesStructCSV, split: PeptidesStructSplit,
		targets: PeptidesStructTargets()}
}

// LoadPeptidesFunc loads LRGB Peptides-func from dir: the molecules of
// peptide_multi_class_dataset.csv.gz (columns "smiles" and "labels", the latter a
// list of 10 binary labels), each parsed by smiles.Parse and turned into a graph with
// OGB atom and bond features as OGB's smiles2graph does (on opts.Workers goroutines, 0:
// GOMAXPROCS; the result does not depend on it), and the official split of
// splits_random_stratified_peptide.json (keys "train", "val", "test": row indices). Task
// GraphMultiLabel with 10 labels as Targets. A file of more than opts.MaxBytes of text
// (decompressed; 0: DefaultMaxBytes) is refused; no other field of opts is read. Errors
// name the file and the line or key at fault.
func LoadPeptidesFunc(dir string, opts LoadOptions) (*Dataset, error) {
	return loadPeptides(dir, peptidesFunc(), opts)
}

// LoadPeptidesStruct loads LRGB Peptides-struct from dir like LoadPeptidesFunc: the
// molecules of peptide_structure_dataset.csv.gz (columns "smiles" and the 11 named
// by PeptidesStructTargets, in any order among other columns) and the official split
// of splits_random_stratified_peptide_structure.json (LRGB ships it as a pickle; its
// three index arrays go into a JSON object of lists under "train", "val", "test").
// Task GraphRegression with 11 Targets, each column standardised over all molecules
// to mean 0 and standard deviation 1 (sample deviation, n−1) as the LRGB loader does,
// so that MAE is comparable with the published numbers. Errors name the file and the
// line, column or key at fault.
func LoadPeptidesStruct(dir string, opts LoadOptions) (*Dataset, error) {
	return loadPeptides(dir, peptidesStruct(), opts)
}

// loadPeptides loads the Peptides data set of the kind from dir (LoadPeptidesFunc,
// LoadPeptidesStruct).
func loadPeptides(dir string, kind peptidesKind, opts LoadOptions) (*Dataset, error) {
	if err := checkWorkers(kind.name, opts.Workers); err != nil {
		return nil, err
	}
	csvPath := filepath.Join(dir, kind.csv)
	rows, err := readPeptideRows(csvPath, kind, opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	graphs, err := peptideGraphs(csvPath, kind.name, rows, opts.Workers)
	if err != nil {
		return nil, err
	}
	split, err := readPeptideSplit(filepath.Join(dir, kind.split), kind.name, len(rows), opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: kind.name, Task: GraphMultiLabel, NumClasses: peptidesLabels, Graphs: graphs, Split: split}
	if kind.targets != nil {
		d.Task, d.NumClasses = GraphRegression, len(kind.targets)
	}
	return d, nil
}

type peptideRow struct {
	smiles  string
	targets []float32
	line    int
}

// readPeptideRows reads the gzipped CSV's smiles and target columns, at most limit bytes
// of text (≤ 0: DefaultMaxBytes); regression targets come back standardised.
func readPeptideRows(path string, kind peptidesKind, limit int64) ([]peptideRow, error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind.name, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", kind.name, path, err)
	}
	defer zr.Close()
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	r := csv.NewReader(&limitedText{r: zr, left: limit, limit: limit})
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: reading the header: %w", kind.name, path, err)
	}
	want := kind.targets
	if want == nil {
		want = []string{"labels"}
	}
	want = append([]string{"smiles"}, want...)
	cols := make([]int, len(want))
	for k, name := range want {
		cols[k] = slices.IndexFunc(header, func(h string) bool { return strings.TrimSpace(h) == name })
		if cols[k] < 0 {
			return nil, fmt.Errorf("%s: %s: header %q lacks a %q column", kind.name, path, strings.Join(header, ","), name)
		}
	}
	maxCol := slices.Max(cols)
	var rows []peptideRow
	var raw []float64 // regression targets, row-major
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: row %d: %w", kind.name, path, len(rows)+1, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) <= maxCol {
			return nil, fmt.Errorf("%s: %s: line %d: %d fields, want at least %d", kind.name, path, line, len(rec), maxCol+1)
		}
		row := peptideRow{smiles: strings.Clone(rec[cols[0]]), line: line}
		if kind.targets == nil {
			if row.targets, err = parseLabelList(rec[cols[1]]); err != nil {
				return nil, fmt.Errorf("%s: %s: line %d: labels: %w", kind.name, path, line, err)
			}
		} else {
			for k, c := range cols[1:] {
				v, err := strconv.ParseFloat(strings.TrimSpace(rec[c]), 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("%s: %s: line %d: column %q: %q is not a finite number", kind.name, path, line, kind.targets[k], rec[c])
				}
				raw = append(raw, v)
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: %s: no molecules", kind.name, path)
	}
	if kind.targets != nil {
		z, err := standardiseColumns(raw, kind.targets)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", kind.name, path, err)
		}
		for i := range rows {
			rows[i].targets = z[i*len(kind.targets) : (i+1)*len(kind.targets) : (i+1)*len(kind.targets)]
		}
	}
	return rows, nil
}

// standardiseColumns returns (x − mean)/std per column of the row-major matrix x whose
// columns are named by names, std being the sample standard deviation (n − 1), as pandas computes
// them.
func standardiseColumns(x []float64, names []string) ([]float32, error) {
	cols := len(names)
	n := len(x) / cols
	if n < 2 {
		return nil, fmt.Errorf("%d molecule(s): standardising the targets needs at least 2", n)
	}
	out := make([]float32, len(x))
	for c := range cols {
		mean := 0.0
		for i := range n {
			mean += x[i*cols+c]
		}
		mean /= float64(n)
		ss := 0.0
		for i := range n {
			d := x[i*cols+c] - mean
			ss += d * d
		}
		std := math.Sqrt(ss / float64(n-1))
		if !(std > 0) {
			return nil, fmt.Errorf("column %q is constant: cannot standardise it", names[c])
		}
		for i := range n {
			out[i*cols+c] = float32((x[i*cols+c] - mean) / std)
		}
	}
	return out, nil
}

// parseLabelList parses "[0, 1, ...]" holding exactly peptidesLabels values, each 0 or 1.
func parseLabelList(s string) ([]float32, error) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' {
		return nil, fmt.Errorf("%q is not a [..] list", s)
	}
	parts := strings.Split(t[1:len(t)-1], ",")
	if len(parts) != peptidesLabels {
		return nil, fmt.Errorf("%q holds %d values, want %d", s, len(parts), peptidesLabels)
	}
	out := make([]float32, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil || (v != 0 && v != 1) {
			return nil, fmt.Errorf("value %d %q is not 0 or 1", i, strings.TrimSpace(p))
		}
		out[i] = float32(v)
	}
	return out, nil
}

// peptideGraphs parses the molecules on workers goroutines (0: GOMAXPROCS); the first
// failing row (in file order) gives the error.
func peptideGraphs(path, name string, rows []peptideRow, workers int) ([]Graph, error) {
	graphs := make([]Graph, len(rows))
	errs := make([]error, len(rows))
	parallelEach(len(rows), workers, func(_, i int) {
		m, err := smiles.Parse(rows[i].smiles)
		if err != nil {
			errs[i] = err
			return
		}
		graphs[i] = moleculeGraph(m)
		graphs[i].Targets = rows[i].targets
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %s: line %d: %w", name, path, rows[i].line, err)
		}
	}
	return graphs, nil
}

// moleculeGraph converts a molecule into a Graph as OGB's smiles2graph does: one node
// per atom with the smiles.AtomFeatureCols categorical atom features, each bond stored
// as two directed edges (Begin→End, then End→Begin) with the smiles.BondFeatureCols
// categorical bond features.
func moleculeGraph(m *smiles.Molecule) Graph {
	n, nb := len(m.Atoms), len(m.Bonds)
	const bcols = smiles.BondFeatureCols
	bonds := m.BondFeatureRows()
	g := Graph{
		NumNodes: n,
		Src:      make([]int32, 2*nb),
		Dst:      make([]int32, 2*nb),
		Node: Features{Kind: Categorical, Rows: n, Cols: smiles.AtomFeatureCols,
			Categorical: m.AtomFeatureRows(), Cardinality: smiles.AtomFeatureDims()},
		Edge: Features{Kind: Categorical, Rows: 2 * nb, Cols: bcols,
			Categorical: make([]int32, 2*nb*bcols), Cardinality: smiles.BondFeatureDims()},
	}
	for b := range nb {
		bd := &m.Bonds[b]
		g.Src[2*b], g.Dst[2*b] = int32(bd.Begin), int32(bd.End)
		g.Src[2*b+1], g.Dst[2*b+1] = int32(bd.End), int32(bd.Begin)
		row := bonds[b*bcols : (b+1)*bcols]
		copy(g.Edge.Categorical[2*b*bcols:], row)
		copy(g.Edge.Categorical[(2*b+1)*bcols:], row)
	}
	return g
}

// readPeptideSplit reads the train/val/test index lists and checks them against n
// molecules: every index in range and used at most once. The file may hold at most limit
// bytes (≤ 0: DefaultMaxBytes).
func readPeptideSplit(path, name string, n int, limit int64) (Split, error) {
	raw, err := readWhole(path, limit)
	if err != nil {
		return Split{}, fmt.Errorf("%s: %w", name, err)
	}
	var parts map[string][]int
	if err := json.Unmarshal(raw, &parts); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return Split{}, fmt.Errorf("%s: %s: key %q: %w", name, path, typeErr.Field, err)
		}
		return Split{}, fmt.Errorf("%s: %s: %w", name, path, err)
	}
	owner := make([]string, n)
	for _, part := range SplitNames() {
		key := string(part)
		idx, ok := parts[key]
		if !ok {
			return Split{}, fmt.Errorf("%s: %s: no %q list", name, path, key)
		}
		for _, i := range idx {
			if i < 0 || i >= n {
				return Split{}, fmt.Errorf("%s: %s: %q index %d outside [0, %d)", name, path, key, i, n)
			}
			if owner[i] != "" {
				return Split{}, fmt.Errorf("%s: %s: index %d in both %q and %q", name, path, i, owner[i], key)
			}
			owner[i] = key
		}
	}
	return Split{Train: parts["train"], Val: parts["val"], Test: parts["test"]}, nil
}
