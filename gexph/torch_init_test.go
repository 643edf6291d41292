package gexph

import (
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"
)

// TestTorchInitDrawsLinearBiasesAndOneHotEmbeddings checks torch_init against PyTorch's
// initialisation, variable by variable: every dense bias uniform in ±1/√fan_in, fan_in
// the rows of its weights (nn.Linear), and the categorical node embedding (tables and
// bias) uniform in ±1/√3, the nn.Linear of the 3-wide one-hot codes. Each bias spreads
// over its range (not zero, its largest magnitude above half the bound); without
// torch_init the biases are zero and the table rows N(0, 1).
func TestTorchInitDrawsLinearBiasesAndOneHotEmbeddings(t *testing.T) {
	ds := tinyNodeDataset(10, 3)
	vars := func(torchInit bool) map[string][]float32 {
		cfg := tinyConfig()
		cfg.HiddenDim, cfg.PE, cfg.PESize = 16, PEESLap, 4
		cfg.TorchInit = torchInit
		m, err := NewModel(cfg, ds)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		out := map[string][]float32{}
		for v := range m.store.IterVariables() {
			if !v.Trainable {
				continue
			}
			val, err := v.Value()
			if err != nil {
				t.Fatal(err)
			}
			out[v.Path()] = tensors.MustCopyFlatData[float32](val)
		}
		return out
	}
	maxAbs := func(x []float32) float64 {
		m := 0.0
		for _, v := range x {
			m = max(m, math.Abs(float64(v)))
		}
		return m
	}
	torch, plain := vars(true), vars(false)
	biases := 0
	for path, b := range torch {
		w, ok := torch[strings.TrimSuffix(path, "biases")+"weights"]
		if !strings.HasSuffix(path, "/dense/biases") || !ok {
			continue
		}
		biases++
		limit := 1 / math.Sqrt(float64(len(w)/len(b))) // weights [in, out], bias [out]: fan_in = in
		if m := maxAbs(b); m > limit || (len(b) > 1 && m < limit/2) {
			t.Errorf("%s: largest |bias| %.4g, want within ±%.4g and spread over it", path, m, limit)
		}
		if m := maxAbs(plain[path]); m != 0 {
			t.Errorf("%s without torch_init: largest |bias| %g, want 0", path, m)
		}
	}
	if biases < 8 {
		t.Errorf("checked %d dense biases; want the GatedGCN's, the PE gate's, the FFN's and the head's", biases)
	}
	limit := 1 / math.Sqrt(3)
	for _, name := range []string{"/node_encoder/column_0/embeddings", "/node_encoder/biases"} {
		if m := maxAbs(torch[name]); m > limit || m < limit/2 {
			t.Errorf("%s: largest |value| %.4g, want within ±%.4g and spread over it", name, m, limit)
		}
	}
	if m := maxAbs(plain["/node_encoder/column_0/embeddings"]); m <= limit {
		t.Errorf("node embeddings without torch_init: largest |value| %.4g, want N(0, 1) beyond %.4g", m, limit)
	}
}
