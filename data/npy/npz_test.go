package npy

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/internal/npytest"
)

// smallNPZ returns the entries of a small archive: two readable arrays and a pickled
// one.
func smallNPZ() []npytest.Entry {
	return []npytest.Entry{
		{Name: "ids.npy", Data: npyOf([]int32{3, 1, 4})},
		{Name: "weights.npy", Data: npyOf([]float64{0.5, 2})},
		{Name: "names.npy", Data: npyBytes("|O", false, []int{2}, []byte("\x80\x02cnumpy pickle"))},
	}
}

func TestReadNPZ(t *testing.T) {
	for _, compress := range []bool{false, true} {
		b := npytest.Zip(compress, smallNPZ()...)
		z, err := ReadNPZ(bytes.NewReader(b), int64(len(b)), "small.npz")
		if err != nil {
			t.Fatalf("compress %v: %v", compress, err)
		}
		if z.Name != "small.npz" || len(z.Arrays) != 2 || len(z.Skipped) != 1 {
			t.Fatalf("compress %v: %s holds %d arrays, %d skipped", compress, z.Name, len(z.Arrays), len(z.Skipped))
		}
		ids, err := z.Array("ids")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ids.Int32s(); err != nil || !reflect.DeepEqual(got, []int32{3, 1, 4}) || ids.Name != "small.npz:ids" {
			t.Errorf("compress %v: ids = %v (%s), %v", compress, got, ids.Name, err)
		}
		w, _ := z.Array("weights")
		if got, err := w.Float32s(); err != nil || !reflect.DeepEqual(got, []float32{0.5, 2}) {
			t.Errorf("compress %v: weights = %v, %v", compress, got, err)
		}
		var u *UnsupportedArrayError
		if _, err := z.Array("names"); !errors.As(err, &u) || !strings.Contains(err.Error(), "small.npz:names") {
			t.Errorf("compress %v: Array(names) = %v, want an UnsupportedArrayError naming the entry", compress, err)
		}
		if _, err := z.Array("missing"); err == nil || !strings.Contains(err.Error(), `no entry "missing" (entries: ids, weights)`) {
			t.Errorf("compress %v: Array(missing) = %v", compress, err)
		}
	}
}

func TestReadNPZFileNested(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "small.npz")
	nested := filepath.Join(dir, "small.zip")
	os.WriteFile(plain, npytest.Zip(false, smallNPZ()...), 0o644)
	os.WriteFile(nested, npytest.Zip(true, npytest.Entry{Name: "small.npz", Data: npytest.Zip(true, smallNPZ()...)}), 0o644)
	a, err := ReadNPZFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadNPZFile(nested)
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != nested+":small.npz" {
		t.Errorf("nested archive named %q", b.Name)
	}
	for entry, x := range a.Arrays {
		y := b.Arrays[entry]
		if y == nil || !reflect.DeepEqual(x.data, y.data) || !reflect.DeepEqual(x.Shape, y.Shape) || x.DType != y.DType {
			t.Errorf("entry %s differs between the .npz and the .zip holding it", entry)
		}
	}
	if _, err := ReadNPZFile(filepath.Join(dir, "absent.npz")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadNPZErrors(t *testing.T) {
	good := npytest.Zip(false, smallNPZ()...)
	corrupt := bytes.Clone(good)
	ids := npyOf([]int32{3, 1, 4})
	corrupt[bytes.Index(corrupt, ids)+len(ids)-1] ^= 0xff
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", good[:len(good)/2], "zip"},
		{"checksum", corrupt, "checksum"},
		{"no arrays", npytest.Zip(false, npytest.Entry{Name: "readme.txt", Data: []byte("hi")}), "no .npy entries"},
		{"duplicate", npytest.Zip(false, smallNPZ()[0], smallNPZ()[0]), "appears twice"},
		{"bad array", npytest.Zip(true, npytest.Entry{Name: "x.npy", Data: []byte("\x93NUMPZ")}), "x.npz:x"},
	} {
		_, err := ReadNPZ(bytes.NewReader(tc.data), int64(len(tc.data)), "x.npz")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "x.npz") {
			t.Errorf("%s: error %v, want one naming x.npz and mentioning %q", tc.name, err, tc.want)
		}
	}
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// Readers bound what they read by what the format declares: an endless stream fails
// at its first bytes, a device or pipe is no .npz, and a header claiming more data than
// its file or archive entry holds is refused before the data is read; each error names
// the file and the bound.
func TestReadersRefuseEndlessStreamsAndHugeClaimedShapes(t *testing.T) {
	if _, err := Read(zeros{}, "zeros"); err == nil || !strings.Contains(err.Error(), "zeros: not a .npy file") {
		t.Errorf("endless zeros: %v, want the bad magic", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadNPZFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero: not a regular file") {
			t.Errorf("ReadNPZFile(/dev/zero): %v, want a refusal naming it", err)
		}
	}
	huge := npyBytes("<f8", false, []int{1 << 30}, leBytes([]float64{1, 2}))
	path := filepath.Join(t.TempDir(), "huge.npy")
	if err := os.WriteFile(path, huge, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "needs 8589934592 bytes of data, more than the 16 the file holds"
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadFile of a header claiming 8 GiB: %v, want %q", err, want)
	}
	for _, compress := range []bool{false, true} {
		b := npytest.Zip(compress, npytest.Entry{Name: "x.npy", Data: huge})
		if _, err := ReadNPZ(bytes.NewReader(b), int64(len(b)), "huge.npz"); err == nil ||
			!strings.Contains(err.Error(), "huge.npz:x") || !strings.Contains(err.Error(), "needs 8589934592 bytes") {
			t.Errorf("compress %v: entry claiming 8 GiB: %v, want a refusal naming the entry and the bound", compress, err)
		}
	}
}
