// Package smiles parses SMILES strings into molecules and computes the OGB molecular
// features of their atoms and bonds, without RDKit.
//
// Parse reads a SMILES string (OpenSMILES: the organic subset and bracket atoms,
// branches, ring closures up to %(nnnnn), bond symbols, '.' separated parts,
// tetrahedral and other chirality marks, '/' and '\' double-bond marks) into a
// Molecule: its Atoms, its Bonds in RDKit's order (chain and branch bonds as written,
// then ring-closure bonds by ring number) and the chemistry perceived from them.
// Malformed input gives an *Error naming the position and the offending text.
//
// Molecule.AtomFeatures and Molecule.BondFeatures give the categorical codes of
// ogb.utils.features.atom_to_feature_vector and bond_to_feature_vector, as computed
// from an RDKit molecule made by Chem.MolFromSmiles; AtomFeatureRows and
// BondFeatureRows give them for the whole molecule, and AtomFeatureDims and
// BondFeatureDims the size of each column's vocabulary. Turning a molecule into a graph
// (one node per atom, two directed edges per bond, as OGB's smiles2graph does) is left
// to the caller: package data does it for the LRGB peptide data sets.
//
// The perception follows RDKit's sanitisation steps where they matter for the
// features:
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
package smiles
