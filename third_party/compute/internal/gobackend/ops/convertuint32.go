// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

// Random bits to float32 (gexph patch, see PATCHES.md at the module root).
//
// RandomUniform turns random uint32 bits into float32 values with ConvertDType, and the
// generic conversion runs one scalar conversion per element (through int64: amd64 has
// no unsigned one below AVX-512): on Peptides-func, whose dropout draws a value for every
// element of the layers' states, 6 % of the step's CPU. The executor below converts a
// SIMD vector at a time as float32(x >> 16)·65536 + float32(x & 0xFFFF): both terms are
// exact and IEEE addition rounds their exact sum once, to nearest even, which is what
// the scalar conversion does; the results are equal bit for bit.

import (
	"simd"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
)

func init() {
	ConvertDTypePairMap.Register(dtypes.Uint32, dtypes.Float32, PrioritySIMD, execConvertUint32ToFloat32)
}

// execConvertUint32ToFloat32 converts the uint32 operand to float32 in output.
func execConvertUint32ToFloat32(operand, output *gobackend.Buffer) {
	convertUint32ToFloat32(operand.Flat.([]uint32), output.Flat.([]float32))
}

// convertUint32ToFloat32 sets out[i] = float32(in[i]), a SIMD vector at a time.
func convertUint32ToFloat32(in []uint32, out []float32) {
	out = out[:len(in)]
	vLen := simd.BroadcastFloat32s(0).Len()
	low := simd.BroadcastUint32s(0xFFFF)
	scale := simd.BroadcastFloat32s(65536)
	i := 0
	for ; i+vLen <= len(in); i += vLen {
		x := simd.LoadUint32s(in[i:])
		hi := x.ShiftAllRight(16).BitsToInt32().ConvertToFloat32().Mul(scale)
		lo := x.And(low).BitsToInt32().ConvertToFloat32()
		hi.Add(lo).Store(out[i:])
	}
	for ; i < len(in); i++ {
		out[i] = float32(in[i])
	}
}
