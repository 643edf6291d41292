package layers

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

func TestClassicConfigValidate(t *testing.T) {
	good := GPSConfig{Block: BlockClassic, Local: LocalSAGE, Global: GlobalExphormer, Norm: NormLayer, Heads: 2, LinearResidual: true}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid classic config rejected: %v", err)
	}
	bad := map[string]func(c *GPSConfig){
		"gatedgcn":             func(c *GPSConfig) { c.Local = LocalGatedGCN },
		"gine":                 func(c *GPSConfig) { c.Local = LocalGINE },
		"full attention":       func(c *GPSConfig) { c.Global = GlobalFull },
		"nothing":              func(c *GPSConfig) { c.Local, c.Global, c.LinearResidual = LocalNone, GlobalNone, false },
		"unknown block":        func(c *GPSConfig) { c.Block = "resnet" },
		"negative local heads": func(c *GPSConfig) { c.LocalHeads = -1 },
		"residual in gps":      func(c *GPSConfig) { c.Block = BlockGPS },
	}
	for name, mutate := range bad {
		c := good
		mutate(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "gps config") {
			t.Errorf("%s: want a gps config error, got %v", name, err)
		}
	}
	if err := (GPSConfig{Local: LocalGCN, Global: GlobalNone, Norm: NormBatch}).Validate(); err != nil {
		t.Errorf("the empty block (gps) rejected: %v", err)
	}
}

func TestClassicInputMapsCount(t *testing.T) {
	cases := []struct {
		cfg  GPSConfig
		want int
	}{
		{GPSConfig{Block: BlockClassic, Local: LocalGCN}, 1},
		{GPSConfig{Block: BlockClassic, Local: LocalSAGE, LinearResidual: true}, 3},
		{GPSConfig{Block: BlockClassic, Local: LocalGAT, LinearResidual: true, Global: GlobalExphormer}, 5},
		{GPSConfig{Block: BlockClassic, Local: LocalNone, Global: GlobalExphormer}, 3},
		{GPSConfig{Block: BlockGPS, Local: LocalSAGE, Global: GlobalExphormer}, 0},
	}
	for _, c := range cases {
		if got := c.cfg.ClassicInputMaps(); got != c.want {
			t.Errorf("%s, residual %v, %s: %d input maps, want %d", c.cfg.Local, c.cfg.LinearResidual, c.cfg.Global, got, c.want)
		}
	}
}

// randomizeTrainables sets every trainable variable of store to normal values, so that
// a reference computation cannot pass with a bias or gain left out that happens to be
// initialised to zero or one.
func randomizeTrainables(t *testing.T, store *model.Store, rng *rand.Rand) {
	t.Helper()
	for v := range store.IterVariables() {
		if !v.Trainable {
			continue
		}
		dims := v.Shape().Dimensions
		size := v.Shape().Size()
		if err := v.SetValue(tensors.FromFlatDataAndDimensions(randFloats(rng, size, 0.7), dims...)); err != nil {
			t.Fatalf("setting %s: %v", v.Path(), err)
		}
	}
}

// varBySuffix returns the value of the one variable whose path ends in suffix.
func varBySuffix(t *testing.T, store *model.Store, suffix string) []float64 {
	t.Helper()
	var found []string
	for v := range store.IterVariables() {
		if strings.HasSuffix(v.Path(), suffix) {
			found = append(found, v.Path())
		}
	}
	if len(found) != 1 {
		t.Fatalf("variables ending in %q: %v, want one", suffix, found)
	}
	return varValue(t, store, found[0])
}

// classicGraph is a small graph for the classic layer's tests: node 4 has no incoming
// edge, the edge 1 → 0 is repeated.
var classicSrc, classicDst = []int32{1, 2, 1, 0, 4, 4, 3}, []int32{0, 0, 0, 2, 2, 1, 3}

