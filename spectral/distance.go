package spectral

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// ErrDisconnected reports a graph with unreachable pairs of nodes, whose diameter is
// infinite.
var ErrDisconnected = errors.New("spectral: graph is disconnected")

// DefaultExactDiameterNodes is the largest graph whose diameter Diameter computes exactly
// by default (one BFS from every node, in parallel).
const DefaultExactDiameterNodes = 4096

// diameterStream is the PCG stream of the sampled BFS sources.
const diameterStream = 0xd1a

// bfsState holds reusable breadth-first search buffers; dist is -1 outside the last
// search.
type bfsState struct {
	dist  []int32
	queue []int32 // nodes in visiting order
}

func newBFS(n int) *bfsState {
	s := &bfsState{dist: make([]int32, n), queue: make([]int32, 0, n)}
	for i := range s.dist {
		s.dist[i] = -1
	}
	return s
}

// run searches from src and returns its eccentricity within its component; s.queue then
// lists the component in BFS order, so len(s.queue) is its size.
func (s *bfsState) run(g *Graph, src int) int {
	for _, v := range s.queue {
		s.dist[v] = -1
	}
	s.queue = append(s.queue[:0], int32(src))
	s.dist[src] = 0
	for head := 0; head < len(s.queue); head++ {
		u := s.queue[head]
		du := s.dist[u]
		for _, v := range g.Neighbors(int(u)) {
			if s.dist[v] < 0 {
				s.dist[v] = du + 1
				s.queue = append(s.queue, v)
			}
		}
	}
	return int(s.dist[s.queue[len(s.queue)-1]])
}

// DiameterOptions configures Diameter.
type DiameterOptions struct {
	// ExactMaxNodes is the largest graph measured exactly (default
	// DefaultExactDiameterNodes; negative: never).
	ExactMaxNodes int
	// Samples is the number of random BFS sources added to the double sweep on larger
	// graphs (default 16).
	Samples int
	// Seed fixes the sampled sources.
	Seed uint64
}

// DiameterResult is an exact diameter or bounds on it.
type DiameterResult struct {
	// Diameter is the exact diameter when Exact, otherwise the largest eccentricity found,
	// a lower bound.
	Diameter int
	// Upper is an upper bound: Diameter when Exact, otherwise twice the smallest
	// eccentricity found.
	Upper int
	// Exact is true when every node's eccentricity was computed.
	Exact bool
	// Searches is the number of breadth-first searches run.
	Searches int
}

// Diameter returns the diameter of g: exactly by a BFS from every node (run in parallel)
// when N ≤ ExactMaxNodes, otherwise bounded by a double sweep (a BFS from a random node,
// then from the farthest node found, then from the farthest node of that) plus BFS from
// Samples random nodes. A disconnected graph gives an error wrapping ErrDisconnected.
func Diameter(g *Graph, opts DiameterOptions) (*DiameterResult, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	exactMax, samples := opts.ExactMaxNodes, opts.Samples
	if exactMax == 0 {
		exactMax = DefaultExactDiameterNodes
	}
	if samples == 0 {
		samples = 16
	}
	if samples < 0 {
		return nil, fmt.Errorf("spectral: diameter: %d samples is negative", samples)
	}
	rng := rand.New(rand.NewPCG(opts.Seed, diameterStream))
	bfs := newBFS(g.N)
	start := rng.IntN(g.N)
	ecc := bfs.run(g, start)
	if len(bfs.queue) < g.N {
		return nil, fmt.Errorf("spectral: diameter: %d of %d nodes reachable from node %d: %w",
			len(bfs.queue), g.N, start, ErrDisconnected)
	}
	if g.N <= exactMax {
		d := allEccentricitiesMax(g)
		return &DiameterResult{Diameter: d, Upper: d, Exact: true, Searches: g.N + 1}, nil
	}
	res := &DiameterResult{Diameter: ecc, Upper: 2 * ecc, Searches: 1}
	visit := func(src int) {
		e := bfs.run(g, src)
		res.Diameter, res.Upper = max(res.Diameter, e), min(res.Upper, 2*e)
		res.Searches++
	}
	for range 2 { // double sweep
		visit(int(bfs.queue[len(bfs.queue)-1]))
	}
	for range samples {
		visit(rng.IntN(g.N))
	}
	return res, nil
}

// allEccentricitiesMax returns the largest eccentricity over all nodes of a connected
// graph, spreading the searches over GOMAXPROCS goroutines.
func allEccentricitiesMax(g *Graph) int {
	var next atomic.Int64
	workers := min(runtime.GOMAXPROCS(0), g.N)
	eccs := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			bfs := newBFS(g.N)
			for src := int(next.Add(1) - 1); src < g.N; src = int(next.Add(1) - 1) {
				eccs[w] = max(eccs[w], bfs.run(g, src))
			}
		})
	}
	wg.Wait()
	return slices.Max(eccs)
}

// Ball is the growth of the balls around one node.
type Ball struct {
	// Source is the centre v.
	Source int32
	// Sizes[k] is |B(v, k)|, the number of nodes within distance k of v, for k from 0 to
	// the eccentricity of v within its component.
	Sizes []int
}

// BallGrowth returns the ball sizes around sources nodes drawn uniformly at random
// (seeded, with repetition). In a disconnected graph the sizes stop at the size of the
// source's component.
func BallGrowth(g *Graph, sources int, seed uint64) ([]Ball, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if sources < 1 {
		return nil, fmt.Errorf("spectral: ball growth: %d sources, need at least 1", sources)
	}
	rng := rand.New(rand.NewPCG(seed, diameterStream))
	bfs := newBFS(g.N)
	balls := make([]Ball, sources)
	for i := range balls {
		src := rng.IntN(g.N)
		sizes := make([]int, bfs.run(g, src)+1)
		for _, v := range bfs.queue {
			sizes[bfs.dist[v]]++
		}
		for k := 1; k < len(sizes); k++ {
			sizes[k] += sizes[k-1]
		}
		balls[i] = Ball{Source: int32(src), Sizes: sizes}
	}
	return balls, nil
}
