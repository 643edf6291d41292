// Copyright 2026 The gexph Authors. SPDX-License-Identifier: Apache-2.0

//go:build goexperiment.simd && amd64

package ops

// Short rows added in place in AVX-512's or AVX2's vectors (gexph patch, see PATCHES.md at
// the module root): a scatter's out[dst[e]] += upd[e] over rows of 16 to 64 values (an
// attention or GatedGCN layer's width) went through the SIMD add of any length, one call
// a row with its partial last vector. Here a row is whole vectors, the last ending at the
// row's end. A row of up to four vectors loads and adds every vector before storing any,
// so the lanes two vectors share get the same sum twice; a longer row (up to 16 vectors)
// adds its last vector first, then the others in a loop, and stores the last one after
// them, which again writes the shared lanes' same sums. The same float32 sums: equal bit
// for bit.

// addRowLanes returns the vector width with which addRow adds rows of width values: 16
// with AVX-512 for 16 to 256 values, 8 with AVX2 for 8 to 128; 0 for any other width or
// CPU (the caller adds the row itself).
func addRowLanes(width int) int {
	switch lanes := compareLanes(); {
	case lanes == 16 && width >= 16 && width <= 256, lanes == 8 && width >= 8 && width <= 128:
		return lanes
	}
	return 0
}

// addRow sets o += u for a row of len(o) values with lanes from addRowLanes(len(o));
// u holds at least len(o) values.
func addRow(lanes int, o, u []float32) {
	n := len(o)
	u = u[:n]
	if n > 4*lanes {
		addLongRow(lanes, o, u)
		return
	}
	if lanes == 16 {
		last := n - 16
		a := load16(o, 0).Add(load16(u, 0))
		switch {
		case n > 48:
			b, c, d := load16(o, 16).Add(load16(u, 16)), load16(o, 32).Add(load16(u, 32)), load16(o, last).Add(load16(u, last))
			a.StoreArray(at16(o, 0))
			b.StoreArray(at16(o, 16))
			c.StoreArray(at16(o, 32))
			d.StoreArray(at16(o, last))
		case n > 32:
			b, c := load16(o, 16).Add(load16(u, 16)), load16(o, last).Add(load16(u, last))
			a.StoreArray(at16(o, 0))
			b.StoreArray(at16(o, 16))
			c.StoreArray(at16(o, last))
		case n > 16:
			b := load16(o, last).Add(load16(u, last))
			a.StoreArray(at16(o, 0))
			b.StoreArray(at16(o, last))
		default:
			a.StoreArray(at16(o, 0))
		}
		return
	}
	last := n - 8
	a := load8(o, 0).Add(load8(u, 0))
	switch {
	case n > 24:
		b, c, d := load8(o, 8).Add(load8(u, 8)), load8(o, 16).Add(load8(u, 16)), load8(o, last).Add(load8(u, last))
		a.StoreArray(at8(o, 0))
		b.StoreArray(at8(o, 8))
		c.StoreArray(at8(o, 16))
		d.StoreArray(at8(o, last))
	case n > 16:
		b, c := load8(o, 8).Add(load8(u, 8)), load8(o, last).Add(load8(u, last))
		a.StoreArray(at8(o, 0))
		b.StoreArray(at8(o, 8))
		c.StoreArray(at8(o, last))
	case n > 8:
		b := load8(o, last).Add(load8(u, last))
		a.StoreArray(at8(o, 0))
		b.StoreArray(at8(o, last))
	default:
		a.StoreArray(at8(o, 0))
	}
}

// addLongRow is addRow for rows of more than four vectors: the last vector's sum is taken
// from the row as it was, the whole vectors before it are added in a loop, and the last
// one is stored after them (the lanes it shares with the loop's last vector get the
// same sums again).
func addLongRow(lanes int, o, u []float32) {
	n := len(o)
	last := n - lanes
	if lanes == 16 {
		t := load16(o, last).Add(load16(u, last))
		for i := 0; i < last; i += 16 {
			load16(o, i).Add(load16(u, i)).StoreArray(at16(o, i))
		}
		t.StoreArray(at16(o, last))
		return
	}
	t := load8(o, last).Add(load8(u, last))
	for i := 0; i < last; i += 8 {
		load8(o, i).Add(load8(u, i)).StoreArray(at8(o, i))
	}
	t.StoreArray(at8(o, last))
}
