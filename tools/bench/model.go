package bench

import (
	"fmt"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/cpuprofile"
	"github.com/gexph/gexph/internal/sysinfo"
)

// ModelBenchConfig describes a training-step benchmark of a preset's whole model: one
// batch (a batch of graphs, or the whole graph of a transductive data set), stepped
// repeatedly.
type ModelBenchConfig struct {
	// Preset names the model's preset; Set is a JSON object of config fields overriding
	// it ("" for none).
	Preset, Set string
	// Dataset is the data set spec (data.Load); "" takes the preset's
	// (gexph.PresetDataset), which the presets of no data set (scaling: planted:N) need
	// given.
	Dataset string
	// Batch is the number of graphs per batch (0: the preset's BatchSize); ignored for
	// transductive data sets.
	Batch int
	// Steps is the number of timed steps after one untimed warm-up step (default 5).
	Steps int
	// Backend is the compute backend ("" for the pure-Go one); DataDir the data root
	// ("" for the default).
	Backend, DataDir string
	// CPUProfile, if set, receives a CPU profile (pprof) of the timed steps.
	CPUProfile string
	// NoMemoryCheck measures a step that gexph.CheckMemory's estimate refuses (the
	// estimate is an upper bound; the process may still run out of memory).
	NoMemoryCheck bool
}

// ModelBenchResult is the outcome of RunModelBenchmark. The JSON names are stable.
type ModelBenchResult struct {
	// Preset and Dataset are what was measured; Params the model's trainable parameters.
	Preset  string `json:"preset"`
	Dataset string `json:"dataset"`
	Params  int    `json:"params"`
	// The batch: graphs, real nodes, local edges and interaction edges.
	Graphs           int `json:"graphs"`
	Nodes            int `json:"nodes"`
	Edges            int `json:"edges"`
	InteractionEdges int `json:"interaction_edges"`
	// MsPerStep is the median wall time of a timed training step (forward, backward,
	// AdamW); StepMs lists them; WarmupMs is the first step, compilation included.
	MsPerStep float64   `json:"ms_per_step"`
	StepMs    []float64 `json:"step_ms"`
	WarmupMs  float64   `json:"warmup_ms"`
	// CPUMsPerStep is the median CPU time of a timed step (all threads).
	CPUMsPerStep float64 `json:"cpu_ms_per_step"`
	// ForwardMs is the median wall time of an inference pass on the same batch (what
	// evaluation costs per batch); a transductive epoch is about MsPerStep + ForwardMs.
	ForwardMs float64 `json:"forward_ms"`
	// GraphsPerSec and NodesPerSec are the training throughput at MsPerStep.
	GraphsPerSec float64 `json:"graphs_per_sec"`
	NodesPerSec  float64 `json:"nodes_per_sec"`
	// PeakRSSMB is the process's peak resident memory since the model was built (the
	// data set loaded before is included only as far as it stays resident), in MiB.
	PeakRSSMB float64 `json:"peak_rss_mb"`
	// Loss is the last step's loss, to see that the run is sane.
	Loss float64 `json:"loss"`
}

// RunModelBenchmark measures training steps of a preset's whole model as cfg says. Run it
// in a process of its own for a peak memory of its own.
func RunModelBenchmark(cfg ModelBenchConfig) (ModelBenchResult, error) {
	if cfg.Steps == 0 {
		cfg.Steps = 5
	}
	if cfg.Steps < 1 || cfg.Batch < 0 {
		return ModelBenchResult{}, fmt.Errorf("model benchmark: need Steps ≥ 1 and Batch ≥ 0, got %d and %d", cfg.Steps, cfg.Batch)
	}
	mb, err := loadModelBatch(cfg)
	if err != nil {
		return ModelBenchResult{}, err
	}
	defer mb.m.Close()
	m, b, mc := mb.m, mb.b, mb.cfg
	res := ModelBenchResult{Preset: cfg.Preset, Dataset: mb.ds.Name, Params: m.ParamCount(),
		Graphs: b.NumGraphs, Nodes: b.NumNodes, Edges: b.NumEdges, InteractionEdges: b.NumInteraction}
	if err := m.SetLearningRate(mc.LearningRate); err != nil {
		return res, fmt.Errorf("model benchmark: %w", err)
	}
	var cpuMs []float64
	stopProfile := func() error { return nil }
	for i := range cfg.Steps + 1 {
		if i == 1 && cfg.CPUProfile != "" {
			stop, err := cpuprofile.Start(cfg.CPUProfile)
			if err != nil {
				return res, fmt.Errorf("model benchmark: %w", err)
			}
			stopProfile = stop
			defer func() { stopProfile() }() // On an error return; stopped below otherwise.
		}
		cpu, start := sysinfo.ProcessCPUSeconds(), time.Now()
		loss, err := m.TrainStep(b)
		if err != nil {
			return res, fmt.Errorf("model benchmark: step %d: %w", i, err)
		}
		wall := ms(time.Since(start))
		if i == 0 {
			res.WarmupMs = wall
			continue
		}
		res.StepMs = append(res.StepMs, wall)
		cpuMs = append(cpuMs, 1000*(sysinfo.ProcessCPUSeconds()-cpu))
		res.Loss = loss
	}
	if err := stopProfile(); err != nil {
		return res, fmt.Errorf("model benchmark: %w", err)
	}
	stopProfile = func() error { return nil }
	var fwdMs []float64
	for i := range min(cfg.Steps, 3) + 1 {
		start := time.Now()
		if _, err := m.Predict(b); err != nil {
			return res, fmt.Errorf("model benchmark: inference: %w", err)
		}
		if i > 0 { // The first pass compiles.
			fwdMs = append(fwdMs, ms(time.Since(start)))
		}
	}
	res.MsPerStep, res.CPUMsPerStep, res.ForwardMs = median(res.StepMs), median(cpuMs), median(fwdMs)
	res.GraphsPerSec = float64(res.Graphs) / (res.MsPerStep / 1000)
	res.NodesPerSec = float64(res.Nodes) / (res.MsPerStep / 1000)
	res.PeakRSSMB = sysinfo.PeakRSSMB()
	return res, nil
}

