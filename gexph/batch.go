package gexph

import (
	"fmt"
	"slices"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
)

// Array is one model input held on the host: int32 or float32 values and their
// dimensions. The zero Array is an absent input.
type Array struct {
	// I32 and F32 hold the values, row-major; exactly one is used, as Float says.
	I32 []int32
	F32 []float32
	// Dims are the dimensions; nil for an absent input.
	Dims []int
	// Float tells the dtype (float32, else int32), also for an empty array.
	Float bool
}

func f32Array(values []float32, dims ...int) Array {
	return Array{F32: values, Dims: dims, Float: true}
}
func i32Array(values []int32, dims ...int) Array { return Array{I32: values, Dims: dims} }

// Present tells whether the input is given.
func (a Array) Present() bool { return a.Dims != nil }

// tensor returns a fresh tensor of the values (executions take ownership of inputs).
func (a Array) tensor() *tensors.Tensor {
	if a.Float {
		return tensors.FromFlatDataAndDimensions(a.F32, a.Dims...)
	}
	return tensors.FromFlatDataAndDimensions(a.I32, a.Dims...)
}

// Inputs are the model inputs of a batch: the same fields hold host arrays
// (Inputs[Array], in a Batch) and the graph nodes they become (Inputs[*Node], while the
// model is built), so a field's name is checked by the compiler on both sides. Which
// fields are present depends on the configuration and the data set's features, never
// on the batch. N counts the (padded) real node rows, G the (padded) graphs, E the
// (padded) local edges, H the (padded) interaction edges and V = G·VirtualNodes.
type Inputs[T any] struct {
	// NodeMask [N] is 1 for real nodes, 0 for padding; GraphID [N] gives each node's
	// graph (padding nodes belong to the padding graph); GraphMask [G] is 1 for real
	// graphs.
	NodeMask, GraphID, GraphMask T
	// Node features, one form by kind: X [N, F] dense (also sparse features the model
	// feeds dense); XCat [N, C] categorical codes; XRow, XCol, XVal [nnz] a sparse
	// matrix's coordinates and values.
	X, XCat, XRow, XCol, XVal T
	// Positional encodings: PEVec [N, K] eigenvectors (lappe, eslappe), PEVal [N, K]
	// their eigenvalues (lappe), PEMask [N, K] valid slots; RWSE [N, K].
	PEVec, PEVal, PEMask, RWSE T
	// Local edges Src → Dst [E] (padding edges join the first padding node to itself),
	// EdgeMask [E]; their features E [E, F] dense or ECat [E, C] categorical.
	Src, Dst, EdgeMask, E, ECat T
	// Interaction graph of Exphormer: HSrc → HDst [H] over N + V node rows, and
	// HSource [H], each edge's attention embedding (expander.Interaction.EdgeSources).
	HSrc, HDst, HSource T
	// BigBird's pattern BBSrc → BBDst.
	BBSrc, BBDst T
	// BlockNodes [G, S] lays the nodes out in per-graph blocks (expander.BlockNodes),
	// for full and Performer attention.
	BlockNodes T
	// NormMask [N + V] marks the rows entering normalisation statistics: real and
	// virtual nodes of real graphs.
	NormMask T
	// LayerHSrc → LayerHDst [L, E_k] and LayerHSource [L, E_k] replace HSrc, HDst and
	// HSource when each layer attends over its own edges (ModelOptions.LayerGraphs);
	// shorter layers are padded with edges joining the first padding node to itself.
	LayerHSrc, LayerHDst, LayerHSource T
	// InDegree [N + V] is each row's number of incoming local edges in the whole graph,
	// which gcn normalises by; given in mini-batches and layer-wise inference only (a
	// batch's own edges otherwise), whose edges are a part of the graph's.
	InDegree T
	// Labels [rows] (classes) or Targets [rows, T]; Weights [rows] is each output row's
	// weight in the loss (0 for padding and for nodes outside the split being fitted).
	Labels, Targets, Weights T
}

// fields lists pointers to every field of in, in one fixed order: the order of the
// executor's inputs.
func (in *Inputs[T]) fields() []*T {
	return []*T{
		&in.NodeMask, &in.GraphID, &in.GraphMask,
		&in.X, &in.XCat, &in.XRow, &in.XCol, &in.XVal,
		&in.PEVec, &in.PEVal, &in.PEMask, &in.RWSE,
		&in.Src, &in.Dst, &in.EdgeMask, &in.E, &in.ECat,
		&in.HSrc, &in.HDst, &in.HSource,
		&in.BBSrc, &in.BBDst,
		&in.BlockNodes,
		&in.NormMask, &in.InDegree,
		&in.LayerHSrc, &in.LayerHDst, &in.LayerHSource,
		&in.Labels, &in.Targets, &in.Weights,
	}
}

