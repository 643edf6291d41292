package spectral

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"
)

// MaxNodeIndex is the largest node index an edge list may use (node counts fit in int32).
const MaxNodeIndex = math.MaxInt32 - 1

// maxLineBytes bounds the length of one edge-list line.
const maxLineBytes = 1 << 16

// headerPrefix starts the comment line with which WriteEdgeList declares the counts.
const headerPrefix = "# gexph edge list:"

// ReadEdgeList parses a plain-text edge list: one undirected edge per line as two
// non-negative integer node indices separated by spaces or tabs; '#' starts a comment
// that runs to the end of the line; blank lines are skipped. Each line is one edge, so
// repeated lines are parallel edges and "u u" is a self loop.
//
// The node count is the one declared by a header line "# gexph edge list: N nodes, M
// edges" (as WriteEdgeList writes it) before the first edge, so isolated nodes at the
// end survive a round trip; the file must then hold exactly M edges, all with indices
// below N, and may hold no edges at all when N ≥ 1. Without a header the node count is
// the largest index plus one and at least one edge is required.
//
// Errors name the input (name), the line and the bad value: a wrong number of columns,
// a non-integer, a negative index, an index above MaxNodeIndex or outside the header's
// node count, a malformed, repeated or late header, an edge count that differs from the
// header's. So that a corrupt file cannot demand unbounded memory, the node count may
// exceed the number of edges by at most 16× plus 1024.
func ReadEdgeList(r io.Reader, name string) (*Graph, error) {
	return ReadEdgeListLimit(r, name, MaxEdges)
}

// MaxEdges is the most edges ReadEdgeList reads: the graph stores each edge in both
// directions, in a slice of int32 node indices.
const MaxEdges = math.MaxInt32 / 2

// ReadEdgeListLimit is ReadEdgeList reading at most maxEdges edges (≤ 0 or above
// MaxEdges: MaxEdges): an edge more, as from an endless stream, is an error naming the
// input, the line and the bound, raised before memory runs out. Callers pass what fits
// in the memory they may use (about 40 bytes an edge: its ends, growth, the graph).
func ReadEdgeListLimit(r io.Reader, name string, maxEdges int) (*Graph, error) {
	if maxEdges <= 0 || maxEdges > MaxEdges {
		maxEdges = MaxEdges
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	var src, dst []int32
	var hdr edgeListHeader
	maxIdx := int64(-1)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if bytes.HasPrefix(text, []byte(headerPrefix)) {
			if err := hdr.parse(text, line, len(src)); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
			continue
		}
		if i := bytes.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields := bytes.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: %d columns %q, want 2 node indices", name, line, len(fields), bytes.TrimSpace(text))
		}
		var ends [2]int32
		for i, f := range fields {
			v, err := parseNodeIndex(f)
			if err == nil {
				err = hdr.check(v)
			}
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %d: %w", name, line, i+1, err)
			}
			ends[i] = int32(v)
			maxIdx = max(maxIdx, v)
		}
		if len(src) == maxEdges {
			return nil, fmt.Errorf("%s:%d: more than %d edges, the most this reader may take", name, line, maxEdges)
		}
		src, dst = append(src, ends[0]), append(dst, ends[1])
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxLineBytes)
		}
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	n, err := hdr.nodeCount(maxIdx, len(src), line)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g, err := FromEdges(int(n), src, dst)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, nil
}

// edgeListHeader is the node and edge count an edge list declares, if it does.
type edgeListHeader struct {
	line     int // line of the header; 0 when there is none
	nodes    int64
	edges    int64
	declared bool
}

// parse reads the header line text (which starts with headerPrefix) found at line
// after edgesSoFar edges.
func (h *edgeListHeader) parse(text []byte, line, edgesSoFar int) error {
	switch {
	case h.declared:
		return fmt.Errorf("second edge-list header (the first is line %d)", h.line)
	case edgesSoFar > 0:
		return fmt.Errorf("edge-list header after %d edges; it must come before the first edge", edgesSoFar)
	}
	f := strings.Fields(string(text[len(headerPrefix):]))
	if len(f) != 4 || f[1] != "nodes," || f[3] != "edges" {
		return fmt.Errorf("malformed edge-list header %q, want %q", text, headerPrefix+" N nodes, M edges")
	}
	nodes, errN := strconv.ParseInt(f[0], 10, 64)
	edges, errM := strconv.ParseInt(f[2], 10, 64)
	if errN != nil || errM != nil {
		return fmt.Errorf("malformed edge-list header %q: counts %q and %q are not integers", text, f[0], f[2])
	}
	if nodes < 1 || nodes > MaxNodeIndex+1 || edges < 0 {
		return fmt.Errorf("edge-list header declares %d nodes and %d edges (want 1..%d nodes, edges ≥ 0)",
			nodes, edges, int64(MaxNodeIndex)+1)
	}
	*h = edgeListHeader{line: line, nodes: nodes, edges: edges, declared: true}
	return nil
}

