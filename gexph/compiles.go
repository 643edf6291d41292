package gexph

import (
	"fmt"
	"time"

	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// Programs a model compiles (CompileStats.ByProgram).
const (
	programTrain     = "train"     // the training step
	programEval      = "eval"      // inference: evaluation and prediction
	programLayerwise = "layerwise" // a layer of layer-wise inference
	programGradients = "gradients" // Model.LossGradients
	programScores    = "scores"    // attention scores (Spexphormer)
)

// CompileStats says what a model has compiled so far. A program (the training step,
// inference, …) is compiled once for each input shape it runs on, the first time; the
// pure-Go backend also compiles its inference program again after every change of the
// weights, which it embeds as constants. Result and the epoch lines of log.jsonl hold
// them for the run so far (this call: a resumed run compiles anew).
type CompileStats struct {
	// CompiledShapes counts the distinct input shapes compiled, the programs' together
	// (a shape two programs compile counts twice); ShapesByProgram counts them by
	// program: "train", "eval", and "layerwise", "gradients" or "scores" where they ran.
	CompiledShapes  int            `json:"compiled_shapes"`
	ShapesByProgram map[string]int `json:"compiled_shapes_by_program,omitempty"`
	// Compilations counts the compilations, those of a shape compiled before included.
	Compilations int `json:"compilations"`
	// CompileSeconds is the time spent compiling: building each program's graph and
	// compiling it for the backend (model.Exec.Compile), timed apart from the first
	// execution.
	CompileSeconds float64 `json:"compile_s"`
}

// compileLog records what a model compiles.
type compileLog struct {
	// graphs holds the compiled graphs seen; shapes the input shapes by program.
	graphs       map[graph.GraphId]bool
	shapes       map[string]map[string]bool
	compilations int
	seconds      float64
}

// execute runs exec, the program named prog, on args (tensors). Where their shapes are
// new to exec, it compiles exec for them first and records the compilation and its time.
func (m *Model) execute(exec *model.Exec, prog string, args ...any) ([]*tensors.Tensor, error) {
	in := make([]shapes.Shape, len(args))
	for i, a := range args {
		in[i] = a.(*tensors.Tensor).Shape()
	}
	start := time.Now()
	g, err := exec.Compile(in...)
	if err != nil {
		return nil, err
	}
	m.compiles.note(g.GraphId(), prog, fmt.Sprint(in), time.Since(start))
	return exec.Call(args...)
}

// note records that program prog has the compiled graph id for input shapes key, which
// took d to get: a graph not seen before was compiled in that time.
func (c *compileLog) note(id graph.GraphId, prog, key string, d time.Duration) {
	if c.graphs[id] {
		return
	}
	if c.graphs == nil {
		c.graphs, c.shapes = map[graph.GraphId]bool{}, map[string]map[string]bool{}
	}
	c.graphs[id] = true
	c.compilations++
	c.seconds += d.Seconds()
	if c.shapes[prog] == nil {
		c.shapes[prog] = map[string]bool{}
	}
	c.shapes[prog][key] = true
}

// CompileStats returns what the model has compiled so far.
func (m *Model) CompileStats() CompileStats {
	c := &m.compiles
	s := CompileStats{Compilations: c.compilations, CompileSeconds: c.seconds}
	if len(c.shapes) > 0 {
		s.ShapesByProgram = map[string]int{}
	}
	for prog, keys := range c.shapes {
		s.ShapesByProgram[prog] = len(keys)
		s.CompiledShapes += len(keys)
	}
	return s
}

// summary says what was compiled, in a run's summary line.
func (s CompileStats) summary() string {
	return fmt.Sprintf("compiled %d input shapes (training %d, inference %d) in %d compilations, %.1fs",
		s.CompiledShapes, s.ShapesByProgram[programTrain], s.ShapesByProgram[programEval], s.Compilations, s.CompileSeconds)
}
