// Package torchexport writes what a port of a gexph model to PyTorch needs: the
// weights of a checkpoint as safetensors, named as in a PyTorch state dict (Safetensors),
// and one batch exactly as the model sees it with the model's outputs on it
// (ExportBatch), which tools/torch/gexph_torch.py reproduces (`gexph export`).
package torchexport

import (
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strings"
	"unicode"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/safetensors"
	"github.com/gomlx/compute/dtypes"
)

// Safetensors writes the model weights of the checkpoint at ckptPath to outPath in
// the safetensors format (readable by PyTorch's safetensors.torch.load_file, NumPy and
// others): every trainable variable and the statistics kept beside them (batch-norm
// means and variances), not the optimizer's state or the random-number state, named as
// in a PyTorch state dict ("layer_0.attention.qkv.dense.weights"). The checkpoint's
// config, data set and epoch go into the file's metadata. It returns the number of
// tensors written.
func Safetensors(ckptPath, outPath string) (int, error) {
	info, vars, err := gexph.ReadCheckpointVariables(ckptPath)
	if err != nil {
		return 0, err
	}
	modelScopes := map[string]bool{}
	for _, v := range vars {
		if v.Trainable {
			modelScopes[path.Dir(v.Path)] = true
		}
	}
	var tensors []safetensors.Tensor
	for _, v := range vars {
		if !v.Trainable && !modelScopes[path.Dir(v.Path)] {
			continue
		}
		dt, err := safetensorsDType(v.DType)
		if err != nil {
			return 0, fmt.Errorf("export %s: variable %s: %w", ckptPath, v.Path, err)
		}
		name := strings.ReplaceAll(strings.TrimPrefix(v.Path, "/"), "/", ".")
		tensors = append(tensors, safetensors.Tensor{Name: name, DType: dt, Shape: v.Dims, Data: v.Data})
	}
	cfg, err := json.Marshal(info.Config)
	if err != nil {
		return 0, err
	}
	meta := map[string]string{"format": "pt", "source": "gexph", "config": string(cfg),
		"dataset": info.Dataset, "epoch": fmt.Sprint(info.Epoch)}
	if err := safetensors.Write(outPath, tensors, meta); err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	return len(tensors), nil
}

// safetensorsDType maps a GoMLX dtype name to its safetensors name.
func safetensorsDType(name string) (string, error) {
	dt, err := dtypes.DTypeString(name)
	if err != nil {
		return "", err
	}
	switch dt {
	case dtypes.Float32:
		return "F32", nil
	case dtypes.Float64:
		return "F64", nil
	case dtypes.Float16:
		return "F16", nil
	case dtypes.BFloat16:
		return "BF16", nil
	case dtypes.Int64:
		return "I64", nil
	case dtypes.Int32:
		return "I32", nil
	case dtypes.Int16:
		return "I16", nil
	case dtypes.Int8:
		return "I8", nil
	case dtypes.Uint64:
		return "U64", nil
	case dtypes.Uint32:
		return "U32", nil
	case dtypes.Uint8:
		return "U8", nil
	case dtypes.Bool:
		return "BOOL", nil
	}
	return "", fmt.Errorf("dtype %s has no safetensors name", name)
}

// Batch is one batch exactly as the model of a checkpoint sees it, with the model's
// outputs on it: what a port of the model to another framework must reproduce
// (tools/torch/gexph_torch.py reads it with the weights of Safetensors).
type Batch struct {
	// Inputs are the batch's present model inputs by snake_case name of their Inputs
	// field ("node_mask", "x", "src", "h_src", "h_source", …): int32 or float32 arrays,
	// padded as the model ran them.
	Inputs map[string]gexph.Array
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
func ExportBatch(ckptPath string, ds *data.Dataset, maxGraphs int, opts gexph.ModelOptions) (*Batch, error) {
	if maxGraphs < 1 {
		return nil, fmt.Errorf("export batch: want at least one graph, got %d", maxGraphs)
	}
	m, ds, err := gexph.LoadModel(ckptPath, ds, opts)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if !m.WholeGraphBatches() {
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
	return &Batch{Inputs: byName(&b.Inputs), Outputs: out, Rows: b.Rows, OutDim: len(out) / max(b.Rows, 1),
		NodeLevel: m.NodeLevel(), Graphs: graphs}, nil
}

// byName returns the present inputs keyed by the snake_case names of their fields.
func byName(in *gexph.Inputs[gexph.Array]) map[string]gexph.Array {
	out := map[string]gexph.Array{}
	v := reflect.ValueOf(in).Elem()
	for i := range v.NumField() {
		a := v.Field(i).Interface().(gexph.Array)
		if !a.Present() {
			continue
		}
		out[snakeCase(v.Type().Field(i).Name)] = a
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
