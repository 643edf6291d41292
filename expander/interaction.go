package expander

import "fmt"

// EdgeType says which component of the interaction graph an edge comes from.
type EdgeType uint8

const (
	// EdgeLocal is an edge of the input graph (or the added reverse of one).
	EdgeLocal EdgeType = iota
	// EdgeExpander is one direction of an expander edge.
	EdgeExpander
	// EdgeGlobalIn goes from a real node to a virtual node.
	EdgeGlobalIn
	// EdgeGlobalOut goes from a virtual node to a real node.
	EdgeGlobalOut
)

// NumEdgeTypes is the number of EdgeType values, for edge-type embedding tables.
const NumEdgeTypes = 4

// String returns the edge type's name.
func (t EdgeType) String() string {
	switch t {
	case EdgeLocal:
		return "local"
	case EdgeExpander:
		return "expander"
	case EdgeGlobalIn:
		return "global-in"
	case EdgeGlobalOut:
		return "global-out"
	}
	return fmt.Sprintf("EdgeType(%d)", uint8(t))
}

// InputGraph is one input graph: NumNodes nodes and the directed edges Src[i] → Dst[i]
// as stored (an undirected graph stores both directions, as the project's data sets do).
type InputGraph struct {
	// NumNodes is the number of nodes (≥ 1).
	NumNodes int
	// Src and Dst are the directed edges Src[i] → Dst[i], nodes in [0, NumNodes).
	Src, Dst []int32
	// Seed identifies the graph for its expander, e.g. its index in the data set: the
	// expander is drawn with seed DeriveSeed(InteractionOptions.Seed, Seed), so a graph
	// gets the same expander whichever batch it is in and wherever it sits there.
	Seed uint64
}

// InteractionOptions selects the components of the interaction graph H.
type InteractionOptions struct {
	// Local adds the input graph's edges as stored. With SymmetrizeLocal it also adds,
	// for every stored edge u → v such that no edge v → u is stored, the edge v → u
	// (one per such stored edge, duplicates included; self loops are their own reverse).
	// The added reverse carries the LocalEdge index of the edge it reverses.
	Local, SymmetrizeLocal bool
	// Expander adds both directions of every edge of a random expander of degree
	// ExpanderDegree drawn per graph with ExpanderAlgo and the options below, which
	// mean what the fields of Options of the same names mean.
	Expander              bool
	ExpanderDegree        int
	ExpanderAlgo          Algorithm
	Tol                   float64
	MaxAttempts           int
	Certify               bool
	DedupParallel         bool
	AllowCompleteFallback bool
	// Global adds VirtualNodes (≥ 1) virtual nodes per graph, each joined both ways to
	// every real node of its graph.
	Global       bool
	VirtualNodes int
	// Seed is the run's seed; graph g's expander uses DeriveSeed(Seed, graphs[g].Seed).
	Seed uint64
}

// DefaultInteractionOptions returns all three components: local edges as stored, a
// certified degree-4 standard expander (Tol = DefaultTol, MaxAttempts =
// DefaultMaxAttempts, complete graph for graphs with n ≤ 5) and one virtual node.
func DefaultInteractionOptions() InteractionOptions {
	return InteractionOptions{
		Local:    true,
		Expander: true, ExpanderDegree: 4, ExpanderAlgo: Standard,
		Tol: DefaultTol, MaxAttempts: DefaultMaxAttempts, Certify: true, AllowCompleteFallback: true,
		Global: true, VirtualNodes: 1,
	}
}

func (o *InteractionOptions) validate() error {
	if o.VirtualNodes < 0 || o.VirtualNodes > MaxVirtualNodes {
		return fmt.Errorf("expander: VirtualNodes=%d outside [0, %d]", o.VirtualNodes, MaxVirtualNodes)
	}
	if o.Global && o.VirtualNodes < 1 {
		return fmt.Errorf("expander: Global needs VirtualNodes ≥ 1, got %d", o.VirtualNodes)
	}
	if o.Expander {
		if err := validateDegree(o.ExpanderDegree, o.ExpanderAlgo, o.Tol, o.MaxAttempts); err != nil {
			return fmt.Errorf("expander: interaction options: %w", err)
		}
	}
	if !o.Local && !o.Expander && !o.Global {
		return fmt.Errorf("expander: no component enabled (Local, Expander and Global are all off)")
	}
	return nil
}