// Batch is a batch of graphs (or the whole graph of a transductive data set) ready for
// the model: the disjoint union of its graphs, padded as the model's padding says, with
// its Exphormer interaction graph. Model.BuildBatch makes one.
type Batch struct {
	// Graphs lists the data set indices of the batch's graphs.
	Graphs []int
	// Real counts of nodes, graphs, local edges and interaction edges.
	NumNodes, NumGraphs, NumEdges, NumInteraction int
	// Padded counts (equal to the real ones without padding).
	PadNodes, PadGraphs, PadEdges, PadInteraction int
	// NodeOffset[i] is the first node of the batch's graph i (NumGraphs+1 entries), as
	// expander.Layout lays the batch out.
	NodeOffset []int
	// Rows is the number of real output rows (nodes for node tasks, graphs otherwise);
	// Labels (classes) or Targets (Rows × outputs) describe them, and Weights (padded
	// rows) says which count in the loss.
	Rows    int
	Labels  []int32
	Targets []float32
	Weights []float32
	// Inputs are the model inputs.
	Inputs Inputs[Array]

	// padding is the batch's padding (nil: none).
	padding *padding
	// padded are the padded sizes (zero without padding).
	padded batchDims
	// interaction is the batch's interaction graph (nil without Exphormer attention).
	interaction *expander.Interaction
	// device holds the inputs as tensors once a step or pass has used them: they live on
	// the backend's device from then on, so a batch used again (the graph of a
	// transductive data set, every epoch) is not converted and copied again.
	device []any
}

// tensors returns the present inputs as tensors, in the fields' order, converting them
// on first use (executions do not take ownership of them).
func (b *Batch) tensors() []any {
	if b.device == nil {
		for _, a := range b.Inputs.fields() {
			if a.Present() {
				b.device = append(b.device, a.tensor())
			}
		}
	}
	return b.device
}

// Release frees the batch's tensors on the backend's device (they are made again if the
// batch is used later). A batch used once should be released after use, so its memory
// returns before the next batch needs it.
func (b *Batch) Release() {
	for _, t := range b.device {
		t.(*tensors.Tensor).FinalizeAll()
	}
	b.device = nil
}

// presence returns which input fields are present, in the fields' order.
func (b *Batch) presence() []bool {
	fs := b.Inputs.fields()
	p := make([]bool, len(fs))
	for i, a := range fs {
		p[i] = a.Present()
	}
	return p
}

// shapeKey identifies the input shapes of a batch.
func (b *Batch) shapeKey() string {
	var key []byte
	for _, a := range b.Inputs.fields() {
		key = fmt.Appendf(key, "%v;", a.Dims)
	}
	return string(key)
}

// bindInputs names the executor's graph inputs: ins are the present fields in order.
func bindInputs(presence []bool, ins []*Node) (*Inputs[*Node], error) {
	bound := &Inputs[*Node]{}
	next := 0
	for i, f := range bound.fields() {
		if !presence[i] {
			continue
		}
		if next >= len(ins) {
			return nil, fmt.Errorf("model: %d inputs for %d present fields", len(ins), next+1)
		}
		*f = ins[next]
		next++
	}
	if next != len(ins) {
		return nil, fmt.Errorf("model: %d inputs for %d present fields", len(ins), next)
	}
	return bound, nil
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
		opts.ExpanderAlgo = c.ExpanderAlgorithm
		opts.ExpanderDegree = c.ExpanderDegree
		opts.Certify = !c.ExpanderUncertified
	}
	return opts, nil
}

// BuildBatch assembles graphs (data set indices) into a batch for the model, padded as
// its training batches are (to the training shapes of a plan, see parsePadding).
// lossNodes, for a transductive data set, lists the nodes whose labels enter the loss
// (nil: all real rows). These are the batches the model runs on where
// WholeGraphBatches says so; a model of sampled mini-batches or of per-layer attention
// graphs builds its own (run_sampled.go, run_layergraphs.go).
func (m *Model) BuildBatch(ds *data.Dataset, graphs []int, lossNodes []int) (*Batch, error) {
	return m.buildBatch(ds, graphs, lossNodes, nil, m.padding)
}

