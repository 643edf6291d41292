package layers

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX graph building reads best dot-imported.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// affine returns x [m, in] · W [in, out] + b in float64.
func affine(x []float64, m, in int, w, b []float64, out int) []float64 {
	y := matmulRows(x, m, in, w, out)
	for i := range m {
		for j := range out {
			y[i*out+j] += b[j]
		}
	}
	return y
}

func sigmoid(v float64) float64 { return 1 / (1 + math.Exp(-v)) }

func TestGatedGCNMatchesLoopReference(t *testing.T) {
	const n, d, e = 6, 4, 15
	xT, efT, peT, src, dst := mpnnInputs(21, n, d, e)
	x, ef, pe := flat64(t, xT.(*tensors.Tensor)), flat64(t, efT.(*tensors.Tensor)), flat64(t, peT.(*tensors.Tensor))
	for _, withPE := range []bool{false, true} {
		store := newStore(t, 22)
		outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
			b := NewGatedGCN(scope.In("g"), in[0], in[1], in[2], in[3]).BatchNorm(false)
			if withPE {
				b.EquivStablePE(in[4])
			}
			h, eo := b.Done()
			return []*Node{h, eo}
		}, xT, efT, src, dst, peT)
		v := func(path string) []float64 { return varValue(t, store, "/g/"+path) }
		abde := affine(x, n, d, v("ABDE/dense/weights"), v("ABDE/dense/biases"), 4*d)
		ce := affine(ef, e, d, v("C/dense/weights"), v("C/dense/biases"), d)
		part := func(node, p, k int) float64 { return abde[node*4*d+p*d+k] }
		wantX, wantE := make([]float64, n*d), make([]float64, e*d)
		num, den := make([]float64, n*d), make([]float64, n*d)
		for k := range e {
			i, j := int(dst[k]), int(src[k])
			gate := 1.0
			if withPE {
				dist := 0.0
				for c := range 3 {
					diff := pe[i*3+c] - pe[j*3+c]
					dist += diff * diff
				}
				hidden := affine([]float64{dist}, 1, 1, v("pe_gate/linear1/dense/weights"), v("pe_gate/linear1/dense/biases"), d)
				for c := range hidden {
					hidden[c] = max(hidden[c], 0)
				}
				gate = sigmoid(affine(hidden, 1, d, v("pe_gate/linear2/dense/weights"), v("pe_gate/linear2/dense/biases"), 1)[0])
			}
			for c := range d {
				eHat := part(i, 2, c) + part(j, 3, c) + ce[k*d+c]
				sig := sigmoid(eHat) * gate
				num[i*d+c] += sig * part(j, 1, c)
				den[i*d+c] += sig
				wantE[k*d+c] = ef[k*d+c] + max(eHat, 0)
			}
		}
		for i := range n {
			for c := range d {
				wantX[i*d+c] = x[i*d+c] + max(part(i, 0, c)+num[i*d+c]/(den[i*d+c]+1e-6), 0)
			}
		}
		if diff := maxAbsDiff(t, flat64(t, outs[0]), wantX); diff > 1e-12 {
			t.Errorf("pe=%v: node states differ from the loop by %g", withPE, diff)
		}
		if diff := maxAbsDiff(t, flat64(t, outs[1]), wantE); diff > 1e-12 {
			t.Errorf("pe=%v: edge states differ from the loop by %g", withPE, diff)
		}
	}
}

func TestGINEMatchesLoopReference(t *testing.T) {
	const n, d, e, eps = 5, 3, 12, 0.3
	xT, efT, _, src, dst := mpnnInputs(23, n, d, e)
	x, ef := flat64(t, xT.(*tensors.Tensor)), flat64(t, efT.(*tensors.Tensor))
	store := newStore(t, 24)
	outs := runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{NewGINE(scope.In("g"), in[0], in[1], in[2], in[3]).Epsilon(eps).TrainEpsilon(true).Done()}
	}, xT, efT, src, dst)
	if got := varValue(t, store, "/g/eps"); len(got) != 1 || got[0] != eps {
		t.Fatalf("trainable epsilon starts at %v, want %g", got, eps)
	}
	h := make([]float64, n*d)
	for i := range n * d {
		h[i] = (1 + eps) * x[i]
	}
	for k := range e {
		for c := range d {
			h[int(dst[k])*d+c] += max(x[int(src[k])*d+c]+ef[k*d+c], 0)
		}
	}
	v := func(path string) []float64 { return varValue(t, store, "/g/"+path) }
	hidden := affine(h, n, d, v("mlp1/dense/weights"), v("mlp1/dense/biases"), d)
	for i := range hidden {
		hidden[i] = max(hidden[i], 0)
	}
	want := affine(hidden, n, d, v("mlp2/dense/weights"), v("mlp2/dense/biases"), d)
	if diff := maxAbsDiff(t, flat64(t, outs[0]), want); diff > 1e-12 {
		t.Errorf("GINE differs from the loop by %g", diff)
	}
}

