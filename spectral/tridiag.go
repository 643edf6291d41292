package spectral

import (
	"fmt"
	"math"
)

// tridiagEigen computes the eigenvalues of the symmetric tridiagonal matrix with diagonal
// d and off-diagonal e (e[i] couples i and i+1; len(e) == len(d), the last entry unused)
// by the implicit QL method, overwriting d with the eigenvalues (unsorted). On entry z is
// a row vector, usually a unit vector; on exit z[i] holds the dot product of that row with
// the eigenvector of d[i], so z = e_last yields the last components Lanczos needs for its
// residual estimates at O(m²) cost instead of O(m³).
func tridiagEigen(d, e, z []float64) error {
	n := len(d)
	if n == 0 {
		return nil
	}
	e[n-1] = 0
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			m := l
			for ; m < n-1; m++ {
				dd := math.Abs(d[m]) + math.Abs(d[m+1])
				if math.Abs(e[m])+dd == dd {
					break
				}
			}
			if m == l {
				break
			}
			if iter == 60 {
				return fmt.Errorf("spectral: tridiagonal QL did not converge for eigenvalue %d of %d", l, n)
			}
			g := (d[l+1] - d[l]) / (2 * e[l])
			r := math.Hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			deflated := false
			for i := m - 1; i >= l; i-- {
				f := s * e[i]
				b := c * e[i]
				r = math.Hypot(f, g)
				e[i+1] = r
				if r == 0 {
					d[i+1] -= p
					e[m] = 0
					deflated = true
					break
				}
				s, c = f/r, g/r
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
				z[i], z[i+1] = c*z[i]-s*z[i+1], s*z[i]+c*z[i+1]
			}
			if deflated {
				continue
			}
			d[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return nil
}
