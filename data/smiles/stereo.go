package smiles

import (
	"cmp"
	"math"
	"slices"
)

// adjustChirality re-expresses a written @/@@ relative to the atom's bond order, as
// RDKit's AdjustAtomChiralityFlags does.
func (p *smilesParser) adjustChirality(c *smilesChiral, slotBond []int32) {
	m := p.m
	a := &m.Atoms[c.atom]
	if a.Chirality != ChiralCW && a.Chirality != ChiralCCW {
		return
	}
	// SMILES order: the preceding atom, then ring closures, then later neighbours.
	order := make([]int32, 0, len(c.others)+len(c.rings))
	k := 0
	if c.hasPrev {
		order = append(order, c.others[0])
		k = 1
	}
	for _, r := range c.rings {
		order = append(order, slotBond[-r-1])
	}
	order = append(order, c.others[k:]...)
	swaps := permutationParity(order, m.incident(c.atom))
	if m.Degree(c.atom) == 3 {
		unsaturated := false
		for _, b := range m.incident(c.atom) {
			if m.Bonds[b].Type != BondSingle {
				unsaturated = true
			}
		}
		if (c.first && a.ExplicitH == 1) || (a.ExplicitH != 1 && len(c.rings) == 1 && !unsaturated) {
			swaps++
		}
	}
	if swaps%2 == 1 {
		if a.Chirality == ChiralCW {
			a.Chirality = ChiralCCW
		} else {
			a.Chirality = ChiralCW
		}
	}
}

// permutationParity returns the parity (0 or 1) of the permutation taking want into
// have (both hold the same distinct values).
func permutationParity(have, want []int32) int {
	if len(have) != len(want) {
		return 0
	}
	work := slices.Clone(have)
	swaps := 0
	for i := range work {
		if work[i] == want[i] {
			continue
		}
		for j := i + 1; j < len(work); j++ {
			if work[j] == want[i] {
				work[i], work[j] = work[j], work[i]
				swaps++
				break
			}
		}
	}
	return swaps % 2
}

// cleanupChirality drops tetrahedral tags that carry no meaning: atoms that are not
// SP3 (RDKit cleanupChirality) and atoms without four distinct substituents (three
// for S, P, Se, As, N with a lone pair), compared by substituentOrder.
func (m *Molecule) cleanupChirality() {
	var sc cipScratch
	var subs []int
	for i := range m.Atoms {
		a := &m.Atoms[i]
		if a.Chirality != ChiralCW && a.Chirality != ChiralCCW {
			continue
		}
		if a.Hybrid != HybridSP3 && a.Hybrid != HybridSP3D && a.Hybrid != HybridSP3D2 {
			a.Chirality = ChiralUnspecified
			continue
		}
		td := m.TotalDegree(i)
		lonePairCentre := td == 3 && a.TotalH() == 0 && (a.AtomicNum == 7 || a.AtomicNum == 15 ||
			a.AtomicNum == 16 || a.AtomicNum == 33 || a.AtomicNum == 34)
		if (td != 4 && !lonePairCentre) || a.TotalH() > 1 {
			a.Chirality = ChiralUnspecified
			continue
		}
		subs = m.substituents(i, subs[:0])
		for x := range subs {
			for y := x + 1; y < len(subs); y++ {
				if m.substituentOrder(&sc, i, subs[x], subs[y]) == 0 {
					a.Chirality = ChiralUnspecified
				}
			}
		}
	}
}

// substituents appends to subs atom i's neighbours, with −1 standing for one
// implicit or written hydrogen.
func (m *Molecule) substituents(i int, subs []int) []int {
	for _, b := range m.incident(i) {
		subs = append(subs, m.other(b, i))
	}
	for range m.Atoms[i].TotalH() {
		subs = append(subs, -1)
	}
	return subs
}

// cipNode is an atom reached in a sphere-by-sphere walk and the atom it came from.
type cipNode struct{ atom, from int }

// cipScratch holds the buffers of substituentOrder, reused across comparisons.
type cipScratch struct {
	nums        [2][]int
	front, next [2][]cipNode
	seen        [2][]int
}

// substituentOrder compares the substituents x and y of atom centre (−1: a hydrogen)
// the CIP way, sphere by sphere: atomic numbers (multiple bonds duplicated, isotope
// as tie-break at the first sphere), up to 12 spheres. It returns −1, 0 or +1; 0
// means no difference was found.
func (m *Molecule) substituentOrder(sc *cipScratch, centre, x, y int) int {
	key := func(a int) [2]int {
		if a < 0 {
			return [2]int{1, 0}
		}
		return [2]int{m.Atoms[a].AtomicNum, m.Atoms[a].Isotope}
	}
	if d := compareKeys(key(x), key(y)); d != 0 || (x < 0 && y < 0) {
		return cmp.Compare(d, 0)
	}
	for side, a := range [2]int{x, y} {
		sc.front[side] = sc.front[side][:0]
		sc.seen[side] = append(sc.seen[side][:0], centre)
		if a >= 0 {
			sc.front[side] = append(sc.front[side], cipNode{a, centre})
			sc.seen[side] = append(sc.seen[side], a)
		}
	}
	for range 12 {
		if len(sc.front[0]) == 0 && len(sc.front[1]) == 0 {
			return 0
		}
		for side := range 2 {
			m.cipSphere(sc, side)
		}
		if d := slices.Compare(sc.nums[0], sc.nums[1]); d != 0 {
			return d
		}
	}
	return 0
}