func TestGCNMatchesNormalizedAdjacency(t *testing.T) {
	const n, d = 5, 3
	// A duplicated edge counts twice, as in PyG's GCNConv with repeated edge_index entries.
	src := []int32{1, 2, 3, 0, 4, 4, 1}
	dst := []int32{0, 0, 1, 2, 2, 2, 3}
	rng := rand.New(rand.NewPCG(25, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	store := newStore(t, 26)
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{GCNConv(scope.In("g"), in[0], in[1], in[2])}
	}, xT, src, dst)
	// Â = A + I with A[i][j] the number of edges j → i; D̂ = row sums of Â.
	adj := make([]float64, n*n)
	for i := range n {
		adj[i*n+i] = 1
	}
	for k := range src {
		adj[int(dst[k])*n+int(src[k])]++
	}
	deg := make([]float64, n)
	for i := range n {
		for j := range n {
			deg[i] += adj[i*n+j]
		}
	}
	xw := matmulRows(x, n, d, varValue(t, store, "/g/linear/dense/weights"), d)
	bias := varValue(t, store, "/g/bias")
	want := make([]float64, n*d)
	for i := range n {
		for j := range n {
			coef := adj[i*n+j] / math.Sqrt(deg[i]*deg[j])
			for c := range d {
				want[i*d+c] += coef * xw[j*d+c]
			}
		}
		for c := range d {
			want[i*d+c] += bias[c]
		}
	}
	if diff := maxAbsDiff(t, flat64(t, outs[0]), want); diff > 1e-12 {
		t.Errorf("GCN differs from D̂^{-1/2} Â D̂^{-1/2} X W + b by %g", diff)
	}
}

func TestSAGEMatchesLoopReference(t *testing.T) {
	const n, d = 5, 3
	// Node 4 has no incoming edge (its mean is zero); the repeated edge 1 → 0 counts twice.
	src := []int32{1, 2, 1, 0, 4, 4, 3}
	dst := []int32{0, 0, 0, 2, 2, 1, 3}
	rng := rand.New(rand.NewPCG(41, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	store := newStore(t, 42)
	outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
		return []*Node{SAGEConv(scope.In("s"), in[0], in[1], in[2])}
	}, xT, src, dst)
	w := varValue(t, store, "/s/linear/dense/weights") // [d, 2d]: root | neighbours.
	wr, wn := make([]float64, d*d), make([]float64, d*d)
	for i := range d {
		copy(wr[i*d:(i+1)*d], w[i*2*d:i*2*d+d])
		copy(wn[i*d:(i+1)*d], w[i*2*d+d:(i+1)*2*d])
	}
	mean := make([]float64, n*d)
	count := make([]float64, n)
	for k := range src {
		count[dst[k]]++
		for c := range d {
			mean[int(dst[k])*d+c] += x[int(src[k])*d+c]
		}
	}
	for i := range n {
		for c := range d {
			if count[i] > 0 {
				mean[i*d+c] /= count[i]
			}
		}
	}
	want := affine(x, n, d, wr, varValue(t, store, "/s/bias"), d)
	agg := matmulRows(mean, n, d, wn, d)
	for i := range want {
		want[i] += agg[i]
	}
	if diff := maxAbsDiff(t, flat64(t, outs[0]), want); diff > 1e-12 {
		t.Errorf("SAGE differs from W_r x_i + W_n mean_j x_j + b by %g", diff)
	}
}

