package layers

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/gexph/gexph/expander"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// fusedBatch is a float32 batch of two graphs for TestFusedKernelsEqualUnfused: node 5
// has no edge at all, node 3 no incoming interaction edge (an empty row of the
// attention), and node 11 is a virtual node of the second graph, joined to each of its
// nodes both ways.
func fusedBatch() []any {
	const n, d = 12, 8
	rng := rand.New(rand.NewPCG(21, 22))
	graphID := []int32{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	var src, dst, hSrc, hDst []int32
	for range 30 {
		base := int32(6 * rng.IntN(2))
		s, t := base+int32(rng.IntN(5)), base+int32(rng.IntN(5))
		if s == 5 || t == 5 {
			continue
		}
		src, dst = append(src, s), append(dst, t)
		if t != 3 {
			hSrc, hDst = append(hSrc, s), append(hDst, t)
		}
		if s != 3 {
			hSrc, hDst = append(hSrc, t), append(hDst, s)
		}
	}
	for v := int32(6); v < 11; v++ {
		hSrc, hDst = append(hSrc, v, 11), append(hDst, 11, v)
	}
	blocks, size, err := expander.BlockNodes(graphID, 2, 0)
	if err != nil {
		panic(err)
	}
	f32 := func(dims ...int) *tensors.Tensor {
		size := 1
		for _, d := range dims {
			size *= d
		}
		return tensors.FromFlatDataAndDimensions(to32(randFloats(rng, size, 1)), dims...)
	}
	return []any{f32(n, d), f32(len(src), d), src, dst, f32(len(hSrc), d), hSrc, hDst,
		tensors.FromFlatDataAndDimensions(blocks, 2, size), f32(n, 3)}
}

// lossAndGradients returns the loss of a GPS layer on fusedBatch and its gradients with
// respect to the node states, edge states, interaction-edge embeddings and every
// trainable variable, computed on the backend given by spec.
func lossAndGradients(t *testing.T, spec string, cfg GPSConfig) [][]float64 {
	t.Helper()
	backend, err := NewBackend(spec)
	if err != nil {
		t.Fatal(err)
	}
	store := newStore(t, 5)
	lossOf := func(scope *model.Scope, g *Graph, in []*Node) *Node {
		scope.SetTraining(g, true)
		x, e := gpsLayer(scope, in, cfg)
		out := Concatenate([]*Node{x, e}, 0)
		w := rand.New(rand.NewPCG(5, 6))
		weights := tensors.FromFlatDataAndDimensions(to32(randFloats(w, out.Shape().Size(), 1)), out.Shape().Dimensions...)
		return ReduceAllSum(Mul(out, Const(g, weights)))
	}
	var vars []*model.Variable
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, g *Graph, in []*Node) []*Node {
		loss := lossOf(scope, g, in)
		targets := []*Node{in[0], in[1], in[4]}
		vars = vars[:0]
		for v := range store.IterVariables() {
			if v.Trainable && v.DType() == dtypes.Float32 {
				vars = append(vars, v)
			}
		}
		sort.Slice(vars, func(i, j int) bool { return vars[i].Path() < vars[j].Path() })
		for _, v := range vars {
			targets = append(targets, v.NodeValue(g))
		}
		return append([]*Node{loss}, Gradient(loss, targets...)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	outs, err := exec.Call(fusedBatch()...) // Tensors of their own: a tensor lives on one backend.
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	res := make([][]float64, len(outs))
	for i, o := range outs {
		res[i] = flat64(t, o)
	}
	return res
}

// TestFusedKernelsEqualUnfused holds the go backend's fused kernels (gexph's patch of
// github.com/gomlx/compute: gather–multiply–scatter, gathered dot products, gathered
// operands, products of the PE gate's threshold pattern, among others) to the unfused
// graph of ops: a GPS layer of every local and every global kind, in training mode, on a
// float32 batch with an isolated node, an empty attention row and a virtual node, gives
// the same loss and the same gradients (node and edge states, edge embeddings, every variable) to 1e-5
// relative on the backends "go" and "go:no_fusion".
func TestFusedKernelsEqualUnfused(t *testing.T) {
	configs := map[string]GPSConfig{
		"gatedgcn+exphormer": {Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 2, Dropout: 0.1, AttentionDropout: 0.2},
		"exphormer-ref":      {Local: LocalNone, Global: GlobalExphormer, Norm: NormNone, Heads: 2, ReferenceAttention: true},
	}
	addEveryKind(configs, GPSConfig{Global: GlobalExphormer, Norm: NormBatch, Heads: 2},
		GPSConfig{Local: LocalGatedGCN, Norm: NormLayer, Heads: 2, PerformerFeatures: 4})
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			fused := lossAndGradients(t, "go", cfg)
			plain := lossAndGradients(t, "go:no_fusion", cfg)
			for k := range plain {
				for i, want := range plain[k] {
					if got := fused[k][i]; !(math.Abs(got-want) <= 1e-5*max(1, math.Abs(want))) {
						t.Fatalf("output %d (0: loss, then gradients) element %d: fused %.9g, unfused %.9g", k, i, got, want)
					}
				}
			}
		})
	}
}