// check rejects a node index outside the declared node count.
func (h *edgeListHeader) check(v int64) error {
	if h.declared && v >= h.nodes {
		return fmt.Errorf("node %d is outside the %d nodes that the header (line %d) declares", v, h.nodes, h.line)
	}
	return nil
}

// nodeCount returns the graph's node count: the declared one, or the largest index
// plus one; it checks the edge count against the header and the node count against the
// memory guard.
func (h *edgeListHeader) nodeCount(maxIdx int64, edges, lines int) (int64, error) {
	n := maxIdx + 1
	switch {
	case h.declared && int64(edges) != h.edges:
		return 0, fmt.Errorf("%d edges, but the header (line %d) declares %d: the file is truncated or was edited",
			edges, h.line, h.edges)
	case h.declared:
		n = h.nodes
	case edges == 0:
		return 0, fmt.Errorf("no edges in %d lines", lines)
	}
	if limit := 16*int64(edges) + 1024; n > limit {
		if h.declared {
			return 0, fmt.Errorf("header (line %d) declares %d nodes for only %d edges (at most %d allowed)",
				h.line, n, edges, limit)
		}
		return 0, fmt.Errorf("node index %d implies %d nodes for only %d edges (at most %d allowed)",
			maxIdx, n, edges, limit)
	}
	return n, nil
}

// parseNodeIndex parses a decimal node index in [0, MaxNodeIndex].
func parseNodeIndex(f []byte) (int64, error) {
	digits := f
	if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, fmt.Errorf("node %q is not an integer", f)
	}
	var v int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("node %q is not an integer", f)
		}
		if v <= MaxNodeIndex {
			v = 10*v + int64(c-'0')
		}
	}
	switch {
	case f[0] == '-' && v != 0:
		return 0, fmt.Errorf("node %q is negative", f)
	case v > MaxNodeIndex:
		return 0, fmt.Errorf("node %q exceeds the largest index %d", f, MaxNodeIndex)
	}
	return v, nil
}

// WriteEdgeList writes g in the format ReadEdgeList reads: a comment line with the node
// and edge counts, then every undirected edge once as "u v" with u ≤ v, in order of u,
// parallel edges repeated and each self loop once. Reading the output back gives the same
// graph, isolated nodes included (ReadEdgeList honours the header's node count).
func WriteEdgeList(w io.Writer, g *Graph) error {
	if g == nil {
		return fmt.Errorf("spectral: write edge list: nil graph")
	}
	if err := g.Validate(); err != nil {
		return fmt.Errorf("spectral: write edge list: %w", err)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# gexph edge list: %d nodes, %d edges\n", g.N, g.NumEdges())
	var buf []byte
	for u := range g.N {
		loops := 0
		for _, v := range g.Neighbors(u) {
			switch {
			case int(v) == u:
				loops++
				if loops%2 == 0 {
					buf = appendEdge(buf[:0], u, v)
					bw.Write(buf)
				}
			case int(v) > u:
				buf = appendEdge(buf[:0], u, v)
				bw.Write(buf)
			}
		}
		if loops%2 != 0 {
			return fmt.Errorf("spectral: write edge list: node %d has an odd number (%d) of self-loop entries", u, loops)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("spectral: write edge list: %w", err)
	}
	return nil
}

func appendEdge(buf []byte, u int, v int32) []byte {
	buf = strconv.AppendInt(buf, int64(u), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(v), 10)
	return append(buf, '\n')
}

// LoadEdgeList reads the edge-list file at path (see ReadEdgeList).
func LoadEdgeList(path string) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("spectral: %w", err)
	}
	defer f.Close()
	return ReadEdgeList(f, path)
}

// SaveEdgeList writes g to path atomically: into a temporary file in the same directory
// that is synced and then renamed over path.
func SaveEdgeList(path string, g *Graph) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return WriteEdgeList(w, g) }); err != nil {
		return fmt.Errorf("spectral: save edge list: %w", err)
	}
	return nil
}
