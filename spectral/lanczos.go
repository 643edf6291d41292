package spectral

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Defaults of LanczosOptions.
const (
	DefaultLanczosTol     = 1e-8
	DefaultLanczosMaxIter = 500
	DefaultMaxBasisBytes  = 64 << 20
)

// ExpanderTol is the residual bound to which ExpanderEigenvalues resolves λ₂ and λₙ.
const ExpanderTol = 1e-3

// ErrNotConverged reports that an iterative solver stopped at its iteration limit before
// meeting its tolerance; the values returned with it are the best estimates found.
var ErrNotConverged = errors.New("spectral: not converged")

// lanczosStream is the PCG stream of the Lanczos start vector.
const lanczosStream = 0x1a2c20

// checkEvery is how often (in Lanczos steps) the Ritz values are examined.
const checkEvery = 4

// LanczosOptions configures Lanczos. The zero value asks for the largest and the smallest
// eigenvalue to DefaultLanczosTol.
type LanczosOptions struct {
	// K is the number of extreme eigenvalues wanted at each end of the spectrum
	// (default 1).
	K int
	// KBottom, when positive, replaces K at the bottom end: the number of smallest
	// eigenvalues wanted (for example 2 at the top and 1 at the bottom for λ₂ and λₙ of
	// a graph whose top eigenvector is unknown).
	KBottom int
	// Tol is the absolute residual bound ‖Mx − θx‖ each reported Ritz pair must meet,
	// which bounds the distance from θ to an eigenvalue (default DefaultLanczosTol).
	// Eigenvalues closer together than Tol are reported once.
	Tol float64
	// MaxIter caps the Lanczos steps (default DefaultLanczosMaxIter). A fully
	// reorthogonalised run also stops at the dimension of the space searched.
	MaxIter int
	// Seed fixes the random start vector.
	Seed uint64
	// DeflateTrivial restricts the search to the orthogonal complement of the matrix's
	// known eigenvector: the constant vector for the Adjacency of a regular graph
	// (eigenvalue d) and for the Laplacian (eigenvalue 0), D^1/2·1 for the
	// NormalizedLaplacian (eigenvalue 0). The start vector and every Lanczos vector are
	// projected onto that complement, so the spectrum searched is the matrix's with one
	// copy of that eigenvalue removed. The Adjacency of a non-regular graph has no such
	// vector and is an error.
	DeflateTrivial bool
	// MaxBasisBytes bounds the memory kept for full reorthogonalisation (default
	// DefaultMaxBasisBytes; negative: none). Lanczos keeps every basis vector and
	// reorthogonalises against all of them while they fit, then drops them and goes on
	// with the three-term recurrence alone, whose loss of orthogonality only adds
	// duplicate copies of converged eigenvalues (merged within Tol) and never moves the
	// extremes.
	MaxBasisBytes int64
}

// Extremes reports the extreme eigenvalues found by Lanczos. Each distinct eigenvalue is
// reported once: a single Krylov space cannot tell multiplicities.
type Extremes struct {
	// Top holds up to K largest eigenvalues, descending.
	Top []float64
	// TopResidual[i] bounds |Top[i] − λ| for some eigenvalue λ.
	TopResidual []float64
	// Bottom holds up to K smallest eigenvalues, ascending.
	Bottom []float64
	// BottomResidual[i] bounds |Bottom[i] − λ| for some eigenvalue λ.
	BottomResidual []float64
	// Iterations is the number of Lanczos steps (matrix–vector products) taken.
	Iterations int
	// ReorthIterations is how many of them were fully reorthogonalised.
	ReorthIterations int
	// Invariant is true when the Krylov space became invariant: every distinct eigenvalue
	// the start vector reaches was found, exactly up to rounding.
	Invariant bool
	// Converged is true when every reported residual is at most Tol.
	Converged bool
}

