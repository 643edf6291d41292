package layers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gexph/gexph/expander"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

func TestGPSConfigValidate(t *testing.T) {
	good := GPSConfig{Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 4}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid config rejected: %v", err)
	}
	if err := (GPSConfig{Local: LocalNone, Global: GlobalNone, Norm: NormNone}).Validate(); err != nil {
		t.Fatalf("config without heads and no attention rejected: %v", err)
	}
	bad := map[string]func(c *GPSConfig){
		"local":             func(c *GPSConfig) { c.Local = "pna" },
		"global":            func(c *GPSConfig) { c.Global = "transformer" },
		"norm":              func(c *GPSConfig) { c.Norm = "group" },
		"heads":             func(c *GPSConfig) { c.Heads = 0 },
		"dropout":           func(c *GPSConfig) { c.Dropout = 1 },
		"attention dropout": func(c *GPSConfig) { c.AttentionDropout = -0.1 },
		"performer":         func(c *GPSConfig) { c.PerformerFeatures = -1 },
	}
	for name, mutate := range bad {
		c := good
		mutate(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "gps config") {
			t.Errorf("%s: want a gps config error, got %v", name, err)
		}
	}
}

// gpsGraph is a batch of two small graphs for GPS tests: local edges with states,
// interaction edges (the local ones both ways plus a few random ones) with embeddings,
// graph ids (given to the layer as their block layout, blocks of blockSize slots, 0:
// the largest graph's size) and an equivariant-stable PE.
type gpsGraph struct {
	n, d                 int
	x, ef, hEmb, pe      []float64
	src, dst, hSrc, hDst []int32
	graphID              []int32
	blockSize            int
}

