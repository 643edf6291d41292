package expander

import (
	"encoding/json"
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
		if math.Abs(e.Certificate.Lambda2-v[n-2]) > 1e-9 || math.Abs(e.Certificate.LambdaMin-v[0]) > 1e-9 {
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
	for _, k := range []string{"n", "d", "algo", "seed", "lambda2", "lambda_min", "bound", "epsilon", "attempts",
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
