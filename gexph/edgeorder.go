package gexph

import (
	"fmt"
	"math/rand/v2"
)

// WithEdgeOrder returns a copy of b whose real local edges are listed in the order perm
// gives (edge i of the copy is edge perm[i] of b; perm is a permutation of
// 0..NumEdges−1), with their features and mask, and the interaction edges' references
// to local edges (HSource, LayerHSource) renumbered to match. Padding edges stay last.
// The copy holds the same graphs, so a model computes the same function of it; only the
// order of its float32 sums over edges changes. b is left as it is; the copy has no
// tensors on a device yet. perm must be a permutation of the real edges.
func (b *Batch) WithEdgeOrder(perm []int) (*Batch, error) {
	if len(perm) != b.NumEdges {
		return nil, fmt.Errorf("gexph: edge order of %d entries for a batch of %d edges", len(perm), b.NumEdges)
	}
	seen := make([]bool, b.NumEdges)
	for i, p := range perm {
		if p < 0 || p >= b.NumEdges || seen[p] {
			return nil, fmt.Errorf("gexph: edge order: entry %d (%d) is not a permutation of 0..%d", i, p, b.NumEdges-1)
		}
		seen[p] = true
	}
	return b.reorderEdges(perm), nil
}

// reorderEdges is WithEdgeOrder for a permutation known to be one.
func (b *Batch) reorderEdges(perm []int) *Batch {
	inv := make([]int32, len(perm))
	for i, p := range perm {
		inv[p] = int32(i)
	}
	c := *b
	c.device = nil
	in := &c.Inputs
	for _, a := range []*Array{&in.Src, &in.Dst, &in.EdgeMask, &in.E, &in.ECat} {
		*a = permuteRows(*a, perm)
	}
	for _, a := range []*Array{&in.HSource, &in.LayerHSource} {
		*a = renumberLocal(*a, inv)
	}
	return &c
}

// ShuffledEdges returns b with its real local edges in a random order drawn from seed
// (WithEdgeOrder): the same graphs, for checking that a computation does not depend on
// the order of the edges beyond float32 rounding.
func (b *Batch) ShuffledEdges(seed uint64) *Batch {
	return b.reorderEdges(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)).Perm(b.NumEdges))
}

// permuteRows returns a copy of a whose first len(perm) rows are a's rows perm[0],
// perm[1], …; later rows are copied as they are. An absent array stays absent.
func permuteRows(a Array, perm []int) Array {
	if !a.Present() || len(a.Dims) == 0 {
		return a
	}
	width := 1
	for _, d := range a.Dims[1:] {
		width *= d
	}
	out := Array{Dims: a.Dims, Float: a.Float}
	if a.Float {
		out.F32 = permuted(a.F32, perm, width)
	} else {
		out.I32 = permuted(a.I32, perm, width)
	}
	return out
}

// permuted is values with its first len(perm) rows of width values reordered by perm.
func permuted[T any](values []T, perm []int, width int) []T {
	out := make([]T, len(values))
	copy(out, values)
	for i, p := range perm {
		copy(out[i*width:(i+1)*width], values[p*width:(p+1)*width])
	}
	return out
}

// renumberLocal returns a copy of the source codes a with each local-edge reference
// (a non-negative code, expander.EdgeSources) e replaced by inv[e]; learned-type codes
// (negative) are kept.
func renumberLocal(a Array, inv []int32) Array {
	if !a.Present() {
		return a
	}
	out := Array{Dims: a.Dims, I32: make([]int32, len(a.I32))}
	for i, code := range a.I32 {
		if code >= 0 && int(code) < len(inv) {
			code = inv[code]
		}
		out.I32[i] = code
	}
	return out
}
