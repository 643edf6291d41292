package data

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/gexph/gexph/data/smiles"
)

// countSMILESTokens counts atoms and bonds of a SMILES by plain tokenisation,
// independently of the parser: atoms are bracket groups and organic-subset letters,
// bonds are atoms minus '.'-separated parts plus ring-closure labels over two.
func countSMILESTokens(s string) (atoms, bonds int) {
	parts, ringLabels := 1, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[':
			atoms++
			i += strings.IndexByte(s[i:], ']')
		case c == 'C' && i+1 < len(s) && s[i+1] == 'l', c == 'B' && i+1 < len(s) && s[i+1] == 'r':
			atoms++
			i++
		case strings.IndexByte("BCNOPSFIbcnops", c) >= 0:
			atoms++
		case c == '.':
			parts++
		case c == '%':
			ringLabels++
			i += 2
		case c >= '0' && c <= '9':
			ringLabels++
		}
	}
	return atoms, atoms - parts + ringLabels/2
}

func TestLoadPeptidesFuncPaperCounts(t *testing.T) {
	dir := sharedData(t, "peptides-func")
	ds, err := LoadPeptidesFunc(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if ds.Task != GraphMultiLabel || ds.NumClasses != 10 || len(ds.Graphs) != 15535 {
		t.Fatalf("task %v, %d classes, %d graphs; want multi-label, 10, 15535", ds.Task, ds.NumClasses, len(ds.Graphs))
	}
	if len(ds.Split.Train) != 10873 || len(ds.Split.Val) != 2331 || len(ds.Split.Test) != 2331 {
		t.Errorf("split %d/%d/%d, want 10873/2331/2331", len(ds.Split.Train), len(ds.Split.Val), len(ds.Split.Test))
	}
	rows, err := readPeptideRows(filepath.Join(dir, PeptidesCSV), peptidesFunc(), 0)
	if err != nil {
		t.Fatal(err)
	}
	nodes, edges := 0, 0
	for i, g := range ds.Graphs {
		nodes += g.NumNodes
		edges += len(g.Src)
		atoms, bonds := countSMILESTokens(rows[i].smiles)
		if g.NumNodes != atoms || len(g.Src) != 2*bonds {
			t.Fatalf("molecule %d: %d nodes, %d edges; tokens give %d atoms, %d bonds", i, g.NumNodes, len(g.Src), atoms, bonds)
		}
		for _, y := range g.Targets {
			if y != 0 && y != 1 {
				t.Fatalf("molecule %d: target %v", i, y)
			}
		}
	}
	// The paper's Table 6: 150.94 nodes and 307.30 directed edges per graph.
	n := float64(len(ds.Graphs))
	if avg := float64(nodes) / n; math.Abs(avg-150.94) > 0.005 {
		t.Errorf("average nodes %.3f, want 150.94", avg)
	}
	if avg := float64(edges) / n; math.Abs(avg-307.30) > 0.005 {
		t.Errorf("average directed edges %.3f, want 307.30", avg)
	}
	// First row of the file: labels [0, 0, 0, 0, 1, 0, 0, 0, 0, 1].
	if want := []float32{0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; !slices.Equal(ds.Graphs[0].Targets, want) {
		t.Errorf("graph 0 targets %v, want %v", ds.Graphs[0].Targets, want)
	}
}

// writePeptides writes a data set directory with the given CSV body (gzipped) and
// split JSON; an empty split writes none.
func writePeptides(t *testing.T, csvBody, split string) string {
	t.Helper()
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(csvBody))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, PeptidesCSV), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if split != "" {
		if err := os.WriteFile(filepath.Join(dir, PeptidesSplit), []byte(split), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const tinyPeptides = `,smiles,peptide_seq,labels,identifier
0,CCO,X,"[0, 0, 0, 0, 1, 0, 0, 0, 0, 1]",1
1,c1ccccc1,X,"[1, 0, 0, 0, 0, 0, 0, 0, 0, 0]",2
2,N[C@@H](C)C(=O)O,A,"[0, 1, 0, 0, 0, 0, 0, 0, 1, 1]",3
`

const tinySplit = `{"train": [0, 2], "val": [1], "test": []}`

func TestLoadPeptidesFuncTiny(t *testing.T) {
	ds, err := LoadPeptidesFunc(writePeptides(t, tinyPeptides, tinySplit), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	wantNodes, wantEdges := []int{3, 6, 6}, []int{4, 12, 10}
	for i, g := range ds.Graphs {
		if g.NumNodes != wantNodes[i] || len(g.Src) != wantEdges[i] {
			t.Errorf("graph %d: %d nodes %d edges, want %d, %d", i, g.NumNodes, len(g.Src), wantNodes[i], wantEdges[i])
		}
	}
	if !slices.Equal(ds.Graphs[2].Targets, []float32{0, 1, 0, 0, 0, 0, 0, 0, 1, 1}) {
		t.Errorf("graph 2 targets %v", ds.Graphs[2].Targets)
	}
	if !slices.Equal(ds.Split.Train, []int{0, 2}) || !slices.Equal(ds.Split.Val, []int{1}) || len(ds.Split.Test) != 0 {
		t.Errorf("split %+v", ds.Split)
	}
}

func TestLoadPeptidesFuncErrors(t *testing.T) {
	header := ",smiles,peptide_seq,labels,identifier\n"
	good := "0,CCO,X,\"[0, 0, 0, 0, 1, 0, 0, 0, 0, 1]\",1\n"
	cases := []struct {
		name, csv, split string
		want             []string
	}{
		{"no smiles column", ",smile,labels\n0,C,\"[0]\"\n", tinySplit, []string{PeptidesCSV, "smiles"}},
		{"empty", header, tinySplit, []string{PeptidesCSV, "no molecules"}},
		{"short label list", header + good + "1,CC,X,\"[0, 1]\",2\n", tinySplit, []string{PeptidesCSV, "line 3", "2 values"}},
		{"non-binary label", header + good + "1,CC,X,\"[0, 1, 0, 0, 0, 0, 0, 0, 0, 7]\",2\n", tinySplit, []string{"line 3", "not 0 or 1"}},
		{"label not a list", header + "0,CC,X,0,2\n", tinySplit, []string{"line 2", "not a [..] list"}},
		{"bad SMILES", header + good + "1,CC(C,X,\"[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\",2\n", tinySplit, []string{PeptidesCSV, "line 3", "CC(C", "never closed"}},
		{"missing split", header + good, "", []string{PeptidesSplit, "no such file"}},
		{"split key missing", header + good, `{"train": [0], "val": []}`, []string{PeptidesSplit, `"test"`}},
		{"split index range", header + good, `{"train": [0, 5], "val": [], "test": []}`, []string{PeptidesSplit, "index 5 outside [0, 1)"}},
		{"split duplicate", header + good, `{"train": [0], "val": [0], "test": []}`, []string{PeptidesSplit, `"train" and "val"`}},
		{"split not JSON", header + good, `{"train": [0],`, []string{PeptidesSplit}},
		{"split wrong type", header + good, `{"train": ["a"], "val": [], "test": []}`, []string{PeptidesSplit, "train"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadPeptidesFunc(writePeptides(t, c.csv, c.split), LoadOptions{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	t.Run("truncated gzip", func(t *testing.T) {
		dir := writePeptides(t, tinyPeptides+strings.Repeat(tinyPeptides[38:], 50), tinySplit)
		path := filepath.Join(dir, PeptidesCSV)
		raw, _ := os.ReadFile(path)
		os.WriteFile(path, raw[:len(raw)/2], 0o644)
		_, err := LoadPeptidesFunc(dir, LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), PeptidesCSV) {
			t.Errorf("error %v, want one naming %s", err, PeptidesCSV)
		}
	})
	t.Run("not gzip", func(t *testing.T) {
		dir := writePeptides(t, tinyPeptides, tinySplit)
		os.WriteFile(filepath.Join(dir, PeptidesCSV), []byte(tinyPeptides), 0o644)
		_, err := LoadPeptidesFunc(dir, LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), PeptidesCSV) {
			t.Errorf("error %v, want one naming %s", err, PeptidesCSV)
		}
	})
}

// BenchmarkParsePeptides parses all Peptides-func molecules on one goroutine.
func BenchmarkParsePeptides(b *testing.B) {
	rows, err := readPeptideRows(filepath.Join(sharedData(b, "peptides-func"), PeptidesCSV), peptidesFunc(), 0)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, r := range rows {
			m, err := smiles.Parse(r.smiles)
			if err != nil {
				b.Fatal(err)
			}
			_ = moleculeGraph(m)
		}
	}
	b.ReportMetric(float64(len(rows)), "molecules")
}

// BenchmarkLoadPeptidesFunc loads the whole data set (parallel parsing on GOMAXPROCS).
func BenchmarkLoadPeptidesFunc(b *testing.B) {
	dir := sharedData(b, "peptides-func")
	for b.Loop() {
		if _, err := LoadPeptidesFunc(dir, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// structCSV returns a Peptides-struct CSV of the molecules: an index column, the 11
// target columns in a shuffled order (molecule i's value of target k is f(i, k)), the
// smiles column and a sequence column.
func structCSV(f func(i, k int) string, molecules []string) string {
	names := PeptidesStructTargets()
	order := []int{3, 10, 0, 7, 1, 9, 2, 5, 8, 4, 6}
	var b strings.Builder
	b.WriteString("idx,")
	for _, k := range order {
		b.WriteString(names[k] + ",")
	}
	b.WriteString("smiles,peptide_seq\n")
	for i, smi := range molecules {
		fmt.Fprintf(&b, "%d,", i)
		for _, k := range order {
			b.WriteString(f(i, k) + ",")
		}
		fmt.Fprintf(&b, "%s,XYZ\n", smi)
	}
	return b.String()
}

// writePeptidesStruct writes a Peptides-struct directory (gzipped CSV, split JSON;
// an empty split writes none).
func writePeptidesStruct(t *testing.T, csvBody, split string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, PeptidesStructCSV), gzipBytes(csvBody), 0o644); err != nil {
		t.Fatal(err)
	}
	if split != "" {
		if err := os.WriteFile(filepath.Join(dir, PeptidesStructSplit), []byte(split), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var structMolecules = []string{"CCO", "c1ccccc1", "N[C@@H](C)C(=O)O", "CC(=O)NC"}

// structValue is an arbitrary non-constant target table.
func structValue(i, k int) float64 {
	return float64((i+1)*(k+2)%7) + 0.25*float64(k) - 1.5*float64(i*i)
}

func TestLoadPeptidesStructTiny(t *testing.T) {
	csvBody := structCSV(func(i, k int) string { return strconv.FormatFloat(structValue(i, k), 'g', -1, 64) }, structMolecules)
	ds, err := LoadPeptidesStruct(writePeptidesStruct(t, csvBody, `{"train": [0, 3], "val": [1], "test": [2]}`), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if ds.Name != "peptides-struct" || ds.Task != GraphRegression || ds.NumClasses != 11 || len(ds.Graphs) != 4 {
		t.Fatalf("%s %v %d targets %d graphs", ds.Name, ds.Task, ds.NumClasses, len(ds.Graphs))
	}
	if !reflect.DeepEqual(ds.Split, Split{Train: []int{0, 3}, Val: []int{1}, Test: []int{2}}) {
		t.Errorf("split %+v", ds.Split)
	}
	for i, smi := range structMolecules {
		m, err := smiles.Parse(smi)
		if err != nil {
			t.Fatal(err)
		}
		want := moleculeGraph(m)
		g := ds.Graphs[i]
		g.Targets = nil
		if !reflect.DeepEqual(g, want) {
			t.Errorf("graph %d differs from moleculeGraph(smiles.Parse(%q))", i, smi)
		}
	}
	// Each target column standardised: gonum's mean and unbiased deviation.
	for k := range 11 {
		col := make([]float64, len(structMolecules))
		for i := range col {
			col[i] = structValue(i, k)
		}
		mean, std := stat.MeanStdDev(col, nil)
		for i, x := range col {
			if got, want := float64(ds.Graphs[i].Targets[k]), (x-mean)/std; math.Abs(got-want) > 1e-6 {
				t.Errorf("molecule %d target %s = %v, want %v", i, PeptidesStructTargets()[k], got, want)
			}
		}
	}
	// By name from the data root.
	root := t.TempDir()
	os.Rename(writePeptidesStruct(t, csvBody, `{"train": [0, 3], "val": [1], "test": [2]}`), filepath.Join(root, "peptides-struct"))
	byName, err := Load("peptides-struct", LoadOptions{DataDir: root, NoCache: true})
	if err != nil || !reflect.DeepEqual(byName, ds) {
		t.Errorf("Load(peptides-struct): %v, or a different data set", err)
	}
}

func TestLoadPeptidesStructErrors(t *testing.T) {
	number := func(i, k int) string { return strconv.FormatFloat(structValue(i, k), 'g', -1, 64) }
	with := func(bad string, row, col int) string {
		return structCSV(func(i, k int) string {
			if i == row && k == col {
				return bad
			}
			return number(i, k)
		}, structMolecules)
	}
	split := `{"train": [0], "val": [1], "test": [2, 3]}`
	good := structCSV(number, structMolecules)
	cases := []struct {
		name, csv, split string
		want             []string
	}{
		{"missing target column", strings.Replace(good, "Spherocity", "Sphericity", 1), split, []string{PeptidesStructCSV, `"Spherocity"`}},
		{"not a number", with("abc", 2, 4), split, []string{"line 4", `"Inertia_valence_b"`, `"abc"`}},
		{"empty cell", with("", 0, 0), split, []string{"line 2", `"Inertia_mass_a"`}},
		{"NaN", with("nan", 1, 10), split, []string{"line 3", `"Plane_best_fit"`, "finite"}},
		{"infinite", with("-Inf", 3, 6), split, []string{"line 5", `"length_a"`, "finite"}},
		{"constant column", structCSV(func(i, k int) string {
			if k == 9 {
				return "2.5"
			}
			return number(i, k)
		}, structMolecules), split, []string{`"Spherocity" is constant`}},
		{"one molecule", structCSV(number, structMolecules[:1]), `{"train": [0], "val": [], "test": []}`, []string{"1 molecule", "at least 2"}},
		{"bad SMILES", structCSV(number, []string{"CCO", "C1CC"}), `{"train": [0], "val": [1], "test": []}`, []string{"line 3", "C1CC"}},
		{"missing split", good, "", []string{PeptidesStructSplit, "no such file"}},
		{"split index range", good, `{"train": [0, 4], "val": [], "test": []}`, []string{PeptidesStructSplit, "index 4 outside [0, 4)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadPeptidesStruct(writePeptidesStruct(t, c.csv, c.split), LoadOptions{})
			checkErr(t, err, append(c.want, "peptides-struct")...)
		})
	}
}

// moleculeGraphCases are molecules with rings, aromatic atoms, charges, isotopes,
// stereo marks and several parts.
var moleculeGraphCases = []string{"CCO", "c1ccccc1", "c1ccncc1", "Cn1cnc2c1c(=O)n(C)c(=O)n2C", "CC(=O)O",
	"[NH4+]", "N[C@@H](C)C(=O)O", "C%10CCCCC%10", "O=C1NC(C(=O)O)CSSCC1N", "c1ccc2[nH]ccc2c1",
	"ClCCBr", "C#N", "C=1CCCCC1", "[2H]C([2H])([2H])C", "Cc1c[nH+]c[nH]1", "F/C=C/F", "[Na+].[Cl-]"}

func TestMoleculeGraph(t *testing.T) {
	for _, smi := range moleculeGraphCases {
		m, err := smiles.Parse(smi)
		if err != nil {
			t.Fatal(err)
		}
		g := moleculeGraph(m)
		if err := g.Validate(); err != nil {
			t.Errorf("%s: %v", smi, err)
		}
		if g.NumNodes != len(m.Atoms) || len(g.Src) != 2*len(m.Bonds) {
			t.Errorf("%s: %d nodes %d edges for %d atoms %d bonds", smi, g.NumNodes, len(g.Src), len(m.Atoms), len(m.Bonds))
		}
		for e := 0; e < len(g.Src); e += 2 {
			if g.Src[e] != g.Dst[e+1] || g.Dst[e] != g.Src[e+1] {
				t.Errorf("%s: edges %d, %d are not a bond's two directions", smi, e, e+1)
			}
			if b := m.Bonds[e/2]; int(g.Src[e]) != b.Begin || int(g.Dst[e]) != b.End {
				t.Errorf("%s: edge %d is %d→%d, bond %d joins %d–%d", smi, e, g.Src[e], g.Dst[e], e/2, b.Begin, b.End)
			}
			if !slices.Equal(g.Edge.Categorical[e*3:e*3+3], g.Edge.Categorical[e*3+3:e*3+6]) {
				t.Errorf("%s: edges %d, %d carry different features", smi, e, e+1)
			}
			if f := m.BondFeatures(e / 2); !slices.Equal(g.Edge.Categorical[e*3:e*3+3], f[:]) {
				t.Errorf("%s: edge %d features %v, bond %d has %v", smi, e, g.Edge.Categorical[e*3:e*3+3], e/2, f)
			}
		}
		for i := range m.Atoms {
			row := g.Node.Categorical[i*9 : i*9+9]
			if h, deg := m.Atoms[i].TotalH(), m.TotalDegree(i); int(row[0]) != m.Atoms[i].AtomicNum-1 || int(row[4]) != h || int(row[2]) != deg {
				t.Errorf("%s: atom %d features %v disagree with atomic number %d, H %d, degree %d", smi, i, row, m.Atoms[i].AtomicNum, h, deg)
			}
		}
	}
}