// cipSphere expands one side's frontier by a sphere: each reached atom lists its
// hydrogens and its neighbours other than the one it came from (so ring closures
// show up again, as duplicates do in CIP), sorted by atomic number descending.
func (m *Molecule) cipSphere(sc *cipScratch, side int) {
	nums, next := sc.nums[side][:0], sc.next[side][:0]
	for _, f := range sc.front[side] {
		for range m.Atoms[f.atom].TotalH() {
			nums = append(nums, 1)
		}
		for _, b := range m.incident(f.atom) {
			o := m.other(b, f.atom)
			if o == f.from {
				continue
			}
			z := m.Atoms[o].AtomicNum
			nums = append(nums, z)
			switch m.Bonds[b].Type {
			case BondDouble, BondAromatic:
				nums = append(nums, z)
			case BondTriple:
				nums = append(nums, z, z)
			}
			if !slices.Contains(sc.seen[side], o) {
				sc.seen[side] = append(sc.seen[side], o)
				next = append(next, cipNode{o, f.atom})
			}
		}
	}
	slices.SortFunc(nums, func(p, q int) int { return q - p })
	sc.nums[side] = nums
	sc.next[side], sc.front[side] = sc.front[side], next
}

func compareKeys(a, b [2]int) int {
	if a[0] != b[0] {
		return a[0] - b[0]
	}
	return a[1] - b[1]
}

// assignDoubleBondStereo sets E/Z on double bonds with '/' or '\' marks on both
// sides, as RDKit's legacy stereo perception does.
func (p *smilesParser) assignDoubleBondStereo() {
	m := p.m
	anyDir := false
	for _, d := range p.bondDir {
		anyDir = anyDir || d != 0
	}
	if !anyDir {
		return
	}
	for b := range m.Bonds {
		bd := &m.Bonds[b]
		if bd.Type != BondDouble || (bd.InRing && m.smallestRing(b) < 8) {
			continue
		}
		sa, okA := p.stereoSide(b, bd.Begin, bd.End)
		sb, okB := p.stereoSide(b, bd.End, bd.Begin)
		if !okA || !okB {
			continue
		}
		if sa == sb {
			bd.Stereo = StereoZ
		} else {
			bd.Stereo = StereoE
		}
	}
}

// stereoSide returns, for end atom a of double bond b (other end o), +1 or −1 telling
// on which side its higher-ranked substituent lies, from a directional mark.
func (p *smilesParser) stereoSide(b, a, o int) (int, bool) {
	m := p.m
	var subs []int
	dirSub, sign := -2, 0
	for _, nb := range m.incident(a) {
		if int(nb) == b {
			continue
		}
		x := m.other(nb, a)
		subs = append(subs, x)
		if d := p.bondDir[nb]; d != 0 && dirSub == -2 {
			s := 1
			if d == '\\' {
				s = -1
			}
			if int(p.dirFrom[nb]) != a { // mark written before a: seen from a it flips
				s = -s
			}
			dirSub, sign = x, s
		}
	}
	if dirSub == -2 {
		return 0, false
	}
	for range m.Atoms[a].TotalH() {
		subs = append(subs, -1)
	}
	if len(subs) < 1 || len(subs) > 2 {
		return 0, false
	}
	if len(subs) == 2 {
		other := subs[0]
		if other == dirSub {
			other = subs[1]
		}
		var sc cipScratch
		switch m.substituentOrder(&sc, a, other, dirSub) {
		case 0:
			return 0, false
		case 1:
			sign = -sign // the other substituent outranks the marked one
		}
	}
	return sign, true
}

// smallestRing returns the number of atoms in the smallest ring through bond b
// (breadth-first search from one end to the other avoiding b).
func (m *Molecule) smallestRing(b int) int {
	src, dst := m.Bonds[b].Begin, m.Bonds[b].End
	dist := make([]int, len(m.Atoms))
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue := []int{src}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, nb := range m.incident(v) {
			if int(nb) == b {
				continue
			}
			w := m.other(nb, v)
			if dist[w] < 0 {
				dist[w] = dist[v] + 1
				if w == dst {
					return dist[w] + 1
				}
				queue = append(queue, w)
			}
		}
	}
	return math.MaxInt
}
