package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/internal/npytest"
)

// Shorthands for the .npy writers of npytest.
var (
	npyBytes  = npytest.NPY
	leBytes   = npytest.LE
	npyOf     = npytest.Of
	npyHeader = npytest.Header
)

func TestReadNPYTypes(t *testing.T) {
	for _, tc := range []struct {
		values any
		ints   []int64
		floats []float32
	}{
		{[]int8{-128, 0, 127}, []int64{-128, 0, 127}, []float32{-128, 0, 127}},
		{[]int16{-300, 7}, []int64{-300, 7}, []float32{-300, 7}},
		{[]int32{math.MinInt32, 5}, []int64{math.MinInt32, 5}, []float32{math.MinInt32, 5}},
		{[]int64{-1 << 40, 3}, []int64{-1 << 40, 3}, []float32{-1 << 40, 3}},
		{[]uint8{0, 255}, []int64{0, 255}, []float32{0, 255}},
		{[]uint16{65535}, []int64{65535}, []float32{65535}},
		{[]uint32{math.MaxUint32}, []int64{math.MaxUint32}, []float32{math.MaxUint32}},
		{[]uint64{1 << 62}, []int64{1 << 62}, []float32{1 << 62}},
		{[]bool{true, false, true}, []int64{1, 0, 1}, []float32{1, 0, 1}},
		{[]float32{1.5, -2.25}, nil, []float32{1.5, -2.25}},
		{[]float64{0.1, 1e300}, nil, []float32{0.1, float32(math.Inf(1))}},
	} {
		name := fmt.Sprintf("%T", tc.values)
		a, err := Read(bytes.NewReader(npyOf(tc.values)), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if a.Len() != reflect.ValueOf(tc.values).Len() || len(a.Shape) != 1 {
			t.Errorf("%s: len %d shape %v", name, a.Len(), a.Shape)
		}
		ints, err := a.Int64s()
		if tc.ints == nil {
			if err == nil || !strings.Contains(err.Error(), "not an integer") {
				t.Errorf("%s: Int64s on floats gave %v, %v", name, ints, err)
			}
		} else if !reflect.DeepEqual(ints, tc.ints) {
			t.Errorf("%s: Int64s = %v, %v; want %v", name, ints, err, tc.ints)
		}
		if floats, err := a.Float32s(); err != nil || !reflect.DeepEqual(floats, tc.floats) {
			t.Errorf("%s: Float32s = %v, %v; want %v", name, floats, err, tc.floats)
		}
	}
}

func TestReadNPYInt32Range(t *testing.T) {
	a, err := Read(bytes.NewReader(npyOf([]int64{1, 1 << 33})), "big.npy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Int32s(); err == nil || !strings.Contains(err.Error(), "8589934592") || !strings.Contains(err.Error(), "big.npy") {
		t.Errorf("Int32s of 2^33: %v", err)
	}
	a, _ = Read(bytes.NewReader(npyOf([]uint64{math.MaxUint64})), "u.npy")
	if _, err := a.Int64s(); err == nil {
		t.Error("uint64 max converted to int64 without error")
	}
}

func TestReadNPYShapesAndVersions(t *testing.T) {
	// 2×3 in C order, scalar, empty array, and a version 2.0 header.
	data := leBytes([]int32{1, 2, 3, 4, 5, 6})
	a, err := Read(bytes.NewReader(npyBytes("<i4", false, []int{2, 3}, data)), "m")
	if err != nil || !reflect.DeepEqual(a.Shape, []int{2, 3}) || a.Len() != 6 {
		t.Fatalf("2×3: %v %v", a, err)
	}
	if a, err := Read(bytes.NewReader(npyBytes("<f8", false, nil, leBytes([]float64{2.5}))), "s"); err != nil || a.Len() != 1 || len(a.Shape) != 0 {
		t.Errorf("scalar: %v %v", a, err)
	}
	if a, err := Read(bytes.NewReader(npyBytes("<f8", false, []int{0}, nil)), "e"); err != nil || a.Len() != 0 {
		t.Errorf("empty: %v %v", a, err)
	}
	// A one-dimensional Fortran-ordered array has the same layout and is accepted.
	if _, err := Read(bytes.NewReader(npyBytes("<i4", true, []int{6}, data)), "f1"); err != nil {
		t.Errorf("1-D Fortran order: %v", err)
	}
	v1 := npyBytes("<i4", false, []int{6}, data)
	hlen := binary.LittleEndian.Uint16(v1[8:10])
	v2 := append([]byte("\x93NUMPY\x02\x00"), binary.LittleEndian.AppendUint32(nil, uint32(hlen))...)
	v2 = append(v2, v1[10:]...)
	a, err = Read(bytes.NewReader(v2), "v2")
	if err != nil {
		t.Fatalf("version 2: %v", err)
	}
	if got, _ := a.Int32s(); !reflect.DeepEqual(got, []int32{1, 2, 3, 4, 5, 6}) {
		t.Errorf("version 2 data %v", got)
	}
	path := filepath.Join(t.TempDir(), "v2.npy")
	os.WriteFile(path, v2, 0o644)
	if b, err := ReadFile(path); err != nil || !reflect.DeepEqual(b.data, a.data) || b.Name != path {
		t.Errorf("ReadFile: %v", err)
	}
	// The in-memory reader agrees with the streaming one and rejects the same defects.
	if b, err := parseNPY(v2, "v2"); err != nil || !reflect.DeepEqual(b, a) {
		t.Errorf("parseNPY: %+v, %v", b, err)
	}
	for _, bad := range [][]byte{v2[:len(v2)-1], append(append([]byte{}, v2...), 7)} {
		if _, err := parseNPY(bad, "v2"); err == nil {
			t.Errorf("parseNPY accepted %d bytes", len(bad))
		}
	}
}

// Arrays valid in NumPy's terms but unusual — big-endian, Fortran-ordered, float16,
// bytes and unicode strings — read as NumPy reads them, in-memory and streamed alike.
func TestReadNPYUnusualButValid(t *testing.T) {
	be := func(words ...uint32) []byte {
		var b []byte
		for _, w := range words {
			b = binary.BigEndian.AppendUint32(b, w)
		}
		return b
	}
	// The 2×3 matrix [[1 2 3] [4 5 6]] in Fortran order is 1 4 2 5 3 6; 2×2×2 likewise.
	for _, tc := range []struct {
		name   string
		file   []byte
		ints   []int64
		floats []float32
		strs   []string
	}{
		{"big-endian int32", npyBytes(">i4", false, []int{3}, be(1, 1<<20, 0xffffffff)), []int64{1, 1 << 20, -1}, nil, nil},
		{"big-endian float64", npyBytes(">f8", false, []int{2}, binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, math.Float64bits(2.5)), math.Float64bits(-0.125))), nil, []float32{2.5, -0.125}, nil},
		{"big-endian uint16", npyBytes(">u2", false, []int{2}, []byte{1, 0, 0, 7}), []int64{256, 7}, nil, nil},
		{"Fortran 2×3", npyBytes("<i4", true, []int{2, 3}, leBytes([]int32{1, 4, 2, 5, 3, 6})), []int64{1, 2, 3, 4, 5, 6}, nil, nil},
		{"Fortran 2×2×2", npyBytes("<i2", true, []int{2, 2, 2}, leBytes([]int16{1, 5, 3, 7, 2, 6, 4, 8})), []int64{1, 2, 3, 4, 5, 6, 7, 8}, nil, nil},
		{"big-endian Fortran", npyBytes(">i4", true, []int{2, 2}, be(1, 3, 2, 4)), []int64{1, 2, 3, 4}, nil, nil},
		{"float16", npyBytes("<f2", false, []int{6}, leBytes([]uint16{0x3c00, 0xc000, 0x3555, 0x0001, 0x7c00, 0x0000})),
			nil, []float32{1, -2, 0.333251953125, 1.0 / (1 << 24), float32(math.Inf(1)), 0}, nil},
		{"bytes", npyBytes("|S3", false, nil, []byte("csr")), nil, nil, []string{"csr"}},
		{"padded bytes", npyBytes("|S4", false, []int{2}, []byte("coo\x00csc\x00")), nil, nil, []string{"coo", "csc"}},
		{"unicode", npyBytes("<U3", false, nil, leBytes([]uint32{'c', 's', 'r'})), nil, nil, []string{"csr"}},
		{"big-endian unicode", npyBytes(">U4", false, nil, be('c', 0xe9, 'o', 0)), nil, nil, []string{"c\u00e9o"}},
	} {
		a, err := Read(bytes.NewReader(tc.file), tc.name)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if b, err := parseNPY(tc.file, tc.name); err != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the in-memory reader gives %+v, %v; the streaming one %+v", tc.name, b, err, a)
		}
		if tc.ints != nil {
			if got, err := a.Int64s(); err != nil || !reflect.DeepEqual(got, tc.ints) {
				t.Errorf("%s: Int64s = %v, %v; want %v", tc.name, got, err, tc.ints)
			}
		}
		if tc.floats != nil {
			if got, err := a.Float32s(); err != nil || !reflect.DeepEqual(got, tc.floats) {
				t.Errorf("%s: Float32s = %v, %v; want %v", tc.name, got, err, tc.floats)
			}
		}
		if tc.strs != nil {
			if got, err := a.Strings(); err != nil || !reflect.DeepEqual(got, tc.strs) {
				t.Errorf("%s: Strings = %q, %v; want %q", tc.name, got, err, tc.strs)
			}
			if _, err := a.Float32s(); err == nil || !strings.Contains(err.Error(), "not a numeric type") {
				t.Errorf("%s: Float32s of strings: %v", tc.name, err)
			}
		} else if _, err := a.Strings(); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: Strings of numbers: %v; want an error naming the array", tc.name, err)
		}
	}
	// NaN half-precision values stay NaN.
	if a, err := Read(bytes.NewReader(npyBytes("<f2", false, []int{1}, []byte{0x00, 0x7e})), "nan"); err != nil {
		t.Error(err)
	} else if v, _ := a.Float32s(); !math.IsNaN(float64(v[0])) {
		t.Errorf("float16 NaN read as %v", v)
	}
}

