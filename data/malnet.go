package data

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// MalNet-Tiny as the MalNet authors distribute it and as GraphGPS's MalNetTiny loader
// (which Exphormer uses) reads it: 5,000 Android function call graphs of 5 types, each
// a directed edge list, split 3,500 / 500 / 1,000 by the official split files; classes
// in alphabetical type order; nodes that touch no edge between two distinct nodes
// dropped (PyG's remove_isolated_nodes; the paper's 1,410.3 nodes per graph count the
// nodes left); node features PyG's LocalDegreeProfile, as in GraphGPS's MalNet-Tiny
// configurations.

// MalNet-Tiny layout inside the data set directory.
const (
	// MalNetTinyGraphs is the directory of graph files TYPE/FAMILY/SHA256.edgelist
	// (malnet-graphs-tiny.tar.gz unpacks to it).
	MalNetTinyGraphs = "malnet-graphs-tiny"
	// MalNetTinySplits is the directory of the split files train.txt, val.txt and
	// test.txt (from split_info_tiny.zip).
	MalNetTinySplits = "split_info_tiny/type"
)

// MalNetTinyTypes returns MalNet-Tiny's graph types; type i is class i.
func MalNetTinyTypes() []string {
	return []string{"addisplay", "adware", "benign", "downloader", "trojan"}
}

// malnetFeatures is the number of LocalDegreeProfile columns.
const malnetFeatures = 5

// LoadMalNetTiny loads MalNet-Tiny from dir, which holds malnet-graphs-tiny/ and
// split_info_tiny/type/. Each split file lists one graph per line as
// TYPE/FAMILY/SHA256 (relative to malnet-graphs-tiny, ".edgelist" implied); graphs
// are ordered train, val, test as listed, and a graph's class is the index of its
// TYPE in MalNetTinyTypes. A graph file holds one directed edge per line, "SRC DST"
// (non-negative integer node ids separated by white space); blank lines and lines
// starting with '#' (the header) are skipped. The graph keeps the nodes that touch
// an edge between two distinct nodes, renumbered in id order; its edges are those
// edges in file order, then one self loop for each kept node that has any, in node
// order. Node features (Dense, 5 columns) are PyG's LocalDegreeProfile over
// out-edges (self loops and repeated edges count): the out-degree d(v), then the
// minimum, maximum, mean and standard deviation of d(u) over v's out-edges v → u
// (all 0 for a node without out-edges; the deviation as torch_scatter computes it,
// √(Σ(d(u) − mean)² / (max(k−1, 1) + 10⁻⁶)) for k out-edges). Graphs are read on
// opts.Workers goroutines (0: GOMAXPROCS; the result does not depend on it); a file of
// more than opts.MaxBytes (0: DefaultMaxBytes) is refused; no other field of opts is
// read. Errors name the file and line at fault.
func LoadMalNetTiny(dir string, opts LoadOptions) (*Dataset, error) {
	if err := checkWorkers("malnet-tiny", opts.Workers); err != nil {
		return nil, err
	}
	types := MalNetTinyTypes()
	var files []string
	var labels []int32
	var parts [3][]int
	seen := map[string]string{}
	for s, part := range SplitNames() {
		p := filepath.Join(dir, filepath.FromSlash(MalNetTinySplits), string(part)+".txt")
		raw, err := readWhole(p, opts.MaxBytes)
		if err != nil {
			return nil, fmt.Errorf("malnet-tiny: %w", err)
		}
		for i, line := range strings.Split(string(raw), "\n") {
			entry := strings.TrimSpace(line)
			if entry == "" {
				continue
			}
			entry = strings.TrimSuffix(filepath.ToSlash(entry), ".edgelist")
			comps := strings.Split(entry, "/")
			class := slices.Index(types, comps[0])
			if class < 0 || len(comps) != 3 || slices.ContainsFunc(comps, func(c string) bool { return c == "" || c == "." || c == ".." }) {
				return nil, fmt.Errorf("malnet-tiny: %s: line %d: %q is not TYPE/FAMILY/SHA256 with TYPE one of %s",
					p, i+1, line, strings.Join(types, ", "))
			}
			if prev, dup := seen[entry]; dup {
				return nil, fmt.Errorf("malnet-tiny: %s: line %d: %s is already listed in %s", p, i+1, entry, prev)
			}
			seen[entry] = p
			parts[s] = append(parts[s], len(files))
			files = append(files, filepath.Join(dir, MalNetTinyGraphs, filepath.FromSlash(entry)+".edgelist"))
			labels = append(labels, int32(class))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("malnet-tiny: %s: the split files list no graphs", filepath.Join(dir, filepath.FromSlash(MalNetTinySplits)))
	}
	graphs := make([]Graph, len(files))
	errs := make([]error, len(files))
	parallelEach(len(files), opts.Workers, func(_, i int) {
		raw, err := readWhole(files[i], opts.MaxBytes)
		if err == nil {
			graphs[i], err = malnetGraph(raw)
			if err != nil {
				err = fmt.Errorf("%s: %w", files[i], err)
			}
		}
		if err != nil {
			errs[i] = fmt.Errorf("malnet-tiny: %w", err)
			return
		}
		graphs[i].Label = labels[i]
	})
	for _, err := range errs {
		if err != nil {
			return nil, err // the first in split order
		}
	}
	return &Dataset{Name: "malnet-tiny", Task: GraphClassification, NumClasses: len(types), Graphs: graphs,
		Split: Split{Train: parts[0], Val: parts[1], Test: parts[2]}}, nil
}

// malnetGraph parses one edge list file and builds its graph with degree features.
func malnetGraph(raw []byte) (Graph, error) {
	var src, dst []int64
	for line, rest := 1, raw; len(rest) > 0; line++ {
		var text []byte
		text, rest, _ = bytes.Cut(rest, []byte{'\n'})
		a, b, n := twoFields(text)
		if n == 0 || a[0] == '#' {
			continue
		}
		if n != 2 {
			return Graph{}, fmt.Errorf("line %d: %q: want two node ids", line, text)
		}
		u, okU := parseNodeID(a)
		v, okV := parseNodeID(b)
		if !okU || !okV {
			return Graph{}, fmt.Errorf("line %d: %q: node ids must be integers in [0, 10¹⁸)", line, text)
		}
		src, dst = append(src, u), append(dst, v)
	}
	// Kept nodes: those on an edge between distinct nodes, in id order.
	var ids []int64
	for i := range src {
		if src[i] != dst[i] {
			ids = append(ids, src[i], dst[i])
		}
	}
	if len(ids) == 0 {
		return Graph{}, fmt.Errorf("no edge between two distinct nodes (%d edges)", len(src))
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) > maxNodes {
		return Graph{}, fmt.Errorf("%d nodes, more than %d", len(ids), maxNodes)
	}
	index := func(id int64) int32 {
		k, _ := slices.BinarySearch(ids, id)
		return int32(k)
	}
	g := Graph{NumNodes: len(ids)}
	g.Src = make([]int32, 0, len(src))
	g.Dst = make([]int32, 0, len(src))
	loop := make([]bool, len(ids))
	for i := range src {
		if src[i] != dst[i] {
			g.Src = append(g.Src, index(src[i]))
			g.Dst = append(g.Dst, index(dst[i]))
		} else if k, found := slices.BinarySearch(ids, src[i]); found {
			loop[k] = true
		}
	}
	for k, has := range loop {
		if has {
			g.Src = append(g.Src, int32(k))
			g.Dst = append(g.Dst, int32(k))
		}
	}
	g.Node = localDegreeProfile(g.NumNodes, g.Src, g.Dst)
	return g, nil
}

// twoFields splits a line at white space, returning its first two fields and the
// number of fields, counted up to 3.
func twoFields(line []byte) (a, b []byte, n int) {
	var f [2][]byte
	for i := 0; i < len(line); {
		if c := line[i]; c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' && line[j] != '\v' && line[j] != '\f' {
			j++
		}
		if n == 2 {
			return f[0], f[1], 3
		}
		f[n] = line[i:j]
		n++
		i = j
	}
	return f[0], f[1], n
}

