package data

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// mixedDataset holds every kind of feature, nil and empty slices, targets and a split.
func mixedDataset() *Dataset {
	return &Dataset{
		Name: "mixed", Task: GraphMultiLabel, NumClasses: 2,
		Graphs: []Graph{
			{
				NumNodes: 3, Src: []int32{0, 1}, Dst: []int32{1, 2},
				Node:    Features{Kind: Dense, Rows: 3, Cols: 2, Dense: []float32{0.1, -2, 3e30, 4, 5, -6.5}},
				Edge:    Features{Kind: Categorical, Rows: 2, Cols: 2, Categorical: []int32{0, 1, 2, 0}, Cardinality: []int{3, 2}},
				Targets: []float32{1, 0},
			},
			{
				NumNodes: 2, Src: []int32{}, Dst: []int32{},
				Node:    Features{Kind: Sparse, Rows: 2, Cols: 100, Indptr: []int64{0, 2, 2}, Indices: []int32{3, 99}, Values: []float32{1, 2}},
				Targets: []float32{0, 1},
			},
		},
		Split: Split{Train: []int{1}, Val: []int{0}, Test: []int{}},
	}
}

func TestCacheRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.gxd")
	for _, d := range []*Dataset{mixedDataset(), mustCLUSTER(t, 20)} {
		if err := WriteCacheFile(path, d); err != nil {
			t.Fatal(err)
		}
		got, err := ReadCacheFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, d) {
			t.Fatalf("%s: read back a different data set", d.Name)
		}
	}
}

func mustCLUSTER(t testing.TB, n int) *Dataset {
	d, err := GenerateCLUSTER(SBMOptions{Seed: 1, Train: n, Val: n / 4, Test: n / 4})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestCachedBuildsOnce(t *testing.T) {
	dir := t.TempDir()
	builds := 0
	build := func() (*Dataset, error) { builds++; return mixedDataset(), nil }
	key := CacheKey("mixed", "bytes", "a")
	first, err := Cached(dir, key, build)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Cached(dir, key, build)
	if err != nil || builds != 1 || !reflect.DeepEqual(first, second) {
		t.Fatalf("second load: %v, %d builds, equal %v", err, builds, reflect.DeepEqual(first, second))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != key+cacheSuffix {
		t.Errorf("cache dir holds %v, want only %s", entries, key+cacheSuffix)
	}
	// A corrupt file is a miss: rebuilt and rewritten.
	path := filepath.Join(dir, key+cacheSuffix)
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 1
	os.WriteFile(path, b, 0o644)
	if _, err := ReadCacheFile(path); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("corrupt file: %v", err)
	}
	third, err := Cached(dir, key, build)
	if err != nil || builds != 2 || !reflect.DeepEqual(third, first) {
		t.Fatalf("after corruption: %v, %d builds", err, builds)
	}
	if _, err := ReadCacheFile(path); err != nil {
		t.Errorf("cache not rewritten: %v", err)
	}
	// A failing build is reported and nothing is cached.
	_, err = Cached(dir, CacheKey("other", ""), func() (*Dataset, error) { return nil, os.ErrInvalid })
	if err != os.ErrInvalid {
		t.Errorf("build error: %v", err)
	}
}

func TestCacheKey(t *testing.T) {
	a := CacheKey("mnist", "bytes", "x", "1")
	if a != CacheKey("mnist", "bytes", "x", "1") {
		t.Error("same inputs, different keys")
	}
	for _, b := range []string{CacheKey("mnist", "bytes", "x1"), CacheKey("mnist", "bytes", "x", "2"),
		CacheKey("cifar", "bytes", "x", "1"), CacheKey("mnist", "other bytes", "x", "1")} {
		if a == b {
			t.Errorf("keys collide: %s", a)
		}
	}
	if k := CacheKey("../evil/name", ""); strings.ContainsAny(k, "/.") {
		t.Errorf("key %q is not a safe file name", k)
	}
}

func TestCachedRemovesTheSlotsEntriesOfOtherContent(t *testing.T) {
	dir := t.TempDir()
	build := func() (*Dataset, error) { return mixedDataset(), nil }
	old := CacheKey("mixed", "old bytes", "opts")
	other := CacheKey("mixed", "old bytes", "other opts")
	// Files of keys not made by CacheKey, one of a length and dash that look like its
	// content hash: neither is in a slot, so neither is removed.
	for _, name := range []string{"notes.gxd", "mine-fedcba9876543210.gxd"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{old, other, "mine-0123456789abcdef"} {
		if _, err := Cached(dir, k, build); err != nil {
			t.Fatal(err)
		}
	}
	current := CacheKey("mixed", "new bytes", "opts")
	if _, err := Cached(dir, current, build); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{current + cacheSuffix, other + cacheSuffix, "notes.gxd", "mine-0123456789abcdef.gxd", "mine-fedcba9876543210.gxd"}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("cache dir holds %v, want %v (the superseded %s removed, the rest kept)", names, want, old)
	}
}

func TestLoadCachedKeysByContentNotPlaceOrTime(t *testing.T) {
	cache := t.TempDir()
	builds := 0
	load := func(dir string) error {
		_, err := loadCached("mixed", dir, true, LoadOptions{CacheDir: cache}, func() (*Dataset, error) {
			builds++
			return mixedDataset(), nil
		})
		return err
	}
	stage := func(content string) string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "raw"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "raw", "a.bin"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	first := stage("0123456789")
	copied := stage("0123456789") // elsewhere, and stamped later
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(copied, "raw", "a.bin"), later, later); err != nil {
		t.Fatal(err)
	}
	edited := stage("0123456788") // same size, one byte changed
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(edited, link); err != nil {
		t.Fatal(err)
	}
	for i, step := range []struct {
		dir        string
		wantBuilds int
	}{{first, 1}, {copied, 1}, {edited, 2}, {link, 2}, {first, 3}} {
		if err := load(step.dir); err != nil {
			t.Fatal(err)
		}
		if builds != step.wantBuilds {
			t.Errorf("load %d (%s): %d builds, want %d", i, step.dir, builds, step.wantBuilds)
		}
		if files, _ := os.ReadDir(cache); len(files) != 1 {
			t.Errorf("load %d: %d cache files, want 1 (one entry for one name and layout)", i, len(files))
		}
	}
}

