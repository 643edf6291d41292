package layers

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// EdgeTypeEmbedding returns a learned embedding [E, dim] for each edge type in types
// ([E] integers in [0, numTypes)). The table is the variable "embeddings" [numTypes, dim]
// in scope, initialised N(0, 1) as torch.nn.Embedding does.
func EdgeTypeEmbedding(scope *model.Scope, types *Node, numTypes, dim int, dtype dtypes.DType) *Node {
	checkIndices("edge types", types, -1)
	return rows(embeddingTable(scope, numTypes, dim, dtype, types.Graph()), types)
}

// MixedEdgeEmbedding combines the embeddings of local edges with learned type embeddings
// for the other interaction edges, in one gather. For interaction edge e, source[e] ≥ 0
// selects row source[e] of localEmb ([E_l, D], the embedded data set edge features), and
// source[e] < 0 selects learned type t = −source[e] − 1 (in [0, numTypes)): the codes of
// expander.Interaction.EdgeSources, with numTypes = expander.NumLearnedEdgeTypes of the
// virtual nodes per graph. The learned table is the variable "embeddings" [numTypes, D]
// in scope. Returns [E, D].
func MixedEdgeEmbedding(scope *model.Scope, localEmb, source *Node, numTypes int) *Node {
	checkRank("local edge embeddings", localEmb, 2)
	table, index := MixedEdgeTable(scope, localEmb, nil, source, numTypes)
	return rows(table, index)
}

// MixedEdgeTable is MixedEdgeEmbedding as a table and an index, the form taken by
// ExphormerAttentionBuilder.EdgeTable and GPSLayerBuilder.AttentionEdgeTable: interaction
// edge e has embedding table[index[e]]. Local edge i has embedding
// localTable[localIndex[i]] (localTable [T_l, D], localIndex [E_l] integers in [0, T_l)),
// or row i of localTable when localIndex is nil; source is as in MixedEdgeEmbedding.
// table is [T_l + numTypes, D], the local rows followed by the learned type table (the
// variable "embeddings" [numTypes, D] in scope), and index is [E] int32.
func MixedEdgeTable(scope *model.Scope, localTable, localIndex, source *Node, numTypes int) (table, index *Node) {
	checkRank("local edge table", localTable, 2)
	checkFloat("local edge table", localTable)
	checkIndices("edge sources", source, -1)
	g := localTable.Graph()
	numLocal := dim(localTable, 0)
	table = Concatenate([]*Node{localTable, embeddingTable(scope, numTypes, dim(localTable, 1), localTable.DType(), g)}, 0)
	src := ConvertDType(source, dtypes.Int32)
	zero := ScalarZero(g, dtypes.Int32)
	isLocal := GreaterOrEqual(src, zero)
	local := src
	if localIndex != nil {
		checkIndices("local edge table index", localIndex, -1)
	}
	if localIndex != nil && dim(localIndex, 0) > 0 {
		// Learned types (negative sources) read local edge 0, then are replaced below.
		local = rows(ConvertDType(localIndex, dtypes.Int32), Max(src, zero))
	}
	return table, Where(isLocal, local, AddScalar(LearnedTypeIndex(src), numLocal))
}

// LearnedTypeIndex decodes the learned edge types of interaction edge source codes
// (expander.LearnedSource: a code s < 0 is learned type −s − 1): the row of each edge in
// a table of the learned types alone. Codes ≥ 0 (local edges) give negative rows.
func LearnedTypeIndex(source *Node) *Node { return Neg(AddScalar(source, 1)) }

// VirtualNodeEmbedding returns the initial states of the virtual nodes,
// [numGraphs·numVirtual, dim]: row g·numVirtual + t holds the learned state of virtual
// node t (the same for every graph g), the layout of expander.Interaction, in which
// virtual node t of graph g follows the real nodes at offset g·VirtualPerGraph + t. The
// table is the variable "embeddings" [numVirtual, dim] in scope, initialised N(0, 1).
func VirtualNodeEmbedding(scope *model.Scope, g *Graph, numVirtual, numGraphs, dim int, dtype dtypes.DType) *Node {
	if numVirtual < 0 || numGraphs <= 0 || dim <= 0 {
		failf("virtual node embedding: need numVirtual ≥ 0, numGraphs > 0, dim > 0; got %d, %d, %d",
			numVirtual, numGraphs, dim)
	}
	if numVirtual == 0 {
		return Zeros(g, shapes.Make(dtype, 0, dim))
	}
	table := embeddingTable(scope, numVirtual, dim, dtype, g)
	return Reshape(BroadcastToDims(InsertAxes(table, 0), numGraphs, numVirtual, dim), numGraphs*numVirtual, dim)
}

// AppendVirtualNodes returns x [N, D] followed by the virtual node states of
// VirtualNodeEmbedding: [N + numGraphs·numVirtual, D], virtual node t of graph g at row
// N + g·numVirtual + t, where expander.Interaction.PaddedEndpoints puts it when N counts
// the real nodes' rows.
func AppendVirtualNodes(scope *model.Scope, x *Node, numVirtual, numGraphs int) *Node {
	checkRank("node states", x, 2)
	if numVirtual == 0 {
		return x
	}
	virt := VirtualNodeEmbedding(scope, x.Graph(), numVirtual, numGraphs, dim(x, 1), x.DType())
	return Concatenate([]*Node{x, virt}, 0)
}

// embeddingTable returns the variable "embeddings" [rows, dim] of scope, initialised N(0, 1).
func embeddingTable(scope *model.Scope, numRows, dim int, dtype dtypes.DType, g *Graph) *Node {
	if numRows <= 0 || dim <= 0 {
		failf("embedding table needs positive sizes, got [%d, %d]", numRows, dim)
	}
	v := scope.WithInitializer(initializer.RandomNormalFn(scope, 1.0)).
		VariableWithShape("embeddings", shapes.Make(dtype, numRows, dim))
	return v.NodeValue(g)
}
