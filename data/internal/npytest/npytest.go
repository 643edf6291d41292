// Package npytest writes small NumPy .npy files and zip archives for the tests of
// package npy and of the data loaders that read them.
package npytest

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
)

// NPY writes a .npy file (format 1.0) the way NumPy does: the header dictionary
// padded with spaces to a multiple of 64 bytes and ended by a newline, then data.
func NPY(descr string, fortran bool, shape []int, data []byte) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = fmt.Sprintf("(%d,)", shape[0])
	}
	order := "False"
	if fortran {
		order = "True"
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr, order, tuple)
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(header)))
	b = append(b, header...)
	return append(b, data...)
}

// LE encodes a slice of fixed-size numbers little-endian.
func LE(v any) []byte {
	var buf bytes.Buffer
	if err := binary.Write(&buf, binary.LittleEndian, v); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Of writes a one-dimensional array of Go values ([]int8 … []uint64, []bool,
// []float32, []float64) with the matching NumPy type.
func Of(v any) []byte {
	descr := map[string]string{"[]int8": "|i1", "[]int16": "<i2", "[]int32": "<i4", "[]int64": "<i8",
		"[]uint8": "|u1", "[]uint16": "<u2", "[]uint32": "<u4", "[]uint64": "<u8", "[]bool": "|b1",
		"[]float32": "<f4", "[]float64": "<f8"}[fmt.Sprintf("%T", v)]
	return NPY(descr, false, []int{reflect.ValueOf(v).Len()}, LE(v))
}

// Header writes a .npy file with the given raw header text and no data.
func Header(h string) []byte {
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
	return append(b, h...)
}

// Entry is one member of a zip archive written by Zip.
type Entry struct {
	Name string // member name, such as "labels.npy"
	Data []byte // member content
}

// Zip writes a zip archive of the entries (stored, or deflated when compress is set).
func Zip(compress bool, entries ...Entry) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	method := zip.Store
	if compress {
		method = zip.Deflate
	}
	for _, e := range entries {
		f, err := w.CreateHeader(&zip.FileHeader{Name: e.Name, Method: method})
		if err != nil {
			panic(err)
		}
		if _, err := f.Write(e.Data); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
