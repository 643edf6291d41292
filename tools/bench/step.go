// Package bench measures training steps: one layer on a random graph (RunStepBenchmark)
// for the gexph command's bench subcommand and the benchmark tests.
package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"sort"
	"time"

	"github.com/gexph/gexph/gexph"
	"github.com/gexph/gexph/internal/sysinfo"
	"github.com/gexph/gexph/layers"
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// Benchmark cases of RunStepBenchmark.
const (
	BenchAttention = "attention" // One Exphormer attention layer.
	BenchGPS       = "gps"       // One GPS layer: GatedGCN + Exphormer attention + FFN, BatchNorm.
)

// StepBenchConfig describes a training-step benchmark: forward, backward and an AdamW
// update of one layer on a random graph.
type StepBenchConfig struct {
	// Case is BenchAttention or BenchGPS.
	Case string
	// N is the number of nodes and E the number of random edges (sorted by dst). The GPS
	// case uses the same edges for its local model and its attention.
	N, E int
	// Hidden is the hidden size D and Heads the number of attention heads.
	Hidden, Heads int
	// Steps is the number of timed steps after one untimed warm-up step (default 10).
	Steps int
	// Seed fixes the graph, the inputs and the initial weights.
	Seed uint64
	// Backend is the compute backend configuration, e.g. "go" or "go:parallelism=2"
	// (default "go").
	Backend string
	// RecomputeGathers sets the attention's option of that name (less memory, more time).
	RecomputeGathers bool
}

// StepBenchResult is the outcome of RunStepBenchmark.
type StepBenchResult struct {
	// MedianMs is the median wall time of a timed step, in milliseconds.
	MedianMs float64
	// StepMs lists the timed steps' wall times, in order.
	StepMs []float64
	// MedianCPUMs is the median CPU time (user + system, all threads) of a timed step, in
	// milliseconds: less sensitive than wall time to other processes on a busy machine.
	MedianCPUMs float64
	// StepCPUMs lists the timed steps' CPU times, in order.
	StepCPUMs []float64
	// WarmupMs is the first (compiling) step's wall time.
	WarmupMs float64
	// PeakRSSMB is the process's peak resident memory (VmHWM) in MiB, measured after the
	// timed steps; the peak is reset at the start where the kernel allows it.
	PeakRSSMB float64
	// Loss is the loss of the last step (to check the run is sane).
	Loss float64
}

// RunStepBenchmark measures training steps of one layer as described by cfg: the attention
// case is one ExphormerAttention layer (edge embeddings given per edge, dst sorted), the
// GPS case one GPS layer (GatedGCN + Exphormer attention + FFN, BatchNorm); the loss is
// the mean square of the output. It reports wall and CPU time per step and the process's
// peak memory; run it in a process of its own for a meaningful peak.
func RunStepBenchmark(cfg StepBenchConfig) (res StepBenchResult, err error) {
	if cfg.Steps == 0 {
		cfg.Steps = 10
	}
	if cfg.Backend == "" {
		cfg.Backend = "go"
	}
	switch {
	case cfg.Case != BenchAttention && cfg.Case != BenchGPS:
		return res, fmt.Errorf("step benchmark: unknown case %q (want attention or gps)", cfg.Case)
	case cfg.N <= 0 || cfg.E <= 0 || cfg.Hidden <= 0 || cfg.Heads <= 0 || cfg.Steps < 0:
		return res, fmt.Errorf("step benchmark: N, E, Hidden, Heads must be positive and Steps ≥ 0, got %+v", cfg)
	case cfg.Hidden%cfg.Heads != 0:
		return res, fmt.Errorf("step benchmark: Hidden=%d is not a multiple of Heads=%d", cfg.Hidden, cfg.Heads)
	case cfg.N > math.MaxInt32:
		return res, fmt.Errorf("step benchmark: N=%d nodes exceed the int32 node indices' %d", cfg.N, math.MaxInt32)
	}
	if err := checkStepMemory(cfg, sysinfo.MemoryBudget()); err != nil {
		return res, err
	}
	backend, err := gexph.NewBackend(cfg.Backend)
	if err != nil {
		return res, fmt.Errorf("step benchmark: %w", err)
	}
	defer backend.Finalize()
	debug.FreeOSMemory() // Return earlier runs' memory, so that the peak is this run's.
	sysinfo.ResetPeakRSS()

	// Inputs live on the device only (one copy, as a training loop's batch would).
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	src, dst := randomSortedEdges(rng, cfg.N, cfg.E)
	inputs := make([]any, 4)
	for i, dims := range [][]int{{cfg.N, cfg.Hidden}, {cfg.E, cfg.Hidden}} {
		if inputs[i], err = deviceTensor(backend, dims, func(flat []float32) {
			for j := range flat {
				flat[j] = float32(rng.NormFloat64())
			}
		}); err != nil {
			return res, fmt.Errorf("step benchmark: %w", err)
		}
	}
	for i, edges := range [][]int32{src, dst} {
		if inputs[2+i], err = deviceTensor(backend, []int{cfg.E}, func(flat []int32) { copy(flat, edges) }); err != nil {
			return res, fmt.Errorf("step benchmark: %w", err)
		}
	}
	src, dst = nil, nil

	store := model.NewStore()
	store.RootScope().SetParam(model.ParamInitialSeed, int64(cfg.Seed)+1)
	if err := store.SetRNGStateFromSeed(int64(cfg.Seed) + 1); err != nil {
		return res, fmt.Errorf("step benchmark: %w", err)
	}
	opt := optimizer.Adam().LearningRate(1e-3).WeightDecay(1e-2).Done()
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, g *Graph, in []*Node) *Node {
		scope.SetTraining(g, true)
		xN, efN, srcN, dstN := in[0], in[1], in[2], in[3]
		var out *Node
		if cfg.Case == BenchAttention {
			out = layers.NewExphormerAttention(scope.In("attention"), xN, efN, srcN, dstN, cfg.Heads).
				SortedByDst(true).RecomputeGathers(cfg.RecomputeGathers).Done()
		} else {
			out, _ = layers.NewGPSLayer(scope.In("gps"), xN, layers.GPSConfig{
				Local: layers.LocalGatedGCN, Global: layers.GlobalExphormer, Norm: layers.NormBatch, Heads: cfg.Heads,
				RecomputeGathers: cfg.RecomputeGathers,
			}).LocalEdges(srcN, dstN, efN).AttentionEdges(srcN, dstN, efN).Done()
		}
		loss := ReduceAllMean(Square(out))
		opt.UpdateGraph(scope, g, loss)
		return loss
	})
	if err != nil {
		return res, fmt.Errorf("step benchmark: %w", err)
	}
	defer exec.Finalize()

	step := func() (loss float64, wallMs, cpuMs float64, err error) {
		cpuStart := sysinfo.ProcessCPUSeconds()
		start := time.Now()
		outs, err := exec.Call(inputs...)
		if err != nil {
			return 0, 0, 0, err
		}
		wallMs = ms(time.Since(start))
		cpuMs = 1000 * (sysinfo.ProcessCPUSeconds() - cpuStart)
		loss = float64(tensors.MustCopyFlatData[float32](outs[0])[0])
		outs[0].MustFinalizeAll()
		return loss, wallMs, cpuMs, nil
	}
	_, res.WarmupMs, _, err = step()
	if err != nil {
		return res, fmt.Errorf("step benchmark: warm-up step: %w", err)
	}
	for range cfg.Steps {
		loss, wallMs, cpuMs, err := step()
		if err != nil {
			return res, fmt.Errorf("step benchmark: %w", err)
		}
		res.StepMs = append(res.StepMs, wallMs)
		res.StepCPUMs = append(res.StepCPUMs, cpuMs)
		res.Loss = loss
	}
	res.MedianMs = median(res.StepMs)
	res.MedianCPUMs = median(res.StepCPUMs)
	res.PeakRSSMB = sysinfo.PeakRSSMB()
	return res, nil
}

