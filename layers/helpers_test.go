package layers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	_ "github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

var (
	testBackendOnce sync.Once
	testBackendVal  compute.Backend
	testBackendErr  error
)

// testBackend returns the shared pure-Go backend for the package's tests.
func testBackend(t testing.TB) compute.Backend {
	t.Helper()
	testBackendOnce.Do(func() {
		testBackendVal, testBackendErr = NewBackend("go")
	})
	if testBackendErr != nil {
		t.Fatalf("creating the go backend: %v", testBackendErr)
	}
	return testBackendVal
}

// newStore returns a Store whose initial variables and random state follow seed.
func newStore(t testing.TB, seed int64) *model.Store {
	t.Helper()
	store := model.NewStore()
	store.RootScope().SetParam(model.ParamInitialSeed, seed)
	if err := store.SetRNGStateFromSeed(seed); err != nil {
		t.Fatalf("seeding the store: %v", err)
	}
	return store
}

// graphFn builds outputs from inputs in a Store's root scope.
type graphFn = func(scope *model.Scope, inputs []*Node) []*Node

// runGraph executes fn once on the inputs (tensors or Go slices) and returns the outputs.
// training marks the graph as a training graph.
func runGraph(t testing.TB, store *model.Store, training bool, fn graphFn, inputs ...any) []*tensors.Tensor {
	t.Helper()
	exec, err := model.NewExec(testBackend(t), store, func(scope *model.Scope, g *Graph, in []*Node) []*Node {
		scope.SetTraining(g, training)
		return fn(scope, in)
	})
	if err != nil {
		t.Fatalf("NewExec: %v", err)
	}
	defer exec.Finalize()
	outs, err := exec.Call(inputs...)
	if err != nil {
		t.Fatalf("executing graph: %v", err)
	}
	return outs
}

// runGraphErr executes fn once and returns its error (nil if it ran).
func runGraphErr(t testing.TB, fn graphFn, inputs ...any) error {
	t.Helper()
	store := newStore(t, 1)
	exec, err := model.NewExec(testBackend(t), store, func(scope *model.Scope, g *Graph, in []*Node) []*Node {
		return fn(scope, in)
	})
	if err != nil {
		return err
	}
	defer exec.Finalize()
	_, err = exec.Call(inputs...)
	return err
}

// flat64 returns the tensor's values as float64 (from float32 or float64 tensors).
func flat64(t testing.TB, x *tensors.Tensor) []float64 {
	t.Helper()
	if v, err := tensors.CopyFlatData[float64](x); err == nil {
		return v
	}
	v32, err := tensors.CopyFlatData[float32](x)
	if err != nil {
		t.Fatalf("reading tensor %s: %v", x.Shape(), err)
	}
	out := make([]float64, len(v32))
	for i, f := range v32 {
		out[i] = float64(f)
	}
	return out
}

// varValue returns the flat float64 value of the variable at path.
func varValue(t testing.TB, store *model.Store, path string) []float64 {
	t.Helper()
	v := store.GetVariable(path)
	if v == nil {
		t.Fatalf("no variable %q", path)
	}
	val, err := v.Value()
	if err != nil {
		t.Fatalf("value of %q: %v", path, err)
	}
	return flat64(t, val)
}

// maxAbsDiff returns max_i |a_i − b_i|, failing on length mismatch.
func maxAbsDiff(t testing.TB, a, b []float64) float64 {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("length mismatch: %d vs %d", len(a), len(b))
	}
	m := 0.0
	for i := range a {
		d := math.Abs(a[i] - b[i])
		if math.IsNaN(d) {
			return math.Inf(1)
		}
		m = max(m, d)
	}
	return m
}

// randFloats returns n normal values scaled by scale.
func randFloats(rng *rand.Rand, n int, scale float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = rng.NormFloat64() * scale
	}
	return out
}

// to32 converts to float32.
func to32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

