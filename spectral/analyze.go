package spectral

import (
	"errors"
	"fmt"
	"math"
)

// AutoDenseNodes is the largest graph whose spectrum Analyze and ApproximateCompleteEigen
// compute with the dense solver; larger graphs use Lanczos.
const AutoDenseNodes = 512

// epsilonSnap is how close to 1 an ε computed in floating point is taken to be 1.
const epsilonSnap = 1e-12

// DefaultAnalyzeMixingSteps caps the measured random walk of Analyze.
const DefaultAnalyzeMixingSteps = 200

// AnalyzeOptions configures Analyze; the zero value uses every default.
type AnalyzeOptions struct {
	// Delta is the L1 distance to stationarity for both mixing numbers (default
	// DefaultMixingDelta).
	Delta float64
	// Sources is the number of random-walk start nodes (default DefaultMixingSources).
	Sources int
	// MixingMaxSteps caps the measured walk (default DefaultAnalyzeMixingSteps).
	MixingMaxSteps int
	// Lazy measures the lazy walk ½I + ½P instead of P.
	Lazy bool
	// ExactDiameterMaxNodes is the largest graph whose diameter is exact (default
	// DefaultExactDiameterNodes; negative: never).
	ExactDiameterMaxNodes int
	// Seed fixes the random choices (start vectors and nodes).
	Seed uint64
}

// Summary is the one-shot expansion report of a graph. Undefined numbers use -1:
// mixing_bound when ε ≥ 1, mixing_measured when the walk did not reach δ (or cannot: a
// disconnected graph, or a non-lazy walk with ε = 1), diameter when the graph is
// disconnected (then diameter_exact is true).
type Summary struct {
	// N is the number of nodes.
	N int `json:"n"`
	// Edges is the number of undirected edges.
	Edges int `json:"edges"`
	// DegreeMin is the least degree.
	DegreeMin int `json:"degree_min"`
	// DegreeMax is the largest degree.
	DegreeMax int `json:"degree_max"`
	// Components is the number of connected components (isolated nodes count); a
	// disconnected graph has no spectral gap: ε = 1, and λ₂ = λ₁ when two components
	// share the top eigenvalue (always for a regular graph).
	Components int `json:"components"`
	// Lambda1 is the largest adjacency eigenvalue (d for a d-regular graph).
	Lambda1 float64 `json:"lambda1"`
	// Lambda2 is the second largest adjacency eigenvalue counted with multiplicity: equal
	// to Lambda1 when the top eigenvalue is repeated (a disconnected d-regular graph, two
	// identical components).
	Lambda2 float64 `json:"lambda2"`
	// LambdaMin is the smallest adjacency eigenvalue.
	LambdaMin float64 `json:"lambda_min"`
	// Epsilon is the expansion ε: max(|λ₂|, |λₙ|)/d for a d-regular graph, and in general
	// the largest |ν| over the non-trivial eigenvalues ν of D^-1/2 A D^-1/2 (the random
	// walk's), which is the same number for regular graphs; 1 for disconnected graphs
	// and graphs with isolated nodes, and values within 1e-12 of 1 (bipartite graphs up
	// to rounding) are reported as 1.
	Epsilon float64 `json:"epsilon"`
	// MixingBound is MixingBound(N, Epsilon, Delta); a guarantee for regular graphs only.
	MixingBound float64 `json:"mixing_bound"`
	// MixingMeasured is the first step at which the walk from every sampled start node is
	// within Delta of stationarity.
	MixingMeasured int `json:"mixing_measured"`
	// Diameter is exact when DiameterExact, otherwise a lower bound.
	Diameter int `json:"diameter"`
	// DiameterExact tells whether Diameter is exact.
	DiameterExact bool `json:"diameter_exact"`
}

