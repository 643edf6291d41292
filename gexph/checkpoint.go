package gexph

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// A checkpoint file is the magic "GEXPHCK2", the length of a JSON header as a
// little-endian uint64, the header (CheckpointInfo plus the variable table), the raw
// bytes of every variable in the table's order, and a CRC-32 (IEEE, little-endian) of
// everything before it, header included. Files are written atomically (a temporary file
// in the same directory, then a rename), so a crash leaves the previous checkpoint
// intact. Files of the first format ("GEXPHCK1", whose CRC in the header covered the
// variables only) are still read.
const (
	checkpointMagic   = "GEXPHCK2"
	checkpointMagicV1 = "GEXPHCK1"
)

// Checkpoint file names inside TrainOptions.OutDir.
const (
	// LastCheckpointFile holds the state after the last completed epoch (for Resume).
	LastCheckpointFile = "last.ckpt"
	// BestCheckpointFile holds the model of the best validation epoch, without the
	// optimizer's state (it evaluates, predicts and exports; last.ckpt resumes).
	BestCheckpointFile = "best.ckpt"
	// LogFile holds one JSON line per completed epoch.
	LogFile = "log.jsonl"
	// ResultFile holds the Result of a finished run; it is removed when a run starts
	// or resumes in the directory, so it is never older than the checkpoints.
	ResultFile = "result.json"
)

// RunFiles lists the files a run writes in its output directory.
func RunFiles() []string {
	return []string{LastCheckpointFile, BestCheckpointFile, LogFile, CSVLogFile, ResultFile}
}

// CheckpointInfo is the metadata of a checkpoint: what was trained, how far, and the
// history so far. The variables (weights, optimizer state, batch-norm statistics, the
// random-number state) travel with it in the file.
type CheckpointInfo struct {
	// Config is the configuration of the run.
	Config Config `json:"config"`
	// Dataset is the data set's name.
	Dataset string `json:"dataset"`
	// DatasetSpec is the data.Load spec the run loaded, paths absolute
	// ("edgelist:/home/me/graph"), so that eval and predict load the same data without
	// being told; empty in checkpoints of older versions and of runs given a data set
	// (Train without TrainOptions.DataSpec), where Dataset names it.
	DatasetSpec string `json:"dataset_spec,omitempty"`
	// DatasetFingerprint identifies the data set's content (data.Dataset.Fingerprint,
	// before the config's MaxTrain/MaxVal/MaxTest cuts); empty in checkpoints of older
	// versions.
	DatasetFingerprint string `json:"dataset_fingerprint,omitempty"`
	// Epoch is the number of completed epochs.
	Epoch int `json:"epoch"`
	// BestEpoch is the epoch (1-based) with the best validation metric so far, 0 if none.
	BestEpoch int `json:"best_epoch"`
	// BestVal is that best validation metric.
	BestVal float64 `json:"best_val"`
	// History holds the statistics of the completed epochs.
	History []EpochStats `json:"history"`
	// Schema is what the model needs of its data (task, features, outputs): data of
	// another schema is refused by name, data of this one accepted; nil in checkpoints
	// of older versions (their schema is read from their variables).
	Schema *Schema `json:"schema,omitempty"`
	// Padding is the batch padding the run trained with (TrainOptions.Padding, the
	// default resolved: "plan", "none", …); a resumed run keeps it unless told another.
	// Empty in checkpoints of older versions.
	Padding string `json:"padding,omitempty"`
	// Half is set in a checkpoint written by WriteHalfCheckpoint, whose float32
	// variables are stored as float16; nil otherwise.
	Half *HalfPrecision `json:"half,omitempty"`
}

// HalfPrecision describes a checkpoint whose float32 variables are stored as float16
// (IEEE half precision, rounded to nearest even): it reads back as float32 with the
// rounded values, so its figures are its own, re-derived from it.
type HalfPrecision struct {
	// Source is the file name of the float32 checkpoint it was made from.
	Source string `json:"source"`
	// MaxRelError is the largest relative rounding error of a value in float16's normal
	// range (magnitude at least 2⁻¹⁴; at most 2⁻¹¹). Smaller values keep fewer bits.
	MaxRelError float64 `json:"max_rel_error"`
	// Val and Test are the metrics of the rounded model on the run's validation and test
	// splits, as gexph eval gives them (nil until evaluated).
	Val  *float64 `json:"val,omitempty"`
	Test *float64 `json:"test,omitempty"`
}

