package data

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// workerCount returns the number of goroutines parallelEach starts for n items and the
// workers asked for (0: GOMAXPROCS): never more than n.
func workerCount(n, workers int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return min(workers, n)
}

// parallelEach calls work(w, i) once for every i in [0, n) on workerCount(n, workers)
// goroutines, w being the goroutine's number (for scratch space of its own), and returns
// when all calls have. Which goroutine takes which item depends on scheduling, so work
// must write only to item i's place for the result not to depend on it.
func parallelEach(n, workers int, work func(w, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workerCount(n, workers) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				work(w, i)
			}
		})
	}
	wg.Wait()
}
