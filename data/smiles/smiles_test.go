package smiles

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// smilesCase is a molecule with hand-derived properties. Strings hold one character
// per atom or bond: aromatic/ring flags '0'/'1'; bond types S(ingle) D(ouble)
// T(riple) A(romatic); hybridisation '1' SP, '2' SP2, '3' SP3, 's' S.
type smilesCase struct {
	name, smiles string
	h, totalDeg  []int
	arom, ring   string
	bonds        string
	hybrid       string
	conj         string // per bond '0'/'1'; empty: not checked
}

var smilesCases = []smilesCase{
	{name: "ethanol", smiles: "CCO", h: []int{3, 2, 1}, totalDeg: []int{4, 4, 2},
		arom: "000", ring: "000", bonds: "SS", hybrid: "333", conj: "00"},
	{name: "benzene", smiles: "c1ccccc1", h: []int{1, 1, 1, 1, 1, 1}, totalDeg: []int{3, 3, 3, 3, 3, 3},
		arom: "111111", ring: "111111", bonds: "AAAAAA", hybrid: "222222", conj: "111111"},
	{name: "pyridine", smiles: "c1ccncc1", h: []int{1, 1, 1, 0, 1, 1}, totalDeg: []int{3, 3, 3, 2, 3, 3},
		arom: "111111", ring: "111111", bonds: "AAAAAA", hybrid: "222222"},
	{name: "caffeine", smiles: "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
		h:        []int{3, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 3},
		totalDeg: []int{4, 3, 3, 2, 3, 3, 3, 1, 3, 4, 3, 1, 3, 4},
		arom:     "01111110101010", ring: "01111110101010",
		bonds: "SAAAAADASADASAA", hybrid: "32222222232223", conj: "011111110111011"},
	{name: "acetic acid", smiles: "CC(=O)O", h: []int{3, 0, 0, 1}, totalDeg: []int{4, 3, 1, 2},
		arom: "0000", ring: "0000", bonds: "SDS", hybrid: "3222", conj: "011"},
	{name: "ammonium", smiles: "[NH4+]", h: []int{4}, totalDeg: []int{4}, arom: "0", ring: "0", bonds: "", hybrid: "3"},
	{name: "L-alanine", smiles: "N[C@@H](C)C(=O)O", h: []int{2, 1, 3, 0, 0, 1}, totalDeg: []int{3, 4, 4, 3, 1, 2},
		arom: "000000", ring: "000000", bonds: "SSSDS", hybrid: "333222", conj: "00011"},
	{name: "cyclohexane %10", smiles: "C%10CCCCC%10", h: []int{2, 2, 2, 2, 2, 2}, totalDeg: []int{4, 4, 4, 4, 4, 4},
		arom: "000000", ring: "111111", bonds: "SSSSSS", hybrid: "333333"},
	{name: "1,2-dithiane", smiles: "C1CSSCC1", h: []int{2, 2, 0, 0, 2, 2}, totalDeg: []int{4, 4, 2, 2, 4, 4},
		arom: "000000", ring: "111111", bonds: "SSSSSS", hybrid: "333333"},
	{name: "disulfide-bridged dipeptide ring", smiles: "O=C1NC(C(=O)O)CSSCC1N",
		h:        []int{0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 2, 1, 2},
		totalDeg: []int{1, 3, 3, 4, 3, 1, 2, 4, 2, 2, 4, 4, 3},
		arom:     "0000000000000", ring: "0111000111110",
		bonds: "DSSSDSSSSSSSS", hybrid: "2223222333333", conj: "1100110000000"},
	{name: "indole", smiles: "c1ccc2[nH]ccc2c1", h: []int{1, 1, 1, 0, 1, 1, 1, 0, 1},
		totalDeg: []int{3, 3, 3, 3, 3, 3, 3, 3, 3},
		arom:     "111111111", ring: "111111111", bonds: "AAAAAAAAAA", hybrid: "222222222"},
	{name: "halogens", smiles: "ClCCBr", h: []int{0, 2, 2, 0}, totalDeg: []int{1, 4, 4, 1},
		arom: "0000", ring: "0000", bonds: "SSS", hybrid: "3333"},
	{name: "hydrogen cyanide", smiles: "C#N", h: []int{1, 0}, totalDeg: []int{2, 1},
		arom: "00", ring: "00", bonds: "T", hybrid: "11", conj: "0"},
	{name: "ring bond order on the digit", smiles: "C=1CCCCC1", h: []int{1, 2, 2, 2, 2, 1},
		totalDeg: []int{3, 4, 4, 4, 4, 3}, arom: "000000", ring: "111111", bonds: "SSSSSD", hybrid: "233332"},
	{name: "deuterated methyl", smiles: "[2H]C([2H])([2H])C", h: []int{0, 0, 0, 0, 3},
		totalDeg: []int{1, 4, 1, 1, 4}, arom: "00000", ring: "00000", bonds: "SSSS", hybrid: "s3ss3"},
	{name: "charged imidazole", smiles: "Cc1c[nH+]c[nH]1", h: []int{3, 0, 1, 1, 1, 1},
		totalDeg: []int{4, 3, 3, 3, 3, 3}, arom: "011111", ring: "011111", bonds: "SAAAAA", hybrid: "322222"},
}

