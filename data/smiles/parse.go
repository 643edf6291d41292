package smiles

import (
	"fmt"
	"slices"
	"strings"
)

// Parse parses a SMILES string into a molecule with perceived rings, implicit
// hydrogens, conjugation, hybridisation and stereo (see the package documentation for
// how closely this follows RDKit). Malformed input gives an *Error.
func Parse(s string) (*Molecule, error) {
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
	return &Error{SMILES: p.s, Pos: pos, Text: text, Msg: fmt.Sprintf(format, args...)}
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
