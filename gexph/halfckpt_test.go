package gexph

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/dtypes/float16"
	"github.com/gomlx/gomlx/core/tensors"
)

// TestHalfCheckpointHoldsTheRoundedModel checks a float16 copy of a run's best.ckpt: it
// is smaller; it reads back as float32 with every value equal to its float16 rounding
// (relative error at most 2⁻¹¹ in float16's normal range, as MaxRelError says); its
// metadata is the run's; its model evaluates to nearly the original's loss; and the
// metrics SetHalfMetrics records read back, the weights unchanged.
func TestHalfCheckpointHoldsTheRoundedModel(t *testing.T) {
	dir := oneEpochRun(t)
	src := filepath.Join(dir, BestCheckpointFile)
	dst := filepath.Join(t.TempDir(), "half.ckpt")
	half, err := WriteHalfCheckpoint(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	srcSize, dstSize := fileSize(t, src), fileSize(t, dst)
	if dstSize >= srcSize {
		t.Errorf("float16 copy %d bytes, the source %d", dstSize, srcSize)
	}
	if half.Source != BestCheckpointFile || !(half.MaxRelError > 0 && half.MaxRelError <= 1.0/2048) {
		t.Errorf("half %+v: want source %s and a largest relative error in (0, 2⁻¹¹]", half, BestCheckpointFile)
	}
	srcInfo, srcVars, err := ReadCheckpointVariables(src)
	if err != nil {
		t.Fatal(err)
	}
	info, vars, err := ReadCheckpointVariables(dst)
	if err != nil {
		t.Fatal(err)
	}
	if info.Half == nil || info.Epoch != srcInfo.Epoch || info.BestEpoch != srcInfo.BestEpoch || info.Config.Layers != srcInfo.Config.Layers {
		t.Fatalf("info %+v, the source's %+v", info, srcInfo)
	}
	if len(vars) != len(srcVars) {
		t.Fatalf("%d variables, the source has %d", len(vars), len(srcVars))
	}
	for i, v := range vars {
		sv := srcVars[i]
		if v.Path != sv.Path || v.DType != sv.DType {
			t.Fatalf("variable %d: %s %s, the source's %s %s", i, v.Path, v.DType, sv.Path, sv.DType)
		}
		if sv.DType != dtypes.Float32.String() {
			if string(v.Data) != string(sv.Data) {
				t.Errorf("variable %s (%s) changed", v.Path, v.DType)
			}
			continue
		}
		got, want := float32s(v.Data), float32s(sv.Data)
		for j, x := range want {
			if r := float16.FromFloat32(x).Float32(); got[j] != r {
				t.Fatalf("variable %s[%d]: %v, want %v rounded to float16 (%v)", v.Path, j, got[j], x, r)
			}
		}
	}
	ds := tinyNodeDataset(8, 11)
	orig, err := Evaluate(context.Background(), src, ds, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rounded, err := Evaluate(context.Background(), dst, ds, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(rounded.Test.Loss - orig.Test.Loss); d > 1e-2*math.Abs(orig.Test.Loss) {
		t.Errorf("test loss %v from the float16 copy, %v from the source", rounded.Test.Loss, orig.Test.Loss)
	}
	if err := SetHalfMetrics(dst, rounded.Val.Metric, rounded.Test.Metric); err != nil {
		t.Fatal(err)
	}
	after, afterVars, err := ReadCheckpointVariables(dst)
	if err != nil {
		t.Fatal(err)
	}
	if h := after.Half; h == nil || h.Val == nil || h.Test == nil || *h.Val != rounded.Val.Metric || *h.Test != rounded.Test.Metric {
		t.Errorf("recorded metrics %+v, want validation %v and test %v", after.Half, rounded.Val.Metric, rounded.Test.Metric)
	}
	for i := range afterVars {
		if string(afterVars[i].Data) != string(vars[i].Data) {
			t.Errorf("variable %s changed when the metrics were recorded", vars[i].Path)
		}
	}
}

// TestHalfCheckpointRefusesWhatItCannotKeep checks the refusals of WriteHalfCheckpoint,
// each an error naming the cause: a checkpoint with the optimizer's state, its own
// source as the destination, a checkpoint already in float16, and a value beyond
// float16's range (no file written).
func TestHalfCheckpointRefusesWhatItCannotKeep(t *testing.T) {
	dir := oneEpochRun(t)
	best := filepath.Join(dir, BestCheckpointFile)
	tmp := t.TempDir()
	half := filepath.Join(tmp, "half.ckpt")
	if _, err := WriteHalfCheckpoint(best, half); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(tmp, "big.ckpt")
	ck, err := readRawCheckpoint(best)
	if err != nil {
		t.Fatal(err)
	}
	hdr := checkpointHeader{CheckpointInfo: ck.info, ByteOrder: "little", Variables: ck.vars}
	values := slices.Clone(ck.values)
	bigPath := ""
	for i, v := range values {
		if v.Shape().DType == dtypes.Float32 && bigPath == "" {
			vals := tensors.MustCopyFlatData[float32](v)
			vals[0] = 1e6
			values[i], bigPath = tensors.FromFlatDataAndDimensions(vals, v.Shape().Dimensions...), ck.vars[i].Path
		}
	}
	if err := writeCheckpointFile(big, hdr, values); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, dst, want string }{
		{filepath.Join(dir, LastCheckpointFile), filepath.Join(tmp, "a.ckpt"), "optimizer's state"},
		{best, best, "overwrite its source"},
		{half, filepath.Join(tmp, "b.ckpt"), "already in float16"},
		{big, filepath.Join(tmp, "c.ckpt"), bigPath},
	} {
		_, err := WriteHalfCheckpoint(c.src, c.dst)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s → %s: error %v, want one naming %q", c.src, c.dst, err, c.want)
		}
		if c.dst != c.src {
			if _, err := os.Stat(c.dst); !os.IsNotExist(err) {
				t.Errorf("%s was written (stat: %v)", c.dst, err)
			}
		}
	}
	if err := SetHalfMetrics(best, 0.5, 0.5); err == nil || !strings.Contains(err.Error(), "not a float16") {
		t.Errorf("SetHalfMetrics on a float32 checkpoint: %v", err)
	}
}

// fileSize returns the size of the file at path.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// float32s decodes little-endian float32 bytes.
func float32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
	}
	return out
}
