package layers

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// LapPE encoder kinds (LapPEEncoderBuilder.Kind).
const (
	LapPELinear  = "linear"  // Linear map of the (sign-flipped) eigenvector entries.
	LapPEDeepSet = "deepset" // GraphGPS's DeepSet over (eigenvector entry, eigenvalue) pairs.
)

// LapPEEncoderBuilder configures the encoder of Laplacian positional encodings. Create
// it with NewLapPEEncoder and call Done.
type LapPEEncoderBuilder struct {
	scope              *model.Scope
	vecs, vals, mask   *Node
	dim                int
	kind               string
	layers, postLayers int
	signFlip           bool
}

// NewLapPEEncoder encodes per-node Laplacian eigenvector entries vecs [N, k] and the
// eigenvalues of each node's graph vals [N, k] (row i repeats the LapPE.Vals of node i's
// graph; may be nil for the linear kind) into [N, dim]. In training the sign of each of
// the k eigenvectors is flipped at random (one draw per slot and batch, from the Store's
// random state, as GraphGPS does). The default kind is LapPEDeepSet with 2 layers and no
// post layers. Variables in scope.
func NewLapPEEncoder(scope *model.Scope, vecs, vals *Node, dim int) *LapPEEncoderBuilder {
	return &LapPEEncoderBuilder{scope: scope, vecs: vecs, vals: vals, dim: dim, kind: LapPEDeepSet,
		layers: 2, signFlip: true}
}

// Mask marks the valid slots, [N, k] (bool or 0/1): padded slots of small graphs
// (LapPE.NumValid) are excluded. The default treats all slots as valid.
func (b *LapPEEncoderBuilder) Mask(mask *Node) *LapPEEncoderBuilder {
	b.mask = mask
	return b
}

// Kind selects LapPELinear or LapPEDeepSet.
func (b *LapPEEncoderBuilder) Kind(kind string) *LapPEEncoderBuilder {
	b.kind = kind
	return b
}

// Layers sets the number of layers of the DeepSet element network (≥ 1). Default 2.
func (b *LapPEEncoderBuilder) Layers(n int) *LapPEEncoderBuilder {
	b.layers = n
	return b
}

// PostLayers sets the number of MLP layers applied after the DeepSet sum. Default 0.
func (b *LapPEEncoderBuilder) PostLayers(n int) *LapPEEncoderBuilder {
	b.postLayers = n
	return b
}

// SignFlip enables the random sign flips in training (default true).
func (b *LapPEEncoderBuilder) SignFlip(enabled bool) *LapPEEncoderBuilder {
	b.signFlip = enabled
	return b
}

