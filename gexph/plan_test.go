package gexph

import (
	"cmp"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gexph/gexph/data"
)

// TestParsePaddingNamesEveryForm parses every padding form and refuses malformed ones
// with an error that quotes the name and says what is wanted.
func TestParsePaddingNamesEveryForm(t *testing.T) {
	for spec, bucket := range map[string][2]int{"pow2": {5, 8}, "exp:2": {5, 8}, "linear:10": {11, 20}} {
		s, err := parsePadding(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got := s.strategy.Bucket(bucket[0]); got != bucket[1] {
			t.Errorf("%s: Bucket(%d) = %d, want %d", spec, bucket[0], got, bucket[1])
		}
	}
	for spec, want := range map[string]paddingSpec{"none": {}, "plan": {trainLevels: 4, evalLevels: 2}, "plan:3,1": {trainLevels: 3, evalLevels: 1}} {
		if s, err := parsePadding(spec); err != nil || s.strategy != nil || s.trainLevels != want.trainLevels || s.evalLevels != want.evalLevels {
			t.Errorf("%s: %+v, %v; want %+v", spec, s, err, want)
		}
	}
	for bad, says := range map[string]string{
		"pow3": "unknown", "exp:1": "B > 1", "exp:x": "B > 1", "linear:0": "S ≥ 1", "linear:": "S ≥ 1",
		"plan:": "plan:T,E", "plan:4": "plan:T,E", "plan:0,2": "plan:T,E", "plan:4,0": "plan:T,E", "plan:17,2": "1 to 16",
		"plan:4,x": "plan:T,E", "plan:4,2,1": "plan:T,E",
	} {
		_, err := parsePadding(bad)
		if err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: error %v, want one naming it and saying %q", bad, err, says)
		}
	}
}

// TestDefaultPaddingPlansBatchesOfGraphs builds models with the default padding on the
// go backend: batches of graphs get a plan (its first training batch padded to one of
// the plan's shapes), a transductive graph its exact shapes.
func TestDefaultPaddingPlansBatchesOfGraphs(t *testing.T) {
	if DefaultPadding(false) != "plan" || DefaultPadding(true) != "none" {
		t.Fatalf("DefaultPadding: %q for batches of graphs, %q for a transductive graph; want plan, none", DefaultPadding(false), DefaultPadding(true))
	}
	cfg := tinyConfig()
	cfg.Layers = 1
	ds := tinyGraphDataset(data.GraphClassification, 8, 3)
	m := newTestModel(t, cfg, ds, "")
	if m.PaddingPlan() == "" {
		t.Fatal("batches of graphs on the go backend: no padding plan by default")
	}
	b, err := m.BuildBatch(ds, plannedBatch(m, ds), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkPlanned(t, b, m.plan.train.levels)
	if n := newTestModel(t, cfg, tinyTransductiveDataset(3), ""); n.PaddingPlan() != "" || n.padding != nil {
		t.Fatalf("a transductive graph is padded by default: %q", n.PaddingPlan())
	}
}

// TestChooseLevelsCutsAtTheBestPlaces holds the choice of levels to a search of every
// way to cut the sorted needs into k runs: each need fits a level, there are at most k,
// and the needs padded to the first level that holds them cost no more than the best
// cut does.
func TestChooseLevelsCutsAtTheBestPlaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 30 {
		needs := make([]batchDims, 3+rng.IntN(12))
		for i := range needs {
			n := 20 + rng.IntN(80)
			needs[i] = batchDims{Nodes: n, Graphs: 5, Edges: 2*n + rng.IntN(40), Interaction: 6*n + rng.IntN(200)}
		}
		k := 1 + trial%4
		levels := chooseLevels(slices.Clone(needs), k)
		if len(levels) == 0 || len(levels) > k {
			t.Fatalf("trial %d: %d levels for k = %d", trial, len(levels), k)
		}
		cost := costOf(needs)
		total := 0.0
		for _, d := range needs {
			i := slices.IndexFunc(levels, d.fits)
			if i < 0 {
				t.Fatalf("trial %d: need %v fits none of %v", trial, d, levels)
			}
			total += cost(levels[i])
		}
		if best := bestCutCost(needs, k, cost); total > best*(1+1e-12) {
			t.Errorf("trial %d, k = %d: padded cost %v, the best cut's %v", trial, k, total, best)
		}
	}
}

