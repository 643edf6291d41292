package spectral

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// RamanujanBound returns 2√(d−1), the Alon–Boppana limit of max(|λ₂|, |λₙ|) for
// d-regular graphs; a d-regular graph within it is Ramanujan. It is NaN for d < 1.
func RamanujanBound(d int) float64 { return 2 * math.Sqrt(float64(d-1)) }

// IsNearRamanujan reports whether max(|λ₂|, |λₙ|) ≤ 2√(d−1) + tol, the acceptance test
// for random regular expanders (Friedman: it holds with high probability for any fixed
// tol > 0).
func IsNearRamanujan(lambda2, lambdaMin float64, d int, tol float64) bool {
	return max(math.Abs(lambda2), math.Abs(lambdaMin)) <= RamanujanBound(d)+tol
}

// Epsilon returns max(|λ₂|, |λₙ|)/d: a d-regular graph is an ε-expander for every
// ε ≥ Epsilon. It is +Inf for d ≤ 0.
func Epsilon(lambda2, lambdaMin float64, d int) float64 {
	if d <= 0 {
		return math.Inf(1)
	}
	return max(math.Abs(lambda2), math.Abs(lambdaMin)) / float64(d)
}

// SpectralGap returns the one-sided spectral gap d − λ₂ of a d-regular graph; the
// two-sided gap is d·(1 − Epsilon).
func SpectralGap(d int, lambda2 float64) float64 { return float64(d) - lambda2 }

// CompleteApproximation bounds how well L_G/d approximates L_K/n, the Laplacian of the
// complete graph K_n scaled so that it is the identity on the complement of the constant
// vector: Lo·L_K/n ⪯ L_G/d ⪯ Hi·L_K/n on the ratios checked.
type CompleteApproximation struct {
	// Lo and Hi are the least and the largest ratio (xᵀL_G x/d)/(xᵀL_K x/n) found.
	Lo, Hi float64
}

// Epsilon returns the least ε with (1−ε)L_K/n ⪯ L_G/d ⪯ (1+ε)L_K/n on the ratios checked.
func (a CompleteApproximation) Epsilon() float64 { return max(1-a.Lo, a.Hi-1) }

// Holds reports whether (1−eps)L_K/n ⪯ L_G/d ⪯ (1+eps)L_K/n on the ratios checked.
func (a CompleteApproximation) Holds(eps float64) bool { return a.Epsilon() <= eps }

// ApproximateCompleteEigen bounds L_G/d against L_K/n through the Laplacian eigenvalues
// of g on the complement of the constant vector, μ₂ ≤ … ≤ μₙ: since L_K/n is the
// identity there, the tightest bounds are Lo = μ₂/d and Hi = μₙ/d. Graphs of at most
// AutoDenseNodes nodes use the dense solver; larger ones Lanczos with the constant vector
// deflated, to ExpanderTol/d.
func ApproximateCompleteEigen(g *Graph, d float64) (CompleteApproximation, error) {
	if err := checkGraph(g); err != nil {
		return CompleteApproximation{}, err
	}
	if !(d > 0) || math.IsInf(d, 0) {
		return CompleteApproximation{}, fmt.Errorf("spectral: degree scale %g is not a positive number", d)
	}
	if g.N < 2 {
		return CompleteApproximation{}, fmt.Errorf("spectral: complete-graph approximation needs at least 2 nodes, graph has %d", g.N)
	}
	lo, hi, err := complementExtremes(g, Laplacian)
	if err != nil {
		return CompleteApproximation{}, err
	}
	return CompleteApproximation{Lo: lo / d, Hi: hi / d}, nil
}

// complementExtremes returns the smallest and largest eigenvalue of the kind's matrix on
// the complement of its trivial eigenvector (see LanczosOptions.DeflateTrivial), densely
// up to AutoDenseNodes nodes and by Lanczos to ExpanderTol beyond.
func complementExtremes(g *Graph, kind MatrixKind) (lo, hi float64, err error) {
	if g.N <= AutoDenseNodes {
		vals, err := DenseEigenvalues(g, kind)
		if err != nil {
			return 0, 0, err
		}
		if kind == Adjacency {
			return vals[0], vals[g.N-2], nil // the trivial eigenvalue d is the largest
		}
		return vals[1], vals[g.N-1], nil // the trivial eigenvalue 0 is the smallest
	}
	ext, err := Lanczos(g, kind, LanczosOptions{Tol: ExpanderTol, DeflateTrivial: true})
	if err != nil {
		return 0, 0, err
	}
	if !ext.Converged {
		return ext.Bottom[0], ext.Top[0], fmt.Errorf("spectral: %s extremes after %d Lanczos steps: %w",
			kind, ext.Iterations, ErrNotConverged)
	}
	return ext.Bottom[0], ext.Top[0], nil
}

// quadStream is the PCG stream of the test vectors of ApproximateCompleteSampled.
const quadStream = 0x9adf

// ApproximateCompleteSampled bounds L_G/d against L_K/n through the quadratic forms
// xᵀL_G x/d and xᵀL_K x/n = ‖x‖² − (Σx)²/n on trials seeded test vectors x, cycling
// through three families: Gaussian vectors, indicators of random node sets (whose ratio
// compares the cut of g with the cut of K_n) and indicators of BFS balls of random size
// (the sets of smallest boundary, where an expander's cuts are weakest). Every ratio is a
// Rayleigh quotient of L_G/d on the complement of the constant vector, so the result lies
// inside ApproximateCompleteEigen's bounds; its Epsilon is the worst deviation found.
func ApproximateCompleteSampled(g *Graph, d float64, trials int, seed uint64) (CompleteApproximation, error) {
	if err := checkGraph(g); err != nil {
		return CompleteApproximation{}, err
	}
	switch {
	case !(d > 0) || math.IsInf(d, 0):
		return CompleteApproximation{}, fmt.Errorf("spectral: degree scale %g is not a positive number", d)
	case trials < 1:
		return CompleteApproximation{}, fmt.Errorf("spectral: %d test vectors, need at least 1", trials)
	case g.N < 2:
		return CompleteApproximation{}, fmt.Errorf("spectral: complete-graph approximation needs at least 2 nodes, graph has %d", g.N)
	}
	rng := rand.New(rand.NewPCG(seed, quadStream))
	n := g.N
	x := make([]float64, n)
	bfs := newBFS(n)
	res := CompleteApproximation{Lo: math.Inf(1), Hi: math.Inf(-1)}
	for t := 0; t < trials; t++ {
		clear(x)
		switch t % 3 {
		case 0:
			for i := range x {
				x[i] = rng.NormFloat64()
			}
		case 1:
			for i := range x {
				if rng.IntN(2) == 1 {
					x[i] = 1
				}
			}
		case 2:
			bfs.run(g, rng.IntN(n))
			for _, v := range bfs.queue[:1+rng.IntN(len(bfs.queue))] {
				x[v] = 1
			}
		}
		sum, sq, lg := 0.0, 0.0, 0.0
		for u := range n {
			sum += x[u]
			sq += x[u] * x[u]
			for _, v := range g.Neighbors(u) {
				diff := x[u] - x[v]
				lg += diff * diff
			}
		}
		lk := sq - sum*sum/float64(n)
		if lk <= 1e-12*sq {
			continue // x is (numerically) constant: both forms vanish
		}
		r := (lg / 2 / d) / lk
		res.Lo, res.Hi = min(res.Lo, r), max(res.Hi, r)
	}
	if res.Lo > res.Hi {
		return res, fmt.Errorf("spectral: all %d test vectors were constant", trials)
	}
	return res, nil
}
