package npy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/internal/pyfind"
)

// writtenEntries covers every type the writer takes, with 0-, 1- and 2-dimensional
// shapes and an empty array.
func writtenEntries() []Entry {
	return []Entry{
		{Name: "f4", Shape: []int{2, 3}, Data: []float32{1, -2.5, 3, 0, 1e-8, 7}},
		{Name: "f8", Shape: []int{3}, Data: []float64{0.5, -1, 1e300}},
		{Name: "i8", Shape: []int{2, 2}, Data: []int64{-1, 1 << 40, 0, 7}},
		{Name: "i4", Shape: []int{1}, Data: []int32{-7}},
		{Name: "mask", Shape: []int{4}, Data: []bool{true, false, false, true}},
		{Name: "scalar", Shape: nil, Data: []int64{42}},
		{Name: "empty", Shape: []int{0, 3}, Data: []float32{}},
	}
}

// TestWriteNPZRoundTrip writes every type and reads it back with this package's
// reader: same types, shapes and values, and every array's data aligned to 64 bytes.
func TestWriteNPZRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteNPZ(&buf, writtenEntries()); err != nil {
		t.Fatal(err)
	}
	z, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "w.npz")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"f4": "<f4", "f8": "<f8", "i8": "<i8", "i4": "<i4", "mask": "|b1", "scalar": "<i8", "empty": "<f4"}
	for _, e := range writtenEntries() {
		a := z.Arrays[e.Name]
		if a == nil {
			t.Fatalf("entry %s missing (skipped: %v)", e.Name, z.Skipped)
		}
		if a.DType != want[e.Name] || !reflect.DeepEqual(a.Shape, append([]int{}, e.Shape...)) && len(e.Shape) > 0 {
			t.Errorf("%s: dtype %s shape %v, want %s %v", e.Name, a.DType, a.Shape, want[e.Name], e.Shape)
		}
		var got any
		switch e.Data.(type) {
		case []float32:
			got, err = a.Float32s()
		case []int64:
			got, err = a.Int64s()
		case []int32:
			got, err = a.Int32s()
		default:
			continue
		}
		if err != nil || !reflect.DeepEqual(got, e.Data) {
			t.Errorf("%s: read %v (%v), wrote %v", e.Name, got, err, e.Data)
		}
	}
	var one bytes.Buffer
	if err := WriteNPY(&one, writtenEntries()[0]); err != nil {
		t.Fatal(err)
	}
	if hl := len(one.Bytes()) - 6*4; hl%64 != 0 {
		t.Errorf("data of f4 starts at byte %d, not a multiple of 64", hl)
	}
}

// TestWriteNPZRefusesBadEntries names the entry at fault.
func TestWriteNPZRefusesBadEntries(t *testing.T) {
	for _, tc := range []struct {
		entries []Entry
		want    string
	}{
		{[]Entry{{Name: "a", Shape: []int{2, 2}, Data: []float32{1, 2, 3}}}, `"a": shape [2 2] holds 4 values, got 3`},
		{[]Entry{{Name: "b", Shape: []int{1}, Data: []string{"x"}}}, `"b": values of type []string`},
		{[]Entry{{Name: "c", Shape: []int{-1}, Data: []int64{}}}, `"c": negative dimension`},
		{[]Entry{{Name: "d", Shape: []int{1}, Data: []int64{1}}, {Name: "d", Shape: []int{1}, Data: []int64{2}}}, `"d" empty or repeated`},
	} {
		var buf bytes.Buffer
		if err := WriteNPZ(&buf, tc.entries); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one with %s", err, tc.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written before the error", tc.want, buf.Len())
		}
	}
}

// TestWriteNPZReadByNumPy has NumPy read the archive, where python3 with numpy is
// installed: numpy.load gives the same dtypes, shapes and values.
func TestWriteNPZReadByNumPy(t *testing.T) {
	py := pyfind.Python(t, "Debian: apt-get install python3-numpy", "numpy")
	path := filepath.Join(t.TempDir(), "w.npz")
	var buf bytes.Buffer
	if err := WriteNPZ(&buf, writtenEntries()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import numpy as np, sys
z = np.load(sys.argv[1])
assert z["f4"].dtype == np.float32 and z["f4"].shape == (2, 3) and z["f4"][0, 1] == -2.5
assert z["f8"][2] == 1e300 and z["i8"][0, 1] == 1 << 40 and z["i4"].tolist() == [-7]
assert z["mask"].dtype == np.bool_ and z["mask"].tolist() == [True, False, False, True]
assert z["scalar"].shape == () and int(z["scalar"]) == 42 and z["empty"].shape == (0, 3)
print("ok")`
	out, err := exec.Command(py, "-c", script, path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("numpy: %v\n%s", err, out)
	}
}
