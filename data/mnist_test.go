package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/superpixel"
)

func TestMNISTPNGMatchesIDX(t *testing.T) {
	// mnist_batch_20.png holds the first 3000 test images as original−1 floored at 0:
	// decoding must give back the exact IDX pixels except 1, which reads as 0.
	dir := sharedData(t, "mnist")
	idx, err := readIDXFile(filepath.Join(dir, MNISTTestImages), 3, mnistTestCount)
	if err != nil {
		t.Fatal(err)
	}
	png, err := readMNISTBatch(filepath.Join(dir, MNISTBatchPNG(20)))
	if err != nil {
		t.Fatal(err)
	}
	ones := 0
	for i, p := range png {
		want := idx[i]
		if want == 1 {
			want = 0
			ones++
		}
		if p != want {
			t.Fatalf("pixel %d of image %d: PNG gives %d, IDX has %d", i%mnistPixels, i/mnistPixels, p, idx[i])
		}
	}
	t.Logf("%d pixels of value 1 read as 0 (of %d)", ones, len(png))
}

func TestMNISTLabelsMatchJS(t *testing.T) {
	dir := sharedData(t, "mnist")
	raw, err := os.ReadFile(filepath.Join(dir, "mnist_labels.js"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSpace(string(raw))
	lo, hi := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']')
	if lo < 0 || hi < lo {
		t.Fatal("mnist_labels.js holds no array")
	}
	var js []byte
	for _, f := range strings.Split(s[lo+1:hi], ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, byte(v))
	}
	train, err := readIDXFile(filepath.Join(dir, MNISTTrainLabels), 1, mnistTrainCount)
	if err != nil {
		t.Fatal(err)
	}
	test, err := readIDXFile(filepath.Join(dir, MNISTTestLabels), 1, mnistTestCount)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(append([]byte{}, train...), test...); !bytes.Equal(js, want) {
		t.Fatalf("mnist_labels.js (%d labels) differs from the IDX labels (%d)", len(js), len(want))
	}
}

// checkSuperpixelGraph asserts the construction's invariants on one graph.
func checkSuperpixelGraph(t *testing.T, gi int, g *Graph) {
	t.Helper()
	n := g.NumNodes
	if n < 1 || n > superpixel.MNISTSpec().MaxSegments {
		t.Fatalf("graph %d: %d nodes, want 1..75", gi, n)
	}
	if g.Node.Kind != Dense || g.Node.Cols != 3 || g.Edge.Kind != Dense || g.Edge.Cols != 1 {
		t.Fatalf("graph %d: feature layout %v×%d / %v×%d", gi, g.Node.Kind, g.Node.Cols, g.Edge.Kind, g.Edge.Cols)
	}
	for i, v := range g.Node.Dense {
		if v < 0 || v > 1 || (i%3 != 0 && v > 27.0/28+1e-6) {
			t.Fatalf("graph %d: node feature %d = %v out of range", gi, i, v)
		}
	}
	k := min(8, n-1)
	outDeg := make([]int, n)
	for e := range g.Src {
		outDeg[g.Src[e]]++
		if g.Src[e] == g.Dst[e] && n > 1 {
			t.Fatalf("graph %d: self loop", gi)
		}
		if w := g.Edge.Dense[e]; !(w > 0 && w <= 1) && n > 1 {
			t.Fatalf("graph %d: edge weight %v", gi, w)
		}
	}
	for i, d := range outDeg {
		if d != k && n > 1 {
			t.Fatalf("graph %d: node %d has %d out-edges, want %d", gi, i, d, k)
		}
	}
}

