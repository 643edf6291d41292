package data

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func gzipBytes(s string) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte(s))
	w.Close()
	return buf.Bytes()
}

// writeOGB writes a 5-node data set in the OGB node property layout; files maps a
// relative path to its (uncompressed) content and overrides the defaults.
func writeOGB(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ogbn_tiny")
	content := map[string]string{
		"raw/edge.csv.gz":          "0,1\n1,2\n2,0\n3,4\n1,0\n3,3\n",
		"raw/node-feat.csv.gz":     "0.5,1\n-1,2\n3,0.25\n4,4\n5,5\n",
		"raw/node-label.csv.gz":    "2\n0\n1\n2\n0\n",
		"raw/num-node-list.csv.gz": "5\n",
		"raw/node_year.csv.gz":     "2000\n",
		"split/time/train.csv.gz":  "0\n1\n4\n",
		"split/time/valid.csv.gz":  "2\n",
		"split/time/test.csv.gz":   "3\n",
		"mapping/README.md":        "ignored",
	}
	for k, v := range files {
		content[k] = v
	}
	for rel, text := range content {
		path := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(path), 0o755)
		data := []byte(text)
		if strings.HasSuffix(rel, ".gz") {
			data = gzipBytes(text)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadOGBNode(t *testing.T) {
	d, err := LoadOGBNode(writeOGB(t, nil), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Graphs[0]
	// Undirected {0,1} {0,2} {1,2} {3,4}; the loop 3–3 and the repeat 1→0 are dropped.
	if g.NumNodes != 5 || !reflect.DeepEqual(g.Src, []int32{0, 0, 1, 1, 2, 2, 3, 4}) || !reflect.DeepEqual(g.Dst, []int32{1, 2, 0, 2, 0, 1, 4, 3}) {
		t.Errorf("edges %v→%v", g.Src, g.Dst)
	}
	wantFeat := Features{Kind: Dense, Rows: 5, Cols: 2, Dense: []float32{0.5, 1, -1, 2, 3, 0.25, 4, 4, 5, 5}}
	if !reflect.DeepEqual(g.Node, wantFeat) || !reflect.DeepEqual(g.NodeLabels, []int32{2, 0, 1, 2, 0}) {
		t.Errorf("features %+v labels %v", g.Node, g.NodeLabels)
	}
	if d.Name != "ogbn-tiny" || d.NumClasses != 3 || !d.Transductive ||
		!reflect.DeepEqual(d.Split, Split{Train: []int{0, 1, 4}, Val: []int{2}, Test: []int{3}}) {
		t.Errorf("name %q, %d classes, split %+v", d.Name, d.NumClasses, d.Split)
	}
}

func TestLoadOGBNodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"bad index", map[string]string{"raw/edge.csv.gz": "0,1\n0,x\n"}, []string{"edge.csv.gz:2", `"x"`}},
		{"index out of range", map[string]string{"raw/edge.csv.gz": "0,1\n\n0,9\n"}, []string{"edge.csv.gz:3", `"9"`, "[0, 5)"}},
		{"three fields", map[string]string{"raw/edge.csv.gz": "0,1,2\n"}, []string{"edge.csv.gz:1", "3 fields"}},
		{"NaN feature", map[string]string{"raw/node-feat.csv.gz": "0,1\n1,1\nnan,2\n3,3\n4,4\n"}, []string{"node-feat.csv.gz:3", "nan", "not finite"}},
		{"Inf feature", map[string]string{"raw/node-feat.csv.gz": "0,1\n1,1\n2,2\n3,1e99\n4,4\n"}, []string{"node-feat.csv.gz:4", "1e99"}},
		{"ragged features", map[string]string{"raw/node-feat.csv.gz": "0,1\n1\n"}, []string{"node-feat.csv.gz:2", "1 features, want 2"}},
		{"feature rows", map[string]string{"raw/node-feat.csv.gz": "0,1\n1,1\n2,2\n3,3\n"}, []string{"node-feat.csv.gz", "4 feature rows for 5 nodes"}},
		{"node count", map[string]string{"raw/num-node-list.csv.gz": "6\n"}, []string{"num-node-list.csv.gz", "[6]", "5 labels"}},
		{"fractional label", map[string]string{"raw/node-label.csv.gz": "2\n0\n1.5\n2\n0\n"}, []string{"node-label.csv.gz:3", `"1.5"`}},
		{"split out of range", map[string]string{"split/time/valid.csv.gz": "2\n5\n"}, []string{"valid.csv.gz:2", `"5"`, "[0, 5)"}},
		{"two split dirs", map[string]string{"split/other/train.csv.gz": "0\n"}, []string{"split", "exactly one split directory", "[other time]"}},
	} {
		d, err := LoadOGBNode(writeOGB(t, tc.files), LoadOptions{})
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
	// Damaged gzip streams: cut short, and with a flipped byte.
	dir := writeOGB(t, nil)
	path := filepath.Join(dir, "raw", "edge.csv.gz")
	full := gzipBytes(strings.Repeat("0,1\n", 1000))
	for _, b := range [][]byte{full[:len(full)/2], append(append([]byte{}, full[:len(full)-8]...), 1, 2, 3, 4, 5, 6, 7, 8)} {
		os.WriteFile(path, b, 0o644)
		if _, err := LoadOGBNode(dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "edge.csv.gz") || !strings.Contains(err.Error(), "gzip") && !strings.Contains(err.Error(), "unexpected EOF") {
			t.Errorf("damaged gzip: %v", err)
		}
	}
	os.Remove(path)
	if _, err := LoadOGBNode(dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "edge.csv.gz") {
		t.Errorf("missing edge file: %v", err)
	}
}
