package smiles

import (
	"fmt"
	"strings"
)

// ChiralTag is an atom's tetrahedral chirality as RDKit stores it.
type ChiralTag int8

const (
	// ChiralUnspecified: no chirality (or a tag dropped as meaningless).
	ChiralUnspecified ChiralTag = iota
	// ChiralCW: clockwise (RDKit CHI_TETRAHEDRAL_CW, SMILES "@@" in bond order).
	ChiralCW
	// ChiralCCW: counter-clockwise (RDKit CHI_TETRAHEDRAL_CCW, SMILES "@").
	ChiralCCW
	// ChiralOther: a non-tetrahedral class (@AL, @SP, @TB, @OH).
	ChiralOther
)

// Hybridization is an atom's hybridisation state.
type Hybridization int8

const (
	// HybridUnspecified: not determined (dummy atoms, unusual counts).
	HybridUnspecified Hybridization = iota
	// HybridS: s (H, isolated ions).
	HybridS
	// HybridSP: sp.
	HybridSP
	// HybridSP2: sp2.
	HybridSP2
	// HybridSP3: sp3.
	HybridSP3
	// HybridSP3D: sp3d.
	HybridSP3D
	// HybridSP3D2: sp3d2.
	HybridSP3D2
)

// BondType is a bond's order.
type BondType int8

const (
	// BondSingle: "-", "/", "\" or an unwritten bond between non-aromatic atoms.
	BondSingle BondType = iota
	// BondDouble: "=".
	BondDouble
	// BondTriple: "#".
	BondTriple
	// BondAromatic: ":" or an unwritten ring bond between two aromatic atoms.
	BondAromatic
	// BondQuadruple: "$".
	BondQuadruple
)

// BondStereo is a double bond's configuration.
type BondStereo int8

const (
	// StereoNone: no configuration given.
	StereoNone BondStereo = iota
	// StereoZ: the higher-ranked substituents are on the same side.
	StereoZ
	// StereoE: the higher-ranked substituents are on opposite sides.
	StereoE
)

// Atom is one atom of a parsed molecule. Hydrogens are not separate atoms unless
// written as bracket atoms ([2H], [H][H]).
type Atom struct {
	AtomicNum int           // 1..118; 0 for the wildcard "*"
	Isotope   int           // mass number written in brackets, 0 when absent
	Charge    int           // formal charge
	ExplicitH int           // hydrogens written inside brackets ([NH3+] → 3)
	ImplicitH int           // hydrogens implied by the valence rules (organic subset only)
	Radicals  int           // radical electrons (bracket atoms only)
	Class     int           // atom class ([CH3:7] → 7)
	Aromatic  bool          // written in lowercase (c, n, [nH], …)
	Bracket   bool          // written as a bracket atom
	InRing    bool          // lies on a cycle of the molecular graph
	Chirality ChiralTag     // tetrahedral tag relative to the atom's bond order
	Hybrid    Hybridization // perceived hybridisation
}

// TotalH returns the atom's hydrogen count, written plus implied (RDKit
// GetTotalNumHs; hydrogen atoms bonded as separate atoms are not counted).
func (a *Atom) TotalH() int { return a.ExplicitH + a.ImplicitH }

// Symbol returns the element symbol ("C", "Cl", "*"), lowercase when aromatic.
func (a *Atom) Symbol() string {
	s := elementSymbol(a.AtomicNum)
	if a.Aromatic {
		s = strings.ToLower(s)
	}
	return s
}

// Bond is one bond of a parsed molecule between atoms Begin and End.
type Bond struct {
	Begin, End int        // indices into Molecule.Atoms
	Type       BondType   // bond order (aromatic only between ring atoms)
	Stereo     BondStereo // E/Z configuration of a double bond
	Conjugated bool       // part of a conjugated system (RDKit GetIsConjugated)
	InRing     bool       // lies on a cycle of the molecular graph
}

// Molecule is a parsed SMILES string: its atoms, its bonds in RDKit's order (chain
// and branch bonds as written, then ring-closure bonds by ring number) and the
// perceived chemistry.
type Molecule struct {
	// Atoms lists the atoms in the order written.
	Atoms []Atom
	// Bonds lists the bonds; Degree, TotalDegree and the features assume they are not
	// changed after Parse.
	Bonds []Bond
	// Incident bonds of atom i: nbrBonds[nbrStart[i]:nbrStart[i+1]], by bond index.
	nbrStart []int32
	nbrBonds []int32
}

// Degree returns the number of atoms bonded to atom i (RDKit GetDegree).
func (m *Molecule) Degree(i int) int { return int(m.nbrStart[i+1] - m.nbrStart[i]) }

// TotalDegree returns the number of neighbours of atom i counting its hydrogens
// (RDKit GetTotalDegree).
func (m *Molecule) TotalDegree(i int) int { return m.Degree(i) + m.Atoms[i].TotalH() }

func (m *Molecule) incident(i int) []int32 { return m.nbrBonds[m.nbrStart[i]:m.nbrStart[i+1]] }

func (m *Molecule) other(b int32, i int) int {
	if bd := &m.Bonds[b]; bd.Begin == i {
		return bd.End
	} else {
		return bd.Begin
	}
}

// Error reports a malformed SMILES string: where and what.
type Error struct {
	SMILES string // the input (Error shortens it around Pos when long)
	Pos    int    // byte offset of the offending text
	Text   string // the offending text
	Msg    string // what is wrong
}

// Error names the SMILES (shortened when long), the position and the offending text.
func (e *Error) Error() string {
	return fmt.Sprintf("SMILES %q: position %d (%q): %s", shortenAround(e.SMILES, e.Pos, 30), e.Pos, e.Text, e.Msg)
}

// shortenAround returns s, or when longer than 2·context+10 bytes a window of
// ±context bytes around pos with "..." marking the cuts.
func shortenAround(s string, pos, context int) string {
	if len(s) <= 2*context+10 {
		return s
	}
	lo, hi := max(pos-context, 0), min(pos+context, len(s))
	out := s[lo:hi]
	if lo > 0 {
		out = "..." + out
	}
	if hi < len(s) {
		out += "..."
	}
	return out
}