func TestReadNPYErrors(t *testing.T) {
	good := npyBytes("<i4", false, []int{3}, leBytes([]int32{1, 2, 3}))
	for _, tc := range []struct {
		name, want string
		data       []byte
		unsupport  bool
	}{
		{"empty", "magic", nil, false},
		{"bad magic", "not a .npy", append([]byte("\x93NUMPZ"), good[6:]...), false},
		{"version 4", "version 4", append([]byte("\x93NUMPY\x04\x00"), good[8:]...), false},
		{"truncated header", "header", good[:30], false},
		{"truncated data", "truncated: 8 of 12 bytes", good[:len(good)-4], false},
		{"extra data", "longer", append(append([]byte{}, good...), 0), false},
		{"shape mismatch", "truncated: 12 of 16 bytes", npyBytes("<i4", false, []int{4}, leBytes([]int32{1, 2, 3})), false},
		{"object", "object dtype \"|O\"", npyBytes("|O", false, []int{1}, []byte{0x80}), true},
		{"complex", "dtype \"<c8\" not supported", npyBytes("<c8", false, []int{1}, make([]byte, 8)), true},
		{"empty strings", "dtype \"|S0\" not supported", npyBytes("|S0", false, []int{1}, nil), true},
		{"native order", "byte order '='", npyBytes("=i4", false, []int{1}, make([]byte, 4)), true},
		{"not a dict", "not a dictionary", npyHeader("[1, 2]"), false},
		{"no shape", "'shape' missing", npyHeader("{'descr': '<i4', 'fortran_order': False}"), false},
		{"negative shape", "shape entry -3", npyHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (-3,)}"), false},
		{"huge shape", "too large", npyHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (100000, 100000, 100000)}"), false},
		{"unterminated", "unterminated string", npyHeader("{'descr: 1}"), false},
		{"deep", "nested too deeply", npyHeader(strings.Repeat("(", 40)), false},
		{"structured", "structured dtype", npyHeader("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,)}"), true},
	} {
		_, err := Read(bytes.NewReader(tc.data), "arr.npy")
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "arr.npy") {
			t.Errorf("%s: error %q does not name the file and %q", tc.name, err, tc.want)
		}
		var u *UnsupportedArrayError
		if isU := errors.As(err, &u); isU != tc.unsupport {
			t.Errorf("%s: UnsupportedArrayError = %v, want %v", tc.name, isU, tc.unsupport)
		}
	}
}

