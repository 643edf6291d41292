package expander

import (
	"fmt"
	"math"
)

// MaxVirtualNodes is the largest number of virtual nodes per graph (the Virtual index of
// an interaction edge is an int16).
const MaxVirtualNodes = math.MaxInt16 + 1

// GlobalEdges returns the global-connector edges of an n-node graph with k virtual
// nodes n..n+k−1: for each virtual node t in turn, the edges i → n+t for every real node
// i, then n+t → i for every i (2kn directed edges). virtual[e] is t. Virtual nodes are not
// joined to each other.
func GlobalEdges(n, k int) (src, dst []int32, virtual []int16, err error) {
	if err := validateGlobal(n, k); err != nil {
		return nil, nil, nil, err
	}
	m := 2 * k * n
	src, dst, virtual = make([]int32, 0, m), make([]int32, 0, m), make([]int16, 0, m)
	for t := range k {
		vt := int32(n + t)
		for i := range n {
			src, dst, virtual = append(src, int32(i)), append(dst, vt), append(virtual, int16(t))
		}
		for i := range n {
			src, dst, virtual = append(src, vt), append(dst, int32(i)), append(virtual, int16(t))
		}
	}
	return src, dst, virtual, nil
}

func validateGlobal(n, k int) error {
	if n < 1 {
		return fmt.Errorf("expander: node count n=%d must be at least 1", n)
	}
	if k < 0 || k > MaxVirtualNodes {
		return fmt.Errorf("expander: virtual node count k=%d outside [0, %d]", k, MaxVirtualNodes)
	}
	if n+k > math.MaxInt32 || 2*k*n > math.MaxInt32 {
		return fmt.Errorf("expander: n=%d, k=%d exceeds the int32 index range", n, k)
	}
	return nil
}
