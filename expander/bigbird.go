package expander

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// BigBirdPattern returns the directed edges src → dst (sorted by dst, then src) of
// BigBird's block-sparse attention pattern, built separately in each graph over its
// nodes in index order, as GraphGPS applies BigBird to graphs. graphID[i] is node i's
// graph. A graph's sequence is cut into blocks of blockSize nodes; the first and last
// blocks are global (they attend to, and are attended by, every block), every block
// attends to itself and its two neighbouring blocks (a window of 3 blocks), and each
// other query block also attends to numRandomBlocks further blocks drawn uniformly
// without replacement. The same seed gives the same pattern.
func BigBirdPattern(graphID []int32, blockSize, numRandomBlocks int, seed uint64) (src, dst []int32, err error) {
	if blockSize <= 0 || numRandomBlocks < 0 {
		return nil, nil, fmt.Errorf("bigbird pattern: need blockSize > 0 and numRandomBlocks ≥ 0, got %d and %d",
			blockSize, numRandomBlocks)
	}
	members := map[int32][]int32{} // graph → its nodes in index order.
	var order []int32              // graphs in order of first appearance.
	for i, gid := range graphID {
		if gid < 0 {
			return nil, nil, fmt.Errorf("bigbird pattern: node %d has negative graph id %d", i, gid)
		}
		if _, ok := members[gid]; !ok {
			order = append(order, gid)
		}
		members[gid] = append(members[gid], int32(i))
	}
	rng := rand.New(rand.NewPCG(seed, 0xb16b00b5))
	keysOf := make([][]int32, len(graphID)) // keys attended by each query node.
	for _, gid := range order {
		nodes := members[gid]
		numBlocks := (len(nodes) + blockSize - 1) / blockSize
		for qb := range numBlocks {
			blocks := bigBirdBlocks(qb, numBlocks, numRandomBlocks, rng)
			var keys []int32
			for _, kb := range blocks {
				keys = append(keys, nodes[kb*blockSize:min((kb+1)*blockSize, len(nodes))]...)
			}
			slices.Sort(keys)
			for _, q := range nodes[qb*blockSize : min((qb+1)*blockSize, len(nodes))] {
				keysOf[q] = keys
			}
		}
	}
	for q, keys := range keysOf {
		for _, k := range keys {
			src = append(src, k)
			dst = append(dst, int32(q))
		}
	}
	return src, dst, nil
}

// bigBirdBlocks returns the key blocks that query block qb attends to, out of numBlocks.
func bigBirdBlocks(qb, numBlocks, numRandom int, rng *rand.Rand) []int {
	last := numBlocks - 1
	if qb == 0 || qb == last {
		all := make([]int, numBlocks)
		for i := range all {
			all[i] = i
		}
		return all
	}
	chosen := map[int]bool{0: true, last: true, qb - 1: true, qb: true, qb + 1: true}
	var rest []int
	for kb := range numBlocks {
		if !chosen[kb] {
			rest = append(rest, kb)
		}
	}
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for _, kb := range rest[:min(numRandom, len(rest))] {
		chosen[kb] = true
	}
	blocks := make([]int, 0, len(chosen))
	for kb := range chosen {
		blocks = append(blocks, kb)
	}
	slices.Sort(blocks)
	return blocks
}
