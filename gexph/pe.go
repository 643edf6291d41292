package gexph

import (
	"fmt"
	"sync"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/spectral"
)

// peValues holds one graph's positional encoding, row-major [nodes × k]: Laplacian
// eigenvectors (vec), their eigenvalues repeated per node (val) and the valid slots
// (mask: 0 for the padding of graphs with fewer than k nodes), or random-walk return
// probabilities (vec, RWSE).
type peValues struct {
	vec, val, mask []float32
}

// peCache computes each graph's positional encoding once.
type peCache struct {
	kind string
	k    int
	mu   sync.Mutex
	byID map[int]*peValues
}

func newPECache(kind string, k int) *peCache {
	return &peCache{kind: kind, k: k, byID: map[int]*peValues{}}
}

// get returns graph gi's encoding, computing it on first use.
func (c *peCache) get(ds *data.Dataset, gi int) (*peValues, error) {
	c.mu.Lock()
	pe, ok := c.byID[gi]
	c.mu.Unlock()
	if ok {
		return pe, nil
	}
	pe, err := computePE(&ds.Graphs[gi], c.kind, c.k)
	if err != nil {
		return nil, fmt.Errorf("positional encoding of graph %d: %w", gi, err)
	}
	c.mu.Lock()
	c.byID[gi] = pe
	c.mu.Unlock()
	return pe, nil
}

// precompute fills the cache for the given graphs with workers goroutines.
func (c *peCache) precompute(ds *data.Dataset, graphs []int, workers int) error {
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
					_, first = c.get(ds, gi)
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

// computePE returns the positional encoding of kind for one graph: for PELap and
// PEESLap the k eigenpairs of the combinatorial Laplacian D − A with the smallest
// eigenvalues (GraphGPS's laplacian_norm "none", trivial ones included; see
// spectral.ComputeLapPE), for PERWSE the k-step random-walk return probabilities (see
// spectral.ComputeRWSE).
func computePE(g *data.Graph, kind string, k int) (*peValues, error) {
	if kind == PERWSE {
		rw, err := spectral.ComputeRWSE(g.NumNodes, g.Src, g.Dst, k)
		if err != nil {
			return nil, err
		}
		return &peValues{vec: rw}, nil
	}
	lap, err := spectral.ComputeLapPE(g.NumNodes, g.Src, g.Dst, k, spectral.LapPEOptions{IncludeTrivial: true})
	if err != nil {
		return nil, err
	}
	n := g.NumNodes
	pe := &peValues{vec: lap.Vecs, val: make([]float32, n*k), mask: make([]float32, n*k)}
	for i := 0; i < n; i++ {
		copy(pe.val[i*k:(i+1)*k], lap.Vals)
		for c := 0; c < lap.NumValid; c++ {
			pe.mask[i*k+c] = 1
		}
	}
	return pe, nil
}
