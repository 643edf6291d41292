package rundir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

var files = []string{"last", "log"}

// write creates the named files of dir, each holding its content.
func write(t *testing.T, dir string, contents map[string]string) {
	t.Helper()
	for name, c := range contents {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// requireFiles checks that dir holds exactly the run files of want, with their contents,
// and no aside folder.
func requireFiles(t *testing.T, what, dir string, want map[string]string) {
	t.Helper()
	for _, name := range append(files, AsideDir, AsideMovingDir) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		w, ok := want[name]
		switch {
		case !ok && !errors.Is(err, fs.ErrNotExist):
			t.Errorf("%s: %s is there (%v), want it gone", what, name, err)
		case ok && (err != nil || string(b) != w):
			t.Errorf("%s: %s holds %q (%v), want %q", what, name, b, err, w)
		}
	}
}

// A replacement is undone when the new run ends (or is killed) without its commit
// file, and completed when it wrote one; a second Open while the first holds the
// directory fails.
func TestReplacementIsCommittedOnlyByTheCommitFile(t *testing.T) {
	dir := t.TempDir()
	earlier := map[string]string{"last": "old", "log": "old log"}
	write(t, dir, earlier)
	for _, kill := range []bool{false, true} {
		d, err := Open(dir, files, "last")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, files, "last"); err == nil {
			t.Fatal("a second Open of a locked directory succeeded")
		}
		found, _ := Existing(dir, files)
		if err := d.Replace(found); err != nil {
			t.Fatal(err)
		}
		write(t, dir, map[string]string{"log": "new log"})
		if kill {
			d.Abandon()
			if d, err = Open(dir, files, "last"); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		requireFiles(t, "ended before its commit file", dir, earlier)
	}
	d, err := Open(dir, files, "last")
	if err != nil {
		t.Fatal(err)
	}
	found, _ := Existing(dir, files)
	if err := d.Replace(found); err != nil || !d.Replaced() {
		t.Fatalf("replace: %v, replaced %v", err, d.Replaced())
	}
	write(t, dir, map[string]string{"last": "new"})
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	d.Close()
	requireFiles(t, "committed", dir, map[string]string{"last": "new"})
}