// Interaction is the interaction graph H of one graph or of a batch (the disjoint union
// of its graphs' interaction graphs).
//
// Nodes: the real nodes of all graphs first, graph after graph (graph g's are
// NodeOffset[g]..NodeOffset[g+1]−1, in its own order), then the virtual nodes, graph
// after graph (graph g's t-th is NumReal + g·VirtualPerGraph + t). For a single graph
// of n nodes the virtual nodes are n..n+k−1.
//
// Edges: the parallel slices Src, Dst, Type, Virtual and LocalEdge, sorted by
// destination, so they are both the COO view and, with Offsets, the CSR view grouped by
// destination (the softmax groups of attention): the edges into node v are
// Offsets[v]..Offsets[v+1]−1. Within one destination, edges keep the construction
// order: local edges in input order, added reverses, expander edges, global edges.
type Interaction struct {
	// NumNodes counts all nodes, NumReal the real ones.
	NumNodes, NumReal int
	// NumGraphs is the number of graphs; VirtualPerGraph the virtual nodes of each.
	NumGraphs, VirtualPerGraph int
	// NodeOffset (NumGraphs+1 entries) bounds each graph's real nodes.
	NodeOffset []int32
	// EdgeOffset (NumGraphs+1 entries) bounds each graph's input edges in the
	// concatenation of all graphs' input edges (and edge features).
	EdgeOffset []int32
	// GraphOf gives the graph of every node, virtual ones included.
	GraphOf []int32
	// Src and Dst are the edge endpoints.
	Src, Dst []int32
	// Type holds an EdgeType per edge.
	Type []uint8
	// Virtual is the virtual node's index t within its graph for global edges, −1
	// otherwise.
	Virtual []int16
	// LocalEdge is, for local edges, the index of the input edge it came from in the
	// concatenation of all graphs' input edges (EdgeOffset[g] + index in graph g), so
	// edge features can be gathered; −1 otherwise.
	LocalEdge []int32
	// Offsets (NumNodes+1 entries) bounds the edges into each node.
	Offsets []int64
	// Certificates holds graph g's expander certificate, when the expander is on.
	Certificates []Certificate
}

// NumEdges returns the number of directed interaction edges.
func (h *Interaction) NumEdges() int { return len(h.Src) }

// VirtualNode returns the id of graph g's t-th virtual node.
func (h *Interaction) VirtualNode(g, t int) int32 {
	return int32(h.NumReal + g*h.VirtualPerGraph + t)
}

// CountByType returns the number of edges of each EdgeType (values out of range are
// not counted).
func (h *Interaction) CountByType() [NumEdgeTypes]int {
	var c [NumEdgeTypes]int
	for _, t := range h.Type {
		if t < NumEdgeTypes {
			c[t]++
		}
	}
	return c
}

// BuildInteraction builds the interaction graph of one graph; it equals BuildBatch of
// the one-graph batch.
func BuildInteraction(g InputGraph, opts InteractionOptions) (*Interaction, error) {
	return BuildBatch([]InputGraph{g}, opts)
}

// Learned edge types. Interaction edges other than local ones carry no input
// features; attention gives them learned embeddings, one per type, numbered for an
// embedding table of NumLearnedEdgeTypes(k) rows with k virtual nodes per graph:
//
//	0        expander edges
//	1 + 2t   real node → virtual node t
//	2 + 2t   virtual node t → real node
//
// LearnedEdgeType returns the number of type t (an edge of virtual node virtual for
// the global types; virtual is ignored otherwise), or −1 for EdgeLocal.
func LearnedEdgeType(t EdgeType, virtual int) int32 {
	switch t {
	case EdgeExpander:
		return 0
	case EdgeGlobalIn:
		return int32(1 + 2*virtual)
	case EdgeGlobalOut:
		return int32(2 + 2*virtual)
	}
	return -1
}

// NumLearnedEdgeTypes is the number of learned edge types with virtualPerGraph virtual
// nodes per graph: one for expander edges and two per virtual node.
func NumLearnedEdgeTypes(virtualPerGraph int) int { return 1 + 2*virtualPerGraph }

// LearnedSource is the source code (EdgeSources) of an edge of learned type t (of
// virtual node virtual for the global types): −1 − LearnedEdgeType(t, virtual). Negative
// codes are learned types, non-negative ones local edges; layers.LearnedTypeIndex
// decodes them in a model graph. This pair is the one place the code is written.
func LearnedSource(t EdgeType, virtual int) int32 { return -1 - LearnedEdgeType(t, virtual) }

