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
	// Lambda2 and LambdaMin are the second largest and the smallest eigenvalue of the
	// adjacency matrix of the graph as returned (self loops removed, parallel edges per
	// policy), computed by spectral.ExpanderEigenvalues. While the graph is still
	// regular (no self loop was removed) the constant eigenvector is deflated, so a
	// disconnected graph shows Lambda2 = D. Self-loop removal leaves the graph only
	// nearly regular; then there is no known eigenvector to deflate and the values are
	// λ₂ and λₙ of A itself. Zero when Certified is false.
	Lambda2   float64 `json:"lambda2"`
	LambdaMin float64 `json:"lambda_min"`
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
	// Accepted says max(|Lambda2|, |LambdaMin|) ≤ Bound + Tol.
	Accepted bool `json:"accepted"`
	// Fallback says the graph is the complete graph K_N (N ≤ D+1).
	Fallback bool `json:"complete_fallback"`
}

// SpectralRadius returns max(|Lambda2|, |LambdaMin|), the quantity the near-Ramanujan
// test compares with Bound + Tol.
func (c *Certificate) SpectralRadius() float64 {
	return max(math.Abs(c.Lambda2), math.Abs(c.LambdaMin))
}

// completeCertificate describes the complete graph K_N used in place of a random graph:
// its eigenvalues are N−1 once and −1 (N−1 times), so Lambda2 = LambdaMin = −1 for
// N ≥ 2 and both are 0 for N = 1.
func completeCertificate(opts *Options) Certificate {
	c := Certificate{
		N: opts.N, D: opts.D, Algo: opts.Algo, Seed: opts.Seed, AttemptSeed: opts.Seed,
		Bound: spectral.RamanujanBound(opts.D), Tol: opts.Tol, ParallelDropped: opts.DedupParallel,
		Certified: true, Converged: true, Accepted: true, Fallback: true,
	}
	if opts.N >= 2 {
		c.Lambda2, c.LambdaMin = -1, -1
		c.Epsilon = 1 / float64(opts.N-1)
	}
	return c
}
