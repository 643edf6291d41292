// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd

package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
)

// productSumCase is ReduceSum(Mul(x [rows, cols], s), axis) with s of the given
// dimensions, on the lhs or the rhs of the product.
type productSumCase struct {
	rows, cols, axis int
	sDims            []int
	sFirst           bool
}

// runProductSum computes the case on a backend of the given config and returns the sum,
// the product (a second output where keepProduct, which then has two consumers) and the
// number of fused nodes.
func runProductSum(t *testing.T, config string, c productSumCase, x, s []float32, keepProduct bool) ([]float32, int) {
	t.Helper()
	raw, err := gobackend.New(config)
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("productsum").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	xs, ss := shapes.Make(dtypes.Float32, c.rows, c.cols), shapes.Make(dtypes.Float32, c.sDims...)
	px, _ := f.Parameter("x", xs, nil)
	ps, _ := f.Parameter("s", ss, nil)
	m := must(t)
	var prod compute.Value
	if c.sFirst {
		prod = m(Mul(f, ps, px))
	} else {
		prod = m(Mul(f, px, ps))
	}
	outs := []compute.Value{m(ReduceSum(f, prod, c.axis))}
	if keepProduct {
		outs = append(outs, prod)
	}
	if err := f.Return(outs, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	fused := 0
	for _, node := range f.Nodes {
		if _, ok := node.Data.(*productSum); ok {
			fused++
		}
	}
	bx, _ := be.BufferFromFlatData(0, append([]float32(nil), x...), xs)
	bs, _ := be.BufferFromFlatData(0, append([]float32(nil), s...), ss)
	res, err := exec.Execute([]compute.Buffer{bx, bs}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	return append([]float32(nil), res[0].(*gobackend.Buffer).Flat.([]float32)...), fused
}

// productSum64 returns the case's sums in float64 and the sums of the products'
// magnitudes (the scale of float32's rounding error).
func productSum64(c productSumCase, x, s []float32) (sums, scale []float64) {
	n := c.cols
	if c.axis == 1 {
		n = c.rows
	}
	sums, scale = make([]float64, n), make([]float64, n)
	for r := range c.rows {
		for col := range c.cols {
			var f float32
			switch {
			case c.sDims[0] == 1:
				f = s[col]
			case c.sDims[1] == 1:
				f = s[r]
			default:
				f = s[r*c.cols+col]
			}
			v := float64(x[r*c.cols+col]) * float64(f)
			i := col
			if c.axis == 1 {
				i = r
			}
			sums[i] += v
			scale[i] += math.Abs(v)
		}
	}
	return sums, scale
}

// TestProductSumEqualsUnfused holds fused column sums of products to the unfused product
// and reduction and to a float64 sum computed here, to float32 rounding: the factor full,
// per row or per column and on either side of the product, widths of a layer (40) and odd
// ones (a partial SIMD vector, more than one group of registers), rows split across
// blocks and workers; row sums, a product with another consumer and one with too few
// rows stay unfused (and equal).
func TestProductSumEqualsUnfused(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var cases []productSumCase
	for _, size := range [][2]int{{30001, 40}, {5000, 7}, {9000, 70}} {
		r, c := size[0], size[1]
		for axis := range 2 {
			for _, dims := range [][]int{{r, c}, {r, 1}, {1, c}} {
				cases = append(cases, productSumCase{r, c, axis, dims, axis == 1 && dims[1] == c})
			}
		}
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dx%d_axis%d_s%v", c.rows, c.cols, c.axis, c.sDims), func(t *testing.T) {
			x, s := randomFloats(rng, c.rows*c.cols), randomFloats(rng, c.sDims[0]*c.sDims[1])
			fused, nf := runProductSum(t, "", c, x, s, false)
			plain, np := runProductSum(t, "no_fusion", c, x, s, false)
			_, nk := runProductSum(t, "", c, x, s, true)
			if want := 1 - c.axis; nf != want || np != 0 || nk != 0 {
				t.Fatalf("%d fused nodes (no_fusion: %d, product kept: %d), want %d (0, 0)", nf, np, nk, want)
			}
			want, scale := productSum64(c, x, s)
			for i := range want {
				tol := 2e-5 * scale[i]
				if math.Abs(float64(fused[i])-want[i]) > tol || math.Abs(float64(plain[i])-want[i]) > tol {
					t.Fatalf("sum %d: fused %v, unfused %v, float64 %v (tolerance %.2g)", i, fused[i], plain[i], want[i], tol)
				}
			}
		})
	}
	short := productSumCase{minProductSumRows - 1, 40, 0, []int{1, 40}, false}
	x, s := randomFloats(rng, short.rows*40), randomFloats(rng, 40)
	if _, n := runProductSum(t, "", short, x, s, false); n != 0 {
		t.Errorf("a product of %d rows was fused", short.rows)
	}
}

// TestCentredSquareSumsEqualUnfused holds the fused sums of centred squares, Σ (x − m)²
// and Σ (x − m)²·w over the rows (a batch norm's variance, unmasked and masked), to the
// same sums with the centred values formed (a centred tensor with another consumer: bit
// for bit) and to a float64 sum, on rows of 40 and of 7 (partial SIMD vectors).
func TestCentredSquareSumsEqualUnfused(t *testing.T) {
	for _, cols := range []int{40, 7} {
		testCentredSquareSums(t, 20001, cols)
	}
}

