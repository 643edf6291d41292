package spectral

import (
	"math"
	"strings"
	"testing"
)

// disjointUnion returns the disjoint union of the graphs, node blocks in order.
func disjointUnion(tb testing.TB, gs ...*Graph) *Graph {
	tb.Helper()
	var src, dst []int32
	off := int32(0)
	for _, g := range gs {
		for u := range g.N {
			loops := 0
			for _, v := range g.Neighbors(u) {
				if int(v) == u {
					loops++ // a self loop is stored twice: keep every second entry
				}
				if int(v) > u || int(v) == u && loops%2 == 0 {
					src, dst = append(src, off+int32(u)), append(dst, off+v)
				}
			}
		}
		off += int32(g.N)
	}
	g, err := FromEdges(int(off), src, dst)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func star(tb testing.TB, leaves int) *Graph {
	var e [][2]int32
	for v := 1; v <= leaves; v++ {
		e = append(e, [2]int32{0, int32(v)})
	}
	return mustGraph(tb, leaves+1, e...)
}

func completeBipartite(tb testing.TB, a, b int) *Graph {
	var e [][2]int32
	for u := range a {
		for v := range b {
			e = append(e, [2]int32{int32(u), int32(a + v)})
		}
	}
	return mustGraph(tb, a+b, e...)
}

// petersen is the Petersen graph: spectrum 3, 1 (×5), −2 (×4).
func petersen(tb testing.TB) *Graph {
	var e [][2]int32
	for i := range int32(5) {
		e = append(e, [2]int32{i, (i + 1) % 5}, [2]int32{i, i + 5}, [2]int32{i + 5, (i+2)%5 + 5})
	}
	return mustGraph(tb, 10, e...)
}

// spectrumFamilies are graphs with repeated eigenvalues, most of them at the top.
func spectrumFamilies(tb testing.TB) map[string]*Graph {
	irr := randomIrregular(tb, 150, 0.03, 5)
	two := disjointUnion(tb, irr, irr)
	// The same two copies joined by one edge: λ₁ and λ₂ are close but distinct.
	var src, dst []int32
	for u := range two.N {
		for _, v := range two.Neighbors(u) {
			if int(v) > u {
				src, dst = append(src, int32(u)), append(dst, v)
			}
		}
	}
	src, dst = append(src, 0), append(dst, 150)
	bridged, err := FromEdges(300, src, dst)
	if err != nil {
		tb.Fatal(err)
	}
	return map[string]*Graph{
		"2 stars K1,5":                 disjointUnion(tb, star(tb, 5), star(tb, 5)),
		"2 paths P7":                   disjointUnion(tb, path(tb, 7), path(tb, 7)),
		"2 random irregular 150":       two,
		"2 random irregular, 1 bridge": bridged,
		"star and path":                disjointUnion(tb, star(tb, 5), path(tb, 6)),
		"K8":                           complete(tb, 8),
		"K3,5":                         completeBipartite(tb, 3, 5),
		"Q4":                           hypercube(tb, 4),
		"C9":                           cycle(tb, 9),
		"C10":                          cycle(tb, 10),
		"Petersen":                     petersen(tb),
		"2 random 4-regular 60":        disjointUnion(tb, randomRegular(tb, 60, 4, 1), randomRegular(tb, 60, 4, 2)),
		"K4 and K4 and C5":             disjointUnion(tb, complete(tb, 4), complete(tb, 4), cycle(tb, 5)),
		"6-regular 80 and isolated":    disjointUnion(tb, randomRegular(tb, 80, 6, 3), mustGraph(tb, 1)),
	}
}

// λ₁, λ₂ (with multiplicity) and λₙ agree with the dense eigenvalues of mat.EigenSym to
// 1e-7 on graphs with repeated eigenvalues, in both reorthogonalisation modes.
func TestAdjacencyEigenvaluesMatchDenseOnRepeatedSpectra(t *testing.T) {
	for name, g := range spectrumFamilies(t) {
		dense, err := DenseEigenvalues(g, Adjacency)
		if err != nil {
			t.Fatal(err)
		}
		n := g.N
		for _, budget := range []int64{0, -1} {
			s, err := AdjacencyEigenvalues(g, AdjacencyOptions{Tol: 1e-8, MaxIter: 3 * n, Seed: 4, MaxBasisBytes: budget})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !s.Converged {
				t.Errorf("%s (budget %d): not converged after %d products", name, budget, s.Iterations)
			}
			got := []float64{s.Lambda1, s.Lambda2, s.LambdaMin}
			want := []float64{dense[n-1], dense[n-2], dense[0]}
			for i, label := range []string{"λ₁", "λ₂", "λₙ"} {
				if math.Abs(got[i]-want[i]) > 1e-7 {
					t.Errorf("%s (budget %d): %s = %.10f, dense %.10f", name, budget, label, got[i], want[i])
				}
			}
			if c := Components(g); s.Components != c {
				t.Errorf("%s: %d components, BFS counts %d", name, s.Components, c)
			}
			if lo, hi := g.DegreeRange(); (lo == hi) != (s.TopResidual == 0) || s.TopResidual > 1e-8 {
				t.Errorf("%s: top eigenvector residual %g (degrees %d..%d)", name, s.TopResidual, lo, hi)
			}
		}
	}
}

// The closed forms: K_n has λ₂ = λₙ = −1, K_{a,b} has λ₂ = 0 and λₙ = −√(ab), the
// hypercube Q_k has λ₂ = k−2 (k times), C_n has λ₂ = 2cos(2π/n) (twice), the Petersen
// graph 3, 1 (×5), −2 (×4), two identical components repeat λ₁, and a disconnected
// d-regular graph has λ₂ = d.
func TestAdjacencyEigenvaluesKnownSpectra(t *testing.T) {
	fam := spectrumFamilies(t)
	cases := []struct {
		name         string
		l1, l2, lmin float64
		components   int
	}{
		{"K8", 7, -1, -1, 1},
		{"K3,5", math.Sqrt(15), 0, -math.Sqrt(15), 1},
		{"Q4", 4, 2, -4, 1},
		{"C9", 2, 2 * math.Cos(2*math.Pi/9), 2 * math.Cos(8*math.Pi/9), 1},
		{"C10", 2, 2 * math.Cos(2*math.Pi/10), -2, 1},
		{"Petersen", 3, 1, -2, 1},
		{"2 stars K1,5", math.Sqrt(5), math.Sqrt(5), -math.Sqrt(5), 2},
		{"2 paths P7", 2 * math.Cos(math.Pi/8), 2 * math.Cos(math.Pi/8), -2 * math.Cos(math.Pi/8), 2},
		{"K4 and K4 and C5", 3, 3, 2 * math.Cos(4*math.Pi/5), 3},
		{"star and path", math.Sqrt(5), 2 * math.Cos(math.Pi/7), -math.Sqrt(5), 2},
	}
	for _, c := range cases {
		s, err := AdjacencyEigenvalues(fam[c.name], AdjacencyOptions{Tol: 1e-10, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := []float64{s.Lambda1, s.Lambda2, s.LambdaMin}
		want := []float64{c.l1, c.l2, c.lmin}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Errorf("%s: (λ₁, λ₂, λₙ) = %v, want %v", c.name, got, want)
				break
			}
		}
		if s.Components != c.components || s.Connected() != (c.components == 1) {
			t.Errorf("%s: %d components, want %d", c.name, s.Components, c.components)
		}
	}
}

// ExpanderEigenvalues, which the certificates use, agrees with the dense λ₂ and λₙ to
// ExpanderTol on the same families: a repeated top eigenvalue is no longer lost.
func TestExpanderEigenvaluesRepeatedTop(t *testing.T) {
	for name, g := range spectrumFamilies(t) {
		dense, err := DenseEigenvalues(g, Adjacency)
		if err != nil {
			t.Fatal(err)
		}
		l2, lmin, err := ExpanderEigenvalues(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if math.Abs(l2-dense[g.N-2]) > ExpanderTol || math.Abs(lmin-dense[0]) > ExpanderTol {
			t.Errorf("%s: λ₂ = %v, λₙ = %v; dense %v, %v", name, l2, lmin, dense[g.N-2], dense[0])
		}
	}
}

// Same options, same numbers.
func TestAdjacencyEigenvaluesDeterministic(t *testing.T) {
	g := spectrumFamilies(t)["2 random irregular 150"]
	a, err := AdjacencyEigenvalues(g, AdjacencyOptions{Tol: 1e-6, Seed: 3, MaxBasisBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := AdjacencyEigenvalues(g, AdjacencyOptions{Tol: 1e-6, Seed: 3, MaxBasisBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	if *a != *b {
		t.Fatalf("same options, different results: %+v vs %+v", a, b)
	}
}

func TestAdjacencyEigenvaluesErrors(t *testing.T) {
	cases := []struct {
		name string
		g    *Graph
		opts AdjacencyOptions
		want string
	}{
		{"nil", nil, AdjacencyOptions{}, "nil graph"},
		{"one node", mustGraph(t, 1, [2]int32{0, 0}), AdjacencyOptions{}, "at least 2 nodes"},
		{"negative tolerance", path(t, 3), AdjacencyOptions{Tol: -1}, "tolerance -1"},
		{"negative MaxIter", path(t, 3), AdjacencyOptions{MaxIter: -2}, "MaxIter = -2"},
	}
	for _, c := range cases {
		_, err := AdjacencyEigenvalues(c.g, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// Ritz vectors satisfy ‖Mv − θv‖ ≤ 1e-8 and are orthogonal to the deflated vectors, in
// both modes (the local mode rebuilds them by a second pass).
func TestLanczosRitzVectorsAndDeflate(t *testing.T) {
	g := randomIrregular(t, 300, 0.03, 9)
	dense, vecs, err := DenseEigen(g, Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	n := g.N
	top := make([]float64, n)
	for i := range top {
		top[i] = vecs.At(i, n-1)
	}
	for _, budget := range []int64{0, -1} {
		ext, err := Lanczos(g, Adjacency, LanczosOptions{K: 2, Tol: 1e-10, MaxIter: 3 * n, Seed: 2,
			MaxBasisBytes: budget, Vectors: true, Deflate: [][]float64{top}})
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, "deflated top", ext.Top, []float64{dense[n-2], dense[n-3]}, 1e-9)
		for i, v := range append(ext.TopVectors, ext.BottomVectors...) {
			theta := append(ext.Top, ext.Bottom...)[i]
			mv := make([]float64, n)
			op, _ := newOperator(g, Adjacency)
			op.apply(v, mv)
			axpy(-theta, v, mv)
			if r := norm(mv); r > 1e-8 || math.Abs(norm(v)-1) > 1e-12 || math.Abs(dot(v, top)) > 1e-10 {
				t.Errorf("budget %d: Ritz vector %d: residual %g, norm %v, overlap with deflated %g",
					budget, i, r, norm(v), dot(v, top))
			}
		}
	}
	for _, c := range []struct {
		name string
		defl [][]float64
		want string
	}{
		{"wrong length", [][]float64{{1, 2}}, "deflation vector 0 has length 2"},
		{"dependent", [][]float64{top, top}, "deflation vector 1 is zero, not finite or dependent"},
		{"zero", [][]float64{make([]float64, n)}, "deflation vector 0 is zero"},
	} {
		_, err := Lanczos(g, Adjacency, LanczosOptions{Deflate: c.defl})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// A basis budget of 20 vectors is dropped mid-run; the Ritz vectors, rebuilt by a second
// pass that replays both phases, still satisfy ‖Mv − θv‖ ≤ 1e-8. A budget below 16
// vectors is not used at all, and the plain recurrence's vectors are accurate to 1e-6
// (copies of converged values cost some accuracy there, see LanczosOptions.Vectors).
func TestLanczosRitzVectorsAfterBasisDropped(t *testing.T) {
	g := randomIrregular(t, 400, 0.02, 10)
	n := g.N
	op, err := newOperator(g, Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		vectors    int64
		wantReorth func(iters int) bool
		resid      float64
	}{
		{20, func(iters int) bool { return iters > 20 }, 1e-8},
		{15, func(int) bool { return false }, 1e-6},
	} {
		ext, err := Lanczos(g, Adjacency, LanczosOptions{K: 1, Tol: 1e-9, MaxIter: 3 * n, Seed: 5,
			MaxBasisBytes: c.vectors * int64(n) * 8, Vectors: true})
		if err != nil {
			t.Fatal(err)
		}
		if !ext.Converged || (ext.ReorthIterations > 0) != c.wantReorth(ext.Iterations) || ext.ReorthIterations > int(c.vectors) {
			t.Fatalf("budget %d vectors: converged %v, %d of %d steps reorthogonalised",
				c.vectors, ext.Converged, ext.ReorthIterations, ext.Iterations)
		}
		for i, v := range append(ext.TopVectors, ext.BottomVectors...) {
			theta := append(ext.Top, ext.Bottom...)[i]
			mv := make([]float64, n)
			op.apply(v, mv)
			axpy(-theta, v, mv)
			if r := norm(mv); r > c.resid {
				t.Errorf("budget %d vectors: Ritz vector %d residual %g", c.vectors, i, r)
			}
		}
	}
}
