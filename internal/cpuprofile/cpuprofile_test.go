package cpuprofile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartWritesAProfileAndRefusesASecond profiles a busy loop into a gzip-compressed
// pprof file, refuses a second profile while the first runs (naming its path, leaving no
// file behind), and names a path that cannot be created.
func TestStartWritesAProfileAndRefusesASecond(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	stop, err := Start(path)
	if err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(dir, "second.prof")
	if _, err := Start(second); err == nil || !strings.Contains(err.Error(), second) {
		t.Errorf("a second profile while one runs: error %v, want one naming %s", err, second)
	}
	if _, err := os.Stat(second); !os.IsNotExist(err) {
		t.Errorf("the refused profile left %s (%v)", second, err)
	}
	x := 0.0
	for i := range 20_000_000 {
		x += float64(i % 7)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("%s (%d bytes, loop sum %g) is not a gzip-compressed pprof profile", path, len(b), x)
	}
	missing := filepath.Join(dir, "no", "such", "dir", "cpu.prof")
	if _, err := Start(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("profile in a missing directory: error %v, want one naming %s", err, missing)
	}
}
