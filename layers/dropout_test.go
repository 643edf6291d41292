package layers

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	glayers "github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/model"
)

// TestDropoutEqualsGoMLXDropoutStaticBitForBit runs gexph's dropout and GoMLX's
// DropoutStatic from stores of one seed: the same values, bit for bit, at several rates.
func TestDropoutEqualsGoMLXDropoutStaticBitForBit(t *testing.T) {
	const rows, cols = 777, 37
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]float32, rows*cols)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	in := tensors.FromFlatDataAndDimensions(x, rows, cols)
	for _, p := range []float64{0.1, 0.2, 0.5, 1.0 / 3, 0.9, 0.999} {
		run := func(drop func(scope *model.Scope, x *Node, p float64) *Node) []float32 {
			out := runGraph(t, newStore(t, 11), true, func(scope *model.Scope, in []*Node) []*Node {
				return []*Node{drop(scope, in[0], p)}
			}, in)[0]
			return tensors.MustCopyFlatData[float32](out)
		}
		got := run(dropout)
		want := run(glayers.DropoutStatic)
		zeros := 0
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("p=%v: element %d is %v, GoMLX's dropout gives %v", p, i, got[i], want[i])
			}
			if want[i] == 0 {
				zeros++
			}
		}
		if frac := float64(zeros) / float64(len(want)); math.Abs(frac-p) > 0.02 {
			t.Errorf("p=%v: %.3f of the elements dropped", p, frac)
		}
	}
}

// TestDropMaskFindsTheRandomBitsOfRandomUniform holds the pattern dropMask rests on:
// GoMLX's float32 RandomUniform is built from the random bits' conversion, which
// uniformBits finds; it fails when GoMLX builds uniforms another way (dropMask
// then falls back to comparing the uniforms, slower but the same mask).
func TestDropMaskFindsTheRandomBitsOfRandomUniform(t *testing.T) {
	runGraph(t, newStore(t, 1), true, func(scope *model.Scope, in []*Node) []*Node {
		g := in[0].Graph()
		u := scope.RandomUniform(g, shapes.Make(dtypes.Float32, 4, 3))
		if uniformBits(u) == nil {
			t.Errorf("uniformBits found no random bits in GoMLX's RandomUniform")
		}
		if b := uniformBits(MulScalar(u, 2)); b != nil {
			t.Errorf("uniformBits found bits in 2·u: %s", b)
		}
		return []*Node{u}
	}, []float32{0})
}

// TestDropLimitSplitsTheBitsAsTheUniformComparison checks the arithmetic dropMask rests
// on, in Go: for rates p in [0, 1⁻), min(|float32(b)·2⁻³²|, 1⁻) ≤ p exactly when
// b ≤ dropLimit(p), for the bits b around the limit (where the conversion rounds) and at
// both ends of the range; rates outside it have no limit.
func TestDropLimitSplitsTheBitsAsTheUniformComparison(t *testing.T) {
	below1 := math.Nextafter32(1, 0)
	for _, p := range []float32{0, 1e-9, 0.1, 0.2, 1.0 / 3, 0.5, 0.9, 0.999, math.Nextafter32(below1, 0)} {
		limit, ok := dropLimit(p)
		if !ok {
			t.Fatalf("p=%v: no limit", p)
		}
		var bits []uint32
		for d := range uint32(4096) {
			bits = append(bits, max(limit, 2048)-2048+d, d, math.MaxUint32-d)
		}
		for _, b := range bits {
			u := min(float32(math.Abs(float64(float32(b)*float32(1.0/(1<<32))))), below1)
			if (u <= p) != (b <= limit) {
				t.Fatalf("p=%v, bits %d: uniform %v ≤ p is %v, bits ≤ %d is %v", p, b, u, u <= p, limit, b <= limit)
			}
		}
	}
	for _, p := range []float32{-0.1, below1, 1, float32(math.NaN())} {
		if _, ok := dropLimit(p); ok {
			t.Errorf("p=%v has a limit", p)
		}
	}
}

// BenchmarkDropout times a training graph of one dropout over GatedGCN's edge states on
// CLUSTER ([76,830, 32]) with GoMLX's DropoutStatic and with gexph's dropout (the same
// values; gexph's compares the random bits' conversion).
func BenchmarkDropout(b *testing.B) {
	x := tensors.FromShape(shapes.Make(dtypes.Float32, 76830, 32))
	for _, impl := range []struct {
		name string
		drop func(scope *model.Scope, x *Node, p float64) *Node
	}{{"gomlx", glayers.DropoutStatic}, {"gexph", dropout}} {
		b.Run(impl.name, func(b *testing.B) {
			exec, err := model.NewExec(testBackend(b), newStore(b, 1), func(scope *model.Scope, g *Graph, in []*Node) []*Node {
				scope.SetTraining(g, true)
				return []*Node{ReduceAllSum(impl.drop(scope, in[0], 0.1))}
			})
			if err != nil {
				b.Fatal(err)
			}
			defer exec.Finalize()
			for b.Loop() {
				if _, err := exec.Call(x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