// Done builds the encoder and returns [N, dim].
func (b *LapPEEncoderBuilder) Done() *Node {
	checkRank("LapPE eigenvectors", b.vecs, 2)
	checkFloat("LapPE eigenvectors", b.vecs)
	n, k := dim(b.vecs, 0), dim(b.vecs, 1)
	if b.dim <= 0 {
		failf("LapPE encoder: dim must be positive, got %d", b.dim)
	}
	g := b.vecs.Graph()
	dtype := b.vecs.DType()
	vecs := b.vecs
	var mask *Node
	if b.mask != nil {
		checkRank("LapPE mask", b.mask, 2)
		if dim(b.mask, 0) != n || dim(b.mask, 1) != k {
			failf("LapPE mask %s must be [%d, %d]", b.mask.Shape(), n, k)
		}
		mask = asFloat(b.mask, dtype)
		vecs = Mul(vecs, mask)
	}
	if b.signFlip && b.scope.IsTraining(g) {
		u := b.scope.RandomUniform(g, shapes.Make(dtype, 1, k))
		signs := Where(LessThan(u, Scalar(g, dtype, 0.5)), Scalar(g, dtype, -1), Scalar(g, dtype, 1))
		vecs = Mul(vecs, signs)
	}
	switch b.kind {
	case LapPELinear:
		return dense(b.scope, "linear", vecs, true, b.dim)
	case LapPEDeepSet:
	default:
		failf("LapPE encoder: unknown kind %q (want linear or deepset)", b.kind)
	}
	if b.vals == nil {
		failf("LapPE encoder: the deepset kind needs the eigenvalues")
	}
	checkRank("LapPE eigenvalues", b.vals, 2)
	if dim(b.vals, 0) != n || dim(b.vals, 1) != k || b.vals.DType() != dtype {
		failf("LapPE eigenvalues %s must be [%d, %d] of dtype %s", b.vals.Shape(), n, k, dtype)
	}
	if b.layers < 1 || b.postLayers < 0 {
		failf("LapPE encoder: need Layers ≥ 1 and PostLayers ≥ 0, got %d and %d", b.layers, b.postLayers)
	}
	vals := b.vals
	if mask != nil {
		vals = Mul(vals, mask)
	}
	h := Stack([]*Node{vecs, vals}, -1) // [N, k, 2]
	if b.layers == 1 {
		h = relu(dense(b.scope, "element0", h, true, b.dim))
	} else {
		h = relu(dense(b.scope, "element0", h, true, 2*b.dim))
		for i := 1; i < b.layers-1; i++ {
			h = relu(dense(b.scope, fmt.Sprintf("element%d", i), h, true, 2*b.dim))
		}
		h = relu(dense(b.scope, "element_last", h, true, b.dim))
	}
	if mask != nil {
		h = Mul(h, InsertAxes(mask, -1))
	}
	pe := ReduceSum(h, 1) // [N, dim]
	return mlpLayers(b.scope, "post", pe, b.postLayers, b.dim)
}

// mlpLayers applies GraphGPS's post-pooling MLP with the given number of layers
// (Linear+ReLU; widths 2·dim inside), returning [.., dim]; 0 layers is the identity.
func mlpLayers(scope *model.Scope, name string, x *Node, numLayers, outDim int) *Node {
	switch {
	case numLayers <= 0:
		return x
	case numLayers == 1:
		return relu(dense(scope, name+"0", x, true, outDim))
	}
	x = relu(dense(scope, name+"0", x, true, 2*outDim))
	for i := 1; i < numLayers-1; i++ {
		x = relu(dense(scope, fmt.Sprintf("%s%d", name, i), x, true, 2*outDim))
	}
	return relu(dense(scope, name+"_last", x, true, outDim))
}

// ESLapPEEncoder maps the eigenvector entries vecs [N, k] (mask [N, k] or nil marks
// valid slots) linearly to [N, dim], as GraphGPS's EquivStableLapPE encoder; the result
// is used only through the distances ‖p_i − p_j‖ in GatedGCN/GINE gates (see
// GatedGCNBuilder.EquivStablePE), never added to the node features. Variables in scope.
func ESLapPEEncoder(scope *model.Scope, vecs, mask *Node, dim int) *Node {
	checkRank("ESLapPE eigenvectors", vecs, 2)
	checkFloat("ESLapPE eigenvectors", vecs)
	if dim <= 0 {
		failf("ESLapPE encoder: dim must be positive, got %d", dim)
	}
	if mask != nil {
		checkRank("ESLapPE mask", mask, 2)
		vecs = Mul(vecs, asFloat(mask, vecs.DType()))
	}
	return dense(scope, "linear", vecs, true, dim)
}

// RWSEEncoder maps random-walk landing probabilities rwse [N, K] (see ComputeRWSE)
// linearly to [N, dim], optionally after a BatchNorm of the raw values (GraphGPS's
// raw_norm_type "batchnorm"). Variables in scope.
func RWSEEncoder(scope *model.Scope, rwse *Node, dim int, rawBatchNorm bool) *Node {
	checkRank("RWSE", rwse, 2)
	checkFloat("RWSE", rwse)
	if dim <= 0 {
		failf("RWSE encoder: dim must be positive, got %d", dim)
	}
	if rawBatchNorm {
		rwse = NewBatchNorm(scope.In("raw_norm"), rwse).Done()
	}
	return dense(scope, "linear", rwse, true, dim)
}
