package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"path/filepath"

	"github.com/gexph/gexph/data/superpixel"
	"github.com/gexph/gexph/internal/regfile"
)

// MNIST superpixel graphs as in benchmarking-gnns: SLIC with compactness 0.25, at
// most 75 superpixels per 28×28 grey image (asking for 95, then one fewer each time),
// node features (mean intensity, row/28, column/28), 8-NN edges; see package
// superpixel for the construction. Split as in benchmarking-gnns: validation = the
// first 5,000 training images, training = the other 55,000, test = the 10,000 test
// images.

// MNIST file names inside the data directory.
const (
	// MNISTTrainLabels is the IDX file of the 60,000 training labels.
	MNISTTrainLabels = "train-labels-idx1-ubyte.gz"
	// MNISTTestLabels is the IDX file of the 10,000 test labels.
	MNISTTestLabels = "t10k-labels-idx1-ubyte.gz"
	// MNISTTestImages is the IDX file of the 10,000 test images.
	MNISTTestImages = "t10k-images-idx3-ubyte.gz"
)

// MNIST image geometry.
const (
	mnistSide       = 28
	mnistPixels     = mnistSide * mnistSide
	mnistTrainCount = 60000
	mnistTestCount  = 10000
	mnistValCount   = 5000
	mnistPNGRows    = 3000
)

// MNISTBatchPNG returns the name of the PNG holding training images
// 3000·b … 3000·b+2999 (one image per row of 784 pixels).
func MNISTBatchPNG(b int) string { return fmt.Sprintf("mnist_batch_%d.png", b) }

// LoadMNISTSuperpixels builds the MNIST superpixel graph data set from the raw images
// in dir: the training images from mnist_batch_0.png … mnist_batch_19.png (3000
// images per PNG, one per row of 784 grey pixels; the PNG holds original−1 floored at
// 0, so a PNG value p ≥ 1 is read as p+1 and 0 as 0, though 0 may also have been 1),
// the test images from t10k-images-idx3-ubyte.gz and the labels from the IDX label
// files. Graphs are ordered validation, training, test: validation = the first 5,000
// training images, training = the other 55,000, test = the 10,000 test images, as in
// benchmarking-gnns; each is the superpixel graph of superpixel.MNISTSpec (see
// package superpixel) labelled with its digit. opts.TrainGraphs, ValGraphs and
// TestGraphs cap the 55,000 training, 5,000 validation and 10,000 test images (0: all),
// taking the first ones of each part; opts.Workers goroutines build the superpixels (0:
// GOMAXPROCS; the result does not depend on it). Errors name the file at fault.
func LoadMNISTSuperpixels(dir string, opts LoadOptions) (*Dataset, error) {
	nTrain, nVal, nTest, err := superpixelSizes("mnist", opts, mnistTrainCount-mnistValCount, mnistValCount, mnistTestCount)
	if err != nil {
		return nil, err
	}

	trainLabels, err := readIDXFile(filepath.Join(dir, MNISTTrainLabels), 1, mnistTrainCount)
	if err != nil {
		return nil, err
	}
	testLabels, err := readIDXFile(filepath.Join(dir, MNISTTestLabels), 1, mnistTestCount)
	if err != nil {
		return nil, err
	}
	testImages, err := readIDXFile(filepath.Join(dir, MNISTTestImages), 3, mnistTestCount)
	if err != nil {
		return nil, err
	}
	// Training-file indices used: 0..nVal−1 (validation), 5000..5000+nTrain−1.
	trainIdx := make([]int, 0, nVal+nTrain)
	for i := range nVal {
		trainIdx = append(trainIdx, i)
	}
	for i := range nTrain {
		trainIdx = append(trainIdx, mnistValCount+i)
	}
	trainImages, err := readMNISTPNGs(dir, trainIdx)
	if err != nil {
		return nil, err
	}

	images := make([][]byte, 0, len(trainIdx)+nTest)
	labels := make([]int32, 0, len(trainIdx)+nTest)
	for k, i := range trainIdx {
		images = append(images, trainImages[k])
		labels = append(labels, int32(trainLabels[i]))
	}
	for i := range nTest {
		images = append(images, testImages[i*mnistPixels:(i+1)*mnistPixels])
		labels = append(labels, int32(testLabels[i]))
	}
	for i, y := range labels {
		if y > 9 {
			file := MNISTTrainLabels
			if i >= len(trainIdx) {
				file = MNISTTestLabels
			}
			return nil, fmt.Errorf("mnist: %s: label %d outside 0..9", filepath.Join(dir, file), y)
		}
	}

	graphs, err := superpixelGraphs(superpixel.MNISTSpec(), images, labels, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("mnist: %w", err)
	}
	split := Split{Val: seq(0, nVal), Train: seq(nVal, nVal+nTrain), Test: seq(nVal+nTrain, len(images))}
	return &Dataset{Name: "mnist", Task: GraphClassification, NumClasses: 10, Graphs: graphs, Split: split}, nil
}

