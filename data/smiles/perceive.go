package smiles

import (
	"math"
	"slices"
)

func (m *Molecule) buildAdjacency() {
	n := len(m.Atoms)
	m.nbrStart = make([]int32, n+1)
	for _, b := range m.Bonds {
		m.nbrStart[b.Begin+1]++
		m.nbrStart[b.End+1]++
	}
	for i := range n {
		m.nbrStart[i+1] += m.nbrStart[i]
	}
	m.nbrBonds = make([]int32, 2*len(m.Bonds))
	fill := slices.Clone(m.nbrStart[:n])
	for bi, b := range m.Bonds { // bond order within each atom = bond index order
		m.nbrBonds[fill[b.Begin]] = int32(bi)
		fill[b.Begin]++
		m.nbrBonds[fill[b.End]] = int32(bi)
		fill[b.End]++
	}
}

// markRings flags the bonds that are not bridges (they lie on a cycle) and their
// atoms, with an iterative Tarjan low-link search.
func (m *Molecule) markRings() {
	n := len(m.Atoms)
	disc := make([]int32, n)
	low := make([]int32, n)
	type frame struct{ v, parentBond, next int32 }
	var stack []frame
	t := int32(0)
	for root := range n {
		if disc[root] != 0 {
			continue
		}
		t++
		disc[root], low[root] = t, t
		stack = append(stack[:0], frame{int32(root), -1, m.nbrStart[root]})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			v := int(f.v)
			if f.next < m.nbrStart[v+1] {
				b := m.nbrBonds[f.next]
				f.next++
				if b == f.parentBond {
					continue
				}
				w := m.other(b, v)
				if disc[w] == 0 {
					t++
					disc[w], low[w] = t, t
					stack = append(stack, frame{int32(w), b, m.nbrStart[w]})
				} else {
					low[v] = min(low[v], disc[w])
					m.Bonds[b].InRing = true // a non-tree edge closes a cycle
				}
				continue
			}
			pb := f.parentBond
			stack = stack[:len(stack)-1]
			if pb < 0 {
				continue
			}
			u := m.other(pb, v)
			low[u] = min(low[u], low[v])
			if low[v] <= disc[u] { // not a bridge
				m.Bonds[pb].InRing = true
			}
		}
	}
	for _, b := range m.Bonds {
		if b.InRing {
			m.Atoms[b.Begin].InRing = true
			m.Atoms[b.End].InRing = true
		}
	}
}

// bondContrib is a bond's contribution to an atom's valence (RDKit getValenceContrib).
func bondContrib(t BondType) float64 {
	switch t {
	case BondDouble:
		return 2
	case BondTriple:
		return 3
	case BondQuadruple:
		return 4
	case BondAromatic:
		return 1.5
	}
	return 1
}

// explicitValence is RDKit's calcExplicitValence: bond orders (aromatic 1.5) plus
// written hydrogens; an aromatic atom above its default valence is pulled down to
// the nearest allowed valence within 1.5, and x.5 rounds up.
func (m *Molecule) explicitValence(i int) int {
	a := &m.Atoms[i]
	accum := float64(a.ExplicitH)
	for _, b := range m.incident(i) {
		accum += bondContrib(m.Bonds[b].Type)
	}
	if vals := rdkitValences(a.AtomicNum); a.Aromatic && vals[0] >= 0 {
		dv := chargedValence(a.AtomicNum, int(vals[0]), a.Charge)
		if accum > float64(dv) {
			pval := dv
			for _, v := range vals {
				if v < 0 {
					break
				}
				if cv := chargedValence(a.AtomicNum, int(v), a.Charge); float64(cv) > accum {
					break
				} else {
					pval = cv
				}
			}
			if accum-float64(pval) <= 1.5 {
				accum = float64(pval)
			}
		}
	}
	return int(math.Round(accum + 0.1))
}