// testCentredSquareSums is TestCentredSquareSumsEqualUnfused on rows × cols.
func testCentredSquareSums(t *testing.T, rows, cols int) {
	rng := rand.New(rand.NewPCG(33, 34))
	x, m, w := randomFloats(rng, rows*cols), randomFloats(rng, cols), randomFloats(rng, rows)
	full, col, row := shapes.Make(dtypes.Float32, rows, cols), shapes.Make(dtypes.Float32, 1, cols), shapes.Make(dtypes.Float32, rows, 1)
	raw, err := gobackend.New("")
	if err != nil {
		t.Fatal(err)
	}
	be := raw.(*gobackend.Backend)
	builder := be.Builder("centred").(*gobackend.Builder)
	f := builder.Main().(*gobackend.Function)
	mu := must(t)
	px, _ := f.Parameter("x", full, nil)
	px2, _ := f.Parameter("x2", full, nil) // x again: the builder would merge equal nodes
	px3, _ := f.Parameter("x3", full, nil)
	pm, _ := f.Parameter("m", col, nil)
	pw, _ := f.Parameter("w", row, nil)
	square := func(x compute.Value) (d, sq compute.Value) {
		d = mu(Sub(f, x, pm))
		return d, mu(Mul(f, d, d))
	}
	_, sq := square(px)
	plain := mu(ReduceSum(f, sq, 0))
	_, sq2 := square(px2)
	weighted := mu(ReduceSum(f, mu(Mul(f, sq2, pw)), 0))
	kept, sq3 := square(px3)
	formed := mu(ReduceSum(f, sq3, 0))
	if err := f.Return([]compute.Value{plain, weighted, formed, kept}, nil); err != nil {
		t.Fatal(err)
	}
	exec, err := builder.Compile()
	if err != nil {
		t.Fatalf("compile: %+v", err)
	}
	centred, uses := 0, liveUses(f)
	for _, node := range f.Nodes {
		if p, ok := node.Data.(*productSum); ok && p.centred && uses[node.Index] > 0 {
			centred++
		}
	}
	if centred != 2 {
		t.Fatalf("rows of %d: %d centred sums fused, want 2", cols, centred)
	}
	buf := func(flat []float32, s shapes.Shape) compute.Buffer {
		b, err := be.BufferFromFlatData(0, append([]float32(nil), flat...), s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	res, err := exec.Execute([]compute.Buffer{buf(x, full), buf(x, full), buf(x, full), buf(m, col), buf(w, row)}, nil, 0)
	if err != nil {
		t.Fatalf("execute: %+v", err)
	}
	out := func(i int) []float32 { return res[i].(*gobackend.Buffer).Flat.([]float32) }
	for c := range cols {
		if math.Float32bits(out(0)[c]) != math.Float32bits(out(2)[c]) {
			t.Fatalf("rows of %d, column %d: fused %v, with the centred values formed %v", cols, c, out(0)[c], out(2)[c])
		}
		var want, wantW, scale float64
		for r := range rows {
			d := float64(x[r*cols+c]) - float64(m[c])
			want, wantW, scale = want+d*d, wantW+d*d*float64(w[r]), scale+d*d*(1+math.Abs(float64(w[r])))
		}
		if tol := 2e-5 * scale; math.Abs(float64(out(0)[c])-want) > tol || math.Abs(float64(out(1)[c])-wantW) > tol {
			t.Fatalf("rows of %d, column %d: %v and %v, float64 %v and %v", cols, c, out(0)[c], out(1)[c], want, wantW)
		}
	}
}

// TestProductSumColumnsAddInRowOrder holds the fused column sums of one block of rows
// (columnGroup, on this CPU's vector width: 16, 8 or 4 lanes) bit for bit to the scalar
// loop that adds each column's rounded terms in row order: every factor layout, centred
// and not, rows of 40, 7 and 70 values (partial vectors, two groups of columns).
func TestProductSumColumnsAddInRowOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for _, cols := range []int{40, 7, 70} {
		rows := 300
		x, m := randomFloats(rng, rows*cols), randomFloats(rng, cols)
		for _, factor := range []int{factorFull, factorPerRow, factorPerCol, factorNone} {
			for _, centred := range []bool{false, true} {
				p := &productSum{rows: rows, cols: cols, factor: factor, centred: centred}
				s := map[int][]float32{factorFull: randomFloats(rng, rows*cols), factorPerRow: randomFloats(rng, rows), factorPerCol: randomFloats(rng, cols)}[factor]
				var mm []float32
				if centred {
					mm = m
				}
				got, want := make([]float32, cols), make([]float32, cols)
				for c := 0; c < cols; c += productSumGroup {
					columnGroup(p, got, x, s, mm, 5, rows, c)
				}
				for r := 5; r < rows; r++ {
					for c := range cols {
						want[c] += productTerm(x[r*cols+c], p.factorRow(s, r), mm, c)
					}
				}
				for c := range cols {
					if math.Float32bits(got[c]) != math.Float32bits(want[c]) {
						t.Fatalf("%d columns, factor %d, centred %v, column %d: %v, scalar loop %v", cols, factor, centred, c, got[c], want[c])
					}
				}
			}
		}
	}
}
