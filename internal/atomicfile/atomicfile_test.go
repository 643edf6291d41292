package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(path, []byte("new contents")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new contents" {
		t.Fatalf("read %q, %v", got, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// A failing writer leaves the old file untouched, no temporary file, and an error
// naming the path.
func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v: want boom naming %s", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("old file changed to %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := WriteBytes(filepath.Join(dir, "missing", "f.txt"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// RemoveTemps removes the temporary files of the named file only, whatever characters
// its name holds, and leaves the file itself.
func TestRemoveTempsRemovesOnlyThatFilesTemporaries(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a[1].ckpt", ".a[1].ckpt.tmp123", ".a[1].ckpt.tmp9", ".b.ckpt.tmp1", ".a1.ckpt.tmp5"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveTemps(filepath.Join(dir, "a[1].ckpt")); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if got, want := strings.Join(left, " "), ".a1.ckpt.tmp5 .b.ckpt.tmp1 a[1].ckpt"; got != want {
		t.Errorf("left %q, want %q", got, want)
	}
}

// Rename replaces the target and leaves nothing at the old name; SyncDir and Rename name
// what they could not do.
func TestRenameReplacesAndSyncDirNamesAMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "a"), filepath.Join(dir, "sub", "b")
	if err := os.Mkdir(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(from, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Rename(from, to); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(to); err != nil || string(got) != "new" {
		t.Errorf("target holds %q (%v), want the renamed file's \"new\"", got, err)
	}
	if _, err := os.Stat(from); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old name still there (%v)", err)
	}
	missing := filepath.Join(dir, "nosuchdir")
	if err := SyncDir(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("SyncDir of a missing directory: error %v, want one naming it", err)
	}
	if err := Rename(filepath.Join(dir, "gone"), to); err == nil {
		t.Error("Rename of a missing file: no error")
	}
}
