package gexph

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
)

// ErrOutOfMemory marks a run refused because its model would not fit in the process's
// memory budget (see CheckMemory and the estimates DenseAttentionBytes, HeadBytes,
// ParamBytes, PEBytes and StepBytes). RunSuite records such a run as out of memory, as
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
	if !cfg.Attention.Quadratic() || ds == nil || len(ds.Graphs) == 0 {
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

// Estimates of a training step on the go backend, measured with bench -case model on
// the demo preset (hidden 32 and 128, 16 and 64 graphs a batch): the peak grew by five
// float32 [rows, HiddenDim] tensors per layer for each local and each interaction edge;
// stepEdgeTensors, a little less, leaves the garbage a collection would reclaim out.
// stepNodeTensors counts the node states per layer (inputs, attention and FFN outputs,
// norms and their gradients). paramsPerLayer and paramCopies count a GPS layer's
// weights (GatedGCN 5, attention 5, FFN 4 matrices of [HiddenDim, HiddenDim], a little
// less than measured) and each weight's copies (value, gradient, AdamW's two moments).
const (
	stepEdgeTensors = 4
	stepNodeTensors = 16
	paramsPerLayer  = 13
	paramCopies     = 4
)

// Edge tensors a layer keeps per edge, in [edges, HiddenDim] float32 units, where they
// were measured since the fused kernels (bench -case model, 2026-11-26, the slope of
// the peak between two batch sizes): GatedGCN, which updates edge states, 7.8 (pattern
// preset, 16 to 64 graphs); GCN 1.6 and Exphormer attention 1.25 an interaction edge
// (scaling preset at width 64, 10⁵ and 2·10⁵ nodes, each layer kind alone and both).
// They are rounded up; the kinds not measured keep stepEdgeTensors.
var (
	mpnnEdgeTensors      = map[layers.LocalModel]float64{layers.LocalGatedGCN: 8, layers.LocalGCN: 2}
	attentionEdgeTensors = map[layers.GlobalModel]float64{layers.GlobalExphormer: 1.5}
)

// edgeTensors is the measured figure of kind in table, else stepEdgeTensors.
func edgeTensors[K comparable](table map[K]float64, kind K) float64 {
	if t, ok := table[kind]; ok {
		return t
	}
	return stepEdgeTensors
}

// ParamBytes estimates the memory of the model's weights in training, before the model
// is built: paramsPerLayer [HiddenDim, HiddenDim] matrices a GPS layer and one a
// pre-message-passing or head layer, each paramCopies times. It is what a huge
// hidden_dim costs.
func ParamBytes(cfg Config) float64 {
	h := float64(max(cfg.HiddenDim, 0))
	matrices := paramsPerLayer*float64(max(cfg.Layers, 0)) + float64(max(cfg.PreMPLayers, 0)) + float64(max(cfg.HeadLayers, 1))
	return 4 * paramCopies * h * h * matrices
}

// PEBytes estimates the memory of the positional encodings of ds: PESize float32 values
// for every node of every graph, which are computed once for the whole data set, and
// none without encodings.
func PEBytes(cfg Config, ds *data.Dataset) float64 {
	if cfg.PE == PENone || ds == nil {
		return 0
	}
	nodes := 0.0
	for i := range ds.Graphs {
		nodes += float64(ds.Graphs[i].NumNodes)
	}
	return 4 * float64(max(cfg.PESize, 0)) * nodes
}

// batchSize returns the nodes and the local edges of the largest batch of cfg on ds:
// the whole graph of a transductive data set, else the sum over the BatchSize graphs
// with most nodes (and those with most edges).
func batchSize(cfg Config, ds *data.Dataset) (nodes, edges float64) {
	if ds == nil || len(ds.Graphs) == 0 {
		return 0, 0
	}
	if ds.Transductive {
		return float64(ds.Graphs[0].NumNodes), float64(len(ds.Graphs[0].Src))
	}
	ns := make([]int, len(ds.Graphs))
	es := make([]int, len(ds.Graphs))
	for i := range ds.Graphs {
		ns[i], es[i] = ds.Graphs[i].NumNodes, len(ds.Graphs[i].Src)
	}
	slices.Sort(ns)
	slices.Sort(es)
	for i := range min(max(cfg.BatchSize, 1), len(ns)) {
		nodes += float64(ns[len(ns)-1-i])
		edges += float64(es[len(es)-1-i])
	}
	return nodes, edges
}

// StepBytes estimates the memory of a training step of cfg on ds besides its weights:
// per layer, float32 [edges, HiddenDim] tensors (mpnnEdgeTensors, attentionEdgeTensors)
// for every local edge (when there is a message-passing layer) and every edge of the
// interaction graph (local, expander — ExpanderDegree a node — and virtual-node edges,
// when there is an attention), and stepNodeTensors [rows, HiddenDim] tensors, rows the
// nodes and virtual nodes of the largest batch. A mini-batch run (BatchNodes > 0) holds
// instead the whole interaction graph's endpoints and three [nodes, HiddenDim] states
// (its layer-wise evaluation's input, output and a chunk). Spexphormer's second stage
// (SparseAttentionK > 0) attends over k edges a node instead and holds each layer's
// edge list (8 bytes an edge).
func StepBytes(cfg Config, ds *data.Dataset) float64 {
	if ds == nil || len(ds.Graphs) == 0 {
		return 0
	}
	nodes, edges := batchSize(cfg, ds)
	h := float64(max(cfg.HiddenDim, 0))
	hEdges := 0.0
	if cfg.LocalEdges {
		hEdges += edges
	}
	if cfg.ExpanderEdges {
		hEdges += nodes * float64(cfg.ExpanderDegree)
	}
	if cfg.GlobalEdges {
		hEdges += 2 * nodes * float64(cfg.VirtualNodes)
	}
	if cfg.SparseAttentionK > 0 {
		hEdges = nodes * float64(cfg.SparseAttentionK)
		return 8*hEdges*float64(max(cfg.Layers, 0)) + stepBytes(cfg, nodes, edges, hEdges)
	}
	if ds.Transductive && cfg.BatchNodes > 0 {
		return 8*hEdges + 4*3*nodes*h
	}
	return stepBytes(cfg, nodes, edges, hEdges)
}

// stepBytes is StepBytes of a full batch of the given nodes, local edges and
// interaction edges.
func stepBytes(cfg Config, nodes, edges, hEdges float64) float64 {
	perLayer := stepNodeTensors * nodes
	if cfg.MPNN.PassesMessages() {
		perLayer += edgeTensors(mpnnEdgeTensors, cfg.MPNN) * edges
	}
	if cfg.Attention.Attends() {
		perLayer += edgeTensors(attentionEdgeTensors, cfg.Attention) * hEdges
	}
	return 4 * float64(max(cfg.HiddenDim, 0)) * float64(max(cfg.Layers, 0)) * perLayer
}

// CheckMemory refuses, with ErrOutOfMemory, training cfg on ds where it would not fit
// in the process's memory budget (sysinfo.MemoryBudget: three quarters of the machine's
// memory, less under an address-space limit): its full attention, its prediction head,
// its weights, its positional encodings or its training step, each estimated before
// anything is built. Train calls it (unless TrainOptions.NoMemoryCheck); so do
// programs that build a model and step it themselves, such as benchmarks.
func CheckMemory(cfg Config, ds *data.Dataset) error {
	return checkMemoryWithin(cfg, ds, sysinfo.MemoryBudget())
}

// checkMemoryWithin is CheckMemory against the given budget.
func checkMemoryWithin(cfg Config, ds *data.Dataset, budget sysinfo.Budget) error {
	if ds == nil {
		return checkWeights(cfg, budget)
	}
	checks := []struct {
		what string
		need float64
	}{
		{fmt.Sprintf("full attention on %q (its [%d, n, n] score tensors in %d layers)", ds.Name, cfg.Heads, cfg.Layers), DenseAttentionBytes(cfg, ds)},
		{fmt.Sprintf("the prediction head of %q's %d classes", ds.Name, ds.NumClasses), HeadBytes(cfg, ds)},
	}
	if err := checkWeights(cfg, budget); err != nil {
		return err
	}
	for _, c := range checks {
		if err := budget.Refuse(c.what, c.need); err != nil {
			return fmt.Errorf("%w: %w", ErrOutOfMemory, err)
		}
	}
	nodes, edges := batchSize(cfg, ds)
	step := fmt.Sprintf("a training step on %q (hidden_dim %d, %d layers, batch_size %d, expander_degree %d, virtual_nodes %d, sparse_attention_k %d: %.0f nodes and %.0f edges a batch)",
		ds.Name, cfg.HiddenDim, cfg.Layers, cfg.BatchSize, cfg.ExpanderDegree, cfg.VirtualNodes, cfg.SparseAttentionK, nodes, edges)
	if err := budget.Refuse(fmt.Sprintf("the positional encodings of %q (pe_size %d)", ds.Name, cfg.PESize), PEBytes(cfg, ds)); err != nil {
		return fmt.Errorf("%w: %w", ErrOutOfMemory, err)
	}
	if err := budget.Refuse(step, ParamBytes(cfg)+StepBytes(cfg, ds)+HeadBytes(cfg, ds)+PEBytes(cfg, ds)); err != nil {
		return fmt.Errorf("%w: %w; lower hidden_dim, layers, batch_size, expander_degree or virtual_nodes", ErrOutOfMemory, err)
	}
	return nil
}

// checkWeights refuses, with ErrOutOfMemory, a config whose weights alone (ParamBytes)
// exceed the budget: NewModel checks it before creating any variable.
func checkWeights(cfg Config, budget sysinfo.Budget) error {
	if err := budget.Refuse(fmt.Sprintf("the weights of hidden_dim %d in %d layers", cfg.HiddenDim, cfg.Layers), ParamBytes(cfg)); err != nil {
		return fmt.Errorf("%w: %w", ErrOutOfMemory, err)
	}
	return nil
}
