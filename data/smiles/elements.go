package smiles

import (
	"strings"
)

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
