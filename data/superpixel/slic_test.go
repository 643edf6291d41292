package superpixel

import (
	"math/rand/v2"
	"testing"
)

func TestSLICRegularGrid(t *testing.T) {
	cases := []struct {
		h, w, n int
		want    slicGrid
	}{
		// skimage's regular_grid docstring: shape (20, 40), 8 points → slice(5, None, 10) twice.
		{20, 40, 8, slicGrid{startY: 5, stepY: 10, startX: 5, stepX: 10, step: 10}},
		// 28×28: step √(784/n) rounded half to even, start ⌊step/2⌋.
		{28, 28, 95, slicGrid{startY: 1, stepY: 3, startX: 1, stepX: 3, step: 3}},
		{28, 28, 65, slicGrid{startY: 1, stepY: 3, startX: 1, stepX: 3, step: 3}},
		{28, 28, 64, slicGrid{startY: 1, stepY: 4, startX: 1, stepX: 4, step: 4}}, // √12.25 = 3.5 → 4
		{28, 28, 49, slicGrid{startY: 2, stepY: 4, startX: 2, stepX: 4, step: 4}},
		{4, 4, 100, slicGrid{startY: 0, stepY: 1, startX: 0, stepX: 1, step: 1}}, // more points than pixels
		{2, 100, 1, slicGrid{startY: 1, stepY: 2, startX: 50, stepX: 100, step: 100}},
	}
	for _, c := range cases {
		if got := slicRegularGrid(c.h, c.w, c.n); got != c.want {
			t.Errorf("regular grid %d×%d, %d points: %+v, want %+v", c.h, c.w, c.n, got, c.want)
		}
	}
}

// checkSegmentation asserts SLIC's output invariants: one label per pixel, labels
// 0..n−1 all used, and every label one 4-connected region.
func checkSegmentation(t *testing.T, labels []int32, w, h, n int) {
	t.Helper()
	if len(labels) != w*h || n <= 0 {
		t.Fatalf("%d labels for %d pixels, %d segments", len(labels), w*h, n)
	}
	size := make([]int, n)
	for _, l := range labels {
		if l < 0 || int(l) >= n {
			t.Fatalf("label %d outside [0, %d)", l, n)
		}
		size[l]++
	}
	for l, s := range size {
		if s == 0 {
			t.Fatalf("label %d unused", l)
		}
	}
	// Flood fill each label from its first pixel; it must reach all its pixels.
	seen := make([]bool, w*h)
	for start, l := range labels {
		if seen[start] {
			continue
		}
		stack, reached := []int{start}, 0
		seen[start] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			reached++
			y, x := p/w, p%w
			for _, q := range [4][2]int{{y, x + 1}, {y, x - 1}, {y + 1, x}, {y - 1, x}} {
				if q[0] >= 0 && q[0] < h && q[1] >= 0 && q[1] < w {
					if r := q[0]*w + q[1]; !seen[r] && labels[r] == l {
						seen[r] = true
						stack = append(stack, r)
					}
				}
			}
		}
		if reached != size[l] {
			t.Fatalf("label %d: %d pixels but its region from pixel %d has %d", l, size[l], start, reached)
		}
	}
}

func TestSLICUniformImageGivesBlocks(t *testing.T) {
	// A constant image leaves pure spatial k-means on the grid: 16 centres at 3, 10, 17,
	// 24 on each axis own 7×7 blocks (no ties), which stay put; min_size 24 keeps all.
	img := make([]float32, 28*28)
	for i := range img {
		img[i] = 0.5
	}
	labels, n := SLIC(img, 28, 28, 16, 0.25)
	if n != 16 {
		t.Fatalf("%d segments, want 16", n)
	}
	for p, l := range labels {
		y, x := p/28, p%28
		if want := int32((y/7)*4 + x/7); l != want {
			t.Fatalf("pixel (%d, %d): label %d, want %d", y, x, l, want)
		}
	}
}

func TestSLICFollowsEdges(t *testing.T) {
	// Two flat halves and a low compactness: colour dominates, no segment crosses.
	const w, h = 24, 20
	img := make([]float32, w*h)
	for p := range img {
		if p%w >= 11 {
			img[p] = 1
		}
	}
	labels, n := SLIC(img, w, h, 12, 0.05)
	checkSegmentation(t, labels, w, h, n)
	side := map[int32]float32{}
	for p, l := range labels {
		if v, ok := side[l]; ok && v != img[p] {
			t.Fatalf("segment %d spans both halves", l)
		}
		side[l] = img[p]
	}
}

func TestSLICInvariantsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 40 {
		w, h := 5+rng.IntN(30), 5+rng.IntN(30)
		c := 1 + 2*rng.IntN(2) // 1 or 3 channels
		img := make([]float32, w*h*c)
		for i := range img {
			img[i] = rng.Float32()
		}
		nSeg := 1 + rng.IntN(w*h/2)
		compactness := []float64{0.1, 0.25, 1, 10}[trial%4]
		labels, n := SLIC(img, w, h, nSeg, compactness)
		checkSegmentation(t, labels, w, h, n)
	}
}

func TestSLICInvalidInput(t *testing.T) {
	img := make([]float32, 12)
	for _, c := range []struct {
		img     []float32
		w, h, n int
		comp    float64
	}{
		{img, 0, 3, 4, 1}, {img, 4, -1, 4, 1}, {img, 4, 3, 0, 1}, {img, 4, 3, 4, 0},
		{img, 5, 3, 4, 1}, {nil, 4, 3, 4, 1}, {img, 4, 3, 4, -2},
	} {
		if labels, n := SLIC(c.img, c.w, c.h, c.n, c.comp); labels != nil || n != 0 {
			t.Errorf("SLIC(len %d, %d×%d, %d, %v) = %d labels, %d; want nil, 0", len(c.img), c.w, c.h, c.n, c.comp, len(labels), n)
		}
	}
}

func TestSLICConnectivityEnforcement(t *testing.T) {
	// A 4×4 assignment with a one-pixel island of label 1 inside label 0 and a column
	// of label 2: with min_size 2 the island joins its labelled neighbour.
	ws := slicWorkspace{w: 4, h: 4, nearest: []int32{
		0, 0, 0, 2,
		0, 1, 0, 2,
		0, 0, 0, 2,
		0, 0, 0, 2,
	}}
	out := make([]int32, 16)
	if n := ws.enforceConnectivity(out, 2, 100); n != 2 {
		t.Fatalf("%d segments, want 2", n)
	}
	want := []int32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}
	for i := range want {
		if out[i] != want[i] {
			t.Fatalf("labels %v, want %v", out, want)
		}
	}
	// A 1×10 strip of one label with max_size 4 splits into runs of 4, 4 and 2.
	ws = slicWorkspace{w: 10, h: 1, nearest: make([]int32, 10)}
	out = make([]int32, 10)
	if n := ws.enforceConnectivity(out, 1, 4); n != 3 {
		t.Fatalf("strip: %d segments, want 3", n)
	}
	want = []int32{0, 0, 0, 0, 1, 1, 1, 1, 2, 2}
	for i := range want {
		if out[i] != want[i] {
			t.Fatalf("strip labels %v, want %v", out, want)
		}
	}
}

func BenchmarkSLICMNIST(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	img := make([]float32, 28*28)
	for i := range img {
		if rng.IntN(4) == 0 {
			img[i] = rng.Float32()
		}
	}
	for b.Loop() {
		SLIC(img, 28, 28, 95, 0.25)
	}
}