func bondLetter(t BondType) byte {
	return "SDTAQ"[t]
}

func hybridLetter(h Hybridization) byte {
	switch h {
	case HybridS:
		return 's'
	case HybridSP:
		return '1'
	case HybridSP2:
		return '2'
	case HybridSP3:
		return '3'
	}
	return '?'
}

func flag(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

func TestParseSMILESHandChecked(t *testing.T) {
	for _, c := range smilesCases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse(c.smiles)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Atoms) != len(c.h) || len(m.Bonds) != len(c.bonds) {
				t.Fatalf("%d atoms, %d bonds; want %d, %d", len(m.Atoms), len(m.Bonds), len(c.h), len(c.bonds))
			}
			var arom, ring, hyb, bonds, conj []byte
			for i := range m.Atoms {
				a := &m.Atoms[i]
				if a.TotalH() != c.h[i] {
					t.Errorf("atom %d (%s): %d H, want %d", i, a.Symbol(), a.TotalH(), c.h[i])
				}
				if m.TotalDegree(i) != c.totalDeg[i] {
					t.Errorf("atom %d (%s): total degree %d, want %d", i, a.Symbol(), m.TotalDegree(i), c.totalDeg[i])
				}
				arom = append(arom, flag(a.Aromatic))
				ring = append(ring, flag(a.InRing))
				hyb = append(hyb, hybridLetter(a.Hybrid))
			}
			for _, b := range m.Bonds {
				bonds = append(bonds, bondLetter(b.Type))
				conj = append(conj, flag(b.Conjugated))
			}
			for _, chk := range []struct{ what, got, want string }{
				{"aromatic", string(arom), c.arom}, {"in ring", string(ring), c.ring},
				{"bond types", string(bonds), c.bonds}, {"hybridisation", string(hyb), c.hybrid},
			} {
				if chk.got != chk.want {
					t.Errorf("%s %q, want %q", chk.what, chk.got, chk.want)
				}
			}
			if c.conj != "" && string(conj) != c.conj {
				t.Errorf("conjugated %q, want %q", conj, c.conj)
			}
		})
	}
}

