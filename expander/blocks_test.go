package expander

import (
	"slices"
	"strings"
	"testing"
)

func TestBlockNodes(t *testing.T) {
	// Interleaved graphs of sizes 3, 1, 0 and 4; node 5 is in no graph.
	graphID := []int32{3, 0, 3, 1, 0, -1, 3, 0, 3}
	blocks, size, err := BlockNodes(graphID, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []int32{
		1, 4, 7, -1,
		3, -1, -1, -1,
		-1, -1, -1, -1,
		0, 2, 6, 8,
	}
	if size != 4 || !slices.Equal(blocks, want) {
		t.Errorf("size 0: got size %d, blocks %v; want 4, %v", size, blocks, want)
	}
	// An explicit size pads every row with −1.
	blocks, size, err = BlockNodes(graphID, 4, 6)
	if err != nil {
		t.Fatal(err)
	}
	want = []int32{
		1, 4, 7, -1, -1, -1,
		3, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1,
		0, 2, 6, 8, -1, -1,
	}
	if size != 6 || !slices.Equal(blocks, want) {
		t.Errorf("size 6: got size %d, blocks %v; want 6, %v", size, blocks, want)
	}
	// A block layout of one graph is [0, 1, …, N−1].
	blocks, size, err = BlockNodes(make([]int32, 5), 1, 0)
	if err != nil || size != 5 || !slices.Equal(blocks, []int32{0, 1, 2, 3, 4}) {
		t.Errorf("one graph: got %v, %d, %v", blocks, size, err)
	}
	// No node in any block still gives slots (size 1).
	blocks, size, err = BlockNodes([]int32{-1, -1}, 2, 0)
	if err != nil || size != 1 || !slices.Equal(blocks, []int32{-1, -1}) {
		t.Errorf("empty graphs: got %v, %d, %v", blocks, size, err)
	}
	for _, c := range []struct {
		name      string
		graphID   []int32
		numGraphs int
		size      int
		want      string
	}{
		{"graph out of range", []int32{0, 2}, 2, 0, "graph 2"},
		{"size too small", []int32{0, 0, 0, 1}, 2, 2, "smaller than the largest graph"},
	} {
		if _, _, err := BlockNodes(c.graphID, c.numGraphs, c.size); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}
