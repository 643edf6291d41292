// Package posenc computes the positional encodings of a data set's graphs on the host,
// once per graph and in parallel: Laplacian eigenpairs (LapPE, ESLapPE) or random-walk
// return probabilities (RWSE), from package spectral, laid out as the model's inputs
// read them.
package posenc

import (
	"fmt"
	"sync"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/spectral"
)

// Values holds one graph's positional encoding, row-major [nodes × k]: Laplacian
// eigenvectors (Vec), their eigenvalues repeated per node (Val) and the valid slots
// (Mask: 0 for the padding of graphs with fewer than k nodes), or random-walk return
// probabilities (Vec alone, RWSE).
type Values struct {
	Vec, Val, Mask []float32
}

// Cache computes each graph's positional encoding once; it is safe for concurrent use.
type Cache struct {
	rwse bool
	k    int
	mu   sync.Mutex
	byID map[int]*Values
}

// NewCache returns a cache of k-slot encodings: the Laplacian's k eigenpairs, or with
// rwse the k-step random-walk return probabilities.
func NewCache(rwse bool, k int) *Cache {
	return &Cache{rwse: rwse, k: k, byID: map[int]*Values{}}
}

// Get returns graph gi's encoding, computing it on first use.
func (c *Cache) Get(ds *data.Dataset, gi int) (*Values, error) {
	c.mu.Lock()
	pe, ok := c.byID[gi]
	c.mu.Unlock()
	if ok {
		return pe, nil
	}
	pe, err := compute(&ds.Graphs[gi], c.rwse, c.k)
	if err != nil {
		return nil, fmt.Errorf("positional encoding of graph %d: %w", gi, err)
	}
	c.mu.Lock()
	c.byID[gi] = pe
	c.mu.Unlock()
	return pe, nil
}

// Precompute fills the cache for the given graphs with workers goroutines.
func (c *Cache) Precompute(ds *data.Dataset, graphs []int, workers int) error {
	if workers < 1 {
		workers = 1
	}
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var first error
			for gi := range next {
				if first == nil {
					_, first = c.Get(ds, gi)
				}
			}
			errs <- first
		}()
	}
	for _, gi := range graphs {
		next <- gi
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// compute returns the positional encoding of one graph: the k eigenpairs of the
// combinatorial Laplacian D − A with the smallest eigenvalues (GraphGPS's laplacian_norm
// "none", trivial ones included; see spectral.ComputeLapPE), or with rwse the k-step
// random-walk return probabilities (see spectral.ComputeRWSE).
func compute(g *data.Graph, rwse bool, k int) (*Values, error) {
	if rwse {
		rw, err := spectral.ComputeRWSE(g.NumNodes, g.Src, g.Dst, k)
		if err != nil {
			return nil, err
		}
		return &Values{Vec: rw}, nil
	}
	lap, err := spectral.ComputeLapPE(g.NumNodes, g.Src, g.Dst, k, spectral.LapPEOptions{IncludeTrivial: true})
	if err != nil {
		return nil, err
	}
	n := g.NumNodes
	pe := &Values{Vec: lap.Vecs, Val: make([]float32, n*k), Mask: make([]float32, n*k)}
	for i := 0; i < n; i++ {
		copy(pe.Val[i*k:(i+1)*k], lap.Vals)
		for c := 0; c < lap.NumValid; c++ {
			pe.Mask[i*k+c] = 1
		}
	}
	return pe, nil
}
