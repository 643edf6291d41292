package superpixel

import (
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const (
	mnistPixels = 28 * 28
	cifarPixels = 32 * 32
)

// mustBuilder returns a Builder for spec.
func mustBuilder(t testing.TB, spec Spec) *Builder {
	t.Helper()
	b, err := NewBuilder(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gunzipFile returns the decompressed content of a gzipped file.
func gunzipFile(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
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
	return raw
}

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
	raw := gunzipFile(t, filepath.Join("testdata", "cifar10_slic_reference.bin.gz"))
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

// checkGraph asserts the construction's invariants on one graph of spec: 1 to
// MaxSegments nodes, Channels+2 feature columns with values in [0, 1] and centres in
// [0, (Side−1)/Side], edges between nodes in range with one weight each, and (with more
// than one node) no self loops, weights in (0, 1] and min(8, N−1) out-edges per node.
func checkGraph(t *testing.T, spec Spec, gi int, g *Graph) {
	t.Helper()
	n, cols := g.N, spec.Channels+2
	if n < 1 || n > spec.MaxSegments {
		t.Fatalf("graph %d: %d nodes, want 1..%d", gi, n, spec.MaxSegments)
	}
	if g.Cols != cols || len(g.Features) != n*cols || len(g.Dst) != len(g.Src) || len(g.Weights) != len(g.Src) {
		t.Fatalf("graph %d: %d×%d features in %d values, %d/%d/%d edge entries", gi, n, g.Cols, len(g.Features), len(g.Src), len(g.Dst), len(g.Weights))
	}
	maxCentre := float32(spec.Side-1)/float32(spec.Side) + 1e-6
	for i, v := range g.Features {
		if v < 0 || v > 1 || (i%cols >= spec.Channels && v > maxCentre) {
			t.Fatalf("graph %d: node feature %d = %v out of range", gi, i, v)
		}
	}
	k := min(Neighbours, n-1)
	outDeg := make([]int, n)
	for e := range g.Src {
		if g.Src[e] < 0 || int(g.Src[e]) >= n || g.Dst[e] < 0 || int(g.Dst[e]) >= n {
			t.Fatalf("graph %d: edge %d (%d → %d) outside [0, %d)", gi, e, g.Src[e], g.Dst[e], n)
		}
		outDeg[g.Src[e]]++
		if g.Src[e] == g.Dst[e] && n > 1 {
			t.Fatalf("graph %d: self loop", gi)
		}
		if w := g.Weights[e]; !(w > 0 && w <= 1) && n > 1 {
			t.Fatalf("graph %d: edge weight %v", gi, w)
		}
	}
	for i, d := range outDeg {
		if d != k && n > 1 {
			t.Fatalf("graph %d: node %d has %d out-edges, want %d", gi, i, d, k)
		}
	}
}

func TestSpecs(t *testing.T) {
	for _, spec := range []Spec{MNISTSpec(), CIFAR10Spec()} {
		if err := spec.Validate(); err != nil {
			t.Errorf("%+v: %v", spec, err)
		}
	}
	for _, bad := range []Spec{
		{Side: 0, Channels: 1, MaxSegments: 5, Compactness: 1},
		{Side: 8, Channels: 2, MaxSegments: 5, Compactness: 1},
		{Side: 8, Channels: 1, MaxSegments: 0, Compactness: 1},
		{Side: 8, Channels: 1, MaxSegments: 5, ExtraQuery: -1, Compactness: 1},
		{Side: 8, Channels: 1, MaxSegments: 5, Compactness: 0},
		{Side: 8, Channels: 3, MaxSegments: 5, Compactness: math.Inf(1)},
		{Side: 8, Channels: 3, MaxSegments: 5, Compactness: math.NaN()},
	} {
		if b, err := NewBuilder(bad); err == nil || b != nil || !strings.HasPrefix(err.Error(), "superpixel: ") {
			t.Errorf("NewBuilder(%+v) = %v, %v; want an error", bad, b, err)
		}
	}
	if got := mustBuilder(t, CIFAR10Spec()).Spec(); got != CIFAR10Spec() {
		t.Errorf("Spec() = %+v", got)
	}
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

func TestCIFAR10SuperpixelsMatchReference(t *testing.T) {
	refs := readCIFARReference(t)
	sp := mustBuilder(t, CIFAR10Spec())
	for k, ref := range refs {
		g := sp.Graph(ref.planes)
		if g.N != ref.n {
			t.Fatalf("image %d: %d superpixels, reference %d", k, g.N, ref.n)
		}
		for p, l := range sp.labels {
			if l != int32(ref.labels[p]) {
				t.Fatalf("image %d: pixel %d label %d, reference %d", k, p, l, ref.labels[p])
			}
		}
		checkGraph(t, CIFAR10Spec(), k, &g)
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
				if got := float64(g.Features[5*s+c]); math.Abs(got-w) > 1e-6 {
					t.Fatalf("image %d: node %d feature %d = %v, want %v", k, s, c, got, w)
				}
			}
		}
	}
}

// readMNISTTestImages returns the 10,000 MNIST test images (784 bytes each) from the
// shared data.
func readMNISTTestImages(t testing.TB) []byte {
	t.Helper()
	raw := gunzipFile(t, sharedData(t, filepath.Join("mnist", "t10k-images-idx3-ubyte.gz")))
	const n = 10000
	if len(raw) != 16+n*mnistPixels || binary.BigEndian.Uint32(raw) != 0x803 ||
		binary.BigEndian.Uint32(raw[4:]) != n || binary.BigEndian.Uint32(raw[8:]) != 28 || binary.BigEndian.Uint32(raw[12:]) != 28 {
		t.Fatalf("t10k-images-idx3-ubyte.gz: not 10,000 28×28 images in IDX format (%d bytes)", len(raw))
	}
	return raw[16:]
}

func TestMNISTSuperpixelsMatchReference(t *testing.T) {
	// testdata/mnist_slic_reference.bin.gz: for each of the first 20 test images, the
	// segment count (1 byte) and the 784 labels (1 byte each) extract_superpixels.py
	// gives: skimage.segmentation.slic on the /255 float32 image as float64,
	// compactness 0.25, asking for 95, 94, … segments until at most 75 come out,
	// connectivity sizes from the requested count (the 0.14–0.16 behaviour); computed
	// with scikit-image 0.19.3's _slic_cython and _enforce_label_connectivity_cython.
	images := readMNISTTestImages(t)
	ref := gunzipFile(t, filepath.Join("testdata", "mnist_slic_reference.bin.gz"))
	if len(ref) != 20*(1+mnistPixels) {
		t.Fatalf("reference: %d bytes", len(ref))
	}
	sp := mustBuilder(t, MNISTSpec())
	for k := range 20 {
		r := ref[k*(1+mnistPixels) : (k+1)*(1+mnistPixels)]
		g := sp.Graph(images[k*mnistPixels : (k+1)*mnistPixels])
		if g.N != int(r[0]) {
			t.Fatalf("image %d: %d superpixels, reference %d", k, g.N, r[0])
		}
		for p, l := range sp.labels {
			if l != int32(r[1+p]) {
				t.Fatalf("image %d: pixel %d label %d, reference %d", k, p, l, r[1+p])
			}
		}
		checkGraph(t, MNISTSpec(), k, &g)
	}
}

func TestSuperpixelGraphOfBlankImage(t *testing.T) {
	// A blank image: the 9×9 grid (asked 95..65 segments) keeps 81 > 75 segments, the
	// 7×7 grid (asked 64) gives 49; all intensities 0, 8 out-edges per node.
	sp := mustBuilder(t, MNISTSpec())
	g := sp.Graph(make([]byte, mnistPixels))
	if g.N != 49 || len(g.Src) != 49*8 {
		t.Fatalf("%d nodes, %d edges; want 49, 392", g.N, len(g.Src))
	}
	checkGraph(t, MNISTSpec(), 0, &g)
	for k := range 49 {
		if g.Features[3*k] != 0 {
			t.Fatalf("node %d intensity %v", k, g.Features[3*k])
		}
	}
}

// discImage returns a 28×28 grey image of a bright disc of radius 8.
func discImage() []byte {
	img := make([]byte, mnistPixels)
	for p := range img {
		if y, x := p/28, p%28; (y-14)*(y-14)+(x-14)*(x-14) < 64 {
			img[p] = 200
		}
	}
	return img
}

func TestSuperpixelKNNWeights(t *testing.T) {
	// Check edge weights against the formula recomputed from the node centres.
	sp := mustBuilder(t, MNISTSpec())
	g := sp.Graph(discImage())
	n := g.N
	dist := func(i, j int) float64 {
		dy := float64(g.Features[3*i+1] - g.Features[3*j+1])
		dx := float64(g.Features[3*i+2] - g.Features[3*j+2])
		return math.Hypot(dy, dx)
	}
	sigma := make([]float64, n)
	for i := range n {
		var ds []float64
		for j := range n {
			ds = append(ds, dist(i, j))
		}
		// sum of the 9 smallest by repeated minimum extraction
		total := 0.0
		for range 9 {
			m := 0
			for j := range ds {
				if ds[j] < ds[m] {
					m = j
				}
			}
			total += ds[m]
			ds[m] = math.Inf(1)
		}
		sigma[i] = total/8 + 1e-8
	}
	for e := range g.Src {
		i, j := int(g.Src[e]), int(g.Dst[e])
		d := dist(i, j)
		want := 0.5 * (math.Exp(-(d/sigma[i])*(d/sigma[i])) + math.Exp(-(d/sigma[j])*(d/sigma[j])))
		if math.Abs(float64(g.Weights[e])-want) > 1e-5 {
			t.Fatalf("edge %d→%d weight %v, want %v", i, j, g.Weights[e], want)
		}
		// no unchosen node may be more similar than the chosen ones
		for o := range n {
			if o == i || o == j {
				continue
			}
			chosen := false
			for f := range g.Src {
				if int(g.Src[f]) == i && int(g.Dst[f]) == o {
					chosen = true
				}
			}
			do := dist(i, o)
			wo := 0.5 * (math.Exp(-(do/sigma[i])*(do/sigma[i])) + math.Exp(-(do/sigma[o])*(do/sigma[o])))
			if !chosen && wo > want+1e-9 {
				t.Fatalf("node %d: unchosen %d (weight %v) beats chosen %d (%v)", i, o, wo, j, want)
			}
		}
	}
}

// TestBuilderSteps checks that Segment, NodeFeatures and KNNEdges compose to Graph,
// that a Builder's results do not depend on the images it saw before, and that a
// single node gets its self loop.
func TestBuilderSteps(t *testing.T) {
	refs := readCIFARReference(t)
	for _, c := range []struct {
		spec   Spec
		images [][]byte
	}{
		{MNISTSpec(), [][]byte{discImage(), make([]byte, mnistPixels), discImage()}},
		{CIFAR10Spec(), [][]byte{refs[0].planes, refs[1].planes, refs[0].planes}},
	} {
		used := mustBuilder(t, c.spec)
		for k, img := range c.images {
			g := used.Graph(img)
			fresh := mustBuilder(t, c.spec)
			if want := fresh.Graph(img); !reflect.DeepEqual(g, want) {
				t.Errorf("%d channels, image %d: a used Builder's graph differs from a fresh one's", c.spec.Channels, k)
			}
			labels, n := fresh.Segment(img)
			if n != g.N || len(labels) != c.spec.Side*c.spec.Side || slices.Max(labels) != int32(n-1) || slices.Min(labels) != 0 {
				t.Fatalf("%d channels, image %d: Segment gave %d labels in [%d, %d], %d segments; Graph %d nodes",
					c.spec.Channels, k, len(labels), slices.Min(labels), slices.Max(labels), n, g.N)
			}
			features := fresh.NodeFeatures(img, labels, n)
			src, dst, w := fresh.KNNEdges(features, n)
			if step := (Graph{N: n, Cols: c.spec.Channels + 2, Features: features, Src: src, Dst: dst, Weights: w}); !reflect.DeepEqual(step, g) {
				t.Errorf("%d channels, image %d: the steps do not compose to Graph", c.spec.Channels, k)
			}
		}
	}
	sp := mustBuilder(t, MNISTSpec())
	src, dst, w := sp.KNNEdges([]float32{0.5, 0.25, 0.75}, 1)
	if !slices.Equal(src, []int32{0}) || !slices.Equal(dst, []int32{0}) || !slices.Equal(w, []float32{0}) {
		t.Errorf("single node: edges %v → %v weights %v, want one self loop of weight 0", src, dst, w)
	}
}

func TestBuilderPanicsOnBadSizes(t *testing.T) {
	sp := mustBuilder(t, MNISTSpec())
	for name, f := range map[string]func(){
		"Graph":        func() { sp.Graph(make([]byte, mnistPixels-1)) },
		"Segment":      func() { sp.Segment(make([]byte, 3*mnistPixels)) },
		"NodeFeatures": func() { sp.NodeFeatures(make([]byte, mnistPixels), make([]int32, 10), 1) },
		"KNNEdges":     func() { sp.KNNEdges(make([]float32, 5), 2) },
		"KNNEdges 0":   func() { sp.KNNEdges(nil, 0) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "superpixel: ") {
					t.Errorf("%s: recovered %v, want a superpixel panic", name, r)
				}
			}()
			f()
		}()
	}
}

// BenchmarkCIFAR10SuperpixelGraphs turns 1,000 CIFAR-10 images (the reference crops
// in turn) into graphs on one goroutine; ×60 estimates the full set on one core.
func BenchmarkCIFAR10SuperpixelGraphs(b *testing.B) {
	refs := readCIFARReference(b)
	sp := mustBuilder(b, CIFAR10Spec())
	for b.Loop() {
		for i := range 1000 {
			sp.Graph(refs[i%len(refs)].planes)
		}
	}
}
