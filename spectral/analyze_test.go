package spectral

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

func TestAnalyzeCompleteGraph(t *testing.T) {
	s, err := Analyze(complete(t, 8), AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// K8: A has eigenvalues 7 and -1 (7 times), so λ₂ = λₙ = -1 and ε = 1/7.
	want := Summary{N: 8, Edges: 28, DegreeMin: 7, DegreeMax: 7, Components: 1, Lambda1: 7, Lambda2: -1, LambdaMin: -1,
		Epsilon: 1.0 / 7, MixingBound: MixingBound(8, 1.0/7, DefaultMixingDelta), Diameter: 1, DiameterExact: true}
	// From a point mass on K8 the distance to uniform is 2(7/8)·(1/7)^t: 0.0357 at t = 2,
	// 0.0051 at t = 3.
	want.MixingMeasured = 3
	if math.Abs(s.Lambda1-7) > 1e-9 || math.Abs(s.Lambda2+1) > 1e-9 || math.Abs(s.LambdaMin+1) > 1e-9 || math.Abs(s.Epsilon-1.0/7) > 1e-9 {
		t.Fatalf("spectrum: %+v", s)
	}
	s.Lambda1, s.Lambda2, s.LambdaMin, s.Epsilon, s.MixingBound = want.Lambda1, want.Lambda2, want.LambdaMin, want.Epsilon, want.MixingBound
	if *s != want {
		t.Fatalf("got %+v\nwant %+v", *s, want)
	}
}

func TestSummaryJSONNames(t *testing.T) {
	b, err := json.Marshal(Summary{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"components", "degree_max", "degree_min", "diameter", "diameter_exact", "edges", "epsilon",
		"lambda1", "lambda2", "lambda_min", "mixing_bound", "mixing_measured", "n"}
	if !slices.Equal(keys, want) {
		t.Fatalf("JSON keys %v, want %v", keys, want)
	}
}

func TestAnalyzeRegularMatchesDense(t *testing.T) {
	g := randomRegular(t, 400, 6, 3)
	s, err := Analyze(g, AnalyzeOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	vals, err := DenseEigenvalues(g, Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	dia, err := Diameter(g, DiameterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eps := Epsilon(vals[g.N-2], vals[0], 6)
	if s.Lambda2 != vals[g.N-2] || s.LambdaMin != vals[0] || s.Epsilon != eps || s.Diameter != dia.Diameter || !s.DiameterExact {
		t.Fatalf("%+v", s)
	}
	if s.MixingMeasured < 1 || float64(s.MixingMeasured) > s.MixingBound {
		t.Fatalf("measured %d steps, bound %v", s.MixingMeasured, s.MixingBound)
	}
	if _, err := json.Marshal(s); err != nil {
		t.Fatal(err)
	}
}

func TestAnalyzeIrregularEpsilon(t *testing.T) {
	g := randomIrregular(t, 150, 0.05, 2)
	s, err := Analyze(g, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// ε from the walk's spectrum: ν = 1 − μ over the normalized Laplacian's μ₂..μₙ.
	mu, err := DenseEigenvalues(g, NormalizedLaplacian)
	if err != nil {
		t.Fatal(err)
	}
	want := max(math.Abs(1-mu[1]), math.Abs(1-mu[g.N-1]))
	if math.Abs(s.Epsilon-want) > 1e-12 || s.DegreeMin == s.DegreeMax {
		t.Fatalf("ε = %v, want %v", s.Epsilon, want)
	}
}

func TestAnalyzeLargeGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("Lanczos and sampled diameter on 5000 nodes")
	}
	g := randomRegular(t, 5000, 6, 4)
	s, err := Analyze(g, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ext, err := Lanczos(g, Adjacency, LanczosOptions{Tol: 1e-6, DeflateTrivial: true, MaxIter: 2000})
	if err != nil || !ext.Converged {
		t.Fatal(ext, err)
	}
	if math.Abs(s.Lambda2-ext.Top[0]) > ExpanderTol || math.Abs(s.LambdaMin-ext.Bottom[0]) > ExpanderTol {
		t.Fatalf("λ₂ = %v, λₙ = %v; tight Lanczos %v, %v", s.Lambda2, s.LambdaMin, ext.Top[0], ext.Bottom[0])
	}
	// Diameter lower bound from sampling: at least log_5(n/6) hops are needed to reach
	// all nodes of a 6-regular graph.
	if s.DiameterExact || s.Diameter < 5 || s.MixingMeasured < 1 || float64(s.MixingMeasured) > s.MixingBound {
		t.Fatalf("%+v", s)
	}

	// Non-regular: ε from the normalized Laplacian by Lanczos.
	g = randomIrregular(t, 2000, 0.003, 5)
	s, err = Analyze(g, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ext, err = Lanczos(g, NormalizedLaplacian, LanczosOptions{Tol: 1e-8, DeflateTrivial: true, MaxIter: 2000})
	if err != nil || !ext.Converged {
		t.Fatal(ext, err)
	}
	if want := max(math.Abs(1-ext.Bottom[0]), math.Abs(1-ext.Top[0])); math.Abs(s.Epsilon-want) > ExpanderTol {
		t.Fatalf("ε = %v, want %v", s.Epsilon, want)
	}
}

func TestAnalyzeDegenerate(t *testing.T) {
	// Star K_{1,4}: bipartite, so the walk's spectrum holds -1 and ε = 1.
	star := mustGraph(t, 5, [2]int32{0, 1}, [2]int32{0, 2}, [2]int32{0, 3}, [2]int32{0, 4})
	s, err := Analyze(star, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Epsilon-1) > 1e-12 || s.MixingBound != -1 || s.MixingMeasured != -1 || s.Diameter != 2 {
		t.Fatalf("star: %+v", s)
	}
	if math.Abs(s.LambdaMin+2) > 1e-12 || math.Abs(s.Lambda2) > 1e-12 {
		t.Fatalf("star spectrum ±2, 0: %+v", s)
	}
	lazy, err := Analyze(star, AnalyzeOptions{Lazy: true})
	if err != nil || lazy.MixingMeasured < 1 {
		t.Fatalf("lazy star: %+v, %v", lazy, err)
	}
	// Two disjoint triangles: λ₂ = 2 = d, ε = 1, infinite diameter.
	two := mustGraph(t, 6, [2]int32{0, 1}, [2]int32{1, 2}, [2]int32{2, 0}, [2]int32{3, 4}, [2]int32{4, 5}, [2]int32{5, 3})
	s, err = Analyze(two, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Lambda2-2) > 1e-12 || s.Epsilon < 1-1e-12 || s.Diameter != -1 || !s.DiameterExact || s.MixingMeasured != -1 || s.MixingBound != -1 {
		t.Fatalf("disconnected: %+v", s)
	}
	// An isolated node beside an edge: ε = 1 by definition.
	s, err = Analyze(mustGraph(t, 3, [2]int32{0, 1}), AnalyzeOptions{})
	if err != nil || s.Epsilon != 1 || s.DegreeMin != 0 {
		t.Fatalf("isolated: %+v, %v", s, err)
	}
	// Edgeless graph and single node.
	s, err = Analyze(&Graph{N: 3, Offsets: make([]int64, 4)}, AnalyzeOptions{})
	if err != nil || s.Epsilon != 1 || s.Diameter != -1 {
		t.Fatalf("edgeless: %+v, %v", s, err)
	}
	s, err = Analyze(mustGraph(t, 1), AnalyzeOptions{})
	if err != nil || s.N != 1 || s.Diameter != 0 || !s.DiameterExact || s.MixingMeasured != 0 {
		t.Fatalf("one node: %+v, %v", s, err)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	if _, err := Analyze(nil, AnalyzeOptions{}); err == nil {
		t.Error("nil graph: no error")
	}
	if _, err := Analyze(&Graph{Offsets: []int64{0}}, AnalyzeOptions{}); err == nil {
		t.Error("empty graph: no error")
	}
	if _, err := Analyze(&Graph{N: 1, Offsets: []int64{0, 1}, Adj: []int32{4}}, AnalyzeOptions{}); err == nil {
		t.Error("malformed graph: no error")
	}
	if _, err := Analyze(cycle(t, 5), AnalyzeOptions{Delta: -0.1}); err == nil {
		t.Error("negative δ: no error")
	}
}

// Two identical non-regular components of 300 nodes each (so Lanczos, not the dense
// solver): the summary says 2 components, λ₂ = λ₁ as the dense spectrum has it, ε = 1
// and no diameter. A connected graph of that size reports 1 component and λ₁ > λ₂.
func TestAnalyzeDisconnectedRepeatedTop(t *testing.T) {
	c := randomIrregular(t, 300, 0.02, 7)
	g := disjointUnion(t, c, c)
	if g.N <= AutoDenseNodes {
		t.Fatalf("%d nodes would take the dense path", g.N)
	}
	dense, err := DenseEigenvalues(g, Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Analyze(g, AnalyzeOptions{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	n := g.N
	if s.Components != 2 || s.Epsilon != 1 || s.Diameter != -1 || s.MixingMeasured != -1 {
		t.Fatalf("disconnected: %+v", s)
	}
	if math.Abs(s.Lambda1-dense[n-1]) > ExpanderTol || math.Abs(s.Lambda2-dense[n-2]) > ExpanderTol ||
		math.Abs(s.LambdaMin-dense[0]) > ExpanderTol || math.Abs(s.Lambda2-s.Lambda1) > ExpanderTol {
		t.Fatalf("λ₁, λ₂, λₙ = %v, %v, %v; dense %v, %v, %v", s.Lambda1, s.Lambda2, s.LambdaMin, dense[n-1], dense[n-2], dense[0])
	}
	one := randomIrregular(t, 600, 0.01, 8)
	dense, err = DenseEigenvalues(one, Adjacency)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = Analyze(one, AnalyzeOptions{Seed: 2}); err != nil {
		t.Fatal(err)
	}
	if s.Components != 1 || math.Abs(s.Lambda1-dense[n-1]) > ExpanderTol || math.Abs(s.Lambda2-dense[n-2]) > ExpanderTol {
		t.Fatalf("connected: %+v; dense λ₁ %v, λ₂ %v", s, dense[n-1], dense[n-2])
	}
}
