package layers

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

func TestEmbeddings(t *testing.T) {
	const d = 3
	rng := rand.New(rand.NewPCG(61, 1))
	localT := tensor64(rng, 1, 4, d)
	local := flat64(t, localT)
	source := []int32{2, -1, 0, -3, -2, 3}
	types := []int32{2, 0, 1, 1}
	store := newStore(t, 62)
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		x := Slice(in[0], AxisRange(0, 2)) // Two real nodes.
		return []*Node{
			MixedEdgeEmbedding(scope.In("mixed"), in[0], in[1], 3),
			EdgeTypeEmbedding(scope.In("types"), in[2], 3, d, dtypes.Float64),
			AppendVirtualNodes(scope.In("virtual"), x, 2, 3),
		}
	}, localT, source, types)
	mixedTable := varValue(t, store, "/mixed/embeddings")
	got := flat64(t, outs[0])
	for e, s := range source {
		var want []float64
		if s >= 0 {
			want = local[int(s)*d : int(s+1)*d]
		} else {
			ty := int(-s - 1)
			want = mixedTable[ty*d : (ty+1)*d]
		}
		if diff := maxAbsDiff(t, got[e*d:(e+1)*d], want); diff != 0 {
			t.Errorf("mixed edge %d (source %d): got %v, want %v", e, s, got[e*d:(e+1)*d], want)
		}
	}
	typeTable := varValue(t, store, "/types/embeddings")
	got = flat64(t, outs[1])
	for e, ty := range types {
		if diff := maxAbsDiff(t, got[e*d:(e+1)*d], typeTable[int(ty)*d:int(ty+1)*d]); diff != 0 {
			t.Errorf("typed edge %d: got %v", e, got[e*d:(e+1)*d])
		}
	}
	// Real nodes first, then virtual node k of graph g at row 2 + g·2 + k (the layout of
	// expander.Interaction).
	virtual := varValue(t, store, "/virtual/embeddings")
	got = flat64(t, outs[2])
	if len(got) != (2+2*3)*d {
		t.Fatalf("AppendVirtualNodes gave %d values, want %d", len(got), (2+2*3)*d)
	}
	if diff := maxAbsDiff(t, got[:2*d], local[:2*d]); diff != 0 {
		t.Errorf("real node states changed by %g", diff)
	}
	for k := range 2 {
		for g := range 3 {
			row := 2 + g*2 + k
			if diff := maxAbsDiff(t, got[row*d:(row+1)*d], virtual[k*d:(k+1)*d]); diff != 0 {
				t.Errorf("row %d is not virtual node %d", row, k)
			}
		}
	}
}

// TestMixedEdgeTable checks the table form against MixedEdgeEmbedding of the gathered
// local rows, with the same learned types.
func TestMixedEdgeTable(t *testing.T) {
	const d = 3
	rng := rand.New(rand.NewPCG(63, 1))
	localTable := tensor64(rng, 1, 2, d)
	localIndex := []int32{1, 0, 1, 1}
	source := []int32{2, -1, 0, -3, -2, 3, 1}
	outs := runGraph(t, newStore(t, 64), false, func(scope *model.Scope, in []*Node) []*Node {
		table, index := MixedEdgeTable(scope.In("mixed"), in[0], in[1], in[2], 3)
		perEdge := MixedEdgeEmbedding(scope.Shared("mixed"), Gather(in[0], InsertAxes(in[1], -1)), in[2], 3)
		noIndex, noIndexIdx := MixedEdgeTable(scope.Shared("mixed"), in[0], nil, Const(in[0].Graph(), []int32{1, 0, -2}), 3)
		return []*Node{Gather(table, InsertAxes(index, -1)), perEdge, Gather(noIndex, InsertAxes(noIndexIdx, -1)),
			Gather(table, InsertAxes(Const(in[0].Graph(), []int32{3}), -1))}
	}, localTable, localIndex, source)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), flat64(t, outs[1])); diff != 0 {
		t.Errorf("table form differs from MixedEdgeEmbedding by %g", diff)
	}
	// Without an index, local sources select rows of the local table directly.
	local, got, typeRow := flat64(t, localTable), flat64(t, outs[2]), flat64(t, outs[3])
	want := append(append(append([]float64{}, local[d:2*d]...), local[:d]...), typeRow...)
	if diff := maxAbsDiff(t, got, want); diff != 0 {
		t.Errorf("table without index: got %v, want %v", got, want)
	}
}
