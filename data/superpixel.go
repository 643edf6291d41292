package data

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Superpixel graphs as in benchmarking-gnns (data/superpixels.py), built from the
// superpixels of Knyazev et al.'s extract_superpixels.py; MNIST and CIFAR10 differ only
// in the settings of superpixelSpec:
//
//   - each image (pixel values /255, as float32) is cut by SLIC, asking for
//     maxSegments+extraQuery segments and one fewer each time until at most maxSegments
//     come out; colour images are segmented in CIE Lab, as skimage's slic converts
//     3-channel images by default;
//   - node features (Dense, channels+2 columns): the mean of each channel of the /255
//     image (grey, or R, G, B), then the centre of mass as row/side and column/side (the
//     reference's (row, col) order);
//   - edges: each node links to its 8 most similar nodes (all others when the graph
//     has at most 9 nodes) under A = ½(K + Kᵀ), K_ij = exp(−(d_ij/σ_i)²), d the
//     Euclidean distance between centres and σ_i the mean distance from node i to
//     its 8 nearest nodes (1 when the graph has fewer than 9 nodes), plus 1e−8;
//     edge feature (Dense, 1 column) = A_ij. Edges are directed (i → its
//     neighbours). The reference picks 8 of the 9 most similar nodes through an
//     argpartition artefact; here the 8 most similar are taken, ties to the lower
//     index. A single-node graph gets one self loop of weight 0, as in the
//     reference;
//   - nodes are kept in SLIC label order (the reference shuffles them).

// SuperpixelOptions selects a subset and the parallelism of the superpixel loaders
// (LoadMNISTSuperpixels, LoadCIFAR10Superpixels).
type SuperpixelOptions struct {
	// MaxTrain, MaxVal, MaxTest cap the number of training, validation and test
	// images, taking the first ones of each part; 0 means all.
	MaxTrain, MaxVal, MaxTest int
	// Workers is the number of goroutines computing superpixels; 0 means GOMAXPROCS.
	// The result does not depend on it.
	Workers int
}

// sizes returns the number of training, validation and test images to use out of
// the full counts, checking the options.
func (o SuperpixelOptions) sizes(name string, fullTrain, fullVal, fullTest int) (nTrain, nVal, nTest int, err error) {
	if o.MaxTrain < 0 || o.MaxVal < 0 || o.MaxTest < 0 || o.Workers < 0 {
		return 0, 0, 0, fmt.Errorf("%s: negative option in %+v", name, o)
	}
	pick := func(limit, all int) int {
		if limit == 0 || limit > all {
			return all
		}
		return limit
	}
	return pick(o.MaxTrain, fullTrain), pick(o.MaxVal, fullVal), pick(o.MaxTest, fullTest), nil
}

// superpixelSpec holds one data set's image geometry and SLIC settings.
type superpixelSpec struct {
	side        int // images are side×side pixels
	channels    int // 1 (grey) or 3 (RGB, segmented in CIE Lab)
	maxSegments int // at most this many superpixels per image
	extraQuery  int // SLIC is first asked for maxSegments+extraQuery segments
	compactness float64
}

// superpixelNeighbours is the k of the k-nearest-neighbour edges.
const superpixelNeighbours = 8

// mnistSuperpixels: extract_superpixels.py -D mnist (75 superpixels, compactness 0.25).
func mnistSuperpixels() superpixelSpec {
	return superpixelSpec{side: 28, channels: 1, maxSegments: 75, extraQuery: 20, compactness: 0.25}
}

// cifar10Superpixels: extract_superpixels.py -D cifar10 -n 150 -c 10.
func cifar10Superpixels() superpixelSpec {
	return superpixelSpec{side: 32, channels: 3, maxSegments: 150, extraQuery: 50, compactness: 10}
}

// superpixelGraphs builds the graph of every image (planar channels, side² bytes
// each) on the given number of goroutines (0: GOMAXPROCS) and sets its label.
func superpixelGraphs(spec superpixelSpec, images [][]byte, labels []int32, workers int) []Graph {
	graphs := make([]Graph, len(images))
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(images)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sp := superpixelizer{spec: spec}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(images) {
					return
				}
				graphs[i] = sp.graph(images[i])
				graphs[i].Label = labels[i]
			}
		}()
	}
	wg.Wait()
	return graphs
}

// superpixelizer turns images into superpixel graphs, reusing its buffers.
type superpixelizer struct {
	spec   superpixelSpec
	ws     slicWorkspace
	img    []float32 // pixel values /255, channels interleaved
	planes []byte    // the image being segmented, as given to graph
	linear *[256]float64
	labels []int32
	// per segment accumulators
	sum          []float64 // channels per segment
	sumY, sumX   []float64
	count        []int
	dist, weight []float64
}

// graph returns the superpixel graph of one image: spec.channels planes of side²
// bytes (row-major), as in the MNIST and CIFAR-10 binary files.
func (s *superpixelizer) graph(pixels []byte) Graph {
	c, n := s.spec.channels, s.spec.side*s.spec.side
	s.planes = pixels
	s.img = slices.Grow(s.img[:0], c*n)[:c*n]
	for ch := range c {
		for p, v := range pixels[ch*n : (ch+1)*n] {
			s.img[p*c+ch] = float32(float64(v) / 255)
		}
	}
	return s.knnGraph(s.segment())
}