// Lanczos computes the K largest and K smallest eigenvalues of the kind's matrix of g by
// the Lanczos method with a matrix-free, parallel CSR product. Memory is a few vectors of
// length N plus the reorthogonalisation basis (see LanczosOptions.MaxBasisBytes); the
// result depends only on g, kind and opts. A run that stops at MaxIter returns its
// estimates with Converged false and no error.
func Lanczos(g *Graph, kind MatrixKind, opts LanczosOptions) (*Extremes, error) {
	op, err := newOperator(g, kind)
	if err != nil {
		return nil, err
	}
	k, tol, maxIter, budget := opts.K, opts.Tol, opts.MaxIter, opts.MaxBasisBytes
	if k == 0 {
		k = 1
	}
	if tol == 0 {
		tol = DefaultLanczosTol
	}
	if maxIter == 0 {
		maxIter = DefaultLanczosMaxIter
	}
	kBottom := opts.KBottom
	if kBottom == 0 {
		kBottom = k
	}
	if budget == 0 {
		budget = DefaultMaxBasisBytes
	}
	switch {
	case k < 0:
		return nil, fmt.Errorf("spectral: Lanczos: K = %d is negative", k)
	case kBottom < 0:
		return nil, fmt.Errorf("spectral: Lanczos: KBottom = %d is negative", kBottom)
	case !(tol > 0) || math.IsInf(tol, 0):
		return nil, fmt.Errorf("spectral: Lanczos: tolerance %g is not a positive number", tol)
	case maxIter < 0:
		return nil, fmt.Errorf("spectral: Lanczos: MaxIter = %d is negative", maxIter)
	}
	n, dim := g.N, g.N
	var defl []float64
	if opts.DeflateTrivial {
		if defl, err = trivialEigenvector(g, kind); err != nil {
			return nil, err
		}
		dim--
	}
	if dim == 0 {
		return nil, fmt.Errorf("spectral: Lanczos: nothing left of %d node(s) after deflation", n)
	}

	rng := rand.New(rand.NewPCG(opts.Seed, lanczosStream))
	q := make([]float64, n)
	for i := range q {
		q[i] = rng.NormFloat64()
	}
	if defl != nil {
		orthogonalize(q, defl)
	}
	scale(q, 1/norm(q))
	qPrev, w := make([]float64, n), make([]float64, n)
	var basis [][]float64
	full := budget > 0
	reorth := 0
	var alpha, beta []float64
	matNorm := 0.0
	for m := 1; ; m++ {
		if full && int64(len(basis)+1)*int64(n)*8 > budget {
			full, basis = false, nil
		}
		b := 0.0
		if m > 1 {
			b = beta[m-2]
		}
		a := op.apply(q, w)
		ss := 0.0
		if defl == nil {
			for i := range w {
				w[i] -= a*q[i] + b*qPrev[i]
				ss += w[i] * w[i]
			}
		} else {
			c := 0.0
			for i := range w {
				w[i] -= a*q[i] + b*qPrev[i]
				c += defl[i] * w[i]
			}
			for i := range w {
				w[i] -= c * defl[i]
				ss += w[i] * w[i]
			}
		}
		if full {
			basis = append(basis, q)
			reorth++
			for range 2 {
				for _, v := range basis {
					orthogonalize(w, v)
				}
				if defl != nil {
					orthogonalize(w, defl)
				}
			}
			ss = dot(w, w)
		}
		alpha = append(alpha, a)
		bNext := math.Sqrt(ss)
		matNorm = max(matNorm, math.Abs(a)+b+bNext)
		// With every step reorthogonalised the basis spans the whole space after dim
		// steps; the three-term recurrence alone gives no such guarantee.
		invariant := bNext <= 1e-12*matNorm || (full && m == dim)
		if invariant || m == maxIter || m%checkEvery == 0 {
			resid := bNext
			if invariant {
				resid = 0
			}
			ext, err := ritzExtremes(alpha, beta, resid, k, kBottom, tol)
			if err != nil {
				return nil, err
			}
			if ext.Converged || invariant || m == maxIter {
				ext.Iterations, ext.ReorthIterations, ext.Invariant = m, reorth, invariant
				return ext, nil
			}
		}
		beta = append(beta, bNext)
		scale(w, 1/bNext)
		if full {
			qPrev, q, w = q, w, make([]float64, n)
		} else {
			qPrev, q, w = q, w, qPrev
		}
	}
}

