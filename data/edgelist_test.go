package data

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeEdgeListDir writes the files (name → content; names ending in .gz are compressed).
func writeEdgeListDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mygraph")
	os.MkdirAll(dir, 0o755)
	for name, text := range files {
		data := []byte(text)
		if strings.HasSuffix(name, ".gz") {
			data = gzipBytes(text)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var tinyEdgeList = map[string]string{
	"nodes.csv": "label,f1,f2\n1,0.5,1\n0,2,-3\n1,0,0\n2,1e3,4\n",
	"edges.csv": "# my graph\nsrc,dst,weight\n0,1,0.5\n\n1, 2, 1.5\n3,3,2\n",
}

func TestLoadEdgeListDir(t *testing.T) {
	d, err := LoadEdgeListDir(writeEdgeListDir(t, tinyEdgeList), LoadOptions{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graphs[0]
	want := Graph{
		NumNodes: 4, NodeLabels: []int32{1, 0, 1, 2},
		Src:  []int32{0, 1, 1, 2, 3},
		Dst:  []int32{1, 0, 2, 1, 3},
		Node: Features{Kind: Dense, Rows: 4, Cols: 2, Dense: []float32{0.5, 1, 2, -3, 0, 0, 1000, 4}},
		Edge: Features{Kind: Dense, Rows: 5, Cols: 1, Dense: []float32{0.5, 0.5, 1.5, 1.5, 2}},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("graph %+v\nwant %+v", g, want)
	}
	wantSplit, _ := RandomSplit(4, 0.6, 0.2, 9)
	if d.Name != "mygraph" || d.NumClasses != 3 || !reflect.DeepEqual(d.Split, wantSplit) {
		t.Errorf("name %q, %d classes, split %+v", d.Name, d.NumClasses, d.Split)
	}

	// Given split files (one compressed), no features, no header. (The test split is not
	// empty: an empty split file is an error, see TestLoadEdgeListDirSplits.)
	d, err = LoadEdgeListDir(writeEdgeListDir(t, map[string]string{
		"nodes.csv": "0\n1\n1\n0\n", "edges.csv": "0,1\n1,2\n",
		"train.csv": "0\n2\n", "val.csv.gz": "1\n", "test.csv": "3\n",
	}), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g = d.Graphs[0]
	if g.Node.Kind != NoFeatures || g.Edge.Kind != NoFeatures || len(g.Src) != 4 ||
		!reflect.DeepEqual(d.Split, Split{Train: []int{0, 2}, Val: []int{1}, Test: []int{3}}) {
		t.Errorf("graph %+v split %+v", g, d.Split)
	}
}

func TestLoadEdgeListDirErrors(t *testing.T) {
	with := func(changes map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range tinyEdgeList {
			m[k] = v
		}
		for k, v := range changes {
			if v == "-" {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"one field", with(map[string]string{"edges.csv": "0,1,1\n2\n"}), []string{"edges.csv:2", "1 fields"}},
		{"ragged edges", with(map[string]string{"edges.csv": "0,1,1\n1,2\n"}), []string{"edges.csv:2", "2 fields, want 3"}},
		{"node out of range", with(map[string]string{"edges.csv": "0,1,1\n\n2,4,1\n"}), []string{"edges.csv:3", "outside [0, 4)", "4 rows"}},
		{"negative node", with(map[string]string{"edges.csv": "0,-1,1\n"}), []string{"edges.csv:1", `"-1"`}},
		{"NaN edge feature", with(map[string]string{"edges.csv": "0,1,NaN\n"}), []string{"edges.csv:1", "NaN", "not finite"}},
		{"bad label", with(map[string]string{"nodes.csv": "label,a,b\nx,1,2\n"}), []string{"nodes.csv:2", `"x"`}},
		{"negative label", with(map[string]string{"nodes.csv": "-2,1,2\n"}), []string{"nodes.csv:1", `"-2"`}},
		{"ragged nodes", with(map[string]string{"nodes.csv": "1,1,2\n0,1\n"}), []string{"nodes.csv:2", "2 fields, want 3"}},
		{"Inf node feature", with(map[string]string{"nodes.csv": "1,1,2\n0,inf,1\n"}), []string{"nodes.csv:2", "inf"}},
		{"no nodes", with(map[string]string{"nodes.csv": "# nothing\n"}), []string{"nodes.csv", "no nodes"}},
		{"missing nodes", with(map[string]string{"nodes.csv": "-"}), []string{"nodes.csv", "no nodes.csv"}},
		{"missing edges", with(map[string]string{"edges.csv": "-"}), []string{"no edges.csv"}},
		{"partial split", with(map[string]string{"train.csv": "0\n"}), []string{"found 1 of the split files"}},
		{"split out of range", with(map[string]string{"train.csv": "0\n", "val.csv": "7\n", "test.csv": "1\n"}), []string{"val.csv:1", `"7"`, "[0, 4)"}},
	} {
		d, err := LoadEdgeListDir(writeEdgeListDir(t, tc.files), LoadOptions{Seed: 1})
		if err == nil || d != nil {
			t.Errorf("%s: got %v, %v; want an error", tc.name, d, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
}

func FuzzReadEdgeListCSV(f *testing.F) {
	f.Add([]byte("src,dst,w\n0,1,0.5\n1,2,1\n"))
	f.Add([]byte("# comment\n0,0\n\n3,4\n"))
	f.Add([]byte("0,1,1e40\n"))
	f.Add([]byte("1,2,3,4\n5,6,7,8\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		el, err := readEdgeCSV(bytes.NewReader(data), "fuzz.csv")
		if err != nil {
			return
		}
		if len(el.src) != len(el.dst) || len(el.feat) != len(el.src)*el.cols {
			t.Fatalf("%d sources, %d destinations, %d features × %d", len(el.src), len(el.dst), len(el.feat), el.cols)
		}
		loops := 0
		for i := range el.src {
			if el.src[i] < 0 || el.dst[i] < 0 {
				t.Fatalf("negative index")
			}
			if el.src[i] == el.dst[i] {
				loops++
			}
		}
		src, dst, feat := el.bothDirections()
		if len(src) != 2*len(el.src)-loops || len(dst) != len(src) || (el.cols > 0 && len(feat.Dense) != len(src)*el.cols) {
			t.Fatalf("both directions: %d edges from %d with %d loops", len(src), len(el.src), loops)
		}
	})
}

// repeating is an endless stream of one line.
type repeating struct {
	line string
	at   int
}

func (r *repeating) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.line[r.at]
		r.at = (r.at + 1) % len(r.line)
	}
	return len(p), nil
}

// Text readers stop at LoadOptions.MaxBytes: a file longer than the bound, an endless
// stream of valid edges, /dev/zero and a gzip bomb fail at the bound with an error
// naming the file and the bound, and a planted-partition graph beyond it is refused
// before it is generated.
func TestLoadersRefuseTextAndGraphsBeyondTheirBound(t *testing.T) {
	dir := writeEdgeListDir(t, map[string]string{
		"nodes.csv":    strings.Repeat("0\n1\n", 10),
		"edges.csv.gz": strings.Repeat("0,1\n", 1000),
	})
	if _, err := Load("edgelist:"+dir, LoadOptions{MaxBytes: 100_000}); err != nil {
		t.Fatalf("4000 bytes of edges under 10⁵: %v", err)
	}
	if _, err := Load("edgelist:"+dir, LoadOptions{MaxBytes: 100}); !errors.Is(err, ErrTooLarge) ||
		!strings.Contains(err.Error(), "edges.csv.gz") || !strings.Contains(err.Error(), "more than the 100 bytes") {
		t.Errorf("4000 bytes of edges under a bound of 100: %v, want a refusal naming the file and the bound", err)
	}
	endless := &limitedText{r: &repeating{line: "0,1\n"}, left: 1 << 20, limit: 1 << 20}
	if _, err := readEdgeCSV(endless, "stream.csv"); err == nil || !strings.Contains(err.Error(), "stream.csv") ||
		!strings.Contains(err.Error(), "more than the 1048576 bytes") {
		t.Errorf("endless edges: %v, want a refusal at the bound", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := readFile("/dev/zero", 1<<20, readEdgeCSV); err == nil || !strings.Contains(err.Error(), "/dev/zero") {
			t.Errorf("/dev/zero as edges: %v, want an error naming it", err)
		}
	}
	if _, err := Load("planted:2000000000", LoadOptions{}); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2000000000 nodes") ||
		!strings.Contains(err.Error(), "LoadOptions.MaxBytes") {
		t.Errorf("planted:2·10⁹: %v, want a refusal naming the size and the bound", err)
	}
}

// Whole-file readers (MNIST, Peptides splits, MalNet) refuse a device and a file over
// their bound before reading, and a stream (a decompression bomb) at the bound.
func TestWholeFileReadersRefuseDevicesHugeFilesAndBombs(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := readWhole("/dev/zero", 0); err == nil || !strings.Contains(err.Error(), "/dev/zero: not a regular file") {
			t.Errorf("/dev/zero: %v, want a refusal naming it", err)
		}
	}
	huge := filepath.Join(t.TempDir(), "huge.txt")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err == nil { // sparse: no disk used
		if _, err := readWhole(huge, 0); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "1099511627776 bytes, more than the 8589934592") {
			t.Errorf("1 TiB file: %v, want a refusal by its size", err)
		}
	}
	if _, err := readAllLimit(&repeating{line: "\x00"}, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("endless stream: %v, want ErrTooLarge at the bound", err)
	}
}

// loadWithin runs Load(spec) and fails the test when it has not returned within a few
// seconds: an open of a named pipe blocks until something writes to it.
func loadWithin(t *testing.T, spec string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := Load(spec, LoadOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("Load(%s) blocked", spec)
		return nil
	}
}

// A named pipe given as npz:PATH or as an edge list's edges.csv is refused at once,
// naming the file and what it is, and a directory given as npz:PATH is called one.
func TestLoadersRefuseFIFOsAndDirectoriesBeforeOpeningThem(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "graph.npz")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := loadWithin(t, "npz:"+fifo); err == nil || !strings.Contains(err.Error(), fifo+": not a regular file but a named pipe (FIFO)") {
		t.Errorf("npz: of a FIFO: %v, want a refusal naming the file and the pipe", err)
	}
	dir := writeEdgeListDir(t, map[string]string{"nodes.csv": tinyEdgeList["nodes.csv"]})
	edges := filepath.Join(dir, "edges.csv")
	if err := syscall.Mkfifo(edges, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := loadWithin(t, "edgelist:"+dir); err == nil || !strings.Contains(err.Error(), edges+": not a regular file but a named pipe (FIFO)") {
		t.Errorf("edgelist: with a FIFO as edges.csv: %v, want a refusal naming edges.csv and the pipe", err)
	}
	npzDir := t.TempDir()
	if err := loadWithin(t, "npz:"+npzDir); err == nil || !strings.Contains(err.Error(), npzDir+": is a directory") || strings.Contains(err.Error(), "d---------") {
		t.Errorf("npz: of a directory: %v, want %q", err, npzDir+": is a directory")
	}
}
