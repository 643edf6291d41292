package gexph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/core/tensors/bucketing"
)

// Padding names how batches are padded to bucketed shapes (TrainOptions.Padding):
//
//   - "none": exact shapes;
//   - "pow2": node, edge and graph counts rounded up to powers of two;
//   - "exp:B": rounded up to powers of B > 1 (e.g. "exp:1.4", finer buckets);
//   - "linear:S": rounded up to multiples of S;
//   - "" (auto): "pow2" for mini-batches of graphs, "none" for a transductive graph.
//
// Every new input shape is compiled — about a second for a GPS training graph even on
// the Go backend, seconds on XLA — so exact shapes would compile nearly every batch.
//
// Padding never changes results: padded nodes, edges and graphs are masked out of
// every sum, normalisation statistic and loss.
func parsePadding(spec string) (bucketing.Strategy, error) {
	name, arg, _ := strings.Cut(spec, ":")
	switch name {
	case "none":
		return nil, nil
	case "pow2":
		return bucketing.Pow2(), nil
	case "exp":
		b, err := strconv.ParseFloat(arg, 64)
		if err != nil || !(b > 1) {
			return nil, fmt.Errorf("padding %q: want exp:B with a base B > 1", spec)
		}
		return bucketing.Exponential(b), nil
	case "linear":
		s, err := strconv.Atoi(arg)
		if err != nil || s < 1 {
			return nil, fmt.Errorf("padding %q: want linear:S with a step S ≥ 1", spec)
		}
		return bucketing.Linear(s), nil
	}
	return nil, fmt.Errorf("padding %q: unknown (choices: \"none\", \"pow2\", \"exp:B\", \"linear:S\")", spec)
}

// hostInput is one model input held on the host: int32 or float32 values and their
// dimensions.
type hostInput struct {
	name string
	i32  []int32
	f32  []float32
	dims []int
}

func (h hostInput) tensor() *tensors.Tensor {
	if isFloatInput(h.name) {
		return tensors.FromFlatDataAndDimensions(h.f32, h.dims...)
	}
	return tensors.FromFlatDataAndDimensions(h.i32, h.dims...)
}

// isFloatInput tells the dtype of an input by its name (needed for empty inputs).
func isFloatInput(name string) bool {
	switch name {
	case "node_mask", "graph_mask", "edge_mask", "x", "x_val", "pe_vec", "pe_val", "pe_mask", "rwse", "e", "norm_mask", "targets", "weights":
		return true
	}
	return false
}

// hostBatch is a batch of graphs (or the whole graph of a transductive data set) ready to
// become model inputs: the disjoint union of its graphs, padded if asked, with its
// Exphormer interaction graph.
type hostBatch struct {
	// graphs lists the data set indices of the batch's graphs.
	graphs []int
	// Real and padded counts.
	numNodes, numGraphs, numEdges, numInteraction int
	padNodes, padGraphs, padEdges, padInteraction int
	// inputs in the model's input order.
	inputs []hostInput
	// rows is the number of real output rows (nodes for node tasks, graphs otherwise);
	// labels (classes) or targets (rows × outputs) describe them, and weights ≥ 0 says
	// which count in the loss (padded to the output's rows).
	rows    int
	labels  []int32
	targets []float32
	weights []float32
	// nodeOffset[g] is the first node of graph g (numGraphs+1 entries).
	nodeOffset []int
}

// tensors converts the batch's inputs to fresh tensors (executions take ownership).
func (b *hostBatch) tensors() []any {
	out := make([]any, len(b.inputs))
	for i, in := range b.inputs {
		out[i] = in.tensor()
	}
	return out
}