func TestParseSMILESBracketAtoms(t *testing.T) {
	cases := []struct {
		smiles                            string
		z, iso, charge, h, class, radical int
		chiral                            ChiralTag
	}{
		{"[NH3+]C", 7, 0, 1, 3, 0, 0, ChiralUnspecified},
		{"[13CH4]", 6, 13, 0, 4, 0, 0, ChiralUnspecified},
		{"[CH3:7]C", 6, 0, 0, 3, 7, 0, ChiralUnspecified},
		{"[CH3]", 6, 0, 0, 3, 0, 1, ChiralUnspecified}, // methyl radical
		{"[Fe+2]", 26, 0, 2, 0, 0, 0, ChiralUnspecified},
		{"[Zn++]", 30, 0, 2, 0, 0, 0, ChiralUnspecified},
		{"[O-]C", 8, 0, -1, 0, 0, 0, ChiralUnspecified},
		{"[O--]", 8, 0, -2, 0, 0, 0, ChiralUnspecified},
		{"[#6H4]", 6, 0, 0, 4, 0, 0, ChiralUnspecified},
		{"[nH]1cccc1", 7, 0, 0, 1, 0, 0, ChiralUnspecified},
		{"[C@@H](F)(Cl)Br", 6, 0, 0, 1, 0, 0, ChiralCCW}, // first atom with H: tag inverted
		{"[C@TH2H](F)(Cl)Br", 6, 0, 0, 1, 0, 0, ChiralCCW},
		{"[Se]", 34, 0, 0, 0, 0, 2, ChiralUnspecified},
	}
	for _, c := range cases {
		m, err := Parse(c.smiles)
		if err != nil {
			t.Errorf("%s: %v", c.smiles, err)
			continue
		}
		a := m.Atoms[0]
		got := []int{a.AtomicNum, a.Isotope, a.Charge, a.TotalH(), a.Class, a.Radicals}
		want := []int{c.z, c.iso, c.charge, c.h, c.class, c.radical}
		if !slices.Equal(got, want) || a.Chirality != c.chiral {
			t.Errorf("%s: (z, isotope, charge, H, class, radicals) = %v chirality %d; want %v chirality %d", c.smiles, got, a.Chirality, want, c.chiral)
		}
	}
}

// TestOGBReferenceExample checks the example in ogb/utils/features.py, whose expected
// vectors were computed there with RDKit.
func TestOGBReferenceExample(t *testing.T) {
	m, err := Parse("Cl[C@H](/C=C/C)Br")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.AtomFeatures(1), [9]int32{5, 2, 4, 5, 1, 0, 2, 0, 0}; got != want {
		t.Errorf("atom 1 features %v, want %v", got, want)
	}
	if got, want := m.BondFeatures(2), [3]int32{1, 2, 0}; got != want {
		t.Errorf("bond 2 features %v, want %v", got, want)
	}
	if got, want := AtomFeatureDims(), []int{119, 5, 12, 12, 10, 6, 6, 2, 2}; !slices.Equal(got, want) {
		t.Errorf("atom feature dims %v, want %v", got, want)
	}
	if got, want := BondFeatureDims(), []int{5, 6, 2}; !slices.Equal(got, want) {
		t.Errorf("bond feature dims %v, want %v", got, want)
	}
}

// handedness returns an order-independent description of a tetrahedral centre: the
// tag combined with the parity of the permutation from the atom's bond order (its
// hydrogen last) to its neighbours' labels (symbol + H count) sorted.
func handedness(t *testing.T, m *Molecule, centre int) int {
	t.Helper()
	a := m.Atoms[centre]
	if a.Chirality != ChiralCW && a.Chirality != ChiralCCW {
		t.Fatalf("atom %d has no tetrahedral tag", centre)
	}
	var labels []string
	for _, b := range m.incident(centre) {
		o := &m.Atoms[m.other(b, centre)]
		labels = append(labels, o.Symbol()+strings.Repeat("H", o.TotalH()))
	}
	if a.TotalH() == 1 {
		labels = append(labels, "H")
	}
	sorted := slices.Clone(labels)
	slices.Sort(sorted)
	swaps := 0
	for i := range labels {
		for j := i + 1; j < len(labels); j++ {
			if sorted[j] == labels[i] && sorted[i] != labels[i] {
				sorted[i], sorted[j] = sorted[j], sorted[i]
				swaps++
				break
			}
		}
	}
	h := swaps % 2
	if a.Chirality == ChiralCW {
		h ^= 1
	}
	return h
}

