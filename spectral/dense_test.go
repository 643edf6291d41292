package spectral

import (
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func complete(tb testing.TB, n int) *Graph {
	var e [][2]int32
	for u := range n {
		for v := u + 1; v < n; v++ {
			e = append(e, [2]int32{int32(u), int32(v)})
		}
	}
	return mustGraph(tb, n, e...)
}

func cycle(tb testing.TB, n int) *Graph {
	var e [][2]int32
	for u := range n {
		e = append(e, [2]int32{int32(u), int32((u + 1) % n)})
	}
	return mustGraph(tb, n, e...)
}

func path(tb testing.TB, n int) *Graph {
	var e [][2]int32
	for u := 1; u < n; u++ {
		e = append(e, [2]int32{int32(u - 1), int32(u)})
	}
	return mustGraph(tb, n, e...)
}

func hypercube(tb testing.TB, k int) *Graph {
	var e [][2]int32
	for u := range 1 << k {
		for b := range k {
			if v := u ^ 1<<b; u < v {
				e = append(e, [2]int32{int32(u), int32(v)})
			}
		}
	}
	return mustGraph(tb, 1<<k, e...)
}

func assertSpectrum(t *testing.T, name string, got, want []float64) {
	t.Helper()
	sort.Float64s(want)
	if len(got) != len(want) {
		t.Fatalf("%s: %d eigenvalues, want %d", name, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("%s: eigenvalue %d = %v, want %v (all: %v)", name, i, got[i], want[i], got)
		}
	}
}

func TestDenseEigenvaluesKnownSpectra(t *testing.T) {
	binom := func(n, k int) int {
		r := 1
		for i := range k {
			r = r * (n - i) / (i + 1)
		}
		return r
	}
	cases := []struct {
		name string
		g    *Graph
		kind MatrixKind
		want func(n int) []float64
	}{
		{"K7 adjacency", complete(t, 7), Adjacency, func(n int) []float64 {
			w := []float64{float64(n - 1)}
			for range n - 1 {
				w = append(w, -1)
			}
			return w
		}},
		{"K7 laplacian", complete(t, 7), Laplacian, func(n int) []float64 {
			w := []float64{0}
			for range n - 1 {
				w = append(w, float64(n))
			}
			return w
		}},
		{"K7 normalized", complete(t, 7), NormalizedLaplacian, func(n int) []float64 {
			w := []float64{0}
			for range n - 1 {
				w = append(w, float64(n)/float64(n-1))
			}
			return w
		}},
		{"C9 adjacency", cycle(t, 9), Adjacency, func(n int) []float64 {
			var w []float64
			for k := range n {
				w = append(w, 2*math.Cos(2*math.Pi*float64(k)/float64(n)))
			}
			return w
		}},
		{"P8 laplacian", path(t, 8), Laplacian, func(n int) []float64 {
			var w []float64
			for k := range n {
				w = append(w, 2-2*math.Cos(math.Pi*float64(k)/float64(n)))
			}
			return w
		}},
		{"Q4 adjacency", hypercube(t, 4), Adjacency, func(int) []float64 {
			var w []float64
			for i := 0; i <= 4; i++ {
				for range binom(4, i) {
					w = append(w, float64(4-2*i))
				}
			}
			return w
		}},
		// K2 plus an isolated node: the isolated node contributes 1.
		{"K2+isolated normalized", mustGraph(t, 3, [2]int32{0, 1}), NormalizedLaplacian,
			func(int) []float64 { return []float64{0, 1, 2} }},
		// One node with a self loop: A = [2], D = [2].
		{"loop adjacency", mustGraph(t, 1, [2]int32{0, 0}), Adjacency, func(int) []float64 { return []float64{2} }},
		{"loop laplacian", mustGraph(t, 1, [2]int32{0, 0}), Laplacian, func(int) []float64 { return []float64{0} }},
		{"loop normalized", mustGraph(t, 1, [2]int32{0, 0}), NormalizedLaplacian, func(int) []float64 { return []float64{0} }},
		// Double edge: A = [[0,2],[2,0]].
		{"multi-edge adjacency", mustGraph(t, 2, [2]int32{0, 1}, [2]int32{1, 0}), Adjacency,
			func(int) []float64 { return []float64{-2, 2} }},
	}
	for _, c := range cases {
		got, err := DenseEigenvalues(c.g, c.kind)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		assertSpectrum(t, c.name, got, c.want(c.g.N))
	}
}

func TestDenseEigenVectors(t *testing.T) {
	g := randomIrregular(t, 60, 0.1, 5)
	for _, kind := range []MatrixKind{Adjacency, Laplacian, NormalizedLaplacian} {
		vals, vecs, err := DenseEigen(g, kind)
		if err != nil {
			t.Fatal(err)
		}
		a, err := DenseMatrix(g, kind)
		if err != nil {
			t.Fatal(err)
		}
		var av, vtv mat.Dense
		av.Mul(a, vecs)
		vtv.Mul(vecs.T(), vecs)
		for j := range g.N {
			if j > 0 && vals[j] < vals[j-1] {
				t.Fatalf("%s: eigenvalues not ascending at %d", kind, j)
			}
			big := 0.0
			for i := range g.N {
				if d := av.At(i, j) - vals[j]*vecs.At(i, j); math.Abs(d) > 1e-9 {
					t.Fatalf("%s: (Av - λv)[%d] = %v for eigenpair %d", kind, i, d, j)
				}
				if math.Abs(vecs.At(i, j)) > math.Abs(big) {
					big = vecs.At(i, j)
				}
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(vtv.At(i, j)-want) > 1e-9 {
					t.Fatalf("%s: VᵀV[%d][%d] = %v", kind, i, j, vtv.At(i, j))
				}
			}
			if big <= 0 {
				t.Fatalf("%s: eigenvector %d has negative largest entry %v", kind, j, big)
			}
		}
	}
}

func TestDenseErrors(t *testing.T) {
	bad := []struct {
		name string
		g    *Graph
		kind MatrixKind
	}{
		{"nil", nil, Adjacency},
		{"empty", &Graph{Offsets: []int64{0}}, Adjacency},
		{"too large", &Graph{N: MaxDenseNodes + 1, Offsets: make([]int64, MaxDenseNodes+2)}, Laplacian},
		{"bad kind", path(t, 3), MatrixKind(9)},
		{"malformed offsets", &Graph{N: 2, Offsets: []int64{0, 1}, Adj: []int32{1}}, Adjacency},
		{"neighbour out of range", &Graph{N: 2, Offsets: []int64{0, 1, 2}, Adj: []int32{1, 5}}, Adjacency},
		{"decreasing offsets", &Graph{N: 2, Offsets: []int64{0, 2, 1}, Adj: []int32{1}}, Adjacency},
	}
	for _, c := range bad {
		if _, err := DenseEigenvalues(c.g, c.kind); err == nil {
			t.Errorf("%s: DenseEigenvalues succeeded", c.name)
		}
		if _, _, err := DenseEigen(c.g, c.kind); err == nil {
			t.Errorf("%s: DenseEigen succeeded", c.name)
		}
	}
}

func TestMatrixKindString(t *testing.T) {
	for k, want := range map[MatrixKind]string{Adjacency: "adjacency", Laplacian: "laplacian",
		NormalizedLaplacian: "normalized-laplacian", 7: "MatrixKind(7)"} {
		if k.String() != want {
			t.Errorf("%d: %q, want %q", int(k), k.String(), want)
		}
	}
}

func BenchmarkDenseEigenvalues1000(b *testing.B) {
	g := randomRegular(b, 1000, 6, 1)
	for b.Loop() {
		if _, err := DenseEigenvalues(g, Adjacency); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDenseEigen1000(b *testing.B) {
	g := randomRegular(b, 1000, 6, 1)
	for b.Loop() {
		if _, _, err := DenseEigen(g, NormalizedLaplacian); err != nil {
			b.Fatal(err)
		}
	}
}