// randomEdges returns e random directed edges on n nodes, sorted by dst (then src).
func randomEdges(rng *rand.Rand, n, e int) (src, dst []int32) {
	type edge struct{ s, d int32 }
	edges := make([]edge, e)
	for i := range edges {
		edges[i] = edge{int32(rng.IntN(n)), int32(rng.IntN(n))}
	}
	sort.Slice(edges, func(a, b int) bool {
		if edges[a].d != edges[b].d {
			return edges[a].d < edges[b].d
		}
		return edges[a].s < edges[b].s
	})
	src, dst = make([]int32, e), make([]int32, e)
	for i, ed := range edges {
		src[i], dst[i] = ed.s, ed.d
	}
	return src, dst
}

// matmulRows computes x [n, a] @ w [a, b] (row-major) in float64.
func matmulRows(x []float64, n, a int, w []float64, b int) []float64 {
	out := make([]float64, n*b)
	for i := range n {
		for k := range a {
			xv := x[i*a+k]
			for j := range b {
				out[i*b+j] += xv * w[k*b+j]
			}
		}
	}
	return out
}

// gradCheck is a check of a layer's gradients against central finite differences, in
// float64 and in training mode. The loss is Σ out ⊙ w for a fixed pseudo-random w, so that
// every output entry matters.
type gradCheck struct {
	// inputs are the graph inputs (tensors or Go slices); the float64 tensors listed in
	// wrt are differentiated.
	inputs []any
	wrt    []int
	// vars lists the variables checked, by path; nil checks every trainable float64
	// variable.
	vars []string
	seed int64
	// layer builds the output from the inputs.
	layer func(scope *model.Scope, in []*Node) *Node
	// samples is the number of entries checked per tensor (default 6).
	samples int
}

