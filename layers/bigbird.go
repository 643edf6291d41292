package layers

import (
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/ml/model"
)

// NewBigBirdAttention builds BigBird attention on x [N, D] along the pattern edges
// src → dst (see expander.BigBirdPattern): query, key and value projections with biases, exact
// softmax attention over each node's pattern neighbours, an output projection, and
// attention dropout at rate dropoutRate in training. Variables in scope: "qkv", "output".
func NewBigBirdAttention(scope *model.Scope, x, src, dst *Node, numHeads int, dropoutRate float64) *Node {
	return NewExphormerAttention(scope, x, nil, src, dst, numHeads).
		UseBias(true).OutputProjection(true).Dropout(dropoutRate).Done()
}
