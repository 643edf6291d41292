package superpixel

import (
	"math"
	"slices"
)

// This file re-implements SLIC superpixels as skimage.segmentation.slic computes
// them (scikit-image 0.14–0.16, the versions behind the benchmarking-gnns MNIST and
// CIFAR10 superpixel sets), with its defaults: max_iter 10, sigma 0 (no smoothing),
// unit spacing, slic_zero off, enforce_connectivity on with min_size_factor 0.5 and
// max_size_factor 3, labels from 0, and no colour-space conversion in SLIC itself
// (the CIFAR10 superpixels convert RGB to Lab first, as skimage does by default; see
// linearToLab). Kept faithfully, quirks included:
//
//   - centres start on skimage's regular_grid (start ⌊step/2⌋, step rounded half to
//     even) with zero colour, so the first assignment pulls dark pixels;
//   - the distance is (dy² + dx²)/step² + Σ_c (compactness⁻¹·(I_c − μ_c))², searched
//     in a window of ±2 grid steps; ties go to the lower-numbered centre;
//   - all 10 iterations run (the "no change" test never fires since distances are
//     reset each iteration); a centre that loses all its pixels is dead for good
//     unless a stale assignment revives it, as in the reference;
//   - connectivity: a raster scan relabels 4-connected components in order; a BFS
//     stops growing a component at max_size pixels (the rest becomes further
//     components) and a component smaller than min_size takes the label of the last
//     already-labelled neighbour the BFS met (0 if none).

// SLIC segments an image of w×h pixels into superpixels like
// skimage.segmentation.slic(img, n_segments=nSegments, compactness=compactness,
// multichannel=C>1). img holds h rows of w pixels of C channels, interleaved; C is
// len(img)/(w·h) (1 for grey, 3 for colour). It returns one label per pixel
// (row-major, 0..nSeg−1) and the number of distinct labels nSeg. Invalid input
// (non-positive sizes, nSegments or compactness, or len(img) not a positive multiple
// of w·h) gives (nil, 0).
func SLIC(img []float32, w, h, nSegments int, compactness float64) (labels []int32, nSeg int) {
	if w <= 0 || h <= 0 || nSegments <= 0 || !(compactness > 0) || math.IsInf(compactness, 0) ||
		len(img) == 0 || len(img)%(w*h) != 0 {
		return nil, 0
	}
	var ws slicWorkspace
	ws.setImage(img, w, h, len(img)/(w*h), compactness)
	ws.kmeans(slicRegularGrid(h, w, nSegments), 10)
	labels = make([]int32, w*h)
	minSize, maxSize := slicSizeLimits(w*h, nSegments)
	nSeg = ws.enforceConnectivity(labels, minSize, maxSize)
	return labels, nSeg
}

// slicSizeLimits returns skimage's min_size and max_size for connectivity
// enforcement: 0.5 and 3 times the pixels per requested segment, truncated.
func slicSizeLimits(pixels, nSegments int) (minSize, maxSize int) {
	size := float64(pixels) / float64(nSegments)
	return int(0.5 * size), max(int(3*size), 1)
}

// slicGrid is skimage's regular_grid over a (1, h, w) volume: centres at
// start + k·step along each image axis.
type slicGrid struct {
	startY, stepY, startX, stepX int
	step                         float64 // the largest step of the three axes
}

// slicRegularGrid reproduces skimage.util.regular_grid((1, h, w), n).
func slicRegularGrid(h, w, n int) slicGrid {
	shape := [3]int{1, h, w}
	order := [3]int{0, 1, 2} // axes sorted by size (stable)
	slices.SortStableFunc(order[:], func(a, b int) int { return shape[a] - shape[b] })
	var sorted [3]float64
	for i, ax := range order {
		sorted[i] = float64(shape[ax])
	}
	space := float64(h * w)
	if space <= float64(n) {
		return slicGrid{startY: 0, stepY: 1, startX: 0, stepX: 1, step: 1}
	}
	var steps [3]float64
	for i := range steps {
		steps[i] = math.Pow(space/float64(n), 1.0/3)
	}
	if sorted[0] < steps[0] || sorted[1] < steps[1] || sorted[2] < steps[2] {
		for dim := range 2 { // dim 2 never runs: dims 0 and 1 always fit
			steps[dim] = sorted[dim]
			rest := 1.0
			for _, s := range sorted[dim+1:] {
				rest *= s
			}
			for j := dim + 1; j < 3; j++ {
				steps[j] = math.Pow(rest/float64(n), 1/float64(3-dim-1))
			}
			if sorted[0] >= steps[0] && sorted[1] >= steps[1] && sorted[2] >= steps[2] {
				break
			}
		}
	}
	var start, step [3]int
	for i, ax := range order {
		start[ax] = int(math.Floor(steps[i] / 2))
		step[ax] = int(math.RoundToEven(steps[i]))
	}
	return slicGrid{startY: start[1], stepY: step[1], startX: start[2], stepX: step[2],
		step: float64(max(step[0], step[1], step[2]))}
}

