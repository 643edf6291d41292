package regfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe in a new folder, or skips where the system has none.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return path
}

// openWithin runs Open(path) and fails the test when it has not returned within a
// few seconds (an open of a FIFO blocks until a writer comes).
func openWithin(t *testing.T, path string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		f, _, err := Open(path)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("Open(%s) blocked", path)
		return nil
	}
}

func TestOpenRefusesFIFOWithoutBlocking(t *testing.T) {
	path := mkfifo(t)
	err := openWithin(t, path)
	if err == nil || !strings.Contains(err.Error(), path+": not a regular file but a named pipe (FIFO)") {
		t.Errorf("Open(FIFO): %v, want a refusal naming the path and the pipe", err)
	}
}

func TestOpenNamesADirectoryAsOne(t *testing.T) {
	dir := t.TempDir()
	_, _, err := Open(dir)
	if err == nil || err.Error() != dir+": is a directory, not a file" {
		t.Errorf("Open(directory): %v, want %q", err, dir+": is a directory, not a file")
	}
}

func TestOpenRefusesADevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, _, err := Open("/dev/zero")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: not a regular file but a character device") {
		t.Errorf("Open(/dev/zero): %v, want a refusal naming the device", err)
	}
}

func TestOpenReadsARegularFileThroughALink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	f, st, err := Open(link)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 8)
	n, _ := f.Read(buf)
	if st.Size() != 3 || string(buf[:n]) != "abc" {
		t.Errorf("read %q of size %d, want \"abc\" of 3", buf[:n], st.Size())
	}
	if _, _, err := Open(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not-exist", err)
	}
}