// interactionOptions returns the expander options of the model's interaction graph.
func (m *Model) interactionOptions() (expander.InteractionOptions, error) {
	c := m.cfg
	opts := expander.DefaultInteractionOptions()
	opts.Local = c.LocalEdges
	opts.Expander = c.ExpanderEdges
	opts.Global = c.GlobalEdges
	opts.VirtualNodes = m.numVirtual
	opts.Seed = c.Seed
	if c.ExpanderEdges {
		algo, err := expander.ParseAlgorithm(c.ExpanderAlgorithm)
		if err != nil {
			return opts, fmt.Errorf("config: expander_algorithm: %w", err)
		}
		opts.ExpanderAlgo = algo
		opts.ExpanderDegree = c.ExpanderDegree
	}
	return opts, nil
}

// buildBatch assembles graphs (data set indices) into a batch. lossNodes, for a
// transductive data set, lists the nodes whose labels enter the loss (all real rows
// otherwise).
func (m *Model) buildBatch(ds *data.Dataset, graphs []int, lossNodes []int) (*hostBatch, error) {
	if len(graphs) == 0 {
		return nil, fmt.Errorf("batch: no graphs")
	}
	b := &hostBatch{graphs: graphs, numGraphs: len(graphs), nodeOffset: make([]int, len(graphs)+1)}
	inputs := make([]expander.InputGraph, len(graphs))
	for i, gi := range graphs {
		if gi < 0 || gi >= len(ds.Graphs) {
			return nil, fmt.Errorf("batch: graph index %d outside [0, %d)", gi, len(ds.Graphs))
		}
		g := &ds.Graphs[gi]
		inputs[i] = expander.InputGraph{NumNodes: g.NumNodes, Src: g.Src, Dst: g.Dst, Seed: uint64(gi)}
		b.numNodes += g.NumNodes
		b.numEdges += len(g.Src)
		b.nodeOffset[i+1] = b.numNodes
	}
	var h *expander.Interaction
	if m.cfg.Attention == AttnExphormer {
		var err error
		if h, err = expander.BuildBatch(inputs, m.interaction); err != nil {
			return nil, fmt.Errorf("batch: interaction graph: %w", err)
		}
		b.numInteraction = h.NumEdges()
	}
	pad := func(n int) int { return n }
	b.padNodes, b.padGraphs, b.padEdges, b.padInteraction = b.numNodes, b.numGraphs, b.numEdges, b.numInteraction
	if m.padding != nil {
		pad = m.padding.Bucket
		// One padding node (in one padding graph) at least, to receive padded edges.
		b.padNodes, b.padGraphs = pad(b.numNodes+1), pad(b.numGraphs+1)
		b.padEdges, b.padInteraction = pad(max(b.numEdges, 1)), pad(max(b.numInteraction, 1))
	}
	np, gp, ep := b.padNodes, b.padGraphs, b.padEdges
	padNode := int32(b.numNodes) // first padding node (valid only when padding)
	add := func(in hostInput) { b.inputs = append(b.inputs, in) }

	// Node mask and graph of every node (padding nodes belong to graph numGraphs).
	mask := make([]float32, np)
	graphID := make([]int32, np)
	for i := range graphs {
		for v := b.nodeOffset[i]; v < b.nodeOffset[i+1]; v++ {
			mask[v] = 1
			graphID[v] = int32(i)
		}
	}
	for v := b.numNodes; v < np; v++ {
		graphID[v] = int32(b.numGraphs)
	}
	add(hostInput{name: "node_mask", f32: mask, dims: []int{np}})
	add(hostInput{name: "graph_id", i32: graphID, dims: []int{np}})
	graphMask := make([]float32, gp)
	for g := 0; g < b.numGraphs; g++ {
		graphMask[g] = 1
	}
	add(hostInput{name: "graph_mask", f32: graphMask, dims: []int{gp}})

	// Node features.
	if err := m.addNodeFeatures(b, ds, add); err != nil {
		return nil, err
	}
	// Positional encodings.
	if err := m.addPE(b, ds, add); err != nil {
		return nil, err
	}

	// Local edges (always given: the MPNN and the edge encoder use them).
	src, dst := make([]int32, ep), make([]int32, ep)
	for e := b.numEdges; e < ep; e++ {
		src[e], dst[e] = padNode, padNode
	}
	{
		e := 0
		for i, gi := range graphs {
			g := &ds.Graphs[gi]
			off := int32(b.nodeOffset[i])
			for k := range g.Src {
				src[e], dst[e] = g.Src[k]+off, g.Dst[k]+off
				e++
			}
		}
	}
	add(hostInput{name: "src", i32: src, dims: []int{ep}})
	add(hostInput{name: "dst", i32: dst, dims: []int{ep}})
	edgeMask := make([]float32, ep)
	for e := 0; e < b.numEdges; e++ {
		edgeMask[e] = 1
	}
	add(hostInput{name: "edge_mask", f32: edgeMask, dims: []int{ep}})
	if err := m.addEdgeFeatures(b, ds, add); err != nil {
		return nil, err
	}

	// Interaction graph: virtual node ids move behind the padded real nodes.
	if h != nil {
		hp := b.padInteraction
		hs, hd, source := make([]int32, hp), make([]int32, hp), make([]int32, hp)
		shift := int32(np - b.numNodes)
		nReal := int32(h.NumReal)
		for e := range h.Src {
			s, d := h.Src[e], h.Dst[e]
			if s >= nReal {
				s += shift
			}
			if d >= nReal {
				d += shift
			}
			hs[e], hd[e] = s, d
			switch expander.EdgeType(h.Type[e]) {
			case expander.EdgeLocal:
				source[e] = h.LocalEdge[e]
			case expander.EdgeExpander:
				source[e] = -layers.ExpanderEdgeType - 1
			case expander.EdgeGlobalIn:
				source[e] = -layers.VirtualInEdgeType(int(h.Virtual[e])) - 1
			case expander.EdgeGlobalOut:
				source[e] = -layers.VirtualOutEdgeType(int(h.Virtual[e])) - 1
			default:
				return nil, fmt.Errorf("batch: interaction edge %d has unknown type %d", e, h.Type[e])
			}
		}
		for e := len(h.Src); e < hp; e++ {
			hs[e], hd[e], source[e] = padNode, padNode, -layers.ExpanderEdgeType-1
		}
		add(hostInput{name: "h_src", i32: hs, dims: []int{hp}})
		add(hostInput{name: "h_dst", i32: hd, dims: []int{hp}})
		add(hostInput{name: "h_source", i32: source, dims: []int{hp}})
	}
	if m.cfg.Attention == AttnBigBird {
		bs, bd, err := layers.BigBirdPattern(graphID, bigBirdBlockSize, bigBirdRandomBlocks, expander.DeriveSeed(m.cfg.Seed, uint64(graphs[0])))
		if err != nil {
			return nil, fmt.Errorf("batch: BigBird pattern: %w", err)
		}
		n := len(bs)
		if m.padding != nil {
			n = m.padding.Bucket(max(n, 1))
		}
		for len(bs) < n {
			bs, bd = append(bs, padNode), append(bd, padNode)
		}
		add(hostInput{name: "bb_src", i32: bs, dims: []int{n}})
		add(hostInput{name: "bb_dst", i32: bd, dims: []int{n}})
	}
	// Normalisation mask: real and virtual nodes of real graphs.
	normMask := make([]float32, np+m.numVirtual*gp)
	copy(normMask, mask)
	for g := 0; g < b.numGraphs; g++ {
		for t := 0; t < m.numVirtual; t++ {
			normMask[np+g*m.numVirtual+t] = 1
		}
	}
	add(hostInput{name: "norm_mask", f32: normMask, dims: []int{len(normMask)}})

	// Labels and loss weights.
	if err := m.addLabels(b, ds, lossNodes, add); err != nil {
		return nil, err
	}
	if err := m.checkIndices(b); err != nil {
		return nil, err
	}
	return b, nil
}