// slicWorkspace holds one image and the buffers of the k-means and connectivity
// passes, reused across calls.
type slicWorkspace struct {
	w, h, c  int
	scaled   []float64 // image · (1/compactness), h·w·c
	nearest  []int32   // k-means assignment per pixel
	distance []float64
	centres  []float64 // per centre: y, x, c colour values
	counts   []int
	queue    []int32 // BFS pixel list
}

func (ws *slicWorkspace) setImage(img []float32, w, h, c int, compactness float64) {
	ws.w, ws.h, ws.c = w, h, c
	ratio := 1 / compactness
	ws.scaled = slices.Grow(ws.scaled[:0], len(img))[:len(img)]
	for i, v := range img {
		ws.scaled[i] = float64(v) * ratio
	}
}

// setLabImage loads an RGB image given as 8-bit planes (3 planes of w·h bytes), its
// values v/255 rounded to float32 as the reference holds them, converted to CIE Lab
// as skimage's slic converts 3-channel images by default. linear maps a byte to its
// linear sRGB value (srgbLinearTable).
func (ws *slicWorkspace) setLabImage(planes []byte, w, h int, compactness float64, linear *[256]float64) {
	n := w * h
	ws.w, ws.h, ws.c = w, h, 3
	ratio := 1 / compactness
	ws.scaled = slices.Grow(ws.scaled[:0], 3*n)[:3*n]
	for p := range n {
		lab := linearToLab(linear[planes[p]], linear[planes[n+p]], linear[planes[2*n+p]])
		ws.scaled[3*p], ws.scaled[3*p+1], ws.scaled[3*p+2] = lab[0]*ratio, lab[1]*ratio, lab[2]*ratio
	}
}

// srgbLinearTable returns the linear sRGB value of each byte v, read as the float32
// v/255.
func srgbLinearTable() *[256]float64 {
	var t [256]float64
	for v := range t {
		t[v] = srgbLinear(float64(float32(float64(v) / 255)))
	}
	return &t
}