// checkGradients compares GoMLX's gradients (including this package's hand-written ones)
// with central differences on sampled entries of each checked tensor, to 1e-6 relative
// to max(1, |difference quotient|). The store's random state is reset before each
// evaluation, so dropout masks repeat.
func checkGradients(t *testing.T, c gradCheck) {
	t.Helper()
	if c.samples == 0 {
		c.samples = 6
	}
	store := newStore(t, c.seed)
	backend := testBackend(t)
	lossOf := func(scope *model.Scope, g *Graph, in []*Node) *Node {
		scope.SetTraining(g, true)
		out := c.layer(scope, in)
		if out.DType() != dtypes.Float64 {
			panic(fmt.Errorf("gradient check needs a float64 output, got %s", out.Shape()))
		}
		rng := rand.New(rand.NewPCG(uint64(c.seed), 99))
		w := randFloats(rng, out.Shape().Size(), 1)
		return ReduceAllSum(Mul(out, Const(g, tensors.FromFlatDataAndDimensions(w, out.Shape().Dimensions...))))
	}
	reset := func() {
		if err := store.SetRNGStateFromSeed(c.seed); err != nil {
			t.Fatalf("resetting the random state: %v", err)
		}
	}
	lossExec, err := model.NewExec(backend, store, func(scope *model.Scope, g *Graph, in []*Node) *Node {
		return lossOf(scope, g, in)
	})
	if err != nil {
		t.Fatalf("NewExec: %v", err)
	}
	defer lossExec.Finalize()
	loss := func(inputs []any) float64 {
		reset()
		res, err := lossExec.Call(inputs...)
		if err != nil {
			t.Fatalf("evaluating the loss: %v", err)
		}
		return flat64(t, res[0])[0]
	}
	// The first evaluation initialises the variables, which draws from the random state.
	loss(c.inputs)
	var vars []*model.Variable
	gradExec, err := model.NewExec(backend, store, func(scope *model.Scope, g *Graph, in []*Node) []*Node {
		loss := lossOf(scope, g, in)
		vars = vars[:0]
		if c.vars == nil {
			for v := range store.IterVariables() {
				if v.Trainable && v.DType() == dtypes.Float64 {
					vars = append(vars, v)
				}
			}
			sort.Slice(vars, func(i, j int) bool { return vars[i].Path() < vars[j].Path() })
		} else {
			for _, path := range c.vars {
				v := store.GetVariable(path)
				if v == nil {
					panic(fmt.Errorf("no variable %q", path))
				}
				vars = append(vars, v)
			}
		}
		targets := make([]*Node, 0, len(c.wrt)+len(vars))
		for _, i := range c.wrt {
			targets = append(targets, in[i])
		}
		for _, v := range vars {
			targets = append(targets, v.NodeValue(g))
		}
		return append([]*Node{loss}, Gradient(loss, targets...)...)
	})
	if err != nil {
		t.Fatalf("NewExec: %v", err)
	}
	defer gradExec.Finalize()
	reset()
	outs, err := gradExec.Call(c.inputs...)
	if err != nil {
		t.Fatalf("computing gradients: %v", err)
	}
	if len(vars) == 0 && c.vars == nil && len(c.wrt) == 0 {
		t.Fatalf("nothing to check")
	}
	if l0, l1, l2 := flat64(t, outs[0])[0], loss(c.inputs), loss(c.inputs); l0 != l1 || l1 != l2 {
		t.Fatalf("the loss is not reproducible: %.17g, %.17g, %.17g", l0, l1, l2)
	}
	const h = 1e-5
	rng := rand.New(rand.NewPCG(uint64(c.seed), 7))
	compare := func(what string, auto []float64, eval func(j int, delta float64) float64) {
		t.Helper()
		for range c.samples {
			j := rng.IntN(len(auto))
			fd := (eval(j, h) - eval(j, -h)) / (2 * h)
			if diff := math.Abs(fd - auto[j]); !(diff <= 1e-6*max(1, math.Abs(fd))) {
				t.Errorf("%s[%d]: autodiff %.10g, finite difference %.10g", what, j, auto[j], fd)
			}
		}
	}
	for k, i := range c.wrt {
		base := flat64(t, c.inputs[i].(*tensors.Tensor))
		dims := c.inputs[i].(*tensors.Tensor).Shape().Dimensions
		compare(fmt.Sprintf("input %d", i), flat64(t, outs[1+k]), func(j int, delta float64) float64 {
			x := slices.Clone(base)
			x[j] += delta
			inputs := slices.Clone(c.inputs)
			inputs[i] = tensors.FromFlatDataAndDimensions(x, dims...)
			return loss(inputs)
		})
	}
	for k, v := range vars {
		orig := v.MustValue()
		base := flat64(t, orig)
		dims := orig.Shape().Dimensions
		compare(v.Path(), flat64(t, outs[1+len(c.wrt)+k]), func(j int, delta float64) float64 {
			x := slices.Clone(base)
			x[j] += delta
			if err := v.SetValue(tensors.FromFlatDataAndDimensions(x, dims...)); err != nil {
				t.Fatalf("setting %s: %v", v.Path(), err)
			}
			return loss(c.inputs)
		})
		if err := v.SetValue(tensors.FromFlatDataAndDimensions(base, dims...)); err != nil {
			t.Fatalf("restoring %s: %v", v.Path(), err)
		}
	}
}

// tensor64 returns a float64 tensor of the given dimensions with normal values scaled by
// scale.
func tensor64(rng *rand.Rand, scale float64, dims ...int) *tensors.Tensor {
	size := 1
	for _, d := range dims {
		size *= d
	}
	return tensors.FromFlatDataAndDimensions(randFloats(rng, size, scale), dims...)
}

// addEveryKind adds to configs one configuration per local model (localBase with that
// Local) and one per global model (globalBase with that Global), named every-local/NAME
// and every-global/NAME, so that a new kind is checked as soon as it is listed.
func addEveryKind(configs map[string]GPSConfig, localBase, globalBase GPSConfig) {
	for _, l := range LocalModels() {
		c := localBase
		c.Local = l
		configs["every-local/"+string(l)] = c
	}
	for _, g := range GlobalModels() {
		c := globalBase
		c.Global = g
		configs["every-global/"+string(g)] = c
	}
}
