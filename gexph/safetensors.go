package gexph

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/gexph/gexph/internal/safetensors"
	"github.com/gomlx/compute/dtypes"
)

// ExportSafetensors writes the model weights of the checkpoint at ckptPath to outPath in
// the safetensors format (readable by PyTorch's safetensors.torch.load_file, NumPy and
// others): every trainable variable and the statistics kept beside them (batch-norm
// means and variances), not the optimizer's state or the random-number state, named as
// in a PyTorch state dict ("layer_0.attention.qkv.dense.weights"). The checkpoint's
// config, data set and epoch go into the file's metadata. It returns the number of
// tensors written.
func ExportSafetensors(ckptPath, outPath string) (int, error) {
	ck, err := readCheckpoint(ckptPath)
	if err != nil {
		return 0, err
	}
	modelScopes := map[string]bool{}
	for _, v := range ck.vars {
		if v.Trainable {
			modelScopes[path.Dir(v.Path)] = true
		}
	}
	var tensors []safetensors.Tensor
	for i, v := range ck.vars {
		if !v.Trainable && !modelScopes[path.Dir(v.Path)] {
			continue
		}
		dt, err := safetensorsDType(v.DType)
		if err != nil {
			return 0, fmt.Errorf("export %s: variable %s: %w", ckptPath, v.Path, err)
		}
		var blob []byte
		if err := ck.values[i].ConstBytes(func(b []byte) { blob = append([]byte(nil), b...) }); err != nil {
			return 0, fmt.Errorf("export %s: variable %s: %w", ckptPath, v.Path, err)
		}
		name := strings.ReplaceAll(strings.TrimPrefix(v.Path, "/"), "/", ".")
		tensors = append(tensors, safetensors.Tensor{Name: name, DType: dt, Shape: v.Dimensions, Data: blob})
	}
	cfg, err := json.Marshal(ck.info.Config)
	if err != nil {
		return 0, err
	}
	meta := map[string]string{"format": "pt", "source": "gexph", "config": string(cfg),
		"dataset": ck.info.Dataset, "epoch": fmt.Sprint(ck.info.Epoch)}
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
