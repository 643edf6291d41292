// Package spectral measures the expansion properties that Exphormer relies on (§4 and
// Appendices C and E of the paper) on undirected graphs stored in compressed sparse row
// form (Graph).
//
// Eigenvalues. Three symmetric matrices of a graph are available (MatrixKind): the
// adjacency A, the Laplacian D − A and the normalized Laplacian I − D^-1/2 A D^-1/2. A
// self loop adds 2 to A[u][u], so rows of A sum to the degree. DenseEigenvalues and
// DenseEigen solve small graphs exactly (up to MaxDenseNodes; eigenvectors for
// Laplacian positional encodings). Lanczos finds the extreme eigenvalues of graphs with
// millions of nodes from matrix-free, parallel products, reorthogonalising fully while
// the basis fits a memory budget, and can deflate given vectors and return Ritz vectors.
// A single Krylov space finds each distinct eigenvalue once, so AdjacencyEigenvalues
// (and ExpanderEigenvalues, which the expander certificates use) counts multiplicities
// by deflation: it finds the top eigenpair (exact for a regular graph, the Ritz pair of
// a run from the all-ones vector otherwise), then λ₂ and λₙ on the complement of that
// eigenvector. λ₂ is thus counted with multiplicity (λ₂ = λ₁ for two identical
// components or a disconnected regular graph), and the number of connected components
// is reported with it.
//
// Expansion checks. RamanujanBound, IsNearRamanujan, Epsilon (max(|λ₂|, |λₙ|)/d) and
// SpectralGap test a d-regular graph against the Alon–Boppana limit 2√(d−1).
// ApproximateCompleteEigen and ApproximateCompleteSampled check the spectral
// approximation (1−ε)L_K/n ⪯ L_G/d ⪯ (1+ε)L_K/n of the complete graph (Theorem 4.1),
// through eigenvalues and through quadratic forms on test vectors.
//
// Mixing and distances. MixingBound is Lemma 4.2's log(n/δ²)/(2(1−ε)); MixingTime
// measures the random walk's L1 distance to stationarity step by step. Diameter is exact
// by all-pairs BFS on small graphs and bounded by sampling on large ones; BallGrowth
// records |B(v, k)| (Theorem 4.3).
//
// Universality. Theorem E.3 asks for a Hamiltonian path in the expander graph:
// VerifyHamiltonianCycle and VerifyHamiltonianPath check a certificate (such as the
// cycles of the Hamiltonian-cycle construction), and HasHamiltonianPath decides the
// question exactly on graphs of at most MaxHamiltonNodes nodes.
//
// Input, output and summary. ReadEdgeList and WriteEdgeList handle the plain-text edge
// list format ("u v" per line, '#' comments, a header line declaring the node and edge
// counts, which ReadEdgeList honours); Analyze produces the Summary behind the
// command line's report, picking dense or Lanczos eigenvalues (AutoDenseNodes) and exact
// or estimated diameters (DefaultExactDiameterNodes) by size.
//
// Every random choice takes an explicit seed, and equal inputs give equal results.
package spectral
