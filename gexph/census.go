package gexph

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// Census says what a compiled program of the model is made of, on any backend and
// before any device runs it: its operations by kind, its gathers and scatters with
// their sizes, and what crosses between the host and the device at each call. The
// operations are GoMLX's, which the XLA backend lowers one to one into HLO (the pure-Go
// backend fuses some of them later, which the census does not see), so a change's
// effect on the program a GPU runs shows here on a CPU first.
type Census struct {
	// Program is "train step" (forward, backward, clipping, AdamW) or "inference".
	Program string `json:"program"`
	// Ops counts the program's operations, parameters and constants included; Elements
	// totals the elements of their outputs (a proxy for the memory traffic).
	Ops      int   `json:"ops"`
	Elements int64 `json:"elements"`
	// ByKind counts the operations of each kind, the most frequent first.
	ByKind []OpCount `json:"by_kind"`
	// Indexed lists the gathers and scatters, grouped by kind and shapes, the largest
	// first.
	Indexed []IndexedOp `json:"indexed"`
	// Transfers is what one call moves between host and device.
	Transfers Transfers `json:"transfers"`
	// Fusions counts, on the pure-Go backend, the nodes its graph transformations fused
	// from several operations, by fused kernel (third_party/compute's PATCHES.md): the
	// speed of that backend rests on them. Empty on other backends.
	Fusions map[string]int `json:"fusions,omitempty"`
}

// OpCount is how many operations of one kind a program has, and the elements of their
// outputs.
type OpCount struct {
	Kind     string `json:"kind"`
	Count    int    `json:"count"`
	Elements int64  `json:"elements"`
}

// IndexedOp is a group of gathers or scatters of the same kind and shapes: Operand the
// table gathered from or scattered into, Indices the index array, Output the result.
type IndexedOp struct {
	Kind    string `json:"kind"`
	Operand []int  `json:"operand"`
	Indices []int  `json:"indices"`
	Output  []int  `json:"output"`
	Count   int    `json:"count"`
}

// Transfers is what one call of a program moves between host and device: the batch's
// input arrays (host to device), the results the caller copies back (device to host:
// the loss and the outputs of a training step, the outputs of an inference pass), and
// the variables, which stay on the device between calls.
type Transfers struct {
	HostToDevice      int   `json:"host_to_device"`
	HostToDeviceBytes int64 `json:"host_to_device_bytes"`
	DeviceToHost      int   `json:"device_to_host"`
	DeviceToHostBytes int64 `json:"device_to_host_bytes"`
	Variables         int   `json:"variables"`
	VariableBytes     int64 `json:"variable_bytes"`
}

// Census compiles the program of a training step (train) or of an inference pass on
// b's shapes and counts what it is made of (see Census).
func (m *Model) Census(b *Batch, train bool) (*Census, error) {
	if err := m.checkPresence(b); err != nil {
		return nil, err
	}
	c := &Census{Program: "inference"}
	var e *model.Exec
	if train {
		c.Program = "train step"
		if err := m.prepareTraining(); err != nil {
			return nil, err
		}
		e = m.trainExec
	} else {
		var err error
		e, err = model.NewExec(m.backend, m.store, func(scope *model.Scope, ins []*Node) []*Node {
			return asFloat32([]*Node{m.modelGraph(scope, m.bind(ins))})
		})
		if err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
		defer e.Finalize()
	}
	ins := b.tensors()
	inShapes := make([]shapes.Shape, len(ins))
	for i, t := range ins {
		inShapes[i] = t.(*tensors.Tensor).Shape()
		c.Transfers.HostToDevice++
		c.Transfers.HostToDeviceBytes += inShapes[i].ByteSize()
	}
	g, err := e.Compile(inShapes...)
	if err != nil {
		return nil, fmt.Errorf("census: compiling the %s: %w", c.Program, err)
	}
	c.count(g.Nodes())
	m.countTransfers(c, b, train)
	if m.goBackend() {
		if c.Fusions, err = gobackend.Fusions(g.Executable()); err != nil {
			return nil, fmt.Errorf("census: %w", err)
		}
	}
	return c, nil
}

// count tallies the operations of a program by kind and groups its gathers and scatters.
func (c *Census) count(nodes []*Node) {
	kinds := map[string]*OpCount{}
	indexed := map[string]*IndexedOp{}
	for _, n := range nodes {
		kind := n.Type().String()
		size := int64(n.Shape().Size())
		k := kinds[kind]
		if k == nil {
			k = &OpCount{Kind: kind}
			kinds[kind] = k
		}
		k.Count++
		k.Elements += size
		c.Ops++
		c.Elements += size
		if op := indexedOp(n, kind); op != nil {
			key := fmt.Sprint(op.Kind, op.Operand, op.Indices, op.Output)
			if indexed[key] == nil {
				indexed[key] = op
			}
			indexed[key].Count++
		}
	}
	for _, k := range kinds {
		c.ByKind = append(c.ByKind, *k)
	}
	slices.SortFunc(c.ByKind, func(a, b OpCount) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Kind, b.Kind)) })
	for _, op := range indexed {
		c.Indexed = append(c.Indexed, *op)
	}
	slices.SortFunc(c.Indexed, func(a, b IndexedOp) int {
		return cmp.Or(cmp.Compare(product(b.Output)*b.Count, product(a.Output)*a.Count), cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)))
	})
}

// indexedOp describes a gather (operand, indices) or scatter (operand, indices,
// updates) node; nil for other kinds.
func indexedOp(n *Node, kind string) *IndexedOp {
	switch n.Type() {
	case NodeTypeGather, NodeTypeScatterSum, NodeTypeScatterMax, NodeTypeScatterMin:
	default:
		return nil
	}
	in := n.Inputs()
	if len(in) < 2 {
		return nil
	}
	return &IndexedOp{Kind: kind, Operand: in[0].Shape().Dimensions, Indices: in[1].Shape().Dimensions, Output: n.Shape().Dimensions}
}

// product multiplies dimensions.
func product(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}

// countTransfers adds what a call copies back (the loss of a training step and the
// outputs [rows, outputs]) and the variables resident on the device.
func (m *Model) countTransfers(c *Census, b *Batch, train bool) {
	rows := b.PadGraphs
	if m.spec.nodeLevel {
		rows = b.PadNodes
	}
	c.Transfers.DeviceToHost, c.Transfers.DeviceToHostBytes = 1, 4*int64(rows*m.spec.outDim)
	if train {
		c.Transfers.DeviceToHost, c.Transfers.DeviceToHostBytes = 2, c.Transfers.DeviceToHostBytes+4
	}
	for v := range m.store.IterVariables() {
		if v.HasValue() {
			c.Transfers.Variables++
			c.Transfers.VariableBytes += v.Shape().ByteSize()
		}
	}
}

// goBackend tells whether the model runs on the pure-Go backend.
func (m *Model) goBackend() bool {
	kind, _, _ := strings.Cut(m.backendName, ":")
	return kind == DefaultBackend
}
