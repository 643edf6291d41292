package dirlock

import (
	"errors"
	"os"
	"os/exec"
	"testing"
)

// A directory held by one process cannot be acquired by another until it is released.
// The other process is this test binary run again (flock locks belong to open files,
// so a second Acquire in this process would also fail, but for the wrong reason).
func TestAcquireFailsWhileAnotherProcessHoldsTheDirectory(t *testing.T) {
	if dir := os.Getenv("DIRLOCK_TEST_DIR"); dir != "" {
		_, err := Acquire(dir)
		if errors.Is(err, ErrLocked) {
			os.Exit(3)
		}
		if err != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	dir := t.TempDir()
	other := func() int {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestAcquireFailsWhileAnotherProcessHoldsTheDirectory$")
		cmd.Env = append(os.Environ(), "DIRLOCK_TEST_DIR="+dir)
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	if code := other(); code != 3 {
		t.Errorf("while held: the other process exited %d, want 3 (ErrLocked)", code)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if code := other(); code != 0 {
		t.Errorf("after release: the other process exited %d, want 0 (acquired)", code)
	}
	if err := l.Release(); err != nil {
		t.Errorf("second release: %v", err)
	}
}