func TestCacheReadErrors(t *testing.T) {
	good := encodeDataset(mixedDataset())
	withCRC := func(b []byte) []byte {
		body := b[:len(b)-4]
		return binary.LittleEndian.AppendUint32(append([]byte{}, body...), crc32.ChecksumIEEE(body))
	}
	version := append([]byte{}, good...)
	version[len(cacheMagic)] = 99
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"empty", "not a gexph", nil},
		{"wrong magic", "not a gexph", append([]byte("GEXPHDS\n"), good[8:]...)},
		{"version", "format version 99", withCRC(version)},
		{"truncated", "checksum", good[:len(good)-10]},
		{"trailing", "left after", withCRC(append(append([]byte{}, good[:len(good)-4]...), 0, 0, 0, 0, 0))},
	} {
		path := filepath.Join(t.TempDir(), "c.gxd")
		os.WriteFile(path, tc.data, 0o644)
		if _, err := ReadCacheFile(path); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want %q and the path", tc.name, err, tc.want)
		}
	}
	// Any single corrupted byte with a matching checksum gives an error or a valid data
	// set, never a panic.
	for i := len(cacheMagic) + 4; i < len(good)-4; i++ {
		for _, x := range []byte{1, 0x80, 0xff} {
			b := append([]byte{}, good...)
			b[i] ^= x
			if d, err := decodeDataset(withCRC(b)); err == nil {
				if verr := d.Validate(); verr != nil {
					t.Fatalf("byte %d: decoded an invalid data set: %v", i, verr)
				}
			}
		}
	}
}

func BenchmarkCacheReadCLUSTER(b *testing.B) {
	path := filepath.Join(b.TempDir(), "c.gxd")
	if err := WriteCacheFile(path, mustCLUSTER(b, 2000)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ReadCacheFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileStampMNIST measures what a cache lookup of MNIST reads before the cache
// file: the names, sizes and SHA-256 of the raw images (22 MB). Its bytes are those the
// stamp's layout lists ("\x00name size" a file).
func BenchmarkFileStampMNIST(b *testing.B) {
	dir := sharedData(b, "mnist")
	layout, _, err := fileStamp(dir)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, file := range strings.Split(layout, "\x00")[1:] {
		n, err := strconv.ParseInt(file[strings.LastIndexByte(file, ' ')+1:], 10, 64)
		if err != nil {
			b.Fatalf("layout entry %q: %v", file, err)
		}
		size += n
	}
	b.SetBytes(size)
	for b.Loop() {
		if _, _, err := fileStamp(dir); err != nil {
			b.Fatal(err)
		}
	}
}
