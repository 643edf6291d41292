package data

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// SBMOptions sets the seed and size of a generated PATTERN or CLUSTER data set.
type SBMOptions struct {
	// Seed determines every graph; graph i of a split depends only on (Seed, split, i), so
	// a smaller data set holds the first graphs of each split of the full one.
	Seed uint64
	// Train, Val and Test are the numbers of graphs per split; 0 selects the benchmark's
	// full count for that split (PATTERN 10,000/2,000/2,000, CLUSTER 10,000/1,000/1,000).
	Train, Val, Test int
	// MaxBytes bounds the estimated memory of the graphs (sbmGraphBytes each); 0 means
	// DefaultMaxBytes. More graphs are refused before any is generated.
	MaxBytes int64
}

// sbmGraphBytes is about the memory of one PATTERN or CLUSTER graph: some 120 nodes and
// 6,000 directed edges (measured: 16 PATTERN graphs, 1,930 nodes, 100,708 edges),
// 8 bytes an edge and their categorical node features, rounded up.
const sbmGraphBytes = 64 << 10

// Parameters of the benchmarking-gnns stochastic block model generators (Dwivedi et al.).
const (
	sbmSizeMin  = 5  // smallest community or pattern
	sbmSizeSpan = 30 // sizes are uniform in [sbmSizeMin, sbmSizeMin+sbmSizeSpan-1] = [5, 34]

	patternCommunities = 5
	patternP           = 0.5  // edge probability inside a background community
	patternQ           = 0.35 // edge probability between background communities
	patternPIn         = 0.5  // edge probability inside a pattern
	patternQOut        = 0.5  // edge probability between a pattern node and a background node
	patternVocab       = 3    // node features take values 0, 1, 2
	patternCount       = 100  // number of distinct patterns

	clusterCommunities = 6
	clusterP           = 0.55
	clusterQ           = 0.25
)

// GeneratePATTERN generates the PATTERN node classification benchmark: each graph is a
// stochastic block model of 5 background communities (sizes uniform in [5, 34], p = 0.5,
// q = 0.35, features uniform in {0, 1, 2}) into which one of 100 fixed random patterns
// (size uniform in [5, 34], internal edge probability 0.5, fixed features in {0, 1, 2}) is
// planted, each pattern node linked to each background node with probability 0.5; nodes
// are then shuffled. A node's label is 1 when it belongs to the pattern. Graph i of each
// split uses pattern i mod 100. Edges are undirected, stored in both directions, sorted
// by (source, destination).
func GeneratePATTERN(opts SBMOptions) (*Dataset, error) {
	nTrain, nVal, nTest, err := sbmCounts("pattern", opts, 10000, 2000, 2000)
	if err != nil {
		return nil, err
	}
	patterns := make([]sbmPattern, patternCount)
	for k := range patterns {
		patterns[k] = newPattern(newRNG(opts.Seed, streamPATTERN|1<<48|uint64(k)))
	}
	d := &Dataset{Name: "pattern", Task: NodeClassification, NumClasses: 2}
	d.Graphs = generateGraphs(opts.Seed, streamPATTERN, nTrain, nVal, nTest, func(rng *rand.Rand, index int, s *sbmScratch) Graph {
		return patternGraph(rng, &patterns[index%patternCount], s)
	})
	d.Split = rangeSplit(nTrain, nVal, nTest)
	return d, nil
}

// GenerateCLUSTER generates the CLUSTER node classification benchmark: each graph is a
// stochastic block model of 6 communities (sizes uniform in [5, 34], p = 0.55, q = 0.25)
// with shuffled nodes. Every node has feature 0 except one random node per community r,
// which has feature r+1; a node's label is its community. Edges are undirected, stored in
// both directions, sorted by (source, destination).
func GenerateCLUSTER(opts SBMOptions) (*Dataset, error) {
	nTrain, nVal, nTest, err := sbmCounts("cluster", opts, 10000, 1000, 1000)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: "cluster", Task: NodeClassification, NumClasses: clusterCommunities}
	d.Graphs = generateGraphs(opts.Seed, streamCLUSTER, nTrain, nVal, nTest, func(rng *rand.Rand, _ int, s *sbmScratch) Graph {
		return clusterGraph(rng, s)
	})
	d.Split = rangeSplit(nTrain, nVal, nTest)
	return d, nil
}

