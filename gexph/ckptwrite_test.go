package gexph

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"
)

// TestCheckpointFileIsHeaderThenRawValues reads a run's last.ckpt byte by byte, apart
// from readCheckpoint: the magic, the header's length and JSON, then each variable's
// raw bytes as its tensor holds them (as many as the header says), then the CRC-32 of
// all that. It holds writeCheckpointFile, which streams the values from their tensors,
// to the layout that readers of older checkpoints expect.
func TestCheckpointFileIsHeaderThenRawValues(t *testing.T) {
	path := filepath.Join(oneEpochRun(t), LastCheckpointFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := readCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(raw, []byte(checkpointMagic)) {
		t.Fatalf("no magic %q at the start", checkpointMagic)
	}
	at := len(checkpointMagic)
	n := int(binary.LittleEndian.Uint64(raw[at:]))
	at += 8
	var hdr checkpointHeader
	if err := json.Unmarshal(raw[at:at+n], &hdr); err != nil {
		t.Fatalf("header: %v", err)
	}
	at += n
	if len(hdr.Variables) != len(ck.values) || len(hdr.Variables) == 0 {
		t.Fatalf("%d variables in the header, %d read", len(hdr.Variables), len(ck.values))
	}
	for i, v := range hdr.Variables {
		var want []byte
		ck.values[i].ConstBytes(func(b []byte) { want = bytes.Clone(b) })
		if int64(len(want)) != v.Bytes || !bytes.Equal(raw[at:at+len(want)], want) {
			t.Fatalf("variable %s: the file's %d bytes at %d are not its tensor's %d", v.Path, v.Bytes, at, len(want))
		}
		at += len(want)
	}
	if at+4 != len(raw) || binary.LittleEndian.Uint32(raw[at:]) != crc32.ChecksumIEEE(raw[:at]) {
		t.Errorf("the file does not end with the CRC-32 of what precedes it (%d bytes read of %d)", at+4, len(raw))
	}
}

// TestCheckpointWriteRefusesAValueOfAnotherSize gives writeCheckpointFile a header whose
// size for one variable is not its tensor's: an error naming the variable, and no file.
func TestCheckpointWriteRefusesAValueOfAnotherSize(t *testing.T) {
	hdr := checkpointHeader{ByteOrder: "little", Variables: []savedVariable{
		{Path: "/a", DType: "Float32", Dimensions: []int{2}, Bytes: 8},
		{Path: "/b", DType: "Float32", Dimensions: []int{3}, Bytes: 8},
	}}
	values := []*tensors.Tensor{tensors.FromValue([]float32{1, 2}), tensors.FromValue([]float32{1, 2, 3})}
	path := filepath.Join(t.TempDir(), "x.ckpt")
	err := writeCheckpointFile(path, hdr, values)
	if err == nil || !strings.Contains(err.Error(), "/b") || !strings.Contains(err.Error(), "12 bytes") {
		t.Errorf("error %v, want one naming variable /b and its 12 bytes", err)
	}
	if _, statErr := os.Stat(path); !os.IsNotExist(statErr) {
		t.Errorf("a file was left at %s: %v", path, statErr)
	}
	if err := writeCheckpointFile(path, hdr, values[:1]); err == nil {
		t.Error("one value for two variables: no error")
	}
}
