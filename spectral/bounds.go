package spectral

import (
	"fmt"
	"math"
)

// BallBounds returns, for k = 0..maxK, bounds on the ball sizes |B(v, k)| of any node v
// of a connected d-regular ε-expander on n nodes (ε = max(|λ₂|, |λₙ|)/d):
//
//   - upper[k] is the Moore bound min(n, 1 + d·((d−1)^k − 1)/(d−2)) (1 + 2k for d = 2),
//     which holds for every graph of maximum degree d;
//   - lower[k] follows Tanner's vertex-expansion bound |N(S)| ≥ |S|/(ε² + (1−ε²)|S|/n):
//     b₀ = 1 and b_{k+1} = min(n, b_k/(ε² + (1−ε²)·b_k/n)). This is the growth
//     |B(v, k)| ≥ min((1+c)^k, n) of the paper's ball-growth theorem made explicit.
//
// Self loops and parallel edges only shrink balls, so upper stays valid for them; lower
// needs ε of the graph itself.
func BallBounds(n, d int, eps float64, maxK int) (lower, upper []float64, err error) {
	if n < 1 || d < 1 || maxK < 0 {
		return nil, nil, fmt.Errorf("spectral: ball bounds: need n ≥ 1, d ≥ 1, maxK ≥ 0 (got n=%d, d=%d, maxK=%d)", n, d, maxK)
	}
	if !(eps >= 0 && eps <= 1) {
		return nil, nil, fmt.Errorf("spectral: ball bounds: ε=%v outside [0, 1]", eps)
	}
	nf := float64(n)
	lower = make([]float64, maxK+1)
	upper = make([]float64, maxK+1)
	b, frontier, total := 1.0, 1.0, 1.0
	for k := 0; k <= maxK; k++ {
		lower[k] = b
		upper[k] = math.Min(nf, total)
		b = math.Min(nf, b/(eps*eps+(1-eps*eps)*b/nf))
		// Moore: the first shell has d nodes, each later one at most d−1 times the previous.
		if k == 0 {
			frontier = float64(d)
		} else {
			frontier *= float64(d - 1)
		}
		total += frontier
	}
	return lower, upper, nil
}

// DiameterBounds returns bounds on the diameter of a connected d-regular ε-expander on
// n ≥ 2 nodes: lower is the Moore bound (the least k whose Moore ball reaches n), upper
// is Chung's bound ⌈log(n−1)/log(1/ε)⌉ (−1 when ε ≥ 1, where it says nothing; 1 when
// ε = 0).
func DiameterBounds(n, d int, eps float64) (lower, upper int, err error) {
	if n < 2 || d < 1 {
		return 0, 0, fmt.Errorf("spectral: diameter bounds: need n ≥ 2 and d ≥ 1 (got n=%d, d=%d)", n, d)
	}
	if !(eps >= 0 && eps <= 1) {
		return 0, 0, fmt.Errorf("spectral: diameter bounds: ε=%v outside [0, 1]", eps)
	}
	if d == 1 && n > 2 {
		return 0, 0, fmt.Errorf("spectral: diameter bounds: a 1-regular graph on %d nodes is disconnected", n)
	}
	reach, frontier := 1.0, float64(d)
	for lower = 0; reach < float64(n); lower++ {
		reach += frontier
		frontier *= float64(d - 1)
	}
	switch {
	case eps >= 1:
		upper = -1
	case eps == 0:
		upper = 1
	default:
		upper = int(math.Ceil(math.Log(float64(n-1)) / math.Log(1/eps)))
	}
	return lower, upper, nil
}
