package layers

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// Learned edge types of Exphormer's non-local interaction edges. Local (input-graph)
// edges carry the data set's edge features instead. With numVirtual virtual nodes per
// graph the types are numbered:
//
//	ExpanderEdgeType           expander edges
//	VirtualInEdgeType(k)       real node → virtual node k
//	VirtualOutEdgeType(k)      virtual node k → real node
//
// and NumInteractionEdgeTypes(numVirtual) counts them.
const ExpanderEdgeType int32 = 0

// VirtualInEdgeType is the learned edge type of the edges from real nodes into virtual
// node k (0 ≤ k < numVirtual).
func VirtualInEdgeType(k int) int32 { return int32(1 + 2*k) }

// VirtualOutEdgeType is the learned edge type of the edges from virtual node k
// (0 ≤ k < numVirtual) to the real nodes.
func VirtualOutEdgeType(k int) int32 { return int32(2 + 2*k) }

// NumInteractionEdgeTypes is the number of learned edge types with numVirtual virtual
// nodes per graph: one for expander edges and two per virtual node.
func NumInteractionEdgeTypes(numVirtual int) int { return 1 + 2*numVirtual }

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
// source[e] < 0 selects learned type t = −source[e] − 1 (in [0, numTypes)). The learned
// table is the variable "embeddings" [numTypes, D] in scope. Returns [E, D].
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
	return table, Where(isLocal, local, Sub(Scalar(g, dtypes.Int32, numLocal-1), src))
}

// VirtualNodeEmbedding returns the initial states of the virtual nodes,
// [numVirtual·numGraphs, dim]: row k·numGraphs + g holds the learned state of virtual
// node k (the same for every graph g), matching the reference layout in which virtual
// node k of graph g has index N_real + k·numGraphs + g. The table is the variable
// "embeddings" [numVirtual, dim] in scope, initialised N(0, 1).
func VirtualNodeEmbedding(scope *model.Scope, g *Graph, numVirtual, numGraphs, dim int, dtype dtypes.DType) *Node {
	if numVirtual < 0 || numGraphs <= 0 || dim <= 0 {
		failf("virtual node embedding: need numVirtual ≥ 0, numGraphs > 0, dim > 0; got %d, %d, %d",
			numVirtual, numGraphs, dim)
	}
	if numVirtual == 0 {
		return Zeros(g, shapes.Make(dtype, 0, dim))
	}
	table := embeddingTable(scope, numVirtual, dim, dtype, g)
	return Reshape(BroadcastToDims(InsertAxes(table, 1), numVirtual, numGraphs, dim), numVirtual*numGraphs, dim)
}

// AppendVirtualNodes returns x [N, D] followed by the virtual node states of
// VirtualNodeEmbedding: [N + numVirtual·numGraphs, D].
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