// buildBatch is BuildBatch with the batch's interaction graph h given (nil: drawn from
// the graphs as the model's options say; ignored without Exphormer attention) and its
// padding (nil: none).
func (m *Model) buildBatch(ds *data.Dataset, graphs []int, lossNodes []int, h *expander.Interaction, padding *padding) (*Batch, error) {
	if len(graphs) == 0 {
		return nil, fmt.Errorf("batch: no graphs")
	}
	b := &Batch{Graphs: graphs, NumGraphs: len(graphs), NodeOffset: make([]int, len(graphs)+1), padding: padding}
	inputs := make([]expander.InputGraph, len(graphs))
	for i, gi := range graphs {
		if gi < 0 || gi >= len(ds.Graphs) {
			return nil, fmt.Errorf("batch: graph index %d outside [0, %d)", gi, len(ds.Graphs))
		}
		g := &ds.Graphs[gi]
		inputs[i] = expander.InputGraph{NumNodes: g.NumNodes, Src: g.Src, Dst: g.Dst, Seed: uint64(gi)}
	}
	layout, err := expander.Layout(inputs, expander.InteractionOptions{})
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	for i, off := range layout.NodeOffset {
		b.NodeOffset[i] = int(off)
	}
	b.NumNodes, b.NumEdges = layout.NumReal, int(layout.EdgeOffset[len(graphs)])
	if m.cfg.Attention.Layout() != layers.OverInteractionGraph {
		h = nil
	} else {
		if h == nil {
			if h, err = m.draws.BuildBatch(inputs, m.interaction); err != nil {
				return nil, fmt.Errorf("batch: interaction graph: %w", err)
			}
		}
		b.NumInteraction = h.NumEdges()
		b.interaction = h
	}
	b.PadNodes, b.PadGraphs, b.PadEdges, b.PadInteraction = b.NumNodes, b.NumGraphs, b.NumEdges, b.NumInteraction
	if b.padding == nil {
		// Without padding an empty edge list would reach the backend as a tensor of
		// size 0, which its broadcasts reject with an internal error.
		if b.NumEdges == 0 && m.cfg.MPNN.PassesMessages() {
			return nil, fmt.Errorf("batch: %s without any edge: the local model %q needs at least one edge per batch (\"mpnn\": \"none\" trains attention alone; padded batches, the default -padding plan or pow2, also work)",
				batchGraphsText(ds, graphs), m.cfg.MPNN)
		}
		if h != nil && b.NumInteraction == 0 {
			return nil, fmt.Errorf("batch: %s: the interaction graph has no edge (no input edges, expander_degree 0 and no virtual nodes)", batchGraphsText(ds, graphs))
		}
	}
	if b.padding != nil {
		b.padded = b.padding.pad(m.padNeed(m.realDims(ds, b)))
		b.PadNodes, b.PadGraphs, b.PadEdges, b.PadInteraction = b.padded.Nodes, b.padded.Graphs, b.padded.Edges, b.padded.Interaction
	}
	in := &b.Inputs
	m.addNodeLayout(b, in)
	m.addNodeFeatures(b, ds, in)
	if err := m.addPE(b, ds, in); err != nil {
		return nil, err
	}
	m.addLocalEdges(b, ds, in)
	if err := m.addAttentionLayout(b, h, in); err != nil {
		return nil, err
	}
	m.addLabels(b, ds, lossNodes, in)
	if err := m.checkIndices(b); err != nil {
		return nil, err
	}
	return b, nil
}

// batchGraphsText names a batch's graphs for an error: the data set itself when it has
// one graph, else the first graph indices.
func batchGraphsText(ds *data.Dataset, graphs []int) string {
	if len(ds.Graphs) == 1 {
		return fmt.Sprintf("data set %q", ds.Name)
	}
	if len(graphs) > 5 {
		return fmt.Sprintf("data set %q, graphs %v… (%d)", ds.Name, graphs[:5], len(graphs))
	}
	return fmt.Sprintf("data set %q, graphs %v", ds.Name, graphs)
}

// realDims returns the real sizes of batch b of ds (whose counts are set).
func (m *Model) realDims(ds *data.Dataset, b *Batch) batchDims {
	d := batchDims{Nodes: b.NumNodes, Graphs: b.NumGraphs, Edges: b.NumEdges, Interaction: b.NumInteraction}
	if m.sparseFed() {
		for _, gi := range b.Graphs {
			d.NNZ += len(ds.Graphs[gi].Node.Indices)
		}
	}
	if m.cfg.Attention.Layout() == layers.OverGraphBlocks {
		d.Block = b.largestGraph()
	}
	return d
}

