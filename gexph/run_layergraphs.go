package gexph

import (
	"fmt"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/gomlx/core/tensors/bucketing"
)

// layerGraphRunner runs Spexphormer's second stage: the whole graph of a transductive
// data set as wholeGraph runs it, each layer attending over its own edges of the
// interaction graph (ModelOptions.LayerGraphs). Its batches carry one edge list per
// layer (Inputs.LayerHSrc, …) in place of the interaction graph's.
type layerGraphRunner struct{ *wholeGraph }

// newLayerGraphRunner returns the runner of the graph with the attention graphs lg.
// Its batches are padded only to give the per-layer edge lists one length, with edges
// of one padding node.
func newLayerGraphRunner(m *Model, lg *LayerGraphs) *layerGraphRunner {
	m.padding = &padding{strategy: bucketing.Linear(1)}
	m.evalPadding = m.padding
	return &layerGraphRunner{&wholeGraph{m: m, build: func(ds *data.Dataset, lossNodes []int) (*Batch, error) {
		b, err := m.buildBatch(ds, []int{0}, lossNodes, lg.H, m.padding)
		if err != nil {
			return nil, err
		}
		lg.replaceEdges(&b.Inputs)
		if err := m.checkIndices(b); err != nil {
			return nil, err
		}
		return b, nil
	}}}
}

// LayerGraphs are Spexphormer's per-layer sparse attention graphs: layer l attends only
// over the edges Edges[l] (indices into H's edges, grouped by destination) of H.
type LayerGraphs struct {
	H     *expander.Interaction
	Edges [][]int64
}

// check verifies that the layer graphs fit a model of cfg (checkWay has checked that
// it runs a transductive graph whole).
func (lg *LayerGraphs) check(cfg Config) error {
	switch {
	case cfg.Attention.Layout() != layers.OverInteractionGraph:
		return fmt.Errorf("model: per-layer attention graphs need attention over the interaction graph (%q), got %q", layers.GlobalExphormer, cfg.Attention)
	case lg.H == nil || len(lg.Edges) != cfg.Layers:
		return fmt.Errorf("model: %d per-layer attention graphs for %d layers", len(lg.Edges), cfg.Layers)
	}
	if virtual := cfg.VirtualNodes * btoi(cfg.GlobalEdges); lg.H.VirtualPerGraph != virtual {
		return fmt.Errorf("model: the attention graphs have %d virtual nodes, the config %d", lg.H.VirtualPerGraph, virtual)
	}
	for l, edges := range lg.Edges {
		for _, e := range edges {
			if e < 0 || int(e) >= lg.H.NumEdges() {
				return fmt.Errorf("model: attention graph of layer %d: edge %d outside [0, %d)", l, e, lg.H.NumEdges())
			}
		}
	}
	return nil
}

// replaceEdges replaces the interaction edges of a batch's inputs (HSrc → HDst, HSource,
// over lg.H) by the per-layer edge lists: row l of LayerHSrc, LayerHDst and
// LayerHSource holds layer l's edges of H (their endpoints and source codes as the
// batch has them), padded to one length with H's padding edge.
func (lg *LayerGraphs) replaceEdges(in *Inputs[Array]) {
	src, dst, source := in.HSrc.I32, in.HDst.I32, in.HSource.I32
	ek := 1
	for _, edges := range lg.Edges {
		ek = max(ek, len(edges))
	}
	n := len(lg.Edges) * ek
	ls, ld, lsrc := make([]int32, n), make([]int32, n), make([]int32, n)
	ps, pd, pc := lg.H.PaddingEdge()
	for l, edges := range lg.Edges {
		for i := range ek {
			at := l*ek + i
			if i >= len(edges) {
				ls[at], ld[at], lsrc[at] = ps, pd, pc
				continue
			}
			e := edges[i]
			ls[at], ld[at], lsrc[at] = src[e], dst[e], source[e]
		}
	}
	nl := len(lg.Edges)
	in.LayerHSrc, in.LayerHDst, in.LayerHSource = i32Array(ls, nl, ek), i32Array(ld, nl, ek), i32Array(lsrc, nl, ek)
	in.HSrc, in.HDst, in.HSource = Array{}, Array{}, Array{}
}
