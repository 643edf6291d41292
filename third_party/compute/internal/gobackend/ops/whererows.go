// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

package ops

// Where with one condition a row (gexph patch, see PATCHES.md at the module root): a
// condition whose last axis is 1 where the output's is longer (a mask of nodes applied to
// their feature rows, [N, 1] against [N, D]) took the general broadcasting loop one
// element at a time, with its index arithmetic for each. It picks whole rows instead:
// the same values, selected, never computed.

import "github.com/gomlx/compute/internal/gobackend"

// whereRows writes Where(condition, onTrue, onFalse) into output and returns true where
// the condition holds one value a row: its shape is the output's but for a last axis of
// 1, and onTrue and onFalse are each the output's shape or a scalar. Otherwise it writes
// nothing and returns false. output may be onTrue's or onFalse's buffer.
func whereRows[T gobackend.SupportedTypesConstraints](condition, onTrue, onFalse, output *gobackend.Buffer) bool {
	cs, ts, fs, shape := condition.RawShape, onTrue.RawShape, onFalse.RawShape, output.RawShape
	rank := shape.Rank()
	if rank == 0 || cs.Rank() != rank || cs.Dimensions[rank-1] != 1 || shape.Dimensions[rank-1] < 2 ||
		!(ts.Equal(shape) || ts.IsScalar()) || !(fs.Equal(shape) || fs.IsScalar()) {
		return false
	}
	for a := range rank - 1 {
		if cs.Dimensions[a] != shape.Dimensions[a] {
			return false
		}
	}
	cond, t, f, out := condition.Flat.([]bool), onTrue.Flat.([]T), onFalse.Flat.([]T), output.Flat.([]T)
	width := shape.Dimensions[rank-1]
	for r, c := range cond {
		src, scalar := f, fs.IsScalar()
		if c {
			src, scalar = t, ts.IsScalar()
		}
		row := out[r*width : (r+1)*width]
		if scalar {
			for i := range row {
				row[i] = src[0]
			}
		} else {
			copy(row, src[r*width:(r+1)*width])
		}
	}
	return true
}
