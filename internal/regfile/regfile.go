// Package regfile opens the files that loaders read by path, and only regular files:
// a named pipe (FIFO) would block the open until something writes to it, a device may
// never end, and a directory is no file to read. Each is refused before it is opened,
// with a message that names the path and what it is.
package regfile

import (
	"fmt"
	"io/fs"
	"os"
)

// Open opens the regular file at path (a symbolic link is followed) for reading and
// returns it with its information. A path that is not a regular file is refused from
// its os.Stat, before any open: "PATH: is a directory", "PATH: not a regular file but a
// named pipe (FIFO) …". A path replaced by something else between the check and the
// open is refused too.
func Open(path string) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := check(path, st); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err == nil && !os.SameFile(st, opened) {
		err = fmt.Errorf("%s: replaced while it was opened", path)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, opened, nil
}

// check returns nil when st (path's information) is a regular file, and otherwise an
// error naming path and what it is.
func check(path string, st fs.FileInfo) error {
	mode := st.Mode()
	switch {
	case mode.IsRegular():
		return nil
	case mode.IsDir():
		return fmt.Errorf("%s: is a directory, not a file", path)
	}
	return fmt.Errorf("%s: not a regular file but %s", path, kind(mode))
}

// kind names the kind of a file that is neither regular nor a directory, in words: "a
// named pipe (FIFO), which blocks a reader until something writes to it", "a character
// device, which may never end", …
func kind(mode fs.FileMode) string {
	switch t := mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO), which blocks a reader until something writes to it"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device, which may never end"
	case t&fs.ModeDevice != 0:
		return "a block device"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeIrregular != 0:
		return "an irregular file"
	default:
		return fmt.Sprintf("a file of mode %v", t)
	}
}
