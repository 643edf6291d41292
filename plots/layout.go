package plots

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gexph/gexph/data"

	"gonum.org/v1/gonum/mat"
)

// Layout limits.
const (
	// MaxLayoutNodes bounds the node count of ForceLayout (O(n²) work per
	// iteration) and SpectralLayout (a dense n×n eigendecomposition).
	MaxLayoutNodes = 4096
	// DefaultLayoutIters is the number of ForceLayout iterations used when iters
	// is 0.
	DefaultLayoutIters = 300
	// maxLayoutIters bounds ForceLayout's iterations.
	maxLayoutIters = 1_000_000
	// layoutStream is the second PCG word of ForceLayout's generator.
	layoutStream = 0x6c61796f7574 // "layout"
)

// checkEdges validates a graph given as n nodes and the edges src[i]–dst[i].
func checkEdges(what string, n int, src, dst []int32) error {
	if n < 0 || n > MaxLayoutNodes {
		return fmt.Errorf("plots: %s: %d nodes is outside [0, %d]", what, n, MaxLayoutNodes)
	}
	if len(src) != len(dst) {
		return fmt.Errorf("plots: %s: %d sources but %d destinations", what, len(src), len(dst))
	}
	for i := range src {
		if u, v := src[i], dst[i]; u < 0 || int(u) >= n || v < 0 || int(v) >= n {
			return fmt.Errorf("plots: %s: edge %d (%d, %d) has a node outside [0, %d)", what, i, u, v, n)
		}
	}
	return nil
}

// ForceLayout places the n nodes of the graph with edges src[i]–dst[i] (direction
// and multiplicity ignored, self loops skipped) by the force-directed method of
// Fruchterman and Reingold (1991): all pairs of nodes repel with force k²/r, the
// ends of every edge attract with force r²/k (k = 1/√m for a component of m nodes,
// the ideal edge length in a unit area), and each move is capped by a temperature
// that cools linearly to zero over iters iterations (DefaultLayoutIters when iters
// is 0). Start positions are uniform random from seed; the same arguments give the
// same layout on every run.
//
// Each connected component is laid out on its own, scaled to an area proportional
// to its node count and placed on a grid, in the order of its smallest node (so
// the graphs of a batch appear in order, row by row). The coordinates are then
// centred and scaled into [−1, 1]. Time is O(iters·(Σ m² + E)), so n is limited to
// MaxLayoutNodes; a few hundred nodes take well under a second.
func ForceLayout(n int, src, dst []int32, iters int, seed uint64) ([][2]float64, error) {
	if err := checkEdges("force layout", n, src, dst); err != nil {
		return nil, err
	}
	if iters < 0 || iters > maxLayoutIters {
		return nil, fmt.Errorf("plots: force layout: %d iterations is outside [0, %d]", iters, maxLayoutIters)
	}
	if iters == 0 {
		iters = DefaultLayoutIters
	}
	pos := make([][2]float64, n)
	r := rand.New(rand.NewPCG(seed, layoutStream))
	for i := range pos {
		pos[i] = [2]float64{r.Float64() - 0.5, r.Float64() - 0.5}
	}
	comps, err := components(n, src, dst)
	if err != nil {
		return nil, fmt.Errorf("plots: force layout: %w", err)
	}
	// Node i is local[i] within its component; edges go to their component.
	local := make([]int32, n)
	for _, c := range comps {
		for j, v := range c.nodes {
			local[v] = int32(j)
		}
	}
	compOf := make([]int32, n)
	for ci, c := range comps {
		for _, v := range c.nodes {
			compOf[v] = int32(ci)
		}
	}
	edges := make([][][2]int32, len(comps))
	for e := range src {
		if u, v := src[e], dst[e]; u != v {
			ci := compOf[u]
			edges[ci] = append(edges[ci], [2]int32{local[u], local[v]})
		}
	}
	cols := int(math.Ceil(math.Sqrt(float64(len(comps)))))
	largest := 0
	for _, c := range comps {
		largest = max(largest, len(c.nodes))
	}
	for ci, c := range comps {
		sub := make([][2]float64, len(c.nodes))
		for j, v := range c.nodes {
			sub[j] = pos[v]
		}
		fruchtermanReingold(sub, edges[ci], iters)
		normalizeLayout(sub, false)
		// A cell of side 2 per component; area proportional to the node count.
		scale := 0.9 * math.Sqrt(float64(len(c.nodes))/float64(largest))
		cx, cy := 2*float64(ci%cols), -2*float64(ci/cols)
		for j, v := range c.nodes {
			pos[v] = [2]float64{cx + scale*sub[j][0], cy + scale*sub[j][1]}
		}
	}
	normalizeLayout(pos, false)
	return pos, nil
}

// component is a connected component: its nodes in increasing order.
type component struct{ nodes []int32 }

// components returns the connected components of the graph (edges already checked),
// ordered by their smallest node.
func components(n int, src, dst []int32) ([]component, error) {
	comp, sizes, err := data.ConnectedComponents(n, src, dst)
	if err != nil {
		return nil, err
	}
	comps := make([]component, len(sizes))
	for c, size := range sizes {
		comps[c].nodes = make([]int32, 0, size)
	}
	for v, c := range comp {
		comps[c].nodes = append(comps[c].nodes, int32(v))
	}
	return comps, nil
}