// Analyze computes a Summary of g. Graphs of at most AutoDenseNodes nodes get exact
// eigenvalues from the dense solver, larger ones Lanczos estimates to ExpanderTol; graphs
// of at most ExactDiameterMaxNodes nodes an exact diameter, larger ones a lower bound
// from a double sweep and 16 sampled BFS. When Lanczos does not converge, Analyze returns
// the summary with its estimates together with an error wrapping ErrNotConverged. A
// graph with one node is reported with zero eigenvalues, ε = 0 and diameter 0.
func Analyze(g *Graph, opts AnalyzeOptions) (*Summary, error) {
	if g == nil || g.N == 0 {
		return nil, fmt.Errorf("spectral: analyze: empty graph (no nodes)")
	}
	if err := checkGraph(g); err != nil {
		return nil, fmt.Errorf("spectral: analyze: %w", err)
	}
	delta, steps := opts.Delta, opts.MixingMaxSteps
	if delta == 0 {
		delta = DefaultMixingDelta
	}
	if steps == 0 {
		steps = DefaultAnalyzeMixingSteps
	}
	if !(delta > 0) || math.IsInf(delta, 0) {
		return nil, fmt.Errorf("spectral: analyze: δ = %g is not a positive number", delta)
	}
	s := &Summary{N: g.N, Edges: g.NumEdges(), Components: Components(g)}
	s.DegreeMin, s.DegreeMax = g.DegreeRange()
	if g.N == 1 {
		s.MixingBound = MixingBound(1, 0, delta)
		s.DiameterExact = true
		return s, nil
	}

	connected := s.Components == 1
	dia, err := Diameter(g, DiameterOptions{ExactMaxNodes: opts.ExactDiameterMaxNodes, Seed: opts.Seed})
	switch {
	case errors.Is(err, ErrDisconnected):
		s.Diameter, s.DiameterExact = -1, true
	case err != nil:
		return nil, fmt.Errorf("spectral: analyze: %w", err)
	default:
		s.Diameter, s.DiameterExact = dia.Diameter, dia.Exact
	}

	var notConverged error
	keep := func(err error) error {
		if errors.Is(err, ErrNotConverged) {
			notConverged = err
			return nil
		}
		return err
	}
	if s.Lambda1, s.Lambda2, s.LambdaMin, err = adjacencyExtremes(g, opts.Seed); keep(err) != nil {
		return nil, fmt.Errorf("spectral: analyze: %w", err)
	}
	switch {
	case s.DegreeMin == 0 || !connected:
		s.Epsilon = 1
	case s.DegreeMin == s.DegreeMax:
		s.Epsilon = Epsilon(s.Lambda2, s.LambdaMin, s.DegreeMax)
	default:
		lo, hi, err := complementExtremes(g, NormalizedLaplacian)
		if keep(err) != nil {
			return nil, fmt.Errorf("spectral: analyze: %w", err)
		}
		s.Epsilon = max(math.Abs(1-lo), math.Abs(1-hi))
	}

	if s.Epsilon > 1-epsilonSnap {
		s.Epsilon = 1 // bipartite up to rounding
	}
	s.MixingBound = MixingBound(g.N, s.Epsilon, delta)
	if math.IsInf(s.MixingBound, 1) {
		s.MixingBound = -1
	}
	s.MixingMeasured = -1
	if connected && (opts.Lazy || s.Epsilon < 1) {
		mix, err := MixingTime(g, MixingOptions{Delta: delta, MaxSteps: steps, Sources: opts.Sources,
			Seed: opts.Seed, Lazy: opts.Lazy})
		if err != nil {
			return nil, fmt.Errorf("spectral: analyze: %w", err)
		}
		s.MixingMeasured = mix.Steps
	}
	return s, notConverged
}

// adjacencyExtremes returns λ₁, λ₂ (with multiplicity) and λₙ of the adjacency of a
// graph with at least 2 nodes: densely up to AutoDenseNodes nodes, else by
// AdjacencyEigenvalues to ExpanderTol.
func adjacencyExtremes(g *Graph, seed uint64) (lambda1, lambda2, lambdaMin float64, err error) {
	if g.N > AutoDenseNodes {
		a, err := AdjacencyEigenvalues(g, AdjacencyOptions{Tol: ExpanderTol, Seed: seed})
		if err != nil {
			return 0, 0, 0, err
		}
		if !a.Converged {
			err = fmt.Errorf("spectral: λ₁, λ₂ and λₙ after %d Lanczos steps: %w", a.Iterations, ErrNotConverged)
		}
		return a.Lambda1, a.Lambda2, a.LambdaMin, err
	}
	vals, err := DenseEigenvalues(g, Adjacency)
	if err != nil {
		return 0, 0, 0, err
	}
	return vals[g.N-1], vals[g.N-2], vals[0], nil
}
