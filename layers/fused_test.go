package layers

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/gexph/gexph/expander"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// fusedBatch is a float32 batch of two graphs of six nodes for
// TestFusedKernelsEqualUnfused (fusedBatchOf's layout, 30 local edges drawn, width 8).
func fusedBatch() []any { return fusedBatchOf(2, 6, 30, 8) }

// fusedBatchOf is a float32 batch of graphs graphs of size nodes each, with edges local
// edges drawn at random within the graphs and states of width d: the last node of the
// first graph has no edge at all, node 3 no incoming interaction edge (an empty row of
// the attention), and the last node of the last graph is a virtual node of it, joined to
// each of its nodes both ways.
func fusedBatchOf(graphs, size, edges, d int) []any {
	n := graphs * size
	rng := rand.New(rand.NewPCG(21, 22))
	graphID := make([]int32, n)
	for i := range graphID {
		graphID[i] = int32(i / size)
	}
	var src, dst, hSrc, hDst []int32
	for range edges {
		base := int32(size * rng.IntN(graphs))
		s, t := base+int32(rng.IntN(size-1)), base+int32(rng.IntN(size-1))
		src, dst = append(src, s), append(dst, t)
		if t != 3 {
			hSrc, hDst = append(hSrc, s), append(hDst, t)
		}
		if s != 3 {
			hSrc, hDst = append(hSrc, t), append(hDst, s)
		}
	}
	virtual := int32(n - 1)
	for v := virtual - int32(size) + 1; v < virtual; v++ {
		hSrc, hDst = append(hSrc, v, virtual), append(hDst, virtual, v)
	}
	blocks, slots, err := expander.BlockNodes(graphID, graphs, 0)
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
		tensors.FromFlatDataAndDimensions(blocks, graphs, slots), f32(n, 3)}
}

// lossAndGradients returns the loss of a GPS layer on a batch (fusedBatchOf's layout) and
// its gradients with respect to the node states, edge states, interaction-edge embeddings
// and every trainable variable, computed on the backend given by spec.
func lossAndGradients(t *testing.T, spec string, cfg GPSConfig, batch []any) (res [][]float64, fusions map[string]int) {
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
	outs, g, err := exec.CallWithGraph(batch...)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if fusions, err = gobackend.Fusions(g.Executable()); err != nil {
		t.Fatal(err)
	}
	res = make([][]float64, len(outs))
	for i, o := range outs {
		res[i] = flat64(t, o)
	}
	return res, fusions
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
		t.Run(name, func(t *testing.T) { compareFused(t, cfg, fusedBatch, false, "GatherMulScatter") })
	}
}

// TestFusedKernelsEqualUnfusedAtScale is TestFusedKernelsEqualUnfused for the kernels
// that take only large enough tensors (affine rows, sums of centred squares, the
// logistic function's slopes, tall dense and Gram products: at least 1,024 to 2,048 rows
// or 16,384 elements): a GatedGCN + Exphormer layer with batch norms and the
// equivariant-stable PE gates, width 40, on four graphs of 150 nodes and 3,200 local
// edges, with the same isolated node, empty attention row and virtual node. The weights'
// gradients are sums over thousands of edges, which the Gram products add in another
// order: each gradient is held to 1e-5 of its tensor's largest magnitude (float32's
// rounding of such a sum, up to 1.5e-5 of the element itself here).
func TestFusedKernelsEqualUnfusedAtScale(t *testing.T) {
	cfg := GPSConfig{Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 4, AttentionDropout: 0.2}
	want := []string{"AffineRows", "GatherMulScatter", "GatheredDot", "GatheredOperand", "LogisticSlope", "ProductSum",
		"SegmentSoftmax", "TallGram", "ThresholdProduct"}
	if 40%gobackend.Float32Lanes() != 0 { // the tall dense kernel takes widths off the vector width
		want = append(want, "TallDense")
	}
	compareFused(t, cfg, func() []any { return fusedBatchOf(4, 150, 3200, 40) }, true, want...)
}

// compareFused holds the loss and gradients of a GPS layer on the backends "go" and
// "go:no_fusion" to each other, to 1e-5 relative (absolute below 1), of each element or,
// when normwise, of the tensor's largest magnitude, on batches made by batch (one for each
// backend: a tensor lives on one backend). The go backend must have fused something, and
// each kernel named in want (gobackend.Fusions), or the comparison tests nothing.
func compareFused(t *testing.T, cfg GPSConfig, batch func() []any, normwise bool, want ...string) {
	t.Helper()
	fused, fusions := lossAndGradients(t, "go", cfg, batch())
	plain, none := lossAndGradients(t, "go:no_fusion", cfg, batch())
	if len(none) != 0 {
		t.Errorf("go:no_fusion fused %v", none)
	}
	if len(fusions) == 0 {
		t.Fatal("the go backend fused nothing: the comparison would hold two unfused programs to each other")
	}
	for _, k := range want {
		if fusions[k] == 0 {
			t.Errorf("the go backend did not fuse %s (fused: %v): the layer's pattern for it no longer matches", k, fusions)
		}
	}
	for k := range plain {
		scale := 1.0
		for _, want := range plain[k] {
			if normwise {
				scale = max(scale, math.Abs(want))
			}
		}
		for i, want := range plain[k] {
			if got := fused[k][i]; !(math.Abs(got-want) <= 1e-5*max(scale, math.Abs(want))) {
				t.Fatalf("output %d (0: loss, then gradients) element %d: fused %.9g, unfused %.9g", k, i, got, want)
			}
		}
	}
}
