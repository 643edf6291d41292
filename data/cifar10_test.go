package data

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/superpixel"
)

// cifarReference holds the images of package superpixel's
// testdata/cifar10_slic_reference.bin.gz (six 32×32 crops of scikit-image's sample
// photographs with their reference segmentation; see the superpixel tests), used here
// as CIFAR-10 images. Per image: 3,072 bytes (R, G, B planes), the segment count (1
// byte), 1,024 labels (1 byte each).
type cifarReference struct {
	planes []byte
	n      int
	labels []byte
}

func readCIFARReference(t testing.TB) []cifarReference {
	t.Helper()
	f, err := os.Open(filepath.Join("superpixel", "testdata", "cifar10_slic_reference.bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	const rec = 3*cifarPixels + 1 + cifarPixels
	if len(raw)%rec != 0 || len(raw) == 0 {
		t.Fatalf("reference file holds %d bytes, not a multiple of %d", len(raw), rec)
	}
	var out []cifarReference
	for off := 0; off < len(raw); off += rec {
		r := raw[off : off+rec]
		out = append(out, cifarReference{planes: r[:3*cifarPixels], n: int(r[3*cifarPixels]), labels: r[3*cifarPixels+1:]})
	}
	return out
}

// cifarRecords returns n CIFAR-10 binary records: the reference images in turn, label
// (i+3) mod 10 for record i.
func cifarRecords(t testing.TB, n int) []byte {
	refs := readCIFARReference(t)
	out := make([]byte, 0, n*cifarRecord)
	for i := range n {
		out = append(out, byte((i+3)%10))
		out = append(out, refs[i%len(refs)].planes...)
	}
	return out
}

// writeCIFAR10 writes the batch files (name → content) into a new directory.
func writeCIFAR10(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cifarArchive packs files (name → content) as cifar-10-batches-bin/NAME into a
// .tar.gz, after a README member.
func cifarArchive(t testing.TB, files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	put := func(name string, b []byte, typ byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Size: int64(len(b)), Mode: 0o644, Typeflag: typ}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	put(CIFAR10BatchDir+"/", nil, tar.TypeDir)
	put(CIFAR10BatchDir+"/readme.html", []byte("<html></html>"), tar.TypeReg)
	for _, name := range []string{CIFAR10TrainBatch(1), CIFAR10TrainBatch(2), CIFAR10TestBatch} {
		if b, ok := files[name]; ok {
			put(CIFAR10BatchDir+"/"+name, b, tar.TypeReg)
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// smallCIFAR is the options of the format tests: validation images 0, 1, training
// image 5000 of data_batch_1.bin and test images 0..2.
var smallCIFAR = LoadOptions{ValGraphs: 2, TrainGraphs: 1, TestGraphs: 3}

func smallCIFARFiles(t testing.TB) map[string][]byte {
	return map[string][]byte{
		CIFAR10TrainBatch(1): cifarRecords(t, 5001),
		CIFAR10TestBatch:     cifarRecords(t, 3),
	}
}

func TestLoadCIFAR10SuperpixelsFormats(t *testing.T) {
	files := smallCIFARFiles(t)
	dir := writeCIFAR10(t, files)
	ds, err := LoadCIFAR10Superpixels(dir, smallCIFAR)
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if ds.Name != "cifar10" || ds.Task != GraphClassification || ds.NumClasses != 10 || len(ds.Graphs) != 6 {
		t.Fatalf("%s %v %d classes, %d graphs", ds.Name, ds.Task, ds.NumClasses, len(ds.Graphs))
	}
	if !reflect.DeepEqual(ds.Split, Split{Val: []int{0, 1}, Train: []int{2}, Test: []int{3, 4, 5}}) {
		t.Errorf("split %+v", ds.Split)
	}
	// Graph k comes from this record of this file.
	sources := []struct {
		file   string
		record int
	}{{CIFAR10TrainBatch(1), 0}, {CIFAR10TrainBatch(1), 1}, {CIFAR10TrainBatch(1), 5000},
		{CIFAR10TestBatch, 0}, {CIFAR10TestBatch, 1}, {CIFAR10TestBatch, 2}}
	sp, err := superpixel.NewBuilder(superpixel.CIFAR10Spec())
	if err != nil {
		t.Fatal(err)
	}
	for k, src := range sources {
		rec := files[src.file][src.record*cifarRecord : (src.record+1)*cifarRecord]
		want := superpixelGraph(sp, rec[1:])
		want.Label = int32(rec[0])
		if !reflect.DeepEqual(ds.Graphs[k], want) {
			t.Errorf("graph %d differs from record %d of %s", k, src.record, src.file)
		}
	}

	// The same data set from the parent of cifar-10-batches-bin/, from the archive and
	// from a directory holding the archive.
	parent := t.TempDir()
	os.Rename(dir, filepath.Join(parent, CIFAR10BatchDir))
	archiveDir := t.TempDir()
	archive := filepath.Join(archiveDir, CIFAR10Archive)
	os.WriteFile(archive, cifarArchive(t, files), 0o644)
	for _, path := range []string{parent, archive, archiveDir} {
		got, err := LoadCIFAR10Superpixels(path, smallCIFAR)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !reflect.DeepEqual(got, ds) {
			t.Errorf("%s: data set differs from the one read from the batch files", path)
		}
	}
	// Workers do not change the result.
	one, err := LoadCIFAR10Superpixels(archive, LoadOptions{ValGraphs: 2, TrainGraphs: 1, TestGraphs: 3, Workers: 1})
	if err != nil || !reflect.DeepEqual(one, ds) {
		t.Errorf("one worker: %v, or a different result", err)
	}
}

func TestLoadCIFAR10ByName(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "cifar10"), 0o755)
	os.WriteFile(filepath.Join(root, "cifar10", CIFAR10Archive), cifarArchive(t, smallCIFARFiles(t)), 0o644)
	opts := LoadOptions{DataDir: root, CacheDir: t.TempDir(), TrainGraphs: 1, ValGraphs: 2, TestGraphs: 3}
	first, err := Load("cifar10", opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Load("cifar10", opts)
	if err != nil || !reflect.DeepEqual(first, second) {
		t.Fatalf("cached CIFAR10 differs: %v", err)
	}
	if files, _ := os.ReadDir(opts.CacheDir); len(files) != 1 || len(first.Graphs) != 6 {
		t.Errorf("%d cache files, %d graphs", len(files), len(first.Graphs))
	}
}

func TestLoadCIFAR10SuperpixelsErrors(t *testing.T) {
	good := smallCIFARFiles(t)
	badLabel := bytes.Clone(good[CIFAR10TestBatch])
	badLabel[2*cifarRecord] = 10
	cases := []struct {
		name, file string
		data       []byte
		want       []string
	}{
		{"truncated record", CIFAR10TestBatch, good[CIFAR10TestBatch][:3*cifarRecord-5], []string{"truncated record 2", "3068 of 3073"}},
		{"too few records", CIFAR10TrainBatch(1), good[CIFAR10TrainBatch(1)][:5000*cifarRecord], []string{"holds 5000 records, need 5001"}},
		{"bad label", CIFAR10TestBatch, badLabel, []string{"record 2: label 10 outside 0..9"}},
		{"missing file", CIFAR10TestBatch, nil, []string{"no such file"}},
	}
	for _, c := range cases {
		files := map[string][]byte{}
		for k, v := range good {
			files[k] = v
		}
		if c.data == nil {
			delete(files, c.file)
		} else {
			files[c.file] = c.data
		}
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadCIFAR10Superpixels(writeCIFAR10(t, files), smallCIFAR)
			checkErr(t, err, append(c.want, c.file)...)
		})
		t.Run(c.name+" in archive", func(t *testing.T) {
			archive := filepath.Join(t.TempDir(), CIFAR10Archive)
			os.WriteFile(archive, cifarArchive(t, files), 0o644)
			_, err := LoadCIFAR10Superpixels(archive, smallCIFAR)
			if c.data == nil {
				c.want = []string{"no member", fs.ErrNotExist.Error()}
			}
			checkErr(t, err, append(c.want, CIFAR10Archive, c.file)...)
		})
	}
	archive := cifarArchive(t, good)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated archive", archive[:len(archive)/2], "unexpected EOF"},
		{"not gzip", []byte("not an archive"), "gzip"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), CIFAR10Archive)
			os.WriteFile(path, c.data, 0o644)
			_, err := LoadCIFAR10Superpixels(path, smallCIFAR)
			checkErr(t, err, path, c.want)
		})
	}
	t.Run("empty directory", func(t *testing.T) {
		dir := t.TempDir()
		_, err := LoadCIFAR10Superpixels(dir, smallCIFAR)
		checkErr(t, err, dir, CIFAR10Archive, CIFAR10BatchDir)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("error %v does not wrap fs.ErrNotExist", err)
		}
	})
	t.Run("missing path", func(t *testing.T) {
		_, err := LoadCIFAR10Superpixels(filepath.Join(t.TempDir(), "nope"), smallCIFAR)
		checkErr(t, err, "nope")
	})
	t.Run("negative option", func(t *testing.T) {
		_, err := LoadCIFAR10Superpixels(t.TempDir(), LoadOptions{TrainGraphs: -1})
		checkErr(t, err, "cifar10", "LoadOptions.TrainGraphs is -1")
		_, err = LoadCIFAR10Superpixels(t.TempDir(), LoadOptions{Workers: -2})
		checkErr(t, err, "cifar10", "LoadOptions.Workers is -2")
	})
}

// checkErr fails unless err is non-nil and mentions every want.
func checkErr(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

// BenchmarkLoadCIFAR10Superpixels1000 loads 1,000 validation images (and one training
// and one test image) from the .tar.gz archive with all workers, reading included.
func BenchmarkLoadCIFAR10Superpixels1000(b *testing.B) {
	archive := filepath.Join(b.TempDir(), CIFAR10Archive)
	os.WriteFile(archive, cifarArchive(b, map[string][]byte{
		CIFAR10TrainBatch(1): cifarRecords(b, 5001),
		CIFAR10TestBatch:     cifarRecords(b, 1),
	}), 0o644)
	for b.Loop() {
		if _, err := LoadCIFAR10Superpixels(archive, LoadOptions{ValGraphs: 1000, TrainGraphs: 1, TestGraphs: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
