package expander

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gexph/gexph/spectral"
)

// fullSpectrum returns all eigenvalues (ascending) of the adjacency matrix of the
// undirected multigraph with edges {src[i], dst[i]}.
func fullSpectrum(t *testing.T, n int, src, dst []int32) []float64 {
	t.Helper()
	a := mat.NewSymDense(n, nil)
	for i := range src {
		u, v := int(src[i]), int(dst[i])
		if u == v {
			a.SetSym(u, u, a.At(u, u)+2)
		} else {
			a.SetSym(u, v, a.At(u, v)+1)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		t.Fatal("reference eigendecomposition failed")
	}
	return es.Values(nil)
}

func TestCertificateMatchesFullSpectrum(t *testing.T) {
	// Hamiltonian graphs are exactly d-regular (no loops), so λ₂ and λₙ are the second
	// largest and the smallest eigenvalue of A.
	const tol = spectral.ExpanderTol
	for seed := range uint64(3) {
		o := DefaultOptions(60, 6, seed)
		o.Algo = Hamiltonian
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		vals := fullSpectrum(t, e.N, e.Src, e.Dst)
		c := e.Certificate
		if math.Abs(vals[len(vals)-1]-6) > tol {
			t.Fatalf("seed %d: top eigenvalue %v, want 6", seed, vals[len(vals)-1])
		}
		if math.Abs(c.Lambda2-vals[len(vals)-2]) > tol || math.Abs(c.LambdaMin-vals[0]) > tol {
			t.Fatalf("seed %d: certificate λ₂=%v λₙ=%v, reference %v %v", seed, c.Lambda2, c.LambdaMin, vals[len(vals)-2], vals[0])
		}
		if want := max(math.Abs(vals[len(vals)-2]), math.Abs(vals[0])) / 6; math.Abs(c.Epsilon-want) > tol {
			t.Fatalf("seed %d: ε = %v, want %v", seed, c.Epsilon, want)
		}
		if !c.Certified || !c.Converged || c.Accepted != (c.SpectralRadius() <= c.Bound+c.Tol) || math.Abs(c.Bound-2*math.Sqrt(5)) > 1e-12 {
			t.Fatalf("seed %d: inconsistent certificate %+v", seed, c)
		}
	}
}

func TestCertificateWhenIrregular(t *testing.T) {
	// After self-loop removal the graph is not regular and the certificate holds λ₂ and
	// λₙ of its adjacency matrix.
	checked := 0
	for seed := range uint64(20) {
		o := DefaultOptions(50, 6, seed)
		o.MaxAttempts = 1
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		if e.Certificate.SelfLoopsRemoved == 0 {
			continue
		}
		checked++
		v := fullSpectrum(t, e.N, e.Src, e.Dst)
		c := e.Certificate
		n := len(v)
		if math.Abs(c.Lambda2-v[n-2]) > spectral.ExpanderTol || math.Abs(c.LambdaMin-v[0]) > spectral.ExpanderTol {
			t.Fatalf("seed %d: λ₂=%v λₙ=%v, reference %v %v", seed, c.Lambda2, c.LambdaMin, v[n-2], v[0])
		}
	}
	if checked == 0 {
		t.Fatal("no draw had self loops")
	}
}

func TestRejectionKeepsBestAndReproduces(t *testing.T) {
	// Tol = 0 on a small graph rejects many draws; the kept one must be the best of the
	// attempts, each of which can be redrawn alone from its attempt seed.
	outcomes := map[bool]bool{}
	for _, attempts := range []int{3, 6} {
		o := DefaultOptions(40, 4, 11)
		o.Tol, o.MaxAttempts = 0, attempts
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		c := e.Certificate
		best := math.Inf(1)
		found := false
		for a := range c.Attempts {
			one := o
			one.Seed, one.MaxAttempts = attemptSeed(o.Seed, a), 1
			ea, err := Generate(one)
			if err != nil {
				t.Fatal(err)
			}
			best = min(best, ea.Certificate.SpectralRadius())
			if ea.Certificate.AttemptSeed == c.AttemptSeed {
				found = true
				if !slices.Equal(ea.Src, e.Src) || !slices.Equal(ea.Dst, e.Dst) || ea.Certificate.Lambda2 != c.Lambda2 {
					t.Fatal("redrawing from AttemptSeed gave a different graph")
				}
			}
		}
		if !found || c.SpectralRadius() != best {
			t.Fatalf("kept radius %v (attempt seed found: %v), best attempt %v", c.SpectralRadius(), found, best)
		}
		if c.Accepted != (best <= c.Bound) || (!c.Accepted && c.Attempts != o.MaxAttempts) {
			t.Fatalf("accepted %v after %d attempts with radius %v, bound %v", c.Accepted, c.Attempts, best, c.Bound)
		}
		outcomes[c.Accepted] = true
	}
	if !outcomes[true] || !outcomes[false] {
		t.Fatalf("outcomes %v: both acceptance and rejection of all attempts must be exercised", outcomes)
	}
}

func TestNearRamanujanRate(t *testing.T) {
	// Friedman: random 6-regular graphs are near-Ramanujan with high probability. At
	// least 95% of 40 standard draws on 2,000 nodes must pass with Tol = 0.1.
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	passed := 0
	for seed := range uint64(seeds) {
		o := DefaultOptions(2000, 6, 1000+seed)
		o.MaxAttempts = 1
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		if e.Certificate.Accepted {
			passed++
		}
	}
	t.Logf("%d of %d draws near-Ramanujan", passed, seeds)
	if float64(passed) < 0.95*float64(seeds) {
		t.Fatalf("%d of %d draws near-Ramanujan, want ≥ 95%%", passed, seeds)
	}
}

func TestCompleteCertificateMatchesSpectrum(t *testing.T) {
	for n := 2; n <= 5; n++ {
		o := DefaultOptions(n, 4, 0)
		o.AllowCompleteFallback = true
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		v := fullSpectrum(t, n, e.Src, e.Dst)
		if math.Abs(e.Certificate.Lambda1-v[n-1]) > 1e-9 || math.Abs(e.Certificate.Lambda2-v[n-2]) > 1e-9 ||
			math.Abs(e.Certificate.LambdaMin-v[0]) > 1e-9 || !e.Certificate.Connected() || e.Certificate.DegreeMin != n-1 {
			t.Fatalf("K_%d: certificate %v %v, spectrum %v", n, e.Certificate.Lambda2, e.Certificate.LambdaMin, v)
		}
	}
}

func TestCertificateJSON(t *testing.T) {
	o := DefaultOptions(30, 4, 5)
	o.Algo = Simple
	e, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(e.Certificate)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"n", "d", "algo", "seed", "lambda1", "lambda2", "lambda_min", "components", "degree_min",
		"degree_max", "bound", "epsilon", "attempts",
		"self_loops_removed", "parallel_edges", "accepted", "complete_fallback"} {
		if _, ok := m[k]; !ok {
			t.Errorf("certificate JSON lacks %q: %s", k, b)
		}
	}
	if m["algo"] != "simple" {
		t.Errorf("algo = %v, want \"simple\"", m["algo"])
	}
	var back Certificate
	if err := json.Unmarshal(b, &back); err != nil || back != e.Certificate {
		t.Fatalf("round trip gave %+v, %v", back, err)
	}
}

