// Package rundir keeps the file-level promises of a run directory: a directory that one
// process at a time writes a known set of files into, and that a new run may replace.
//
//   - One run at a time: Open locks the directory (internal/dirlock) before anything is
//     read or written there; a second Open fails at once and touches nothing.
//   - A replaced run is never lost before its replacement is committed: Replace moves
//     the earlier run's files aside (AsideDir); they are removed once the new run has
//     written its commit file (Commit, or Close), and moved back when it ends without
//     one — also when it was killed, by the next Open (which completes or undoes what
//     a killed run left).
//   - Files are moved with atomic renames and the directory is synced after each, so a
//     kill or a power cut leaves each file whole.
//
// What the files mean, and when a run may start over them, is the caller's (package
// gexph's run directory, TrainOptions.OutDir).
package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"
	"github.com/gexph/gexph/internal/dirlock"
)

// AsideDir holds the earlier run's files while a run that replaces it has not yet
// written its commit file; AsideMovingDir is the directory they pass through on their
// way into or out of it.
const (
	AsideDir       = ".replaced-run"
	AsideMovingDir = ".replaced-run.moving"
)

// Dir is a locked run directory.
type Dir struct {
	dir        string
	files      []string
	commitFile string
	lock       *dirlock.Lock
	// replaced tells that an earlier run's files wait in AsideDir for this run's commit
	// file.
	replaced bool
}

// Existing returns the names among files present in dir, in files' order (none for a
// directory that does not exist).
func Existing(dir string, files []string) ([]string, error) {
	var found []string
	for _, name := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			found = append(found, name)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return found, nil
}

// Open creates and locks dir, a directory of the given run files of which commitFile
// (one of them) marks a run that has saved its state, completes what a killed run left
// unfinished and removes the temporary files of interrupted writes of the run files.
func Open(dir string, files []string, commitFile string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := dirlock.Acquire(dir)
	if err != nil {
		return nil, err
	}
	d := &Dir{dir: dir, files: files, commitFile: commitFile, lock: lock}
	if err := d.recover(); err != nil {
		lock.Release()
		return nil, err
	}
	for _, name := range files {
		if err := atomicfile.RemoveTemps(d.Path(name)); err != nil {
			lock.Release()
			return nil, err
		}
	}
	return d, nil
}

// Root is the directory.
func (d *Dir) Root() string { return d.dir }

// Path is the path of the file name in the directory.
func (d *Dir) Path(name string) string { return filepath.Join(d.dir, name) }

// Replaced tells that an earlier run's files wait aside for this run's commit file.
func (d *Dir) Replaced() bool { return d.replaced }

// OwnEntry tells whether name is an entry of a run directory that is the directory's
// own, not a run file: the lock, a temporary file of an interrupted write, or the aside
// folder of a replaced run.
func OwnEntry(name string) bool {
	return name == dirlock.FileName ||
		strings.HasPrefix(name, ".") && (strings.Contains(name, ".tmp") || strings.HasPrefix(name, AsideDir))
}

// exists tells whether path exists; other errors than its absence are returned.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// recover completes a replacement that a killed run left: files caught moving go back;
// the earlier run comes back when the replacing run wrote no commit file, and is
// removed when it did.
func (d *Dir) recover() error {
	moving, err := exists(d.Path(AsideMovingDir))
	if err != nil || moving {
		if err == nil {
			err = d.moveBack()
		}
		return err
	}
	replaced, err := exists(d.Path(AsideDir))
	if err != nil || !replaced {
		return err
	}
	d.replaced = true
	return d.settle()
}

// settle ends a replacement: the replaced run's files go if the run that replaced it
// wrote its commit file, and come back otherwise.
func (d *Dir) settle() error {
	if !d.replaced {
		return nil
	}
	committed, err := exists(d.Path(d.commitFile))
	switch {
	case err != nil:
		return err
	case committed:
		return d.Commit()
	}
	return d.restore()
}

// Replace moves the earlier run's files aside, into AsideDir: they stay until Commit
// removes them or Close (without a commit file) brings them back.
func (d *Dir) Replace(files []string) error {
	moving := d.Path(AsideMovingDir)
	if err := os.Mkdir(moving, 0o755); err != nil {
		return fmt.Errorf("moving the earlier run aside: %w", err)
	}
	for _, name := range files {
		if err := atomicfile.Rename(d.Path(name), filepath.Join(moving, name)); err != nil {
			return fmt.Errorf("moving the earlier run aside: %w", err)
		}
	}
	if err := atomicfile.Rename(moving, d.Path(AsideDir)); err != nil {
		return fmt.Errorf("moving the earlier run aside: %w", err)
	}
	d.replaced = true
	return nil
}

// Commit removes the replaced run's files; call it once the new run has written its
// commit file. Without a replacement it does nothing.
func (d *Dir) Commit() error {
	if !d.replaced {
		return nil
	}
	if err := os.RemoveAll(d.Path(AsideDir)); err != nil {
		return fmt.Errorf("removing the replaced run: %w", err)
	}
	d.replaced = false
	return atomicfile.SyncDir(d.dir)
}

// restore brings the replaced run back: the files of the run that replaced it (which
// wrote no commit file) go, then the earlier run's come back.
func (d *Dir) restore() error {
	if !d.replaced {
		return nil
	}
	files, err := Existing(d.dir, d.files)
	if err != nil {
		return err
	}
	for _, name := range files {
		if err := os.Remove(d.Path(name)); err != nil {
			return fmt.Errorf("restoring the replaced run: %w", err)
		}
	}
	if err := atomicfile.Rename(d.Path(AsideDir), d.Path(AsideMovingDir)); err != nil {
		return fmt.Errorf("restoring the replaced run: %w", err)
	}
	d.replaced = false
	return d.moveBack()
}

// moveBack moves every file of AsideMovingDir back into the run directory and removes
// it.
func (d *Dir) moveBack() error {
	moving := d.Path(AsideMovingDir)
	entries, err := os.ReadDir(moving)
	if err != nil {
		return fmt.Errorf("restoring the replaced run: %w", err)
	}
	for _, e := range entries {
		if err := atomicfile.Rename(filepath.Join(moving, e.Name()), d.Path(e.Name())); err != nil {
			return fmt.Errorf("restoring the replaced run: %w", err)
		}
	}
	if err := os.Remove(moving); err != nil {
		return fmt.Errorf("restoring the replaced run: %w", err)
	}
	return atomicfile.SyncDir(d.dir)
}

// Close settles a replacement still pending — the replaced run comes back unless this
// run wrote its commit file — and releases the lock.
func (d *Dir) Close() error {
	err := d.settle()
	if rerr := d.lock.Release(); err == nil {
		err = rerr
	}
	return err
}

// Abandon releases the lock and leaves a pending replacement as it is, as a killed
// process leaves it: the next Open completes or undoes it. Tests of that recovery use
// it; a run ends with Close.
func (d *Dir) Abandon() error { return d.lock.Release() }