// checkIndices verifies that every index input of b lies in range: gathers and scatters
// of the backend do not check bounds.
func (m *Model) checkIndices(b *hostBatch) error {
	numTypes := int32(layers.NumInteractionEdgeTypes(m.numVirtual))
	allNodes := int32(b.padNodes + m.numVirtual*b.padGraphs)
	for _, in := range b.inputs {
		lo, hi := int32(0), int32(-1)
		switch in.name {
		case "graph_id":
			hi = int32(b.padGraphs)
		case "src", "dst", "x_row", "bb_src", "bb_dst":
			hi = int32(b.padNodes)
		case "h_src", "h_dst":
			hi = allNodes
		case "h_source":
			lo, hi = -numTypes, int32(b.padEdges)
		case "labels":
			hi = int32(m.spec.numClasses)
		case "x_col":
			hi = int32(m.spec.node.cols)
		case "x_cat", "e_cat":
			card := m.spec.node.card
			if in.name == "e_cat" {
				card = m.spec.edge.card
			}
			for i, v := range in.i32 {
				if c := card[i%len(card)]; v < 0 || int(v) >= c {
					return fmt.Errorf("batch: %s[%d] = %d outside [0, %d)", in.name, i, v, c)
				}
			}
		}
		if hi < 0 {
			continue
		}
		for i, v := range in.i32 {
			if v < lo || v >= hi {
				return fmt.Errorf("batch: %s[%d] = %d outside [%d, %d)", in.name, i, v, lo, hi)
			}
		}
	}
	return nil
}

