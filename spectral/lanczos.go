package spectral

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
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
	// Deflate lists further vectors of length N (eigenvectors computed earlier, say) whose
	// span is removed from the search like the trivial eigenvector's: the start vector
	// and every Lanczos vector are projected onto its orthogonal complement. They need
	// not be orthonormal (Lanczos orthonormalises copies) but must be independent.
	// Deflating computed eigenvectors one by one finds repeated eigenvalues: each run
	// finds the extreme eigenvalue of what is left, another copy if there is one.
	Deflate [][]float64
	// Vectors asks for the unit Ritz vectors of the reported values (Extremes.TopVectors
	// and BottomVectors). When the reorthogonalisation basis did not fit MaxBasisBytes
	// they are rebuilt by a second run of the same recurrence, which doubles the cost;
	// and once that recurrence has produced copies of a converged value, the true
	// residual ‖Mv − θv‖ of its vector can exceed the estimate: check it where it matters
	// (AdjacencyEigenvalues does).
	Vectors bool
	// MaxBasisBytes bounds the memory kept for full reorthogonalisation (default
	// DefaultMaxBasisBytes; negative: none). Lanczos keeps every basis vector and
	// reorthogonalises against all of them while they fit, then drops them and goes on
	// with the three-term recurrence alone, whose loss of orthogonality only adds
	// duplicate copies of converged eigenvalues (merged within Tol) and never moves the
	// extremes. A budget that holds fewer than 16 vectors of length N is not used at
	// all: the recurrence is then plain from the first step.
	MaxBasisBytes int64
}

// Extremes reports the extreme eigenvalues found by Lanczos. Each distinct eigenvalue is
// reported once: a single Krylov space cannot tell multiplicities (deflate the Ritz
// vectors found and run again for that, as AdjacencyEigenvalues does).
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
	// TopVectors[i] and BottomVectors[i] are unit Ritz vectors of Top[i] and Bottom[i],
	// orthogonal to the deflated vectors; only with LanczosOptions.Vectors.
	TopVectors, BottomVectors [][]float64
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
	cfg, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	cfg.defl, err = deflationBasis(g, kind, opts)
	if err != nil {
		return nil, err
	}
	cfg.start = randomStart(g.N, opts.Seed)
	ext, _, err := lanczos(op, cfg)
	return ext, err
}

// lanczosConfig is a resolved LanczosOptions plus the start vector.
type lanczosConfig struct {
	k, kBottom, maxIter int
	tol                 float64
	budget              int64
	defl                [][]float64 // orthonormal
	start               []float64   // any nonzero vector; projected and normalised
	vectors             bool
}

// resolve fills in the defaults and checks the options.
func (o *LanczosOptions) resolve() (lanczosConfig, error) {
	c := lanczosConfig{k: o.K, kBottom: o.KBottom, tol: o.Tol, maxIter: o.MaxIter, budget: o.MaxBasisBytes, vectors: o.Vectors}
	if c.k == 0 {
		c.k = 1
	}
	if c.tol == 0 {
		c.tol = DefaultLanczosTol
	}
	if c.maxIter == 0 {
		c.maxIter = DefaultLanczosMaxIter
	}
	if c.kBottom == 0 {
		c.kBottom = c.k
	}
	if c.budget == 0 {
		c.budget = DefaultMaxBasisBytes
	}
	switch {
	case c.k < 0:
		return c, fmt.Errorf("spectral: Lanczos: K = %d is negative", c.k)
	case c.kBottom < 0:
		return c, fmt.Errorf("spectral: Lanczos: KBottom = %d is negative", c.kBottom)
	case !(c.tol > 0) || math.IsInf(c.tol, 0):
		return c, fmt.Errorf("spectral: Lanczos: tolerance %g is not a positive number", c.tol)
	case c.maxIter < 0:
		return c, fmt.Errorf("spectral: Lanczos: MaxIter = %d is negative", c.maxIter)
	}
	return c, nil
}

// randomStart returns the seeded Gaussian start vector.
func randomStart(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, lanczosStream))
	q := make([]float64, n)
	for i := range q {
		q[i] = rng.NormFloat64()
	}
	return q
}

// deflationBasis returns an orthonormal basis of the trivial eigenvector (when asked)
// and opts.Deflate.
func deflationBasis(g *Graph, kind MatrixKind, opts LanczosOptions) ([][]float64, error) {
	var basis [][]float64
	if opts.DeflateTrivial {
		v, err := trivialEigenvector(g, kind)
		if err != nil {
			return nil, err
		}
		basis = append(basis, v)
	}
	for i, d := range opts.Deflate {
		if len(d) != g.N {
			return nil, fmt.Errorf("spectral: Lanczos: deflation vector %d has length %d, want N = %d", i, len(d), g.N)
		}
		v := append([]float64(nil), d...)
		before := norm(v)
		for range 2 {
			for _, b := range basis {
				orthogonalize(v, b)
			}
		}
		after := norm(v)
		if !(after > 1e-8*before) {
			return nil, fmt.Errorf("spectral: Lanczos: deflation vector %d is zero, not finite or dependent on the others", i)
		}
		scale(v, 1/after)
		basis = append(basis, v)
	}
	if len(basis) >= g.N {
		return nil, fmt.Errorf("spectral: Lanczos: nothing left of %d node(s) after deflating %d vector(s)", g.N, len(basis))
	}
	return basis, nil
}

