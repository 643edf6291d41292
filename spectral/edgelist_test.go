package spectral

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sameGraph reports whether a and b have the same node count and the same neighbour
// multiset in every row.
func sameGraph(a, b *Graph) bool {
	if a.N != b.N {
		return false
	}
	for u := range a.N {
		ra, rb := slices.Clone(a.Neighbors(u)), slices.Clone(b.Neighbors(u))
		slices.Sort(ra)
		slices.Sort(rb)
		if !slices.Equal(ra, rb) {
			return false
		}
	}
	return true
}

func TestReadEdgeList(t *testing.T) {
	in := "# a comment\n\n0 1\n1\t2   # trailing comment\n  2 2\n0 1\n+3 -0\n"
	g, err := ReadEdgeList(strings.NewReader(in), "in.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := mustGraph(t, 4, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 2}, [2]int32{0, 1}, [2]int32{3, 0})
	if !sameGraph(g, want) || g.NumEdges() != 5 {
		t.Fatalf("got %+v", g)
	}
	if g.Degree(2) != 3 || g.Degree(0) != 3 {
		t.Fatalf("degrees %d, %d; want 3, 3 (self loop counts twice)", g.Degree(2), g.Degree(0))
	}
}

func TestReadEdgeListErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"three columns", "0 1\n1 2 3\n", "in.txt:2: 3 columns"},
		{"one column", "# c\n5\n", "in.txt:2: 1 columns"},
		{"non-integer", "0 x1\n", `in.txt:1: column 2: node "x1" is not an integer`},
		{"float", "0 1.5\n", `node "1.5" is not an integer`},
		{"bare sign", "- 1\n", `node "-" is not an integer`},
		{"negative", "0 1\n\n-4 2\n", `in.txt:3: column 1: node "-4" is negative`},
		{"overflow int32", "0 2147483647\n", `node "2147483647" exceeds the largest index`},
		{"overflow int64", "99999999999999999999999 1\n", "exceeds the largest index"},
		{"too sparse", "0 2147483646\n", "in.txt: node index 2147483646 implies"},
		{"empty", "", "in.txt: no edges"},
		{"comments only", "# x\n\n  # y\n", "in.txt: no edges in 3 lines"},
		{"long line", "0 1\n" + strings.Repeat(" ", maxLineBytes+10) + "1 2\n", "in.txt:2: line longer"},
	}
	for _, c := range cases {
		_, err := ReadEdgeList(strings.NewReader(c.in), "in.txt")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	failing := errReader{errors.New("disk on fire")}
	if _, err := ReadEdgeList(failing, "in.txt"); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("reader error: %v", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteEdgeListRoundTrip(t *testing.T) {
	// Loops, parallel edges and a random part; the last node has an edge.
	g := randomIrregular(t, 50, 0.05, 1)
	src := []int32{3, 3, 7, 7, 7, 49}
	dst := []int32{3, 3, 8, 8, 7, 0}
	for u := range g.N {
		for _, v := range g.Neighbors(u) {
			if int(v) > u {
				src, dst = append(src, int32(u)), append(dst, v)
			}
		}
	}
	g, err := FromEdges(50, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteEdgeList(&buf, g); err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, line := range strings.Split(buf.String(), "\n") {
		var u, v int
		if line == "" || line[0] == '#' {
			continue
		}
		lines++
		if _, err := fmt.Sscan(line, &u, &v); err != nil || u > v {
			t.Fatalf("line %q is not u ≤ v", line)
		}
	}
	if lines != g.NumEdges() {
		t.Fatalf("%d edge lines for %d edges", lines, g.NumEdges())
	}
	back, err := ReadEdgeList(&buf, "round trip")
	if err != nil {
		t.Fatal(err)
	}
	if !sameGraph(g, back) {
		t.Fatal("round trip changed the graph")
	}
}

func TestWriteEdgeListErrors(t *testing.T) {
	if err := WriteEdgeList(errWriter{}, path(t, 3)); err == nil {
		t.Error("failing writer: no error")
	}
	if err := WriteEdgeList(&bytes.Buffer{}, nil); err == nil {
		t.Error("nil graph: no error")
	}
	oddLoop := &Graph{N: 1, Offsets: []int64{0, 1}, Adj: []int32{0}}
	if err := WriteEdgeList(&bytes.Buffer{}, oddLoop); err == nil {
		t.Error("odd self-loop row: no error")
	}
	if err := WriteEdgeList(&bytes.Buffer{}, &Graph{N: 2, Offsets: []int64{0, 1, 1}, Adj: []int32{9}}); err == nil {
		t.Error("malformed graph: no error")
	}
}

func TestSaveLoadEdgeList(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.edges")
	g := hypercube(t, 3)
	if err := SaveEdgeList(p, g); err != nil {
		t.Fatal(err)
	}
	back, err := LoadEdgeList(p)
	if err != nil {
		t.Fatal(err)
	}
	if !sameGraph(g, back) {
		t.Fatal("save/load changed the graph")
	}
	// A failed save leaves the old file and no temporary behind.
	if err := SaveEdgeList(p, &Graph{N: 1, Offsets: []int64{0, 1}, Adj: []int32{0}}); err == nil {
		t.Fatal("saving a malformed graph succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries after a failed save", len(entries))
	}
	if again, err := LoadEdgeList(p); err != nil || !sameGraph(g, again) {
		t.Fatalf("old file damaged: %v", err)
	}
	if _, err := LoadEdgeList(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: no error")
	}
	if err := SaveEdgeList(filepath.Join(dir, "no", "such", "dir"), g); err == nil {
		t.Error("missing directory: no error")
	}
}

func FuzzReadEdgeList(f *testing.F) {
	for _, seed := range []string{
		"0 1\n1 2\n", "# c\n\n3 3\n3 3\n", "0\t1 # x\n", "# gexph edge list: 9 nodes, 1 edges\n0 1\n", "# gexph edge list: 2 nodes, 0 edges\n", "1 2 3\n", "-1 0\n", "a b\n",
		"99999999999 0\n", "", "0 1\r\n2 0\r\n", "+5 -0\n", "0 70000\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadEdgeList(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("parsed graph invalid: %v", err)
		}
		var buf bytes.Buffer
		if err := WriteEdgeList(&buf, g); err != nil {
			t.Fatal(err)
		}
		back, err := ReadEdgeList(&buf, "rewritten")
		if err != nil {
			t.Fatalf("rewritten list unreadable: %v", err)
		}
		if !sameGraph(g, back) {
			t.Fatal("round trip changed the graph")
		}
	})
}

// A graph whose last nodes are isolated keeps its node count through WriteEdgeList and
// ReadEdgeList: the header's count is honoured, also for a graph without edges.
func TestEdgeListHeaderKeepsIsolatedNodes(t *testing.T) {
	for _, g := range []*Graph{
		mustGraph(t, 10, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 2}), // nodes 3..9 isolated
		mustGraph(t, 4),
	} {
		var buf bytes.Buffer
		if err := WriteEdgeList(&buf, g); err != nil {
			t.Fatal(err)
		}
		back, err := ReadEdgeList(&buf, "isolated.txt")
		if err != nil {
			t.Fatal(err)
		}
		if back.N != g.N || !sameGraph(g, back) {
			t.Fatalf("read back %d nodes, %d edges; wrote %d nodes, %d edges", back.N, back.NumEdges(), g.N, g.NumEdges())
		}
	}
	g, err := ReadEdgeList(strings.NewReader("# comment first\n"+headerPrefix+" 7 nodes, 1 edges\n0 1\n"), "h.txt")
	if err != nil || g.N != 7 {
		t.Fatalf("header after a comment: %v nodes, err %v; want 7", g, err)
	}
}