func newGPSGraph(seed uint64) gpsGraph {
	rng := rand.New(rand.NewPCG(seed, 3))
	g := gpsGraph{n: 10, d: 8, graphID: []int32{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}
	for k := range 14 {
		base := int32(5 * (k % 2))
		s, d := base+int32(rng.IntN(5)), base+int32(rng.IntN(5))
		g.src, g.dst = append(g.src, s), append(g.dst, d)
		g.hSrc, g.hDst = append(g.hSrc, s, d), append(g.hDst, d, s)
	}
	for range 6 {
		base := int32(5 * rng.IntN(2))
		g.hSrc, g.hDst = append(g.hSrc, base+int32(rng.IntN(5))), append(g.hDst, base+int32(rng.IntN(5)))
	}
	g.x = randFloats(rng, g.n*g.d, 1)
	g.ef = randFloats(rng, len(g.src)*g.d, 1)
	g.hEmb = randFloats(rng, len(g.hSrc)*g.d, 1)
	g.pe = randFloats(rng, g.n*3, 1)
	return g
}

// permuted returns the same batch with node i renamed perm[i] and the edges listed in
// reversed order.
func (g gpsGraph) permuted(perm []int32) gpsGraph {
	p := gpsGraph{n: g.n, d: g.d, blockSize: g.blockSize}
	p.x = make([]float64, len(g.x))
	p.pe = make([]float64, len(g.pe))
	p.graphID = make([]int32, g.n)
	for i := range g.n {
		copy(p.x[int(perm[i])*g.d:][:g.d], g.x[i*g.d:(i+1)*g.d])
		copy(p.pe[int(perm[i])*3:][:3], g.pe[i*3:(i+1)*3])
		p.graphID[perm[i]] = g.graphID[i]
	}
	reverse := func(src, dst []int32, emb []float64) (s, d []int32, e []float64) {
		for k := len(src) - 1; k >= 0; k-- {
			s, d = append(s, perm[src[k]]), append(d, perm[dst[k]])
			e = append(e, emb[k*g.d:(k+1)*g.d]...)
		}
		return s, d, e
	}
	p.src, p.dst, p.ef = reverse(g.src, g.dst, g.ef)
	p.hSrc, p.hDst, p.hEmb = reverse(g.hSrc, g.hDst, g.hEmb)
	return p
}

// inputs returns the layer inputs; in[7] is the block layout [2, S] of the two graphs.
func (g gpsGraph) inputs() []any {
	blocks, size, err := expander.BlockNodes(g.graphID, 2, g.blockSize)
	if err != nil {
		panic(err)
	}
	return []any{
		tensors.FromFlatDataAndDimensions(g.x, g.n, g.d), tensors.FromFlatDataAndDimensions(g.ef, len(g.src), g.d),
		g.src, g.dst, tensors.FromFlatDataAndDimensions(g.hEmb, len(g.hSrc), g.d), g.hSrc, g.hDst,
		tensors.FromFlatDataAndDimensions(blocks, 2, size), tensors.FromFlatDataAndDimensions(g.pe, g.n, 3),
	}
}

// gpsLayer builds a GPS layer on gpsGraph inputs (see gpsGraph.inputs).
func gpsLayer(scope *model.Scope, in []*Node, cfg GPSConfig) (x, e *Node) {
	return NewGPSLayer(scope.In("gps"), in[0], cfg).LocalEdges(in[2], in[3], in[1]).
		AttentionEdges(in[5], in[6], in[4]).Blocks(in[7]).EquivStablePE(in[8]).Done()
}

func TestGPSLayerPermutationEquivariance(t *testing.T) {
	perm := []int32{7, 2, 9, 0, 4, 1, 8, 3, 6, 5}
	configs := map[string]struct {
		cfg       GPSConfig
		blockSize int // Block layout slots per graph; 0: the largest graph's size.
	}{
		"gatedgcn+exphormer": {cfg: GPSConfig{Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 2, Dropout: 0.3, AttentionDropout: 0.3}},
		"gine+full":          {cfg: GPSConfig{Local: LocalGINE, Global: GlobalFull, Norm: NormLayer, Heads: 2}},
		"gcn+performer":      {cfg: GPSConfig{Local: LocalGCN, Global: GlobalPerformer, Norm: NormBatch, Heads: 4}},
		"gatedgcn+padded":    {cfg: GPSConfig{Local: LocalGatedGCN, Global: GlobalFull, Norm: NormBatch, Heads: 2}, blockSize: 6},
		"none+exphormer-ref": {cfg: GPSConfig{Local: LocalNone, Global: GlobalExphormer, Norm: NormNone, Heads: 2, ReferenceAttention: true}},
	}
	for name, c := range configs {
		t.Run(name, func(t *testing.T) {
			cfg := c.cfg
			g := newGPSGraph(1)
			g.blockSize = c.blockSize
			pg := g.permuted(perm)
			store := newStore(t, 2)
			fn := func(scope *model.Scope, in []*Node) []*Node {
				x, e := gpsLayer(scope, in, cfg)
				return []*Node{x, e}
			}
			outs := runGraph(t, store, false, fn, g.inputs()...)
			pouts := runGraph(t, store, false, fn, pg.inputs()...)
			x, px := flat64(t, outs[0]), flat64(t, pouts[0])
			for i := range g.n {
				if diff := maxAbsDiff(t, x[i*g.d:(i+1)*g.d], px[int(perm[i])*g.d:][:g.d]); diff > 1e-9 {
					t.Fatalf("node %d: output changes by %g under the permutation", i, diff)
				}
			}
			e, pe := flat64(t, outs[1]), flat64(t, pouts[1])
			m := len(g.src)
			for k := range m {
				if diff := maxAbsDiff(t, e[k*g.d:(k+1)*g.d], pe[(m-1-k)*g.d:][:g.d]); diff > 1e-9 {
					t.Fatalf("edge %d: state changes by %g under the permutation", k, diff)
				}
			}
		})
	}
}

// TestGPSLayerComposition checks the GPS layer against its parts assembled by hand: with
// no normalisation and no dropout, out = h + FFN(h) with h = (x + local) + (x + global).
func TestGPSLayerComposition(t *testing.T) {
	g := newGPSGraph(3)
	cfg := GPSConfig{Local: LocalGCN, Global: GlobalExphormer, Norm: NormNone, Heads: 2}
	outs := runGraph(t, newStore(t, 3), false, func(scope *model.Scope, in []*Node) []*Node {
		got, _ := gpsLayer(scope, in, cfg)
		gps := scope.Shared("gps")
		local := GCNConv(gps.In("local"), in[0], in[2], in[3])
		global := NewExphormerAttention(gps.In("attention"), in[0], in[4], in[5], in[6], 2).Done()
		h := Add(Add(in[0], local), Add(in[0], global))
		want := Add(h, FeedForward(gps.In("ffn"), h, 2, 0))
		return []*Node{got, want}
	}, g.inputs()...)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), flat64(t, outs[1])); diff > 1e-12 {
		t.Errorf("GPS layer differs from its parts by %g", diff)
	}
}