// addNodeFeatures adds the node features of the batch's graphs.
func (m *Model) addNodeFeatures(b *hostBatch, ds *data.Dataset, add func(hostInput)) error {
	spec := m.spec.node
	np := b.padNodes
	switch spec.kind {
	case data.Dense:
		x := make([]float32, np*spec.cols)
		for i, gi := range b.graphs {
			copy(x[b.nodeOffset[i]*spec.cols:], ds.Graphs[gi].Node.Dense)
		}
		add(hostInput{name: "x", f32: x, dims: []int{np, spec.cols}})
	case data.Categorical:
		x := make([]int32, np*spec.cols)
		for i, gi := range b.graphs {
			copy(x[b.nodeOffset[i]*spec.cols:], ds.Graphs[gi].Node.Categorical)
		}
		add(hostInput{name: "x_cat", i32: x, dims: []int{np, spec.cols}})
	case data.Sparse:
		nnz := 0
		for _, gi := range b.graphs {
			nnz += len(ds.Graphs[gi].Node.Indices)
		}
		nnzp := nnz
		if m.padding != nil {
			nnzp = m.padding.Bucket(max(nnz, 1))
		}
		rows, cols, vals := make([]int32, nnzp), make([]int32, nnzp), make([]float32, nnzp)
		k := 0
		for i, gi := range b.graphs {
			f := &ds.Graphs[gi].Node
			for r := 0; r < f.Rows; r++ {
				for p := f.Indptr[r]; p < f.Indptr[r+1]; p++ {
					rows[k], cols[k], vals[k] = int32(b.nodeOffset[i]+r), f.Indices[p], f.Values[p]
					k++
				}
			}
		}
		for ; k < nnzp; k++ {
			rows[k] = int32(b.numNodes) // a padding node, value 0
		}
		add(hostInput{name: "x_row", i32: rows, dims: []int{nnzp}})
		add(hostInput{name: "x_col", i32: cols, dims: []int{nnzp}})
		add(hostInput{name: "x_val", f32: vals, dims: []int{nnzp}})
	}
	return nil
}