// bestCutCost returns the least total cost of needs sorted by cost and cut into at most
// k runs, each padded to its largest sizes, by trying every cut.
func bestCutCost(needs []batchDims, k int, cost func(batchDims) float64) float64 {
	sorted := slices.Clone(needs)
	slices.SortFunc(sorted, func(a, b batchDims) int { return cmp.Compare(cost(a), cost(b)) })
	var try func(from, runs int) float64
	try = func(from, runs int) float64 {
		if from == len(sorted) {
			return 0
		}
		if runs == 0 {
			return math.Inf(1)
		}
		best, run := math.Inf(1), batchDims{}
		for to := from + 1; to <= len(sorted); to++ {
			run = run.max(sorted[to-1])
			best = math.Min(best, float64(to-from)*cost(run)+try(to, runs-1))
		}
		return best
	}
	return try(0, k)
}

// TestPlanHoldsEveryBatchOfTheRun builds every batch a run builds (the training batches
// of every epoch, the evaluation batches, the first graph alone) with a plan:3,2 and
// finds each padded to one of the plan's shapes of its program, the first graph among
// the evaluation shapes.
func TestPlanHoldsEveryBatchOfTheRun(t *testing.T) {
	ds := tinyGraphDataset(data.GraphClassification, 40, 9)
	cfg := tinyConfig()
	cfg.Epochs = 4
	m := newTestModel(t, cfg, ds, "plan:3,2")
	train, eval := m.plan.train.levels, m.plan.eval.levels
	if len(train) == 0 || len(train) > 3 || len(eval) == 0 || len(eval) > 2 {
		t.Fatalf("%d training and %d evaluation shapes, want 1–3 and 1–2", len(train), len(eval))
	}
	used := map[batchDims]bool{}
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		for _, graphs := range batchesOf(m.epochOrder(ds.Split.Train, epoch), cfg.BatchSize) {
			b, err := m.BuildBatch(ds, graphs, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkPlanned(t, b, train)
			used[b.padded] = true
		}
	}
	if len(used) < 2 {
		t.Errorf("the run's batches share %d shape of %v: the sizes did not vary", len(used), train)
	}
	first, err := m.firstBatch(ds)
	if err != nil {
		t.Fatal(err)
	}
	checkPlanned(t, first, eval)
	for _, split := range [][]int{ds.Split.Val, ds.Split.Test} {
		for _, graphs := range batchesOf(split, cfg.BatchSize) {
			b, err := m.buildBatch(ds, graphs, nil, nil, m.evalPadding)
			if err != nil {
				t.Fatal(err)
			}
			checkPlanned(t, b, eval)
		}
	}
}

// patternForPlan generates PATTERN graphs (the real generator) and a config of the
// pattern preset's batches and interaction graph (batch 32, expander degree 14, 4 virtual
// nodes), its model small and without PE, which padding does not depend on.
func patternForPlan(t *testing.T, train, eval, epochs int) (*data.Dataset, Config) {
	t.Helper()
	ds, err := data.GeneratePATTERN(data.SBMOptions{Seed: 1, Train: train, Val: eval, Test: eval})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Preset("pattern")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Layers, cfg.HiddenDim, cfg.Heads, cfg.PE, cfg.Epochs, cfg.WarmupEpochs = 1, 8, 2, PENone, epochs, 0
	return ds, cfg
}