// lanczos runs the method on op as configured. It also returns the finished run, whose
// vectors q, qPrev and w the caller may reuse as scratch space.
func lanczos(op *operator, cfg lanczosConfig) (*Extremes, *lanczosRun, error) {
	dim := op.g.N - len(cfg.defl)
	run, err := newLanczosRun(op, cfg)
	if err != nil {
		return nil, nil, err
	}
	for m := 1; ; m++ {
		bNext := run.step()
		// With every step reorthogonalised the basis spans the whole space after dim
		// steps; the three-term recurrence alone gives no such guarantee.
		invariant := bNext <= 1e-12*run.matNorm || (run.full && m == dim)
		if invariant || m == cfg.maxIter || m%checkEvery == 0 {
			resid := bNext
			if invariant {
				resid = 0
			}
			ext, err := ritzExtremes(run.alpha, run.beta, resid, cfg.k, cfg.kBottom, cfg.tol)
			if err != nil {
				return nil, nil, err
			}
			if ext.Converged || invariant || m == cfg.maxIter {
				ext.Iterations, ext.ReorthIterations, ext.Invariant = m, run.reorth, invariant
				if cfg.vectors {
					err = ritzVectors(cfg, run, ext)
				}
				return ext, run, err
			}
		}
		run.advance(bNext)
	}
}

// lanczosRun is the state of one Lanczos recurrence.
type lanczosRun struct {
	op          *operator
	defl        [][]float64
	budget      int64
	q, qPrev, w []float64
	basis       [][]float64 // q₁…q_m while full
	full        bool
	reorth      int
	alpha, beta []float64
	matNorm     float64
	// c holds w's components along the deflated vectors; projectLater says advance
	// still has to subtract them (see recur).
	c            []float64
	projectLater bool
}

// minBasisVectors is the fewest Lanczos vectors worth keeping for full
// reorthogonalisation: a budget that holds fewer is not used at all (a handful of
// reorthogonalised steps buys nothing, and the dropped basis would be garbage as large
// as the budget).
const minBasisVectors = 16

// newLanczosRun allocates a run and starts it from cfg.start.
func newLanczosRun(op *operator, cfg lanczosConfig) (*lanczosRun, error) {
	n := op.g.N
	r := &lanczosRun{op: op, defl: cfg.defl, budget: cfg.budget, q: make([]float64, n),
		qPrev: make([]float64, n), w: make([]float64, n)}
	return r, r.restart(cfg.start)
}

// restart resets the recurrence, reusing the run's vectors, and makes the projected,
// normalised start its first Lanczos vector. Equal starts give bit-identical runs.
func (r *lanczosRun) restart(start []float64) error {
	n := len(r.q)
	copy(r.q, start)
	for _, v := range r.defl {
		orthogonalize(r.q, v)
	}
	nq := norm(r.q)
	if !(nq > 0) || math.IsInf(nq, 0) {
		return fmt.Errorf("spectral: Lanczos: start vector is zero or not finite after deflation")
	}
	scale(r.q, 1/nq)
	clear(r.qPrev)
	r.full = r.budget >= int64(minBasisVectors)*int64(n)*8
	r.basis, r.reorth, r.alpha, r.beta, r.matNorm = nil, 0, nil, nil, 0
	return nil
}

// step applies the matrix to the current vector q, orthogonalises the result against the
// two previous vectors, the deflated ones and, while the basis fits the budget, every
// earlier vector; it records α and returns the residual norm, the next β.
func (r *lanczosRun) step() float64 {
	n := len(r.q)
	if r.full && int64(len(r.basis)+1)*int64(n)*8 > r.budget {
		r.full, r.basis = false, nil
	}
	b := 0.0
	if m := len(r.alpha); m > 0 {
		b = r.beta[m-1]
	}
	a := r.op.apply(r.q, r.w)
	ss := r.recur(a, b)
	if r.full {
		r.basis = append(r.basis, r.q)
		r.reorth++
		for range 2 {
			for _, v := range r.basis {
				orthogonalize(r.w, v)
			}
			for _, v := range r.defl {
				orthogonalize(r.w, v)
			}
		}
		ss = dot(r.w, r.w)
	}
	r.alpha = append(r.alpha, a)
	bNext := math.Sqrt(ss)
	r.matNorm = max(r.matNorm, math.Abs(a)+b+bNext)
	return bNext
}

