package npy

import (
	"archive/zip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Entry is one array to write: its name (the .npz entry without ".npy"), its shape and
// its values in C order, as []float32, []float64, []int64, []int32 or []bool.
type Entry struct {
	Name  string
	Shape []int
	Data  any
}

// descr returns the NumPy type string of the entry's values and their count.
func (e Entry) descr() (string, int, error) {
	switch d := e.Data.(type) {
	case []float32:
		return "<f4", len(d), nil
	case []float64:
		return "<f8", len(d), nil
	case []int64:
		return "<i8", len(d), nil
	case []int32:
		return "<i4", len(d), nil
	case []bool:
		return "|b1", len(d), nil
	}
	return "", 0, fmt.Errorf("npy: entry %q: values of type %T (want []float32, []float64, []int64, []int32 or []bool)", e.Name, e.Data)
}

// header returns the .npy header (format 1.0) of the entry, padded so that the data
// starts at a multiple of 64 bytes, as NumPy writes it.
func (e Entry) header() ([]byte, error) {
	descr, n, err := e.descr()
	if err != nil {
		return nil, err
	}
	size := 1
	dims := make([]string, len(e.Shape))
	for i, d := range e.Shape {
		if d < 0 {
			return nil, fmt.Errorf("npy: entry %q: negative dimension %d", e.Name, d)
		}
		size *= d
		dims[i] = strconv.Itoa(d)
	}
	if size != n {
		return nil, fmt.Errorf("npy: entry %q: shape %v holds %d values, got %d", e.Name, e.Shape, size, n)
	}
	shape := "(" + strings.Join(dims, ", ") + ")"
	if len(dims) == 1 {
		shape = "(" + dims[0] + ",)"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
	pad := 64 - (len(npyMagic)+4+len(dict)+1)%64
	if pad == 64 {
		pad = 0
	}
	text := dict + strings.Repeat(" ", pad) + "\n"
	if len(text) > math.MaxUint16 {
		return nil, fmt.Errorf("npy: entry %q: header of %d bytes", e.Name, len(text))
	}
	h := append([]byte(npyMagic), 1, 0)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(text)))
	return append(h, text...), nil
}

// WriteNPY writes e as a .npy file (format 1.0, little-endian, C order) to w.
func WriteNPY(w io.Writer, e Entry) error {
	h, err := e.header()
	if err != nil {
		return err
	}
	if _, err := w.Write(h); err != nil {
		return fmt.Errorf("npy: entry %q: %w", e.Name, err)
	}
	var werr error
	switch d := e.Data.(type) {
	case []bool:
		b := make([]byte, len(d))
		for i, v := range d {
			if v {
				b[i] = 1
			}
		}
		_, werr = w.Write(b)
	default:
		werr = binary.Write(w, binary.LittleEndian, d)
	}
	if werr != nil {
		return fmt.Errorf("npy: entry %q: %w", e.Name, werr)
	}
	return nil
}

// WriteNPZ writes entries as an uncompressed .npz archive (what numpy.savez writes) to
// w. Entry names must be distinct and non-empty.
func WriteNPZ(w io.Writer, entries []Entry) error {
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Name == "" || seen[e.Name] {
			return fmt.Errorf("npz: entry name %q empty or repeated", e.Name)
		}
		seen[e.Name] = true
		if _, err := e.header(); err != nil {
			return err
		}
	}
	zw := zip.NewWriter(w)
	for _, e := range entries {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name + ".npy", Method: zip.Store})
		if err != nil {
			return fmt.Errorf("npz: entry %q: %w", e.Name, err)
		}
		if err := WriteNPY(f, e); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("npz: %w", err)
	}
	return nil
}
