package spectral

import "fmt"

// AdjacencyOptions configures AdjacencyEigenvalues; the zero value uses the defaults of
// LanczosOptions.
type AdjacencyOptions struct {
	// Tol is the residual bound to which λ₂ and λₙ are resolved (default
	// DefaultLanczosTol); the top eigenvector is resolved to Tol/16.
	Tol float64
	// MaxIter caps the steps of each of the two Lanczos runs (default
	// DefaultLanczosMaxIter).
	MaxIter int
	// Seed fixes the random start vector of the second run.
	Seed uint64
	// MaxBasisBytes bounds the reorthogonalisation memory (see LanczosOptions).
	MaxBasisBytes int64
}

// AdjacencySpectrum holds the extreme eigenvalues of a graph's adjacency matrix, counted
// with multiplicity (λ₁ ≥ λ₂ ≥ … ≥ λₙ), and the graph's connectivity.
type AdjacencySpectrum struct {
	// Lambda1 is the largest eigenvalue: the degree d of a d-regular graph.
	Lambda1 float64
	// Lambda2 is the second largest eigenvalue counted with multiplicity: equal to
	// Lambda1 when the top eigenvalue is repeated, as in a disconnected regular graph or
	// two identical components.
	Lambda2 float64
	// LambdaMin is the smallest eigenvalue λₙ.
	LambdaMin float64
	// TopResidual is the true residual ‖Av − Lambda1·v‖, computed afresh, of the unit
	// eigenvector v deflated to find Lambda2 (0 for a regular graph, whose constant
	// vector is exact); Converged requires it to be at most Tol.
	TopResidual float64
	// Components is the number of connected components. λ₁ is simple when it is 1 (the
	// Perron–Frobenius theorem); a disconnected graph has no spectral gap to speak of.
	Components int
	// Iterations counts the matrix–vector products of all runs.
	Iterations int
	// Converged says every value met its tolerance.
	Converged bool
}

// Connected reports whether the graph has one component.
func (s *AdjacencySpectrum) Connected() bool { return s.Components == 1 }

// AdjacencyEigenvalues computes λ₁, λ₂ and λₙ of the adjacency matrix of g, counted with
// multiplicity, by Lanczos with deflation of a computed top eigenvector:
//
//  1. the top eigenpair: the constant vector and the degree of a regular graph (exact),
//     otherwise the Ritz pair of a Lanczos run from the all-ones vector, which has a
//     positive component on every Perron vector;
//  2. a second run, from a seeded random vector, on the orthogonal complement of that
//     eigenvector: its largest value is λ₂, another copy of λ₁ if λ₁ is repeated, and
//     its smallest λₙ.
//
// A single Krylov space finds each distinct eigenvalue once, so a top-2 search without
// deflation reports a wrong λ₂ whenever λ₁ is repeated; deflating the all-ones vector
// is right for regular graphs only. It also counts the components. It fails on graphs
// with fewer than 2 nodes; values that miss their tolerance within MaxIter steps are
// returned with Converged false and no error.
func AdjacencyEigenvalues(g *Graph, opts AdjacencyOptions) (*AdjacencySpectrum, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if g.N < 2 {
		return nil, fmt.Errorf("spectral: λ₂ needs at least 2 nodes, graph has %d", g.N)
	}
	op, err := newOperator(g, Adjacency)
	if err != nil {
		return nil, err
	}
	lo := LanczosOptions{K: 1, Tol: opts.Tol, MaxIter: opts.MaxIter, MaxBasisBytes: opts.MaxBasisBytes}
	cfg, err := lo.resolve()
	if err != nil {
		return nil, fmt.Errorf("spectral: adjacency eigenvalues: %w", err)
	}
	s := &AdjacencySpectrum{}
	s.Components = Components(g)
	top, err := topEigenpair(g, op, cfg, s)
	if err != nil {
		return nil, err
	}
	cfg.defl, cfg.start = [][]float64{top}, randomStart(g.N, opts.Seed)
	ext, _, err := lanczos(op, cfg)
	if err != nil {
		return nil, err
	}
	s.Lambda2, s.LambdaMin = min(ext.Top[0], s.Lambda1), ext.Bottom[0]
	s.Iterations += ext.Iterations
	s.Converged = s.Converged && ext.Converged
	return s, nil
}

// topEigenpair returns a unit eigenvector of the largest adjacency eigenvalue and sets
// s.Lambda1, s.TopResidual, s.Iterations and s.Converged (see AdjacencyEigenvalues).
func topEigenpair(g *Graph, op *operator, cfg lanczosConfig, s *AdjacencySpectrum) ([]float64, error) {
	v := make([]float64, g.N)
	for i := range v {
		v[i] = 1
	}
	if lo, hi := g.DegreeRange(); lo == hi {
		scale(v, 1/norm(v))
		s.Lambda1, s.Converged = float64(hi), true
		return v, nil
	}
	cfg.tol /= 16
	cfg.kBottom, cfg.start, cfg.vectors = 0, v, true // the top alone, with its vector
	ext, run, err := lanczos(op, cfg)
	if err != nil {
		return nil, err
	}
	v, s.Lambda1 = ext.TopVectors[0], ext.Top[0]
	s.Iterations = ext.Iterations + 1 // and the residual check below
	if ext.ReorthIterations < ext.Iterations {
		s.Iterations += ext.Iterations - 1 // a second pass rebuilt the dropped basis
	}
	// The estimate can be optimistic for a vector of the plain recurrence (see
	// LanczosOptions.Vectors): the true residual decides.
	av := run.w // the finished run's scratch
	op.apply(v, av)
	axpy(-s.Lambda1, v, av)
	s.TopResidual = norm(av)
	s.Converged = ext.Converged && s.TopResidual <= 16*cfg.tol
	return v, nil
}

// ExpanderEigenvalues returns λ₂, the second largest (counted with multiplicity), and
// λₙ, the smallest eigenvalue of the adjacency matrix of g, resolved to ExpanderTol by
// AdjacencyEigenvalues: a disconnected regular graph has λ₂ = d, and λ₂ = λ₁ whenever the
// top eigenvalue is repeated, regular or not. It fails on graphs with fewer than 2
// nodes, and returns its estimates with an error wrapping ErrNotConverged when
// DefaultLanczosMaxIter steps per run do not suffice.
func ExpanderEigenvalues(g *Graph) (lambda2, lambdaMin float64, err error) {
	s, err := AdjacencyEigenvalues(g, AdjacencyOptions{Tol: ExpanderTol})
	if err != nil {
		return 0, 0, err
	}
	if !s.Converged {
		return s.Lambda2, s.LambdaMin, fmt.Errorf("spectral: λ₂ and λₙ after %d Lanczos steps: %w", s.Iterations, ErrNotConverged)
	}
	return s.Lambda2, s.LambdaMin, nil
}
