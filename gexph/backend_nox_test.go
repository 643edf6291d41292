//go:build !xla

package gexph

import (
	"strings"
	"testing"
)

func TestXLANeedsBuildTag(t *testing.T) {
	if _, err := NewBackend("xla:cpu"); err == nil || !strings.Contains(err.Error(), "-tags xla") {
		t.Errorf("xla without the build tag: error %v", err)
	}
}

// Without XLA, the GPU's names are refused saying how to build a gexph that has it, and
// auto is the go backend.
func TestGPUNamesWithoutXLA(t *testing.T) {
	for _, spec := range []string{"cuda", "xla:cuda,tf32=false"} {
		if _, err := NewBackend(spec); err == nil || !strings.Contains(err.Error(), "make build-xla") {
			t.Errorf("%s without XLA: error %v, want one saying make build-xla", spec, err)
		}
	}
	if got, err := ResolveBackend("auto"); got != "go" || err != nil {
		t.Errorf("auto without XLA: %q, %v; want go", got, err)
	}
	b, err := NewBackend("auto")
	if err != nil || b.Name() == "" {
		t.Fatalf("NewBackend(auto): %v", err)
	}
	b.Finalize()
}
