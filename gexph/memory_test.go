package gexph

import (
	"errors"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
)

func TestDenseAttentionBytes(t *testing.T) {
	cfg, err := Preset("computers")
	if err != nil {
		t.Fatal(err)
	}
	huge := &data.Dataset{Name: "huge", Task: data.NodeClassification, NumClasses: 2, Transductive: true,
		Graphs: []data.Graph{{NumNodes: 1000000, NodeLabels: make([]int32, 1000000)}},
		Split:  data.Split{Train: []int{0}, Val: []int{1}, Test: []int{2}}}
	if b := DenseAttentionBytes(cfg, huge); b != 0 {
		t.Errorf("Exphormer: %v bytes of dense scores, want 0", b)
	}
	cfg.Attention = layers.GlobalFull
	// 4 layers × 4 tensors × 2 heads × (10⁶)² × 4 bytes.
	if b, want := DenseAttentionBytes(cfg, huge), 4*4*2*1e12*4.0; b != want {
		t.Errorf("transductive: %v bytes, want %v", b, want)
	}
	batched := &data.Dataset{Name: "b", Graphs: []data.Graph{{NumNodes: 10}, {NumNodes: 30}, {NumNodes: 20}}}
	cfg.BatchSize = 2 // two graphs of at most 30 nodes: n = 60
	if b, want := DenseAttentionBytes(cfg, batched), 4*4*2*3600*4.0; b != want {
		t.Errorf("batched: %v bytes, want %v", b, want)
	}
	if sysinfo.MemTotalMB() == 0 {
		t.Skip("no /proc/meminfo")
	}
	if err := CheckMemory(cfg, huge); !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), `"huge"`) {
		t.Errorf("10⁶ nodes of full attention: %v, want ErrOutOfMemory naming the data set", err)
	}
	if err := CheckMemory(cfg, batched); err != nil {
		t.Errorf("60 nodes: %v", err)
	}
	// Train refuses before building anything.
	if _, err := Train(t.Context(), cfg, huge, TrainOptions{}); !errors.Is(err, ErrOutOfMemory) {
		t.Errorf("Train: %v, want ErrOutOfMemory", err)
	}
}

// The head's estimate counts its weights and its [rows, classes] tensors, rows by the
// kind of data set; a data set with MaxClasses classes over a million nodes is refused
// by Train before anything is built, one with a few classes is not.
func TestHeadBytesCountsTheClassesOfTheHead(t *testing.T) {
	cfg, err := Preset("computers")
	if err != nil {
		t.Fatal(err)
	}
	cfg.HiddenDim, cfg.BatchSize = 10, 2
	node := &data.Dataset{Name: "nodes", Task: data.NodeClassification, NumClasses: 7, Transductive: true,
		Graphs: []data.Graph{{NumNodes: 100}}}
	if b, want := HeadBytes(cfg, node), 4*7*(4*10+3*100.0); b != want {
		t.Errorf("transductive: %v bytes, want %v", b, want)
	}
	graphs := &data.Dataset{Name: "graphs", Task: data.GraphClassification, NumClasses: 3,
		Graphs: []data.Graph{{NumNodes: 10}, {NumNodes: 30}, {NumNodes: 20}}}
	if b, want := HeadBytes(cfg, graphs), 4*3*(4*10+3*2.0); b != want {
		t.Errorf("graph task: %v bytes, want %v (a row per graph of a batch)", b, want)
	}
	graphs.Task = data.NodeClassification
	if b, want := HeadBytes(cfg, graphs), 4*3*(4*10+3*60.0); b != want {
		t.Errorf("node task on graphs: %v bytes, want %v (two graphs of at most 30 nodes)", b, want)
	}
	if sysinfo.MemTotalMB() == 0 {
		t.Skip("no /proc/meminfo")
	}
	n := 1_000_000
	many := &data.Dataset{Name: "many", Task: data.NodeClassification, NumClasses: data.MaxClasses, Transductive: true,
		Graphs: []data.Graph{{NumNodes: n, Src: []int32{0}, Dst: []int32{1}, NodeLabels: make([]int32, n),
			Node: data.Features{Kind: data.Dense, Rows: n, Cols: 1, Dense: make([]float32, n)}}},
		Split: data.Split{Train: []int{0}, Val: []int{1}, Test: []int{2}}}
	many.Graphs[0].NodeLabels[0] = data.MaxClasses - 1
	if _, err := Train(t.Context(), cfg, many, TrainOptions{}); !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), "prediction head") {
		t.Errorf("10⁵ classes over 10⁶ nodes: %v, want ErrOutOfMemory for the head", err)
	}
	if err := CheckMemory(cfg, node); err != nil {
		t.Errorf("7 classes: %v", err)
	}
}

