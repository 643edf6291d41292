package expander

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var algorithms = []Algorithm{Standard, Simple, Hamiltonian}

func uncertified(n, d int, algo Algorithm, seed uint64) Options {
	o := DefaultOptions(n, d, seed)
	o.Algo, o.Certify = algo, false
	return o
}

// pairKey is an unordered node pair.
func pairKey(u, v int32) [2]int32 { return [2]int32{min(u, v), max(u, v)} }

func TestRawProcessIsRegular(t *testing.T) {
	// Before self-loop removal every node has degree exactly d (a loop counts twice);
	// removal drops exactly the loops, keeps the other edges in order, and reports them.
	for _, algo := range algorithms {
		totalLoops := 0
		for seed := range uint64(20) {
			n, d := 40+int(seed), 6
			o := uncertified(n, d, algo, seed)
			raw := generator{keepLoops: true}
			best, _, err := raw.generate(&o, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(best.src) != n*d/2 {
				t.Fatalf("%v: raw graph has %d edges, want nd/2 = %d", algo, len(best.src), n*d/2)
			}
			deg := make([]int, n)
			var kept [][2]int32
			loops := 0
			for i := range best.src {
				deg[best.src[i]]++
				deg[best.dst[i]]++
				if best.src[i] == best.dst[i] {
					loops++
				} else {
					kept = append(kept, [2]int32{best.src[i], best.dst[i]})
				}
			}
			for v, k := range deg {
				if k != d {
					t.Fatalf("%v seed %d: node %d has raw degree %d, want %d", algo, seed, v, k, d)
				}
			}
			e, err := Generate(o)
			if err != nil {
				t.Fatal(err)
			}
			if e.Certificate.SelfLoopsRemoved != loops {
				t.Fatalf("%v seed %d: reported %d self loops, raw graph has %d", algo, seed, e.Certificate.SelfLoopsRemoved, loops)
			}
			if len(kept) != e.NumEdges() {
				t.Fatalf("%v seed %d: %d edges after removal, want %d", algo, seed, e.NumEdges(), len(kept))
			}
			for i, k := range kept {
				if e.Src[i] != k[0] || e.Dst[i] != k[1] {
					t.Fatalf("%v seed %d: edge %d is (%d,%d), want (%d,%d)", algo, seed, i, e.Src[i], e.Dst[i], k[0], k[1])
				}
				if e.Src[i] == e.Dst[i] {
					t.Fatalf("%v seed %d: self loop left at edge %d", algo, seed, i)
				}
			}
			totalLoops += loops
		}
		if algo == Hamiltonian && totalLoops != 0 {
			t.Errorf("Hamiltonian cycles produced %d self loops", totalLoops)
		}
		if algo != Hamiltonian && totalLoops == 0 {
			t.Errorf("%v: no self loops in 20 draws; the removal path was not exercised", algo)
		}
	}
}

func TestGraphIsSymmetricWithDegrees(t *testing.T) {
	e, err := Generate(uncertified(300, 8, Standard, 7))
	if err != nil {
		t.Fatal(err)
	}
	g := e.Graph()
	if g == nil || g.N != 300 || g.NumEdges() != e.NumEdges() {
		t.Fatalf("Graph() = %+v", g)
	}
	// Each adjacency entry u→v must be matched by v→u with the same multiplicity.
	count := map[[2]int32]int{}
	for u := range g.N {
		for _, v := range g.Neighbors(u) {
			count[[2]int32{int32(u), v}]++
		}
	}
	for k, c := range count {
		if count[[2]int32{k[1], k[0]}] != c {
			t.Fatalf("edge %v appears %d times but its reverse %d times", k, c, count[[2]int32{k[1], k[0]}])
		}
	}
	// Degree deficits account exactly for the removed loops.
	deficit := 0
	for u := range g.N {
		deficit += 8 - g.Degree(u)
	}
	if deficit != 2*e.Certificate.SelfLoopsRemoved {
		t.Fatalf("degree deficit %d, want 2×%d self loops", deficit, e.Certificate.SelfLoopsRemoved)
	}
}

func TestParallelEdgePolicy(t *testing.T) {
	// Small n makes parallel edges common. Default: all kept and counted; DedupParallel:
	// one copy of each pair, same pair set.
	sawParallel := false
	for _, algo := range algorithms {
		for seed := range uint64(10) {
			o := uncertified(12, 6, algo, seed)
			multi, err := Generate(o)
			if err != nil {
				t.Fatal(err)
			}
			mult := map[[2]int32]int{}
			for i := range multi.Src {
				mult[pairKey(multi.Src[i], multi.Dst[i])]++
			}
			surplus := 0
			for _, c := range mult {
				surplus += c - 1
			}
			if multi.Certificate.ParallelEdges != surplus {
				t.Fatalf("%v seed %d: ParallelEdges = %d, counted %d", algo, seed, multi.Certificate.ParallelEdges, surplus)
			}
			if multi.NumEdges() != 12*3-multi.Certificate.SelfLoopsRemoved {
				t.Fatalf("%v seed %d: multigraph lost edges: %d", algo, seed, multi.NumEdges())
			}
			sawParallel = sawParallel || surplus > 0

			o.DedupParallel = true
			simple, err := Generate(o)
			if err != nil {
				t.Fatal(err)
			}
			if simple.Certificate.ParallelEdges != surplus || !simple.Certificate.ParallelDropped {
				t.Fatalf("%v seed %d: dedup certificate %+v, want %d parallel dropped", algo, seed, simple.Certificate, surplus)
			}
			if simple.NumEdges() != len(mult) {
				t.Fatalf("%v seed %d: %d edges after dedup, want %d distinct pairs", algo, seed, simple.NumEdges(), len(mult))
			}
			seen := map[[2]int32]bool{}
			for i := range simple.Src {
				k := pairKey(simple.Src[i], simple.Dst[i])
				if seen[k] || mult[k] == 0 {
					t.Fatalf("%v seed %d: pair %v repeated or new after dedup", algo, seed, k)
				}
				seen[k] = true
			}
		}
	}
	if !sawParallel {
		t.Fatal("no parallel edges in any draw; the policy was not exercised")
	}
}

func TestHamiltonianCycles(t *testing.T) {
	const n, d = 101, 8
	e, err := Generate(uncertified(n, d, Hamiltonian, 3))
	if err != nil {
		t.Fatal(err)
	}
	if e.NumEdges() != n*d/2 {
		t.Fatalf("%d edges, want %d", e.NumEdges(), n*d/2)
	}
	// Walk each block of n edges as a 2-regular graph: it must be one cycle through all.
	for j := range d / 2 {
		adj := make([][]int32, n)
		for i := j * n; i < (j+1)*n; i++ {
			u, v := e.Src[i], e.Dst[i]
			adj[u] = append(adj[u], v)
			adj[v] = append(adj[v], u)
		}
		prev, cur, steps := int32(-1), int32(0), 0
		visited := make([]bool, n)
		for !visited[cur] {
			if len(adj[cur]) != 2 {
				t.Fatalf("cycle %d: node %d has degree %d", j, cur, len(adj[cur]))
			}
			visited[cur] = true
			next := adj[cur][0]
			if next == prev {
				next = adj[cur][1]
			}
			prev, cur = cur, next
			steps++
		}
		if cur != 0 || steps != n {
			t.Fatalf("cycle %d: walk closed at node %d after %d steps, want node 0 after %d", j, cur, steps, n)
		}
	}
	if err := e.VerifyCycles(); err != nil {
		t.Fatal(err)
	}
	// A tampered cycle must be caught.
	saved := e.Cycles[1][5]
	e.Cycles[1][5] = e.Cycles[1][6]
	if err := e.VerifyCycles(); err == nil {
		t.Fatal("VerifyCycles accepted a cycle with a repeated node")
	}
	e.Cycles[1][5] = saved
	e.Cycles[0][3], e.Cycles[0][4] = e.Cycles[0][4], e.Cycles[0][3]
	if err := e.VerifyCycles(); err == nil {
		t.Fatal("VerifyCycles accepted cycles that do not match the edges")
	}
	// With dedup the edges are the distinct pairs of the cycles.
	o := uncertified(12, 8, Hamiltonian, 5)
	o.DedupParallel = true
	small, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := small.VerifyCycles(); err != nil {
		t.Fatal(err)
	}
	std, err := Generate(uncertified(20, 4, Standard, 1))
	if err != nil {
		t.Fatal(err)
	}
	if std.Cycles != nil || std.VerifyCycles() == nil {
		t.Fatal("standard expander reports Hamiltonian cycles")
	}
}

func TestDeterminism(t *testing.T) {
	for _, algo := range algorithms {
		a, err := Generate(uncertified(500, 6, algo, 42))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Generate(uncertified(500, 6, algo, 42))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Src, b.Src) || !slices.Equal(a.Dst, b.Dst) {
			t.Fatalf("%v: same seed gave different graphs", algo)
		}
		c, err := Generate(uncertified(500, 6, algo, 43))
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(a.Dst, c.Dst) {
			t.Fatalf("%v: seeds 42 and 43 gave the same graph", algo)
		}
	}
}

