package layers

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// TestFanInUniform checks the initializer's distribution: weights uniform in
// ±1/√fan_in (mean 0, variance limit²/3), biases zero, and the same seed giving the
// same weights.
func TestFanInUniform(t *testing.T) {
	const in, out = 400, 50
	draw := func(seed int64) (w, b []float32) {
		store := newStore(t, seed)
		res := runGraph(t, store, false, func(scope *model.Scope, ins []*Node) []*Node {
			s := scope.WithInitializer(FanInUniform(scope))
			g := ins[0].Graph()
			return []*Node{
				s.VariableWithShape("w", shapes.Make(dtypes.Float32, in, out)).NodeValue(g),
				s.VariableWithShape("b", shapes.Make(dtypes.Float32, out)).NodeValue(g),
			}
		}, []float32{0})
		return tensors.MustCopyFlatData[float32](res[0]), tensors.MustCopyFlatData[float32](res[1])
	}
	w, b := draw(3)
	limit := 1 / math.Sqrt(in)
	var mean, sq float64
	for _, v := range w {
		if math.Abs(float64(v)) > limit {
			t.Fatalf("weight %v outside ±%v", v, limit)
		}
		mean += float64(v)
		sq += float64(v) * float64(v)
	}
	n := float64(len(w))
	mean /= n
	variance := sq/n - mean*mean
	want := limit * limit / 3
	// 20,000 draws: the variance's relative standard error is about 0.9 %.
	if math.Abs(mean) > 4*limit/math.Sqrt(3*n) || math.Abs(variance/want-1) > 0.04 {
		t.Errorf("mean %v, variance %v; want 0 and %v", mean, variance, want)
	}
	for _, v := range b {
		if v != 0 {
			t.Fatalf("bias %v, want 0", v)
		}
	}
	w2, _ := draw(3)
	w3, _ := draw(4)
	if w2[17] != w[17] || w3[17] == w[17] {
		t.Errorf("seeds: same seed %v vs %v, other seed %v", w[17], w2[17], w3[17])
	}
}

// SliceParts' hand-written gradient (the parts' gradients concatenated, zeros for a part
// that reaches no output) against central differences, with a part left unused and
// parts that reach the output once, twice and through a nonlinearity.
func TestSlicePartsGradientsMatchFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	x := tensor64(rng, 0.7, 5, 12)
	checkGradients(t, gradCheck{inputs: []any{x}, wrt: []int{0}, seed: 22, samples: 12,
		layer: func(_ *model.Scope, in []*Node) *Node {
			p := SliceParts(in[0], 3, 4) // p[1] reaches nothing.
			return Concatenate([]*Node{Tanh(p[0]), Mul(p[2], p[2]), Add(p[3], MulScalar(p[3], 2)), p[0]}, -1)
		}})
}

// The gradient of SliceParts' input is one concatenation of the parts' gradients: no
// Pad (the generic gradient of a slice) is among the nodes it is computed from, so the
// zero-padded copies of the whole input are never executed. It fails when the
// hand-written gradient stops being used.
func TestSlicePartsGradientPadsNothing(t *testing.T) {
	runGraph(t, newStore(t, 1), true, func(_ *model.Scope, in []*Node) []*Node {
		x := in[0]
		p := SliceParts(x, 4, 3)
		loss := ReduceAllSum(Add(Mul(p[0], p[1]), Tanh(p[2])))
		grad := Gradient(loss, x)[0]
		pads, concats := 0, 0
		seen := map[*Node]bool{}
		var walk func(n *Node)
		walk = func(n *Node) {
			if seen[n] {
				return
			}
			seen[n] = true
			switch n.Type() {
			case NodeTypePad:
				pads++
			case NodeTypeConcatenate:
				concats++
			}
			for _, in := range n.Inputs() {
				walk(in)
			}
		}
		walk(grad)
		if pads != 0 || concats != 1 {
			t.Errorf("the gradient of SliceParts' input is computed from %d Pad and %d Concatenate nodes, want 0 and 1", pads, concats)
		}
		return []*Node{grad}
	}, tensors.FromFlatDataAndDimensions(make([]float32, 2*12), 2, 12))
}