// Every config knob and data size that scales a training step's memory is estimated
// and, beyond the budget, refused with ErrOutOfMemory naming the value and the
// estimate against what is available; the same config within bounds passes.
func TestCheckMemoryRefusesEachKnobThatScalesAStep(t *testing.T) {
	base, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	graphs := func(n, nodes, edges int) *data.Dataset {
		ds := &data.Dataset{Name: "g", Task: data.GraphClassification, NumClasses: 2}
		for range n {
			ds.Graphs = append(ds.Graphs, data.Graph{NumNodes: nodes, Src: make([]int32, edges), Dst: make([]int32, edges)})
		}
		return ds
	}
	small := graphs(64, 100, 400)
	budget := sysinfo.Budget{Bytes: 1 << 30, Bound: "a test budget"}
	if err := checkMemoryWithin(base, small, budget); err != nil {
		t.Fatalf("demo config on 100-node graphs: %v", err)
	}
	transductive := &data.Dataset{Name: "big", Task: data.NodeClassification, NumClasses: 2, Transductive: true,
		Graphs: []data.Graph{{NumNodes: 10_000_000}}}
	cases := []struct {
		name, want string
		mod        func(*Config)
		ds         *data.Dataset
	}{
		{"hidden_dim", "hidden_dim 1048576", func(c *Config) { c.HiddenDim = 1 << 20 }, small},
		{"layers", "1000000 layers", func(c *Config) { c.Layers = 1_000_000 }, small},
		{"batch_size", "batch_size 100000", func(c *Config) { c.BatchSize = 100_000 }, graphs(100_000, 100, 400)},
		{"heads of full attention", "[64, n, n]", func(c *Config) { c.Attention, c.Heads, c.HiddenDim = layers.GlobalFull, 64, 64 }, small},
		{"nodes", "10000000 nodes", func(*Config) {}, transductive},
		{"edges", "100000000 edges", func(*Config) {}, graphs(16, 100, 100_000_000/16)},
		{"expander degree", "expander_degree 100000", func(c *Config) { c.ExpanderDegree = 100_000 }, small},
		{"virtual nodes", "virtual_nodes 1000000", func(c *Config) { c.VirtualNodes = 1_000_000 }, small},
		{"head layers", "the weights of hidden_dim 128", func(c *Config) { c.HiddenDim, c.HeadLayers = 128, 10_000 }, small},
		{"pe_size", "pe_size 100000000", func(c *Config) { c.PE, c.PESize = PELap, 100_000_000 }, small},
		{"sparse_attention_k", "sparse_attention_k 100000000", func(c *Config) { c.SparseAttentionK = 100_000_000 }, small},
	}
	for _, c := range cases {
		cfg := base
		c.mod(&cfg)
		err := checkMemoryWithin(cfg, c.ds, budget)
		if !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), c.want) ||
			!strings.Contains(err.Error(), "GiB of memory, more than the 1.0 GiB available (a test budget)") {
			t.Errorf("%s: %v, want ErrOutOfMemory naming %q and the estimate against the budget", c.name, err, c.want)
		}
	}
}

