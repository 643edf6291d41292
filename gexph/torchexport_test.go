package gexph_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/gexph/torchexport"
)

// The safetensors file holds the model's tensors (not the optimizer's), each with the
// checkpoint's bytes, at 8-byte aligned offsets after its JSON header.
func TestExportSafetensorsHoldsTheWeights(t *testing.T) {
	ds := gexph.TinyNodeDataset(6, 3)
	cfg := gexph.TinyConfig()
	cfg.Epochs = 1
	dir := t.TempDir()
	if _, err := gexph.Train(t.Context(), cfg, ds, gexph.TrainOptions{OutDir: dir}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "w.safetensors")
	n, err := torchexport.Safetensors(filepath.Join(dir, gexph.BestCheckpointFile), out)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	hlen := binary.LittleEndian.Uint64(raw)
	if hlen%8 != 0 || !bytes.Contains(raw[8:8+hlen], []byte(`"__metadata__"`)) {
		t.Fatalf("header of %d bytes: %s", hlen, raw[8:8+hlen])
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(raw[8:8+hlen], &header); err != nil {
		t.Fatal(err)
	}
	byName := map[string][]float32{}
	for path, vals := range gexph.CheckpointFloats(t, filepath.Join(dir, gexph.BestCheckpointFile)) {
		byName[strings.ReplaceAll(strings.TrimPrefix(path, "/"), "/", ".")] = vals
	}
	data := raw[8+hlen:]
	tensors := 0
	for name, entry := range header {
		if name == "__metadata__" {
			continue
		}
		tensors++
		if strings.HasPrefix(name, "AdamOptimizer") || strings.Contains(name, "rngState") {
			t.Errorf("%s: optimizer or random state exported", name)
		}
		var e struct {
			DType   string   `json:"dtype"`
			Offsets [2]int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(entry, &e); err != nil {
			t.Fatal(err)
		}
		want, ok := byName[name]
		if !ok || e.DType != "F32" || e.Offsets[1]-e.Offsets[0] != int64(4*len(want)) {
			t.Fatalf("%s: %+v, want F32 holding the checkpoint's %d values", name, e, len(want))
		}
		for k, w := range want {
			if got := math.Float32frombits(binary.LittleEndian.Uint32(data[e.Offsets[0]+int64(4*k):])); got != w {
				t.Fatalf("%s[%d] = %v, the checkpoint holds %v", name, k, got, w)
			}
		}
	}
	if tensors != n || n == 0 {
		t.Errorf("%d tensors in the header, %d reported", tensors, n)
	}
}