func sbmCounts(name string, opts SBMOptions, fullTrain, fullVal, fullTest int) (nTrain, nVal, nTest int, err error) {
	if opts.Train < 0 || opts.Val < 0 || opts.Test < 0 {
		return 0, 0, 0, fmt.Errorf("%s: negative graph count (train %d, val %d, test %d)", name, opts.Train, opts.Val, opts.Test)
	}
	pick := func(n, full int) int {
		if n == 0 {
			return full
		}
		return n
	}
	nTrain, nVal, nTest = pick(opts.Train, fullTrain), pick(opts.Val, fullVal), pick(opts.Test, fullTest)
	total := float64(nTrain) + float64(nVal) + float64(nTest)
	if limit := cmp.Or(opts.MaxBytes, DefaultMaxBytes); total*sbmGraphBytes > float64(limit) {
		return 0, 0, 0, fmt.Errorf("%s: %d train, %d val and %d test graphs take about %.0f bytes, more than the %d a data set may (%w); ask for fewer graphs",
			name, nTrain, nVal, nTest, total*sbmGraphBytes, limit, ErrTooLarge)
	}
	return nTrain, nVal, nTest, nil
}

// generateGraphs builds nTrain+nVal+nTest graphs in parallel. Graph i of split s draws
// from its own stream (stream | s<<32 | i), so the result does not depend on scheduling.
func generateGraphs(seed, stream uint64, nTrain, nVal, nTest int, gen func(rng *rand.Rand, index int, s *sbmScratch) Graph) []Graph {
	graphs := make([]Graph, nTrain+nVal+nTest)
	scratch := make([]sbmScratch, workerCount(len(graphs), 0))
	parallelEach(len(graphs), 0, func(w, i int) {
		split, index := 0, i
		if index >= nTrain {
			split, index = 1, index-nTrain
			if index >= nVal {
				split, index = 2, index-nVal
			}
		}
		graphs[i] = gen(newRNG(seed, stream|uint64(split)<<32|uint64(index)), index, &scratch[w])
	})
	return graphs
}

// sbmPattern is one PATTERN subgraph: n nodes, a symmetric adjacency matrix and features.
type sbmPattern struct {
	n    int
	adj  []bool // n×n, row-major
	feat []int32
}

func newPattern(rng *rand.Rand) sbmPattern {
	n := sbmSizeMin + rng.IntN(sbmSizeSpan)
	p := sbmPattern{n: n, adj: make([]bool, n*n), feat: make([]int32, n)}
	c := coins{rng: rng}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if c.bernoulli(threshold(patternPIn)) {
				p.adj[i*n+j], p.adj[j*n+i] = true, true
			}
		}
	}
	for i := range p.feat {
		p.feat[i] = int32(rng.IntN(patternVocab))
	}
	return p
}

// sbmScratch is per-worker memory reused from graph to graph.
type sbmScratch struct {
	comm  []int32 // community of each original node
	local []int32 // index inside the pattern (PATTERN) or community (CLUSTER)
	// newComm and newLocal hold the same in the shuffled order.
	newComm, newLocal []int32
	adj               adjBits
}

func (s *sbmScratch) reset(n int) {
	s.comm = slicesResize(s.comm, n)
	s.local = slicesResize(s.local, n)
	s.newComm = slicesResize(s.newComm, n)
	s.newLocal = slicesResize(s.newLocal, n)
	s.adj.reset(n)
}

func slicesResize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// patternGraph generates one PATTERN graph around pattern pat.
func patternGraph(rng *rand.Rand, pat *sbmPattern, s *sbmScratch) Graph {
	var sizes [patternCommunities]int
	nb := 0
	for c := range sizes {
		sizes[c] = sbmSizeMin + rng.IntN(sbmSizeSpan)
		nb += sizes[c]
	}
	n := nb + pat.n
	s.reset(n)
	// Original order: background communities one after another, then the pattern (whose
	// community id is patternCommunities).
	v := 0
	for c, size := range sizes {
		for range size {
			s.comm[v], s.local[v] = int32(c), 0
			v++
		}
	}
	for k := range pat.n {
		s.comm[v], s.local[v] = patternCommunities, int32(k)
		v++
	}
	perm := rng.Perm(n) // new node i is original node perm[i]
	g := Graph{
		NumNodes:   n,
		NodeLabels: make([]int32, n),
		Node: Features{Kind: Categorical, Rows: n, Cols: 1, Categorical: make([]int32, n),
			Cardinality: []int{patternVocab}},
	}
	// Community and pattern index of each node in the new order.
	comm, local := s.newComm[:n], s.newLocal[:n]
	for i, o := range perm {
		comm[i], local[i] = s.comm[o], s.local[o]
		if comm[i] == patternCommunities {
			g.NodeLabels[i] = 1
			g.Node.Categorical[i] = pat.feat[local[i]]
		} else {
			g.Node.Categorical[i] = int32(rng.IntN(patternVocab))
		}
	}
	c := coins{rng: rng}
	tp, tq, tout := threshold(patternP), threshold(patternQ), threshold(patternQOut)
	for i := range n {
		ci := comm[i]
		if ci == patternCommunities {
			row := pat.adj[int(local[i])*pat.n:]
			for j := i + 1; j < n; j++ {
				var edge bool
				if comm[j] == patternCommunities {
					edge = row[local[j]]
				} else {
					edge = c.bernoulli(tout)
				}
				if edge {
					s.adj.set(i, j)
				}
			}
			continue
		}
		for j := i + 1; j < n; j++ {
			t := tq
			switch comm[j] {
			case ci:
				t = tp
			case patternCommunities:
				t = tout
			}
			if c.bernoulli(t) {
				s.adj.set(i, j)
			}
		}
	}
	g.Src, g.Dst = s.adj.edges()
	return g
}

