//go:build xla

package gexph

import (
	"context"
	"testing"
)

func TestXLABackendMissingPlugin(t *testing.T) {
	if _, err := NewBackend("xla:/nonexistent/pjrt_plugin.so"); err == nil {
		t.Error("a missing PJRT plugin gave no error")
	}
}

// TestXLATrainsWhenAvailable trains one epoch on XLA's CPU plugin when it is installed.
func TestXLATrainsWhenAvailable(t *testing.T) {
	if _, err := NewBackend("xla:cpu"); err != nil {
		t.Skipf("no XLA CPU plugin: %v", err)
	}
	cfg := tinyConfig()
	cfg.Epochs = 1
	res, err := Train(context.Background(), cfg, tinyNodeDataset(8, 1), TrainOptions{Backend: "xla:cpu"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Backend != "xla:cpu" || res.Epochs != 1 {
		t.Errorf("result %+v", res)
	}
}