// ritzExtremes diagonalises the Lanczos tridiagonal matrix (diagonal alpha, off-diagonal
// beta) and returns its k largest and kBottom smallest distinct Ritz values with the
// residual bounds resid·|last component of the Ritz vector|.
func ritzExtremes(alpha, beta []float64, resid float64, k, kBottom int, tol float64) (*Extremes, error) {
	m := len(alpha)
	d := append([]float64(nil), alpha...)
	e := make([]float64, m)
	copy(e, beta)
	z := make([]float64, m)
	z[m-1] = 1
	if err := tridiagEigen(d, e, z); err != nil {
		return nil, err
	}
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return d[idx[a]] < d[idx[b]] })
	// Merge Ritz values within tol of a group's first value; a group keeps its member
	// with the smallest residual.
	var vals, res []float64
	for j := 0; j < m; {
		first := d[idx[j]]
		best, bestRes := first, math.Inf(1)
		for ; j < m && d[idx[j]]-first <= tol; j++ {
			if r := resid * math.Abs(z[idx[j]]); r < bestRes {
				best, bestRes = d[idx[j]], r
			}
		}
		vals, res = append(vals, best), append(res, bestRes)
	}
	ext := &Extremes{Converged: true}
	for i := 0; i < k && i < len(vals); i++ {
		top := len(vals) - 1 - i
		ext.Top, ext.TopResidual = append(ext.Top, vals[top]), append(ext.TopResidual, res[top])
		if res[top] > tol {
			ext.Converged = false
		}
	}
	for i := 0; i < kBottom && i < len(vals); i++ {
		ext.Bottom, ext.BottomResidual = append(ext.Bottom, vals[i]), append(ext.BottomResidual, res[i])
		if res[i] > tol {
			ext.Converged = false
		}
	}
	return ext, nil
}

// trivialEigenvector returns the unit eigenvector that DeflateTrivial removes.
func trivialEigenvector(g *Graph, kind MatrixKind) ([]float64, error) {
	v := make([]float64, g.N)
	switch kind {
	case Adjacency, Laplacian:
		if lo, hi := g.DegreeRange(); kind == Adjacency && lo != hi {
			return nil, fmt.Errorf("spectral: cannot deflate the adjacency of a non-regular graph (degrees %d..%d)", lo, hi)
		}
		for i := range v {
			v[i] = 1
		}
	case NormalizedLaplacian:
		for i := range v {
			v[i] = math.Sqrt(float64(g.Degree(i)))
		}
		if len(g.Adj) == 0 {
			return nil, fmt.Errorf("spectral: cannot deflate the normalized Laplacian of a graph without edges")
		}
	}
	scale(v, 1/norm(v))
	return v, nil
}

// ExpanderEigenvalues returns λ₂, the second largest, and λₙ, the smallest eigenvalue of
// the adjacency matrix of g, resolved by Lanczos to ExpanderTol. For a d-regular graph it
// deflates the constant eigenvector (eigenvalue d), so λ₂ is the largest eigenvalue on
// the complement of 1 (equal to d when g is disconnected). A non-regular graph has no
// known eigenvector to deflate: λ₂ is then the second largest distinct eigenvalue of a
// top-2 search. It fails on graphs with fewer than 2 nodes, and returns its estimates
// with an error wrapping ErrNotConverged when DefaultLanczosMaxIter steps do not suffice.
func ExpanderEigenvalues(g *Graph) (lambda2, lambdaMin float64, err error) {
	if err := checkGraph(g); err != nil {
		return 0, 0, err
	}
	if g.N < 2 {
		return 0, 0, fmt.Errorf("spectral: λ₂ needs at least 2 nodes, graph has %d", g.N)
	}
	lo, hi := g.DegreeRange()
	opts := LanczosOptions{K: 1, Tol: ExpanderTol, DeflateTrivial: lo == hi}
	if lo != hi {
		opts.K, opts.KBottom = 2, 1
	}
	ext, err := Lanczos(g, Adjacency, opts)
	if err != nil {
		return 0, 0, err
	}
	lambda2, lambdaMin = ext.Top[len(ext.Top)-1], ext.Bottom[0]
	if !ext.Converged {
		return lambda2, lambdaMin, fmt.Errorf("spectral: λ₂ and λₙ after %d Lanczos steps (residuals %g, %g): %w",
			ext.Iterations, ext.TopResidual[len(ext.Top)-1], ext.BottomResidual[0], ErrNotConverged)
	}
	return lambda2, lambdaMin, nil
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func norm(x []float64) float64 { return math.Sqrt(dot(x, x)) }

func scale(x []float64, a float64) {
	for i := range x {
		x[i] *= a
	}
}

// orthogonalize removes from x its component along the unit vector v.
func orthogonalize(x, v []float64) {
	c := dot(v, x)
	for i, vi := range v {
		x[i] -= c * vi
	}
}