// Step benchmark estimates: a training step of one layer holds, per edge,
// stepEdgeTensors float32 vectors of Hidden (the attention's gathered keys, values and
// messages, the GPS layer's GatedGCN messages, and their gradients), and per node
// stepNodeTensors; generating the graph takes 16 bytes an edge (sort keys, then
// endpoints).
const (
	stepEdgeTensors = 8
	stepNodeTensors = 16
	edgeGenBytes    = 16
)

// StepBenchBytes estimates the memory of the step benchmark cfg (see the constants
// above), checked against the memory budget before anything is allocated.
func StepBenchBytes(cfg StepBenchConfig) float64 {
	n, e, h := float64(max(cfg.N, 0)), float64(max(cfg.E, 0)), float64(max(cfg.Hidden, 0))
	return 4*h*(stepEdgeTensors*e+stepNodeTensors*n) + edgeGenBytes*e
}

// checkStepMemory refuses a step benchmark whose estimate exceeds the budget, naming
// the flags that size it.
func checkStepMemory(cfg StepBenchConfig, budget sysinfo.Budget) error {
	what := fmt.Sprintf("step benchmark -n %d -e %d -hidden %d", cfg.N, cfg.E, cfg.Hidden)
	if err := budget.Refuse(what, StepBenchBytes(cfg)); err != nil {
		return fmt.Errorf("%w; lower -e, -n or -hidden", err)
	}
	return nil
}

// median returns the median of values (0 if empty).
func median(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sorted := slices.Clone(values)
	sort.Float64s(sorted)
	mid := len(sorted) / 2
	if len(sorted)%2 == 0 {
		return (sorted[mid-1] + sorted[mid]) / 2
	}
	return sorted[mid]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// deviceTensor returns a tensor of the given dimensions on the backend's device, filled
// by fill.
func deviceTensor[T float32 | int32](backend compute.Backend, dims []int, fill func(flat []T)) (*tensors.Tensor, error) {
	var zero T
	t, err := tensors.FromShapeForBackend(backend, 0, shapes.Make(dtypes.FromAny(zero), dims...))
	if err != nil {
		return nil, fmt.Errorf("allocating benchmark input %v: %w", dims, err)
	}
	if err := tensors.MutableFlatData(t, fill); err != nil {
		return nil, fmt.Errorf("filling benchmark input %v: %w", dims, err)
	}
	return t, nil
}

// randomSortedEdges returns e uniformly random directed edges on n nodes sorted by dst
// (then src).
func randomSortedEdges(rng *rand.Rand, n, e int) (src, dst []int32) {
	keys := make([]uint64, e)
	for i := range keys {
		s, d := uint64(rng.IntN(n)), uint64(rng.IntN(n))
		keys[i] = d<<32 | s
	}
	slices.Sort(keys)
	src, dst = make([]int32, e), make([]int32, e)
	for i, k := range keys {
		src[i], dst[i] = int32(k&0xffffffff), int32(k>>32)
	}
	return src, dst
}
