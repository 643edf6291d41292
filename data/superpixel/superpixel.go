package superpixel

import (
	"fmt"
	"math"
	"slices"
)

// Spec holds one data set's image geometry and SLIC settings.
type Spec struct {
	// Side is the width and height of the square images, in pixels.
	Side int
	// Channels is 1 (grey) or 3 (RGB, segmented in CIE Lab).
	Channels int
	// MaxSegments bounds the number of superpixels per image.
	MaxSegments int
	// ExtraQuery is how many more segments than MaxSegments SLIC is asked for first.
	ExtraQuery int
	// Compactness is SLIC's compactness: higher values give squarer superpixels.
	Compactness float64
}

// MNISTSpec returns the settings of extract_superpixels.py -D mnist: 28×28 grey
// images, at most 75 superpixels (asking for 95 first), compactness 0.25.
func MNISTSpec() Spec {
	return Spec{Side: 28, Channels: 1, MaxSegments: 75, ExtraQuery: 20, Compactness: 0.25}
}

// CIFAR10Spec returns the settings of extract_superpixels.py -D cifar10 -n 150 -c 10:
// 32×32 colour images, at most 150 superpixels (asking for 200 first), compactness 10.
func CIFAR10Spec() Spec {
	return Spec{Side: 32, Channels: 3, MaxSegments: 150, ExtraQuery: 50, Compactness: 10}
}

// Validate reports whether the spec can be used: a positive Side, 1 or 3 Channels, a
// positive MaxSegments, a non-negative ExtraQuery and a positive finite Compactness.
func (s Spec) Validate() error {
	switch {
	case s.Side < 1 || s.Side > 1<<15:
		return fmt.Errorf("superpixel: side %d outside [1, %d]", s.Side, 1<<15)
	case s.Channels != 1 && s.Channels != 3:
		return fmt.Errorf("superpixel: %d channels, want 1 (grey) or 3 (RGB)", s.Channels)
	case s.MaxSegments < 1 || s.ExtraQuery < 0:
		return fmt.Errorf("superpixel: MaxSegments %d must be positive and ExtraQuery %d non-negative", s.MaxSegments, s.ExtraQuery)
	case !(s.Compactness > 0) || math.IsInf(s.Compactness, 0):
		return fmt.Errorf("superpixel: compactness %v is not a positive number", s.Compactness)
	}
	return nil
}

// Neighbours is the k of the k-nearest-neighbour edges: each node's out-degree when
// the graph has more than Neighbours nodes.
const Neighbours = 8

// Graph is the superpixel graph of one image.
type Graph struct {
	// N is the number of superpixels (nodes), at least 1.
	N int
	// Cols is the number of features per node: Channels+2.
	Cols int
	// Features holds N rows of Cols values: the mean of each channel of the /255
	// image over the superpixel, then its centre of mass as row/Side and column/Side.
	Features []float32
	// Src and Dst hold the directed edges Src[e] → Dst[e]: each node's Neighbours most
	// similar other nodes (all others when N ≤ Neighbours), by node, most similar
	// first; a single node has one self loop.
	Src, Dst []int32
	// Weights holds the similarity A of each edge (0 for the single node's loop).
	Weights []float32
}

// Builder builds superpixel graphs of the images of one Spec, reusing its buffers from
// one image to the next. It is not safe for concurrent use; its results do not depend
// on the images it saw before.
type Builder struct {
	spec   Spec
	ws     slicWorkspace
	img    []float32 // pixel values /255, channels interleaved
	planes []byte    // the image being segmented, as given
	linear *[256]float64
	labels []int32
	// per segment accumulators
	sum          []float64 // channels per segment
	sumY, sumX   []float64
	count        []int
	dist, weight []float64
}

// NewBuilder returns a Builder for the images described by spec.
func NewBuilder(spec Spec) (*Builder, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	return &Builder{spec: spec}, nil
}

// Spec returns the builder's settings.
func (b *Builder) Spec() Spec { return b.spec }