// TestChiralityIsOrderIndependent writes the same centres in several orders (with
// hydrogens, ring closures, first atoms); the equivalences follow from the SMILES
// rule that swapping two neighbours inverts @/@@.
func TestChiralityIsOrderIndependent(t *testing.T) {
	groups := []struct {
		same, mirror []string
		centre       []int // the chiral atom's index in each of same, then mirror
	}{
		{ // alanine
			same:   []string{"N[C@@H](C)C(=O)O", "C[C@H](N)C(=O)O", "OC(=O)[C@@H](N)C", "[C@H](N)(C)C(=O)O"},
			mirror: []string{"N[C@H](C)C(=O)O", "[C@@H](N)(C)C(=O)O"},
			centre: []int{1, 1, 3, 0, 1, 0},
		},
		{ // 2-methylaziridine: the centre carries a ring closure
			same:   []string{"C[C@@H]1CN1", "C[C@H]1NC1", "N1C[C@H]1C", "[C@@H]1(C)CN1"},
			mirror: []string{"C[C@H]1CN1", "N1C[C@@H]1C"},
			centre: []int{1, 1, 2, 0, 1, 2},
		},
		{ // no hydrogen
			same:   []string{"C[C@](F)(Cl)Br", "F[C@@](C)(Cl)Br", "Br[C@@](F)(Cl)C"},
			mirror: []string{"C[C@@](F)(Cl)Br"},
			centre: []int{1, 1, 1, 1},
		},
	}
	for _, g := range groups {
		var ref int
		for k, s := range append(slices.Clone(g.same), g.mirror...) {
			m, err := Parse(s)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			h := handedness(t, m, g.centre[k])
			switch {
			case k == 0:
				ref = h
			case k < len(g.same) && h != ref:
				t.Errorf("%s: handedness differs from %s", s, g.same[0])
			case k >= len(g.same) && h == ref:
				t.Errorf("%s: mirror image has the handedness of %s", s, g.same[0])
			}
		}
	}
}

func TestChiralityDroppedWhenMeaningless(t *testing.T) {
	for _, s := range []string{"C[C@H](C)N", "[C@H2](F)Cl", "C=[C@H]C", "O[C@H]1CCCCC1", "C[C@@H](CC)CC"} {
		m, err := Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for i, a := range m.Atoms {
			if a.Chirality != ChiralUnspecified {
				t.Errorf("%s: atom %d keeps tag %d on a centre with two alike substituents or no sp3", s, i, a.Chirality)
			}
		}
	}
}

func TestDoubleBondStereo(t *testing.T) {
	cases := []struct {
		smiles string
		want   BondStereo
	}{
		{"F/C=C/F", StereoE},
		{"F/C=C\\F", StereoZ},
		{"C(\\F)=C/F", StereoE}, // the same molecule as F/C=C/F written from the double bond
		{"C(/F)=C/F", StereoZ},
		{"F\\C=C\\F", StereoE},
		{"F/C(Cl)=C/F", StereoZ},    // Cl outranks F: Cl and the right F are cis
		{"CC/C=C(/C)C", StereoNone}, // two methyls on one end: no stereo
		{"F/C=C/1.F1", StereoE},     // direction written on a ring-closure digit
		{"FC=CF", StereoNone},
		{"C1CC/C=C/CC1", StereoNone}, // double bond in a 7-ring
	}
	for _, c := range cases {
		m, err := Parse(c.smiles)
		if err != nil {
			t.Fatalf("%s: %v", c.smiles, err)
		}
		got := StereoNone
		for _, b := range m.Bonds {
			if b.Type == BondDouble {
				got = b.Stereo
			}
		}
		if got != c.want {
			t.Errorf("%s: stereo %d, want %d", c.smiles, got, c.want)
		}
	}
}

