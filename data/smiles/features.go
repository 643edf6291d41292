package smiles

// Numbers of OGB feature columns (ogb/utils/features.py): the codes of each column
// come from its vocabulary (allowable_features), the last code of a column being
// "misc" where the vocabulary has one; AtomFeatureDims and BondFeatureDims give the
// vocabulary sizes.
const (
	// AtomFeatureCols is the number of categorical features per atom.
	AtomFeatureCols = 9
	// BondFeatureCols is the number of categorical features per bond.
	BondFeatureCols = 3
)

// AtomFeatureDims returns the cardinalities of the 9 OGB atom feature columns
// (get_atom_feature_dims): atomic number, chirality, degree, formal charge, number of
// hydrogens, radical electrons, hybridisation, aromatic, in ring.
func AtomFeatureDims() []int { return []int{119, 5, 12, 12, 10, 6, 6, 2, 2} }

// BondFeatureDims returns the cardinalities of the 3 OGB bond feature columns
// (get_bond_feature_dims): bond type, stereo, conjugated.
func BondFeatureDims() []int { return []int{5, 6, 2} }

// AtomFeatures returns atom i's 9 OGB categorical codes.
func (m *Molecule) AtomFeatures(i int) [AtomFeatureCols]int32 {
	a := &m.Atoms[i]
	clampIdx := func(v, lo, hi int) int32 { // index of v in [lo, hi], else misc
		if v < lo || v > hi {
			return int32(hi - lo + 1)
		}
		return int32(v - lo)
	}
	var f [AtomFeatureCols]int32
	f[0] = clampIdx(a.AtomicNum, 1, 118)
	switch a.Chirality {
	case ChiralCW:
		f[1] = 1
	case ChiralCCW:
		f[1] = 2
	case ChiralOther:
		f[1] = 3
	}
	f[2] = clampIdx(m.TotalDegree(i), 0, 10)
	f[3] = clampIdx(a.Charge, -5, 5)
	f[4] = clampIdx(a.TotalH(), 0, 8)
	f[5] = clampIdx(a.Radicals, 0, 4)
	switch a.Hybrid {
	case HybridSP:
		f[6] = 0
	case HybridSP2:
		f[6] = 1
	case HybridSP3:
		f[6] = 2
	case HybridSP3D:
		f[6] = 3
	case HybridSP3D2:
		f[6] = 4
	default:
		f[6] = 5
	}
	if a.Aromatic {
		f[7] = 1
	}
	if a.InRing {
		f[8] = 1
	}
	return f
}

// BondFeatures returns bond b's 3 OGB categorical codes.
func (m *Molecule) BondFeatures(b int) [BondFeatureCols]int32 {
	bd := &m.Bonds[b]
	var f [BondFeatureCols]int32
	switch bd.Type {
	case BondSingle:
		f[0] = 0
	case BondDouble:
		f[0] = 1
	case BondTriple:
		f[0] = 2
	case BondAromatic:
		f[0] = 3
	default:
		f[0] = 4
	}
	switch bd.Stereo {
	case StereoZ:
		f[1] = 1
	case StereoE:
		f[1] = 2
	}
	if bd.Conjugated {
		f[2] = 1
	}
	return f
}

// AtomFeatureRows returns the OGB codes of every atom as a row-major matrix of
// len(m.Atoms) rows and AtomFeatureCols columns: row i is AtomFeatures(i).
func (m *Molecule) AtomFeatureRows() []int32 {
	rows := make([]int32, len(m.Atoms)*AtomFeatureCols)
	for i := range m.Atoms {
		f := m.AtomFeatures(i)
		copy(rows[i*AtomFeatureCols:], f[:])
	}
	return rows
}

// BondFeatureRows returns the OGB codes of every bond as a row-major matrix of
// len(m.Bonds) rows and BondFeatureCols columns: row b is BondFeatures(b), the bond
// joining m.Bonds[b].Begin and m.Bonds[b].End. OGB's smiles2graph stores each bond as
// two directed edges (Begin→End, then End→Begin) that both carry the bond's row.
func (m *Molecule) BondFeatureRows() []int32 {
	rows := make([]int32, len(m.Bonds)*BondFeatureCols)
	for b := range m.Bonds {
		f := m.BondFeatures(b)
		copy(rows[b*BondFeatureCols:], f[:])
	}
	return rows
}