// segment runs SLIC asking for maxSegments+extraQuery segments, then one fewer each
// time until at most maxSegments come out, as the reference does; the k-means pass is
// shared between requests with the same grid (only the connectivity limits change),
// and a request with the same grid and limits as the last one is skipped. Labels are
// left in s.labels.
func (s *superpixelizer) segment() int {
	side, pixels := s.spec.side, s.spec.side*s.spec.side
	if s.spec.channels == 3 {
		if s.linear == nil {
			s.linear = srgbLinearTable()
		}
		s.ws.setLabImage(s.planes, side, side, s.spec.compactness, s.linear)
	} else {
		s.ws.setImage(s.img, side, side, s.spec.channels, s.spec.compactness)
	}
	s.labels = slices.Grow(s.labels[:0], pixels)[:pixels]
	var last slicGrid
	lastMin, lastMax, n := -1, -1, 0
	for query := s.spec.maxSegments + s.spec.extraQuery; query >= 1; query-- {
		g := slicRegularGrid(side, side, query)
		minSize, maxSize := slicSizeLimits(pixels, query)
		if n > 0 && g == last && minSize == lastMin && maxSize == lastMax {
			continue // same k-means and limits: same segmentation, still too many
		}
		if n == 0 || g != last {
			s.ws.kmeans(g, 10)
			last = g
		}
		n = s.ws.enforceConnectivity(s.labels, minSize, maxSize)
		lastMin, lastMax = minSize, maxSize
		if n <= s.spec.maxSegments {
			break
		}
	}
	return n
}

// knnGraph builds the node features and the k-nearest-neighbour edges of the
// segmentation in s.labels with n segments.
func (s *superpixelizer) knnGraph(n int) Graph {
	c, side := s.spec.channels, s.spec.side
	cols := c + 2
	s.sum = resetFloats(s.sum, n*c)
	s.sumY = resetFloats(s.sumY, n)
	s.sumX = resetFloats(s.sumX, n)
	s.count = slices.Grow(s.count[:0], n)[:n]
	clear(s.count)
	for p, l := range s.labels {
		for ch := range c {
			s.sum[int(l)*c+ch] += float64(s.img[p*c+ch])
		}
		s.sumY[l] += float64(p / side)
		s.sumX[l] += float64(p % side)
		s.count[l]++
	}
	g := Graph{NumNodes: n, Node: Features{Kind: Dense, Rows: n, Cols: cols, Dense: make([]float32, cols*n)}}
	coord := make([]float64, 2*n)
	for k := range n {
		cnt := float64(s.count[k])
		row := g.Node.Dense[k*cols : (k+1)*cols]
		for ch := range c {
			row[ch] = float32(s.sum[k*c+ch] / cnt)
		}
		// The reference stores the centre as float32 before dividing by the side.
		cy, cx := float32(s.sumY[k]/cnt)/float32(side), float32(s.sumX[k]/cnt)/float32(side)
		row[c], row[c+1] = cy, cx
		coord[2*k], coord[2*k+1] = float64(cy), float64(cx)
	}
	// Distances and Gaussian-kernel similarities.
	s.dist = resetFloats(s.dist, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			dy, dx := coord[2*i]-coord[2*j], coord[2*i+1]-coord[2*j+1]
			d := math.Sqrt(dy*dy + dx*dx)
			s.dist[i*n+j], s.dist[j*n+i] = d, d
		}
	}
	sigma := make([]float64, n)
	for i := range n {
		sigma[i] = 1
		if n > superpixelNeighbours {
			// Mean of the 9 smallest distances (the 0 to itself included) over 8.
			var near [superpixelNeighbours + 1]float64
			m := 0
			for _, d := range s.dist[i*n : (i+1)*n] {
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
			sigma[i] = total / superpixelNeighbours
		}
		sigma[i] += 1e-8
	}
	s.weight = resetFloats(s.weight, n*n)
	for i := range n {
		for j := range n {
			z := s.dist[i*n+j] / sigma[i]
			s.weight[i*n+j] = math.Exp(-z * z)
		}
	}
	for i := range n {
		for j := i; j < n; j++ {
			a := 0.5 * (s.weight[i*n+j] + s.weight[j*n+i])
			if i == j {
				a = 0
			}
			s.weight[i*n+j], s.weight[j*n+i] = a, a
		}
	}
	if n == 1 {
		g.Src, g.Dst = []int32{0}, []int32{0}
		g.Edge = Features{Kind: Dense, Rows: 1, Cols: 1, Dense: []float32{0}}
		return g
	}
	k := min(superpixelNeighbours, n-1)
	g.Src = make([]int32, 0, n*k)
	g.Dst = make([]int32, 0, n*k)
	ef := make([]float32, 0, n*k)
	var top [superpixelNeighbours]int
	for i := range n {
		// The k most similar other nodes, by weight descending then index.
		w := s.weight[i*n : (i+1)*n]
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
			g.Src = append(g.Src, int32(i))
			g.Dst = append(g.Dst, int32(j))
			ef = append(ef, float32(w[j]))
		}
	}
	g.Edge = Features{Kind: Dense, Rows: len(ef), Cols: 1, Dense: ef}
	return g
}

func resetFloats(s []float64, n int) []float64 {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}
