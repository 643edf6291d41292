// Package dirsnap takes snapshots of a directory for tests that check that a command
// left it as it was: every entry's bytes (or "dir"), the run directory's lock file
// aside.
package dirsnap

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/gexph/gexph/internal/dirlock"
)

// Take returns every entry under dir but the lock file, by relative path: a file's
// bytes, or "dir" for a directory.
func Take(t testing.TB, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || path == dir || e.Name() == dirlock.FileName {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if e.IsDir() {
			snap[rel] = "dir"
			return nil
		}
		b, err := os.ReadFile(path)
		snap[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// RequireSame fails t unless dir holds exactly before's entries, byte for byte, naming
// each entry that is gone, changed or new; what says which step is checked.
func RequireSame(t testing.TB, what, dir string, before map[string]string) {
	t.Helper()
	after := Take(t, dir)
	for name, b := range before {
		if a, ok := after[name]; !ok {
			t.Errorf("%s: %s is gone", what, name)
		} else if a != b {
			t.Errorf("%s: %s changed", what, name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s: %s appeared", what, name)
		}
	}
}