// checkCertificateDescribesGraph asserts that c describes e's graph as returned: its
// component count (by BFS), its degree range and its λ₁, λ₂, λₙ (dense, with
// multiplicity), and that an accepted graph is connected.
func checkCertificateDescribesGraph(t *testing.T, name string, e *Expander) {
	t.Helper()
	c, g := &e.Certificate, e.Graph()
	lo, hi := g.DegreeRange()
	if comps := spectral.Components(g); c.Components != comps || c.DegreeMin != lo || c.DegreeMax != hi {
		t.Fatalf("%s: certificate says %d components, degrees %d..%d; the graph has %d, %d..%d",
			name, c.Components, c.DegreeMin, c.DegreeMax, comps, lo, hi)
	}
	v := fullSpectrum(t, e.N, e.Src, e.Dst)
	n := len(v)
	tol := spectral.ExpanderTol
	if math.Abs(c.Lambda1-v[n-1]) > tol || math.Abs(c.Lambda2-v[n-2]) > tol || math.Abs(c.LambdaMin-v[0]) > tol {
		t.Fatalf("%s: certificate λ₁, λ₂, λₙ = %v, %v, %v; the graph's %v, %v, %v",
			name, c.Lambda1, c.Lambda2, c.LambdaMin, v[n-1], v[n-2], v[0])
	}
	if c.Accepted && (!c.Connected() || c.SpectralRadius() > c.Bound+c.Tol) {
		t.Fatalf("%s: accepted a graph with %d components and radius %v: %+v", name, c.Components, c.SpectralRadius(), *c)
	}
}

