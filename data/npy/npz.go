package npy

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gexph/gexph/internal/regfile"
)

// NPZ is the content of a NumPy .npz archive: its numeric arrays by entry name (without
// the ".npy" suffix).
type NPZ struct {
	// Name is the archive's path, used in error messages.
	Name string
	// Arrays maps each readable entry to its array.
	Arrays map[string]*Array
	// Skipped maps entries holding well-formed arrays this package does not read
	// (pickled objects, structured types) to the reason.
	Skipped map[string]error
}

// ReadNPZFile reads the .npz archive at path, or the single .npz inside the .zip archive
// at path. The archive is read in place, by its size: a path that is not a regular file
// (a directory, a device such as /dev/zero, a named pipe) is refused before it is
// opened (regfile.Open), and every entry is read within the size its archive declares
// (see ReadNPZ).
func ReadNPZFile(path string) (*NPZ, error) {
	f, st, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readNPZ(f, st.Size(), path, nil, true)
}

// maxNestedNPZ bounds the size of an .npz inside a .zip, which is read into memory.
const maxNestedNPZ = 8 << 30

// ReadNPZ reads a .npz archive of the given size from r (or a .zip archive holding a
// single .npz); name labels errors. Well-formed entries of unsupported types are listed in
// Skipped; any other defect (a damaged archive or entry, a malformed array) is an error.
// An entry whose array header claims more data than the entry's declared size is
// refused before its data is read, and an .npz inside a .zip may have at most
// maxNestedNPZ bytes.
func ReadNPZ(r io.ReaderAt, size int64, name string) (*NPZ, error) {
	return readNPZ(r, size, name, nil, true)
}

// readNPZ reads an archive from r; mem, when not nil, holds the whole archive, from which
// uncompressed entries are read without copying.
func readNPZ(r io.ReaderAt, size int64, name string, mem []byte, mayNest bool) (*NPZ, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var npy, npz []*zip.File
	for _, f := range zr.File {
		switch {
		case strings.HasSuffix(f.Name, ".npy"):
			npy = append(npy, f)
		case strings.HasSuffix(f.Name, ".npz"):
			npz = append(npz, f)
		}
	}
	if len(npy) == 0 && len(npz) == 1 && mayNest {
		inner := name + ":" + npz[0].Name
		if npz[0].UncompressedSize64 > maxNestedNPZ {
			return nil, fmt.Errorf("%s: %d bytes, more than the %d an .npz inside a .zip may have (unpack it)", inner, npz[0].UncompressedSize64, int64(maxNestedNPZ))
		}
		b, err := readZipEntry(npz[0])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", inner, err)
		}
		return readNPZ(bytes.NewReader(b), int64(len(b)), inner, b, false)
	}
	if len(npy) == 0 {
		return nil, fmt.Errorf("%s: no .npy entries (and not a single .npz inside a .zip)", name)
	}
	z := &NPZ{Name: name, Arrays: map[string]*Array{}, Skipped: map[string]error{}}
	for _, f := range npy {
		entry := strings.TrimSuffix(f.Name, ".npy")
		label := name + ":" + entry
		if _, dup := z.Arrays[entry]; dup {
			return nil, fmt.Errorf("%s: entry appears twice", label)
		}
		if _, dup := z.Skipped[entry]; dup {
			return nil, fmt.Errorf("%s: entry appears twice", label)
		}
		a, err := readNPYEntry(f, label, mem)
		var unsupported *UnsupportedArrayError
		switch {
		case errors.As(err, &unsupported):
			z.Skipped[entry] = err
		case err != nil:
			return nil, err
		default:
			z.Arrays[entry] = a
		}
	}
	return z, nil
}

func readNPYEntry(f *zip.File, label string, mem []byte) (*Array, error) {
	if mem != nil && f.Method == zip.Store && f.CompressedSize64 == f.UncompressedSize64 {
		off, err := f.DataOffset()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		if off < 0 || uint64(off)+f.UncompressedSize64 > uint64(len(mem)) {
			return nil, fmt.Errorf("%s: %w", label, zip.ErrFormat)
		}
		b := mem[off : uint64(off)+f.UncompressedSize64]
		if crc32.ChecksumIEEE(b) != f.CRC32 {
			return nil, fmt.Errorf("%s: %w", label, zip.ErrChecksum)
		}
		return parseNPY(b, label)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	defer rc.Close()
	a, err := readSized(bufio.NewReaderSize(rc, 1<<16), label, int64(min(f.UncompressedSize64, math.MaxInt64)))
	var unsupported *UnsupportedArrayError
	if errors.As(err, &unsupported) {
		// Read the rest so that the archive's checksum of the entry is verified.
		if _, cerr := io.Copy(io.Discard, rc); cerr != nil {
			return nil, fmt.Errorf("%s: %w", label, cerr)
		}
	}
	return a, err
}

func readZipEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var buf bytes.Buffer
	buf.Grow(int(min(f.UncompressedSize64, 1<<28)))
	if _, err := buf.ReadFrom(rc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Array returns the array stored under entry, or an error naming the archive and entry
// when it is missing or was skipped.
func (z *NPZ) Array(entry string) (*Array, error) {
	if a, ok := z.Arrays[entry]; ok {
		return a, nil
	}
	if err, ok := z.Skipped[entry]; ok {
		return nil, err
	}
	have := make([]string, 0, len(z.Arrays))
	for k := range z.Arrays {
		have = append(have, k)
	}
	slices.Sort(have)
	return nil, fmt.Errorf("%s: no entry %q (entries: %s)", z.Name, entry, strings.Join(have, ", "))
}