func TestLoadMNISTSuperpixelsSample(t *testing.T) {
	dir := sharedData(t, "mnist")
	opts := LoadOptions{TrainGraphs: 300, ValGraphs: 100, TestGraphs: 200}
	ds, err := LoadMNISTSuperpixels(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(ds.Split.Val) != 100 || len(ds.Split.Train) != 300 || len(ds.Split.Test) != 200 || len(ds.Graphs) != 600 {
		t.Fatalf("split %d/%d/%d of %d graphs", len(ds.Split.Train), len(ds.Split.Val), len(ds.Split.Test), len(ds.Graphs))
	}
	trainLabels, _ := readIDXFile(filepath.Join(dir, MNISTTrainLabels), 1, mnistTrainCount)
	testLabels, _ := readIDXFile(filepath.Join(dir, MNISTTestLabels), 1, mnistTestCount)
	nodes, edges := 0, 0
	for gi := range ds.Graphs {
		g := &ds.Graphs[gi]
		checkSuperpixelGraph(t, gi, g)
		nodes += g.NumNodes
		edges += len(g.Src)
		var want byte
		switch {
		case gi < 100:
			want = trainLabels[gi]
		case gi < 400:
			want = trainLabels[5000+gi-100]
		default:
			want = testLabels[gi-400]
		}
		if g.Label != int32(want) {
			t.Fatalf("graph %d: label %d, want %d", gi, g.Label, want)
		}
	}
	// benchmarking-gnns MNIST: 70.57 nodes and 564.53 directed edges per graph.
	n := float64(len(ds.Graphs))
	avgNodes, avgEdges := float64(nodes)/n, float64(edges)/n
	t.Logf("average %.2f nodes, %.2f edges", avgNodes, avgEdges)
	if math.Abs(avgNodes-70.57) > 3 || math.Abs(avgEdges-564.53) > 30 {
		t.Errorf("average %.2f nodes, %.2f edges; want 70.57±3, 564.5±30", avgNodes, avgEdges)
	}
}

func TestLoadMNISTSuperpixelsDeterministic(t *testing.T) {
	dir := sharedData(t, "mnist")
	a, err := LoadMNISTSuperpixels(dir, LoadOptions{TrainGraphs: 20, ValGraphs: 20, TestGraphs: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadMNISTSuperpixels(dir, LoadOptions{TrainGraphs: 20, ValGraphs: 20, TestGraphs: 20, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("results depend on the number of workers")
	}
}

// Fake MNIST directories for the error paths.

func mnistIDX(magic uint32, dims []uint32, data []byte) []byte {
	var buf bytes.Buffer
	binary.Write(&buf, binary.BigEndian, magic)
	for _, d := range dims {
		binary.Write(&buf, binary.BigEndian, d)
	}
	buf.Write(data)
	return buf.Bytes()
}

func mnistGzip(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func mnistBatchBlank(w, h int, c color.Color) []byte {
	var img image.Image
	if g, ok := c.(color.Gray); ok {
		gi := image.NewGray(image.Rect(0, 0, w, h))
		for i := range gi.Pix {
			gi.Pix[i] = g.Y
		}
		img = gi
	} else {
		ri := image.NewRGBA(image.Rect(0, 0, w, h))
		r, g, b, a := c.RGBA()
		for i := 0; i < len(ri.Pix); i += 4 {
			ri.Pix[i], ri.Pix[i+1], ri.Pix[i+2], ri.Pix[i+3] = uint8(r>>8), uint8(g>>8), uint8(b>>8), uint8(a>>8)
		}
		img = ri
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

// fakeMNISTFiles returns the files of a directory with all-zero labels and images;
// batches 0 and 1 only.
func fakeMNISTFiles() map[string][]byte {
	files := map[string][]byte{
		MNISTTrainLabels: mnistGzip(mnistIDX(0x801, []uint32{60000}, make([]byte, 60000))),
		MNISTTestLabels:  mnistGzip(mnistIDX(0x801, []uint32{10000}, make([]byte, 10000))),
		MNISTTestImages:  mnistGzip(mnistIDX(0x803, []uint32{10000, 28, 28}, make([]byte, 10000*784))),
		MNISTBatchPNG(0): mnistBatchBlank(784, 3000, color.Gray{}),
	}
	files[MNISTBatchPNG(1)] = files[MNISTBatchPNG(0)]
	return files
}

// writeFakeMNIST writes files into a new directory.
func writeFakeMNIST(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadMNISTSuperpixelsErrors(t *testing.T) {
	small := LoadOptions{TrainGraphs: 2, ValGraphs: 2, TestGraphs: 2}
	files := fakeMNISTFiles()
	dir := writeFakeMNIST(t, files)
	ds, err := LoadMNISTSuperpixels(dir, small)
	if err != nil {
		t.Fatalf("fake data set: %v", err)
	}
	if len(ds.Graphs) != 6 || ds.Graphs[0].NumNodes != 49 {
		t.Fatalf("fake data set: %d graphs, first with %d nodes", len(ds.Graphs), ds.Graphs[0].NumNodes)
	}
	cases := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"bad magic", MNISTTrainLabels, mnistGzip(mnistIDX(0x803, []uint32{60000}, make([]byte, 60000))), "magic"},
		{"label count", MNISTTrainLabels, mnistGzip(mnistIDX(0x801, []uint32{59999}, make([]byte, 59999))), "59999"},
		{"label value", MNISTTestLabels, mnistGzip(mnistIDX(0x801, []uint32{10000}, bytes.Repeat([]byte{10}, 10000))), "outside 0..9"},
		{"short IDX data", MNISTTestLabels, mnistGzip(mnistIDX(0x801, []uint32{10000}, make([]byte, 9000))), "9000 bytes"},
		{"truncated header", MNISTTestImages, mnistGzip([]byte{0, 0, 8}), "truncated"},
		{"image dims", MNISTTestImages, mnistGzip(mnistIDX(0x803, []uint32{10000, 28, 27}, make([]byte, 10000*756))), "dimension 2"},
		{"truncated gzip", MNISTTestImages, mnistGzip(mnistIDX(0x803, []uint32{10000, 28, 28}, make([]byte, 10000*784)))[:200], "EOF"},
		{"not gzip", MNISTTestLabels, []byte("plain"), "gzip"},
		{"PNG width", MNISTBatchPNG(0), mnistBatchBlank(783, 3000, color.Gray{}), "783×3000"},
		{"PNG height", MNISTBatchPNG(1), mnistBatchBlank(784, 10, color.Gray{}), "784×10"},
		{"PNG colour", MNISTBatchPNG(0), mnistBatchBlank(784, 3000, color.RGBA{R: 9, A: 255}), "not grey"},
		{"PNG 255", MNISTBatchPNG(0), mnistBatchBlank(784, 3000, color.Gray{Y: 255}), "255"},
		{"PNG garbage", MNISTBatchPNG(0), []byte("\x89PNG\r\n\x1a\nxx"), "png"},
		{"missing file", MNISTBatchPNG(1), nil, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFakeMNIST(t, files)
			path := filepath.Join(dir, c.file)
			if c.data == nil {
				os.Remove(path)
			} else if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadMNISTSuperpixels(dir, small)
			if err == nil || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming %s and mentioning %q", err, c.file, c.want)
			}
		})
	}
	if _, err := LoadMNISTSuperpixels(dir, LoadOptions{TestGraphs: -1}); err == nil || !strings.Contains(err.Error(), "LoadOptions.TestGraphs is -1") {
		t.Errorf("negative TestGraphs: %v, want an error naming the field", err)
	}
}

// BenchmarkMNISTSuperpixelGraphs turns 1000 training images into graphs on one
// goroutine (decoding excluded); ×70 estimates the full set on one core.
func BenchmarkMNISTSuperpixelGraphs(b *testing.B) {
	imgs, err := readMNISTPNGs(sharedData(b, "mnist"), seq(0, 1000))
	if err != nil {
		b.Fatal(err)
	}
	sp, err := superpixel.NewBuilder(superpixel.MNISTSpec())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		for _, im := range imgs {
			superpixelGraph(sp, im)
		}
	}
}

// BenchmarkLoadMNISTSuperpixels1000 loads 1000 validation images with all workers,
// decoding included.
func BenchmarkLoadMNISTSuperpixels1000(b *testing.B) {
	dir := sharedData(b, "mnist")
	for b.Loop() {
		if _, err := LoadMNISTSuperpixels(dir, LoadOptions{ValGraphs: 1000, TrainGraphs: 1, TestGraphs: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
