// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// rowCase is a row gather/scatter: n rows of the given trailing dims, e indices.
type rowCase struct {
	n, e     int
	trailing []int
}

func rowCases() []rowCase {
	return []rowCase{
		{7, 30, nil},               // scalar rows
		{5, 40, []int{4}},          // narrow rows
		{100, 5000, []int{40}},     // wide rows
		{100, 5000, []int{5, 7}},   // a whole vector and a tail of 3
		{300, 200000, []int{2, 8}}, // large enough to split across workers
	}
}

func randomIndices(rng *rand.Rand, n, e int, sorted bool) []int32 {
	idx := make([]int32, e)
	for i := range idx {
		idx[i] = int32(rng.IntN(n))
	}
	if sorted {
		slices.Sort(idx)
	}
	return idx
}

func randomFloats(rng *rand.Rand, size int) []float32 {
	x := make([]float32, size)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}

func prod(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}

func TestGatherRowsMatchesGenericGather(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range rowCases() {
		w := prod(c.trailing)
		operandShape := shapes.Make(dtypes.Float32, append([]int{c.n}, c.trailing...)...)
		x := randomFloats(rng, c.n*w)
		idx := randomIndices(rng, c.n, c.e, false)
		idx[0], idx[len(idx)-1] = -3, int32(c.n+5) // Clamped, as XLA does.
		offset := make([]int, len(c.trailing))
		for i := range offset {
			offset[i] = i + 1
		}
		data := &gatherNode{indexVectorAxis: 1, offsetOutputAxes: offset, collapsedSlicesAxes: []int{0},
			startIndexMap: []int{0}, sliceSizes: append([]int{1}, c.trailing...)}
		node := &gobackend.Node{OpType: compute.OpTypeGather, Shape: shapes.Make(dtypes.Float32, append([]int{c.e}, c.trailing...)...), Data: data}
		inputs := func() []*gobackend.Buffer {
			return []*gobackend.Buffer{rowsBuffer(t, operandShape, slices.Clone(x)),
				rowsBuffer(t, shapes.Make(dtypes.Int32, c.e, 1), slices.Clone(idx))}
		}
		fast, err := execGatherRows(rowsBackend(t), node, inputs(), []bool{false, false})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		generic, err := execGather(rowsBackend(t), node, inputs(), []bool{false, false})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if !slices.Equal(fast.Flat.([]float32), generic.Flat.([]float32)) {
			t.Errorf("%+v: the row gather differs from the generic gather", c)
		}
	}
}

func TestScatterRowsMatchesGenericScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, op := range []compute.OpType{compute.OpTypeScatterSum, compute.OpTypeScatterMax} {
		for _, c := range rowCases() {
			for _, sorted := range []bool{false, true} {
				w := prod(c.trailing)
				operandShape := shapes.Make(dtypes.Float32, append([]int{c.n}, c.trailing...)...)
				x := randomFloats(rng, c.n*w)
				upd := randomFloats(rng, c.e*w)
				idx := randomIndices(rng, c.n, c.e, sorted)
				window := make([]int, len(c.trailing))
				for i := range window {
					window[i] = i + 1
				}
				data := &scatterNode{indexVectorAxis: 1, updateWindowAxes: window, insertedWindowAxes: []int{0},
					scatterAxesToOperandAxes: []int{0}, indicesAreSorted: sorted}
				node := &gobackend.Node{OpType: op, Shape: operandShape, Data: data}
				inputs := func() []*gobackend.Buffer {
					return []*gobackend.Buffer{rowsBuffer(t, operandShape, slices.Clone(x)),
						rowsBuffer(t, shapes.Make(dtypes.Int32, c.e, 1), slices.Clone(idx)),
						rowsBuffer(t, shapes.Make(dtypes.Float32, append([]int{c.e}, c.trailing...)...), slices.Clone(upd))}
				}
				fast, err := execScatterRows(rowsBackend(t), node, inputs(), []bool{false, false, false})
				if err != nil {
					t.Fatalf("%s %+v: %v", op, c, err)
				}
				generic, err := execScatter(rowsBackend(t), node, inputs(), []bool{false, false, false})
				if err != nil {
					t.Fatalf("%s %+v: %v", op, c, err)
				}
				got, want := fast.Flat.([]float32), generic.Flat.([]float32)
				for i := range want {
					if d := got[i] - want[i]; d > 1e-4 || d < -1e-4 {
						t.Fatalf("%s %+v sorted=%v: element %d is %v, generic %v", op, c, sorted, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestScatterRowsSkipsOutOfRangeIndices(t *testing.T) {
	operandShape := shapes.Make(dtypes.Float32, 3, 2)
	data := &scatterNode{indexVectorAxis: 1, updateWindowAxes: []int{1}, insertedWindowAxes: []int{0}, scatterAxesToOperandAxes: []int{0}}
	node := &gobackend.Node{OpType: compute.OpTypeScatterSum, Shape: operandShape, Data: data}
	out, err := execScatterRows(rowsBackend(t), node, []*gobackend.Buffer{
		rowsBuffer(t, operandShape, make([]float32, 6)),
		rowsBuffer(t, shapes.Make(dtypes.Int32, 4, 1), []int32{0, -1, 3, 2}),
		rowsBuffer(t, shapes.Make(dtypes.Float32, 4, 2), []float32{1, 2, 3, 4, 5, 6, 7, 8}),
	}, []bool{false, false, false})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.Flat.([]float32), []float32{1, 2, 0, 0, 7, 8}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestRowsFallBackForOtherPatterns(t *testing.T) {
	// int64 indices: the generic executor's business.
	operandShape := shapes.Make(dtypes.Float32, 3, 2)
	data := &gatherNode{indexVectorAxis: 1, offsetOutputAxes: []int{1}, collapsedSlicesAxes: []int{0},
		startIndexMap: []int{0}, sliceSizes: []int{1, 2}}
	node := &gobackend.Node{OpType: compute.OpTypeGather, Shape: shapes.Make(dtypes.Float32, 2, 2), Data: data}
	_, err := execGatherRows(rowsBackend(t), node, []*gobackend.Buffer{rowsBuffer(t, operandShape, make([]float32, 6)),
		rowsBuffer(t, shapes.Make(dtypes.Int64, 2, 1), []int64{0, 1})}, []bool{false, false})
	if err != gobackend.ErrFallback {
		t.Errorf("int64 indices: %v, want ErrFallback", err)
	}
}

var rowsBackendOnce struct {
	be *gobackend.Backend
}

// rowsBackend returns a Go backend for these tests.
func rowsBackend(t testing.TB) *gobackend.Backend {
	t.Helper()
	if rowsBackendOnce.be == nil {
		be, err := gobackend.NewBackend()
		if err != nil {
			t.Fatalf("backend: %+v", err)
		}
		rowsBackendOnce.be = be
	}
	return rowsBackendOnce.be
}

// rowsBuffer returns a backend buffer holding flat.
func rowsBuffer(t testing.TB, shape shapes.Shape, flat any) *gobackend.Buffer {
	t.Helper()
	b, err := rowsBackend(t).BufferFromFlatData(0, flat, shape)
	if err != nil {
		t.Fatalf("BufferFromFlatData: %+v", err)
	}
	return b.(*gobackend.Buffer)
}
