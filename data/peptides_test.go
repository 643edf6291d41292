package data

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loaderDataDir returns a directory under the shared data root (GEXPH_DATA, else
// ../shared/data beside the repository), skipping the test when it is absent, or
// failing it when CI is set.
func loaderDataDir(t testing.TB, rel string) string {
	t.Helper()
	root := os.Getenv("GEXPH_DATA")
	if root == "" {
		root = filepath.Join("..", "..", "shared", "data")
	}
	dir := filepath.Join(root, rel)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("data missing in CI: %v", err)
		}
		t.Skipf("data not present: %v", err)
	}
	return dir
}

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
	dir := loaderDataDir(t, "peptides-func")
	ds, err := LoadPeptidesFunc(dir)
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
	rows, err := readPeptideRows(filepath.Join(dir, PeptidesCSV))
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
	ds, err := LoadPeptidesFunc(writePeptides(t, tinyPeptides, tinySplit))
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
			_, err := LoadPeptidesFunc(writePeptides(t, c.csv, c.split))
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
		_, err := LoadPeptidesFunc(dir)
		if err == nil || !strings.Contains(err.Error(), PeptidesCSV) {
			t.Errorf("error %v, want one naming %s", err, PeptidesCSV)
		}
	})
	t.Run("not gzip", func(t *testing.T) {
		dir := writePeptides(t, tinyPeptides, tinySplit)
		os.WriteFile(filepath.Join(dir, PeptidesCSV), []byte(tinyPeptides), 0o644)
		_, err := LoadPeptidesFunc(dir)
		if err == nil || !strings.Contains(err.Error(), PeptidesCSV) {
			t.Errorf("error %v, want one naming %s", err, PeptidesCSV)
		}
	})
}

// BenchmarkParsePeptides parses all Peptides-func molecules on one goroutine.
func BenchmarkParsePeptides(b *testing.B) {
	rows, err := readPeptideRows(filepath.Join(loaderDataDir(b, "peptides-func"), PeptidesCSV))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, r := range rows {
			m, err := ParseSMILES(r.smiles)
			if err != nil {
				b.Fatal(err)
			}
			_ = m.Graph()
		}
	}
	b.ReportMetric(float64(len(rows)), "molecules")
}

// BenchmarkLoadPeptidesFunc loads the whole data set (parallel parsing on GOMAXPROCS).
func BenchmarkLoadPeptidesFunc(b *testing.B) {
	dir := loaderDataDir(b, "peptides-func")
	for b.Loop() {
		if _, err := LoadPeptidesFunc(dir); err != nil {
			b.Fatal(err)
		}
	}
}