func TestConcurrentDrawMatchesSequential(t *testing.T) {
	// 40,000 × 3 edges is above parallelMin: permutations are drawn concurrently when
	// GOMAXPROCS allows. The result must not depend on it.
	for _, algo := range []Algorithm{Standard, Hamiltonian} {
		o := uncertified(40000, 6, algo, 9)
		prev := runtime.GOMAXPROCS(1)
		seq, err := Generate(o)
		runtime.GOMAXPROCS(max(prev, 2))
		if err != nil {
			t.Fatal(err)
		}
		par, err := Generate(o)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seq.Src, par.Src) || !slices.Equal(seq.Dst, par.Dst) {
			t.Fatalf("%v: result depends on GOMAXPROCS", algo)
		}
	}
}

func TestPermutationsAreUniform(t *testing.T) {
	// Chi-square check of shuffle: position of element 0 over many shuffles of 8 items.
	const k, trials = 8, 80000
	counts := make([]int, k)
	a := make([]int32, k)
	for s := range uint64(trials) {
		for i := range a {
			a[i] = int32(i)
		}
		shuffle(newRNG(s), a)
		counts[slices.Index(a, 0)]++
	}
	chi := 0.0
	want := float64(trials) / k
	for _, c := range counts {
		chi += (float64(c) - want) * (float64(c) - want) / want
	}
	// 7 degrees of freedom: P(χ² > 24.3) ≈ 0.001.
	if chi > 24.3 {
		t.Fatalf("position of 0 not uniform: counts %v, χ² = %.1f", counts, chi)
	}
}

