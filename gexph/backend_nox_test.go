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