// checkFeatureRows checks what a graph built from the molecule needs: at least one
// atom, bonds between two atoms in range, feature rows of the right size and every
// code inside its column's vocabulary.
func checkFeatureRows(m *Molecule) error {
	n := len(m.Atoms)
	if n == 0 {
		return errors.New("no atoms")
	}
	for b, bd := range m.Bonds {
		if bd.Begin < 0 || bd.Begin >= n || bd.End < 0 || bd.End >= n {
			return fmt.Errorf("bond %d (%d–%d) outside [0, %d)", b, bd.Begin, bd.End, n)
		}
	}
	for _, f := range []struct {
		what string
		rows []int32
		n    int
		dims []int
	}{
		{"atom", m.AtomFeatureRows(), n, AtomFeatureDims()},
		{"bond", m.BondFeatureRows(), len(m.Bonds), BondFeatureDims()},
	} {
		cols := len(f.dims)
		if len(f.rows) != f.n*cols {
			return fmt.Errorf("%s features: %d codes for %d×%d", f.what, len(f.rows), f.n, cols)
		}
		for i, v := range f.rows {
			if c := i % cols; v < 0 || int(v) >= f.dims[c] {
				return fmt.Errorf("%s features: row %d column %d code %d outside [0, %d)", f.what, i/cols, c, v, f.dims[c])
			}
		}
	}
	return nil
}

func TestMoleculeFeatureRows(t *testing.T) {
	for _, c := range smilesCases {
		m, err := Parse(c.smiles)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkFeatureRows(m); err != nil {
			t.Errorf("%s: %v", c.smiles, err)
		}
		atoms, bonds := m.AtomFeatureRows(), m.BondFeatureRows()
		if len(atoms) != AtomFeatureCols*len(m.Atoms) || len(bonds) != BondFeatureCols*len(m.Bonds) {
			t.Errorf("%s: %d atom codes %d bond codes for %d atoms %d bonds", c.smiles, len(atoms), len(bonds), len(m.Atoms), len(m.Bonds))
		}
		for b := range m.Bonds {
			if f := m.BondFeatures(b); !slices.Equal(bonds[b*3:b*3+3], f[:]) {
				t.Errorf("%s: bond %d row %v, BondFeatures %v", c.smiles, b, bonds[b*3:b*3+3], f)
			}
		}
		for i := range m.Atoms {
			row := atoms[i*9 : i*9+9]
			if f := m.AtomFeatures(i); !slices.Equal(row, f[:]) {
				t.Errorf("%s: atom %d row %v, AtomFeatures %v", c.smiles, i, row, f)
			}
			if int(row[0]) != m.Atoms[i].AtomicNum-1 || int(row[4]) != c.h[i] || int(row[2]) != c.totalDeg[i] {
				t.Errorf("%s: atom %d features %v disagree with atomic number %d, H %d, degree %d", c.smiles, i, row, m.Atoms[i].AtomicNum, c.h[i], c.totalDeg[i])
			}
		}
	}
}

