// Package dirlock gives one process at a time a directory: a training run holds its
// output directory so that a second run on the same directory fails at once instead of
// interleaving checkpoints, logs and results with the first.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// FileName is the lock file inside a locked directory. It stays after the lock is
// released; only the lock on it matters, and the kernel drops that when the process
// exits, however it exits.
const FileName = ".lock"

// ErrLocked is returned by Lock when another process holds the directory.
var ErrLocked = errors.New("the directory is in use by another process")

// A Lock is a held directory lock.
type Lock struct {
	f *os.File
}

// Acquire locks dir (which must exist) for this process, or fails with an error wrapping
// ErrLocked when another process holds it. It does not wait.
func Acquire(dir string) (*Lock, error) {
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, ErrLocked) {
			return nil, fmt.Errorf("%s: %w (another gexph run writes there; wait for it, or pick another directory)", dir, ErrLocked)
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return &Lock{f: f}, nil
}

// Release releases the lock; a nil Lock or a second call does nothing.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the file drops the lock
	l.f = nil
	return err
}