func TestCompleteFallback(t *testing.T) {
	for n := 1; n <= 7; n++ {
		o := DefaultOptions(n, 6, 1)
		o.AllowCompleteFallback = true
		e, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		c := e.Certificate
		if !c.Fallback || !c.Accepted || e.NumEdges() != n*(n-1)/2 {
			t.Fatalf("n=%d: fallback %v accepted %v with %d edges", n, c.Fallback, c.Accepted, e.NumEdges())
		}
		seen := map[[2]int32]bool{}
		for i := range e.Src {
			seen[pairKey(e.Src[i], e.Dst[i])] = true
		}
		if len(seen) != n*(n-1)/2 {
			t.Fatalf("n=%d: %d distinct pairs", n, len(seen))
		}
		if n >= 2 && (c.Lambda2 != -1 || c.LambdaMin != -1 || math.Abs(c.Epsilon-1/float64(n-1)) > 1e-15) {
			t.Fatalf("n=%d: certificate %+v", n, c)
		}
	}
	// n = 8 > d+1 is drawn at random even when the fallback is allowed.
	o := uncertified(8, 6, Standard, 1)
	o.AllowCompleteFallback = true
	e, err := Generate(o)
	if err != nil || e.Certificate.Fallback {
		t.Fatalf("n=8, d=6: fallback %v, err %v", e.Certificate.Fallback, err)
	}
	// n = d+1 without the fallback is a legal random draw.
	if _, err := Generate(uncertified(7, 6, Simple, 1)); err != nil {
		t.Fatal(err)
	}
}

func TestGenerateErrors(t *testing.T) {
	base := DefaultOptions(100, 6, 1)
	cases := []struct {
		name, want string
		edit       func(*Options)
	}{
		{"odd degree", "d=5", func(o *Options) { o.D = 5 }},
		{"degree zero", "d=0", func(o *Options) { o.D = 0 }},
		{"negative degree", "d=-2", func(o *Options) { o.D = -2 }},
		{"no nodes", "n=0", func(o *Options) { o.N = 0 }},
		{"negative nodes", "n=-3", func(o *Options) { o.N = -3 }},
		{"degree at n", "d=6 must be below the node count n=6", func(o *Options) { o.N = 6 }},
		{"degree above n", "d=6 must be below the node count n=2", func(o *Options) { o.N = 2 }},
		{"unknown algorithm", "unknown algorithm 7", func(o *Options) { o.Algo = 7 }},
		{"negative tol", "Tol=-0.1", func(o *Options) { o.Tol = -0.1 }},
		{"NaN tol", "Tol=NaN", func(o *Options) { o.Tol = math.NaN() }},
		{"no attempts", "MaxAttempts=0", func(o *Options) { o.MaxAttempts = 0 }},
		{"too large", "int32", func(o *Options) { o.N = math.MaxInt32; o.D = 4 }},
	}
	for _, c := range cases {
		o := base
		c.edit(&o)
		if _, err := Generate(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestParseAlgorithm(t *testing.T) {
	for _, a := range algorithms {
		got, err := ParseAlgorithm(strings.ToUpper(a.String()))
		if err != nil || got != a {
			t.Fatalf("ParseAlgorithm(%q) = %v, %v", a.String(), got, err)
		}
		text, err := a.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Algorithm
		if err := back.UnmarshalText(text); err != nil || back != a {
			t.Fatalf("text round trip of %v gave %v, %v", a, back, err)
		}
	}
	_, err := ParseAlgorithm("ramanujan")
	if err == nil || !strings.Contains(err.Error(), "standard, simple, hamiltonian") || !strings.Contains(err.Error(), "ramanujan") {
		t.Fatalf("unknown name: %v", err)
	}
	var a Algorithm
	if a.UnmarshalText([]byte("lps")) == nil {
		t.Fatal("UnmarshalText accepted an unknown name")
	}
	if _, err := Algorithm(9).MarshalText(); err == nil {
		t.Fatal("MarshalText accepted an unknown algorithm")
	}
}

func TestDeriveSeedSpreads(t *testing.T) {
	seen := map[uint64]bool{}
	for s := range uint64(64) {
		for j := range uint64(64) {
			seen[DeriveSeed(s, j)] = true
		}
	}
	if len(seen) != 64*64 {
		t.Fatalf("DeriveSeed collided: %d distinct of %d", len(seen), 64*64)
	}
}
