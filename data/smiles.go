package data

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// This file holds a self-contained SMILES parser and the chemistry perception needed
// for the OGB molecular features (ogb.utils.features.atom_to_feature_vector and
// bond_to_feature_vector, as computed from an RDKit molecule made by
// Chem.MolFromSmiles). The perception follows RDKit's sanitisation steps where they
// matter for the features:
//
//   - implicit hydrogens of organic-subset atoms follow the OpenSMILES valences
//     (B 3; C 4; N 3,5; O 2; P 3,5; S 2,4,6; halogens 1); an aromatic atom counts
//     its aromatic bonds as 1.5 and takes its default valence (RDKit's rule), so
//     benzene's c gets one H and pyridine's n none; bracket atoms carry exactly
//     the hydrogens written;
//   - ring membership: an atom or bond is in a ring when it lies on a cycle
//     (bonds that are not bridges of the molecular graph);
//   - conjugation and hybridisation: RDKit's setConjugation and setHybridization
//     (ConjugHybrid.cpp), re-implemented: aromatic bonds are conjugated; a multiple
//     bond and a neighbouring bond of an atom with 2 or 3 substituents are
//     conjugated when both atoms can donate electrons to a π system; the
//     hybridisation follows from the number of σ bonds plus lone pairs, with
//     "SP3" lowered to SP2 for atoms of degree ≤ 3 with a conjugated bond (the
//     amide N, the hydroxyl O of an acid);
//   - radicals of bracket atoms: RDKit's assignRadicals;
//   - tetrahedral chirality: the @/@@ written in the SMILES, re-expressed relative
//     to the atom's bond order as RDKit stores it (ring-closure bonds come last);
//     tags on atoms that are not SP3 are dropped, and so are tags on atoms two of
//     whose substituents look alike (compared sphere by sphere, a bounded stand-in
//     for RDKit's CIP ranking);
//   - double-bond stereo (E/Z) from '/' and '\' marks on non-ring double bonds (or
//     those in rings of 8 atoms or more), relative to the higher-ranked
//     substituent on each side, ranked the same bounded way.
//
// Known differences from RDKit: aromaticity is taken as written (lowercase atoms),
// not re-perceived, so a Kekulé benzene "C1=CC=CC=C1" stays non-aromatic; there is
// no Kekulé check, no valence-error check and no nitro/azide clean-up; extended
// chirality classes (@AL, @SP, @TB, @OH) map to the "other" chirality code.

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
	AtomicNum int // 1..118; 0 for the wildcard "*"
	Isotope   int // mass number written in brackets, 0 when absent
	Charge    int // formal charge
	ExplicitH int // hydrogens written inside brackets ([NH3+] → 3)
	ImplicitH int // hydrogens implied by the valence rules (organic subset only)
	Radicals  int // radical electrons (bracket atoms only)
	Class     int // atom class ([CH3:7] → 7)
	Aromatic  bool
	Bracket   bool
	InRing    bool
	Chirality ChiralTag
	Hybrid    Hybridization
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
	Begin, End int
	Type       BondType
	Stereo     BondStereo
	Conjugated bool
	InRing     bool
}

