package gexph

import (
	"math"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/expander"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// nodeEmbeddingDim is the width of the encoded node features (the PE embedding fills
// the rest of HiddenDim for lappe and rwse; a classic model's first layer reads its k
// input maps of width HiddenDim from one encoding of width k·HiddenDim).
func (m *Model) nodeEmbeddingDim() int {
	if k := m.cfg.gpsConfig().ClassicInputMaps(); k > 0 {
		return k * m.cfg.HiddenDim
	}
	if m.cfg.PE == PELap || m.cfg.PE == PERWSE {
		return m.cfg.HiddenDim - m.cfg.PEDim
	}
	return m.cfg.HiddenDim
}

// needEdgeStates tells whether the model uses encoded local edge features.
func (m *Model) needEdgeStates() bool {
	return m.cfg.MPNN.UsesEdgeFeatures() || (m.cfg.Attention.Layout() == layers.OverInteractionGraph && m.cfg.LocalEdges)
}

// gpsConfig returns the layers package's GPS configuration.
func (m *Model) gpsConfig() layers.GPSConfig { return m.cfg.gpsConfig() }

// modelGraph builds the model: encoders, virtual nodes, GPS layers and the head.
// It returns the outputs [rows, outDim].
func (m *Model) modelGraph(scope *model.Scope, in *Inputs[*Node]) *Node {
	scope = scope.WithInitializer(layers.FanInUniform(scope))
	h, ed := m.encodeGraph(scope, in, true)
	e := ed.e
	for l := 0; l < m.cfg.Layers; l++ {
		h, e = m.layerGraph(scope, l, h, e, in, ed, nil)
	}
	return m.headGraph(scope, h, in)
}

// edgeInputs are what the layers read besides the node states: the encoded local edges
// (e materialised, or the rows of eTable at eIndex), the attention's edge table and index,
// and the equivariant-stable PE distances.
type edgeInputs struct {
	e, eTable, eIndex, attnTable, attnIndex, peDist *Node
	// firstMaps are the input maps of a classic model's first layer (encodeFirstMaps),
	// which reads them in place of node states.
	firstMaps []*Node
}

// encodeGraph builds the encoders: with nodes, the node states [N + V, D] entering the
// first layer (features, positional encodings, pre-MP layers, virtual nodes), or for
// block classic the first layer's input maps (ed.firstMaps, h nil); always the encoded
// edges. scope carries the model's initializer.
func (m *Model) encodeGraph(scope *model.Scope, in *Inputs[*Node], nodes bool) (h *Node, ed edgeInputs) {
	cfg := m.cfg
	d := cfg.HiddenDim
	dtype := m.dtype
	g := in.NodeMask.Graph()
	gp := in.GraphMask.Shape().Dimensions[0]

	var esPE *Node
	if nodes && cfg.Block == layers.BlockClassic {
		ed.firstMaps = m.encodeFirstMaps(scope.In("node_encoder"), in)
	} else if nodes || cfg.PE == PEESLap {
		if nodes {
			h = m.encodeNodes(scope.In("node_encoder"), in, m.nodeEmbeddingDim(), true)
		}
		switch cfg.PE {
		case PEESLap:
			esPE = layers.ESLapPEEncoder(scope.In("pe_encoder"), in.PEVec, in.PEMask, d)
		case PELap:
			if nodes {
				pe := layers.NewLapPEEncoder(scope.In("pe_encoder"), in.PEVec, in.PEVal, cfg.PEDim).Mask(in.PEMask).Done()
				h = Concatenate([]*Node{h, pe}, -1)
			}
		case PERWSE:
			if nodes {
				h = Concatenate([]*Node{h, layers.RWSEEncoder(scope.In("pe_encoder"), in.RWSE, cfg.PEDim, false)}, -1)
			}
		}
	}
	if nodes && cfg.PreMPLayers > 0 {
		pre := layers.NewPreMP(scope.In("pre_mp"), h).Layers(cfg.PreMPLayers).Dropout(cfg.Dropout)
		if cfg.Norm == layers.NormBatch {
			pre.BatchNorm(in.NodeMask)
		}
		h = pre.Done()
	}

	// The attention's edge embeddings are rows of a table (the encoded local edges or
	// their distinct values, then the learned interaction-edge types): the attention
	// projects the table rather than every edge.
	numTypes := expander.NumLearnedEdgeTypes(m.numVirtual)
	// Per-layer attention edges index the table from their sources, all layers' in one row.
	hSource := in.HSource
	if in.LayerHSource != nil {
		hSource = Reshape(in.LayerHSource, -1)
	}
	// e holds the local edge states; the first layer may take them as rows of a table
	// (eTable, eIndex) and materialises them.
	if m.needEdgeStates() {
		localTable, localIndex := m.encodeEdgeTable(scope.In("edge_encoder"), in, d)
		switch {
		case localIndex == nil:
			ed.e = localTable
		case m.cfg.MPNN.UsesEdgeFeatures():
			ed.eTable, ed.eIndex = localTable, localIndex
		}
		if cfg.Attention.Layout() == layers.OverInteractionGraph {
			ed.attnTable, ed.attnIndex = layers.MixedEdgeTable(scope.In("interaction_edges"), localTable, localIndex,
				hSource, numTypes)
		}
	} else if cfg.Attention.Layout() == layers.OverInteractionGraph {
		ed.attnTable = layers.EdgeTypeEmbedding(scope.In("interaction_edges"),
			Iota(g, shapes.Make(dtypes.Int32, numTypes), 0), numTypes, d, dtype)
		ed.attnIndex = layers.LearnedTypeIndex(hSource)
	}
	// The equivariant-stable gates read the squared PE distances across the local edges,
	// the same in every layer: computed once.
	if esPE != nil && cfg.MPNN.UsesEdgeFeatures() {
		ed.peDist = layers.PEDistances(esPE, in.Src, in.Dst)
	}
	if nodes && m.numVirtual > 0 {
		h = layers.AppendVirtualNodes(scope.In("virtual_nodes"), h, m.numVirtual, gp)
	}
	return h, ed
}

// layerGraph builds GPS layer l on the node states h [N + V, D] and the local edge
// states e (ed.e before the first layer), and returns both updated. With weights, the
// layer's attention weights [E, Heads] go to *weights. With per-layer attention edges
// (Inputs.LayerHSrc), layer l attends over row l of them.
func (m *Model) layerGraph(scope *model.Scope, l int, h, e *Node, in *Inputs[*Node], ed edgeInputs, weights **Node) (*Node, *Node) {
	cfg := m.cfg
	lb := layers.NewGPSLayer(scope.In("layer_%d", l), h, m.gpsConfig()).NormMask(in.NormMask).LocalEdgeMask(in.EdgeMask)
	if l == 0 && ed.firstMaps != nil {
		lb.InputMaps(ed.firstMaps)
	}
	if cfg.ReferenceVirtualNodes && m.numVirtual > 0 {
		lb.ReferenceVirtualNodes(in.NodeMask.Shape().Dimensions[0])
	}
	if cfg.MPNN.PassesMessages() {
		lb.LocalEdges(in.Src, in.Dst, e)
		if in.InDegree != nil {
			lb.LocalInDegree(in.InDegree)
		}
		if e == nil && ed.eTable != nil {
			lb.LocalEdgeTable(ed.eTable, ed.eIndex)
		}
	}
	switch cfg.Attention.Layout() {
	case layers.OverInteractionGraph:
		src, dst, index := in.HSrc, in.HDst, ed.attnIndex
		if in.LayerHSrc != nil {
			ek := in.LayerHSrc.Shape().Dimensions[1]
			row := func(x *Node) *Node { return Reshape(Slice(x, AxisElem(l)), ek) }
			src, dst = row(in.LayerHSrc), row(in.LayerHDst)
			index = Slice(index, AxisRange(l*ek, (l+1)*ek))
		}
		lb.AttentionEdges(src, dst, nil).AttentionEdgeTable(ed.attnTable, index)
		if weights != nil {
			lb.AttentionWeightsTo(weights)
		}
	case layers.OverPattern:
		lb.AttentionEdges(in.BBSrc, in.BBDst, nil)
	case layers.OverGraphBlocks:
		lb.Blocks(in.BlockNodes)
	}
	if ed.peDist != nil {
		lb.EquivStableDistances(ed.peDist)
	}
	return lb.Done()
}

// headGraph builds the output head on the last layer's states h [N + V, D]: it drops the
// virtual nodes, pools graph-level tasks and returns the outputs [rows, outDim].
func (m *Model) headGraph(scope *model.Scope, h *Node, in *Inputs[*Node]) *Node {
	np := in.NodeMask.Shape().Dimensions[0]
	gp := in.GraphMask.Shape().Dimensions[0]
	if m.numVirtual > 0 {
		h = Slice(h, AxisRange(0, np))
	}
	head := scope.In("head")
	rows, rowMask := h, in.NodeMask
	if !m.spec.nodeLevel {
		rows, rowMask = layers.GraphPool(h, in.GraphID, in.NodeMask, gp, m.cfg.Pooling), in.GraphMask
	}
	hb := layers.NewMLPHead(head, rows, m.spec.outDim).Layers(m.cfg.HeadLayers).L2Normalize(m.cfg.HeadL2Norm)
	if m.cfg.HeadNorm {
		hb.BatchNorm(rowMask)
	}
	return hb.Done()
}

// encodeFirstMaps returns the k input maps of a classic model's first layer
// (layers.GPSConfig.ClassicInputMaps): the node features times each of the layer's k
// weights, [rows, HiddenDim] each and without bias, computed as one encoding of width
// k·HiddenDim (the weights of a dense feature matrix sliced, never the result; an
// encoding of other features split by layers.SliceParts, whose gradient is one
// concatenation).
func (m *Model) encodeFirstMaps(scope *model.Scope, in *Inputs[*Node]) []*Node {
	d, k := m.cfg.HiddenDim, m.cfg.gpsConfig().ClassicInputMaps()
	if m.spec.node.kind == data.Dense {
		return layers.LinearParts(scope, in.X, false, d, k)
	}
	return layers.SliceParts(m.encodeNodes(scope, in, k*d, false), d, k)
}

// encodeNodes embeds the node features to width dim: a linear map (dense, sparse) or a
// sum of per-column embeddings (categorical; the same function as a linear map of the
// one-hot codes), each plus a bias when bias is set, or one learned vector when there
// are no features.
func (m *Model) encodeNodes(scope *model.Scope, in *Inputs[*Node], dim int, bias bool) *Node {
	np := in.NodeMask.Shape().Dimensions[0]
	switch m.spec.node.kind {
	case data.Dense:
		return layers.Linear(scope, in.X, bias, dim)
	case data.Categorical:
		return categoricalEmbedding(scope, in.XCat, m.spec.node.card, dim, m.cfg.TorchInit, bias, m.dtype)
	case data.Sparse:
		g := in.NodeMask.Graph()
		w := scope.VariableWithShape("weights", shapes.Make(m.dtype, m.spec.node.cols, dim)).NodeValue(g)
		var x *Node
		if m.densify {
			x = layers.LinearMap(in.X, w)
		} else {
			rows := Mul(Gather(w, InsertAxes(in.XCol, -1)), InsertAxes(in.XVal, -1))
			x = ScatterSum(Zeros(g, shapes.Make(m.dtype, np, dim)), InsertAxes(in.XRow, -1), rows, false, false)
		}
		if !bias {
			return x
		}
		b := scope.WithInitializer(initializer.Zero).VariableWithShape("biases", shapes.Make(m.dtype, dim)).NodeValue(g)
		return Add(x, InsertAxes(b, 0))
	}
	one := layers.EdgeTypeEmbedding(scope, Zeros(in.NodeMask.Graph(), shapes.Make(dtypes.Int32, 1)), 1, dim, m.dtype)
	return BroadcastToDims(one, np, dim)
}

// encodeEdgeTable embeds the local edge features to width dim (as encodeNodes) as a
// table and an index: local edge i has embedding table[index[i]]. index is nil when the
// table has one row per edge (dense or multi-column categorical features); no features
// give a one-row table and a single categorical column its table of codes.
func (m *Model) encodeEdgeTable(scope *model.Scope, in *Inputs[*Node], dim int) (table, index *Node) {
	g := in.Src.Graph()
	ep := in.Src.Shape().Dimensions[0]
	switch {
	case m.spec.edge.kind == data.Dense:
		return layers.Linear(scope, in.E, true, dim), nil
	case m.spec.edge.kind == data.Categorical && len(m.spec.edge.card) == 1:
		codes := max(m.spec.edge.card[0], 1)
		all := Iota(g, shapes.Make(dtypes.Int32, codes), 0)
		table = layers.EdgeTypeEmbedding(scope.In("column_0"), all, codes, dim, m.dtype)
		b := scope.WithInitializer(initializer.Zero).VariableWithShape("biases", shapes.Make(m.dtype, dim)).NodeValue(g)
		return Add(table, InsertAxes(b, 0)), Reshape(in.ECat, ep)
	case m.spec.edge.kind == data.Categorical:
		return categoricalEmbedding(scope, in.ECat, m.spec.edge.card, dim, false, true, m.dtype), nil
	}
	one := layers.EdgeTypeEmbedding(scope, Zeros(g, shapes.Make(dtypes.Int32, 1)), 1, dim, m.dtype)
	return one, Zeros(g, shapes.Make(dtypes.Int32, ep))
}

// categoricalEmbedding sums one learned embedding per column of codes [R, C] and, with
// bias, adds a bias: the linear map of the concatenated one-hot codes. With oneHotInit
// the tables and the bias are initialised as PyTorch's nn.Linear of that one-hot vector
// (uniform in ±1/√(total codes)); otherwise the rows N(0, 1) and the bias zero.
func categoricalEmbedding(scope *model.Scope, codes *Node, card []int, dim int, oneHotInit, bias bool, dtype dtypes.DType) *Node {
	g := codes.Graph()
	biasScope := scope.WithInitializer(initializer.Zero)
	var uniform *model.Scope
	if oneHotInit {
		width := 0
		for _, n := range card {
			width += max(n, 1)
		}
		limit := 1 / math.Sqrt(float64(max(width, 1)))
		uniform = scope.WithInitializer(initializer.RandomUniformFn(scope, -limit, limit))
		biasScope = uniform
	}
	var sum *Node
	for c, n := range card {
		col := Reshape(Slice(codes, AxisRange(), AxisRange(c, c+1)), -1)
		var emb *Node
		if oneHotInit {
			table := uniform.In("column_%d", c).VariableWithShape("embeddings", shapes.Make(dtype, max(n, 1), dim)).NodeValue(g)
			emb = Gather(table, InsertAxes(ConvertDType(col, dtypes.Int32), -1))
		} else {
			emb = layers.EdgeTypeEmbedding(scope.In("column_%d", c), col, max(n, 1), dim, dtype)
		}
		if sum == nil {
			sum = emb
		} else {
			sum = Add(sum, emb)
		}
	}
	if !bias {
		if sum == nil {
			return Zeros(g, shapes.Make(dtype, codes.Shape().Dimensions[0], dim))
		}
		return sum
	}
	b := biasScope.VariableWithShape("biases", shapes.Make(dtype, dim)).NodeValue(g)
	if sum == nil {
		return BroadcastToDims(InsertAxes(b, 0), codes.Shape().Dimensions[0], dim)
	}
	return Add(sum, InsertAxes(b, 0))
}