// Graph returns the superpixel graph of one image: Channels planes of Side² bytes
// (row-major), as in the MNIST and CIFAR-10 binary files. It panics if pixels has
// another length.
func (b *Builder) Graph(pixels []byte) Graph {
	b.load(pixels)
	n := b.segment()
	g := Graph{N: n, Cols: b.spec.Channels + 2, Features: b.nodeFeatures(b.labels, n)}
	g.Src, g.Dst, g.Weights = b.knnEdges(g.Features, n)
	return g
}

// Segment returns the superpixels of one image (laid out as for Graph): one label in
// 0..n−1 per pixel, row-major, every label used, and their number n. These are the
// labels behind Graph's nodes. It panics if pixels has the wrong length.
func (b *Builder) Segment(pixels []byte) (labels []int32, n int) {
	b.load(pixels)
	n = b.segment()
	return slices.Clone(b.labels), n
}

// NodeFeatures returns the features of the n superpixels of one image (laid out as for
// Graph) given its labels, as Graph.Features holds them. Every label in 0..n−1 must
// be used, as Segment's are; it panics if pixels or labels have the wrong length or a
// label is outside 0..n−1.
func (b *Builder) NodeFeatures(pixels []byte, labels []int32, n int) []float32 {
	b.load(pixels)
	if len(labels) != b.spec.Side*b.spec.Side {
		panic(fmt.Sprintf("superpixel: %d labels for %d×%d pixels", len(labels), b.spec.Side, b.spec.Side))
	}
	return b.nodeFeatures(labels, n)
}

// KNNEdges returns the k-nearest-neighbour edges of n ≥ 1 nodes with the given
// features (n rows of Channels+2 values, the last two the centre of mass, as
// NodeFeatures gives them), as Graph holds them. It panics if features has another
// length.
func (b *Builder) KNNEdges(features []float32, n int) (src, dst []int32, weights []float32) {
	if cols := b.spec.Channels + 2; n < 1 || len(features) != n*cols {
		panic(fmt.Sprintf("superpixel: %d feature values for %d nodes of %d", len(features), n, cols))
	}
	return b.knnEdges(features, n)
}

// load keeps the image and its /255 float32 values.
func (b *Builder) load(pixels []byte) {
	c, n := b.spec.Channels, b.spec.Side*b.spec.Side
	if len(pixels) != c*n {
		panic(fmt.Sprintf("superpixel: image of %d bytes, want %d planes of %d×%d", len(pixels), c, b.spec.Side, b.spec.Side))
	}
	b.planes = pixels
	b.img = slices.Grow(b.img[:0], c*n)[:c*n]
	for ch := range c {
		for p, v := range pixels[ch*n : (ch+1)*n] {
			b.img[p*c+ch] = float32(float64(v) / 255)
		}
	}
}

// segment runs SLIC asking for MaxSegments+ExtraQuery segments, then one fewer each
// time until at most MaxSegments come out, as the reference does; the k-means pass is
// shared between requests with the same grid (only the connectivity limits change),
// and a request with the same grid and limits as the last one is skipped. Labels are
// left in b.labels.
func (b *Builder) segment() int {
	side, pixels := b.spec.Side, b.spec.Side*b.spec.Side
	if b.spec.Channels == 3 {
		if b.linear == nil {
			b.linear = srgbLinearTable()
		}
		b.ws.setLabImage(b.planes, side, side, b.spec.Compactness, b.linear)
	} else {
		b.ws.setImage(b.img, side, side, b.spec.Channels, b.spec.Compactness)
	}
	b.labels = slices.Grow(b.labels[:0], pixels)[:pixels]
	var last slicGrid
	lastMin, lastMax, n := -1, -1, 0
	for query := b.spec.MaxSegments + b.spec.ExtraQuery; query >= 1; query-- {
		g := slicRegularGrid(side, side, query)
		minSize, maxSize := slicSizeLimits(pixels, query)
		if n > 0 && g == last && minSize == lastMin && maxSize == lastMax {
			continue // same k-means and limits: same segmentation, still too many
		}
		if n == 0 || g != last {
			b.ws.kmeans(g, 10)
			last = g
		}
		n = b.ws.enforceConnectivity(b.labels, minSize, maxSize)
		lastMin, lastMax = minSize, maxSize
		if n <= b.spec.MaxSegments {
			break
		}
	}
	return n
}

