package posenc

import (
	"testing"

	"github.com/gexph/gexph/data"
)

// A path of three nodes: each encoding is computed once and has k slots per node; the
// Laplacian's masks the slots beyond the graph's three eigenpairs.
func TestCacheComputesEachGraphOnce(t *testing.T) {
	ds := &data.Dataset{Graphs: []data.Graph{{NumNodes: 3, Src: []int32{0, 1, 1, 2}, Dst: []int32{1, 0, 2, 1}}}}
	const k = 4
	for _, rwse := range []bool{false, true} {
		c := NewCache(rwse, k)
		if err := c.Precompute(ds, []int{0}, 2); err != nil {
			t.Fatal(err)
		}
		a, err := c.Get(ds, 0)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := c.Get(ds, 0); a != b {
			t.Errorf("rwse %v: computed twice", rwse)
		}
		if len(a.Vec) != 3*k {
			t.Errorf("rwse %v: %d values, want %d", rwse, len(a.Vec), 3*k)
		}
		if rwse {
			if a.Val != nil || a.Mask != nil {
				t.Errorf("RWSE with eigenvalues or a mask")
			}
			continue
		}
		for v := 0; v < 3; v++ {
			if a.Mask[v*k+2] != 1 || a.Mask[v*k+3] != 0 {
				t.Errorf("node %d: mask %v, want three valid slots and one padding", v, a.Mask[v*k:(v+1)*k])
			}
		}
	}
}