func FuzzReadNPY(f *testing.F) {
	f.Add(npyOf([]int32{1, 2, 3}))
	f.Add(npyOf([]float64{0.5}))
	f.Add(npyOf([]bool{true}))
	f.Add(npyBytes("<i8", false, []int{2, 2}, leBytes([]int64{1, 2, 3, 4})))
	f.Add(npyBytes("|O", false, []int{1}, []byte{0x80}))
	f.Add(npyHeader("{'descr': '<u2', 'fortran_order': True, 'shape': (1, 1), }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Read(bytes.NewReader(data), "fuzz.npy")
		b, errMem := parseNPY(data, "fuzz.npy")
		if (err == nil) != (errMem == nil) || (err == nil && !reflect.DeepEqual(a, b)) {
			t.Fatalf("streaming and in-memory readers disagree: %v / %v", err, errMem)
		}
		if err != nil {
			return
		}
		count := 1
		for _, d := range a.Shape {
			count *= d
		}
		if a.Len() != count {
			t.Fatalf("shape %v but %d elements", a.Shape, a.Len())
		}
		a.Int64s()
		a.Int32s()
		if s, err := a.Strings(); err == nil {
			if len(s) != count {
				t.Fatalf("Strings: %d values for %d elements", len(s), count)
			}
			return
		}
		if v, err := a.Float32s(); err != nil || len(v) != count {
			t.Fatalf("Float32s: %d values, %v", len(v), err)
		}
	})
}