// nodeFeatures computes the features of the n segments of labels over b.img.
func (b *Builder) nodeFeatures(labels []int32, n int) []float32 {
	c, side := b.spec.Channels, b.spec.Side
	cols := c + 2
	b.sum = resetFloats(b.sum, n*c)
	b.sumY = resetFloats(b.sumY, n)
	b.sumX = resetFloats(b.sumX, n)
	b.count = slices.Grow(b.count[:0], n)[:n]
	clear(b.count)
	for p, l := range labels {
		for ch := range c {
			b.sum[int(l)*c+ch] += float64(b.img[p*c+ch])
		}
		b.sumY[l] += float64(p / side)
		b.sumX[l] += float64(p % side)
		b.count[l]++
	}
	features := make([]float32, cols*n)
	for k := range n {
		cnt := float64(b.count[k])
		row := features[k*cols : (k+1)*cols]
		for ch := range c {
			row[ch] = float32(b.sum[k*c+ch] / cnt)
		}
		// The reference stores the centre as float32 before dividing by the side.
		row[c], row[c+1] = float32(b.sumY[k]/cnt)/float32(side), float32(b.sumX[k]/cnt)/float32(side)
	}
	return features
}

// knnEdges builds the k-nearest-neighbour edges of n nodes from the centres in the
// last two feature columns.
func (b *Builder) knnEdges(features []float32, n int) (src, dst []int32, weights []float32) {
	cols := b.spec.Channels + 2
	coord := make([]float64, 2*n)
	for k := range n {
		coord[2*k], coord[2*k+1] = float64(features[k*cols+cols-2]), float64(features[k*cols+cols-1])
	}
	// Distances and Gaussian-kernel similarities.
	b.dist = resetFloats(b.dist, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			dy, dx := coord[2*i]-coord[2*j], coord[2*i+1]-coord[2*j+1]
			d := math.Sqrt(dy*dy + dx*dx)
			b.dist[i*n+j], b.dist[j*n+i] = d, d
		}
	}
	sigma := make([]float64, n)
	for i := range n {
		sigma[i] = 1
		if n > Neighbours {
			// Mean of the 9 smallest distances (the 0 to itself included) over 8.
			var near [Neighbours + 1]float64
			m := 0
			for _, d := range b.dist[i*n : (i+1)*n] {
				if m < len(near) {
					near[m] = d
					m++
				} else if d >= near[m-1] {
					continue
				} else {
					near[m-1] = d
				}
				for q := m - 1; q > 0 && near[q] < near[q-1]; q-- {
					near[q], near[q-1] = near[q-1], near[q]
				}
			}
			total := 0.0
			for _, d := range near {
				total += d
			}
			sigma[i] = total / Neighbours
		}
		sigma[i] += 1e-8
	}
	b.weight = resetFloats(b.weight, n*n)
	for i := range n {
		for j := range n {
			z := b.dist[i*n+j] / sigma[i]
			b.weight[i*n+j] = math.Exp(-z * z)
		}
	}
	for i := range n {
		for j := i; j < n; j++ {
			a := 0.5 * (b.weight[i*n+j] + b.weight[j*n+i])
			if i == j {
				a = 0
			}
			b.weight[i*n+j], b.weight[j*n+i] = a, a
		}
	}
	if n == 1 {
		return []int32{0}, []int32{0}, []float32{0}
	}
	k := min(Neighbours, n-1)
	src = make([]int32, 0, n*k)
	dst = make([]int32, 0, n*k)
	weights = make([]float32, 0, n*k)
	var top [Neighbours]int
	for i := range n {
		// The k most similar other nodes, by weight descending then index.
		w := b.weight[i*n : (i+1)*n]
		m := 0
		for j := range n {
			if j == i {
				continue
			}
			if m < k {
				top[m] = j
				m++
			} else if w[j] <= w[top[m-1]] {
				continue
			} else {
				top[m-1] = j
			}
			for q := m - 1; q > 0 && w[top[q]] > w[top[q-1]]; q-- {
				top[q], top[q-1] = top[q-1], top[q]
			}
		}
		for _, j := range top[:k] {
			src = append(src, int32(i))
			dst = append(dst, int32(j))
			weights = append(weights, float32(w[j]))
		}
	}
	return src, dst, weights
}

func resetFloats(s []float64, n int) []float64 {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}
