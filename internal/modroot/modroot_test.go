package modroot

import (
	"os"
	"path/filepath"
	"testing"
)

// Find climbs to the nearest go.mod, and SharedData names ../shared/data beside it; a
// tree without go.mod has no root.
func TestFindClimbsToTheNearestGoMod(t *testing.T) {
	top := t.TempDir()
	mod := filepath.Join(top, "proj")
	deep := filepath.Join(mod, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok := Find(deep); ok {
		t.Fatal("found a module root before go.mod was written")
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if root, ok := Find(deep); !ok || root != mod {
		t.Errorf("Find(%s) = %s, %v; want %s", deep, root, ok, mod)
	}
	if dir, ok := SharedData(deep); !ok || dir != filepath.Join(top, "shared", "data") {
		t.Errorf("SharedData = %s, %v", dir, ok)
	}
}
