package gexph

import (
	"errors"
	"fmt"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
)

// ErrOutOfMemory marks a run refused because its model would not fit in the machine's
// memory (see DenseAttentionBytes). RunSuite records such a run as out of memory, as
// the paper's tables mark "OOM", and goes on with the suite.
var ErrOutOfMemory = errors.New("out of memory")

// denseTensorsPerLayer is the number of [heads, n, n] float32 tensors full attention
// holds per layer for the backward pass (scores, probabilities, the dropout mask and the
// dropped probabilities), as measured on the go backend.
const denseTensorsPerLayer = 4

// DenseAttentionBytes estimates the memory of full attention's score tensors in a
// training step of cfg on ds: for each of the Layers layers, denseTensorsPerLayer
// float32 tensors of [Heads, n, n], n the nodes of the largest batch (the graph of a
// transductive data set; BatchSize times its largest graph otherwise). It is 0 for
// other attentions. The estimate leaves out everything linear in n.
func DenseAttentionBytes(cfg Config, ds *data.Dataset) float64 {
	if cfg.Attention != layers.GlobalFull || ds == nil || len(ds.Graphs) == 0 {
		return 0
	}
	n := 0
	if ds.Transductive {
		n = ds.Graphs[0].NumNodes
	} else {
		largest := 0
		for i := range ds.Graphs {
			largest = max(largest, ds.Graphs[i].NumNodes)
		}
		n = min(cfg.BatchSize, len(ds.Graphs)) * largest
	}
	nn := float64(n) * float64(n)
	return float64(cfg.Layers) * denseTensorsPerLayer * float64(cfg.Heads) * nn * 4
}

// checkMemory refuses, with ErrOutOfMemory, a run whose full attention alone would need
// more than three quarters of the machine's memory.
func checkMemory(cfg Config, ds *data.Dataset) error {
	need := DenseAttentionBytes(cfg, ds)
	total := sysinfo.MemTotalMB() * (1 << 20)
	if need == 0 || total == 0 || need <= 0.75*total {
		return nil
	}
	return fmt.Errorf("%w: full attention on %q needs about %.1f GiB for its [%d, n, n] score tensors in %d layers, more than three quarters of this machine's %.1f GiB",
		ErrOutOfMemory, ds.Name, need/(1<<30), cfg.Heads, cfg.Layers, total/(1<<30))
}