// savedVariable describes one variable in a checkpoint.
type savedVariable struct {
	Path       string `json:"path"`
	DType      string `json:"dtype"`
	Dimensions []int  `json:"dimensions"`
	Trainable  bool   `json:"trainable"`
	Bytes      int64  `json:"bytes"`
}

type checkpointHeader struct {
	CheckpointInfo
	ByteOrder string `json:"byte_order"`
	// CRC32 is the first format's CRC of the variable bytes; the second format's CRC
	// follows the variables and covers the whole file.
	CRC32     uint32          `json:"crc32,omitempty"`
	Variables []savedVariable `json:"variables"`
}

// optimizerScope is the scope of the optimizer's state (Adam's moments and step count).
const optimizerScope = "/" + optimizer.AdamDefaultScope + "/"

// saveCheckpoint writes info and every variable of store (in the store's order) to path;
// with modelOnly, the optimizer's state is left out: the model alone (a third of the
// size under Adam), which evaluates, predicts and exports but does not resume.
func saveCheckpoint(path string, info CheckpointInfo, store *model.Store, modelOnly bool) error {
	var values []*tensors.Tensor
	hdr := checkpointHeader{CheckpointInfo: info, ByteOrder: "little"}
	for v := range store.IterVariables() {
		if !v.HasValue() || modelOnly && strings.HasPrefix(v.Path(), optimizerScope) {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return fmt.Errorf("checkpoint %s: variable %s: %w", path, v.Path(), err)
		}
		sh := v.Shape()
		hdr.Variables = append(hdr.Variables, savedVariable{
			Path: v.Path(), DType: sh.DType.String(), Dimensions: sh.Dimensions,
			Trainable: v.Trainable, Bytes: t.Shape().ByteSize(),
		})
		values = append(values, t)
	}
	return writeCheckpointFile(path, hdr, values)
}

// writeCheckpointFile writes a checkpoint of header hdr and the variables' values (in
// hdr.Variables' order, each of the size its Bytes says) to path, atomically. Each
// value's bytes go from the tensor to the file as they are, not copied first: writing
// a checkpoint needs no second copy of the model and its optimizer's state in memory.
func writeCheckpointFile(path string, hdr checkpointHeader, values []*tensors.Tensor) error {
	if len(values) != len(hdr.Variables) {
		return fmt.Errorf("checkpoint %s: %d values for %d variables", path, len(values), len(hdr.Variables))
	}
	header, err := json.Marshal(hdr)
	if err != nil {
		return fmt.Errorf("checkpoint %s: encoding header: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		crc := crc32.NewIEEE()
		put := func(b []byte) error {
			crc.Write(b)
			_, err := w.Write(b)
			return err
		}
		n := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
		for _, part := range [][]byte{[]byte(checkpointMagic), n, header} {
			if err := put(part); err != nil {
				return err
			}
		}
		for i, t := range values {
			if err := putTensorBytes(t, hdr.Variables[i], put); err != nil {
				return fmt.Errorf("checkpoint %s: %w", path, err)
			}
		}
		_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
		return err
	})
}

// putTensorBytes passes t's raw bytes to put, in place, after checking that they are as
// many as v, the variable's header entry, says.
func putTensorBytes(t *tensors.Tensor, v savedVariable, put func([]byte) error) error {
	var putErr error
	err := t.ConstBytes(func(b []byte) {
		if int64(len(b)) != v.Bytes {
			putErr = fmt.Errorf("variable %s: %d bytes, its header says %d", v.Path, len(b), v.Bytes)
			return
		}
		putErr = put(b)
	})
	if err != nil {
		return fmt.Errorf("variable %s: %w", v.Path, err)
	}
	return putErr
}

// loadedCheckpoint is a checkpoint read from disk.
type loadedCheckpoint struct {
	info   CheckpointInfo
	vars   []savedVariable
	values []*tensors.Tensor
}

// ReadCheckpointInfo returns the metadata of the checkpoint at path, checking the
// file's integrity.
func ReadCheckpointInfo(path string) (CheckpointInfo, error) {
	ck, err := readCheckpoint(path)
	if err != nil {
		return CheckpointInfo{}, err
	}
	return ck.info, nil
}

// maxCheckpointHeader bounds the JSON header, so a corrupt length cannot exhaust memory.
const maxCheckpointHeader = 1 << 30

// readCheckpoint reads and checks the checkpoint at path; the variables of a float16
// checkpoint (WriteHalfCheckpoint) come back as float32.
func readCheckpoint(path string) (*loadedCheckpoint, error) {
	ck, err := readRawCheckpoint(path)
	if err != nil {
		return nil, err
	}
	ck.widenHalf()
	return ck, nil
}

