package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataExportRoundTrip exports PATTERN with the data command, reads it back through
// the export: spec and finds the same statistics; a directory holding other files is
// refused and left as it was.
func TestDataExportRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pattern")
	args := []string{"data", "-dataset", "pattern", "-seed", "4", "-train-graphs", "6", "-val-graphs", "2", "-test-graphs", "2", "-json"}
	code, out, errOut := runCLI(t, append(args, "-export", dir)...)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	orig := decodeJSON(t, out)
	if orig["export"] != dir {
		t.Errorf("report names export %v, want %s", orig["export"], dir)
	}
	for _, f := range []string{"meta.json", "train.npz", "val.npz", "test.npz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("export lacks %s: %v", f, err)
		}
	}
	code, out, errOut = runCLI(t, "data", "-dataset", "export:"+dir, "-json")
	if code != 0 {
		t.Fatalf("reading the export: exit %d: %s", code, errOut)
	}
	back := decodeJSON(t, out)
	for _, k := range []string{"graphs", "nodes", "edges", "features", "classes", "train", "val", "test"} {
		if back[k] != orig[k] || orig[k] == nil {
			t.Errorf("%s: %v read back, %v exported", k, back[k], orig[k])
		}
	}
	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut = runCLI(t, append(args, "-export", foreign)...); code == 0 || !strings.Contains(errOut, "choose another directory") {
		t.Errorf("export into a foreign directory: exit %d, %s", code, errOut)
	}
}
