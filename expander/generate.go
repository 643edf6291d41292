package expander

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/gexph/gexph/spectral"
)

// Algorithm selects the random process that draws an expander (paper, Appendix D).
type Algorithm int

const (
	// Standard takes d/2 independent uniform permutations π_j of the nodes and the
	// undirected edges {i, π_j(i)} for every node i and j < d/2. This is the process of
	// Friedman's theorem and of the paper's main experiments.
	Standard Algorithm = iota
	// Simple takes one uniform permutation π of the nd/2 slots t = 0..nd/2−1, where
	// slot t belongs to node s_t = ⌊t/(d/2)⌋, and the undirected edges {s_t, s_π(t)}.
	// Every node owns d/2 slots and is hit by d/2 slots, so its degree is d (a self loop
	// counting twice). The paper uses it for its ablations.
	Simple
	// Hamiltonian takes d/2 independent uniform Hamiltonian cycles: for each, a uniform
	// node order σ and the undirected edges {σ_k, σ_(k+1 mod n)}.
	Hamiltonian
)

// Algorithms lists the algorithms, in their order.
func Algorithms() []Algorithm { return []Algorithm{Standard, Simple, Hamiltonian} }

// String returns the algorithm's name as ParseAlgorithm reads it.
func (a Algorithm) String() string {
	switch a {
	case Standard:
		return "standard"
	case Simple:
		return "simple"
	case Hamiltonian:
		return "hamiltonian"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// ParseAlgorithm reads an algorithm's name ("standard", "simple" or "hamiltonian"; case
// and surrounding spaces ignored).
func ParseAlgorithm(s string) (Algorithm, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, a := range Algorithms() {
		if a.String() == name {
			return a, nil
		}
	}
	return 0, fmt.Errorf("expander: unknown algorithm %q (choices: %s)", s, algorithmNames())
}

// algorithmNames lists the algorithms' names for error messages.
func algorithmNames() string {
	var names []string
	for _, a := range Algorithms() {
		names = append(names, a.String())
	}
	return strings.Join(names, ", ")
}

// MarshalText writes the algorithm's name, so configs and certificates show it in JSON.
func (a Algorithm) MarshalText() ([]byte, error) {
	if !a.valid() {
		return nil, fmt.Errorf("expander: unknown algorithm %d (choices: %s)", int(a), algorithmNames())
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads a name written by MarshalText.
func (a *Algorithm) UnmarshalText(text []byte) error {
	v, err := ParseAlgorithm(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

func (a Algorithm) valid() bool { return a >= Standard && a <= Hamiltonian }

// Defaults of the near-Ramanujan test.
const (
	// DefaultTol is the slack allowed above the Ramanujan bound 2√(d−1).
	DefaultTol = 0.1
	// DefaultMaxAttempts is how many graphs are drawn at most before keeping the best.
	DefaultMaxAttempts = 10
)

// Options configures Generate. Start from DefaultOptions: the zero value of
// MaxAttempts is rejected, and Certify is meant to be on unless speed matters more.
type Options struct {
	// N is the number of nodes (≥ 1) and D the degree (even, ≥ 2, < N unless the
	// complete-graph fallback applies).
	N, D int
	// Algo is the random process.
	Algo Algorithm
	// Seed fixes every random choice: the same Options give the same graph on every run
	// and every machine, whatever GOMAXPROCS is.
	Seed uint64
	// Tol is the slack of the near-Ramanujan test: a draw is accepted when
	// max(|λ₂|, |λₙ|) ≤ 2√(D−1) + Tol. Must be finite and ≥ 0.
	Tol float64
	// MaxAttempts bounds the number of draws (≥ 1). Attempt 0 uses Seed, attempt a ≥ 1
	// uses DeriveSeed(Seed, 2⁶² + a). A draw passes when it is connected and near
	// Ramanujan. When none passes, the kept one is a connected draw if there was one,
	// with the smallest max(|λ₂|, |λₙ|) among those, and Certificate.Accepted is false.
	MaxAttempts int
	// Certify computes λ₁, λ₂, λₙ, the components and the degrees of the graph as
	// returned and applies the connectivity and near-Ramanujan tests. Without it one
	// graph is drawn, no eigenvalues are computed and Certificate.Certified is false.
	Certify bool
	// DedupParallel keeps one copy of each parallel edge. By default parallel edges are
	// kept (a multigraph, as the paper's process yields), which keeps the graph
	// d-regular apart from removed self loops.
	DedupParallel bool
	// AllowCompleteFallback returns the complete graph K_N when N ≤ D+1, where no
	// random graph can beat it (K_N is (N−1)-regular, all its other eigenvalues are −1).
	// Without it D ≥ N is an error.
	AllowCompleteFallback bool
}

// DefaultOptions returns the options for an n-node, degree-d standard expander with the
// given seed: certified, Tol = DefaultTol, MaxAttempts = DefaultMaxAttempts, parallel
// edges kept, no complete-graph fallback (so d ≥ n is an error).
func DefaultOptions(n, d int, seed uint64) Options {
	return Options{
		N: n, D: d, Algo: Standard, Seed: seed,
		Tol: DefaultTol, MaxAttempts: DefaultMaxAttempts, Certify: true,
	}
}

// validateDegree checks the parameters shared by Generate and the interaction builder.
func validateDegree(d int, algo Algorithm, tol float64, attempts int) error {
	if d < 2 {
		return fmt.Errorf("degree d=%d must be at least 2", d)
	}
	if d%2 != 0 {
		return fmt.Errorf("degree d=%d must be even", d)
	}
	if !algo.valid() {
		return fmt.Errorf("unknown algorithm %d (choices: standard, simple, hamiltonian)", int(algo))
	}
	if tol < 0 || math.IsNaN(tol) || math.IsInf(tol, 0) {
		return fmt.Errorf("tolerance Tol=%v must be finite and ≥ 0", tol)
	}
	if attempts < 1 {
		return fmt.Errorf("MaxAttempts=%d must be at least 1 (see DefaultOptions)", attempts)
	}
	return nil
}

// validateSize checks n against d and the int32 node and edge indices.
func validateSize(n, d int, fallback bool) error {
	if n < 1 {
		return fmt.Errorf("node count n=%d must be at least 1", n)
	}
	if n > math.MaxInt32 || d/2 > math.MaxInt32/n { // n·(d/2) > MaxInt32, without overflow
		return fmt.Errorf("n=%d, d=%d exceeds the int32 index range", n, d)
	}
	if d >= n && !fallback {
		return fmt.Errorf("degree d=%d must be below the node count n=%d (or allow the complete-graph fallback)", d, n)
	}
	return nil
}

func (o *Options) validate() error {
	if err := validateDegree(o.D, o.Algo, o.Tol, o.MaxAttempts); err != nil {
		return fmt.Errorf("expander: %w", err)
	}
	if err := validateSize(o.N, o.D, o.AllowCompleteFallback); err != nil {
		return fmt.Errorf("expander: %w", err)
	}
	return nil
}

// Expander is a generated expander graph on the nodes 0..N−1.
type Expander struct {
	// N is the number of nodes.
	N int
	// Src and Dst hold each undirected edge once, as {Src[i], Dst[i]}; parallel edges
	// appear once per copy. There are no self loops. For Standard and Hamiltonian the
	// edges of permutation (cycle) j come before those of j+1, in node (cycle) order.
	// They must not be modified: Graph is built from them.
	Src, Dst []int32
	// Cycles holds, for Hamiltonian, the d/2 node orders σ_j (each a permutation of
	// 0..N−1); cycle j is σ_j[0] → σ_j[1] → … → σ_j[N−1] → σ_j[0]. Nil otherwise and for
	// the complete-graph fallback.
	Cycles [][]int32
	// Certificate records how the graph was made and its spectrum.
	Certificate Certificate

	graphOnce sync.Once
	graph     *spectral.Graph
}

// NumEdges returns the number of undirected edges.
func (e *Expander) NumEdges() int { return len(e.Src) }

// Graph returns the expander in compressed sparse row form (both directions stored),
// built on first use and shared afterwards. It returns nil only if Src or Dst were
// modified to hold an out-of-range node.
func (e *Expander) Graph() *spectral.Graph {
	e.graphOnce.Do(func() {
		if e.graph == nil {
			e.graph, _ = spectral.FromEdges(e.N, e.Src, e.Dst)
		}
	})
	return e.graph
}

// VerifyCycles checks a Hamiltonian expander against its cycles: each cycle visits
// every node exactly once, and the edge multiset equals the union of the cycles' edges
// (less duplicates when DedupParallel dropped them). It fails for other algorithms.
func (e *Expander) VerifyCycles() error {
	c := &e.Certificate
	if c.Algo != Hamiltonian || c.Fallback {
		return fmt.Errorf("expander: no Hamiltonian cycles (algorithm %v, complete fallback %v)", c.Algo, c.Fallback)
	}
	if len(e.Cycles) != c.D/2 {
		return fmt.Errorf("expander: %d cycles for degree %d, want %d", len(e.Cycles), c.D, c.D/2)
	}
	seen := make([]int, e.N)
	var want []int32
	for j, cyc := range e.Cycles {
		if len(cyc) != e.N {
			return fmt.Errorf("expander: cycle %d has %d nodes, want %d", j, len(cyc), e.N)
		}
		for k, v := range cyc {
			if v < 0 || int(v) >= e.N || seen[v] == j+1 {
				return fmt.Errorf("expander: cycle %d position %d: node %d out of range or repeated", j, k, v)
			}
			seen[v] = j + 1
			want = append(want, v, cyc[(k+1)%len(cyc)])
		}
	}
	src, dst := make([]int32, len(want)/2), make([]int32, len(want)/2)
	for i := range src {
		src[i], dst[i] = want[2*i], want[2*i+1]
	}
	if c.ParallelDropped {
		var g generator
		_, m := g.scanParallel(e.N, src, dst, true)
		src, dst = src[:m], dst[:m]
	}
	if !sameEdgeMultiset(e.N, src, dst, e.Src, e.Dst) {
		return fmt.Errorf("expander: edges differ from the union of the %d cycles", len(e.Cycles))
	}
	return nil
}

// sameEdgeMultiset reports whether two undirected edge lists hold the same multiset.
func sameEdgeMultiset(n int, s1, d1, s2, d2 []int32) bool {
	if len(s1) != len(s2) {
		return false
	}
	count := make(map[[2]int32]int, len(s1))
	for i := range s1 {
		count[[2]int32{min(s1[i], d1[i]), max(s1[i], d1[i])}]++
	}
	for i := range s2 {
		k := [2]int32{min(s2[i], d2[i]), max(s2[i], d2[i])}
		if count[k] == 0 {
			return false
		}
		count[k]--
	}
	return true
}

// Generate draws an expander as configured by opts; see the package documentation for
// the policies on self loops, parallel edges, small n and certification.
func Generate(opts Options) (*Expander, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	var gen generator
	if useComplete(opts.N, opts.D, opts.AllowCompleteFallback) {
		src, dst := completeGraph(opts.N)
		return &Expander{N: opts.N, Src: src, Dst: dst, Certificate: completeCertificate(&opts)}, nil
	}
	best, cert, err := gen.generate(&opts, true)
	if err != nil {
		return nil, fmt.Errorf("expander: %w", err)
	}
	e := &Expander{N: opts.N, Src: best.src, Dst: best.dst, Certificate: cert, graph: best.graph}
	if opts.Algo == Hamiltonian {
		h := opts.D / 2
		e.Cycles = make([][]int32, h)
		for j := range h {
			e.Cycles[j] = best.cycles[j*opts.N : (j+1)*opts.N : (j+1)*opts.N]
		}
	}
	return e, nil
}

// useComplete reports whether the complete graph replaces a random one.
func useComplete(n, d int, allowed bool) bool { return allowed && n <= d+1 }

// completeGraph returns the edges {i, j}, i < j, of K_n in lexicographic order.
func completeGraph(n int) (src, dst []int32) {
	m := n * (n - 1) / 2
	src, dst = make([]int32, 0, m), make([]int32, 0, m)
	for i := range n {
		for j := i + 1; j < n; j++ {
			src = append(src, int32(i))
			dst = append(dst, int32(j))
		}
	}
	return src, dst
}

// draw is one random graph with its bookkeeping.
type draw struct {
	src, dst []int32 // undirected edges, once each
	cycles   []int32 // Hamiltonian node orders, d/2 blocks of n
	seed     uint64  // the attempt seed that produced it
	loops    int     // self loops removed
	parallel int     // surplus parallel edges found
	graph    *spectral.Graph
	lambda1  float64
	lambda2  float64
	lambdaN  float64
	// components, degMin and degMax describe graph, the graph as returned.
	components     int
	degMin, degMax int
	// converged says the eigenvalue solver met its tolerance.
	converged bool
}

// certify computes the spectrum, the connectivity and the degrees of g, the draw's graph
// exactly as it will be returned (self loops removed, parallel edges per policy). Values
// that miss the solver's tolerance are kept as estimates with converged false.
func (d *draw) certify(g *spectral.Graph) error {
	s, err := spectral.AdjacencyEigenvalues(g, spectral.AdjacencyOptions{Tol: spectral.ExpanderTol})
	if err != nil {
		return err
	}
	d.graph, d.converged = g, s.Converged
	d.lambda1, d.lambda2, d.lambdaN = s.Lambda1, s.Lambda2, s.LambdaMin
	d.components = s.Components
	d.degMin, d.degMax = g.DegreeRange()
	return nil
}

// score is max(|λ₂|, |λₙ|), what the near-Ramanujan test bounds.
func (d *draw) score() float64 { return max(math.Abs(d.lambda2), math.Abs(d.lambdaN)) }

// better reports whether d beats the kept draw (none is kept while its components is
// 0): a connected draw beats a disconnected one, then the lower score wins.
func (d *draw) better(kept *draw) bool {
	if kept.components == 0 {
		return true
	}
	if dc, kc := d.components == 1, kept.components == 1; dc != kc {
		return dc
	}
	return d.score() < kept.score()
}

// generator holds scratch buffers reused across draws and graphs.
type generator struct {
	a, b      draw
	cnt, mark []int32
	order     []int32
	dup       []bool
	// keepLoops skips self-loop removal (tests check regularity of the raw process).
	keepLoops bool
}

// parallelMin is the edge count from which the permutations are drawn concurrently.
const parallelMin = 1 << 16

// generate draws up to MaxAttempts graphs and returns the kept one (owned by gen until
// its next call) with its certificate. opts must be valid and not a fallback case.
func (gen *generator) generate(opts *Options, withCycles bool) (*draw, Certificate, error) {
	cur, best := &gen.a, &gen.b
	bound := spectral.RamanujanBound(opts.D)
	attempts := opts.MaxAttempts
	if !opts.Certify {
		attempts = 1
	}
	cert := Certificate{
		N: opts.N, D: opts.D, Algo: opts.Algo, Seed: opts.Seed, Bound: bound, Tol: opts.Tol,
		Certified: opts.Certify, ParallelDropped: opts.DedupParallel,
	}
	best.components = 0 // no draw kept yet
	for a := range attempts {
		gen.drawOnce(opts, attemptSeed(opts.Seed, a), cur, withCycles)
		cert.Attempts = a + 1
		if !opts.Certify {
			best, cur = cur, best
			break
		}
		g, err := spectral.FromEdges(opts.N, cur.src, cur.dst)
		if err != nil {
			return nil, cert, fmt.Errorf("building the graph of attempt %d: %w", a, err)
		}
		if err := cur.certify(g); err != nil {
			return nil, cert, fmt.Errorf("eigenvalues of attempt %d (n=%d, d=%d, seed %d): %w", a, opts.N, opts.D, cur.seed, err)
		}
		if cur.better(best) {
			best, cur = cur, best
		}
		if best.components == 1 && best.score() <= bound+opts.Tol {
			cert.Accepted = true
			break
		}
	}
	best.describe(&cert, opts.Certify)
	return best, cert, nil
}

// describe records the kept draw in its certificate: its seed and clean-up counts, and
// when certified its spectrum, components and degrees.
func (d *draw) describe(c *Certificate, certified bool) {
	c.AttemptSeed, c.SelfLoopsRemoved, c.ParallelEdges = d.seed, d.loops, d.parallel
	if !certified {
		return
	}
	c.Lambda1, c.Lambda2, c.LambdaMin, c.Converged = d.lambda1, d.lambda2, d.lambdaN, d.converged
	c.Components, c.DegreeMin, c.DegreeMax = d.components, d.degMin, d.degMax
	c.Epsilon = spectral.Epsilon(d.lambda2, d.lambdaN, c.D)
}

// drawOnce fills d with one random graph drawn with the given seed.
func (gen *generator) drawOnce(opts *Options, seed uint64, d *draw, withCycles bool) {
	n, h := opts.N, opts.D/2
	m := n * h
	d.src, d.dst = resize(d.src, m), resize(d.dst, m)
	d.seed, d.graph, d.loops, d.parallel, d.components = seed, nil, 0, 0, 0
	switch opts.Algo {
	case Standard:
		forEachBlock(h, m >= parallelMin, func(j int) {
			s, p := d.src[j*n:(j+1)*n], d.dst[j*n:(j+1)*n]
			for i := range p {
				s[i], p[i] = int32(i), int32(i)
			}
			shuffle(newRNG(DeriveSeed(seed, uint64(j))), p)
		})
	case Simple:
		drawSimple(n, h, seed, d.src, d.dst)
	case Hamiltonian:
		forEachBlock(h, m >= parallelMin, func(j int) {
			s, p := d.src[j*n:(j+1)*n], d.dst[j*n:(j+1)*n]
			for i := range s {
				s[i] = int32(i)
			}
			shuffle(newRNG(DeriveSeed(seed, uint64(j))), s)
			copy(p, s[1:])
			p[n-1] = s[0]
		})
		if withCycles {
			d.cycles = append(d.cycles[:0], d.src...)
		}
	}
	if !gen.keepLoops {
		d.loops, m = removeSelfLoops(d.src, d.dst)
		d.src, d.dst = d.src[:m], d.dst[:m]
	}
	d.parallel, m = gen.scanParallel(n, d.src, d.dst, opts.DedupParallel)
	d.src, d.dst = d.src[:m], d.dst[:m]
}

// drawSimple writes the edges {s_t, s_π(t)} of the Simple process for one uniform
// permutation π of the n·h slots, slot t belonging to node ⌊t/h⌋.
func drawSimple(n, h int, seed uint64, src, dst []int32) {
	for t := range dst {
		dst[t] = int32(t)
	}
	shuffle(newRNG(seed), dst)
	hh := int32(h)
	for v := range n {
		for r := range h {
			src[v*h+r] = int32(v)
		}
	}
	for t, p := range dst {
		dst[t] = p / hh
	}
}

// forEachBlock calls f(j) for j = 0..count−1, on several goroutines when concurrent is
// set. Each f(j) must touch only its own block, so the result does not depend on the
// number of goroutines or their scheduling.
func forEachBlock(count int, concurrent bool, f func(j int)) {
	workers := min(runtime.GOMAXPROCS(0), count)
	if !concurrent || workers < 2 {
		for j := range count {
			f(j)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for j := w; j < count; j += workers {
				f(j)
			}
		})
	}
	wg.Wait()
}

// removeSelfLoops drops the edges with equal endpoints in place, keeping the order of
// the others; it returns how many were dropped and the new length.
func removeSelfLoops(src, dst []int32) (loops, m int) {
	for i := range src {
		if src[i] == dst[i] {
			continue
		}
		src[m], dst[m] = src[i], dst[i]
		m++
	}
	return len(src) - m, m
}

// scanParallel counts the edges that repeat an earlier edge's unordered pair of
// endpoints and, when drop is set, removes them in place (first copies stay, in order).
// It returns the count and the new length. O(n + m) time: edges are bucketed by their
// smaller endpoint, then each bucket is scanned with a last-seen mark per larger end.
func (gen *generator) scanParallel(n int, src, dst []int32, drop bool) (count, m int) {
	m = len(src)
	cnt := resize(gen.cnt, n+1)
	clear(cnt)
	for i := range m {
		cnt[min(src[i], dst[i])+1]++
	}
	for v := 1; v <= n; v++ {
		cnt[v] += cnt[v-1]
	}
	order := resize(gen.order, m)
	for i := range m {
		lo := min(src[i], dst[i])
		order[cnt[lo]] = int32(i)
		cnt[lo]++
	}
	// cnt[v] is now the end of bucket v.
	mark := resize(gen.mark, n)
	for i := range mark {
		mark[i] = -1
	}
	var dup []bool
	start := int32(0)
	for v := range n {
		end := cnt[v]
		for _, e := range order[start:end] {
			hi := max(src[e], dst[e])
			if mark[hi] != int32(v) {
				mark[hi] = int32(v)
				continue
			}
			count++
			if drop {
				if dup == nil {
					dup = resizeBool(gen.dup, m)
					clear(dup)
				}
				dup[e] = true
			}
		}
		start = end
	}
	gen.cnt, gen.order, gen.mark = cnt, order, mark
	if dup != nil {
		gen.dup = dup
		w := 0
		for i := range m {
			if !dup[i] {
				src[w], dst[w] = src[i], dst[i]
				w++
			}
		}
		m = w
	}
	return count, m
}

// resize returns a slice of length n, reusing s's storage when it is large enough.
func resize(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}

func resizeBool(s []bool, n int) []bool {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]bool, n)
}

// EstimateBytes returns about how much memory Generate needs for opts, from its
// measured heap peaks (a certified draw of 10⁶ nodes at degree 6: 166 MB; 2·10⁵ nodes:
// 85 MB): the edge arrays and the graph of every draw, and with Certify the Lanczos
// vectors, at most 32 bytes per node and unit of degree (16 without Certify) plus 64 MiB;
// where opts fall back to the complete graph K_N, its N(N−1)/2 edges of 8 bytes. Sizes
// beyond int64 give math.MaxInt64. Callers compare it with the memory they may use
// before generating a very large expander.
func EstimateBytes(opts Options) int64 {
	n, d := float64(max(opts.N, 0)), float64(max(opts.D, 1))
	perUnit := 16.0
	if opts.Certify {
		perUnit = 32
	}
	b := perUnit * n * d
	if useComplete(opts.N, opts.D, opts.AllowCompleteFallback) {
		b = 8 * n * (n - 1) / 2
	}
	b += 64 << 20
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}
