package gexph

import (
	"math"
	"testing"
)

// TestPEInBatch checks the Laplacian PE of a batch: on every graph of the batch, each
// valid column v of pe_vec with its eigenvalue λ from pe_val satisfies (D − A)v = λv,
// ‖v‖ = 1, and padding slots are masked out.
func TestPEInBatch(t *testing.T) {
	ds := tinyNodeDataset(6, 21)
	cfg := tinyConfig()
	const k = 11 // more than every graph' node count: padding slots appear
	cfg.PE, cfg.PESize, cfg.PEDim = PELap, k, 4
	m := newTestModel(t, cfg, ds, "pow2")
	graphs := []int{0, 1, 2, 3}
	b, err := m.BuildBatch(ds, graphs, nil)
	if err != nil {
		t.Fatal(err)
	}
	vec, val, mask := b.Inputs.PEVec.F32, b.Inputs.PEVal.F32, b.Inputs.PEMask.F32
	sawPadding := false
	for i, gi := range graphs {
		g := ds.Graphs[gi]
		off := b.NodeOffset[i]
		n := g.NumNodes
		adj := make([][]float64, n)
		for u := range adj {
			adj[u] = make([]float64, n)
		}
		for e := range g.Src {
			adj[g.Src[e]][g.Dst[e]] = 1 // stored both ways: symmetric 0/1
		}
		for c := 0; c < k; c++ {
			valid := mask[off*k+c] == 1
			for u := 0; u < n; u++ {
				if (mask[(off+u)*k+c] == 1) != valid || val[(off+u)*k+c] != val[off*k+c] {
					t.Fatalf("graph %d slot %d: mask or eigenvalue differs between nodes", gi, c)
				}
			}
			if !valid {
				sawPadding = true
				if c < n {
					t.Errorf("graph %d (%d nodes): slot %d masked", gi, n, c)
				}
				continue
			}
			lambda := float64(val[off*k+c])
			norm, worst := 0.0, 0.0
			for u := 0; u < n; u++ {
				x := float64(vec[(off+u)*k+c])
				norm += x * x
				lv := 0.0
				for w := 0; w < n; w++ {
					lv += adj[u][w] * (x - float64(vec[(off+w)*k+c]))
				}
				worst = math.Max(worst, math.Abs(lv-lambda*x))
			}
			if math.Abs(norm-1) > 1e-4 || worst > 1e-4 {
				t.Errorf("graph %d slot %d: ‖v‖² = %v, max |(Lv − λv)_u| = %v", gi, c, norm, worst)
			}
		}
	}
	if !sawPadding {
		t.Error("no padded PE slot in the batch (want graphs smaller than k)")
	}
	for u := b.NumNodes; u < b.PadNodes; u++ {
		for c := 0; c < k; c++ {
			if mask[u*k+c] != 0 || vec[u*k+c] != 0 {
				t.Fatalf("padding node %d has PE values", u)
			}
		}
	}
}
