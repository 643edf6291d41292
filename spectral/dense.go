package spectral

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// MaxDenseNodes is the largest graph the dense solvers accept: the matrix and its
// eigenvectors take 16·N² bytes, 256 MiB at the limit.
const MaxDenseNodes = 4096

// DenseMatrix returns the kind's matrix of g as a dense symmetric matrix. It fails on
// graphs with more than MaxDenseNodes nodes.
func DenseMatrix(g *Graph, kind MatrixKind) (*mat.SymDense, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if err := kind.valid(); err != nil {
		return nil, err
	}
	if g.N > MaxDenseNodes {
		return nil, fmt.Errorf("spectral: dense %s of %d nodes exceeds MaxDenseNodes = %d", kind, g.N, MaxDenseNodes)
	}
	return denseMatrix(g, kind), nil
}

// denseMatrix builds the kind's matrix of a valid, non-empty g, whatever its size.
func denseMatrix(g *Graph, kind MatrixKind) *mat.SymDense {
	n := g.N
	a := mat.NewSymDense(n, nil)
	// Each undirected edge {u, v} is counted from the row of min(u, v); a self loop's
	// two entries both land on the diagonal.
	for u := range n {
		for _, v := range g.Neighbors(u) {
			if int(v) >= u {
				a.SetSym(u, int(v), a.At(u, int(v))+1)
			}
		}
	}
	if kind == Adjacency {
		return a
	}
	for u := range n {
		du := float64(g.Degree(u))
		for v := u; v < n; v++ {
			auv := a.At(u, v)
			switch kind {
			case Laplacian:
				if u == v {
					a.SetSym(u, u, du-auv)
				} else if auv != 0 {
					a.SetSym(u, v, -auv)
				}
			case NormalizedLaplacian:
				if auv != 0 {
					auv /= math.Sqrt(du * float64(g.Degree(v)))
				}
				if u == v {
					a.SetSym(u, u, 1-auv)
				} else if auv != 0 {
					a.SetSym(u, v, -auv)
				}
			}
		}
	}
	return a
}

// DenseEigenvalues returns all N eigenvalues of the kind's matrix of g in ascending
// order, repeated by multiplicity, from a dense symmetric eigensolver (O(N³) time, O(N²)
// memory; at most MaxDenseNodes nodes).
func DenseEigenvalues(g *Graph, kind MatrixKind) ([]float64, error) {
	a, err := DenseMatrix(g, kind)
	if err != nil {
		return nil, err
	}
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		return nil, fmt.Errorf("spectral: dense %s eigensolver did not converge on %d nodes", kind, g.N)
	}
	return es.Values(nil), nil
}

// DenseEigen returns the eigenvalues of the kind's matrix of g in ascending order and the
// matching orthonormal eigenvectors as the columns of an N×N matrix. Each column's sign
// is fixed so that its entry of largest magnitude (the first such) is positive, which
// makes the result reproducible; within a repeated eigenvalue the basis is whatever the
// solver returns. At most MaxDenseNodes nodes.
func DenseEigen(g *Graph, kind MatrixKind) ([]float64, *mat.Dense, error) {
	a, err := DenseMatrix(g, kind)
	if err != nil {
		return nil, nil, err
	}
	return eigenWithSigns(a, g.N, kind)
}

// eigenWithSigns diagonalises the n×n matrix a (see DenseEigen).
func eigenWithSigns(a *mat.SymDense, n int, kind MatrixKind) ([]float64, *mat.Dense, error) {
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		return nil, nil, fmt.Errorf("spectral: dense %s eigensolver did not converge on %d nodes", kind, n)
	}
	vecs := mat.NewDense(n, n, nil)
	es.VectorsTo(vecs)
	for j := range n {
		best := 0
		for i := range n {
			if math.Abs(vecs.At(i, j)) > math.Abs(vecs.At(best, j)) {
				best = i
			}
		}
		if vecs.At(best, j) < 0 {
			for i := range n {
				vecs.Set(i, j, -vecs.At(i, j))
			}
		}
	}
	return es.Values(nil), vecs, nil
}
