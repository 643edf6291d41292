// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

// Per-head sums of gathered dot products in SIMD registers, and attention weights spread
// over their heads' lanes by one permute (gexph patch, see PATCHES.md at the module root).
//
// The fused attention scores (spmm.go's gatheredDot) need, per edge and head, the sum of
// the b products of a head's slice of two gathered rows. A scalar loop adding them one by
// one was the largest flat entry of the PATTERN step's profile on an Intel Xeon (12 %).
// Here each head's products become one vector: its whole vectors multiplied and added,
// then its last, partial vector loaded whole (from the head's values on, or from the
// row's last vector where fewer are left) and masked to the head's lanes after the
// product. One vector of heads at a time (16, 8 or 4) is then reduced at once: a tree of
// two-source permutes and adds with AVX-512 (vpermi2ps), of horizontal pair adds (vhaddps)
// with AVX2 and AVX, that leaves each head's sum in its own lane, stored as one vector.
// Where a head is 4 values (8 too with AVX-512) and rows are whole vectors, the product
// vectors already hold several heads and enter the tree without masks.
//
// The sums are those of a tree whose shape follows the vector width, not index order:
// equal to the scalar sums to float32 rounding, not bit for bit; the same on every run and
// any number of workers. Rows shorter than a vector, and CPUs without these instructions,
// keep the scalar loop.

import (
	"simd"
	"simd/archsimd"
	"unsafe"
)

// segmentSumLanes is the vector width of this CPU's SIMD segment sums: 16 with AVX-512,
// 8 with AVX2 and FMA, 4 with AVX, as Go's simd package runs its vectors; 0 for none.
func segmentSumLanes() int {
	switch n := simd.BroadcastFloat32s(0).Len(); {
	case n == 16 && archsimd.X86.AVX512(), n == 8 && archsimd.X86.AVX2() && archsimd.X86.FMA(), n == 4 && archsimd.X86.AVX():
		return n
	}
	return 0
}

// gatheredDotsSIMD writes out[(e−lo)·heads + h] for the edges [lo, hi) with the SIMD
// segment sums of this CPU's vector width, and returns false (writing nothing) where
// there are none or the rows are shorter than a vector.
func gatheredDotsSIMD(out []float32, d *dotRows, lo, hi int) bool {
	lanes := segmentSumLanes()
	if d.heads*d.b < lanes {
		return false
	}
	switch lanes {
	case 16:
		gatheredDots16(out, d, lo, hi)
	case 8:
		gatheredDots8(out, d, lo, hi)
	case 4:
		gatheredDots4(out, d, lo, hi)
	default:
		return false
	}
	return true
}

// naturalHeads tells whether the rows' product vectors of lanes values each hold whole
// heads (b divides the width lanes, rows of whole vectors) that a tree can take as they
// are, for the widths the tree takes them at.
func naturalHeads(d *dotRows, lanes int, bs ...int) bool {
	for _, b := range bs {
		if d.b == b && (d.heads*d.b)%lanes == 0 {
			return true
		}
	}
	return false
}

// headTails returns, for rows of heads·b values (at least lanes of them) and heads whose
// b values are no multiple of lanes, where each head's last, partial vector is loaded:
// from the head's first value past its whole vectors, or from the row's last whole vector
// where fewer values are left (a row offset), and the int32 mask (lanes a head) of the
// lanes that are the head's; nil where heads are whole vectors.
func headTails(heads, b, lanes int) (offs []int, masks []int32) {
	rem := b % lanes
	if rem == 0 {
		return nil, nil
	}
	offs, masks = make([]int, heads), make([]int32, heads*lanes)
	for h := range heads {
		k := (h+1)*b - rem
		offs[h] = min(k, heads*b-lanes)
		for i := k; i < (h+1)*b; i++ {
			masks[h*lanes+i-offs[h]] = -1
		}
	}
	return offs, masks
}

// Vectors at s[i:] without bounds checks (at16…at4 for stores, load16…load4 and
// loadI16…loadI4 for float32 and int32 loads): the callers touch whole vectors that lie
// inside a row (offsets from headTails and of whole vectors inside a head, rows of at
// least one vector) or inside slices whose length they checked once, where the checks of
// a checked load cost more instructions than the load.
func at16(s []float32, i int) *[16]float32 {
	return (*[16]float32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), 4*i))
}

func at8(s []float32, i int) *[8]float32 {
	return (*[8]float32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), 4*i))
}

func load16(s []float32, i int) archsimd.Float32x16 { return archsimd.LoadFloat32x16Array(at16(s, i)) }

func load8(s []float32, i int) archsimd.Float32x8 { return archsimd.LoadFloat32x8Array(at8(s, i)) }