// Self-loop-heavy small draws (n = 3..7, d = 2 and 4, where whole nodes lose every stub
// to self loops and d = 2 draws split into cycles) are never accepted while
// disconnected, and every certificate describes the returned graph.
func TestCertificateNeverAcceptsDisconnectedDraw(t *testing.T) {
	isolated, disconnected := 0, 0
	for _, algo := range []Algorithm{Standard, Simple} {
		for _, nd := range [][2]int{{3, 2}, {4, 2}, {6, 2}, {5, 4}, {7, 4}} {
			for seed := range uint64(40) {
				o := DefaultOptions(nd[0], nd[1], seed)
				o.Algo, o.MaxAttempts = algo, 1
				e, err := Generate(o)
				if err != nil {
					t.Fatal(err)
				}
				checkCertificateDescribesGraph(t, fmt.Sprintf("%v n=%d d=%d seed %d", algo, nd[0], nd[1], seed), e)
				if !e.Certificate.Connected() {
					disconnected++
				}
				if e.Certificate.DegreeMin == 0 {
					isolated++
				}
			}
		}
	}
	if isolated == 0 || disconnected == isolated {
		t.Fatalf("%d draws with an isolated node, %d disconnected: both cases must be exercised", isolated, disconnected)
	}
}

// A draw that leaves a node isolated is retried: the first seed whose single draw has an
// isolated node gives, with retries, a connected, accepted graph from a later attempt,
// and the certificate describes that graph.
func TestIsolatedNodeDrawIsRetried(t *testing.T) {
	for seed := range uint64(200) {
		o := DefaultOptions(5, 4, seed)
		o.MaxAttempts = 1
		first, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		if first.Certificate.DegreeMin > 0 {
			continue
		}
		if first.Certificate.Accepted || first.Certificate.Connected() {
			t.Fatalf("seed %d: single draw with an isolated node: %+v", seed, first.Certificate)
		}
		o.MaxAttempts = DefaultMaxAttempts
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		c := e.Certificate
		if !c.Accepted || c.Attempts < 2 || c.AttemptSeed == seed || c.DegreeMin == 0 {
			t.Fatalf("seed %d: retried draw %+v", seed, c)
		}
		checkCertificateDescribesGraph(t, fmt.Sprintf("seed %d retried", seed), e)
		return
	}
	t.Fatal("no seed in 200 gave an isolated node on 5 nodes of degree 4")
}

// Every draw of a larger standard expander whose self loops were removed (so it is
// not regular) has a certificate that describes the returned graph.
func TestCertificateDescribesIrregularGraph(t *testing.T) {
	checked := 0
	for seed := range uint64(12) {
		o := DefaultOptions(120, 4, seed)
		o.MaxAttempts = 1
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		if e.Certificate.SelfLoopsRemoved > 0 {
			checked++
		}
		checkCertificateDescribesGraph(t, fmt.Sprintf("seed %d", seed), e)
	}
	if checked == 0 {
		t.Fatal("no draw had self loops")
	}
}