// largestGraph returns the node count of the batch's largest graph.
func (b *Batch) largestGraph() int {
	largest := 0
	for i := range b.Graphs {
		largest = max(largest, b.NodeOffset[i+1]-b.NodeOffset[i])
	}
	return largest
}

// addNodeLayout adds the node and graph masks, each node's graph and the
// normalisation mask.
func (m *Model) addNodeLayout(b *Batch, in *Inputs[Array]) {
	np, gp := b.PadNodes, b.PadGraphs
	mask := make([]float32, np)
	graphID := make([]int32, np)
	for i := range b.Graphs {
		for v := b.NodeOffset[i]; v < b.NodeOffset[i+1]; v++ {
			mask[v] = 1
			graphID[v] = int32(i)
		}
	}
	for v := b.NumNodes; v < np; v++ {
		graphID[v] = int32(b.NumGraphs) // Padding nodes belong to the padding graph.
	}
	graphMask := make([]float32, gp)
	for g := range b.NumGraphs {
		graphMask[g] = 1
	}
	// Normalisation statistics: real and virtual nodes of real graphs.
	normMask := make([]float32, np+m.numVirtual*gp)
	copy(normMask, mask)
	for g := range b.NumGraphs {
		for t := range m.numVirtual {
			normMask[np+g*m.numVirtual+t] = 1
		}
	}
	in.NodeMask, in.GraphID, in.GraphMask = f32Array(mask, np), i32Array(graphID, np), f32Array(graphMask, gp)
	in.NormMask = f32Array(normMask, len(normMask))
}

// addNodeFeatures adds the node features of the batch's graphs.
func (m *Model) addNodeFeatures(b *Batch, ds *data.Dataset, in *Inputs[Array]) {
	spec := m.spec.node
	np := b.PadNodes
	switch spec.kind {
	case data.Dense:
		x := make([]float32, np*spec.cols)
		for i, gi := range b.Graphs {
			copy(x[b.NodeOffset[i]*spec.cols:], ds.Graphs[gi].Node.Dense)
		}
		in.X = f32Array(x, np, spec.cols)
	case data.Categorical:
		x := make([]int32, np*spec.cols)
		for i, gi := range b.Graphs {
			copy(x[b.NodeOffset[i]*spec.cols:], ds.Graphs[gi].Node.Categorical)
		}
		in.XCat = i32Array(x, np, spec.cols)
	case data.Sparse:
		if m.densify {
			x := make([]float32, np*spec.cols)
			for i, gi := range b.Graphs {
				ds.Graphs[gi].Node.AddDenseTo(x[b.NodeOffset[i]*spec.cols:])
			}
			in.X = f32Array(x, np, spec.cols)
			return
		}
		nnz := 0
		for _, gi := range b.Graphs {
			nnz += len(ds.Graphs[gi].Node.Indices)
		}
		nnzp := nnz
		if b.padding != nil {
			nnzp = b.padded.NNZ
		}
		rows, cols, vals := make([]int32, nnzp), make([]int32, nnzp), make([]float32, nnzp)
		k := 0
		for i, gi := range b.Graphs {
			f := &ds.Graphs[gi].Node
			for r := 0; r < f.Rows; r++ {
				for p := f.Indptr[r]; p < f.Indptr[r+1]; p++ {
					rows[k], cols[k], vals[k] = int32(b.NodeOffset[i]+r), f.Indices[p], f.Values[p]
					k++
				}
			}
		}
		for ; k < nnzp; k++ {
			rows[k] = int32(b.NumNodes) // A padding node, value 0.
		}
		in.XRow, in.XCol, in.XVal = i32Array(rows, nnzp), i32Array(cols, nnzp), f32Array(vals, nnzp)
	}
}