func load4(s []float32, i int) archsimd.Float32x4 {
	return archsimd.LoadFloat32x4Array((*[4]float32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), 4*i)))
}

func loadI16(m []int32, i int) archsimd.Int32x16 {
	return archsimd.LoadInt32x16Array((*[16]int32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(m)), 4*i)))
}

func loadI8(m []int32, i int) archsimd.Int32x8 {
	return archsimd.LoadInt32x8Array((*[8]int32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(m)), 4*i)))
}

func loadI4(m []int32, i int) archsimd.Int32x4 {
	return archsimd.LoadInt32x4Array((*[4]int32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(m)), 4*i)))
}

// --- AVX-512: 16 lanes ----------------------------------------------------------------

// tree16 holds the index vectors of the permute tree: at level l, combine takes two
// vectors of 2^l heads of 16>>l lanes each and returns one of 2^(l+1) heads of half as
// many lanes, the first vector's heads first.
type tree16 struct {
	lo, hi [4]archsimd.Uint32x16
}

// newTree16 builds the tree's index vectors.
func newTree16() *tree16 {
	t := &tree16{}
	for l := range 4 {
		var lo, hi [16]uint32
		g := 16 >> l // lanes per head in the inputs
		for s := range 2 << l {
			src, grp := uint32(0), s
			if s >= 1<<l {
				src, grp = 16, s-1<<l
			}
			for i := range g / 2 {
				lo[s*g/2+i] = src + uint32(grp*g+i)
				hi[s*g/2+i] = src + uint32(grp*g+g/2+i)
			}
		}
		t.lo[l], t.hi[l] = archsimd.LoadUint32x16Array(&lo), archsimd.LoadUint32x16Array(&hi)
	}
	return t
}

// combine adds the two halves of each head's lanes of x and y (level l), x's heads first.
func (t *tree16) combine(x, y archsimd.Float32x16, l int) archsimd.Float32x16 {
	return x.ConcatPermute(y, t.lo[l]).Add(x.ConcatPermute(y, t.hi[l]))
}

// four reduces four vectors of level l to one of level l+2.
func (t *tree16) four(a, b, c, d archsimd.Float32x16, l int) archsimd.Float32x16 {
	return t.combine(t.combine(a, b, l), t.combine(c, d, l), l+1)
}

// sum returns the 16 heads' sums of v, which holds 16>>l vectors of level l.
func (t *tree16) sum(v *[16]archsimd.Float32x16, l int) archsimd.Float32x16 {
	switch l {
	case 0:
		return t.four(t.four(v[0], v[1], v[2], v[3], 0), t.four(v[4], v[5], v[6], v[7], 0),
			t.four(v[8], v[9], v[10], v[11], 0), t.four(v[12], v[13], v[14], v[15], 0), 2)
	case 1:
		return t.four(t.combine(v[0], v[1], 1), t.combine(v[2], v[3], 1), t.combine(v[4], v[5], 1), t.combine(v[6], v[7], 1), 2)
	}
	return t.four(v[0], v[1], v[2], v[3], 2)
}

// gatheredDots16 is gatheredDotsSIMD with AVX-512.
func gatheredDots16(out []float32, d *dotRows, lo, hi int) {
	t := newTree16()
	if naturalHeads(d, 16, 4, 8) {
		gatheredDotsWhole16(out, d, lo, hi, t)
		return
	}
	var v [16]archsimd.Float32x16
	n, o := 0, out
	offs, masks := headTails(d.heads, d.b, 16)
	b, span := d.b, d.b/16*16 // A head's values, those of its whole vectors.
	for e := lo; e < hi; e++ {
		r1, r2 := d.rows(e)
		if offs == nil { // Heads of whole vectors.
			for h := range d.heads {
				var s archsimd.Float32x16
				for k := h * b; k < (h+1)*b; k += 16 {
					s = load16(r1, k).MulAdd(load16(r2, k), s)
				}
				v[n&15] = s
				if n++; n == 16 {
					t.sum(&v, 0).Store(o)
					o, n = o[16:], 0
				}
			}
			continue
		}
		for h, j := range offs { // The head's last vector, masked, then its whole ones.
			s := load16(r1, j).Mul(load16(r2, j)).AsInt32x16().And(loadI16(masks, h*16)).AsFloat32x16()
			for k, end := h*b, h*b+span; k < end; k += 16 {
				s = load16(r1, k).MulAdd(load16(r2, k), s)
			}
			v[n&15] = s
			if n++; n == 16 {
				t.sum(&v, 0).Store(o)
				o, n = o[16:], 0
			}
		}
	}
	if n > 0 {
		t.sum(&v, 0).StorePart(o[:n])
	}
}