// A header that disagrees with the edges is an error naming the file and the line:
// an index outside the declared node count, a different edge count (a truncated file),
// a malformed, repeated or late header.
func TestEdgeListHeaderErrors(t *testing.T) {
	h := func(n, m int) string { return fmt.Sprintf("%s %d nodes, %d edges\n", headerPrefix, n, m) }
	cases := []struct {
		name, in, want string
	}{
		{"index above count", h(3, 2) + "0 1\n1 3\n", "in.txt:3: column 2: node 3 is outside the 3 nodes that the header (line 1) declares"},
		{"fewer edges", h(5, 3) + "0 1\n1 2\n", "in.txt: 2 edges, but the header (line 1) declares 3"},
		{"more edges", h(5, 1) + "0 1\n1 2\n", "in.txt: 2 edges, but the header (line 1) declares 1"},
		{"malformed", headerPrefix + " 5 nodes\n0 1\n", "in.txt:1: malformed edge-list header"},
		{"not integers", headerPrefix + " five nodes, 1 edges\n0 1\n", "in.txt:1: malformed edge-list header"},
		{"zero nodes", h(0, 0), "in.txt:1: edge-list header declares 0 nodes"},
		{"negative edges", h(3, -1), "declares 3 nodes and -1 edges"},
		{"second header", h(3, 1) + h(3, 1) + "0 1\n", "in.txt:2: second edge-list header (the first is line 1)"},
		{"late header", "0 1\n" + h(3, 1), "in.txt:2: edge-list header after 1 edges"},
		{"too sparse", h(100000, 1) + "0 1\n", "in.txt: header (line 1) declares 100000 nodes for only 1 edges"},
	}
	for _, c := range cases {
		_, err := ReadEdgeList(strings.NewReader(c.in), "in.txt")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// endlessEdges is an endless stream of the edge "0 1".
type endlessEdges struct{ at int }

func (e *endlessEdges) Read(p []byte) (int, error) {
	const line = "0 1\n"
	for i := range p {
		p[i] = line[e.at]
		e.at = (e.at + 1) % len(line)
	}
	return len(p), nil
}

// An endless stream of edges stops at the reader's bound with an error naming the
// input, the line and the bound; endless zeros stop at the line-length bound.
func TestReadEdgeListLimitStopsEndlessStreams(t *testing.T) {
	_, err := ReadEdgeListLimit(&endlessEdges{}, "endless", 1000)
	if err == nil || !strings.Contains(err.Error(), "endless:1001: more than 1000 edges") {
		t.Errorf("endless edges: %v, want a refusal at edge 1001", err)
	}
	g, err := ReadEdgeListLimit(strings.NewReader("0 1\n1 2\n"), "two", 2)
	if err != nil || g.N != 3 {
		t.Errorf("two edges under a bound of 2: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		f, err := os.Open("/dev/zero")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := ReadEdgeList(f, "/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero:1: line longer than") {
			t.Errorf("/dev/zero: %v, want the line-length bound", err)
		}
	}
}
