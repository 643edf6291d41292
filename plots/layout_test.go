package plots

import (
	"math"
	"slices"
	"testing"
)

// twoCliques returns two k-cliques, nodes 0..k−1 and k..2k−1, joined by the edge
// 0–k.
func twoCliques(k int) (n int, src, dst []int32) {
	for c := range 2 {
		for i := range k {
			for j := i + 1; j < k; j++ {
				src, dst = append(src, int32(c*k+i)), append(dst, int32(c*k+j))
			}
		}
	}
	return 2 * k, append(src, 0), append(dst, int32(k))
}

// checkLayout checks that pos has n finite points in [−1, 1]² that reach the
// border on some axis (the layouts are scaled to fit).
func checkLayout(t *testing.T, name string, pos [][2]float64, n int) {
	t.Helper()
	if len(pos) != n {
		t.Fatalf("%s: %d positions for %d nodes", name, len(pos), n)
	}
	extent := 0.0
	for i, p := range pos {
		for _, v := range p {
			if !isFinite(v) || math.Abs(v) > 1+1e-12 {
				t.Fatalf("%s: node %d at %v, outside [−1, 1]²", name, i, p)
			}
			extent = max(extent, math.Abs(v))
		}
	}
	if n > 1 && math.Abs(extent-1) > 1e-9 {
		t.Errorf("%s: largest coordinate %g, want 1", name, extent)
	}
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// clusterRatio is the mean distance within the cliques of twoCliques(k) over the
// mean distance between them.
func clusterRatio(pos [][2]float64, k int) float64 {
	var within, between float64
	var nw, nb int
	for i := range pos {
		for j := i + 1; j < len(pos); j++ {
			if (i < k) == (j < k) {
				within += dist(pos[i], pos[j])
				nw++
			} else {
				between += dist(pos[i], pos[j])
				nb++
			}
		}
	}
	return (within / float64(nw)) / (between / float64(nb))
}

func TestForceLayoutDeterministicPerSeed(t *testing.T) {
	e := testExpander(t, 60, 4, 1)
	a, err := ForceLayout(e.N, e.Src, e.Dst, 100, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ForceLayout(e.N, e.Src, e.Dst, 100, 7)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ForceLayout(e.N, e.Src, e.Dst, 100, 8)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "seed 7", a, e.N)
	checkLayout(t, "seed 8", c, e.N)
	if !slices.Equal(a, b) {
		t.Error("two layouts with seed 7 differ")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 7 and 8 give the same layout")
	}
}

func TestForceLayoutSeparatesClusters(t *testing.T) {
	const k = 8
	n, src, dst := twoCliques(k)
	for seed := range uint64(3) {
		pos, err := ForceLayout(n, src, dst, 0, seed)
		if err != nil {
			t.Fatal(err)
		}
		checkLayout(t, "two cliques", pos, n)
		if r := clusterRatio(pos, k); r > 0.5 {
			t.Errorf("seed %d: mean distance within cliques / between = %.3f, want < 0.5", seed, r)
		}
	}
	// Components without edges stay in view and apart.
	pos, err := ForceLayout(5, nil, nil, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "isolated nodes", pos, 5)
	for i := range pos {
		for j := i + 1; j < len(pos); j++ {
			if d := dist(pos[i], pos[j]); d < 0.2 {
				t.Errorf("isolated nodes %d and %d are %.3f apart", i, j, d)
			}
		}
	}
}

func TestSpectralLayoutOfPathFollowsFiedlerVector(t *testing.T) {
	const n = 30
	src, dst := pathEdges(n)
	// Shuffle the edge order and direction: the layout depends on the graph only.
	src2, dst2 := slices.Clone(dst), slices.Clone(src)
	slices.Reverse(src2)
	slices.Reverse(dst2)
	pos, err := SpectralLayout(n, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	pos2, err := SpectralLayout(n, src2, dst2)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "path", pos, n)
	for i := range pos {
		if dist(pos[i], pos2[i]) > 1e-9 {
			t.Fatalf("node %d at %v, and at %v with the edges reordered", i, pos[i], pos2[i])
		}
	}
	// x is strictly monotone along the path ...
	increasing := pos[1][0] > pos[0][0]
	for i := 1; i < n; i++ {
		if (pos[i][0] > pos[i-1][0]) != increasing || pos[i][0] == pos[i-1][0] {
			t.Fatalf("x is not monotone along the path at node %d: %g after %g", i, pos[i][0], pos[i-1][0])
		}
	}
	// ... and is the path's Fiedler vector cos(π(i+½)/n), up to scale and sign.
	var dot, nx, nf float64
	for i := range n {
		f := math.Cos(math.Pi * (float64(i) + 0.5) / n)
		dot += pos[i][0] * f
		nx += pos[i][0] * pos[i][0]
		nf += f * f
	}
	if r := math.Abs(dot) / math.Sqrt(nx*nf); r < 1-1e-9 {
		t.Errorf("x correlates %.12f with the Fiedler vector, want 1", r)
	}
	// y is the next eigenvector, cos(2π(i+½)/n): symmetric about the middle.
	for i := range n / 2 {
		if math.Abs(pos[i][1]-pos[n-1-i][1]) > 1e-9 {
			t.Errorf("y of nodes %d and %d: %g and %g, want equal", i, n-1-i, pos[i][1], pos[n-1-i][1])
		}
	}
}

func TestSpectralLayoutSeparatesClusters(t *testing.T) {
	const k = 8
	n, src, dst := twoCliques(k)
	pos, err := SpectralLayout(n, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "two cliques", pos, n)
	// The Fiedler vector splits at the bridge: one clique on each side.
	for i := range n {
		sameSideAsNode0 := (pos[i][0] > 0) == (pos[0][0] > 0)
		if sameSideAsNode0 != (i < k) {
			t.Errorf("node %d at x = %g is on the wrong side", i, pos[i][0])
		}
	}
}

func TestLayoutSmallGraphs(t *testing.T) {
	for _, layout := range []struct {
		name string
		f    func(n int, src, dst []int32) ([][2]float64, error)
	}{
		{"force", func(n int, src, dst []int32) ([][2]float64, error) { return ForceLayout(n, src, dst, 0, 1) }},
		{"spectral", SpectralLayout},
	} {
		pos, err := layout.f(0, nil, nil)
		if err != nil || len(pos) != 0 {
			t.Errorf("%s of no nodes: %v, %v", layout.name, pos, err)
		}
		pos, err = layout.f(1, []int32{0}, []int32{0})
		if err != nil || len(pos) != 1 || pos[0] != [2]float64{} {
			t.Errorf("%s of one node with a self loop: %v, %v", layout.name, pos, err)
		}
		pos, err = layout.f(2, []int32{0}, []int32{1})
		if err != nil {
			t.Fatalf("%s of one edge: %v", layout.name, err)
		}
		checkLayout(t, layout.name+" of one edge", pos, 2)
		if d := dist(pos[0], pos[1]); d < 1 {
			t.Errorf("%s of one edge: ends %.3f apart", layout.name, d)
		}
	}
}

func TestLayoutErrors(t *testing.T) {
	for name, c := range map[string]struct {
		n        int
		src, dst []int32
		iters    int
	}{
		"negative nodes":  {-1, nil, nil, 0},
		"too many nodes":  {MaxLayoutNodes + 1, nil, nil, 0},
		"length mismatch": {3, []int32{0, 1}, []int32{1}, 0},
		"node too large":  {3, []int32{0}, []int32{3}, 0},
		"negative node":   {3, []int32{-1}, []int32{1}, 0},
		"negative iters":  {3, nil, nil, -1},
		"too many iters":  {3, nil, nil, maxLayoutIters + 1},
	} {
		if _, err := ForceLayout(c.n, c.src, c.dst, c.iters, 1); err == nil {
			t.Errorf("ForceLayout %s: no error", name)
		}
		if c.iters != 0 {
			continue
		}
		if _, err := SpectralLayout(c.n, c.src, c.dst); err == nil {
			t.Errorf("SpectralLayout %s: no error", name)
		}
	}
}
