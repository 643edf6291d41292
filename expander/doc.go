// Package expander builds the sparse attention pattern of Exphormer: random regular
// expander graphs, global connectors (virtual nodes), and the interaction graph H that
// joins them with the input graph's own edges, for one graph or a batch of many.
//
// # Expanders
//
// Generate draws a random d-regular multigraph on n nodes (d even) with one of the
// paper's three processes (Appendix D): Standard (d/2 uniform permutations, Friedman's
// model), Simple (one permutation of nd/2 slots) or Hamiltonian (d/2 uniform Hamiltonian
// cycles). Before clean-up every node has degree exactly d, a self loop counting twice.
//
//   - Self loops are removed, as in the paper, and counted in
//     Certificate.SelfLoopsRemoved; a node that lost s loops has degree d − 2s.
//     (Hamiltonian cycles on n ≥ 3 nodes have none.)
//   - Parallel edges are kept by default: the processes yield multigraphs and keeping
//     every copy keeps the graph d-regular. Their surplus is counted in
//     Certificate.ParallelEdges; Options.DedupParallel keeps one copy of each.
//   - Small graphs: with Options.AllowCompleteFallback, n ≤ d+1 gives the complete graph
//     K_n (Certificate.Fallback), which is the best expander on n nodes. Without it,
//     d ≥ n is an error. Generate's defaults (DefaultOptions) leave the fallback off, so
//     asking directly for an impossible expander fails; the interaction builder's
//     defaults (DefaultInteractionOptions) turn it on, since batches hold tiny graphs.
//   - Certification (Options.Certify, on by default) computes, on exactly the graph
//     that is returned (after self-loop removal and the parallel-edge policy), λ₁, λ₂
//     (counted with multiplicity) and λₙ of the adjacency matrix, its connected
//     components and its degree range (see Certificate), and accepts the graph when it
//     is connected and max(|λ₂|, |λₙ|) ≤ 2√(d−1) + Tol. A draw that self-loop removal
//     disconnected (a node whose stubs all became self loops is isolated) is never
//     accepted, however small its λ₂. A rejected graph is redrawn with a derived seed up
//     to MaxAttempts times and the best draw is kept: a connected one if any, then the
//     smallest max(|λ₂|, |λₙ|). Every expander carries a Certificate (JSON-ready).
//   - Randomness: one explicit Seed; sub-streams come from DeriveSeed (splitmix64
//     mixing) and drive PCG generators. The same options give the same graph on every
//     run, whatever GOMAXPROCS is; large Standard and Hamiltonian draws build their
//     permutations concurrently, each from its own derived seed.
//
// Edges of a generated expander are stored once each (Expander.Src, Expander.Dst);
// Expander.Graph gives the CSR form with both directions.
//
// # Interaction graph
//
// BuildInteraction and BuildBatch assemble H: local edges (the input edges as stored,
// optionally with missing reverses added), both directions of every expander edge, and
// both directions between each virtual node and every real node of its graph. Every
// directed edge is tagged with its EdgeType, its virtual node and the input edge it came
// from; the edges are sorted by destination so that one set of slices serves as both the
// COO and the destination-grouped CSR view. A batch is the disjoint union of its graphs'
// interaction graphs; each graph's expander depends only on the run seed and the graph's
// own InputGraph.Seed, not on the batch it is in.
//
// # Sampling
//
// Interaction.SampleNeighbours samples a subgraph of H around seed nodes for mini-batch
// training on graphs too large for one step: per hop, each frontier node keeps up to a
// Fanout of its incoming edges of each EdgeType (e.g. all local edges, 3 expander edges,
// one virtual-node edge), drawn without replacement from an explicit seed. Every sampled
// edge is an edge of H, so the expander is the one drawn once on the whole graph.
package expander