// TestPlanWastesLittleOnPATTERN measures the padding waste of a plan on PATTERN:
// padded/real − 1 of the node rows and of the interaction edges, averaged over the
// batches of the first epoch as built (the expanders drawn), and over every planned
// batch of the preset's 120 epochs as the plan counts them (interaction edges bounded);
// each is below 25 %, for evaluation batches too.
func TestPlanWastesLittleOnPATTERN(t *testing.T) {
	// 31.5 batches an epoch: the last one half full, as PATTERN's 10,000 graphs give.
	ds, cfg := patternForPlan(t, 31*32+16, 256, 120)
	m := newTestModel(t, cfg, ds, "plan")
	p := m.plan
	t.Logf("%s", m.PaddingPlan())
	for name, w := range map[string]paddingWaste{"training": p.trainWaste, "evaluation": p.evalWaste} {
		if w.Nodes >= 0.25 || w.Interaction >= 0.25 || w.Nodes <= 0 || w.Interaction <= 0 {
			t.Errorf("%s waste as planned %s, want in (0, 25 %%) for each", name, w)
		}
	}
	var built paddingWaste
	batches := batchesOf(m.epochOrder(ds.Split.Train, 1), cfg.BatchSize)
	for _, graphs := range batches {
		b, err := m.BuildBatch(ds, graphs, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkPlanned(t, b, p.train.levels)
		built.Nodes += float64(b.PadNodes)/float64(b.NumNodes) - 1
		built.Interaction += float64(b.PadInteraction)/float64(b.NumInteraction) - 1
	}
	built.Nodes /= float64(len(batches))
	built.Interaction /= float64(len(batches))
	t.Logf("waste of epoch 1's %d batches as built: %s", len(batches), built)
	if built.Nodes >= 0.25 || built.Interaction >= 0.25 {
		t.Errorf("waste of the built batches %s, want < 25 %% for each", built)
	}
}

// TestPatternRunCompilesFewShapes trains on PATTERN graphs with a plan for 3 epochs and
// reads log.jsonl: every epoch line counts at most 4 training and 2 inference shapes,
// those are all the run compiled, and the counts and compile seconds never decrease;
// result.json holds compiled_shapes and compile_s, and on the go backend, which
// compiles inference again after each epoch's steps, more compilations than shapes.
func TestPatternRunCompilesFewShapes(t *testing.T) {
	ds, cfg := patternForPlan(t, 200, 50, 3)
	cfg.ExpanderDegree, cfg.VirtualNodes = 4, 1
	dir := t.TempDir()
	res := train(t, cfg, ds, TrainOptions{OutDir: dir, Padding: "plan"})
	lines := readLines(t, filepath.Join(dir, LogFile))
	if len(lines) != 1+cfg.Epochs {
		t.Fatalf("log.jsonl has %d lines, want the header and %d epochs", len(lines), cfg.Epochs)
	}
	var last EpochStats
	for _, line := range lines[1:] {
		var st EpochStats
		if err := json.Unmarshal([]byte(line), &st); err != nil {
			t.Fatal(err)
		}
		if st.CompiledTrainShapes < 1 || st.CompiledTrainShapes > 4 || st.CompiledEvalShapes < 1 || st.CompiledEvalShapes > 2 ||
			st.CompiledShapes != st.CompiledTrainShapes+st.CompiledEvalShapes {
			t.Errorf("epoch %d: %d shapes, %d training and %d inference; want 1–4 and 1–2, all of them", st.Epoch,
				st.CompiledShapes, st.CompiledTrainShapes, st.CompiledEvalShapes)
		}
		if !(st.CompileSeconds > 0) || st.CompileSeconds < last.CompileSeconds || st.CompiledShapes < last.CompiledShapes {
			t.Errorf("epoch %d: %d shapes in %vs after %d in %vs", st.Epoch, st.CompiledShapes, st.CompileSeconds, last.CompiledShapes, last.CompileSeconds)
		}
		last = st
	}
	if res.CompiledShapes != last.CompiledShapes || res.CompileSeconds < last.CompileSeconds || res.Compilations <= res.CompiledShapes {
		t.Errorf("result: %d shapes in %d compilations, %vs; the last epoch: %d shapes, %vs", res.CompiledShapes, res.Compilations, res.CompileSeconds, last.CompiledShapes, last.CompileSeconds)
	}
	raw, err := os.ReadFile(filepath.Join(dir, ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	if n, ok := top["compiled_shapes"].(float64); !ok || int(n) != res.CompiledShapes {
		t.Errorf("result.json compiled_shapes %v, want %d", top["compiled_shapes"], res.CompiledShapes)
	}
	if s, ok := top["compile_s"].(float64); !ok || !(s > 0) {
		t.Errorf("result.json compile_s %v, want seconds > 0", top["compile_s"])
	}
}

// TestCompileStatsCountEachShapeOnce follows a model with exact shapes: the first graph
// is one inference shape; two passes on another batch add one shape and one
// compilation; a training step adds a training shape; the pass after it compiles
// again (the go backend embeds the changed weights) but adds no shape.
func TestCompileStatsCountEachShapeOnce(t *testing.T) {
	ds := tinyGraphDataset(data.GraphClassification, 8, 3)
	m := newTestModel(t, tinyConfig(), ds, "none")
	check := func(when string, train, eval, compilations int) {
		t.Helper()
		s := m.CompileStats()
		if s.ShapesByProgram[programTrain] != train || s.ShapesByProgram[programEval] != eval || s.CompiledShapes != train+eval ||
			s.Compilations != compilations || !(s.CompileSeconds > 0) {
			t.Errorf("%s: %+v, want %d training and %d inference shapes, %d compilations", when, s, train, eval, compilations)
		}
	}
	check("built", 0, 1, 1)
	b, err := m.BuildBatch(ds, []int{0, 1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := m.Predict(b); err != nil {
			t.Fatal(err)
		}
	}
	check("two passes", 0, 2, 2)
	if _, err := m.TrainStep(b); err != nil {
		t.Fatal(err)
	}
	check("a step", 1, 2, 3)
	if _, err := m.Predict(b); err != nil {
		t.Fatal(err)
	}
	check("a pass after the step", 1, 2, 4)
}