// seq returns lo, lo+1, …, hi−1.
func seq(lo, hi int) []int {
	out := make([]int, hi-lo)
	for i := range out {
		out[i] = lo + i
	}
	return out
}

// readIDXFile reads a gzipped IDX file of unsigned bytes with the given number of
// dimensions (1: labels; 3: n×28×28 images) and n items, returning the raw data.
func readIDXFile(path string, dims, n int) ([]byte, error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mnist: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("mnist: %s: %w", path, err)
	}
	raw, err := readAllLimit(zr, int64(16+n*28*28+1))
	if err != nil {
		return nil, fmt.Errorf("mnist: %s: %w", path, err)
	}
	data, err := parseIDX(raw, dims, n)
	if err != nil {
		return nil, fmt.Errorf("mnist: %s: %w", path, err)
	}
	return data, nil
}

// parseIDX checks an IDX header (magic 0x0000 08 dims, big-endian sizes) and returns
// the data bytes.
func parseIDX(raw []byte, dims, n int) ([]byte, error) {
	header := 4 + 4*dims
	if len(raw) < header {
		return nil, fmt.Errorf("truncated IDX header (%d bytes)", len(raw))
	}
	if magic := binary.BigEndian.Uint32(raw); magic != uint32(0x0800|dims) {
		return nil, fmt.Errorf("bad IDX magic %#08x, want %#08x (unsigned bytes, %d dimensions)", magic, 0x0800|dims, dims)
	}
	want := []int{n}
	if dims == 3 {
		want = []int{n, mnistSide, mnistSide}
	}
	size := 1
	for d := range dims {
		got := int(binary.BigEndian.Uint32(raw[4+4*d:]))
		if got != want[d] {
			return nil, fmt.Errorf("IDX dimension %d is %d, want %d", d, got, want[d])
		}
		size *= got
	}
	if len(raw)-header != size {
		return nil, fmt.Errorf("IDX data holds %d bytes, want %d", len(raw)-header, size)
	}
	return raw[header:], nil
}

// readMNISTPNGs returns the 784 original pixel values of the listed training images,
// decoding only the PNG batches needed.
func readMNISTPNGs(dir string, idx []int) ([][]byte, error) {
	out := make([][]byte, len(idx))
	batch, batchRows := -1, []byte(nil)
	for k, i := range idx {
		if b := i / mnistPNGRows; b != batch {
			var err error
			if batchRows, err = readMNISTBatch(filepath.Join(dir, MNISTBatchPNG(b))); err != nil {
				return nil, err
			}
			batch = b
		}
		r := i % mnistPNGRows
		out[k] = batchRows[r*mnistPixels : (r+1)*mnistPixels]
	}
	return out, nil
}

// maxPNGBytes bounds a batch PNG file (3000 images of 28×28 grey bytes, uncompressed
// 2.4 MB, with room for inefficient encoders).
const maxPNGBytes = 64 << 20

// readMNISTBatch decodes one batch PNG (784 wide, 3000 high, grey in any colour
// model) into original pixel values: p+1 for p ≥ 1, 0 for 0.
func readMNISTBatch(path string) ([]byte, error) {
	raw, err := readWhole(path, maxPNGBytes)
	if err != nil {
		return nil, fmt.Errorf("mnist: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("mnist: %s: %w", path, err)
	}
	b := img.Bounds()
	if b.Dx() != mnistPixels || b.Dy() != mnistPNGRows {
		return nil, fmt.Errorf("mnist: %s: image is %d×%d, want %d wide (one 28×28 image per row) and %d high", path, b.Dx(), b.Dy(), mnistPixels, mnistPNGRows)
	}
	out := make([]byte, mnistPixels*mnistPNGRows)
	grey := func(x, y int, r, g, bl uint8) error {
		if r != g || g != bl {
			return fmt.Errorf("mnist: %s: pixel (%d, %d) is not grey (%d, %d, %d)", path, x, y, r, g, bl)
		}
		if r == 255 {
			return fmt.Errorf("mnist: %s: pixel (%d, %d) is 255, which original−1 cannot give", path, x, y)
		}
		if r > 0 {
			r++
		}
		out[y*mnistPixels+x] = r
		return nil
	}
	switch im := img.(type) {
	case *image.RGBA:
		for y := range mnistPNGRows {
			row := im.Pix[(y+b.Min.Y-im.Rect.Min.Y)*im.Stride:]
			for x := range mnistPixels {
				p := row[4*x : 4*x+4]
				if err := grey(x, y, p[0], p[1], p[2]); err != nil {
					return nil, err
				}
			}
		}
	case *image.Gray:
		for y := range mnistPNGRows {
			row := im.Pix[(y+b.Min.Y-im.Rect.Min.Y)*im.Stride:]
			for x := range mnistPixels {
				if err := grey(x, y, row[x], row[x], row[x]); err != nil {
					return nil, err
				}
			}
		}
	default:
		for y := range mnistPNGRows {
			for x := range mnistPixels {
				r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				if err := grey(x, y, uint8(r>>8), uint8(g>>8), uint8(bl>>8)); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}
