// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

// Comparisons of float32 values a SIMD vector at a time, and logical ands eight values at
// a time (gexph patch, see PATCHES.md at the module root). The generic executors compare
// one element at a time: a rectifier's gradient (x ≥ 0), a dropout mask (u ≤ rate) and
// a clipped score's gradient (−5 < s < 5) each compare every element of an [E, D] tensor
// with a scalar, and together they were 7 % of `cluster-ref`'s CPU profile. Here the
// comparisons run on amd64 in AVX-512's or AVX2's vectors (compare_amd64.go): the
// vector's mask, eight lanes at a time, is spread into eight bools by a table. The same
// predicates as Go's operators (a NaN compares false, −0 equals +0): the same bools.
// uint32 values against a scalar are compared the same way: gexph's dropout compares the
// random bits with a threshold instead of converting them into uniforms first.

import (
	"unsafe"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/pkg/errors"
)

func init() {
	for _, op := range []compute.OpType{compute.OpTypeGreaterOrEqual, compute.OpTypeGreaterThan,
		compute.OpTypeLessOrEqual, compute.OpTypeLessThan} {
		gobackend.SetNodeExecutor(op, gobackend.PriorityTyped, execCompareOrdered)
	}
	gobackend.SetNodeExecutor(compute.OpTypeLogicalAnd, gobackend.PriorityTyped, execLogicalAndWords)
}

// comparison is one of the four order predicates.
type comparison int

const (
	cmpGE comparison = iota // x ≥ y
	cmpGT                   // x > y
	cmpLE                   // x ≤ y
	cmpLT                   // x < y
)

// comparisonOf returns op's predicate, and false for any other op.
func comparisonOf(op compute.OpType) (comparison, bool) {
	switch op {
	case compute.OpTypeGreaterOrEqual:
		return cmpGE, true
	case compute.OpTypeGreaterThan:
		return cmpGT, true
	case compute.OpTypeLessOrEqual:
		return cmpLE, true
	case compute.OpTypeLessThan:
		return cmpLT, true
	}
	return 0, false
}

// mirrored returns the predicate p' with c p x ⟺ x p' c.
func (p comparison) mirrored() comparison {
	return [...]comparison{cmpGE: cmpLE, cmpGT: cmpLT, cmpLE: cmpGE, cmpLT: cmpGT}[p]
}

// holds returns x p y as Go's operators compute it.
func holds[T float32 | uint32](p comparison, x, y T) bool {
	switch p {
	case cmpGE:
		return x >= y
	case cmpGT:
		return x > y
	case cmpLE:
		return x <= y
	}
	return x < y
}

// execCompareOrdered runs a float32 order comparison whose operands have the output's
// shape, or one of them a single value, and a uint32 one of the output's shape against a
// single value; any other case falls back to the generic executor.
func execCompareOrdered(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, _ []bool) (*gobackend.Buffer, error) {
	p, ok := comparisonOf(node.OpType)
	if !ok || backend.NoOps || node.Shape.IsDynamic() {
		return nil, gobackend.ErrFallback
	}
	n := node.Shape.Size()
	fits := func(lx, ly int) bool { return (lx == n && (ly == n || ly == 1)) || (lx == 1 && ly == n) }
	switch x := inputs[0].Flat.(type) {
	case []float32:
		if y, ok := inputs[1].Flat.([]float32); ok && fits(len(x), len(y)) {
			return compareInto(backend, node, func(out []bool) { compareFloat32(p, x, y, out) })
		}
	case []uint32:
		if y, ok := inputs[1].Flat.([]uint32); ok && fits(len(x), len(y)) && (len(x) == 1 || len(y) == 1) {
			return compareInto(backend, node, func(out []bool) {
				if len(y) == 1 {
					compareScalarUint32(p, x, y[0], out)
				} else {
					compareScalarUint32(p.mirrored(), y, x[0], out)
				}
			})
		}
	}
	return nil, gobackend.ErrFallback
}

// compareInto returns a new bool buffer of node's shape that compare has filled.
func compareInto(backend *gobackend.Backend, node *gobackend.Node, compare func(out []bool)) (*gobackend.Buffer, error) {
	output, err := backend.GetBuffer(node.Shape)
	if err != nil {
		return nil, err
	}
	compare(output.Flat.([]bool))
	return output, nil
}

// compareFloat32 sets out[i] = x[i] p y[i], either operand possibly a single value.
func compareFloat32(p comparison, x, y []float32, out []bool) {
	switch {
	case len(y) == 1:
		compareScalar(p, x, y[0], out)
	case len(x) == 1:
		compareScalar(p.mirrored(), y, x[0], out)
	default:
		compareVectors(p, x, y, out)
	}
}

// compareScalar sets out[i] = x[i] p c.
func compareScalar(p comparison, x []float32, c float32, out []bool) {
	i := compareScalarSIMD(p, x, c, out)
	for ; i < len(x); i++ {
		out[i] = holds(p, x[i], c)
	}
}

// compareScalarUint32 sets out[i] = x[i] p c.
func compareScalarUint32(p comparison, x []uint32, c uint32, out []bool) {
	i := compareScalarUint32SIMD(p, x, c, out)
	for ; i < len(x); i++ {
		out[i] = holds(p, x[i], c)
	}
}

// compareVectors sets out[i] = x[i] p y[i].
func compareVectors(p comparison, x, y []float32, out []bool) {
	i := compareVectorsSIMD(p, x, y, out)
	for ; i < len(x); i++ {
		out[i] = holds(p, x[i], y[i])
	}
}

// spreadBits holds, for each byte b, the eight bools of its bits (bit j in byte j) as
// one little-endian word.
var spreadBits = func() (t [256]uint64) {
	for b := range t {
		for j := range 8 {
			t[b] |= uint64(b>>j&1) << (8 * j)
		}
	}
	return t
}()

// storeBools writes the 8 bits of mask as 8 bools at out[i:], bit j to out[i+j]; out
// must hold them.
func storeBools(out []bool, i int, mask uint8) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(out)), i)) = spreadBits[mask]
}

// execLogicalAndWords runs LogicalAnd of two bool operands of the output's shape eight
// values at a time (a bool is one byte, 0 or 1: the and of the bytes is the and of the
// values); any other case falls back to the generic executor.
func execLogicalAndWords(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	lhs, rhs := inputs[0], inputs[1]
	if node.Shape.DType != dtypes.Bool || backend.NoOps || node.Shape.IsDynamic() ||
		!lhs.RawShape.Equal(node.Shape) || !rhs.RawShape.Equal(node.Shape) {
		return nil, gobackend.ErrFallback
	}
	_, _, output, _, _ := binaryOperandsAndOutputForExecution(backend, node, inputs, inputsOwned, node.Shape)
	if output == nil {
		return nil, errors.Errorf("LogicalAnd: no buffer for its output %s", node.Shape)
	}
	andBools(lhs.Flat.([]bool), rhs.Flat.([]bool), output.Flat.([]bool))
	return output, nil
}

// andBools sets out[i] = x[i] && y[i]; out may be x or y.
func andBools(x, y, out []bool) {
	n := len(out)
	px, py, po := unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y)), unsafe.Pointer(unsafe.SliceData(out))
	i := 0
	for ; i+8 <= n; i += 8 {
		*(*uint64)(unsafe.Add(po, i)) = *(*uint64)(unsafe.Add(px, i)) & *(*uint64)(unsafe.Add(py, i))
	}
	for ; i < n; i++ {
		out[i] = x[i] && y[i]
	}
}
