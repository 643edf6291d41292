package main

import (
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gexph/gexph/data/npy"
	"github.com/gexph/gexph/internal/pyfind"
	"github.com/gexph/gexph/internal/shareddata"
)

// torchPython returns a python3 that has torch and NumPy, or skips the test.
func torchPython(t *testing.T) string {
	return pyfind.Python(t, "tools/torch/gexph_torch.py not checked; Debian: apt-get install python3-torch python3-numpy", "torch", "numpy")
}

// torchScript is tools/torch/gexph_torch.py.
func torchScript() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "torch", "gexph_torch.py")
}

// trainAndExport trains a one-epoch model with the CLI and exports its weights and a
// batch; it returns the two files.
func trainAndExport(t *testing.T, dataArgs []string, sets ...string) (weights, batch string) {
	t.Helper()
	args := append([]string{"-set", "pe=none", "-set", "layers=2", "-set", "hidden_dim=16",
		"-set", "max_train=32", "-set", "max_val=8", "-set", "max_test=8"}, dataArgs...)
	var exportArgs []string
	for i, a := range dataArgs {
		if a == "-data-dir" {
			exportArgs = append(exportArgs, a, dataArgs[i+1])
		}
	}
	return trainThenExport(t, args, sets, exportArgs)
}

// trainThenExport runs `gexph train` for one epoch with args and each of sets as -set,
// then `gexph export -with-batch` (a batch of four graphs, and exportArgs) of the best
// checkpoint; it returns the weights' and the batch's files.
func trainThenExport(t *testing.T, args, sets, exportArgs []string) (weights, batch string) {
	t.Helper()
	dir := t.TempDir()
	train := append([]string{"train", "-out", filepath.Join(dir, "run"), "-epochs", "1"}, args...)
	for _, s := range sets {
		train = append(train, "-set", s)
	}
	if code, _, errOut := runCLI(t, train...); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	weights, batch = filepath.Join(dir, "model.safetensors"), filepath.Join(dir, "batch.npz")
	exp := append([]string{"export", "-ckpt", filepath.Join(dir, "run", "best.ckpt"), "-out", weights,
		"-with-batch", batch, "-batch-graphs", "4"}, exportArgs...)
	if code, out, errOut := runCLI(t, exp...); code != 0 || !strings.Contains(out, "wrote a batch of") {
		t.Fatalf("export -with-batch: exit %d: %s%s", code, out, errOut)
	}
	return weights, batch
}

// TestTorchModuleReproducesExportedPredictions trains small models of the covered
// configurations, exports each with a batch, and has tools/torch/gexph_torch.py load the
// weights into PyTorch and recompute the batch's outputs: within 1e-4 of gexph's.
func TestTorchModuleReproducesExportedPredictions(t *testing.T) {
	py := torchPython(t)
	cases := []struct {
		name   string
		shared string // a shared data file the case needs, or ""
		data   []string
		sets   []string
	}{
		{"pattern gcn+exphormer, batch norm, virtual node, categorical nodes", "",
			[]string{"-preset", "demo", "-dataset", "pattern"}, []string{"mpnn=gcn", "head_l2norm=true"}},
		{"cora gcn+exphormer transductive, sparse features, head batch norm", "gnn-benchmark/cora.npz",
			[]string{"-preset", "cora", "-dataset", "cora"}, nil},
		{"peptides layer norm, reference softmax, categorical edges, max pooling", "peptides-func",
			[]string{"-preset", "peptides-func", "-dataset", "peptides-func"},
			[]string{"mpnn=gcn", "norm=layer", "reference_attention=true", "pooling=max"}},
		{"peptides attention only, normalised values, sum pooling", "peptides-func",
			[]string{"-preset", "peptides-func", "-dataset", "peptides-func"},
			[]string{"mpnn=none", "normalize_values=true", "pooling=sum", "head_norm=true"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.data
			if c.shared != "" {
				path := shareddata.Path(t, c.shared)
				data = append(data, "-data-dir", strings.TrimSuffix(path, "/"+c.shared))
			}
			weights, batch := trainAndExport(t, data, c.sets...)
			out, err := exec.Command(py, "-W", "ignore", torchScript(), weights, batch).CombinedOutput()
			if err != nil {
				t.Fatalf("gexph_torch.py: %v\n%s", err, out)
			}
			var rep struct {
				Rows       int     `json:"rows"`
				MaxAbsDiff float64 `json:"max_abs_diff"`
				MaxRelDiff float64 `json:"max_rel_diff"`
			}
			if err := json.Unmarshal(out, &rep); err != nil {
				t.Fatalf("gexph_torch.py output %q: %v", out, err)
			}
			if rep.Rows == 0 || rep.MaxRelDiff > 1e-4 {
				t.Errorf("PyTorch outputs differ from gexph's: %+v", rep)
			}
		})
	}
}

// TestTorchModuleRefusesUncoveredModels exports a GatedGCN model: gexph_torch.py refuses
// it, naming the config field and value, rather than computing something else.
func TestTorchModuleRefusesUncoveredModels(t *testing.T) {
	py := torchPython(t)
	weights, batch := trainAndExport(t, []string{"-preset", "demo", "-dataset", "pattern"}, "mpnn=gatedgcn")
	out, err := exec.Command(py, "-W", "ignore", torchScript(), weights, batch).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "mpnn = 'gatedgcn'") {
		t.Errorf("gatedgcn model: err %v, output %q; want a refusal naming mpnn = 'gatedgcn'", err, out)
	}
}

// TestExportWithBatchWritesInputsAndOutputs exports a PATTERN model with -with-batch and
// reads the batch back: it holds the model inputs by snake_case name and one output per
// real node (node_mask summed), each a finite number; a -batch-graphs below one is refused.
func TestExportWithBatchWritesInputsAndOutputs(t *testing.T) {
	_, batch := trainAndExport(t, []string{"-preset", "demo", "-dataset", "pattern"}, "mpnn=gcn")
	z, err := npy.ReadNPZFile(batch)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"node_mask", "graph_id", "x_cat", "src", "dst", "h_src", "h_dst", "h_source", "norm_mask", "graphs", "node_level"} {
		if _, err := z.Array(name); err != nil {
			t.Errorf("batch lacks %s: %v", name, err)
		}
	}
	mask := mustFloats(t, z, "node_mask")
	real := 0
	for _, v := range mask {
		real += int(v)
	}
	outputs := mustFloats(t, z, "outputs")
	a, _ := z.Array("outputs")
	if real == 0 || len(a.Shape) != 2 || a.Shape[0] != real || a.Shape[1] != 1 || len(outputs) != real {
		t.Errorf("outputs shape %v for %d real nodes, want [%d 1]", a.Shape, real, real)
	}
	for i, v := range outputs {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("output %d is %v", i, v)
		}
	}
	weights := filepath.Join(filepath.Dir(batch), "model.safetensors")
	code, _, errOut := runCLI(t, "export", "-ckpt", filepath.Join(filepath.Dir(batch), "run", "best.ckpt"), "-out", weights, "-with-batch", batch, "-batch-graphs", "0")
	if code == 0 || !strings.Contains(errOut, "at least one graph") {
		t.Errorf("-batch-graphs 0: exit %d, %q; want a refusal", code, errOut)
	}
}

func mustFloats(t *testing.T, z *npy.NPZ, name string) []float32 {
	t.Helper()
	a, err := z.Array(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := a.Float32s()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}