// addEdgeFeatures adds the edge features of the batch's graphs.
func (m *Model) addEdgeFeatures(b *hostBatch, ds *data.Dataset, add func(hostInput)) error {
	spec := m.spec.edge
	ep := b.padEdges
	off := 0
	switch spec.kind {
	case data.Dense:
		e := make([]float32, ep*spec.cols)
		for _, gi := range b.graphs {
			f := &ds.Graphs[gi].Edge
			copy(e[off*spec.cols:], f.Dense)
			off += f.Rows
		}
		add(hostInput{name: "e", f32: e, dims: []int{ep, spec.cols}})
	case data.Categorical:
		e := make([]int32, ep*spec.cols)
		for _, gi := range b.graphs {
			f := &ds.Graphs[gi].Edge
			copy(e[off*spec.cols:], f.Categorical)
			off += f.Rows
		}
		add(hostInput{name: "e_cat", i32: e, dims: []int{ep, spec.cols}})
	}
	return nil
}

// addPE adds the positional encodings of the batch's graphs.
func (m *Model) addPE(b *hostBatch, ds *data.Dataset, add func(hostInput)) error {
	if m.cfg.PE == PENone {
		return nil
	}
	k := m.cfg.PESize
	np := b.padNodes
	vec := make([]float32, np*k)
	var val, mask []float32
	if m.cfg.PE != PERWSE {
		val, mask = make([]float32, np*k), make([]float32, np*k)
	}
	for i, gi := range b.graphs {
		pe, err := m.pe.get(ds, gi)
		if err != nil {
			return err
		}
		at := b.nodeOffset[i] * k
		copy(vec[at:], pe.vec)
		if mask != nil {
			copy(val[at:], pe.val)
			copy(mask[at:], pe.mask)
		}
	}
	if m.cfg.PE == PERWSE {
		add(hostInput{name: "rwse", f32: vec, dims: []int{np, k}})
		return nil
	}
	add(hostInput{name: "pe_vec", f32: vec, dims: []int{np, k}})
	if m.cfg.PE == PELap {
		add(hostInput{name: "pe_val", f32: val, dims: []int{np, k}})
	}
	add(hostInput{name: "pe_mask", f32: mask, dims: []int{np, k}})
	return nil
}

// addLabels adds the labels (or targets) and loss weights of the output rows.
func (m *Model) addLabels(b *hostBatch, ds *data.Dataset, lossNodes []int, add func(hostInput)) error {
	if m.spec.nodeLevel {
		np := b.padNodes
		b.rows = b.numNodes
		labels := make([]int32, np)
		weights := make([]float32, np)
		for i, gi := range b.graphs {
			copy(labels[b.nodeOffset[i]:], ds.Graphs[gi].NodeLabels)
		}
		if lossNodes != nil {
			for _, v := range lossNodes {
				weights[v] = 1
			}
		} else {
			for v := 0; v < b.numNodes; v++ {
				weights[v] = 1
			}
		}
		b.labels, b.weights = labels[:b.numNodes], weights
		add(hostInput{name: "labels", i32: labels, dims: []int{np}})
		add(hostInput{name: "weights", f32: weights, dims: []int{np}})
		return nil
	}
	gp := b.padGraphs
	b.rows = b.numGraphs
	weights := make([]float32, gp)
	for g := 0; g < b.numGraphs; g++ {
		weights[g] = 1
	}
	b.weights = weights
	if m.spec.task == data.GraphClassification {
		labels := make([]int32, gp)
		for i, gi := range b.graphs {
			labels[i] = ds.Graphs[gi].Label
		}
		b.labels = labels[:b.numGraphs]
		add(hostInput{name: "labels", i32: labels, dims: []int{gp}})
	} else {
		t := m.spec.numTargets
		targets := make([]float32, gp*t)
		for i, gi := range b.graphs {
			copy(targets[i*t:], ds.Graphs[gi].Targets)
		}
		b.targets = targets[:b.numGraphs*t]
		add(hostInput{name: "targets", f32: targets, dims: []int{gp, t}})
	}
	add(hostInput{name: "weights", f32: weights, dims: []int{gp}})
	return nil
}