func TestParseSMILESErrors(t *testing.T) {
	cases := []struct {
		smiles string
		pos    int
		text   string
		msg    string
	}{
		{"", 0, "", "empty"},
		{"C(C", 1, "(", "never closed"},
		{"CC)C", 2, ")", "without '('"},
		{"C1CC", 1, "1", "ring 1 never closed"},
		{"C%12CC", 1, "%12", "ring 12 never closed"},
		{"C%(123)CC", 1, "%(123)", "ring 123 never closed"},
		{"C%1", 1, "%1", "two digits"},
		{"[Xx]", 0, "[Xx]", "unknown element"},
		{"C[CH4", 1, "[CH4", "unclosed bracket"},
		{"C[C[C]", 1, "[C[C]", "unclosed bracket"},
		{"CQC", 1, "Q", "unknown atom"},
		{"C?C", 1, "?", "unexpected character"},
		{"C==C", 1, "==", "two bond symbols"},
		{"CC=", 2, "=", "at the end"},
		{"(C)", 0, "(", "branch without"},
		{"C()", 1, "()", "empty branch"},
		{"C(=)C", 2, "=", "without a following atom"},
		{"C=(C)", 1, "=", "before a branch"},
		{".C", 0, ".", "without a preceding atom"},
		{"=C", 0, "=", "without a preceding atom"},
		{"1C", 0, "1", "without a preceding atom"},
		{"C=.C", 1, "=.", "before '.'"},
		{"cC", 0, "c", "aromatic atom outside a ring"},
		{"C11", 2, "1", "closes on the atom"},
		{"C12CC12", 6, "2", "duplicates"},
		{"C1C1", 3, "1", "duplicates"},
		{"[C@X]", 0, "[C@X]", "unexpected"},
		{"[C@TH3]", 0, "[C@TH3]", "chirality class"},
		{"[CH3+99]", 0, "[CH3+99]", "out of range"},
		{"[#200]", 0, "[#200]", "atomic number"},
		{"[12345C]", 0, "[12345C]", "isotope"},
		{"[+]", 0, "[+]", "missing element"},
		{"[xe]", 0, "[xe]", "unknown aromatic"},
		{"C[N:]", 1, "[N:]", "atom class"},
	}
	for _, c := range cases {
		_, err := Parse(c.smiles)
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a *Error", c.smiles, err)
			continue
		}
		if se.Pos != c.pos || se.Text != c.text || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%q: got position %d text %q msg %q; want %d %q containing %q", c.smiles, se.Pos, se.Text, se.Msg, c.pos, c.text, c.msg)
		}
		if msg := err.Error(); !strings.Contains(msg, c.smiles) || !strings.Contains(msg, "position") {
			t.Errorf("%q: message %q does not name the SMILES and the position", c.smiles, msg)
		}
	}
	long := strings.Repeat("C", 500) + "Q" + strings.Repeat("C", 500)
	_, err := Parse(long)
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "\"...CCC") || !strings.Contains(err.Error(), "CCCQCCC") || !strings.Contains(err.Error(), "CCC...\"") || !strings.Contains(err.Error(), "500") {
		t.Errorf("long SMILES: message %v, want a short window around position 500", err)
	}
}

func FuzzParseSMILES(f *testing.F) {
	for _, c := range smilesCases {
		f.Add(c.smiles)
	}
	for _, s := range []string{"C(C", "C1CC", "[C@@H](F)(Cl)Br", "F/C=C/1.F1", "C%(123)CC%(123)", "[2H][HH]",
		"c1ccc2c(c1)[nH]c1ccccc12", "C1CC2CC1CC2", "*C(*)=O", "[Na+].[Cl-]", "C$C", "c1:c:c:c:c:c1", "[C@SP1](F)(Cl)(Br)I"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Pos < 0 || se.Pos > len(s) {
				t.Fatalf("%q: bad error %v", s, err)
			}
			return
		}
		if err := checkFeatureRows(m); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		for i, a := range m.Atoms {
			if a.Aromatic && !a.InRing {
				t.Fatalf("%q: aromatic atom %d outside a ring", s, i)
			}
			if a.ImplicitH < 0 || a.Radicals < 0 {
				t.Fatalf("%q: atom %d has %d implicit H, %d radicals", s, i, a.ImplicitH, a.Radicals)
			}
		}
		for b, bd := range m.Bonds {
			if bd.InRing && !(m.Atoms[bd.Begin].InRing && m.Atoms[bd.End].InRing) {
				t.Fatalf("%q: ring bond %d joins an atom outside rings", s, b)
			}
		}
	})
}
