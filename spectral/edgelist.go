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

	"github.com/gexph/gexph/internal/atomicfile"
)

// MaxNodeIndex is the largest node index an edge list may use (node counts fit in int32).
const MaxNodeIndex = math.MaxInt32 - 1

// maxLineBytes bounds the length of one edge-list line.
const maxLineBytes = 1 << 16

// ReadEdgeList parses a plain-text edge list: one undirected edge per line as two
// non-negative integer node indices separated by spaces or tabs; '#' starts a comment
// that runs to the end of the line; blank lines are skipped. The node count is the
// largest index plus one. Each line is one edge, so repeated lines are parallel edges
// and "u u" is a self loop. Errors name the input (name), the line and the bad value:
// a wrong number of columns, a non-integer, a negative index, an index above
// MaxNodeIndex, or no edges at all. So that a corrupt file cannot demand unbounded
// memory, the node count may exceed the number of edges by at most 16× plus 1024.
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
	maxIdx := int64(-1)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
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
	if len(src) == 0 {
		return nil, fmt.Errorf("%s: no edges in %d lines", name, line)
	}
	n := maxIdx + 1
	if limit := 16*int64(len(src)) + 1024; n > limit {
		return nil, fmt.Errorf("%s: node index %d implies %d nodes for only %d edges (at most %d allowed)",
			name, maxIdx, n, len(src), limit)
	}
	g, err := FromEdges(int(n), src, dst)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, nil
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
// graph, except that isolated nodes above the largest endpoint are not representable.
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
