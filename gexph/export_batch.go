package gexph

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/gexph/gexph/data"
)

// BatchExport is one batch exactly as the model of a checkpoint sees it, with the
// model's outputs on it: what a port of the model to another framework must reproduce
// (tools/torch/gexph_torch.py reads it with the weights of ExportSafetensors).
type BatchExport struct {
	// Inputs are the batch's present model inputs by snake_case name of their Inputs
	// field ("node_mask", "x", "src", "h_src", "h_source", …): int32 or float32 arrays,
	// padded as the model ran them.
	Inputs map[string]Array
	// Outputs are the model's inference outputs for the batch's real rows, Rows ×
	// OutDim, row-major (logits, or values for multi-label and regression tasks).
	Outputs      []float32
	Rows, OutDim int
	// NodeLevel tells that the rows are nodes (node tasks), not pooled graphs.
	NodeLevel bool
	// Graphs lists the data set indices of the batch's graphs.
	Graphs []int
}

// ExportBatch builds the model of the checkpoint at ckptPath for ds, makes one batch
// (the first maxGraphs test graphs, or fewer; the whole graph of a transductive data
// set) and returns its inputs and the model's inference outputs on it.
func ExportBatch(ckptPath string, ds *data.Dataset, maxGraphs int, opts ModelOptions) (*BatchExport, error) {
	if maxGraphs < 1 {
		return nil, fmt.Errorf("export batch: want at least one graph, got %d", maxGraphs)
	}
	m, ds, _, err := loadCheckpointModel(ckptPath, ds, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if m.miniBatch() || m.layerGraphs != nil {
		return nil, fmt.Errorf("export batch %s: mini-batched and per-layer-graph models are not supported", ckptPath)
	}
	graphs := []int{0}
	if !ds.Transductive {
		graphs = ds.Split.Test
		if len(graphs) == 0 {
			graphs = []int{0}
		}
		graphs = graphs[:min(maxGraphs, len(graphs))]
	}
	b, err := m.BuildBatch(ds, graphs, nil)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	out, err := m.Predict(b)
	if err != nil {
		return nil, err
	}
	return &BatchExport{Inputs: b.Inputs.byName(), Outputs: out, Rows: b.Rows, OutDim: m.spec.outDim,
		NodeLevel: m.spec.nodeLevel, Graphs: graphs}, nil
}

// byName returns the present inputs keyed by the snake_case names of their fields.
func (in *Inputs[T]) byName() map[string]T {
	out := map[string]T{}
	v := reflect.ValueOf(in).Elem()
	for i := range v.NumField() {
		f := v.Field(i).Interface().(T)
		if a, ok := any(f).(Array); ok && !a.Present() {
			continue
		}
		out[snakeCase(v.Type().Field(i).Name)] = f
	}
	return out
}

// snakeCase turns a Go field name into snake_case, keeping acronyms whole: NodeMask →
// node_mask, HSrc → h_src, PEVec → pe_vec, RWSE → rwse, LayerHSrc → layer_h_src.
func snakeCase(name string) string {
	r := []rune(name)
	var b strings.Builder
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) &&
			(unicode.IsLower(r[i-1]) || (i+1 < len(r) && unicode.IsLower(r[i+1]))) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}
