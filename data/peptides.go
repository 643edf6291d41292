package data

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Peptides-func file names inside the data set directory.
const (
	// PeptidesCSV is the gzipped CSV of molecules (columns smiles, labels, ...).
	PeptidesCSV = "peptide_multi_class_dataset.csv.gz"
	// PeptidesSplit is the JSON file of train/val/test row indices.
	PeptidesSplit = "splits_random_stratified_peptide.json"
	// peptidesLabels is the number of binary labels per peptide.
	peptidesLabels = 10
)

// LoadPeptidesFunc loads LRGB Peptides-func from dir: the molecules of
// peptide_multi_class_dataset.csv.gz (columns "smiles" and "labels", the latter a
// list of 10 binary labels) turned into graphs with OGB atom and bond features by
// ParseSMILES (parsed in parallel, the result does not depend on the parallelism),
// and the official split of splits_random_stratified_peptide.json (keys "train",
// "val", "test": row indices). Task GraphMultiLabel with 10 labels as Targets.
// Errors name the file and the line or key at fault.
func LoadPeptidesFunc(dir string) (*Dataset, error) {
	csvPath := filepath.Join(dir, PeptidesCSV)
	rows, err := readPeptideRows(csvPath)
	if err != nil {
		return nil, err
	}
	graphs, err := peptideGraphs(csvPath, rows)
	if err != nil {
		return nil, err
	}
	split, err := readPeptideSplit(filepath.Join(dir, PeptidesSplit), len(rows))
	if err != nil {
		return nil, err
	}
	return &Dataset{
		Name:       "peptides-func",
		Task:       GraphMultiLabel,
		NumClasses: peptidesLabels,
		Graphs:     graphs,
		Split:      split,
	}, nil
}

type peptideRow struct {
	smiles string
	labels []float32
	line   int
}

// readPeptideRows reads the gzipped CSV's smiles and labels columns.
func readPeptideRows(path string) ([]peptideRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("peptides-func: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("peptides-func: %s: %w", path, err)
	}
	defer zr.Close()
	r := csv.NewReader(zr)
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("peptides-func: %s: reading the header: %w", path, err)
	}
	smilesCol, labelsCol := -1, -1
	for i, h := range header {
		switch strings.TrimSpace(h) {
		case "smiles":
			smilesCol = i
		case "labels":
			labelsCol = i
		}
	}
	if smilesCol < 0 || labelsCol < 0 {
		return nil, fmt.Errorf("peptides-func: %s: header %q lacks a \"smiles\" or \"labels\" column", path, strings.Join(header, ","))
	}
	var rows []peptideRow
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("peptides-func: %s: row %d: %w", path, len(rows)+1, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) <= max(smilesCol, labelsCol) {
			return nil, fmt.Errorf("peptides-func: %s: line %d: %d fields, want at least %d", path, line, len(rec), max(smilesCol, labelsCol)+1)
		}
		labels, err := parseLabelList(rec[labelsCol])
		if err != nil {
			return nil, fmt.Errorf("peptides-func: %s: line %d: labels: %w", path, line, err)
		}
		rows = append(rows, peptideRow{smiles: strings.Clone(rec[smilesCol]), labels: labels, line: line})
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("peptides-func: %s: no molecules", path)
	}
	return rows, nil
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

// peptideGraphs parses the molecules on all CPUs; the first failing row (in file
// order) gives the error.
func peptideGraphs(path string, rows []peptideRow) ([]Graph, error) {
	graphs := make([]Graph, len(rows))
	errs := make([]error, len(rows))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(rows)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(rows) {
					return
				}
				m, err := ParseSMILES(rows[i].smiles)
				if err != nil {
					errs[i] = err
					continue
				}
				graphs[i] = m.Graph()
				graphs[i].Targets = rows[i].labels
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("peptides-func: %s: line %d: %w", path, rows[i].line, err)
		}
	}
	return graphs, nil
}

// readPeptideSplit reads the train/val/test index lists and checks them against n
// molecules: every index in range and used at most once.
func readPeptideSplit(path string, n int) (Split, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Split{}, fmt.Errorf("peptides-func: %w", err)
	}
	var parts map[string][]int
	if err := json.Unmarshal(raw, &parts); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return Split{}, fmt.Errorf("peptides-func: %s: key %q: %w", path, typeErr.Field, err)
		}
		return Split{}, fmt.Errorf("peptides-func: %s: %w", path, err)
	}
	owner := make([]string, n)
	for _, key := range []string{"train", "val", "test"} {
		idx, ok := parts[key]
		if !ok {
			return Split{}, fmt.Errorf("peptides-func: %s: no %q list", path, key)
		}
		for _, i := range idx {
			if i < 0 || i >= n {
				return Split{}, fmt.Errorf("peptides-func: %s: %q index %d outside [0, %d)", path, key, i, n)
			}
			if owner[i] != "" {
				return Split{}, fmt.Errorf("peptides-func: %s: index %d in both %q and %q", path, i, owner[i], key)
			}
			owner[i] = key
		}
	}
	return Split{Train: parts["train"], Val: parts["val"], Test: parts["test"]}, nil
}
