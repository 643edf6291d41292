package data

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxUnpackBytes bounds what one archive may unpack to (OGB's ogbn-products, the
// largest, unpacks to a few GB).
const maxUnpackBytes = 64 << 30

// unpack extracts the archive at file ("zip" or "tar.gz") into into: each entry with the
// leading folder strip removed (entries outside strip are skipped), first into a
// temporary folder beside into, then each top-level entry renamed into place. An entry
// that would land outside into, a link, or a top-level entry already present under into
// is refused (nothing in place is overwritten).
func unpack(file, kind, strip, into string) error {
	tmp := into + ".unpack"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var err error
	switch kind {
	case "zip":
		err = unzipInto(file, strip, tmp)
	case "tar.gz":
		err = untarInto(file, strip, tmp)
	default:
		err = fmt.Errorf("unknown archive kind %q", kind)
	}
	if err != nil {
		return err
	}
	return moveEntries(tmp, into)
}

// moveEntries renames each entry of from into into, refusing to replace one.
func moveEntries(from, into string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(into, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		dst := filepath.Join(into, e.Name())
		if _, err := os.Lstat(dst); err == nil {
			return fmt.Errorf("%s is already there: move it away to unpack the archive", dst)
		}
		if err := os.Rename(filepath.Join(from, e.Name()), dst); err != nil {
			return err
		}
	}
	return nil
}

// entryPath returns where an archive entry lands under dir, "" for an entry outside
// strip, or an error for one that would escape dir.
func entryPath(dir, name, strip string) (string, error) {
	clean := path.Clean(strings.ReplaceAll(name, "\\", "/"))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("archive entry %q would land outside %s", name, dir)
	}
	if strip != "" {
		if !strings.HasPrefix(clean+"/", strip) {
			return "", nil
		}
		clean = strings.TrimPrefix(strings.TrimPrefix(clean, strings.TrimSuffix(strip, "/")), "/")
	}
	if clean == "" || clean == "." {
		return "", nil
	}
	return filepath.Join(dir, filepath.FromSlash(clean)), nil
}

// budget counts unpacked bytes against maxUnpackBytes.
type budget struct{ left int64 }

// copyEntry writes r to dst, charging it to b.
func (b *budget) copyEntry(dst string, r io.Reader, name string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	fh, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	n, err := io.Copy(fh, io.LimitReader(r, b.left+1))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("entry %s: %w", name, err)
	}
	if b.left -= n; b.left < 0 {
		return fmt.Errorf("the archive unpacks to more than %d bytes", int64(maxUnpackBytes))
	}
	return nil
}

func unzipInto(file, strip, dir string) error {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return err
	}
	defer zr.Close()
	b := &budget{left: maxUnpackBytes}
	for _, f := range zr.File {
		dst, err := entryPath(dir, f.Name, strip)
		if err != nil {
			return err
		}
		if dst == "" {
			continue
		}
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
			continue
		}
		if !f.Mode().IsRegular() {
			return fmt.Errorf("archive entry %q is not a regular file", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("entry %s: %w", f.Name, err)
		}
		err = b.copyEntry(dst, rc, f.Name)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func untarInto(file, strip, dir string) error {
	fh, err := os.Open(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	gz, err := gzip.NewReader(fh)
	if err != nil {
		return fmt.Errorf("not gzip: %w", err)
	}
	tr := tar.NewReader(gz)
	b := &budget{left: maxUnpackBytes}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		dst, err := entryPath(dir, h.Name, strip)
		if err != nil {
			return err
		}
		if dst == "" || h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(dst, 0o755)
		case tar.TypeReg:
			err = b.copyEntry(dst, tr, h.Name)
		default:
			err = fmt.Errorf("archive entry %q is not a regular file or folder (type %q)", h.Name, h.Typeflag)
		}
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
}
