package spectral

import (
	"math"
	"testing"
)

// distinctExtremes returns the k largest (descending) and k smallest (ascending) values
// of an ascending list, merging values within tol of a group's first value.
func distinctExtremes(vals []float64, k int, tol float64) (top, bottom []float64) {
	var groups []float64
	for i := 0; i < len(vals); {
		first := vals[i]
		for ; i < len(vals) && vals[i]-first <= tol; i++ {
		}
		groups = append(groups, first)
	}
	for i := 0; i < k && i < len(groups); i++ {
		top = append(top, groups[len(groups)-1-i])
		bottom = append(bottom, groups[i])
	}
	return top, bottom
}

func assertClose(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %v, want %v", name, got, want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s: value %d = %.12f, want %.12f (diff %.3g)", name, i, got[i], want[i], got[i]-want[i])
		}
	}
}

func TestLanczosMatchesDense(t *testing.T) {
	graphs := map[string]*Graph{
		"regular":   randomRegular(t, 300, 6, 1),
		"irregular": randomIrregular(t, 250, 0.03, 2),
	}
	for gname, g := range graphs {
		for _, kind := range []MatrixKind{Adjacency, Laplacian, NormalizedLaplacian} {
			dense, err := DenseEigenvalues(g, kind)
			if err != nil {
				t.Fatal(err)
			}
			wantTop, wantBottom := distinctExtremes(dense, 3, 1e-10)
			for _, mode := range []struct {
				name   string
				budget int64
			}{{"full", 0}, {"local", -1}} {
				ext, err := Lanczos(g, kind, LanczosOptions{K: 3, Tol: 1e-10, MaxIter: 3 * g.N, Seed: 9, MaxBasisBytes: mode.budget})
				if err != nil {
					t.Fatal(err)
				}
				name := gname + " " + kind.String() + " " + mode.name
				if !ext.Converged {
					t.Fatalf("%s: not converged after %d steps: %v %v", name, ext.Iterations, ext.TopResidual, ext.BottomResidual)
				}
				if (mode.budget < 0) != (ext.ReorthIterations == 0) {
					t.Fatalf("%s: %d reorthogonalised steps", name, ext.ReorthIterations)
				}
				assertClose(t, name+" top", ext.Top, wantTop, 1e-8)
				assertClose(t, name+" bottom", ext.Bottom, wantBottom, 1e-8)
				for i, r := range append(ext.TopResidual, ext.BottomResidual...) {
					if r > 1e-10 {
						t.Fatalf("%s: residual %d = %g above tolerance", name, i, r)
					}
				}
			}
		}
	}
}