// gatheredDotsWhole16 is gatheredDots16 for heads of 4 or 8 values in rows of whole
// vectors: each product vector holds 16/b heads and enters the tree as it is.
func gatheredDotsWhole16(out []float32, d *dotRows, lo, hi int, t *tree16) {
	var v [16]archsimd.Float32x16
	n, o := 0, out
	level, per := 2, 4
	if d.b == 8 {
		level, per = 1, 8
	}
	w := d.heads * d.b
	for e := lo; e < hi; e++ {
		r1, r2 := d.rows(e)
		for k := 0; k < w; k += 16 {
			v[n] = load16(r1, k).Mul(load16(r2, k))
			if n++; n == per {
				t.sum(&v, level).Store(o)
				o, n = o[16:], 0
			}
		}
	}
	for n > 0 && n < per { // The last heads: empty vectors fill the tree.
		v[n] = archsimd.Float32x16{}
		n++
	}
	if n == per {
		t.sum(&v, level).StorePart(o)
	}
}

// --- AVX2: 8 lanes --------------------------------------------------------------------

// sum8 returns the sums of the lanes of each of v0…v7, in order: pair adds within each
// 128-bit half leave a head's two half sums in the same lane of the two halves, added last.
func sum8(v *[8]archsimd.Float32x8) archsimd.Float32x8 {
	q0 := v[0].ConcatAddPairsGrouped(v[1]).ConcatAddPairsGrouped(v[2].ConcatAddPairsGrouped(v[3]))
	q1 := v[4].ConcatAddPairsGrouped(v[5]).ConcatAddPairsGrouped(v[6].ConcatAddPairsGrouped(v[7]))
	return q0.SetHi(q1.GetLo()).Add(q1.SetLo(q0.GetHi()))
}

// sum8Fours returns the sums of the eight heads of 4 lanes in v0…v3, in order.
func sum8Fours(v *[8]archsimd.Float32x8, order archsimd.Uint32x8) archsimd.Float32x8 {
	q := v[0].ConcatAddPairsGrouped(v[1]).ConcatAddPairsGrouped(v[2].ConcatAddPairsGrouped(v[3]))
	return q.Permute(order) // q's low half holds each vector's first head, its high half the second.
}

// gatheredDots8 is gatheredDotsSIMD with AVX2.
func gatheredDots8(out []float32, d *dotRows, lo, hi int) {
	if naturalHeads(d, 8, 4) {
		gatheredDotsFours8(out, d, lo, hi)
		return
	}
	var v [8]archsimd.Float32x8
	n, o := 0, out
	offs, masks := headTails(d.heads, d.b, 8)
	b, span := d.b, d.b/8*8 // A head's values, those of its whole vectors.
	for e := lo; e < hi; e++ {
		r1, r2 := d.rows(e)
		if offs == nil { // Heads of whole vectors.
			for h := range d.heads {
				var s archsimd.Float32x8
				for k := h * b; k < (h+1)*b; k += 8 {
					s = load8(r1, k).MulAdd(load8(r2, k), s)
				}
				v[n&7] = s
				if n++; n == 8 {
					sum8(&v).Store(o)
					o, n = o[8:], 0
				}
			}
			continue
		}
		for h, j := range offs { // The head's last vector, masked, then its whole ones.
			s := load8(r1, j).Mul(load8(r2, j)).AsInt32x8().And(loadI8(masks, h*8)).AsFloat32x8()
			for k, end := h*b, h*b+span; k < end; k += 8 {
				s = load8(r1, k).MulAdd(load8(r2, k), s)
			}
			v[n&7] = s
			if n++; n == 8 {
				sum8(&v).Store(o)
				o, n = o[8:], 0
			}
		}
	}
	if n > 0 {
		sum8(&v).StorePart(o[:n])
	}
}

// gatheredDotsFours8 is gatheredDots8 for heads of 4 values in rows of whole vectors:
// each product vector holds two heads.
func gatheredDotsFours8(out []float32, d *dotRows, lo, hi int) {
	var v [8]archsimd.Float32x8
	n, o := 0, out
	order := archsimd.LoadUint32x8([]uint32{0, 4, 1, 5, 2, 6, 3, 7})
	w := d.heads * d.b
	for e := lo; e < hi; e++ {
		r1, r2 := d.rows(e)
		for k := 0; k < w; k += 8 {
			v[n] = load8(r1, k).Mul(load8(r2, k))
			if n++; n == 4 {
				sum8Fours(&v, order).Store(o)
				o, n = o[8:], 0
			}
		}
	}
	if n > 0 {
		clear(v[n:4])
		sum8Fours(&v, order).StorePart(o)
	}
}

// --- AVX: 4 lanes ---------------------------------------------------------------------

