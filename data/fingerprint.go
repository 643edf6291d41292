package data

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
)

// Fingerprint returns a hash of the data set's content — task, classes, every graph's
// nodes, edges, features and labels, and the split — as 32 hexadecimal digits. Two
// data sets with the same fingerprint hold the same data; the name is not part of it,
// so a data set loaded from a copy of its files keeps its fingerprint. A checkpoint
// records it so that a run cannot be resumed or evaluated on other data by mistake.
func (d *Dataset) Fingerprint() string {
	h := sha256.New()
	fp := fingerprinter{h: h}
	fp.ints(int64(d.Task), int64(d.NumClasses), boolInt(d.Transductive), int64(len(d.Graphs)))
	for i := range d.Graphs {
		g := &d.Graphs[i]
		fp.ints(int64(g.NumNodes), int64(g.Label))
		fp.int32s(g.Src)
		fp.int32s(g.Dst)
		fp.int32s(g.NodeLabels)
		fp.float32s(g.Targets)
		for _, f := range []*Features{&g.Node, &g.Edge} {
			fp.ints(int64(f.Kind), int64(f.Rows), int64(f.Cols))
			fp.float32s(f.Dense)
			fp.ints(f.Indptr...)
			fp.int32s(f.Indices)
			fp.float32s(f.Values)
			fp.int32s(f.Categorical)
			for _, c := range f.Cardinality {
				fp.ints(int64(c))
			}
		}
	}
	for _, s := range [][]int{d.Split.Train, d.Split.Val, d.Split.Test} {
		fp.ints(int64(len(s)))
		for _, i := range s {
			fp.ints(int64(i))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// fingerprinter feeds numbers to a hash as little-endian bytes, each slice preceded by
// its length so that different splittings of the same numbers hash differently.
type fingerprinter struct {
	h   hash.Hash
	buf []byte
}

func (f *fingerprinter) flush() {
	f.h.Write(f.buf)
	f.buf = f.buf[:0]
}

func (f *fingerprinter) ints(xs ...int64) {
	for _, x := range xs {
		f.buf = binary.LittleEndian.AppendUint64(f.buf, uint64(x))
	}
	f.flush()
}

func (f *fingerprinter) int32s(xs []int32) {
	f.ints(int64(len(xs)))
	for _, x := range xs {
		f.buf = binary.LittleEndian.AppendUint32(f.buf, uint32(x))
		if len(f.buf) >= 1<<16 {
			f.flush()
		}
	}
	f.flush()
}

func (f *fingerprinter) float32s(xs []float32) {
	f.ints(int64(len(xs)))
	for _, x := range xs {
		f.buf = binary.LittleEndian.AppendUint32(f.buf, math.Float32bits(x))
		if len(f.buf) >= 1<<16 {
			f.flush()
		}
	}
	f.flush()
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