// runClassic runs a classic layer of cfg on x (its first input) twice on the same store:
// once to create the variables, then, with every trainable variable set to random
// values, for the output it returns. build gives the layer its edges and maps.
func runClassic(t *testing.T, store *model.Store, fn graphFn, inputs ...any) []float64 {
	t.Helper()
	runGraph(t, store, false, fn, inputs...)
	randomizeTrainables(t, store, rand.New(rand.NewPCG(8, 8)))
	return flat64(t, runGraph(t, store, false, fn, inputs...)[0])
}

// layerNormRows normalises each row of x [n, d] over its features (biased variance,
// ε = 1e-5) with gain and offset [d].
func layerNormRows(x []float64, n, d int, gain, offset []float64) []float64 {
	out := make([]float64, len(x))
	for i := range n {
		row := x[i*d : (i+1)*d]
		var mean, v float64
		for _, a := range row {
			mean += a
		}
		mean /= float64(d)
		for _, a := range row {
			v += (a - mean) * (a - mean)
		}
		v /= float64(d)
		for c, a := range row {
			out[i*d+c] = (a-mean)/math.Sqrt(v+1e-5)*gain[c] + offset[c]
		}
	}
	return out
}

func reluAll(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Max(v, 0)
	}
	return out
}

// TestClassicSAGELayerMatchesLoopReference holds a classic layer (sage, linear residual,
// layer norm) to Luo et al.'s forward pass written out in loops: ReLU(LN(W_r x_i +
// W_n mean_{j→i} x_j + b + W_res x_i + b_res)), with every weight, bias and gain random.
func TestClassicSAGELayerMatchesLoopReference(t *testing.T) {
	const n, d = 5, 3
	rng := rand.New(rand.NewPCG(51, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	cfg := GPSConfig{Block: BlockClassic, Local: LocalSAGE, Global: GlobalNone, Norm: NormLayer, LinearResidual: true, Dropout: 0.5}
	store := newStore(t, 52)
	got := runClassic(t, store, func(scope *model.Scope, in []*Node) []*Node {
		h, _ := NewGPSLayer(scope.In("c"), in[0], cfg).LocalEdges(in[1], in[2], nil).Done()
		return []*Node{h}
	}, xT, classicSrc, classicDst)
	w := varValue(t, store, "/c/local/linear/dense/weights") // [d, 2d]: root | neighbours.
	wr, wn := make([]float64, d*d), make([]float64, d*d)
	for i := range d {
		copy(wr[i*d:(i+1)*d], w[i*2*d:i*2*d+d])
		copy(wn[i*d:(i+1)*d], w[i*2*d+d:(i+1)*2*d])
	}
	mean, count := make([]float64, n*d), make([]float64, n)
	for k := range classicSrc {
		count[classicDst[k]]++
		for c := range d {
			mean[int(classicDst[k])*d+c] += x[int(classicSrc[k])*d+c]
		}
	}
	for i := range n {
		for c := range d {
			mean[i*d+c] /= math.Max(count[i], 1)
		}
	}
	pre := affine(x, n, d, wr, varValue(t, store, "/c/local/bias"), d)
	agg := matmulRows(mean, n, d, wn, d)
	res := affine(x, n, d, varValue(t, store, "/c/residual/dense/weights"), varValue(t, store, "/c/residual/dense/biases"), d)
	for i := range pre {
		pre[i] += agg[i] + res[i]
	}
	want := reluAll(layerNormRows(pre, n, d, varBySuffix(t, store, "gain"), varBySuffix(t, store, "offset")))
	if diff := maxAbsDiff(t, got, want); diff > 1e-12 {
		t.Errorf("classic sage layer differs from ReLU(LN(SAGE(x) + W_res x + b_res)) by %g", diff)
	}
}

// TestClassicGCNLayerFromRawFeatures holds a first classic layer given its input maps
// (gcn and the linear residual, computed from raw features of another width) to the
// loop computation ReLU(Σ_j x̃_j/√(d̂_i d̂_j) + x̃_i/d̂_i + b + x̂_i + b_res), x̃ and x̂ the
// given maps, d̂ the in-degree plus one.
func TestClassicGCNLayerFromRawFeatures(t *testing.T) {
	const n, f, d = 5, 4, 3
	rng := rand.New(rand.NewPCG(53, 1))
	raw := randFloats(rng, n*f, 1)
	w1, w2 := randFloats(rng, f*d, 1), randFloats(rng, f*d, 1)
	xw, xres := matmulRows(raw, n, f, w1, d), matmulRows(raw, n, f, w2, d)
	cfg := GPSConfig{Block: BlockClassic, Local: LocalGCN, Global: GlobalNone, Norm: NormNone, LinearResidual: true}
	store := newStore(t, 54)
	got := runClassic(t, store, func(scope *model.Scope, in []*Node) []*Node {
		h, _ := NewGPSLayer(scope.In("c"), nil, cfg).InputMaps([]*Node{in[0], in[1]}).LocalEdges(in[2], in[3], nil).Done()
		return []*Node{h}
	}, tensors.FromFlatDataAndDimensions(xw, n, d), tensors.FromFlatDataAndDimensions(xres, n, d), classicSrc, classicDst)
	deg := make([]float64, n)
	for i := range deg {
		deg[i] = 1
	}
	for _, j := range classicDst {
		deg[j]++
	}
	bias, bres := varValue(t, store, "/c/local/bias"), varValue(t, store, "/c/residual/dense/biases")
	want := make([]float64, n*d)
	for i := range n {
		for c := range d {
			want[i*d+c] = xw[i*d+c]/deg[i] + bias[c] + xres[i*d+c] + bres[c]
		}
	}
	for k := range classicSrc {
		i, j := int(classicDst[k]), int(classicSrc[k])
		for c := range d {
			want[i*d+c] += xw[j*d+c] / math.Sqrt(deg[i]*deg[j])
		}
	}
	if diff := maxAbsDiff(t, got, reluAll(want)); diff > 1e-12 {
		t.Errorf("classic gcn layer on given maps differs from the loop computation by %g", diff)
	}
}

// TestClassicGATLayerMatchesLoopReference holds a classic gat layer (one head, no bias,
// batch norm in inference with random running statistics' affine part) to the per-node
// softmax loop over the incoming edges and one self loop.
func TestClassicGATLayerMatchesLoopReference(t *testing.T) {
	const n, d = 5, 4
	rng := rand.New(rand.NewPCG(55, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	cfg := GPSConfig{Block: BlockClassic, Local: LocalGAT, Global: GlobalNone, Norm: NormBatch, Heads: 2, LocalHeads: 1}
	store := newStore(t, 56)
	got := runClassic(t, store, func(scope *model.Scope, in []*Node) []*Node {
		h, _ := NewGPSLayer(scope.In("c"), in[0], cfg).LocalEdges(in[1], in[2], nil).Done()
		return []*Node{h}
	}, xT, classicSrc, classicDst)
	if store.GetVariable("/c/local/bias") != nil {
		t.Errorf("the classic layer's GAT has a bias; Luo et al.'s GATConv has none")
	}
	z := matmulRows(x, n, d, varValue(t, store, "/c/local/linear/dense/weights"), d)
	aSrc, aDst := varValue(t, store, "/c/local/att_src"), varValue(t, store, "/c/local/att_dst")
	es, ed := append([]int32{}, classicSrc...), append([]int32{}, classicDst...)
	for i := range int32(n) {
		es, ed = append(es, i), append(ed, i)
	}
	pre := make([]float64, n*d)
	for i := range n {
		var den float64
		num := make([]float64, d)
		for k := range es {
			if int(ed[k]) != i {
				continue
			}
			j := int(es[k])
			var s float64
			for c := range d {
				s += aSrc[c]*z[j*d+c] + aDst[c]*z[i*d+c]
			}
			if s < 0 {
				s *= 0.2
			}
			w := math.Exp(s)
			den += w
			for c := range d {
				num[c] += w * z[j*d+c]
			}
		}
		for c := range d {
			pre[i*d+c] = num[c] / den
		}
	}
	scale, offset := varBySuffix(t, store, "norm/scale"), varBySuffix(t, store, "norm/offset")
	mean, variance := varBySuffix(t, store, "norm/mean"), varBySuffix(t, store, "norm/variance")
	want := make([]float64, n*d)
	for i := range n {
		for c := range d {
			want[i*d+c] = math.Max(0, (pre[i*d+c]-mean[c])/math.Sqrt(variance[c]+1e-5)*scale[c]+offset[c])
		}
	}
	if diff := maxAbsDiff(t, got, want); diff > 1e-12 {
		t.Errorf("classic gat layer differs from the per-node softmax loop by %g", diff)
	}
}

// TestClassicInputMapsEqualComputedMaps checks that a classic layer given its input maps
// (the products of x with the very weights the layer creates when it computes them
// itself) computes the same output, with sage, the linear residual and Exphormer
// attention: the maps' order is the one ClassicInputMaps documents.
func TestClassicInputMapsEqualComputedMaps(t *testing.T) {
	g := newGPSGraph(7)
	cfg := GPSConfig{Block: BlockClassic, Local: LocalSAGE, Global: GlobalExphormer, Norm: NormLayer, Heads: 2, LinearResidual: true}
	outs := runGraph(t, newStore(t, 7), false, func(scope *model.Scope, in []*Node) []*Node {
		self, _ := NewGPSLayer(scope.In("gps"), in[0], cfg).LocalEdges(in[2], in[3], nil).AttentionEdges(in[5], in[6], in[4]).Done()
		gps := scope.Shared("gps")
		g := in[0].Graph()
		weight := func(path string) *Node { return scope.Store().GetVariable(path).NodeValue(g) }
		d := dim(in[0], 1)
		sage := MatMul(in[0], weight("/gps/local/linear/dense/weights"))
		qkv := MatMul(in[0], weight("/gps/attention/qkv/dense/weights"))
		part := func(x *Node, p int) *Node { return Slice(x, AxisRange(), AxisRange(p*d, (p+1)*d)) }
		maps := []*Node{part(sage, 0), part(sage, 1), MatMul(in[0], weight("/gps/residual/dense/weights")),
			part(qkv, 0), part(qkv, 1), part(qkv, 2)}
		given, _ := NewGPSLayer(gps, nil, cfg).InputMaps(maps).LocalEdges(in[2], in[3], nil).AttentionEdges(in[5], in[6], in[4]).Done()
		return []*Node{self, given}
	}, g.inputs()...)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), flat64(t, outs[1])); diff > 1e-12 {
		t.Errorf("given input maps change the classic layer's output by %g", diff)
	}
}

// TestClassicFirstLayerGradients checks by finite differences the gradients of a first
// classic layer reading raw features of another width through its input maps (gat with
// Exphormer attention and the linear residual, then sage with batch norm), with respect
// to the features, the encoder's weights and the layer's variables.
func TestClassicFirstLayerGradients(t *testing.T) {
	const n, f, d = 8, 5, 4
	rng := rand.New(rand.NewPCG(57, 1))
	raw := tensor64(rng, 1, n, f)
	src, dst := randomEdges(rng, n, 16)
	hSrc, hDst := randomEdges(rng, n, 20)
	hEmb := tensor64(rng, 1, 20, d)
	configs := map[string]GPSConfig{
		"gat+exphormer": {Block: BlockClassic, Local: LocalGAT, Global: GlobalExphormer, Norm: NormLayer, Heads: 2, LocalHeads: 1, LinearResidual: true, Dropout: 0.2},
		"sage-batch":    {Block: BlockClassic, Local: LocalSAGE, Global: GlobalNone, Norm: NormBatch, Dropout: 0.1},
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			checkGradients(t, gradCheck{
				inputs: []any{raw, src, dst, hSrc, hDst, hEmb},
				wrt:    []int{0, 5},
				seed:   58,
				layer: func(scope *model.Scope, in []*Node) *Node {
					maps := LinearParts(scope.In("encoder"), in[0], false, d, cfg.ClassicInputMaps())
					h, _ := NewGPSLayer(scope.In("gps"), nil, cfg).InputMaps(maps).LocalEdges(in[1], in[2], nil).
						AttentionEdges(in[3], in[4], in[5]).Done()
					return Add(h, MulScalar(ReduceAllSum(in[5]), 0))
				},
			})
		})
	}
}