func TestGATMatchesLoopReference(t *testing.T) {
	const n, d, heads = 5, 4, 2
	const hd = d / heads
	src := []int32{1, 2, 3, 0, 4, 4, 1}
	dst := []int32{0, 0, 1, 2, 2, 2, 3}
	rng := rand.New(rand.NewPCG(43, 1))
	xT := tensor64(rng, 1, n, d)
	x := flat64(t, xT)
	for _, selfLoops := range []bool{true, false} {
		store := newStore(t, 44)
		outs := runGraph(t, store, false, func(scope *model.Scope, in []*Node) []*Node {
			return []*Node{NewGAT(scope.In("g"), in[0], in[1], in[2], heads).SelfLoops(selfLoops).Done()}
		}, xT, src, dst)
		z := matmulRows(x, n, d, varValue(t, store, "/g/linear/dense/weights"), d)
		aSrc, aDst := varValue(t, store, "/g/att_src"), varValue(t, store, "/g/att_dst")
		bias := varValue(t, store, "/g/bias")
		es, ed := append([]int32{}, src...), append([]int32{}, dst...)
		if selfLoops {
			for i := range int32(n) {
				es, ed = append(es, i), append(ed, i)
			}
		}
		want := make([]float64, n*d)
		for i := range n {
			for h := range heads {
				// Plain softmax over the edges into i, no shift.
				var den float64
				num := make([]float64, hd)
				for k := range es {
					if int(ed[k]) != i {
						continue
					}
					j := int(es[k])
					var s float64
					for c := range hd {
						s += aSrc[h*hd+c]*z[j*d+h*hd+c] + aDst[h*hd+c]*z[i*d+h*hd+c]
					}
					if s < 0 {
						s *= 0.2
					}
					w := math.Exp(s)
					den += w
					for c := range hd {
						num[c] += w * z[j*d+h*hd+c]
					}
				}
				for c := range hd {
					if den > 0 {
						want[i*d+h*hd+c] = num[c] / den
					}
					want[i*d+h*hd+c] += bias[h*hd+c]
				}
			}
		}
		if diff := maxAbsDiff(t, flat64(t, outs[0]), want); diff > 1e-12 {
			t.Errorf("self loops %v: GAT differs from the per-node softmax loop by %g", selfLoops, diff)
		}
	}
}

// TestScalarMLPEqualsHiddenLayer holds the equivariant-stable gate's MLP written through
// its rectifier's pattern (scalarMLP) to the plain Linear2(ReLU(Linear1(s))) with the
// same variables: the outputs and the gradients with respect to s and to every weight and
// bias, in float64 (1e-12) and in float32 (1e-5, where the go backend fuses the pattern's
// products), on 300 edges and random biases (thresholds spread over the edges' values).
func TestScalarMLPEqualsHiddenLayer(t *testing.T) {
	const e, d = 300, 16
	rng := rand.New(rand.NewPCG(31, 32))
	s64, r64 := randFloats(rng, e, 1), randFloats(rng, e, 1)
	for _, f64 := range []bool{true, false} {
		var s, r any = tensors.FromFlatDataAndDimensions(s64, e, 1), tensors.FromFlatDataAndDimensions(r64, e, 1)
		tol := 1e-12
		if !f64 {
			s, r, tol = tensors.FromFlatDataAndDimensions(to32(s64), e, 1), tensors.FromFlatDataAndDimensions(to32(r64), e, 1), 1e-5
		}
		store := newStore(t, 7)
		store.RootScope().SetParam(ParamFanInBias, true)
		outs := runGraph(t, store, true, func(scope *model.Scope, in []*Node) []*Node {
			mlp := scope.In("mlp")
			fused := scalarMLP(mlp, in[0], d)
			g := in[0].Graph()
			vars := func(name string) (w, b *Node) {
				get := func(v string) *Node { return store.GetVariable("/mlp/" + name + "/dense/" + v).NodeValue(g) }
				return get("weights"), get("biases")
			}
			w1, b1 := vars("linear1")
			w2, b2 := vars("linear2")
			hidden := relu(Add(Mul(in[0], w1), InsertAxes(b1, 0))) // [E, d]
			plain := Add(DotGeneral(hidden, []int{1}, nil, w2, []int{0}, nil), InsertAxes(b2, 0))
			targets := []*Node{in[0], w1, b1, w2, b2}
			res := []*Node{fused, plain}
			res = append(res, Gradient(ReduceAllSum(Mul(fused, in[1])), targets...)...)
			return append(res, Gradient(ReduceAllSum(Mul(plain, in[1])), targets...)...)
		}, s, r)
		half := (len(outs) - 2) / 2
		pairs := [][2]int{{0, 1}}
		for k := range half {
			pairs = append(pairs, [2]int{2 + k, 2 + half + k})
		}
		for _, p := range pairs {
			got, want := flat64(t, outs[p[0]]), flat64(t, outs[p[1]])
			for i := range want {
				if math.Abs(got[i]-want[i]) > tol*max(1, math.Abs(want[i])) {
					t.Fatalf("float64=%v, output %d (0: value, then gradients: s, w1, b1, w2, b2) element %d: pattern %.12g, hidden layer %.12g",
						f64, p[0], i, got[i], want[i])
				}
			}
		}
	}
}
