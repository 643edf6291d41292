package gexph

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/gomlx/core/tensors"
)

// WriteHalfCheckpoint writes the model checkpoint at src to dst with its float32
// variables stored as float16, about half the size: for keeping a model where the
// file's size matters (the repository's records of full training runs). The values are
// rounded to 11 significant bits, so the model's figures change slightly; half.Val and
// half.Test, when set, record them (see SetHalfMetrics) and the report shows them. It
// refuses a checkpoint with the optimizer's state (last.ckpt: a rounded one could not
// continue the run as it was), one already in float16, a value beyond float16's range
// (±65504), and dst naming src.
func WriteHalfCheckpoint(src, dst string) (HalfPrecision, error) {
	if sameFile(src, dst) {
		return HalfPrecision{}, fmt.Errorf("half checkpoint: %s would overwrite its source %s", dst, src)
	}
	ck, err := readCheckpoint(src)
	if err != nil {
		return HalfPrecision{}, err
	}
	if ck.info.Half != nil {
		return HalfPrecision{}, fmt.Errorf("half checkpoint: %s is already in float16", src)
	}
	half := HalfPrecision{Source: filepath.Base(src)}
	hdr := checkpointHeader{CheckpointInfo: ck.info, ByteOrder: "little"}
	values := make([]*tensors.Tensor, len(ck.vars))
	for i, sv := range ck.vars {
		if strings.HasPrefix(sv.Path, optimizerScope) {
			return HalfPrecision{}, fmt.Errorf("half checkpoint: %s holds the optimizer's state (variable %s), as a checkpoint that resumes a run does: give a model checkpoint (a run's %s)", src, sv.Path, BestCheckpointFile)
		}
		t := ck.values[i]
		if t.Shape().DType == dtypes.Float32 {
			var worst float64
			if t, worst, err = narrowToHalf(t, sv.Path); err != nil {
				return HalfPrecision{}, fmt.Errorf("half checkpoint: %s: %w", src, err)
			}
			half.MaxRelError = max(half.MaxRelError, worst)
			sv.DType = dtypes.Float16.String()
		}
		values[i], sv.Bytes = t, t.Shape().ByteSize()
		hdr.Variables = append(hdr.Variables, sv)
	}
	hdr.Half = &half
	if err := writeCheckpointFile(dst, hdr, values); err != nil {
		return HalfPrecision{}, err
	}
	return half, nil
}

// SetHalfMetrics records the validation and test metrics of the float16 checkpoint at
// path (as gexph eval gives them) in its header; the weights are left as they are.
func SetHalfMetrics(path string, val, test float64) error {
	ck, err := readRawCheckpoint(path)
	if err != nil {
		return err
	}
	if ck.info.Half == nil {
		return fmt.Errorf("checkpoint %s is not a float16 checkpoint (WriteHalfCheckpoint)", path)
	}
	ck.info.Half.Val, ck.info.Half.Test = &val, &test
	hdr := checkpointHeader{CheckpointInfo: ck.info, ByteOrder: "little", Variables: ck.vars}
	return writeCheckpointFile(path, hdr, ck.values)
}

// minNormalHalf is the smallest normal float16 magnitude, 2⁻¹⁴: values below it keep
// fewer significant bits (and below 2⁻²⁵ round to zero).
const minNormalHalf = 1.0 / (1 << 14)

// narrowToHalf returns the float32 tensor t rounded to float16, and the largest
// relative rounding error of a value in float16's normal range (at most 2⁻¹¹); a value
// beyond float16's range is an error naming the variable.
func narrowToHalf(t *tensors.Tensor, path string) (*tensors.Tensor, float64, error) {
	src := tensors.MustCopyFlatData[float32](t)
	out := make([]float16.Float16, len(src))
	var worst float64
	for i, x := range src {
		h := float16.FromFloat32(x)
		back := h.Float32()
		if math.IsInf(float64(back), 0) && !math.IsInf(float64(x), 0) {
			return nil, 0, fmt.Errorf("variable %s: value %g at index %d is beyond float16's range (±65504)", path, x, i)
		}
		if math.Abs(float64(x)) >= minNormalHalf {
			worst = max(worst, math.Abs(float64(back-x)/float64(x)))
		}
		out[i] = h
	}
	return tensors.FromFlatDataAndDimensions(out, t.Shape().Dimensions...), worst, nil
}

// widenHalf converts the float16 variables of a float16 checkpoint to float32 (the
// dtype the model's variables have), so that everything reading it sees float32.
func (ck *loadedCheckpoint) widenHalf() {
	if ck.info.Half == nil {
		return
	}
	for i, t := range ck.values {
		if t.Shape().DType != dtypes.Float16 {
			continue
		}
		src := tensors.MustCopyFlatData[float16.Float16](t)
		out := make([]float32, len(src))
		for j, h := range src {
			out[j] = h.Float32()
		}
		ck.values[i] = tensors.FromFlatDataAndDimensions(out, t.Shape().Dimensions...)
		ck.vars[i].DType = dtypes.Float32.String()
		ck.vars[i].Bytes = int64(4 * len(out))
	}
}

// sameFile tells whether a and b are the same existing file (by identity: through links
// and other spellings of its path too).
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