// TestGPSLayerMasks checks that with NormMask and LocalEdgeMask, padding nodes and edges
// (connected only among themselves) do not affect the real nodes and edges in training,
// while without the masks they do (through the batch statistics).
func TestGPSLayerMasks(t *testing.T) {
	g := newGPSGraph(4)
	// Pad with 3 nodes and 4 edges among them.
	padded := g
	realN, realE := g.n, len(g.src)
	padded.n += 3
	padded.graphID = append(append([]int32{}, g.graphID...), 1, 1, 1)
	padded.src = append(append([]int32{}, g.src...), 10, 11, 12, 10)
	padded.dst = append(append([]int32{}, g.dst...), 11, 12, 10, 10)
	padded.hSrc = append(append([]int32{}, g.hSrc...), 10, 11)
	padded.hDst = append(append([]int32{}, g.hDst...), 11, 12)
	rng := rand.New(rand.NewPCG(4, 4))
	withPad := func(scale float64) gpsGraph {
		p := padded
		p.x = append(append([]float64{}, g.x...), randFloats(rng, 3*g.d, scale)...)
		p.ef = append(append([]float64{}, g.ef...), randFloats(rng, 4*g.d, scale)...)
		p.hEmb = append(append([]float64{}, g.hEmb...), randFloats(rng, 2*g.d, scale)...)
		p.pe = append(append([]float64{}, g.pe...), randFloats(rng, 3*3, scale)...)
		return p
	}
	small, large := withPad(0.1), withPad(100)
	nodeMask := make([]bool, padded.n)
	for i := range realN {
		nodeMask[i] = true
	}
	edgeMask := make([]float32, len(padded.src))
	for k := range realE {
		edgeMask[k] = 1
	}
	cfg := GPSConfig{Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 2}
	run := func(p gpsGraph, masked bool) (x, e []float64) {
		outs := runGraph(t, newStore(t, 5), true, func(scope *model.Scope, in []*Node) []*Node {
			b := NewGPSLayer(scope.In("gps"), in[0], cfg).LocalEdges(in[2], in[3], in[1]).
				AttentionEdges(in[5], in[6], in[4]).Blocks(in[7]).EquivStablePE(in[8])
			if masked {
				b.NormMask(in[9]).LocalEdgeMask(ConvertDType(in[10], in[0].DType()))
			}
			x, e := b.Done()
			return []*Node{x, e}
		}, append(p.inputs(), nodeMask, edgeMask)...)
		return flat64(t, outs[0])[:realN*g.d], flat64(t, outs[1])[:realE*g.d]
	}
	xs, es := run(small, true)
	xl, el := run(large, true)
	if diff := max(maxAbsDiff(t, xs, xl), maxAbsDiff(t, es, el)); diff > 1e-9 {
		t.Errorf("with masks, padding changes real outputs by %g", diff)
	}
	xs, es = run(small, false)
	xl, el = run(large, false)
	if diff := max(maxAbsDiff(t, xs, xl), maxAbsDiff(t, es, el)); diff < 1e-3 {
		t.Errorf("without masks, padding changes real outputs by only %g: the test is not sensitive", diff)
	}
}

