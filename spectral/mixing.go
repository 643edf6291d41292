package spectral

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Defaults of MixingOptions.
const (
	DefaultMixingDelta    = 0.01
	DefaultMixingMaxSteps = 1000
	DefaultMixingSources  = 4
)

// mixingStream is the PCG stream of the sampled start nodes.
const mixingStream = 0x313

// MixingBound returns log(n/δ²)/(2(1−ε)), the number of random-walk steps after which
// every start distribution of a d-regular ε-expander on n nodes is within L1 distance δ
// of uniform (Exphormer Lemma 4.2, from Hoory–Linial–Wigderson Thm 3.2). It is +Inf for
// ε ≥ 1 and NaN for n < 1 or δ ≤ 0.
func MixingBound(n int, eps, delta float64) float64 {
	if n < 1 || !(delta > 0) {
		return math.NaN()
	}
	if eps >= 1 {
		return math.Inf(1)
	}
	return math.Log(float64(n)/(delta*delta)) / (2 * (1 - eps))
}

// MixingOptions configures MixingTime.
type MixingOptions struct {
	// Delta is the target L1 distance to stationarity (default DefaultMixingDelta).
	Delta float64
	// MaxSteps caps the walk length (default DefaultMixingMaxSteps).
	MaxSteps int
	// Starts lists the start nodes; when empty, Sources nodes are drawn at random.
	Starts []int32
	// Sources is the number of random start nodes (default DefaultMixingSources).
	Sources int
	// Seed fixes the random start nodes.
	Seed uint64
	// Lazy walks by ½I + ½P, which mixes on bipartite graphs too.
	Lazy bool
}

// Mixing is a measured random-walk mixing curve.
type Mixing struct {
	// Starts are the start nodes used.
	Starts []int32
	// Curve[t] is the largest, over the start nodes, L1 distance between the walk's
	// distribution after t steps and the stationary one (Curve[0] is that of a point
	// mass).
	Curve []float64
	// Steps is the first t with Curve[t] ≤ Delta, or -1 if MaxSteps did not suffice.
	Steps int
}

// MixingTime walks from point masses on the start nodes by the row-stochastic transition
// π_{t+1}(v) = Σ_{u~v} π_t(u)/deg(u) (a self loop counts twice in deg and is taken with
// probability 2/deg; a walk on an isolated node stays there) and records the L1 distance
// to the stationary distribution deg(v)/2|E| (uniform for regular graphs). The distance
// never grows, so the walk stops once all starts are within Delta. The walk needs at
// least one edge. Memory is 16·N bytes per start node.
func MixingTime(g *Graph, opts MixingOptions) (*Mixing, error) {
	op, err := newOperator(g, Adjacency)
	if err != nil {
		return nil, err
	}
	delta, maxSteps, sources := opts.Delta, opts.MaxSteps, opts.Sources
	if delta == 0 {
		delta = DefaultMixingDelta
	}
	if maxSteps == 0 {
		maxSteps = DefaultMixingMaxSteps
	}
	if sources == 0 {
		sources = DefaultMixingSources
	}
	switch {
	case !(delta > 0) || math.IsInf(delta, 0):
		return nil, fmt.Errorf("spectral: mixing: δ = %g is not a positive number", delta)
	case maxSteps < 0:
		return nil, fmt.Errorf("spectral: mixing: MaxSteps = %d is negative", maxSteps)
	case sources < 0:
		return nil, fmt.Errorf("spectral: mixing: %d sources is negative", sources)
	case len(g.Adj) == 0:
		return nil, fmt.Errorf("spectral: mixing: graph of %d nodes has no edges", g.N)
	}
	starts := opts.Starts
	if len(starts) == 0 {
		rng := rand.New(rand.NewPCG(opts.Seed, mixingStream))
		for range sources {
			starts = append(starts, int32(rng.IntN(g.N)))
		}
	}
	for i, s := range starts {
		if s < 0 || int(s) >= g.N {
			return nil, fmt.Errorf("spectral: mixing: start %d is node %d, outside [0, %d)", i, s, g.N)
		}
	}
	n := g.N
	stationary := make([]float64, n)
	for u := range n {
		stationary[u] = float64(g.Degree(u)) / float64(len(g.Adj))
	}
	pis := make([][]float64, len(starts))
	for i, s := range starts {
		pis[i] = make([]float64, n)
		pis[i][s] = 1
	}
	r := make([]float64, n)
	next := make([]float64, n)
	res := &Mixing{Starts: starts, Steps: -1}
	for t := 0; ; t++ {
		worst := 0.0
		for _, pi := range pis {
			dist := 0.0
			for u, p := range pi {
				dist += math.Abs(p - stationary[u])
			}
			worst = max(worst, dist)
		}
		res.Curve = append(res.Curve, worst)
		if worst <= delta {
			res.Steps = t
			return res, nil
		}
		if t == maxSteps {
			return res, nil
		}
		for _, pi := range pis {
			for u, p := range pi {
				if d := g.Degree(u); d > 0 {
					r[u] = p / float64(d)
				} else {
					r[u] = 0
				}
			}
			op.apply(r, next)
			for u, p := range pi {
				if g.Offsets[u] == g.Offsets[u+1] {
					next[u] = p
				}
				if opts.Lazy {
					pi[u] = (p + next[u]) / 2
				} else {
					pi[u] = next[u]
				}
			}
		}
	}
}
