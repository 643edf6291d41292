package expander

import "fmt"

// BlockNodes returns the block layout [numGraphs, size] of nodes given by their graph
// (graphID[i] in [0, numGraphs), or negative for nodes in no block) in index order:
// row g lists graph g's nodes, then −1 up to size, the largest graph's node count when
// size is 0. Attention that works densely per graph (layers.NewDenseAttention,
// layers.NewPerformerAttention) takes this layout.
func BlockNodes(graphID []int32, numGraphs, size int) (blocks []int32, blockSize int, err error) {
	if numGraphs < 0 || size < 0 {
		return nil, 0, fmt.Errorf("expander: block nodes: need numGraphs ≥ 0 and size ≥ 0, got %d and %d", numGraphs, size)
	}
	count := make([]int, numGraphs)
	for i, g := range graphID {
		if int(g) >= numGraphs {
			return nil, 0, fmt.Errorf("expander: block nodes: node %d has graph %d, want < %d", i, g, numGraphs)
		}
		if g >= 0 {
			count[g]++
		}
	}
	largest := 0
	for _, c := range count {
		largest = max(largest, c)
	}
	if size == 0 {
		size = max(largest, 1)
	}
	if size < largest {
		return nil, 0, fmt.Errorf("expander: block nodes: block size %d is smaller than the largest graph (%d nodes)", size, largest)
	}
	blocks = make([]int32, numGraphs*size)
	for i := range blocks {
		blocks[i] = -1
	}
	next := make([]int, numGraphs)
	for i, g := range graphID {
		if g >= 0 {
			blocks[int(g)*size+next[g]] = int32(i)
			next[g]++
		}
	}
	return blocks, size, nil
}
