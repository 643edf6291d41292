package data

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// cifarReference holds the images of testdata/cifar10_slic_reference.bin.gz: six
// 32×32 crops of scikit-image's sample photographs (astronaut, coffee, chelsea),
// block-averaged from 2–8× larger regions, with the segmentation extract_superpixels.py
// gives them: skimage.segmentation.slic on the /255 float32 image converted to
// float64, rgb2lab, compactness 10, asking for 200, 199, … segments until at most 150
// come out, min/max connectivity sizes from the requested count (the 0.14–0.16
// behaviour). Computed with scikit-image 0.19.3's _slic_cython and
// _enforce_label_connectivity_cython. Per image: 3,072 bytes (R, G, B planes), the
// segment count (1 byte), 1,024 labels (1 byte each).
type cifarReference struct {
	planes []byte
	n      int
	labels []byte
}

func readCIFARReference(t testing.TB) []cifarReference {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "cifar10_slic_reference.bin.gz"))
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

func TestRGBToLabMatchesSkimage(t *testing.T) {
	// skimage.color.rgb2lab (0.19.3) of these colours, float64.
	table := srgbLinearTable()
	if table[0] != 0 || table[255] != 1 || table[128] != srgbLinear(float64(float32(128.0/255))) {
		t.Errorf("linear table: %v, %v, %v", table[0], table[255], table[128])
	}
	cases := []struct{ rgb, lab [3]float64 }{
		{[3]float64{1, 0, 0}, [3]float64{53.240587944, 80.092308226, 67.202751044}},
		{[3]float64{0, 1, 0}, [3]float64{87.735099488, -86.183029744, 83.179703175}},
		{[3]float64{0, 0, 1}, [3]float64{32.295672565, 79.185590912, -107.85730021}},
		{[3]float64{1, 1, 1}, [3]float64{100, -2.4549378621e-03, 4.6534211541e-03}},
		{[3]float64{0.5, 0.2, 0.01}, [3]float64{31.635879600, 30.919343593, 41.929573202}},
		{[3]float64{0, 0, 0}, [3]float64{0, 0, 0}},
	}
	for _, c := range cases {
		got := linearToLab(srgbLinear(c.rgb[0]), srgbLinear(c.rgb[1]), srgbLinear(c.rgb[2]))
		for i := range 3 {
			if math.Abs(got[i]-c.lab[i]) > 1e-8*max(1, math.Abs(c.lab[i])) {
				t.Errorf("Lab of %v = %v, want %v", c.rgb, got, c.lab)
				break
			}
		}
	}
}

// checkCIFARGraph asserts the construction's invariants on one CIFAR10 graph.
func checkCIFARGraph(t *testing.T, gi int, g *Graph) {
	t.Helper()
	n := g.NumNodes
	if n < 1 || n > 150 {
		t.Fatalf("graph %d: %d nodes, want 1..150", gi, n)
	}
	if g.Node.Kind != Dense || g.Node.Cols != 5 || g.Edge.Kind != Dense || g.Edge.Cols != 1 {
		t.Fatalf("graph %d: feature layout %v×%d / %v×%d", gi, g.Node.Kind, g.Node.Cols, g.Edge.Kind, g.Edge.Cols)
	}
	for i, v := range g.Node.Dense {
		if v < 0 || v > 1 || (i%5 >= 3 && v > 31.0/32+1e-6) {
			t.Fatalf("graph %d: node feature %d = %v out of range", gi, i, v)
		}
	}
	outDeg := make([]int, n)
	for e := range g.Src {
		outDeg[g.Src[e]]++
		if w := g.Edge.Dense[e]; n > 1 && (g.Src[e] == g.Dst[e] || !(w > 0 && w <= 1)) {
			t.Fatalf("graph %d: edge %d→%d weight %v", gi, g.Src[e], g.Dst[e], w)
		}
	}
	for i, d := range outDeg {
		if n > 1 && d != min(8, n-1) {
			t.Fatalf("graph %d: node %d has %d out-edges, want %d", gi, i, d, min(8, n-1))
		}
	}
}

func TestCIFAR10SuperpixelsMatchReference(t *testing.T) {
	refs := readCIFARReference(t)
	sp := superpixelizer{spec: cifar10Superpixels()}
	for k, ref := range refs {
		g := sp.graph(ref.planes)
		if g.NumNodes != ref.n {
			t.Fatalf("image %d: %d superpixels, reference %d", k, g.NumNodes, ref.n)
		}
		for p, l := range sp.labels {
			if l != int32(ref.labels[p]) {
				t.Fatalf("image %d: pixel %d label %d, reference %d", k, p, l, ref.labels[p])
			}
		}
		checkCIFARGraph(t, k, &g)
		// Node features recomputed from the reference labels: channel means of the
		// /255 image, then the centre of mass over 32.
		for s := range ref.n {
			var sum [3]float64
			var sy, sx, cnt float64
			for p, l := range ref.labels {
				if int(l) != s {
					continue
				}
				for ch := range 3 {
					sum[ch] += float64(ref.planes[ch*cifarPixels+p]) / 255
				}
				sy += float64(p / 32)
				sx += float64(p % 32)
				cnt++
			}
			want := []float64{sum[0] / cnt, sum[1] / cnt, sum[2] / cnt, sy / cnt / 32, sx / cnt / 32}
			for c, w := range want {
				if got := float64(g.Node.Dense[5*s+c]); math.Abs(got-w) > 1e-6 {
					t.Fatalf("image %d: node %d feature %d = %v, want %v", k, s, c, got, w)
				}
			}
		}
	}
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
var smallCIFAR = SuperpixelOptions{MaxVal: 2, MaxTrain: 1, MaxTest: 3}

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
	sp := superpixelizer{spec: cifar10Superpixels()}
	for k, src := range sources {
		rec := files[src.file][src.record*cifarRecord : (src.record+1)*cifarRecord]
		want := sp.graph(rec[1:])
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
	one, err := LoadCIFAR10Superpixels(archive, SuperpixelOptions{MaxVal: 2, MaxTrain: 1, MaxTest: 3, Workers: 1})
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
		_, err := LoadCIFAR10Superpixels(t.TempDir(), SuperpixelOptions{MaxTrain: -1})
		checkErr(t, err, "negative option")
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

// BenchmarkCIFAR10SuperpixelGraphs turns 1,000 CIFAR-10 images (the reference crops
// in turn) into graphs on one goroutine; ×60 estimates the full set on one core.
func BenchmarkCIFAR10SuperpixelGraphs(b *testing.B) {
	refs := readCIFARReference(b)
	sp := superpixelizer{spec: cifar10Superpixels()}
	for b.Loop() {
		for i := range 1000 {
			sp.graph(refs[i%len(refs)].planes)
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
		if _, err := LoadCIFAR10Superpixels(archive, SuperpixelOptions{MaxVal: 1000, MaxTrain: 1, MaxTest: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