// assignHydrogens sets the implicit hydrogens (organic subset) or radicals (bracket
// atoms) of atom i and records its total valence.
func (m *Molecule) assignHydrogens(i int, valence []int) {
	a := &m.Atoms[i]
	ev := m.explicitValence(i)
	if a.AtomicNum == 0 {
		valence[i] = ev
		return
	}
	if !a.Bracket {
		vals := organicValences(a.AtomicNum)
		if a.Aromatic {
			if dv := int(vals[0]); ev <= dv {
				a.ImplicitH = dv - ev
			}
		} else {
			for _, v := range vals {
				if v >= 0 && int(v) >= ev {
					a.ImplicitH = int(v) - ev
					break
				}
			}
		}
		valence[i] = ev + a.ImplicitH
		return
	}
	valence[i] = ev
	// RDKit assignRadicals for atoms without implicit hydrogens.
	outer := outerElectrons(a.AtomicNum)
	vals := rdkitValences(a.AtomicNum)
	if vals[0] < 0 {
		if m.Degree(i) == 0 {
			a.Radicals = max(outer-a.Charge, 0) % 2
		}
		return
	}
	base := 8
	if a.AtomicNum <= 2 {
		base = 2
	}
	nr := base - outer - ev + a.Charge
	if nr < 0 {
		nr = 0
		if vals[1] >= 0 {
			for _, v := range vals {
				if v >= 0 && int(v)-ev+a.Charge >= 0 {
					nr = int(v) - ev + a.Charge
					break
				}
			}
		}
	}
	if nr2 := outer - ev - a.Charge; nr2 >= 0 {
		nr = min(nr, nr2)
	}
	a.Radicals = nr
}

// countAtomElec is RDKit's MolOps::countAtomElec: the electrons atom i can donate to
// a π system (only its sign matters here).
func (m *Molecule) countAtomElec(i int) int {
	a := &m.Atoms[i]
	dv := int(rdkitValences(a.AtomicNum)[0])
	if dv <= 1 {
		return -1
	}
	degree := m.TotalDegree(i)
	if degree > 3 {
		return -1
	}
	nlp := max(outerElectrons(a.AtomicNum)-dv-a.Charge, 0)
	return dv - degree + nlp - a.Radicals
}

func (m *Molecule) isConjugationCandidate(i int) bool {
	z := m.Atoms[i].AtomicNum
	outer := outerElectrons(z)
	return (z <= 10 || (outer != 5 && outer != 6) || (outer == 6 && m.TotalDegree(i) < 2)) &&
		m.countAtomElec(i) > 0
}

// setConjugation is RDKit's setConjugation.
func (m *Molecule) setConjugation() {
	cand := make([]bool, len(m.Atoms))
	for i := range m.Atoms {
		cand[i] = m.isConjugationCandidate(i)
	}
	for b := range m.Bonds {
		m.Bonds[b].Conjugated = m.Bonds[b].Type == BondAromatic
	}
	for i := range m.Atoms {
		if !cand[i] {
			continue
		}
		if sbo := m.TotalDegree(i); sbo < 2 || sbo > 3 {
			continue
		}
		for _, b1 := range m.incident(i) {
			if bondContrib(m.Bonds[b1].Type) < 1.5 {
				continue
			}
			for _, b2 := range m.incident(i) {
				if b1 == b2 {
					continue
				}
				j := m.other(b2, i)
				if m.TotalDegree(j) > 3 {
					continue
				}
				if cand[j] {
					m.Bonds[b1].Conjugated = true
					m.Bonds[b2].Conjugated = true
				}
			}
		}
	}
}

// setHybridization is RDKit's setHybridization for atom i.
func (m *Molecule) setHybridization(i int, valence []int) {
	a := &m.Atoms[i]
	if a.AtomicNum == 0 {
		a.Hybrid = HybridUnspecified
		return
	}
	deg := m.TotalDegree(i)
	if (a.Chirality == ChiralCW || a.Chirality == ChiralCCW) && deg == 4 {
		a.Hybrid = HybridSP3
		return
	}
	norbs := deg
	if a.AtomicNum > 1 && a.AtomicNum < 89 {
		outer := outerElectrons(a.AtomicNum)
		tv, chg := valence[i], a.Charge
		free := outer - (tv + chg)
		if tv+outer-chg < 8 {
			norbs = deg + (free-a.Radicals)/2 + a.Radicals
		} else {
			norbs = deg + free/2
		}
	}
	switch norbs {
	case 0, 1:
		a.Hybrid = HybridS
	case 2:
		a.Hybrid = HybridSP
	case 3:
		a.Hybrid = HybridSP2
	case 4:
		a.Hybrid = HybridSP3
		if deg <= 3 {
			for _, b := range m.incident(i) {
				if m.Bonds[b].Conjugated {
					a.Hybrid = HybridSP2
					break
				}
			}
		}
	case 5:
		a.Hybrid = HybridSP3D
	case 6:
		a.Hybrid = HybridSP3D2
	default:
		a.Hybrid = HybridUnspecified
	}
}
