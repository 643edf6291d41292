// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Exponentials and logistic functions over whole float32 slices (gexph patch, see
// PATCHES.md at the module root).
//
// The generic unary kernel calls simdmath.ExpFloat32 or simdmath.SigmoidFloat32 through a
// function value once per vector: each call broadcasts the exponential's fourteen
// constants again, is not inlined (its vectors spill across the call), and the whole
// tensor runs on one core. Here the constants are broadcast once per slice, the loop's
// body is the same polynomial, and large tensors are split across the backend's workers. Each element goes
// through the same operations in the same order as simdmath's functions: the results are
// equal bit for bit (expslices_test.go holds them to it).

import (
	"simd"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	gobackend.SetNodeExecutor(compute.OpTypeExp, expSlicesPriority, execExpSlices)
	gobackend.SetNodeExecutor(compute.OpTypeLogistic, expSlicesPriority, execExpSlices)
}

// expSlicesPriority puts these executors before the generic SIMD ones, which they fall
// back to for other types.
const expSlicesPriority = PrioritySIMD + 1

// expMinChunk is the least number of elements a worker takes (an exponential costs
// about a nanosecond an element: smaller chunks are not worth a worker).
const expMinChunk = 1 << 15

// expFloat32Slice writes exp(in[i]) to out[i] (as simdmath.ExpFloat32).
func expFloat32Slice(in, out []float32) { expLoop(in, out, false) }

// sigmoidFloat32Slice writes 1/(1+exp(−in[i])) to out[i] (as simdmath.SigmoidFloat32).
func sigmoidFloat32Slice(in, out []float32) { expLoop(in, out, true) }

// expLoop writes exp(in[i]), or the logistic function of in[i] when sigmoid, to out[i]:
// simdmath.ExpFloat32 and SigmoidFloat32 operation for operation, written out in the loop
// (a function of the vector is not inlined, and its calls spill every vector).
func expLoop(in, out []float32, sigmoid bool) {
	maxLog, minLog := simd.BroadcastFloat32s(88.02969187150841), simd.BroadcastFloat32s(-88.02969187150841)
	log2E, half := simd.BroadcastFloat32s(1.44269504088896341), simd.BroadcastFloat32s(0.5)
	ln2Hi, ln2Lo := simd.BroadcastFloat32s(0.693359375), simd.BroadcastFloat32s(-2.12194440e-4)
	p7, p6 := simd.BroadcastFloat32s(1.9875691500e-4), simd.BroadcastFloat32s(1.3981999507e-3)
	p5, p4 := simd.BroadcastFloat32s(8.3334519073e-3), simd.BroadcastFloat32s(4.1665795894e-2)
	p3, p2 := simd.BroadcastFloat32s(1.6666665459e-1), simd.BroadcastFloat32s(5.0000001201e-1)
	one, oneInt, bias := simd.BroadcastFloat32s(1), simd.BroadcastInt32s(1), simd.BroadcastUint32s(127)
	vLen := one.Len()
	for i := 0; i < len(out); i += vLen {
		full := i+vLen <= len(out)
		var x simd.Float32s
		if full {
			x = simd.LoadFloat32s(in[i:])
		} else {
			x, _ = simd.LoadFloat32sPart(in[i:])
		}
		if sigmoid {
			x = x.Neg()
		}
		xClamped := x.Max(minLog).Min(maxLog)
		z := xClamped.MulAdd(log2E, half)
		intZ := z.ConvertToInt32()
		floatZ := intZ.ConvertToFloat32()
		adjMask := floatZ.Greater(z)
		zFloor := floatZ.Sub(one.Masked(adjMask))
		intFloor := intZ.Sub(oneInt.Masked(adjMask))
		g := xClamped.Sub(zFloor.Mul(ln2Hi)).Sub(zFloor.Mul(ln2Lo))
		n := intFloor.ToBits().Add(bias).ShiftAllLeft(23).BitsToFloat32()
		poly := p7.MulAdd(g, p6)
		poly = poly.MulAdd(g, p5)
		poly = poly.MulAdd(g, p4)
		poly = poly.MulAdd(g, p3)
		poly = poly.MulAdd(g, p2)
		poly = poly.Mul(g).Mul(g).Add(g).Add(one)
		r := n.Mul(poly)
		if sigmoid {
			r = one.Div(one.Add(r))
		}
		if full {
			r.Store(out[i:])
		} else {
			r.StorePart(out[i:])
		}
	}
}

// execExpSlices runs a float32 Exp or Logistic over its whole tensor, split across the
// backend's workers; other types fall back to the generic SIMD kernels.
func execExpSlices(backend *gobackend.Backend, node *gobackend.Node, inputs []*gobackend.Buffer, inputsOwned []bool) (*gobackend.Buffer, error) {
	if inputs[0].RawShape.DType != dtypes.Float32 {
		return nil, gobackend.ErrFallback
	}
	kernel := expFloat32Slice
	if node.OpType == compute.OpTypeLogistic {
		kernel = sigmoidFloat32Slice
	}
	input, output, err := unaryOperandAndOutput(backend, inputs, inputsOwned)
	if err != nil {
		return nil, err
	}
	if backend.NoOps {
		return output, nil
	}
	in, out := input.Flat.([]float32), output.Flat.([]float32)
	splitWork(backend, len(out), expMinChunk, func(lo, hi int) { kernel(in[lo:hi], out[lo:hi]) })
	return output, nil
}