// TestGPSLayerAttentionEdgeTable checks that giving the attention edge embeddings as a
// table and an index computes the same layer, values and gradients, as giving the
// gathered rows per edge.
func TestGPSLayerAttentionEdgeTable(t *testing.T) {
	g := newGPSGraph(6)
	rng := rand.New(rand.NewPCG(6, 6))
	const numRows = 3
	table := tensors.FromFlatDataAndDimensions(randFloats(rng, numRows*g.d, 1), numRows, g.d)
	index := make([]int32, len(g.hSrc))
	for i := range index {
		index[i] = int32(rng.IntN(numRows))
	}
	weights := tensors.FromFlatDataAndDimensions(randFloats(rng, g.n*g.d, 1), g.n, g.d)
	cfg := GPSConfig{Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 2}
	store := newStore(t, 6)
	// Two graphs on the same variables: one with the table, one with the gathered rows.
	// Each returns its output and the gradients of a random projection of it with
	// respect to x, the table and every trainable variable.
	layer := func(scope *model.Scope, in []*Node, useTable bool) []*Node {
		b := NewGPSLayer(scope.In("gps"), in[0], cfg).LocalEdges(in[2], in[3], in[1]).EquivStablePE(in[8])
		if useTable {
			b.AttentionEdges(in[5], in[6], nil).AttentionEdgeTable(in[9], in[10])
		} else {
			b.AttentionEdges(in[5], in[6], Gather(in[9], InsertAxes(in[10], -1)))
		}
		out, _ := b.Done()
		loss := ReduceAllSum(Mul(out, in[11]))
		grads := Gradient(loss, in[0], in[9])
		return append(append([]*Node{out}, grads...), scope.BuildTrainableVariablesGradientsGraph(loss)...)
	}
	inputs := append(g.inputs(), table, index, weights)
	want := runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node { return layer(scope, in, false) }, inputs...)
	got := runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node { return layer(scope, in, true) }, inputs...)
	if len(got) != len(want) || len(got) < 4 {
		t.Fatalf("got %d outputs and gradients, want %d (≥ 4)", len(got), len(want))
	}
	names := []string{"output", "gradient of x", "gradient of the table"}
	for i := range got {
		name := fmt.Sprintf("gradient of trainable variable %d", i-len(names))
		if i < len(names) {
			name = names[i]
		}
		if diff := maxAbsDiff(t, flat64(t, got[i]), flat64(t, want[i])); diff > 1e-9 {
			t.Errorf("%s: table and per-edge embeddings differ by %g", name, diff)
		}
	}
	// The table gradient must be live for the comparison to mean something.
	if norm := maxAbsDiff(t, flat64(t, got[2]), make([]float64, numRows*g.d)); norm < 1e-6 {
		t.Errorf("gradient of the table is %g: the test is not sensitive", norm)
	}
}

// TestGPSLayerReferenceVirtualNodes checks ReferenceVirtualNodes in training (batch
// statistics on) against computations without it, on the same variables: the virtual
// rows (the last two) come out as the bare Exphormer attention's output for them, and
// the real rows as those of the ordinary layer whose normalisations leave the virtual
// rows out of their statistics (NormMask).
func TestGPSLayerReferenceVirtualNodes(t *testing.T) {
	g := newGPSGraph(5)
	const firstVirtual = 8
	cfg := GPSConfig{Local: LocalGatedGCN, Global: GlobalExphormer, Norm: NormBatch, Heads: 2, ReferenceAttention: true}
	realRows := make([]float64, g.n)
	for i := range firstVirtual {
		realRows[i] = 1
	}
	in := append(g.inputs(), tensors.FromFlatDataAndDimensions(realRows, g.n))
	store := newStore(t, 6)
	layer := func(opts func(b *GPSLayerBuilder, in []*Node)) []float64 {
		return flat64(t, runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
			b := NewGPSLayer(scope.In("gps"), in[0], cfg).LocalEdges(in[2], in[3], in[1]).
				AttentionEdges(in[5], in[6], in[4]).EquivStablePE(in[8])
			opts(b, in)
			x, _ := b.Done()
			return []*Node{x}
		}, in...)[0])
	}
	got := layer(func(b *GPSLayerBuilder, _ []*Node) { b.ReferenceVirtualNodes(firstVirtual) })
	masked := layer(func(b *GPSLayerBuilder, in []*Node) { b.NormMask(in[9]) })
	plain := layer(func(*GPSLayerBuilder, []*Node) {})
	attn := flat64(t, runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewExphormerAttention(scope.In("gps").In("attention"), in[0], in[4], in[5], in[6], 2).Reference(true).Done()}
	}, in...)[0])
	split := firstVirtual * g.d
	if diff := maxAbsDiff(t, got[:split], masked[:split]); diff > 1e-12 {
		t.Errorf("real rows differ by %g from the layer with the virtual rows out of the statistics", diff)
	}
	if diff := maxAbsDiff(t, got[split:], attn[split:]); diff > 1e-12 {
		t.Errorf("virtual rows differ by %g from the attention's output", diff)
	}
	// Both parts differ from the ordinary layer: the option is not a no-op.
	if diff := maxAbsDiff(t, got[:split], plain[:split]); diff < 1e-6 {
		t.Errorf("real rows equal the ordinary layer's (diff %g): statistics still include the virtual rows", diff)
	}
	if diff := maxAbsDiff(t, got[split:], plain[split:]); diff < 1e-6 {
		t.Errorf("virtual rows equal the ordinary layer's (diff %g)", diff)
	}
}