// parseNodeID parses a non-negative decimal integer.
func parseNodeID(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 { // 18 digits cannot overflow int64
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = 10*v + int64(c-'0')
	}
	return v, true
}

// localDegreeProfile computes PyG's LocalDegreeProfile features over out-edges; see
// LoadMalNetTiny.
func localDegreeProfile(n int, src, dst []int32) Features {
	deg := make([]float64, n)
	for _, u := range src {
		deg[u]++
	}
	minD, maxD, sum := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range minD {
		minD[i] = math.Inf(1)
		maxD[i] = math.Inf(-1)
	}
	for e, u := range src {
		d := deg[dst[e]]
		minD[u] = min(minD[u], d)
		maxD[u] = max(maxD[u], d)
		sum[u] += d
	}
	ss := make([]float64, n)
	for e, u := range src {
		t := deg[dst[e]] - sum[u]/deg[u]
		ss[u] += t * t
	}
	f := Features{Kind: Dense, Rows: n, Cols: malnetFeatures, Dense: make([]float32, n*malnetFeatures)}
	for v := range n {
		if deg[v] == 0 {
			continue // no out-edges: all zero
		}
		row := f.Dense[v*malnetFeatures : (v+1)*malnetFeatures]
		row[0] = float32(deg[v])
		row[1] = float32(minD[v])
		row[2] = float32(maxD[v])
		row[3] = float32(sum[v] / deg[v])
		row[4] = float32(math.Sqrt(ss[v] / (max(deg[v]-1, 1) + 1e-6)))
	}
	return f
}
