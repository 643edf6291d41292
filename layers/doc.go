// Package layers provides GoMLX layers for Exphormer and GraphGPS graph transformers —
// graph-building code only:
//
//   - attention: Exphormer sparse attention over an interaction graph
//     (NewExphormerAttention) and the baselines it is compared with: full attention
//     (NewDenseAttention) and Performer (NewPerformerAttention) per graph, BigBird
//     (NewBigBirdAttention);
//   - message passing: GatedGCN (NewGatedGCN), GINE (NewGINE), GCN (GCNConv),
//     GraphSAGE (SAGEConv), GAT (NewGAT), and the feed-forward block (FeedForward);
//   - the GPS layer that combines them (NewGPSLayer, GPSConfig; LocalModel, GlobalModel
//     and Norm name the choices);
//   - embeddings: edge types (EdgeTypeEmbedding, MixedEdgeEmbedding, MixedEdgeTable),
//     virtual nodes (VirtualNodeEmbedding, AppendVirtualNodes), positional-encoding
//     encoders (NewLapPEEncoder, ESLapPEEncoder, RWSEEncoder);
//   - readout and training: GraphPool, NewPreMP (GraphGym's pre-message-passing
//     layers), NewMLPHead, NewBatchNorm, the losses
//     (CrossEntropy, WeightedCrossEntropy, BCEWithLogits, MAE, MSE), and FanInUniform,
//     PyTorch's initialisation of linear maps.
//
// The host-side computations these layers consume live elsewhere: interaction graphs,
// edge-source codes, block layouts and BigBird patterns in package expander, Laplacian
// and random-walk encodings in package spectral.
//
// # Conventions
//
// All layers work on plain graph tensors of a batch of graphs flattened into one:
//
//   - node states x [N, D] (N counts the virtual nodes, which come after the real ones,
//     virtual node t of graph g at row N_real + g·k + t; see AppendVirtualNodes);
//   - interaction edges src → dst, [E] int32, with edge embeddings [E, D] (see
//     EdgeTypeEmbedding and MixedEdgeEmbedding); node i attends to the sources of the
//     edges into i. Sorting the edges by dst is the project's convention;
//   - local (input-graph) edges src, dst [E_l] with edge states [E_l, D] for the
//     message-passing models;
//   - graphID [N] int32 in [0, numGraphs) where a layer works per graph.
//
// Layers are built with GoMLX's builder style, New…(scope, inputs…).Option(…).Done(),
// create their variables in the given model.Scope, and follow the scope's training flag
// (dropout, batch statistics, sign flips). Like GoMLX's own layers, they report invalid
// shapes or options by panicking with an error while the graph is built, which
// model.Exec.Call returns as its error.
//
// # Example
//
// A model with one GPS layer (GatedGCN and Exphormer attention) on a batch with one
// virtual node per graph (the package's Example runs it):
//
//	func gpsModel(scope *model.Scope, x, e, src, dst, hSrc, hDst, hSource, nodeMask *Node, numGraphs int) *Node {
//		// Interaction-edge embeddings: local edges reuse their states, the others
//		// (expander and virtual-node edges, hSource < 0: expander.Interaction.EdgeSources)
//		// get learned type embeddings.
//		emb := layers.MixedEdgeEmbedding(scope.In("edges"), e, hSource, expander.NumLearnedEdgeTypes(1))
//		h := layers.AppendVirtualNodes(scope.In("virtual"), x, 1, numGraphs)
//		cfg := layers.GPSConfig{Local: layers.LocalGatedGCN, Global: layers.GlobalExphormer,
//			Norm: layers.NormBatch, Heads: 4, Dropout: 0.1}
//		h, e = layers.NewGPSLayer(scope.In("gps"), h, cfg).
//			LocalEdges(src, dst, e).AttentionEdges(hSrc, hDst, emb).NormMask(nodeMask).Done()
//		return h
//	}
//
// # Performance
//
// On the pure-Go backend the per-edge tensors dominate the cost of Exphormer attention.
// Its gradient is written by hand (no [E, H, d_h] broadcast adjoints; optionally, with
// RecomputeGathers, fewer per-edge tensors kept for the backward pass), and the dense
// projections use matrix products with a custom weight gradient that avoids the backend's
// slow transposes of tall matrices (docs/PERFORMANCE.md has the measurements).
package layers