// addPE adds the positional encodings of the batch's graphs.
func (m *Model) addPE(b *Batch, ds *data.Dataset, in *Inputs[Array]) error {
	if m.cfg.PE == PENone {
		return nil
	}
	k := m.cfg.PESize
	np := b.PadNodes
	vec := make([]float32, np*k)
	var val, mask []float32
	if m.cfg.PE != PERWSE {
		val, mask = make([]float32, np*k), make([]float32, np*k)
	}
	for i, gi := range b.Graphs {
		pe, err := m.pe.Get(ds, gi)
		if err != nil {
			return err
		}
		at := b.NodeOffset[i] * k
		copy(vec[at:], pe.Vec)
		if mask != nil {
			copy(val[at:], pe.Val)
			copy(mask[at:], pe.Mask)
		}
	}
	switch m.cfg.PE {
	case PERWSE:
		in.RWSE = f32Array(vec, np, k)
	case PELap:
		in.PEVec, in.PEVal, in.PEMask = f32Array(vec, np, k), f32Array(val, np, k), f32Array(mask, np, k)
	default:
		in.PEVec, in.PEMask = f32Array(vec, np, k), f32Array(mask, np, k)
	}
	return nil
}

// addLocalEdges adds the local edges (always given: the MPNN and the edge encoder use
// them), their mask and their features.
func (m *Model) addLocalEdges(b *Batch, ds *data.Dataset, in *Inputs[Array]) {
	ep := b.PadEdges
	padNode := int32(b.NumNodes) // The first padding node (valid only when padding).
	src, dst, edgeMask := make([]int32, ep), make([]int32, ep), make([]float32, ep)
	e := 0
	for i, gi := range b.Graphs {
		g := &ds.Graphs[gi]
		off := int32(b.NodeOffset[i])
		for k := range g.Src {
			src[e], dst[e], edgeMask[e] = g.Src[k]+off, g.Dst[k]+off, 1
			e++
		}
	}
	for ; e < ep; e++ {
		src[e], dst[e] = padNode, padNode
	}
	in.Src, in.Dst, in.EdgeMask = i32Array(src, ep), i32Array(dst, ep), f32Array(edgeMask, ep)

	spec := m.spec.edge
	switch spec.kind {
	case data.Dense:
		x := make([]float32, ep*spec.cols)
		off := 0
		for _, gi := range b.Graphs {
			f := &ds.Graphs[gi].Edge
			copy(x[off*spec.cols:], f.Dense)
			off += f.Rows
		}
		in.E = f32Array(x, ep, spec.cols)
	case data.Categorical:
		x := make([]int32, ep*spec.cols)
		off := 0
		for _, gi := range b.Graphs {
			f := &ds.Graphs[gi].Edge
			copy(x[off*spec.cols:], f.Categorical)
			off += f.Rows
		}
		in.ECat = i32Array(x, ep, spec.cols)
	}
}

// addAttentionLayout adds what the configured attention needs: the interaction graph h
// of Exphormer (virtual nodes placed behind the padded real nodes), BigBird's pattern,
// or the per-graph blocks of full and Performer attention.
func (m *Model) addAttentionLayout(b *Batch, h *expander.Interaction, in *Inputs[Array]) error {
	padNode := int32(b.NumNodes)
	switch m.cfg.Attention.Layout() {
	case layers.OverInteractionGraph:
		hp := b.PadInteraction
		src, dst, source, err := h.PaddedEdges(b.PadNodes, hp)
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		in.HSrc, in.HDst, in.HSource = i32Array(src, hp), i32Array(dst, hp), i32Array(source, hp)
	case layers.OverPattern:
		bs, bd, err := expander.BigBirdPattern(in.GraphID.I32, bigBirdBlockSize, bigBirdRandomBlocks, expander.DeriveSeed(m.cfg.Seed, uint64(b.Graphs[0])))
		if err != nil {
			return fmt.Errorf("batch: BigBird pattern: %w", err)
		}
		n := len(bs)
		if b.padding != nil {
			n = b.padding.bucket(max(n, 1))
		}
		for len(bs) < n {
			bs, bd = append(bs, padNode), append(bd, padNode)
		}
		in.BBSrc, in.BBDst = i32Array(bs, n), i32Array(bd, n)
	case layers.OverGraphBlocks:
		// Padding nodes are in no block; the block size is the largest graph's, padded.
		graphOf := make([]int32, b.PadNodes)
		copy(graphOf, in.GraphID.I32)
		for v := b.NumNodes; v < b.PadNodes; v++ {
			graphOf[v] = -1
		}
		size := b.largestGraph()
		if b.padding != nil {
			size = b.padded.Block
		}
		blocks, size, err := expander.BlockNodes(graphOf, b.PadGraphs, size)
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		in.BlockNodes = i32Array(blocks, b.PadGraphs, size)
	}
	return nil
}