// recur sets w ← w − a·q − b·qPrev, takes its components c_k along the deflated vectors
// and returns ‖w − Σ c_k v_k‖² = ‖w‖² − Σ c_k², all in one pass. The subtraction of
// Σ c_k v_k itself is left to advance, which fuses it with the normalisation, so that a
// deflated step costs no more passes over the vectors than a plain one. It is done here
// instead when the basis is kept (the reorthogonalisation needs the projected w) or when
// w lies mostly along the deflated vectors (the difference of squares would cancel).
func (r *lanczosRun) recur(a, b float64) (ss float64) {
	w, q, qPrev := r.w, r.q, r.qPrev
	r.projectLater = false
	if len(r.defl) == 0 {
		for i := range w {
			w[i] -= a*q[i] + b*qPrev[i]
			ss += w[i] * w[i]
		}
		return ss
	}
	if len(r.c) != len(r.defl) {
		r.c = make([]float64, len(r.defl))
	}
	c := r.c
	clear(c)
	ww := 0.0
	if len(r.defl) == 1 {
		v, c0 := r.defl[0], 0.0
		for i := range w {
			w[i] -= a*q[i] + b*qPrev[i]
			c0 += v[i] * w[i]
			ww += w[i] * w[i]
		}
		c[0] = c0
	} else {
		for i := range w {
			w[i] -= a*q[i] + b*qPrev[i]
			ww += w[i] * w[i]
		}
		for k, v := range r.defl {
			c[k] = dot(v, w)
		}
	}
	ss = ww
	for _, ck := range c {
		ss -= ck * ck
	}
	if !r.full && ss > ww/2 {
		r.projectLater = true
		return ss
	}
	for k, v := range r.defl {
		axpy(-c[k], v, w)
	}
	return dot(w, w)
}

// advance makes (w − Σ c_k v_k)/bNext the current vector (see recur).
func (r *lanczosRun) advance(bNext float64) {
	r.beta = append(r.beta, bNext)
	inv := 1 / bNext
	w := r.w
	switch {
	case !r.projectLater:
		scale(w, inv)
	case len(r.defl) == 1:
		v, c0 := r.defl[0], r.c[0]
		for i := range w {
			w[i] = (w[i] - c0*v[i]) * inv
		}
	default:
		for k, v := range r.defl {
			axpy(-r.c[k], v, w)
		}
		scale(w, inv)
	}
	if r.full {
		r.qPrev, r.q, r.w = r.q, r.w, make([]float64, len(r.q))
	} else {
		r.qPrev, r.q, r.w = r.q, r.w, r.qPrev
	}
}

// ritzVectors sets ext's Ritz vectors: Σ_j y_j q_j for the eigenvector y of the
// tridiagonal matrix belonging to each reported value. The Lanczos vectors q_j come from
// the kept basis or, when it was dropped, from a second run of the same recurrence in
// the run's own vectors.
func ritzVectors(cfg lanczosConfig, run *lanczosRun, ext *Extremes) error {
	m := len(run.alpha)
	vals := append(append([]float64(nil), ext.Top...), ext.Bottom...)
	ys, err := tridiagVectors(run.alpha, run.beta[:m-1], vals)
	if err != nil {
		return err
	}
	out := make([][]float64, len(vals))
	for i := range out {
		out[i] = make([]float64, len(run.q))
	}
	basis, beta := run.basis, run.beta
	if len(basis) != m {
		basis = nil
		if err := run.restart(cfg.start); err != nil {
			return err
		}
	}
	for j := range m {
		q := run.q
		if basis != nil {
			q = basis[j]
		}
		for i, y := range ys {
			axpy(y[j], q, out[i])
		}
		if basis == nil && j < m-1 {
			run.step()
			run.advance(beta[j])
		}
	}
	for _, v := range out {
		scale(v, 1/norm(v))
	}
	ext.TopVectors, ext.BottomVectors = out[:len(ext.Top)], out[len(ext.Top):]
	return nil
}

// tridiagVectors returns, for each value, the unit eigenvector of the symmetric
// tridiagonal matrix (diagonal alpha, off-diagonal beta) whose eigenvalue is nearest.
func tridiagVectors(alpha, beta, vals []float64) ([][]float64, error) {
	m := len(alpha)
	t := mat.NewSymDense(m, nil)
	for i := range m {
		t.SetSym(i, i, alpha[i])
		if i+1 < m {
			t.SetSym(i, i+1, beta[i])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(t, true) {
		return nil, fmt.Errorf("spectral: Lanczos: eigenvectors of the %d×%d tridiagonal matrix did not converge", m, m)
	}
	ev := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	ys := make([][]float64, len(vals))
	for i, v := range vals {
		best := 0
		for j := range ev {
			if math.Abs(ev[j]-v) < math.Abs(ev[best]-v) {
				best = j
			}
		}
		ys[i] = mat.Col(nil, best, &vecs)
	}
	return ys, nil
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

func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func norm(x []float64) float64 { return math.Sqrt(dot(x, x)) }

// axpy adds a·x to y.
func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

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
