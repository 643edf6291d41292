package expander

import (
	"math"

	"github.com/gexph/gexph/spectral"
)

// Certificate records how an expander was drawn and how good a spectral expander it
// is, so that a run can be audited and reproduced. Generate with Seed = AttemptSeed and
// MaxAttempts = 1 (other options unchanged) redraws the same graph.
type Certificate struct {
	// N and D are the node count and the requested degree.
	N int `json:"n"`
	D int `json:"d"`
	// Algo is the random process.
	Algo Algorithm `json:"algo"`
	// Seed is the caller's seed; AttemptSeed the seed of the draw that was kept.
	Seed        uint64 `json:"seed"`
	AttemptSeed uint64 `json:"attempt_seed"`
	// Lambda1, Lambda2 and LambdaMin are the largest, the second largest (counted with
	// multiplicity: Lambda2 = Lambda1 when the top eigenvalue is repeated, as in a
	// disconnected graph) and the smallest eigenvalue of the adjacency matrix of the
	// graph as returned (self loops removed, parallel edges per policy), computed by
	// spectral.AdjacencyEigenvalues. Lambda1 is D while no self loop was removed, a
	// little less otherwise. Zero when Certified is false.
	Lambda1   float64 `json:"lambda1"`
	Lambda2   float64 `json:"lambda2"`
	LambdaMin float64 `json:"lambda_min"`
	// Components is the number of connected components of the graph as returned (1:
	// connected; an isolated node, one whose stubs all became self loops, is a component
	// of its own), and DegreeMin and DegreeMax its least and largest degree (D − 2 per
	// self loop a node lost). Zero when Certified is false.
	Components int `json:"components"`
	DegreeMin  int `json:"degree_min"`
	DegreeMax  int `json:"degree_max"`
	// Bound is the Ramanujan bound 2√(D−1) and Tol the slack of the acceptance test.
	Bound float64 `json:"bound"`
	Tol   float64 `json:"tol"`
	// Epsilon is max(|Lambda2|, |LambdaMin|) divided by the degree: D for random
	// graphs, N−1 for the complete-graph fallback (0 when N = 1).
	Epsilon float64 `json:"epsilon"`
	// Attempts is the number of random graphs drawn (0 for the complete fallback).
	Attempts int `json:"attempts"`
	// SelfLoopsRemoved is the number of self loops the kept draw had; each cost its
	// node 2 of its degree.
	SelfLoopsRemoved int `json:"self_loops_removed"`
	// ParallelEdges is the number of surplus parallel edges of the kept draw (a pair
	// joined k times counts k−1), counted after self-loop removal.
	ParallelEdges int `json:"parallel_edges"`
	// ParallelDropped says the surplus parallel edges were removed (DedupParallel).
	ParallelDropped bool `json:"parallel_dropped"`
	// Certified says the eigenvalues were computed (always for the complete fallback,
	// whose spectrum is known exactly).
	Certified bool `json:"certified"`
	// Converged says the eigenvalue solver resolved Lambda2 and LambdaMin to
	// spectral.ExpanderTol. When it stops at its iteration limit first (very large
	// graphs), the values are its best estimates, the test is applied to them and
	// Converged is false.
	Converged bool `json:"eigen_converged"`
	// Accepted says the graph as returned is connected (Components = 1) and
	// max(|Lambda2|, |LambdaMin|) ≤ Bound + Tol. A disconnected draw is never accepted,
	// however small its λ₂: it is redrawn, and kept only when no draw was connected.
	Accepted bool `json:"accepted"`
	// Fallback says the graph is the complete graph K_N (N ≤ D+1).
	Fallback bool `json:"complete_fallback"`
}

// Connected reports whether the certified graph has one component (false when the
// graph was not certified).
func (c *Certificate) Connected() bool { return c.Components == 1 }

// SpectralRadius returns max(|Lambda2|, |LambdaMin|), the quantity the near-Ramanujan
// test compares with Bound + Tol.
func (c *Certificate) SpectralRadius() float64 {
	return max(math.Abs(c.Lambda2), math.Abs(c.LambdaMin))
}

// completeCertificate describes the complete graph K_N used in place of a random graph:
// its eigenvalues are N−1 once and −1 (N−1 times), so Lambda1 = N−1 and Lambda2 =
// LambdaMin = −1 for N ≥ 2 and all are 0 for N = 1; it is connected and (N−1)-regular.
func completeCertificate(opts *Options) Certificate {
	c := Certificate{
		N: opts.N, D: opts.D, Algo: opts.Algo, Seed: opts.Seed, AttemptSeed: opts.Seed,
		Bound: spectral.RamanujanBound(opts.D), Tol: opts.Tol, ParallelDropped: opts.DedupParallel,
		Certified: true, Converged: true, Accepted: true, Fallback: true,
	}
	c.Components, c.DegreeMin, c.DegreeMax = 1, opts.N-1, opts.N-1
	if opts.N >= 2 {
		c.Lambda1, c.Lambda2, c.LambdaMin = float64(opts.N-1), -1, -1
		c.Epsilon = 1 / float64(opts.N-1)
	}
	return c
}
