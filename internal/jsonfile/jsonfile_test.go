package jsonfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadFileLimit refuses an endless stream after reading limit+1 bytes and an oversized
// regular file by its size, each with an error naming the file, what it was read as
// and the bound; a file within the bound is read whole.
func TestReadFileLimitRefusesEndlessStreamsAndHugeFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := ReadFileLimit("/dev/zero", 1<<20, "config file")
		if err == nil || !strings.Contains(err.Error(), "/dev/zero") || !strings.Contains(err.Error(), "1048576 bytes a config file may have") {
			t.Errorf("/dev/zero: %v, want a refusal naming the file and the bound", err)
		}
	}
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil { // sparse: no disk used
		t.Skipf("sparse file: %v", err)
	}
	if _, err := ReadFileLimit(huge, 1<<20, "JSON file"); err == nil || !strings.Contains(err.Error(), "1099511627776 bytes, more than the 1048576") {
		t.Errorf("1 TiB sparse file: %v, want a refusal by its size", err)
	}
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFileLimit(small, 7, "JSON file"); err != nil || string(b) != `{"a":1}` {
		t.Errorf("7-byte file with a 7-byte bound: %q, %v", b, err)
	}
}
