// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// TestReduceSumShortRowsEqualsGeneric sums the last axis of [A, heads, B] tensors (B from
// 2 to 16, A large enough to split across workers and odd, so that rows are left over
// after the groups of four) and requires the generic executor's sums bit for bit.
func TestReduceSumShortRowsEqualsGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, b := range []int{2, 3, 7, 10, 16} {
		for _, a := range []int{1, 5, 40001} {
			shape := shapes.Make(dtypes.Float32, a, 4, b)
			x := randomFloats(rng, shape.Size())
			cfg := DetermineReduceConfig(shape, []int{2})
			node := &gobackend.Node{OpType: compute.OpTypeReduceSum, Shape: shapes.Make(dtypes.Float32, a, 4), Data: &cfg}
			fast, err := execReduceSumShortRows(rowsBackend(t), node, []*gobackend.Buffer{rowsBuffer(t, shape, x)}, []bool{false})
			if err != nil {
				t.Fatalf("B=%d A=%d: %v", b, a, err)
			}
			generic, err := execReduce(rowsBackend(t), node, []*gobackend.Buffer{rowsBuffer(t, shape, x)}, []bool{false})
			if err != nil {
				t.Fatalf("B=%d A=%d: %v", b, a, err)
			}
			got, want := fast.Flat.([]float32), generic.Flat.([]float32)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("B=%d A=%d: sum %d is %v, generic %v", b, a, i, got[i], want[i])
				}
			}
		}
	}
	// Rows of 17 and sums over leading axes are not this executor's.
	shape := shapes.Make(dtypes.Float32, 3, 17)
	cfg := DetermineReduceConfig(shape, []int{1})
	node := &gobackend.Node{OpType: compute.OpTypeReduceSum, Shape: shapes.Make(dtypes.Float32, 3), Data: &cfg}
	if _, err := execReduceSumShortRows(rowsBackend(t), node, []*gobackend.Buffer{rowsBuffer(t, shape, randomFloats(rng, 51))}, []bool{false}); err != gobackend.ErrFallback {
		t.Errorf("rows of 17: %v, want ErrFallback", err)
	}
}