// addLabels adds the labels (or targets) and loss weights of the output rows.
func (m *Model) addLabels(b *Batch, ds *data.Dataset, lossNodes []int, in *Inputs[Array]) {
	if m.spec.nodeLevel {
		np := b.PadNodes
		b.Rows = b.NumNodes
		labels, weights := make([]int32, np), make([]float32, np)
		for i, gi := range b.Graphs {
			copy(labels[b.NodeOffset[i]:], ds.Graphs[gi].NodeLabels)
		}
		if lossNodes != nil {
			for _, v := range lossNodes {
				weights[v] = 1
			}
		} else {
			for v := range b.NumNodes {
				weights[v] = 1
			}
		}
		// Unlabelled nodes (data.Unlabelled) weigh nothing in the loss and the
		// metrics; the model sees class 0 in their place.
		hostLabels := labels[:b.NumNodes]
		if slices.Contains(hostLabels, data.Unlabelled) {
			hostLabels = slices.Clone(hostLabels)
			for v, y := range labels[:b.NumNodes] {
				if y == data.Unlabelled {
					labels[v], weights[v] = 0, 0
				}
			}
		}
		b.Labels, b.Weights = hostLabels, weights
		in.Labels, in.Weights = i32Array(labels, np), f32Array(weights, np)
		return
	}
	gp := b.PadGraphs
	b.Rows = b.NumGraphs
	weights := make([]float32, gp)
	for g := range b.NumGraphs {
		// Unlabelled graphs (data to predict on) weigh nothing.
		if !ds.Unlabelled {
			weights[g] = 1
		}
	}
	b.Weights = weights
	in.Weights = f32Array(weights, gp)
	if m.spec.task == data.GraphClassification {
		labels := make([]int32, gp)
		for i, gi := range b.Graphs {
			labels[i] = ds.Graphs[gi].Label
		}
		b.Labels = slices.Clone(labels[:b.NumGraphs])
		for i, y := range labels {
			labels[i] = max(y, 0) // the model sees class 0 for an unlabelled graph
		}
		in.Labels = i32Array(labels, gp)
		return
	}
	t := m.spec.numTargets
	targets := make([]float32, gp*t)
	for i, gi := range b.Graphs {
		copy(targets[i*t:], ds.Graphs[gi].Targets)
	}
	b.Targets = targets[:b.NumGraphs*t]
	in.Targets = f32Array(targets, gp, t)
}

// checkIndices verifies that every index input of b lies in range: gathers and scatters
// of the backend do not check bounds.
func (m *Model) checkIndices(b *Batch) error {
	in := &b.Inputs
	np, gp := int32(b.PadNodes), int32(b.PadGraphs)
	allNodes := np + int32(m.numVirtual)*gp
	numTypes := int32(expander.NumLearnedEdgeTypes(m.numVirtual))
	ranges := []struct {
		name   string
		a      Array
		lo, hi int32
	}{
		{"graph_id", in.GraphID, 0, gp},
		{"src", in.Src, 0, np}, {"dst", in.Dst, 0, np},
		{"x_row", in.XRow, 0, np}, {"x_col", in.XCol, 0, int32(m.spec.node.cols)},
		{"bb_src", in.BBSrc, 0, np}, {"bb_dst", in.BBDst, 0, np},
		{"h_src", in.HSrc, 0, allNodes}, {"h_dst", in.HDst, 0, allNodes},
		{"h_source", in.HSource, -numTypes, int32(b.PadEdges)},
		{"layer_h_src", in.LayerHSrc, 0, allNodes}, {"layer_h_dst", in.LayerHDst, 0, allNodes},
		{"layer_h_source", in.LayerHSource, -numTypes, int32(b.PadEdges)},
		{"block_nodes", in.BlockNodes, -1, np},
		{"labels", in.Labels, 0, int32(m.spec.numClasses)},
	}
	for _, r := range ranges {
		for i, v := range r.a.I32 {
			if v < r.lo || v >= r.hi {
				return fmt.Errorf("batch: %s[%d] = %d outside [%d, %d)", r.name, i, v, r.lo, r.hi)
			}
		}
	}
	for _, c := range []struct {
		name string
		a    Array
		card []int
	}{{"x_cat", in.XCat, m.spec.node.card}, {"e_cat", in.ECat, m.spec.edge.card}} {
		for i, v := range c.a.I32 {
			if card := c.card[i%len(c.card)]; v < 0 || int(v) >= card {
				return fmt.Errorf("batch: %s[%d] = %d outside [0, %d)", c.name, i, v, card)
			}
		}
	}
	return nil
}