// sum4 returns the sums of the lanes of each of v0…v3, in order.
func sum4(v *[4]archsimd.Float32x4) archsimd.Float32x4 {
	return v[0].ConcatAddPairs(v[1]).ConcatAddPairs(v[2].ConcatAddPairs(v[3]))
}

// gatheredDots4 is gatheredDotsSIMD with 4 lanes (AVX; a fused multiply-add is not
// assumed there).
func gatheredDots4(out []float32, d *dotRows, lo, hi int) {
	var v [4]archsimd.Float32x4
	n, o := 0, out
	offs, masks := headTails(d.heads, d.b, 4)
	b, span := d.b, d.b/4*4 // A head's values, those of its whole vectors.
	for e := lo; e < hi; e++ {
		r1, r2 := d.rows(e)
		if offs == nil { // Heads of whole vectors.
			for h := range d.heads {
				var s archsimd.Float32x4
				for k := h * b; k < (h+1)*b; k += 4 {
					s = s.Add(load4(r1, k).Mul(load4(r2, k)))
				}
				v[n&3] = s
				if n++; n == 4 {
					sum4(&v).Store(o)
					o, n = o[4:], 0
				}
			}
			continue
		}
		for h, j := range offs { // The head's last vector, masked, then its whole ones.
			s := load4(r1, j).Mul(load4(r2, j)).AsInt32x4().And(loadI4(masks, h*4)).AsFloat32x4()
			for k, end := h*b, h*b+span; k < end; k += 4 {
				s = s.Add(load4(r1, k).Mul(load4(r2, k)))
			}
			v[n&3] = s
			if n++; n == 4 {
				sum4(&v).Store(o)
				o, n = o[4:], 0
			}
		}
	}
	if n > 0 {
		sum4(&v).StorePart(o[:n])
	}
}

// --- Weights spread over their heads' lanes (spmm.go's gather-multiply-scatter) ----------

// spreadLanes is the vector width of this CPU's permuted weight spreading: 16 with
// AVX-512, 8 with AVX2 (vpermps), 0 for none.
func spreadLanes() int {
	switch n := simd.BroadcastFloat32s(0).Len(); {
	case n == 16 && archsimd.X86.AVX512(), n == 8 && archsimd.X86.AVX2():
		return n
	}
	return 0
}

// addSpreadProductsSIMD sets out[c] += float32(w[heads[c]]·x[c]) as addSpreadProducts
// and addScaled do (the same products and sums), with each vector of weights permuted
// from the edge's weights at once (one vpermps) instead of blended from one broadcast per
// head, or broadcast head by head with a partial vector at each head's end. lanes is
// spreadLanes(); w holds the edge's nw ≤ lanes weights first (more values after them are
// not read into the result); heads are the lanes' weight indices.
func addSpreadProductsSIMD(lanes int, out, w []float32, nw int, x []float32, heads []int32) {
	n := len(out)
	x, heads = x[:n], heads[:n] // Checked once: the loads below are of whole vectors inside [0, n).
	if lanes == 16 {
		var wv archsimd.Float32x16
		if len(w) >= 16 {
			wv = load16(w, 0)
		} else {
			wv, _ = archsimd.LoadFloat32x16Part(w[:nw])
		}
		k := 0
		for ; k+16 <= n; k += 16 {
			v := wv.Permute(loadI16(heads, k).AsUint32x16())
			load16(out, k).Add(v.Mul(load16(x, k))).StoreArray(at16(out, k))
		}
		if k < n {
			idx, _ := archsimd.LoadInt32x16Part(heads[k:])
			vx, _ := archsimd.LoadFloat32x16Part(x[k:])
			vo, _ := archsimd.LoadFloat32x16Part(out[k:])
			vo.Add(wv.Permute(idx.AsUint32x16()).Mul(vx)).StorePart(out[k:])
		}
		return
	}
	var wv archsimd.Float32x8
	if len(w) >= 8 {
		wv = load8(w, 0)
	} else {
		wv, _ = archsimd.LoadFloat32x8Part(w[:nw])
	}
	k := 0
	for ; k+8 <= n; k += 8 {
		v := wv.Permute(loadI8(heads, k).AsUint32x8())
		load8(out, k).Add(v.Mul(load8(x, k))).StoreArray(at8(out, k))
	}
	if k < n {
		idx, _ := archsimd.LoadInt32x8Part(heads[k:])
		vx, _ := archsimd.LoadFloat32x8Part(x[k:])
		vo, _ := archsimd.LoadFloat32x8Part(out[k:])
		vo.Add(wv.Permute(idx.AsUint32x8()).Mul(vx)).StorePart(out[k:])
	}
}
