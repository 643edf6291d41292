package gexph

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/dirlock"
	"github.com/gexph/gexph/layers"
)

// oneEpochCheckpoint trains a tiny model for one epoch and returns its run directory
// and the bytes of its last.ckpt.
func oneEpochCheckpoint(t *testing.T) (string, []byte) {
	t.Helper()
	cfg := tinyConfig()
	cfg.Epochs = 1
	dir := t.TempDir()
	train(t, cfg, tinyNodeDataset(8, 11), TrainOptions{OutDir: dir})
	good, err := os.ReadFile(filepath.Join(dir, LastCheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	return dir, good
}

// Editing a value of the JSON header (here best_val, keeping the file's length) breaks
// the whole-file CRC, as a flipped weight does.
func TestCheckpointCRCCoversTheHeader(t *testing.T) {
	dir, good := oneEpochCheckpoint(t)
	i := bytes.Index(good, []byte(`"epoch":1`))
	if i < 0 {
		t.Fatalf("no epoch in the header: %q", good[:200])
	}
	edited := bytes.Clone(good)
	edited[i+len(`"epoch":`)] = '7'
	path := filepath.Join(dir, "edited.ckpt")
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCheckpointInfo(path); err == nil || !strings.Contains(err.Error(), "CRC") {
		t.Errorf("edited epoch: error %v, want a CRC mismatch", err)
	}
}

// A checkpoint of the first format (CRC of the variables in the header, no trailer)
// still reads, with the same variables; corrupting its variables is still caught.
func TestCheckpointOfTheFirstFormatStillReads(t *testing.T) {
	dir, good := oneEpochCheckpoint(t)
	hlen := binary.LittleEndian.Uint64(good[8:16])
	var hdr map[string]any
	if err := json.Unmarshal(good[16:16+hlen], &hdr); err != nil {
		t.Fatal(err)
	}
	vars := good[16+hlen : len(good)-4]
	hdr["crc32"] = crc32.ChecksumIEEE(vars)
	header, err := json.Marshal(hdr)
	if err != nil {
		t.Fatal(err)
	}
	v1 := append([]byte(checkpointMagicV1), binary.LittleEndian.AppendUint64(nil, uint64(len(header)))...)
	v1 = append(append(v1, header...), vars...)
	path := filepath.Join(dir, "v1.ckpt")
	if err := os.WriteFile(path, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := checkpointFloats(t, filepath.Join(dir, LastCheckpointFile)), checkpointFloats(t, path)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d variables", len(a), len(b))
	}
	for name, x := range a {
		if d := maxAbsDiff(x, b[name]); d != 0 {
			t.Errorf("variable %s differs by %g", name, d)
		}
	}
	v1[len(v1)-2] ^= 0xff
	if err := os.WriteFile(path, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCheckpointInfo(path); err == nil || !strings.Contains(err.Error(), "CRC") {
		t.Errorf("corrupt first-format file: error %v, want a CRC mismatch", err)
	}
}

// A run resumed on other data is refused, naming both; the same data under another
// name (a copy of the files) resumes.
func TestResumeRefusesAnotherDataset(t *testing.T) {
	ds := tinyNodeDataset(10, 6)
	cfg := tinyConfig()
	cfg.Epochs = 2
	dir := t.TempDir()
	train(t, cfg, ds, TrainOptions{OutDir: dir, StopAfter: 1})
	other := tinyNodeDataset(10, 7)
	other.Name = ds.Name
	_, err := Train(context.Background(), cfg, other, TrainOptions{OutDir: dir, Resume: true})
	if err == nil || !strings.Contains(err.Error(), "other data") || !strings.Contains(err.Error(), ds.Fingerprint()) {
		t.Errorf("resume on other data: error %v, want one naming the checkpoint's fingerprint", err)
	}
	copied := tinyNodeDataset(10, 6)
	copied.Name = "copy"
	if res := train(t, cfg, copied, TrainOptions{OutDir: dir, Resume: true}); res.Epochs != 2 {
		t.Errorf("resume on a renamed copy: %d epochs, want 2", res.Epochs)
	}
	info, err := ReadCheckpointInfo(filepath.Join(dir, LastCheckpointFile))
	if err != nil || info.DatasetFingerprint != ds.Fingerprint() {
		t.Errorf("checkpoint fingerprint %q (%v), want %q", info.DatasetFingerprint, err, ds.Fingerprint())
	}
}

// A run cannot start in a directory another process holds; a run that starts removes
// the temporary files of interrupted writes, even when it ends before writing its own.
func TestRunDirectoryIsLockedAndTemporariesRemoved(t *testing.T) {
	ds := tinyNodeDataset(6, 12)
	cfg := tinyConfig()
	cfg.Epochs = 1
	dir := t.TempDir()
	held, err := dirlock.Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: dir}); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("locked directory: error %v, want ErrLocked", err)
	}
	held.Release()
	stale := []string{".last.ckpt.tmp123", ".best.ckpt.tmp9", ".log.jsonl.tmp4", ".result.json.tmp1"}
	for _, name := range stale {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("stale"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(cancelled, cfg, ds, TrainOptions{OutDir: dir, Resume: true}); err == nil {
		t.Fatal("cancelled run: no error")
	}
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s survived the start of a run (%v)", name, err)
		}
	}
}