// readRawCheckpoint reads and checks the checkpoint at path, its variables in the dtypes
// the file stores.
func readRawCheckpoint(path string) (*loadedCheckpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	br := bufio.NewReader(f)
	fail := func(format string, args ...any) (*loadedCheckpoint, error) {
		return nil, fmt.Errorf("checkpoint %s: %s", path, fmt.Sprintf(format, args...))
	}
	var prefix [16]byte
	if _, err := io.ReadFull(br, prefix[:]); err != nil || (string(prefix[:8]) != checkpointMagic && string(prefix[:8]) != checkpointMagicV1) {
		return fail("not a gexph checkpoint (bad magic)")
	}
	v1 := string(prefix[:8]) == checkpointMagicV1
	// The whole-file CRC of the second format sees every byte read after the prefix.
	fileCRC := crc32.NewIEEE()
	fileCRC.Write(prefix[:])
	r := io.TeeReader(br, fileCRC)
	trailer := int64(4)
	if v1 {
		trailer = 0
	}
	hlen := binary.LittleEndian.Uint64(prefix[8:])
	if hlen > maxCheckpointHeader || int64(hlen) > st.Size()-16-trailer {
		return fail("header length %d exceeds the file size %d", hlen, st.Size())
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return fail("reading header: %v", err)
	}
	var hdr checkpointHeader
	if err := json.Unmarshal(header, &hdr); err != nil {
		return fail("decoding header: %v", err)
	}
	if hdr.ByteOrder != "little" {
		return fail("byte order %q not supported", hdr.ByteOrder)
	}
	remaining := st.Size() - 16 - int64(hlen) - trailer
	// Older versions stored the fanout of a full-batch run, which sampled nothing (and
	// was not checked): the config is the one that ran.
	hdr.CheckpointInfo.Config = hdr.CheckpointInfo.Config.withoutIdleFanout()
	ck := &loadedCheckpoint{info: hdr.CheckpointInfo, vars: hdr.Variables}
	crc := crc32.NewIEEE()
	for _, sv := range hdr.Variables {
		dt, err := dtypes.DTypeString(sv.DType)
		if err != nil {
			return fail("variable %s: dtype %q: %v", sv.Path, sv.DType, err)
		}
		// The element count is bounded by the bytes left before any product can
		// overflow, so a forged shape cannot wrap around to a small size.
		elems := int64(1)
		for _, d := range sv.Dimensions {
			if d < 0 {
				return fail("variable %s: negative dimension in %v", sv.Path, sv.Dimensions)
			}
			if d > 0 && elems > remaining/int64(d) {
				return fail("variable %s: shape %v larger than the %d bytes left in the file", sv.Path, sv.Dimensions, remaining)
			}
			elems *= int64(d)
		}
		shape := shapes.Make(dt, sv.Dimensions...)
		if shape.ByteSize() != sv.Bytes || sv.Bytes > remaining {
			return fail("variable %s: %d bytes for shape %s (%d bytes left in the file)", sv.Path, sv.Bytes, shape, remaining)
		}
		remaining -= sv.Bytes
		t := tensors.FromShape(shape)
		var rerr error
		if err := t.MutableBytes(func(b []byte) { _, rerr = io.ReadFull(r, b); crc.Write(b) }); err != nil {
			return fail("variable %s: %v", sv.Path, err)
		}
		if rerr != nil {
			return fail("variable %s: %v", sv.Path, rerr)
		}
		ck.values = append(ck.values, t)
	}
	if remaining != 0 {
		return fail("%d trailing bytes", remaining)
	}
	if v1 {
		if crc.Sum32() != hdr.CRC32 {
			return fail("CRC mismatch: the file is corrupt")
		}
		return ck, nil
	}
	var stored [4]byte
	if _, err := io.ReadFull(br, stored[:]); err != nil {
		return fail("reading the CRC: %v", err)
	}
	if binary.LittleEndian.Uint32(stored[:]) != fileCRC.Sum32() {
		return fail("CRC mismatch: the file is corrupt or was edited")
	}
	return ck, nil
}

