package expander

import (
	"slices"
	"testing"
)

func TestBigBirdPattern(t *testing.T) {
	graphID := make([]int32, 0, 40)
	for i := range 25 {
		graphID = append(graphID, 0)
		if i < 15 {
			graphID = append(graphID, 1)
		}
	}
	const block, random = 3, 2
	src, dst, err := BigBirdPattern(graphID, block, random, 7)
	if err != nil {
		t.Fatal(err)
	}
	src2, dst2, _ := BigBirdPattern(graphID, block, random, 7)
	if !slices.Equal(src, src2) || !slices.Equal(dst, dst2) {
		t.Errorf("the same seed gives different patterns")
	}
	src3, _, _ := BigBirdPattern(graphID, block, random, 8)
	if slices.Equal(src, src3) {
		t.Errorf("different seeds give the same pattern")
	}
	// Per graph: node positions, blocks of each node.
	members := map[int32][]int{}
	pos := make([]int, len(graphID))
	for i, g := range graphID {
		pos[i] = len(members[g])
		members[g] = append(members[g], i)
	}
	keys := make([]map[int]bool, len(graphID))
	for k := range src {
		if k > 0 && (dst[k] < dst[k-1] || dst[k] == dst[k-1] && src[k] <= src[k-1]) {
			t.Fatalf("edges not sorted by (dst, src) without repeats at %d", k)
		}
		i, j := int(dst[k]), int(src[k])
		if graphID[i] != graphID[j] {
			t.Fatalf("edge %d → %d crosses graphs", j, i)
		}
		if keys[i] == nil {
			keys[i] = map[int]bool{}
		}
		keys[i][pos[j]/block] = true
	}
	for i := range graphID {
		numBlocks := (len(members[graphID[i]]) + block - 1) / block
		qb, last := pos[i]/block, numBlocks-1
		blocks := keys[i]
		if qb == 0 || qb == last {
			if len(blocks) != numBlocks {
				t.Errorf("node %d in a global block sees %d of %d blocks", i, len(blocks), numBlocks)
			}
			continue
		}
		for _, b := range []int{0, last, qb - 1, qb, qb + 1} {
			if !blocks[b] {
				t.Errorf("node %d (block %d) misses block %d", i, qb, b)
			}
		}
		fixed := map[int]bool{0: true, last: true, qb - 1: true, qb: true, qb + 1: true}
		if want := min(numBlocks, len(fixed)+random); len(blocks) != want {
			t.Errorf("node %d sees %d blocks, want %d (window, globals and %d random)", i, len(blocks), want, random)
		}
	}
	// A node attends to whole blocks: all nodes of a query block share their keys.
	if _, _, err := BigBirdPattern([]int32{0, -1}, 2, 1, 1); err == nil {
		t.Errorf("negative graph id accepted")
	}
	if _, _, err := BigBirdPattern([]int32{0}, 0, 1, 1); err == nil {
		t.Errorf("zero block size accepted")
	}
	if _, _, err := BigBirdPattern([]int32{0}, 1, -1, 1); err == nil {
		t.Errorf("negative random block count accepted")
	}
}