// EdgeSources returns, for every edge, where its attention embedding comes from: the
// input edge it came from (LocalEdge, ≥ 0) for a local edge, or LearnedSource for the
// others. These are the source codes of layers.MixedEdgeTable.
func (h *Interaction) EdgeSources() ([]int32, error) {
	out := make([]int32, len(h.Src))
	for e, t := range h.Type {
		switch EdgeType(t) {
		case EdgeLocal:
			out[e] = h.LocalEdge[e]
		case EdgeExpander, EdgeGlobalIn, EdgeGlobalOut:
			out[e] = LearnedSource(EdgeType(t), int(h.Virtual[e]))
		default:
			return nil, fmt.Errorf("expander: interaction edge %d has unknown type %d", e, t)
		}
	}
	return out, nil
}

// PaddingEdge is the edge that pads an interaction graph's edge lists: it joins the
// first padding row (row NumReal, the first past the real nodes, in a layout of
// PaddedEndpoints with realSlots > NumReal) to itself, with the expander edges' source
// code (LearnedSource).
func (h *Interaction) PaddingEdge() (src, dst, source int32) {
	pad := int32(h.NumReal)
	return pad, pad, LearnedSource(EdgeExpander, 0)
}

// PaddedEdges returns the edges' endpoints in the layout of PaddedEndpoints(realSlots)
// and their source codes (EdgeSources), followed by padding edges (PaddingEdge) up to
// numEdges edges.
func (h *Interaction) PaddedEdges(realSlots, numEdges int) (src, dst, source []int32, err error) {
	if numEdges < len(h.Src) {
		return nil, nil, nil, fmt.Errorf("expander: %d edge slots for %d edges", numEdges, len(h.Src))
	}
	if src, dst, err = h.PaddedEndpoints(realSlots); err != nil {
		return nil, nil, nil, err
	}
	if source, err = h.EdgeSources(); err != nil {
		return nil, nil, nil, err
	}
	ps, pd, pc := h.PaddingEdge()
	for len(src) < numEdges {
		src, dst, source = append(src, ps), append(dst, pd), append(source, pc)
	}
	return src, dst, source, nil
}

// PaddedEndpoints returns the edges' endpoints for a node layout in which the real
// nodes take the first realSlots rows (realSlots ≥ NumReal: rows past NumReal are
// padding) and the virtual nodes follow: graph g's t-th virtual node at row
// realSlots + g·VirtualPerGraph + t. With realSlots = NumReal it is Src and Dst.
func (h *Interaction) PaddedEndpoints(realSlots int) (src, dst []int32, err error) {
	if realSlots < h.NumReal {
		return nil, nil, fmt.Errorf("expander: %d real node slots for %d real nodes", realSlots, h.NumReal)
	}
	shift := int32(realSlots - h.NumReal)
	nReal := int32(h.NumReal)
	src, dst = make([]int32, len(h.Src)), make([]int32, len(h.Dst))
	for e := range h.Src {
		s, d := h.Src[e], h.Dst[e]
		if s >= nReal {
			s += shift
		}
		if d >= nReal {
			d += shift
		}
		src[e], dst[e] = s, d
	}
	return src, dst, nil
}

// EdgeBound returns an upper bound of the number of edges of BuildInteraction(g, opts),
// without drawing the expander: exact but for the expander's self loops and, with
// DedupParallel, its surplus parallel edges, which a draw removes (the bound counts
// both directions of all n·d/2 edges of the raw process, or of K_n with the
// complete-graph fallback). A batch's interaction graph has the sum of its graphs'
// edges, so the sum of their bounds bounds it. Invalid options or graphs give a bound
// all the same; BuildBatch reports them.
func EdgeBound(g InputGraph, opts InteractionOptions) int {
	n, edges := g.NumNodes, 0
	if opts.Local {
		edges += len(g.Src)
		if opts.SymmetrizeLocal {
			var s symScratch
			edges += len(s.appendMissingReverses(nil, &g))
		}
	}
	if opts.Expander {
		if useComplete(n, opts.ExpanderDegree, opts.AllowCompleteFallback) {
			edges += n * (n - 1)
		} else {
			edges += n * (opts.ExpanderDegree / 2) * 2
		}
	}
	if opts.Global {
		edges += 2 * n * opts.VirtualNodes
	}
	return edges
}
