package spectral

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestTridiagEigenMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, m := range []int{1, 2, 7, 60} {
		alpha, beta := make([]float64, m), make([]float64, m)
		a := mat.NewSymDense(m, nil)
		for i := range m {
			alpha[i] = rng.NormFloat64()
			a.SetSym(i, i, alpha[i])
			if i+1 < m {
				beta[i] = rng.Float64() + 0.1
				a.SetSym(i, i+1, beta[i])
			}
		}
		z := make([]float64, m)
		z[m-1] = 1
		if err := tridiagEigen(alpha, beta, z); err != nil {
			t.Fatal(err)
		}
		var es mat.EigenSym
		if !es.Factorize(a, true) {
			t.Fatal("EigenSym failed")
		}
		want := es.Values(nil)
		vecs := mat.NewDense(m, m, nil)
		es.VectorsTo(vecs)
		idx := make([]int, m)
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(i, j int) bool { return alpha[idx[i]] < alpha[idx[j]] })
		for i, j := range idx {
			if math.Abs(alpha[j]-want[i]) > 1e-12 {
				t.Errorf("m=%d: eigenvalue %d = %v, want %v", m, i, alpha[j], want[i])
			}
			if got, w := math.Abs(z[j]), math.Abs(vecs.At(m-1, i)); math.Abs(got-w) > 1e-10 {
				t.Errorf("m=%d: last component %d = %v, want %v", m, i, got, w)
			}
		}
	}
}
