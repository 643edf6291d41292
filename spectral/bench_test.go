package spectral

import (
	"fmt"
	"testing"
)

// BenchmarkExpanderEigenvalues measures λ₂ and λₙ of 6-regular random graphs (the
// n = 10⁶ target is ≤ 10 s and ≤ 300 MB peak including the graph).
func BenchmarkExpanderEigenvalues(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := randomRegular(b, n, 6, 1)
			b.ReportAllocs()
			b.ResetTimer()
			var l2, lmin float64
			for b.Loop() {
				var err error
				if l2, lmin, err = ExpanderEigenvalues(g); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(l2, "lambda2")
			b.ReportMetric(lmin, "lambda_min")
		})
	}
}

// BenchmarkMatVec measures one parallel adjacency product on a 6-regular graph of 10⁶
// nodes, the unit cost of Lanczos and of the random walk.
func BenchmarkMatVec(b *testing.B) {
	g := randomRegular(b, 1_000_000, 6, 1)
	op, err := newOperator(g, Adjacency)
	if err != nil {
		b.Fatal(err)
	}
	x, y := make([]float64, g.N), make([]float64, g.N)
	for i := range x {
		x[i] = float64(i % 7)
	}
	b.ResetTimer()
	for b.Loop() {
		op.apply(x, y)
	}
}