// Molecule is a parsed SMILES string: its atoms, its bonds in RDKit's order (chain
// and branch bonds as written, then ring-closure bonds by ring number) and the
// perceived chemistry.
type Molecule struct {
	Atoms []Atom
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

// OGB feature vocabularies (ogb/utils/features.py, allowable_features): the number of
// codes per atom and bond feature column, the last code of each column being "misc"
// where the vocabulary has one.
const (
	atomFeatureCols = 9
	bondFeatureCols = 3
)

// AtomFeatureDims returns the cardinalities of the 9 OGB atom feature columns
// (get_atom_feature_dims): atomic number, chirality, degree, formal charge, number of
// hydrogens, radical electrons, hybridisation, aromatic, in ring.
func AtomFeatureDims() []int { return []int{119, 5, 12, 12, 10, 6, 6, 2, 2} }

// BondFeatureDims returns the cardinalities of the 3 OGB bond feature columns
// (get_bond_feature_dims): bond type, stereo, conjugated.
func BondFeatureDims() []int { return []int{5, 6, 2} }

// AtomFeatures returns atom i's 9 OGB categorical codes.
func (m *Molecule) AtomFeatures(i int) [atomFeatureCols]int32 {
	a := &m.Atoms[i]
	clampIdx := func(v, lo, hi int) int32 { // index of v in [lo, hi], else misc
		if v < lo || v > hi {
			return int32(hi - lo + 1)
		}
		return int32(v - lo)
	}
	var f [atomFeatureCols]int32
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
func (m *Molecule) BondFeatures(b int) [bondFeatureCols]int32 {
	bd := &m.Bonds[b]
	var f [bondFeatureCols]int32
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

// Graph converts the molecule into a Graph as OGB's smiles2graph does: one node per
// atom with the 9 categorical atom features, each bond stored as two directed edges
// (Begin→End, then End→Begin) with the 3 categorical bond features.
func (m *Molecule) Graph() Graph {
	n, nb := len(m.Atoms), len(m.Bonds)
	g := Graph{
		NumNodes: n,
		Src:      make([]int32, 2*nb),
		Dst:      make([]int32, 2*nb),
		Node: Features{Kind: Categorical, Rows: n, Cols: atomFeatureCols,
			Categorical: make([]int32, n*atomFeatureCols), Cardinality: AtomFeatureDims()},
		Edge: Features{Kind: Categorical, Rows: 2 * nb, Cols: bondFeatureCols,
			Categorical: make([]int32, 2*nb*bondFeatureCols), Cardinality: BondFeatureDims()},
	}
	for i := range n {
		f := m.AtomFeatures(i)
		copy(g.Node.Categorical[i*atomFeatureCols:], f[:])
	}
	for b := range nb {
		bd := &m.Bonds[b]
		g.Src[2*b], g.Dst[2*b] = int32(bd.Begin), int32(bd.End)
		g.Src[2*b+1], g.Dst[2*b+1] = int32(bd.End), int32(bd.Begin)
		f := m.BondFeatures(b)
		copy(g.Edge.Categorical[2*b*bondFeatureCols:], f[:])
		copy(g.Edge.Categorical[(2*b+1)*bondFeatureCols:], f[:])
	}
	return g
}

// SMILESError reports a malformed SMILES string: where and what.
type SMILESError struct {
	SMILES string // the input (Error shortens it around Pos when long)
	Pos    int    // byte offset of the offending text
	Text   string // the offending text
	Msg    string // what is wrong
}

// Error names the SMILES (shortened when long), the position and the offending text.
func (e *SMILESError) Error() string {
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

// ParseSMILES parses a SMILES string into a molecule with perceived rings, implicit
// hydrogens, conjugation, hybridisation and stereo (see the notes at the top of this
// file). Malformed input gives a *SMILESError.
func ParseSMILES(s string) (*Molecule, error) {
	p := smilesParser{s: s, m: &Molecule{}, prev: -1, fragStart: true}
	p.reserve()
	if err := p.parse(); err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	return p.m, nil
}

// Parser state.

type smilesBranch struct{ atom, pos, atomsAtOpen int }

type smilesOpenRing struct {
	num, atom, pos, slot int
	typ                  BondType
	typSet               bool
	dir                  byte
}

type smilesClosure struct {
	num, a, b, slot int
	typ             BondType
	typSet          bool
	dir             byte // '/' or '\\' or 0
	dirFrom         int  // the atom the mark was written after
}

// smilesChiral records, for one atom written with a chirality mark, the order of its
// bonds in the SMILES text: refs >= 0 are bond indices, refs < 0 ring slots −(slot+1).
type smilesChiral struct {
	atom    int
	hasPrev bool
	first   bool // first atom of the string or of a '.'-separated part
	rings   []int32
	others  []int32
}

type smilesParser struct {
	s    string
	pos  int
	m    *Molecule
	prev int
	// pending bond symbol
	pendSet  bool
	pendType BondType
	pendDir  byte
	pendPos  int

	fragStart bool
	branches  []smilesBranch
	open      []smilesOpenRing
	closures  []smilesClosure
	nSlots    int
	atomPos   []int32
	unspec    []bool  // bond written without a symbol
	bondDir   []byte  // '/', '\\' or 0 per bond
	dirFrom   []int32 // atom the direction mark was written after
	chiral    []smilesChiral
	chiralOf  []int32 // atom → index in chiral, −1 for none (nil until a chiral atom)
}

// reserve sizes the atom and bond slices from a scan of the string: one atom per
// bracket or organic-subset letter outside brackets, one bond per atom plus one per
// ring label.
func (p *smilesParser) reserve() {
	atoms, rings, inBracket := 0, 0, false
	for i := 0; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '[':
			atoms++
			inBracket = true
		case c == ']':
			inBracket = false
		case inBracket:
		case strings.IndexByte("BCNOPSFIbcnops*", c) >= 0:
			atoms++
		case isDigit(c) || c == '%':
			rings++
		}
	}
	bonds := atoms + rings
	p.m.Atoms = make([]Atom, 0, atoms)
	p.atomPos = make([]int32, 0, atoms)
	p.m.Bonds = make([]Bond, 0, bonds)
	p.unspec = make([]bool, 0, bonds)
	p.bondDir = make([]byte, 0, bonds)
	p.dirFrom = make([]int32, 0, bonds)
}

// chiralIndex returns atom's index in p.chiral, or −1.
func (p *smilesParser) chiralIndex(atom int) int {
	if atom < len(p.chiralOf) {
		return int(p.chiralOf[atom])
	}
	return -1
}

func (p *smilesParser) fail(pos int, text, format string, args ...any) error {
	return &SMILESError{SMILES: p.s, Pos: pos, Text: text, Msg: fmt.Sprintf(format, args...)}
}

func (p *smilesParser) parse() error {
	s := p.s
	if len(s) == 0 {
		return p.fail(0, "", "empty SMILES")
	}
	for p.pos < len(s) {
		c := s[p.pos]
		switch {
		case c == '(':
			if p.prev < 0 {
				return p.fail(p.pos, "(", "branch without a preceding atom")
			}
			if p.pendSet {
				return p.fail(p.pendPos, s[p.pendPos:p.pendPos+1], "bond symbol before a branch")
			}
			p.branches = append(p.branches, smilesBranch{atom: p.prev, pos: p.pos, atomsAtOpen: len(p.m.Atoms)})
			p.pos++
		case c == ')':
			if len(p.branches) == 0 {
				return p.fail(p.pos, ")", "unbalanced parentheses: ')' without '('")
			}
			if p.pendSet {
				return p.fail(p.pendPos, s[p.pendPos:p.pendPos+1], "bond symbol without a following atom")
			}
			br := p.branches[len(p.branches)-1]
			if len(p.m.Atoms) == br.atomsAtOpen {
				return p.fail(br.pos, s[br.pos:p.pos+1], "empty branch")
			}
			p.branches = p.branches[:len(p.branches)-1]
			p.prev = br.atom
			p.pos++
		case c == '-' || c == '=' || c == '#' || c == '$' || c == ':' || c == '/' || c == '\\':
			if p.prev < 0 {
				return p.fail(p.pos, s[p.pos:p.pos+1], "bond symbol without a preceding atom")
			}
			if p.pendSet {
				return p.fail(p.pendPos, s[p.pendPos:p.pos+1], "two bond symbols in a row")
			}
			p.pendSet, p.pendPos, p.pendDir = true, p.pos, 0
			switch c {
			case '-':
				p.pendType = BondSingle
			case '=':
				p.pendType = BondDouble
			case '#':
				p.pendType = BondTriple
			case '$':
				p.pendType = BondQuadruple
			case ':':
				p.pendType = BondAromatic
			default:
				p.pendType, p.pendDir = BondSingle, c
			}
			p.pos++
		case c == '.':
			if p.prev < 0 {
				return p.fail(p.pos, ".", "'.' without a preceding atom")
			}
			if p.pendSet {
				return p.fail(p.pendPos, s[p.pendPos:p.pos+1], "bond symbol before '.'")
			}
			p.prev, p.fragStart = -1, true
			p.pos++
		case c >= '0' && c <= '9' || c == '%':
			if err := p.ringBond(); err != nil {
				return err
			}
		case c == '[':
			if err := p.bracketAtom(); err != nil {
				return err
			}
		default:
			if err := p.organicAtom(); err != nil {
				return err
			}
		}
	}
	if p.pendSet {
		return p.fail(p.pendPos, s[p.pendPos:p.pendPos+1], "bond symbol at the end")
	}
	if len(p.branches) > 0 {
		br := p.branches[len(p.branches)-1]
		return p.fail(br.pos, "(", "unbalanced parentheses: '(' never closed")
	}
	if len(p.open) > 0 {
		r := p.open[0]
		return p.fail(r.pos, s[r.pos:min(r.pos+ringTextLen(s, r.pos), len(s))], "ring %d never closed", r.num)
	}
	return nil
}

// ringTextLen returns the length of the ring-closure token at s[pos:].
func ringTextLen(s string, pos int) int {
	if s[pos] != '%' {
		return 1
	}
	if pos+1 < len(s) && s[pos+1] == '(' {
		if end := strings.IndexByte(s[pos:], ')'); end > 0 {
			return end + 1
		}
		return len(s) - pos
	}
	return min(3, len(s)-pos)
}

// addAtom appends an atom, bonding it to the previous atom of the chain.
func (p *smilesParser) addAtom(a Atom, pos int) error {
	idx := len(p.m.Atoms)
	p.m.Atoms = append(p.m.Atoms, a)
	p.atomPos = append(p.atomPos, int32(pos))
	if p.prev >= 0 {
		p.addBond(p.prev, idx, p.pendType, p.pendSet, p.pendDir, p.prev)
		b := int32(len(p.m.Bonds) - 1)
		if ci := p.chiralIndex(p.prev); ci >= 0 {
			p.chiral[ci].others = append(p.chiral[ci].others, b)
		}
		if ci := p.chiralIndex(idx); ci >= 0 {
			p.chiral[ci].others = append(p.chiral[ci].others, b)
			p.chiral[ci].hasPrev = true
		}
	}
	if ci := p.chiralIndex(idx); ci >= 0 {
		p.chiral[ci].first = p.fragStart
	}
	p.pendSet, p.pendDir, p.pendType = false, 0, BondSingle
	p.prev, p.fragStart = idx, false
	return nil
}

func (p *smilesParser) addBond(a, b int, typ BondType, set bool, dir byte, from int) {
	p.m.Bonds = append(p.m.Bonds, Bond{Begin: a, End: b, Type: typ})
	p.unspec = append(p.unspec, !set)
	p.bondDir = append(p.bondDir, dir)
	p.dirFrom = append(p.dirFrom, int32(from))
}

func (p *smilesParser) organicAtom() error {
	s, pos := p.s, p.pos
	var a Atom
	n := 1
	switch s[pos] {
	case 'B':
		a.AtomicNum = 5
		if pos+1 < len(s) && s[pos+1] == 'r' {
			a.AtomicNum, n = 35, 2
		}
	case 'C':
		a.AtomicNum = 6
		if pos+1 < len(s) && s[pos+1] == 'l' {
			a.AtomicNum, n = 17, 2
		}
	case 'N':
		a.AtomicNum = 7
	case 'O':
		a.AtomicNum = 8
	case 'P':
		a.AtomicNum = 15
	case 'S':
		a.AtomicNum = 16
	case 'F':
		a.AtomicNum = 9
	case 'I':
		a.AtomicNum = 53
	case 'b':
		a.AtomicNum, a.Aromatic = 5, true
	case 'c':
		a.AtomicNum, a.Aromatic = 6, true
	case 'n':
		a.AtomicNum, a.Aromatic = 7, true
	case 'o':
		a.AtomicNum, a.Aromatic = 8, true
	case 'p':
		a.AtomicNum, a.Aromatic = 15, true
	case 's':
		a.AtomicNum, a.Aromatic = 16, true
	case '*':
		a.AtomicNum = 0
	default:
		end := pos + 1
		for end < len(s) && s[end] >= 'a' && s[end] <= 'z' {
			end++
		}
		if c := s[pos]; c >= 'A' && c <= 'Z' {
			return p.fail(pos, s[pos:end], "unknown atom (not in the organic subset; use brackets)")
		}
		return p.fail(pos, s[pos:pos+1], "unexpected character")
	}
	p.pos += n
	return p.addAtom(a, pos)
}

// bracketAtom parses [isotope? symbol chirality? hcount? charge? class?].
func (p *smilesParser) bracketAtom() error {
	s, start := p.s, p.pos
	end := strings.IndexByte(s[start:], ']')
	if end < 0 {
		return p.fail(start, s[start:min(start+12, len(s))], "unclosed bracket atom")
	}
	end += start
	body := s[start+1 : end]
	text := s[start : end+1]
	bad := func(format string, args ...any) error { return p.fail(start, text, format, args...) }
	if strings.IndexByte(body, '[') >= 0 {
		return bad("unclosed bracket atom")
	}
	a := Atom{Bracket: true}
	i := 0
	readNum := func(maxDigits int) (int, bool) {
		j, v := i, 0
		for j < len(body) && body[j] >= '0' && body[j] <= '9' {
			if j-i >= maxDigits {
				return 0, false
			}
			v = v*10 + int(body[j]-'0')
			j++
		}
		i = j
		return v, true
	}
	iso, ok := readNum(4)
	if !ok {
		return bad("isotope too large")
	}
	a.Isotope = iso
	// element symbol
	switch {
	case i < len(body) && body[i] == '*':
		a.AtomicNum = 0
		i++
	case i < len(body) && body[i] == '#':
		i++
		j := i
		z, ok := readNum(3)
		if !ok || i == j || z < 1 || z > 118 {
			return bad("bad atomic number after '#'")
		}
		a.AtomicNum = z
	case i < len(body) && body[i] >= 'a' && body[i] <= 'z':
		sym := body[i : i+1]
		if i+1 < len(body) && (body[i:i+2] == "se" || body[i:i+2] == "as" || body[i:i+2] == "te") {
			sym = body[i : i+2]
		}
		z := aromaticBracketElement(sym)
		if z == 0 {
			return bad("unknown aromatic atom %q", sym)
		}
		a.AtomicNum, a.Aromatic = z, true
		i += len(sym)
	case i < len(body) && body[i] >= 'A' && body[i] <= 'Z':
		z := 0
		if i+1 < len(body) && body[i+1] >= 'a' && body[i+1] <= 'z' {
			if z = elementNumber(body[i : i+2]); z > 0 {
				i += 2
			}
		}
		if z == 0 {
			if z = elementNumber(body[i : i+1]); z == 0 {
				j := i + 1
				for j < len(body) && body[j] >= 'a' && body[j] <= 'z' {
					j++
				}
				return bad("unknown element %q", body[i:j])
			}
			i++
		}
		a.AtomicNum = z
	default:
		return bad("missing element symbol")
	}
	// chirality
	if i < len(body) && body[i] == '@' {
		i++
		a.Chirality = ChiralCCW
		switch {
		case i < len(body) && body[i] == '@':
			a.Chirality = ChiralCW
			i++
		case i+2 < len(body) && isChiralClass(body[i:i+2]) && isDigit(body[i+2]):
			class := body[i : i+2]
			i += 2
			j := i
			n, ok := readNum(2)
			if !ok || i == j {
				return bad("bad chirality class @%s", class)
			}
			switch {
			case class == "TH" && (n == 1 || n == 2):
				if n == 2 {
					a.Chirality = ChiralCW
				}
			case class == "AL" && (n == 1 || n == 2), class == "SP" && n >= 1 && n <= 3,
				class == "TB" && n >= 1 && n <= 20, class == "OH" && n >= 1 && n <= 30:
				a.Chirality = ChiralOther
			default:
				return bad("bad chirality class @%s%d", class, n)
			}
		}
	}
	// hydrogens
	if i < len(body) && body[i] == 'H' {
		i++
		j := i
		n, ok := readNum(2)
		if !ok {
			return bad("hydrogen count too large")
		}
		if i == j {
			n = 1
		}
		a.ExplicitH = n
	}
	// charge
	if i < len(body) && (body[i] == '+' || body[i] == '-') {
		sign := 1
		if body[i] == '-' {
			sign = -1
		}
		c := body[i]
		i++
		j := i
		n, ok := readNum(2)
		if !ok {
			return bad("charge too large")
		}
		if i == j {
			n = 1
			for i < len(body) && body[i] == c {
				n++
				i++
			}
		}
		if n > 15 {
			return bad("charge %d out of range", sign*n)
		}
		a.Charge = sign * n
	}
	// atom class
	if i < len(body) && body[i] == ':' {
		i++
		j := i
		n, ok := readNum(9)
		if !ok || i == j {
			return bad("bad atom class")
		}
		a.Class = n
	}
	if i != len(body) {
		return bad("unexpected %q in bracket atom", body[i:])
	}
	idx := len(p.m.Atoms)
	if a.Chirality != ChiralUnspecified {
		for len(p.chiralOf) <= idx {
			p.chiralOf = append(p.chiralOf, -1)
		}
		p.chiralOf[idx] = int32(len(p.chiral))
		p.chiral = append(p.chiral, smilesChiral{atom: idx})
	}
	p.pos = end + 1
	return p.addAtom(a, start)
}

// ringBond handles a ring-closure digit or %nn / %(n...) after an atom.
func (p *smilesParser) ringBond() error {
	s, start := p.s, p.pos
	num, n := 0, 1
	if s[start] == '%' {
		switch {
		case start+2 < len(s) && isDigit(s[start+1]) && isDigit(s[start+2]):
			num, n = int(s[start+1]-'0')*10+int(s[start+2]-'0'), 3
		case start+1 < len(s) && s[start+1] == '(':
			j := start + 2
			for j < len(s) && isDigit(s[j]) && j-start-2 < 5 {
				num = num*10 + int(s[j]-'0')
				j++
			}
			if j == start+2 || j >= len(s) || s[j] != ')' {
				return p.fail(start, s[start:min(j+1, len(s))], "bad ring number")
			}
			n = j + 1 - start
		default:
			return p.fail(start, s[start:min(start+3, len(s))], "'%%' must be followed by two digits")
		}
	} else {
		num = int(s[start] - '0')
	}
	text := s[start : start+n]
	if p.prev < 0 {
		return p.fail(start, text, "ring closure without a preceding atom")
	}
	atom := p.prev
	for k, r := range p.open {
		if r.num != num {
			continue
		}
		if r.atom == atom {
			return p.fail(start, text, "ring %d closes on the atom that opened it", num)
		}
		for _, b := range p.m.Bonds {
			if (b.Begin == r.atom && b.End == atom) || (b.Begin == atom && b.End == r.atom) {
				return p.fail(start, text, "ring %d duplicates an existing bond", num)
			}
		}
		for _, c := range p.closures {
			if (c.a == r.atom && c.b == atom) || (c.a == atom && c.b == r.atom) {
				return p.fail(start, text, "ring %d duplicates an existing bond", num)
			}
		}
		c := smilesClosure{num: num, a: r.atom, b: atom, slot: r.slot, typ: r.typ, typSet: r.typSet,
			dir: r.dir, dirFrom: r.atom}
		if !c.typSet && p.pendSet { // the first written bond type wins (RDKit)
			c.typ, c.typSet = p.pendType, true
		}
		if c.dir == 0 && p.pendDir != 0 {
			c.dir, c.dirFrom = p.pendDir, atom
		}
		p.closures = append(p.closures, c)
		p.open = slices.Delete(p.open, k, k+1)
		p.noteRing(atom, r.slot)
		p.pendSet, p.pendDir, p.pendType = false, 0, BondSingle
		p.pos += n
		return nil
	}
	r := smilesOpenRing{num: num, atom: atom, pos: start, slot: p.nSlots, typ: p.pendType, typSet: p.pendSet, dir: p.pendDir}
	p.nSlots++
	p.open = append(p.open, r)
	p.noteRing(atom, r.slot)
	p.pendSet, p.pendDir, p.pendType = false, 0, BondSingle
	p.pos += n
	return nil
}

func (p *smilesParser) noteRing(atom, slot int) {
	if ci := p.chiralIndex(atom); ci >= 0 {
		p.chiral[ci].rings = append(p.chiral[ci].rings, int32(-(slot + 1)))
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isChiralClass(s string) bool {
	return s == "TH" || s == "AL" || s == "SP" || s == "TB" || s == "OH"
}

// finish adds the ring-closure bonds and perceives the chemistry.
func (p *smilesParser) finish() error {
	m := p.m
	// Ring-closure bonds come after all chain bonds, by ring number (RDKit's
	// CloseMolRings walks its ring bookmarks in number order).
	slices.SortStableFunc(p.closures, func(x, y smilesClosure) int { return x.num - y.num })
	slotBond := make([]int32, p.nSlots)
	for _, c := range p.closures {
		slotBond[c.slot] = int32(len(m.Bonds))
		p.addBond(c.a, c.b, c.typ, c.typSet, c.dir, c.dirFrom)
	}
	for b := range m.Bonds {
		if p.unspec[b] {
			if m.Atoms[m.Bonds[b].Begin].Aromatic && m.Atoms[m.Bonds[b].End].Aromatic {
				m.Bonds[b].Type = BondAromatic
			} else {
				m.Bonds[b].Type = BondSingle
			}
		}
	}
	m.buildAdjacency()
	m.markRings()
	for i := range m.Atoms {
		if m.Atoms[i].Aromatic && !m.Atoms[i].InRing {
			pos := int(p.atomPos[i])
			return p.fail(pos, p.s[pos:pos+atomTextLen(p.s, pos)], "aromatic atom outside a ring")
		}
	}
	for b := range m.Bonds {
		if m.Bonds[b].Type == BondAromatic && !m.Bonds[b].InRing {
			m.Bonds[b].Type = BondSingle // RDKit's re-perception leaves it single
		}
	}
	valence := make([]int, len(m.Atoms))
	for i := range m.Atoms {
		m.assignHydrogens(i, valence)
	}
	m.setConjugation()
	for ci := range p.chiral {
		p.adjustChirality(&p.chiral[ci], slotBond)
	}
	for i := range m.Atoms {
		m.setHybridization(i, valence)
	}
	m.cleanupChirality()
	p.assignDoubleBondStereo()
	return nil
}

// atomTextLen returns the length of the atom token at s[pos:].
func atomTextLen(s string, pos int) int {
	if s[pos] == '[' {
		if e := strings.IndexByte(s[pos:], ']'); e >= 0 {
			return e + 1
		}
	}
	if pos+1 < len(s) && (s[pos:pos+2] == "Cl" || s[pos:pos+2] == "Br") {
		return 2
	}
	return 1
}

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

// Element data.

// elementSymbols lists the element symbols by atomic number, space separated.
const elementSymbols = " H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn" +
	" Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm" +
	" Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U" +
	" Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og "

// elementNumber returns the atomic number of an element symbol, 0 when unknown.
func elementNumber(sym string) int {
	switch sym { // the common ones first
	case "C":
		return 6
	case "N":
		return 7
	case "O":
		return 8
	case "S":
		return 16
	case "H":
		return 1
	}
	k := strings.Index(elementSymbols, " "+sym+" ")
	if k < 0 {
		return 0
	}
	return strings.Count(elementSymbols[:k+1], " ")
}

// elementSymbol returns the symbol of atomic number z ("*" for 0 or unknown).
func elementSymbol(z int) string {
	if z < 1 || z > 118 {
		return "*"
	}
	f := strings.Fields(elementSymbols)
	return f[z-1]
}

func aromaticBracketElement(sym string) int {
	switch sym {
	case "b":
		return 5
	case "c":
		return 6
	case "n":
		return 7
	case "o":
		return 8
	case "p":
		return 15
	case "s":
		return 16
	case "se":
		return 34
	case "as":
		return 33
	case "te":
		return 52
	}
	return 0
}

// outerElectrons returns the number of valence-shell electrons of element z (main
// groups: the group's count; d-block: the group number, 2 for group 12; f-block: 3).
func outerElectrons(z int) int {
	switch {
	case z <= 0:
		return 0
	case z <= 2:
		return z
	case z <= 18:
		start := 3
		if z > 10 {
			start = 11
		}
		return z - start + 1
	}
	start := 19
	switch {
	case z >= 87:
		start = 87
	case z >= 55:
		start = 55
	case z >= 37:
		start = 37
	}
	pos := z - start
	if start >= 55 { // skip the f-block
		if pos >= 2 && pos <= 16 {
			return 3
		}
		if pos > 16 {
			pos -= 14
		}
	}
	group := pos + 1
	switch {
	case group <= 11:
		return group
	case group == 12:
		return 2
	}
	return group - 10
}

// rdkitValences returns RDKit's allowed valences of element z, the default first,
// terminated by −1; {−1} means "any" (metals).
func rdkitValences(z int) [4]int8 {
	switch z {
	case 1, 9, 17, 35, 3, 11, 19, 37, 55, 87:
		return [4]int8{1, -1, -1, -1}
	case 53:
		return [4]int8{1, 3, 5, -1}
	case 4, 12, 20, 38, 56, 88:
		return [4]int8{2, -1, -1, -1}
	case 5, 13:
		return [4]int8{3, -1, -1, -1}
	case 6, 14, 32:
		return [4]int8{4, -1, -1, -1}
	case 7:
		return [4]int8{3, -1, -1, -1}
	case 8:
		return [4]int8{2, -1, -1, -1}
	case 15, 33:
		return [4]int8{3, 5, 7, -1}
	case 16, 34, 52:
		return [4]int8{2, 4, 6, -1}
	case 2, 10, 18, 36:
		return [4]int8{0, -1, -1, -1}
	}
	return [4]int8{-1, -1, -1, -1}
}

// organicValences returns the OpenSMILES valences used for the implicit hydrogens of
// organic-subset atoms, terminated by −1.
func organicValences(z int) [4]int8 {
	switch z {
	case 5:
		return [4]int8{3, -1, -1, -1}
	case 6:
		return [4]int8{4, -1, -1, -1}
	case 7, 15:
		return [4]int8{3, 5, -1, -1}
	case 8:
		return [4]int8{2, -1, -1, -1}
	case 16:
		return [4]int8{2, 4, 6, -1}
	case 9, 17, 35, 53:
		return [4]int8{1, -1, -1, -1}
	}
	return [4]int8{0, -1, -1, -1}
}

// chargedValence shifts valence v of element z for formal charge chg the RDKit way:
// N+ behaves like C (4), O− like F (1); for B and C a charge lowers it.
func chargedValence(z, v, chg int) int {
	switch outer := outerElectrons(z); {
	case outer >= 5:
		return v + chg
	case outer == 4:
		if chg < 0 {
			return v + chg
		}
		return v - chg
	default:
		return v - chg
	}
}
