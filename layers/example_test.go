package layers_test

import (
	"fmt"

	_ "github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
)

// gpsModel is the package documentation's example: one GPS layer (GatedGCN and Exphormer
// attention) on a batch with one virtual node per graph.
func gpsModel(scope *model.Scope, x, e, src, dst, hSrc, hDst, hSource, nodeMask *Node, numGraphs int) *Node {
	emb := layers.MixedEdgeEmbedding(scope.In("edges"), e, hSource, expander.NumLearnedEdgeTypes(1))
	h := layers.AppendVirtualNodes(scope.In("virtual"), x, 1, numGraphs)
	cfg := layers.GPSConfig{Local: layers.LocalGatedGCN, Global: layers.GlobalExphormer,
		Norm: layers.NormBatch, Heads: 4, Dropout: 0.1}
	h, _ = layers.NewGPSLayer(scope.In("gps"), h, cfg).
		LocalEdges(src, dst, e).AttentionEdges(hSrc, hDst, emb).NormMask(nodeMask).Done()
	return h
}

func Example() {
	backend, err := layers.NewBackend("go")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer backend.Finalize()
	// One graph: a triangle 0-1-2 (local edges both ways) and virtual node 3.
	const d = 8
	src := []int32{0, 1, 1, 2, 2, 0}
	dst := []int32{1, 0, 2, 1, 0, 2}
	// Interaction edges: the local ones (source = local edge index) plus real ↔ virtual
	// (source = −type − 1), the codes of expander.Interaction.EdgeSources.
	hSrc := []int32{0, 1, 1, 2, 2, 0, 0, 1, 2, 3, 3, 3}
	hDst := []int32{1, 0, 2, 1, 0, 2, 3, 3, 3, 0, 1, 2}
	in := -expander.LearnedEdgeType(expander.EdgeGlobalIn, 0) - 1
	out := -expander.LearnedEdgeType(expander.EdgeGlobalOut, 0) - 1
	hSource := []int32{0, 1, 2, 3, 4, 5, in, in, in, out, out, out}
	nodeMask := []bool{true, true, true, false}
	x := tensors.FromFlatDataAndDimensions(make([]float32, 3*d), 3, d)
	e := tensors.FromFlatDataAndDimensions(make([]float32, 6*d), 6, d)

	store := model.NewStore()
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, g *Graph, in []*Node) *Node {
		return gpsModel(scope, in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], 1)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	outs, err := exec.Call(x, e, src, dst, hSrc, hDst, hSource, nodeMask)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(outs[0].Shape())
	// Output: (Float32)[4, 8]
}