// clusterGraph generates one CLUSTER graph.
func clusterGraph(rng *rand.Rand, s *sbmScratch) Graph {
	var sizes [clusterCommunities]int
	n := 0
	for c := range sizes {
		sizes[c] = sbmSizeMin + rng.IntN(sbmSizeSpan)
		n += sizes[c]
	}
	s.reset(n)
	v := 0
	for c, size := range sizes {
		for k := range size {
			s.comm[v], s.local[v] = int32(c), int32(k)
			v++
		}
	}
	perm := rng.Perm(n)
	g := Graph{
		NumNodes:   n,
		NodeLabels: make([]int32, n),
		Node: Features{Kind: Categorical, Rows: n, Cols: 1, Categorical: make([]int32, n),
			Cardinality: []int{clusterCommunities + 1}},
	}
	// One node of each community, chosen uniformly, gets feature community+1.
	var chosen [clusterCommunities]int32
	for c, size := range sizes {
		chosen[c] = int32(rng.IntN(size))
	}
	for i, o := range perm {
		ci := s.comm[o]
		g.NodeLabels[i] = ci
		if s.local[o] == chosen[ci] {
			g.Node.Categorical[i] = ci + 1
		}
	}
	c := coins{rng: rng}
	tp, tq := threshold(clusterP), threshold(clusterQ)
	for i := range n {
		ci := g.NodeLabels[i]
		for j := i + 1; j < n; j++ {
			t := tq
			if g.NodeLabels[j] == ci {
				t = tp
			}
			if c.bernoulli(t) {
				s.adj.set(i, j)
			}
		}
	}
	g.Src, g.Dst = s.adj.edges()
	return g
}

// adjBits is the adjacency matrix of a small undirected graph, one bit per node pair.
type adjBits struct {
	n, words int // nodes, 64-bit words per row
	bits     []uint64
}

func (a *adjBits) reset(n int) {
	a.n, a.words = n, (n+63)/64
	if cap(a.bits) < n*a.words {
		a.bits = make([]uint64, n*a.words)
	}
	a.bits = a.bits[:n*a.words]
	clear(a.bits)
}

// set adds the undirected edge {i, j}.
func (a *adjBits) set(i, j int) {
	a.bits[i*a.words+j>>6] |= 1 << (j & 63)
	a.bits[j*a.words+i>>6] |= 1 << (i & 63)
}

// edges lists every edge in both directions, sorted by (source, destination).
func (a *adjBits) edges() (src, dst []int32) {
	m := 0
	for _, w := range a.bits {
		m += bits.OnesCount64(w)
	}
	src, dst = make([]int32, m), make([]int32, m)
	k := 0
	for i := range a.n {
		for wi, w := range a.bits[i*a.words : (i+1)*a.words] {
			for w != 0 {
				src[k], dst[k] = int32(i), int32(wi*64+bits.TrailingZeros64(w))
				k++
				w &= w - 1
			}
		}
	}
	return src, dst
}

// coins draws Bernoulli trials: a trial with probability t/2³² succeeds when a uniform
// 32-bit number is below t. Each 64-bit draw serves two trials.
type coins struct {
	rng  *rand.Rand
	buf  uint64
	have bool
}

func (c *coins) bernoulli(t uint64) bool {
	var u uint64
	if c.have {
		u = c.buf >> 32
	} else {
		c.buf = c.rng.Uint64()
		u = c.buf & 0xffffffff
	}
	c.have = !c.have
	return u < t
}

// threshold returns t with t/2³² = p (rounded down) for use with coins.bernoulli.
func threshold(p float64) uint64 { return uint64(p * (1 << 32)) }