// fruchtermanReingold moves pos (one connected component, started at random
// positions) by iters iterations of the Fruchterman–Reingold forces over edges.
func fruchtermanReingold(pos [][2]float64, edges [][2]int32, iters int) {
	n := len(pos)
	if n < 2 {
		return
	}
	k := 1 / math.Sqrt(float64(n))
	k2 := k * k
	const (
		startTemp = 0.1 // largest move in the first iteration, in units of the frame
		minDist   = 1e-9
	)
	disp := make([][2]float64, n)
	for it := range iters {
		clear(disp)
		for i := range n {
			pi := pos[i]
			for j := i + 1; j < n; j++ {
				dx, dy := pi[0]-pos[j][0], pi[1]-pos[j][1]
				d2 := dx*dx + dy*dy
				if d2 < minDist*minDist {
					// Coincident nodes: push apart along a direction fixed by the pair.
					a := float64(i*31+j*17) * 0.618
					dx, dy, d2 = minDist*math.Cos(a), minDist*math.Sin(a), minDist*minDist
				}
				f := k2 / d2 // (k²/r)·(1/r): force divided by distance
				disp[i][0] += dx * f
				disp[i][1] += dy * f
				disp[j][0] -= dx * f
				disp[j][1] -= dy * f
			}
		}
		for _, e := range edges {
			u, v := e[0], e[1]
			dx, dy := pos[u][0]-pos[v][0], pos[u][1]-pos[v][1]
			f := math.Sqrt(dx*dx+dy*dy) / k // (r²/k)·(1/r)
			disp[u][0] -= dx * f
			disp[u][1] -= dy * f
			disp[v][0] += dx * f
			disp[v][1] += dy * f
		}
		temp := startTemp * (1 - float64(it)/float64(iters))
		for i := range pos {
			dx, dy := disp[i][0], disp[i][1]
			d := math.Sqrt(dx*dx + dy*dy)
			if d < minDist {
				continue
			}
			step := min(d, temp) / d
			pos[i][0] += dx * step
			pos[i][1] += dy * step
		}
	}
}

// SpectralLayout places the n nodes of the graph with edges src[i]–dst[i]
// (direction ignored, each listed edge adding 1 to the weight of its pair, self
// loops skipped) at the entries of the eigenvectors of the Laplacian L = D − A for
// its second and third smallest eigenvalues: x is the Fiedler vector, which orders
// the nodes of a path monotonically, and y the next eigenvector. The signs are
// fixed so that the entry of largest magnitude is positive, and each axis is
// centred and scaled into [−1, 1] (y is 0 for fewer than three nodes). Eigenvectors
// of repeated eigenvalues (symmetric graphs such as cycles) are one valid choice of
// basis. On a disconnected graph the first eigenvectors only tell the components
// apart, so every component collapses; lay such graphs out with ForceLayout. The
// dense eigendecomposition takes O(n³) time, so n is limited to MaxLayoutNodes.
func SpectralLayout(n int, src, dst []int32) ([][2]float64, error) {
	if err := checkEdges("spectral layout", n, src, dst); err != nil {
		return nil, err
	}
	pos := make([][2]float64, n)
	if n < 2 {
		return pos, nil
	}
	lap := mat.NewSymDense(n, nil)
	for e := range src {
		u, v := int(src[e]), int(dst[e])
		if u == v {
			continue
		}
		lap.SetSym(u, v, lap.At(u, v)-1)
		lap.SetSym(u, u, lap.At(u, u)+1)
		lap.SetSym(v, v, lap.At(v, v)+1)
	}
	var eig mat.EigenSym
	if !eig.Factorize(lap, true) {
		return nil, fmt.Errorf("plots: spectral layout: eigendecomposition of the %d×%d Laplacian failed", n, n)
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	for axis := range 2 {
		col := axis + 1
		if col >= n {
			break
		}
		big := 0
		for i := range n {
			if math.Abs(vecs.At(i, col)) > math.Abs(vecs.At(big, col))+1e-12 {
				big = i
			}
		}
		sign := 1.0
		if vecs.At(big, col) < 0 {
			sign = -1
		}
		for i := range n {
			pos[i][axis] = sign * vecs.At(i, col)
		}
	}
	normalizeLayout(pos, true)
	return pos, nil
}

// normalizeLayout centres the bounding box of pos on the origin and scales it into
// [−1, 1]², with one scale for both axes (keeping shapes) or, when perAxis is set,
// one per axis.
func normalizeLayout(pos [][2]float64, perAxis bool) {
	var lo, hi, mid, half [2]float64
	for axis := range 2 {
		lo[axis], hi[axis] = math.Inf(1), math.Inf(-1)
		for _, p := range pos {
			lo[axis], hi[axis] = min(lo[axis], p[axis]), max(hi[axis], p[axis])
		}
		mid[axis], half[axis] = (lo[axis]+hi[axis])/2, (hi[axis]-lo[axis])/2
	}
	if !perAxis {
		half[0] = max(half[0], half[1])
		half[1] = half[0]
	}
	for i := range pos {
		for axis := range 2 {
			v := pos[i][axis] - mid[axis]
			if half[axis] > 1e-12 {
				v /= half[axis]
			} else {
				v = 0
			}
			pos[i][axis] = v
		}
	}
}
