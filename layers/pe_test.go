package layers

import (
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// TestLapPEEncoderSignFlips checks that in training each eigenvector slot's sign is
// flipped at random (the linear encoder's output is W·(s ⊙ v) + b for some signs s, and
// different draws give different signs) and that inference and SignFlip(false) keep it.
func TestLapPEEncoderSignFlips(t *testing.T) {
	const n, k, dim = 5, 2, 3
	rng := rand.New(rand.NewPCG(42, 1))
	vecsT := tensor64(rng, 1, n, k)
	vecs := flat64(t, vecsT)
	store := newStore(t, 43)
	encode := func(flip bool) graphFn {
		return func(scope *model.Scope, in []*Node) []*Node {
			return []*Node{NewLapPEEncoder(scope.In("pe"), in[0], nil, dim).Kind(LapPELinear).SignFlip(flip).Done()}
		}
	}
	inference := flat64(t, runGraph(t, store, false, encode(true), vecsT)[0])
	noFlip := flat64(t, runGraph(t, store, true, encode(false), vecsT)[0])
	if diff := maxAbsDiff(t, inference, noFlip); diff != 0 {
		t.Errorf("training without sign flips differs from inference by %g", diff)
	}
	w, b := varValue(t, store, "/pe/linear/dense/weights"), varValue(t, store, "/pe/linear/dense/biases")
	seen := map[[k]float64]bool{}
	for range 12 {
		got := flat64(t, runGraph(t, store, true, encode(true), vecsT)[0])
		found := false
		for _, signs := range [][k]float64{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			flipped := make([]float64, n*k)
			for i := range n {
				for c := range k {
					flipped[i*k+c] = signs[c] * vecs[i*k+c]
				}
			}
			if maxAbsDiff(t, got, affine(flipped, n, k, w, b, dim)) < 1e-12 {
				seen[signs], found = true, true
			}
		}
		if !found {
			t.Fatalf("training output is not the encoding of sign-flipped eigenvectors")
		}
	}
	if len(seen) < 2 {
		t.Errorf("12 training draws used only the signs %v", seen)
	}
}

func TestEncoderShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 1))
	outs := runGraph(t, newStore(t, 45), true, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{
			NewLapPEEncoder(scope.In("lap"), in[0], in[1], 7).Done(),
			ESLapPEEncoder(scope.In("es"), in[0], nil, 5),
			RWSEEncoder(scope.In("rw"), in[2], 6, false),
		}
	}, tensor64(rng, 1, 4, 3), tensor64(rng, 1, 4, 3), tensors.FromFlatDataAndDimensions(make([]float32, 4*8), 4, 8))
	for i, want := range [][]int{{4, 7}, {4, 5}, {4, 6}} {
		if got := outs[i].Shape().Dimensions; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("encoder %d: shape %v, want %v", i, got, want)
		}
	}
}
