// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

// Identities forwarded (gexph patch, see PATCHES.md at the module root).
//
// GoMLX writes StopGradient and custom gradients as Identity ops. The Identity executor
// hands its input's buffer on when that is the input's last use, and copies it
// otherwise: a rectifier's or a batch norm's custom-gradient identity on a per-edge
// tensor that is also read elsewhere cost a copy of [E, D] each. The transformation
// below lets every consumer of an Identity read the Identity's input instead (an
// Identity returned as an output of the function stays), so the buffers' use counts do
// the sharing and nothing is copied. It runs before the other transformations, whose
// patterns then see through identities. The backend option "no_fusion" disables it.

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.RegisterTransformation(identityPriority, &IdentityForwarding{})
}

// identityPriority runs the transformation before the implicit-broadcast removal (100)
// and gexph's fusions.
const identityPriority = 110

// IdentityForwarding is the graph transformation that makes consumers of an Identity
// read its input (see the file comment).
type IdentityForwarding struct{}

// Name implements gobackend.GraphTransformation.
func (*IdentityForwarding) Name() string { return "IdentityForwarding" }

// Apply implements gobackend.GraphTransformation on the main function.
func (*IdentityForwarding) Apply(b *gobackend.Builder) (bool, error) {
	f := b.MainFn
	if f == nil || b.Backend == nil || b.Backend.NoFusion {
		return false, nil
	}
	for _, n := range f.Nodes {
		for i, in := range n.Inputs {
			src := identitySource(in)
			if src != in {
				n.Inputs[i] = src
				n.ClearCachedExecutor()
			}
		}
	}
	return false, nil
}

// identitySource returns the node an Identity (or chain of them) passes on, or n.
func identitySource(n *gobackend.Node) *gobackend.Node {
	for n.OpType == compute.OpTypeIdentity && len(n.Inputs) == 1 && n.Inputs[0].Shape.Equal(n.Shape) {
		n = n.Inputs[0]
	}
	return n
}

// liveUses counts the uses of each node of f by the nodes its outputs depend on (and by
// the outputs themselves); dead nodes count 0.
func liveUses(f *gobackend.Function) []int {
	uses := make([]int, len(f.Nodes))
	live := make([]bool, len(f.Nodes))
	var visit func(n *gobackend.Node)
	visit = func(n *gobackend.Node) {
		if live[n.Index] {
			return
		}
		live[n.Index] = true
		for _, in := range n.Inputs {
			uses[in.Index]++
			visit(in)
		}
		for _, captured := range n.CapturedInputs {
			for _, in := range captured {
				uses[in.Index]++
				visit(in)
			}
		}
	}
	for _, out := range f.Outputs {
		uses[out.Index] += 2 // An output is never absorbed into another node.
		visit(out)
	}
	return uses
}
