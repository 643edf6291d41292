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

// headTensors is the number of [rows, outputs] float32 tensors a training step of the
// prediction head holds (logits, their gradient, the probabilities of the loss), and
// headParamCopies the copies of each head weight (value, gradient, AdamW's two moments).
const (
	headTensors     = 3
	headParamCopies = 4
)

// HeadBytes estimates the memory of the prediction head's output layer in a training
// step of cfg on ds: its [HiddenDim, outputs] weights headParamCopies times, and
// headTensors float32 tensors of [rows, outputs], rows the predictions of the largest
// batch (every node of a transductive graph, BatchSize times the largest graph's nodes
// for node tasks on graphs, BatchSize for graph tasks). It is what a data set with very
// many classes costs: 10⁵ classes over Amazon Computers' 13,381 nodes are 16 GB.
func HeadBytes(cfg Config, ds *data.Dataset) float64 {
	if ds == nil || len(ds.Graphs) == 0 {
		return 0
	}
	outputs := float64(max(ds.NumClasses, 1))
	rows := 0
	switch {
	case ds.Transductive:
		rows = ds.Graphs[0].NumNodes
	case ds.Task == data.NodeClassification:
		largest := 0
		for i := range ds.Graphs {
			largest = max(largest, ds.Graphs[i].NumNodes)
		}
		rows = min(cfg.BatchSize, len(ds.Graphs)) * largest
	default:
		rows = min(cfg.BatchSize, len(ds.Graphs))
	}
	return 4 * outputs * (headParamCopies*float64(cfg.HiddenDim) + headTensors*float64(rows))
}

// checkMemory refuses, with ErrOutOfMemory, a run whose full attention or prediction
// head alone would need more than three quarters of the machine's memory.
func checkMemory(cfg Config, ds *data.Dataset) error {
	total := sysinfo.MemTotalMB() * (1 << 20)
	if total == 0 {
		return nil
	}
	if need := DenseAttentionBytes(cfg, ds); need > 0.75*total {
		return fmt.Errorf("%w: full attention on %q needs about %.1f GiB for its [%d, n, n] score tensors in %d layers, more than three quarters of this machine's %.1f GiB",
			ErrOutOfMemory, ds.Name, need/(1<<30), cfg.Heads, cfg.Layers, total/(1<<30))
	}
	if need := HeadBytes(cfg, ds); need > 0.75*total {
		return fmt.Errorf("%w: the prediction head of %q's %d classes needs about %.1f GiB, more than three quarters of this machine's %.1f GiB",
			ErrOutOfMemory, ds.Name, ds.NumClasses, need/(1<<30), total/(1<<30))
	}
	return nil
}