// A model whose weights alone exceed any machine is refused by NewModel before it
// creates a variable (which would end the process with a fatal out-of-memory error).
func TestNewModelRefusesAHugeHiddenDimBeforeAllocating(t *testing.T) {
	if sysinfo.MemoryBudget().Bytes == 0 {
		t.Skip("memory size unknown")
	}
	cfg, err := Preset("demo")
	if err != nil {
		t.Fatal(err)
	}
	cfg.HiddenDim = 1 << 24 // 13·4·(2²⁴)² floats per layer: petabytes
	ds := &data.Dataset{Name: "tiny", Task: data.GraphClassification, NumClasses: 2,
		Graphs: []data.Graph{{NumNodes: 3, Src: []int32{0, 1}, Dst: []int32{1, 2}}},
		Split:  data.Split{Train: []int{0}, Val: []int{0}, Test: []int{0}}}
	if _, err := NewModel(cfg, ds); !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), "hidden_dim 16777216") {
		t.Errorf("NewModel with hidden_dim 2²⁴: %v, want ErrOutOfMemory naming hidden_dim", err)
	}
}

// TestStepBytesCoversTheMeasuredPeaks holds StepBytes to peaks measured with `gexph
// bench -case model` (2026-11-26, after the fused kernels): the growth of the peak
// between two batch sizes, which the estimate's growth must cover without more than
// doubling it. The PATTERN preset (GatedGCN and Exphormer, width 40, 4 layers) grew by
// 1,165 MB from 32 to 64 graphs. The scaling preset at width 64 (GCN and Exphormer, 2
// layers) grew by 1,713 MB from 10⁵ to 2·10⁵ nodes on a planted partition graph, by
// 1,017 MB with GCN alone and 1,319 MB with attention alone.
func TestStepBytesCoversTheMeasuredPeaks(t *testing.T) {
	graphs := func(n, nodes, edges int) *data.Dataset {
		ds := &data.Dataset{Name: "pattern", Task: data.NodeClassification, NumClasses: 2}
		for range n {
			ds.Graphs = append(ds.Graphs, data.Graph{NumNodes: nodes, Src: make([]int32, edges), Dst: make([]int32, edges)})
		}
		return ds
	}
	planted := func(nodes int) *data.Dataset {
		return &data.Dataset{Name: "planted", Task: data.NodeClassification, NumClasses: 5, Transductive: true,
			Graphs: []data.Graph{{NumNodes: nodes, Src: make([]int32, 5*nodes), Dst: make([]int32, 5*nodes)}}}
	}
	pattern := mustPreset("pattern")
	pattern64 := pattern
	pattern64.BatchSize = 64
	// PATTERN's batches: 3,731 nodes and 187,570 edges in 32 graphs.
	patternGraphs := graphs(64, 3731/32, 187570/32)
	scaling := mustPreset("scaling")
	scaling.HiddenDim = 64
	gcnOnly, attentionOnly := scaling, scaling
	gcnOnly.Attention = layers.GlobalNone
	attentionOnly.MPNN = layers.LocalNone
	for _, c := range []struct {
		name           string
		small, large   Config
		dsSmall, dsBig *data.Dataset
		measuredMB     float64
	}{
		{"pattern, 32 to 64 graphs", pattern, pattern64, patternGraphs, patternGraphs, 1165},
		{"scaling, GCN and Exphormer", scaling, scaling, planted(100_000), planted(200_000), 1713},
		{"scaling, GCN alone", gcnOnly, gcnOnly, planted(100_000), planted(200_000), 1017},
		{"scaling, attention alone", attentionOnly, attentionOnly, planted(100_000), planted(200_000), 1319},
	} {
		grew := (StepBytes(c.large, c.dsBig) - StepBytes(c.small, c.dsSmall)) / 1e6
		if grew < c.measuredMB || grew > 2*c.measuredMB {
			t.Errorf("%s: the estimate grows by %.0f MB, measured %.0f MB", c.name, grew, c.measuredMB)
		}
	}
}