// Graphs without edges in exact shapes end in an error naming the data set and the local
// model, not in the backend's internal one; without a local model, or in padded batches
// (the default plan, powers of two), they train.
func TestEdgelessGraphsNeedNoLocalModel(t *testing.T) {
	ds := tinyNodeDataset(6, 12)
	for i := range ds.Graphs {
		g := &ds.Graphs[i]
		g.Src, g.Dst = nil, nil
		g.Edge = data.Features{Rows: 0}
	}
	cfg := tinyConfig()
	cfg.Epochs = 1
	_, err := Train(context.Background(), cfg, ds, TrainOptions{Padding: "none"})
	if err == nil || !strings.Contains(err.Error(), "without any edge") || !strings.Contains(err.Error(), string(cfg.MPNN)) {
		t.Errorf("edgeless graphs: error %v, want one naming the missing edges and the local model", err)
	}
	cfg.MPNN = layers.LocalNone
	train(t, cfg, ds, TrainOptions{Padding: "none"})
	cfg.MPNN = layers.LocalGatedGCN
	train(t, cfg, ds, TrainOptions{})
	train(t, cfg, ds, TrainOptions{Padding: "pow2"})
}

// FuzzReadCheckpoint: any bytes read as a checkpoint give an error or a checkpoint whose
// variables match its table, never a panic or an allocation the file cannot back.
func FuzzReadCheckpoint(f *testing.F) {
	ds := tinyNodeDataset(4, 3)
	cfg := tinyConfig()
	cfg.Epochs = 1
	dir := f.TempDir()
	if _, err := Train(context.Background(), cfg, ds, TrainOptions{OutDir: dir}); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, LastCheckpointFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(checkpointMagic + "\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Add([]byte(checkpointMagicV1 + "\x40\x00\x00\x00\x00\x00\x00\x00" +
		`{"byte_order":"little","variables":[{"path":"x","dtype":"Float32","dimensions":[4294967296,4294967296],"bytes":0}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "f.ckpt")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ck, err := readCheckpoint(path)
		if err != nil {
			return
		}
		if len(ck.values) != len(ck.vars) {
			t.Fatalf("%d values for %d variables", len(ck.values), len(ck.vars))
		}
		for i, v := range ck.values {
			if int64(v.Shape().ByteSize()) != ck.vars[i].Bytes {
				t.Fatalf("variable %s: %d bytes, table says %d", ck.vars[i].Path, v.Shape().ByteSize(), ck.vars[i].Bytes)
			}
		}
	})
}