// restore creates (or overwrites) every variable of the checkpoint in store, in the
// checkpoint's order, with its trainable flag.
func (ck *loadedCheckpoint) restore(store *model.Store) error {
	for i, sv := range ck.vars {
		if v := store.GetVariable(sv.Path); v != nil {
			if !v.Shape().Equal(ck.values[i].Shape()) {
				return fmt.Errorf("checkpoint: variable %s has shape %s, the model's is %s", sv.Path, ck.values[i].Shape(), v.Shape())
			}
			if err := v.SetValue(ck.values[i]); err != nil {
				return fmt.Errorf("checkpoint: variable %s: %w", sv.Path, err)
			}
			v.SetTrainable(sv.Trainable)
			continue
		}
		v, err := store.CreateVariable(sv.Path, ck.values[i])
		if err != nil {
			return fmt.Errorf("checkpoint: variable %s: %w", sv.Path, err)
		}
		v.SetTrainable(sv.Trainable)
	}
	return nil
}

// convertFloat returns t in dtype when both are float32 or float64 (a float64 model's
// weights copied from a float32 one), else t as it is.
func convertFloat(t *tensors.Tensor, dtype dtypes.DType) *tensors.Tensor {
	from := t.Shape().DType
	if from == dtype || !isF32OrF64(from) || !isF32OrF64(dtype) {
		return t
	}
	dims := t.Shape().Dimensions
	if from == dtypes.Float32 {
		src := tensors.MustCopyFlatData[float32](t)
		out := make([]float64, len(src))
		for i, x := range src {
			out[i] = float64(x)
		}
		return tensors.FromFlatDataAndDimensions(out, dims...)
	}
	src := tensors.MustCopyFlatData[float64](t)
	out := make([]float32, len(src))
	for i, x := range src {
		out[i] = float32(x)
	}
	return tensors.FromFlatDataAndDimensions(out, dims...)
}

// isF32OrF64 tells whether dtype is float32 or float64.
func isF32OrF64(dtype dtypes.DType) bool { return dtype == dtypes.Float32 || dtype == dtypes.Float64 }

// CopyWeightsFrom gives every variable of m the value of the variable of the same path in
// src (as a host copy, so the two models may live on different backends), creating the
// ones m lacks. Shapes must agree; float32 and float64 values are converted to the
// dtype of m's variable (ModelOptions.Float64).
func (m *Model) CopyWeightsFrom(src *Model) error {
	for v := range src.store.IterVariables() {
		if !v.HasValue() {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return fmt.Errorf("variable %s: %w", v.Path(), err)
		}
		host, err := t.LocalClone()
		if err != nil {
			return fmt.Errorf("variable %s: %w", v.Path(), err)
		}
		w := m.store.GetVariable(v.Path())
		if w == nil {
			if w, err = m.store.CreateVariable(v.Path(), host); err != nil {
				return fmt.Errorf("variable %s: %w", v.Path(), err)
			}
			w.SetTrainable(v.Trainable)
			continue
		}
		host = convertFloat(host, w.Shape().DType)
		if !w.Shape().Equal(host.Shape()) {
			return fmt.Errorf("variable %s: shape %s against %s", v.Path(), w.Shape(), host.Shape())
		}
		if err := w.SetValue(host); err != nil {
			return fmt.Errorf("variable %s: %w", v.Path(), err)
		}
	}
	return nil
}

// CheckpointVariable is one variable of a checkpoint: its path in the model
// ("/layer_0/attention/…"), its GoMLX dtype name and dimensions, whether it is trained,
// and its raw bytes (little-endian, row-major).
type CheckpointVariable struct {
	Path, DType string
	Dims        []int
	Trainable   bool
	Data        []byte
}

// ReadCheckpointVariables returns the metadata and every variable of the checkpoint at
// path — the model's, the optimizer's and the random-number state's — checking the
// file's integrity.
func ReadCheckpointVariables(path string) (CheckpointInfo, []CheckpointVariable, error) {
	ck, err := readCheckpoint(path)
	if err != nil {
		return CheckpointInfo{}, nil, err
	}
	vars := make([]CheckpointVariable, len(ck.vars))
	for i, v := range ck.vars {
		vars[i] = CheckpointVariable{Path: v.Path, DType: v.DType, Dims: v.Dimensions, Trainable: v.Trainable}
		if vars[i].Data, err = tensorBytes(ck.values[i]); err != nil {
			return CheckpointInfo{}, nil, fmt.Errorf("%s: variable %s: %w", path, v.Path, err)
		}
	}
	return ck.info, vars, nil
}

// tensorBytes returns a copy of t's raw bytes.
func tensorBytes(t *tensors.Tensor) ([]byte, error) {
	var blob []byte
	err := t.ConstBytes(func(b []byte) { blob = bytes.Clone(b) })
	return blob, err
}