// modelBatch is a preset's model and one training batch of its data set.
type modelBatch struct {
	cfg gexph.Config
	ds  *data.Dataset
	m   *gexph.Model
	b   *gexph.Batch
}

// loadModelBatch builds the model of cfg's preset (with cfg.Set) on its data set and one
// training batch: cfg.Batch graphs (the preset's batch size when 0), or the whole graph
// of a transductive data set. The caller closes the model.
func loadModelBatch(cfg ModelBenchConfig) (*modelBatch, error) {
	mc, err := gexph.Preset(cfg.Preset)
	if err != nil {
		return nil, fmt.Errorf("model benchmark: %w", err)
	}
	if cfg.Set != "" {
		if mc, err = gexph.ParseConfig(mc, cfg.Set); err != nil {
			return nil, fmt.Errorf("model benchmark: -set: %w", err)
		}
	}
	if cfg.Batch > 0 {
		mc.BatchSize = cfg.Batch
	}
	spec := cfg.Dataset
	if spec == "" {
		var ok bool
		if spec, ok = gexph.PresetDataset(cfg.Preset); !ok {
			return nil, fmt.Errorf("model benchmark: preset %q is no data set's: give one with -dataset (such as planted:100000)", cfg.Preset)
		}
	}
	// Generated sets only need one batch of training graphs (and one of each other split).
	ds, err := data.Load(spec, data.LoadOptions{DataDir: cfg.DataDir, Seed: mc.Seed,
		TrainGraphs: mc.BatchSize, ValGraphs: 1, TestGraphs: 1, MaxBytes: sysinfo.MemoryBudget().Bytes / 2})
	if err != nil {
		return nil, fmt.Errorf("model benchmark: %w", err)
	}
	if !cfg.NoMemoryCheck {
		if err := gexph.CheckMemory(mc, ds); err != nil {
			return nil, fmt.Errorf("model benchmark: %w (-no-memory-check measures it anyway)", err)
		}
	}
	sysinfo.ResetPeakRSS()
	m, err := gexph.NewModelWithOptions(mc, ds, gexph.ModelOptions{Backend: cfg.Backend})
	if err != nil {
		return nil, fmt.Errorf("model benchmark: %w", err)
	}
	graphs, lossNodes := []int{0}, ds.Split.Train
	if !ds.Transductive {
		graphs, lossNodes = ds.Split.Train[:min(mc.BatchSize, len(ds.Split.Train))], nil
	}
	b, err := m.BuildBatch(ds, graphs, lossNodes)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("model benchmark: %w", err)
	}
	return &modelBatch{cfg: mc, ds: ds, m: m, b: b}, nil
}

// CensusResult is the census of a preset's training step and inference pass on one
// batch (gexph.Model.Census). The JSON names are stable.
type CensusResult struct {
	// Preset and Dataset are what was counted; the batch as in ModelBenchResult.
	Preset           string `json:"preset"`
	Dataset          string `json:"dataset"`
	Params           int    `json:"params"`
	Graphs           int    `json:"graphs"`
	Nodes            int    `json:"nodes"`
	InteractionEdges int    `json:"interaction_edges"`
	// Train and Inference are the two programs' censuses.
	Train     *gexph.Census `json:"train"`
	Inference *gexph.Census `json:"inference"`
}

// RunCensus counts what the compiled training step and inference pass of a preset's
// model are made of, on one batch of its data set (cfg as for RunModelBenchmark; Steps
// and CPUProfile unused). Nothing is run: the programs are built and compiled only.
func RunCensus(cfg ModelBenchConfig) (CensusResult, error) {
	mb, err := loadModelBatch(cfg)
	if err != nil {
		return CensusResult{}, err
	}
	defer mb.m.Close()
	b := mb.b
	res := CensusResult{Preset: cfg.Preset, Dataset: mb.ds.Name, Params: mb.m.ParamCount(),
		Graphs: b.NumGraphs, Nodes: b.NumNodes, InteractionEdges: b.NumInteraction}
	if res.Train, err = mb.m.Census(b, true); err != nil {
		return res, err
	}
	res.Inference, err = mb.m.Census(b, false)
	return res, err
}