func TestLanczosDeflateTrivial(t *testing.T) {
	reg := randomRegular(t, 200, 4, 3)
	irr := randomIrregular(t, 200, 0.04, 4)
	cases := []struct {
		name string
		g    *Graph
		kind MatrixKind
		// The deflated spectrum is the dense one without one copy of the trivial eigenvalue
		// at index drop of the ascending list.
		drop func(n int) int
	}{
		{"regular adjacency", reg, Adjacency, func(n int) int { return n - 1 }},
		{"regular laplacian", reg, Laplacian, func(int) int { return 0 }},
		{"irregular laplacian", irr, Laplacian, func(int) int { return 0 }},
		{"irregular normalized", irr, NormalizedLaplacian, func(int) int { return 0 }},
	}
	for _, c := range cases {
		dense, err := DenseEigenvalues(c.g, c.kind)
		if err != nil {
			t.Fatal(err)
		}
		i := c.drop(c.g.N)
		rest := append(append([]float64(nil), dense[:i]...), dense[i+1:]...)
		wantTop, wantBottom := distinctExtremes(rest, 2, 1e-10)
		ext, err := Lanczos(c.g, c.kind, LanczosOptions{K: 2, Tol: 1e-10, DeflateTrivial: true, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !ext.Converged {
			t.Fatalf("%s: not converged", c.name)
		}
		assertClose(t, c.name+" top", ext.Top, wantTop, 1e-8)
		assertClose(t, c.name+" bottom", ext.Bottom, wantBottom, 1e-8)
	}
}

func TestLanczosInvariantSubspace(t *testing.T) {
	// Q5 has the 6 distinct adjacency eigenvalues 5, 3, 1, -1, -3, -5: the Krylov space
	// of any start vector becomes invariant after 6 steps.
	ext, err := Lanczos(hypercube(t, 5), Adjacency, LanczosOptions{K: 6, Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	if !ext.Invariant || !ext.Converged || ext.Iterations != 6 {
		t.Fatalf("invariant %v converged %v after %d steps", ext.Invariant, ext.Converged, ext.Iterations)
	}
	assertClose(t, "Q5 top", ext.Top, []float64{5, 3, 1, -1, -3, -5}, 1e-10)
	assertClose(t, "Q5 bottom", ext.Bottom, []float64{-5, -3, -1, 1, 3, 5}, 1e-10)

	// Deflating the constant vector of the 0-regular graph leaves the zero matrix.
	ext, err = Lanczos(&Graph{N: 3, Offsets: make([]int64, 4)}, Adjacency, LanczosOptions{DeflateTrivial: true})
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "edgeless", ext.Top, []float64{0}, 0)
}

func TestLanczosDeterministic(t *testing.T) {
	g := randomIrregular(t, 400, 0.01, 6)
	opts := LanczosOptions{K: 2, Tol: 1e-6, Seed: 42}
	a, err := Lanczos(g, NormalizedLaplacian, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Lanczos(g, NormalizedLaplacian, opts)
	if err != nil {
		t.Fatal(err)
	}
	if a.Iterations != b.Iterations || a.Top[0] != b.Top[0] || a.Bottom[1] != b.Bottom[1] {
		t.Fatalf("same seed, different results: %+v vs %+v", a, b)
	}
}

func TestLanczosNotConverged(t *testing.T) {
	ext, err := Lanczos(randomRegular(t, 2000, 6, 1), Adjacency, LanczosOptions{K: 1, Tol: 1e-12, MaxIter: 8, DeflateTrivial: true})
	if err != nil {
		t.Fatal(err)
	}
	if ext.Converged || ext.Iterations != 8 || ext.TopResidual[0] <= 1e-12 {
		t.Fatalf("8 steps reported converged: %+v", ext)
	}
}

func TestLanczosErrors(t *testing.T) {
	reg, irr := cycle(t, 5), path(t, 5)
	bad := []struct {
		name string
		g    *Graph
		kind MatrixKind
		opts LanczosOptions
	}{
		{"nil graph", nil, Adjacency, LanczosOptions{}},
		{"empty graph", &Graph{Offsets: []int64{0}}, Adjacency, LanczosOptions{}},
		{"malformed", &Graph{N: 1, Offsets: []int64{0, 1}, Adj: []int32{3}}, Adjacency, LanczosOptions{}},
		{"bad kind", reg, MatrixKind(-1), LanczosOptions{}},
		{"negative K", reg, Adjacency, LanczosOptions{K: -1}},
		{"negative tol", reg, Adjacency, LanczosOptions{Tol: -1}},
		{"NaN tol", reg, Adjacency, LanczosOptions{Tol: math.NaN()}},
		{"negative MaxIter", reg, Adjacency, LanczosOptions{MaxIter: -3}},
		{"deflate non-regular adjacency", irr, Adjacency, LanczosOptions{DeflateTrivial: true}},
		{"deflate edgeless normalized", &Graph{N: 2, Offsets: make([]int64, 3)}, NormalizedLaplacian, LanczosOptions{DeflateTrivial: true}},
		{"deflate one node", mustGraph(t, 1), Laplacian, LanczosOptions{DeflateTrivial: true}},
	}
	for _, c := range bad {
		if _, err := Lanczos(c.g, c.kind, c.opts); err == nil {
			t.Errorf("%s: Lanczos succeeded", c.name)
		}
	}
}

func TestExpanderEigenvalues(t *testing.T) {
	for name, g := range map[string]*Graph{
		"regular":   randomRegular(t, 400, 6, 8),
		"irregular": randomIrregular(t, 300, 0.02, 8),
		"K2":        complete(t, 2),
	} {
		dense, err := DenseEigenvalues(g, Adjacency)
		if err != nil {
			t.Fatal(err)
		}
		l2, lmin, err := ExpanderEigenvalues(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if math.Abs(l2-dense[g.N-2]) > ExpanderTol || math.Abs(lmin-dense[0]) > ExpanderTol {
			t.Fatalf("%s: λ₂ = %v, λₙ = %v; dense %v, %v", name, l2, lmin, dense[g.N-2], dense[0])
		}
	}
	// A disconnected 4-regular graph has λ₂ = 4 on the complement of the constant vector.
	two := randomRegular(t, 50, 4, 1)
	var src, dst []int32
	for u := range two.N {
		loops := 0
		for _, v := range two.Neighbors(u) {
			if int(v) == u {
				loops++ // a self loop is stored twice
			}
			if int(v) > u || int(v) == u && loops%2 == 0 {
				src, dst = append(src, int32(u), int32(u+50)), append(dst, v, v+50)
			}
		}
	}
	g, err := FromEdges(100, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if l2, _, err := ExpanderEigenvalues(g); err != nil || math.Abs(l2-4) > ExpanderTol {
		t.Fatalf("disconnected: λ₂ = %v, %v; want 4", l2, err)
	}
	if _, _, err := ExpanderEigenvalues(mustGraph(t, 1, [2]int32{0, 0})); err == nil {
		t.Error("one node: no error")
	}
	if _, _, err := ExpanderEigenvalues(nil); err == nil {
		t.Error("nil graph: no error")
	}
}

func TestExpanderEigenvaluesNearRamanujan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 20000-node graph")
	}
	// Friedman: random 6-regular graphs have max(|λ₂|, |λₙ|) ≤ 2√5 + o(1) w.h.p.
	g := randomRegular(t, 20000, 6, 2)
	l2, lmin, err := ExpanderEigenvalues(g)
	if err != nil {
		t.Fatal(err)
	}
	if !IsNearRamanujan(l2, lmin, 6, 0.05) || l2 < 4.3 || lmin > -4.3 {
		t.Fatalf("λ₂ = %v, λₙ = %v, Ramanujan bound %v", l2, lmin, RamanujanBound(6))
	}
}

func TestOperatorChunksAgree(t *testing.T) {
	g := randomIrregular(t, 3000, 0.004, 3)
	for _, kind := range []MatrixKind{Adjacency, Laplacian, NormalizedLaplacian} {
		op, err := newOperator(g, kind)
		if err != nil {
			t.Fatal(err)
		}
		a, err := DenseMatrix(g, kind)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, g.N)
		for i := range x {
			x[i] = math.Sin(float64(i))
		}
		want := make([]float64, g.N)
		for u := range g.N {
			for v := range g.N {
				want[u] += a.At(u, v) * x[v]
			}
		}
		for _, bounds := range [][]int{{0, g.N}, {0, 1, 1000, 2999, g.N}} {
			op.bounds = bounds
			y := make([]float64, g.N)
			xy := op.apply(x, y)
			assertClose(t, kind.String()+" M x", y, want, 1e-12)
			if math.Abs(xy-dot(x, want)) > 1e-9 {
				t.Fatalf("%s: x·Mx = %v, want %v", kind, xy, dot(x, want))
			}
		}
	}
}

// KBottom asks for fewer values at the bottom than at the top: the values returned
// agree with the dense spectrum, and only the requested ones need to converge.
func TestLanczosKBottom(t *testing.T) {
	g := randomIrregular(t, 300, 0.05, 11)
	dense, err := DenseEigenvalues(g, Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	ext, err := Lanczos(g, Adjacency, LanczosOptions{K: 2, KBottom: 1, Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if len(ext.Top) != 2 || len(ext.Bottom) != 1 || !ext.Converged {
		t.Fatalf("K=2, KBottom=1: top %v, bottom %v, converged %v", ext.Top, ext.Bottom, ext.Converged)
	}
	n := len(dense)
	for i, want := range []float64{dense[n-1], dense[n-2]} {
		if math.Abs(ext.Top[i]-want) > 1e-8 {
			t.Errorf("top %d: %v, dense %v", i, ext.Top[i], want)
		}
	}
	if math.Abs(ext.Bottom[0]-dense[0]) > 1e-8 {
		t.Errorf("bottom: %v, dense %v", ext.Bottom[0], dense[0])
	}
	if _, err := Lanczos(g, Adjacency, LanczosOptions{KBottom: -1}); err == nil {
		t.Error("negative KBottom accepted")
	}
}