// srgbLinear is the sRGB gamma expansion of skimage's rgb2xyz, for a component in
// [0, 1].
func srgbLinear(v float64) float64 {
	if v > 0.04045 {
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return v / 12.92
}

// linearToLab converts a linear sRGB colour to CIE L*a*b* exactly as
// skimage.color.rgb2lab does after the gamma expansion (0.14–0.19): skimage's sRGB →
// XYZ matrix, the D65 white point of the 2° observer (0.95047, 1, 1.08883), and the
// CIE cube root with its linear segment below 0.008856 (slope 7.787).
func linearToLab(r, g, b float64) [3]float64 {
	x := (0.412453*r + 0.357580*g + 0.180423*b) / 0.95047
	y := 0.212671*r + 0.715160*g + 0.072169*b
	z := (0.019334*r + 0.119193*g + 0.950227*b) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	fx, fy, fz := f(x), f(y), f(z)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// kmeans runs skimage's _slic_cython from centres on grid g and leaves the
// assignment in ws.nearest.
func (ws *slicWorkspace) kmeans(g slicGrid, maxIter int) {
	w, h, c := ws.w, ws.h, ws.c
	stride := 2 + c
	ws.centres = ws.centres[:0]
	for y := g.startY; y < h; y += g.stepY {
		for x := g.startX; x < w; x += g.stepX {
			ws.centres = append(ws.centres, float64(y), float64(x))
			for range c {
				ws.centres = append(ws.centres, 0)
			}
		}
	}
	nc := len(ws.centres) / stride
	// The search window uses the steps of a regular grid for the actual centre count.
	inner := slicRegularGrid(h, w, nc)
	winY, winX := float64(2*inner.stepY), float64(2*inner.stepX)
	spatialWeight := 1 / (g.step * g.step)
	n := w * h
	ws.nearest = slices.Grow(ws.nearest[:0], n)[:n]
	clear(ws.nearest)
	ws.distance = slices.Grow(ws.distance[:0], n)[:n]
	ws.counts = slices.Grow(ws.counts[:0], nc)[:nc]
	for k := range ws.counts {
		ws.counts[k] = 1 // alive
	}
	for range maxIter {
		for i := range ws.distance {
			ws.distance[i] = math.MaxFloat64
		}
		changed := false
		for k := range nc {
			if ws.counts[k] == 0 {
				continue // dead centre (NaN in the reference): claims no pixel
			}
			ctr := ws.centres[k*stride : (k+1)*stride]
			cy, cx, col := ctr[0], ctr[1], ctr[2:]
			y0, y1 := int(max(cy-winY, 0)), int(min(cy+winY+1, float64(h)))
			x0, x1 := int(max(cx-winX, 0)), int(min(cx+winX+1, float64(w)))
			for y := y0; y < y1; y++ {
				dy := (cy - float64(y)) * (cy - float64(y))
				lo, hi := y*w+x0, y*w+x1
				dist, near := ws.distance[lo:hi], ws.nearest[lo:hi]
				if c == 1 { // grey fast path, same arithmetic
					pix, c0 := ws.scaled[lo:hi], col[0]
					for i := range dist {
						fx := cx - float64(x0+i)
						t := pix[i] - c0
						d := (dy+fx*fx)*spatialWeight + t*t
						if dist[i] > d {
							near[i], dist[i], changed = int32(k), d, true
						}
					}
					continue
				}
				if c == 3 { // colour fast path, same arithmetic
					pix, c0, c1, c2 := ws.scaled[3*lo:3*hi], col[0], col[1], col[2]
					for i := range dist {
						fx := cx - float64(x0+i)
						px := pix[3*i : 3*i+3 : 3*i+3]
						t0, t1, t2 := px[0]-c0, px[1]-c1, px[2]-c2
						d := (dy+fx*fx)*spatialWeight + (t0*t0 + t1*t1 + t2*t2)
						if dist[i] > d {
							near[i], dist[i], changed = int32(k), d, true
						}
					}
					continue
				}
				for i := range dist {
					fx := cx - float64(x0+i)
					d := (dy + fx*fx) * spatialWeight
					dc := 0.0
					for ch, v := range ws.scaled[(lo+i)*c : (lo+i+1)*c] {
						t := v - col[ch]
						dc += t * t
					}
					d += dc
					if dist[i] > d {
						near[i], dist[i], changed = int32(k), d, true
					}
				}
			}
		}
		if !changed {
			break
		}
		clear(ws.centres)
		clear(ws.counts)
		for p, k := range ws.nearest {
			ctr := ws.centres[int(k)*stride : (int(k)+1)*stride]
			ws.counts[k]++
			ctr[0] += float64(p / w)
			ctr[1] += float64(p % w)
			for ch, v := range ws.scaled[p*c : (p+1)*c] {
				ctr[2+ch] += v
			}
		}
		for k := range nc {
			if cnt := float64(ws.counts[k]); cnt > 0 {
				for j := range stride {
					ws.centres[k*stride+j] /= cnt
				}
			}
		}
	}
}

// enforceConnectivity is skimage's _enforce_label_connectivity_cython on the k-means
// assignment; it writes the new labels and returns the number of distinct labels.
func (ws *slicWorkspace) enforceConnectivity(out []int32, minSize, maxSize int) int {
	w, h := ws.w, ws.h
	for i := range out {
		out[i] = -1
	}
	ws.queue = slices.Grow(ws.queue[:0], maxSize)[:maxSize]
	queue := ws.queue
	next := int32(0)
	for start := range out {
		if out[start] >= 0 {
			continue
		}
		adjacent := int32(0)
		label := ws.nearest[start]
		out[start] = next
		size, visited := 1, 0
		queue[0] = int32(start)
	bfs:
		for visited < size && size < maxSize {
			p := int(queue[visited])
			y, x := p/w, p%w
			// neighbour order of the reference: x+1, x−1, y+1, y−1
			for i := range 4 {
				yy, xx := y, x
				switch i {
				case 0:
					xx++
				case 1:
					xx--
				case 2:
					yy++
				case 3:
					yy--
				}
				if xx < 0 || xx >= w || yy < 0 || yy >= h {
					continue
				}
				q := yy*w + xx
				if ws.nearest[q] == label && out[q] == -1 {
					out[q] = next
					queue[size] = int32(q)
					size++
					if size >= maxSize {
						visited++
						break bfs
					}
				} else if out[q] >= 0 && out[q] != next {
					adjacent = out[q]
				}
			}
			visited++
		}
		if size < minSize {
			for _, p := range queue[:size] {
				out[p] = adjacent
			}
		} else {
			next++
		}
	}
	// Count the distinct labels (np.unique), normally 0..next−1.
	seen := make([]bool, int(next)+1)
	n := 0
	for _, l := range out {
		if !seen[l] {
			seen[l] = true
			n++
		}
	}
	return n
}
