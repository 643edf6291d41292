package data

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/gexph/gexph/data/superpixel"
	"github.com/gexph/gexph/internal/regfile"
)

// CIFAR10 superpixel graphs as in benchmarking-gnns: SLIC on the Lab-converted image
// with compactness 10, at most 150 superpixels per 32×32 colour image (asking for 200,
// then one fewer each time), node features (mean R, G, B of the /255 image, row/32,
// column/32), 8-NN edges; see package superpixel for the construction. Split as in
// benchmarking-gnns: validation = the first 5,000 training images, training = the
// other 45,000, test = the 10,000 test images.

// CIFAR-10 binary version: file names.
const (
	// CIFAR10Archive is the official archive of the binary version.
	CIFAR10Archive = "cifar-10-binary.tar.gz"
	// CIFAR10BatchDir is the directory the archive unpacks to.
	CIFAR10BatchDir = "cifar-10-batches-bin"
	// CIFAR10TestBatch is the file of the 10,000 test images.
	CIFAR10TestBatch = "test_batch.bin"
)

// CIFAR10TrainBatch returns the name of training file b (1 … 5), which holds training
// images 10,000·(b−1) … 10,000·b−1.
func CIFAR10TrainBatch(b int) string { return fmt.Sprintf("data_batch_%d.bin", b) }

// CIFAR-10 binary layout and split sizes.
const (
	cifarSide       = 32
	cifarPixels     = cifarSide * cifarSide
	cifarRecord     = 1 + 3*cifarPixels // label byte, then the R, G and B planes
	cifarPerFile    = 10000
	cifarTrainFiles = 5
	cifarTrainCount = cifarTrainFiles * cifarPerFile
	cifarValCount   = 5000
	cifarTestCount  = 10000
)

// LoadCIFAR10Superpixels builds the CIFAR10 superpixel graph data set from the binary
// version of CIFAR-10 at path: a directory holding data_batch_1.bin … data_batch_5.bin
// and test_batch.bin (or holding cifar-10-batches-bin/ or cifar-10-binary.tar.gz), or
// the cifar-10-binary.tar.gz archive itself, read without unpacking. Each file is a
// sequence of 3,073-byte records: the label (0–9), then the 1,024 red, 1,024 green
// and 1,024 blue values of a 32×32 image, row-major. Only the files and leading
// records that opts asks for are read; a file must hold whole records and at least
// those. Graphs are ordered validation, training, test: validation = the first 5,000
// training images, training = the other 45,000, test = the 10,000 test images, as in
// benchmarking-gnns; each is the superpixel graph of superpixel.CIFAR10Spec (see
// package superpixel) labelled with its class. opts.TrainGraphs, ValGraphs and
// TestGraphs cap the 45,000 training, 5,000 validation and 10,000 test images (0: all),
// taking the first ones of each part; opts.Workers goroutines build the superpixels (0:
// GOMAXPROCS; the result does not depend on it). Errors name the file at fault and, for
// a bad label, the record.
func LoadCIFAR10Superpixels(path string, opts LoadOptions) (*Dataset, error) {
	nTrain, nVal, nTest, err := superpixelSizes("cifar10", opts, cifarTrainCount-cifarValCount, cifarValCount, cifarTestCount)
	if err != nil {
		return nil, err
	}
	// Training records used: 0..nVal−1 (validation), 5000..5000+nTrain−1 (each count
	// is at least 1), from the leading training files; then the test records.
	var need []cifarNeed
	for b := range cifarTrainFiles {
		if n := min(cifarValCount+nTrain-b*cifarPerFile, cifarPerFile); n > 0 {
			need = append(need, cifarNeed{name: CIFAR10TrainBatch(b + 1), records: n})
		}
	}
	need = append(need, cifarNeed{name: CIFAR10TestBatch, records: nTest})
	dir, archive, err := locateCIFAR10(path)
	if err != nil {
		return nil, err
	}
	if archive != "" {
		err = readCIFAR10Archive(archive, need)
	} else {
		err = readCIFAR10Dir(dir, need)
	}
	if err != nil {
		return nil, err
	}
	images := make([][]byte, 0, nVal+nTrain+nTest)
	labels := make([]int32, 0, nVal+nTrain+nTest)
	add := func(records []byte, i int) {
		rec := records[i*cifarRecord : (i+1)*cifarRecord]
		images = append(images, rec[1:])
		labels = append(labels, int32(rec[0]))
	}
	// need lists the training files in order, all but the last one whole.
	for i := range nVal {
		add(need[i/cifarPerFile].data, i%cifarPerFile)
	}
	for i := cifarValCount; i < cifarValCount+nTrain; i++ {
		add(need[i/cifarPerFile].data, i%cifarPerFile)
	}
	for i := range nTest {
		add(need[len(need)-1].data, i)
	}
	graphs, err := superpixelGraphs(superpixel.CIFAR10Spec(), images, labels, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("cifar10: %w", err)
	}
	split := Split{Val: seq(0, nVal), Train: seq(nVal, nVal+nTrain), Test: seq(nVal+nTrain, len(images))}
	return &Dataset{Name: "cifar10", Task: GraphClassification, NumClasses: 10, Graphs: graphs, Split: split}, nil
}

// cifarNeed asks for the leading records of one batch file; data receives them.
type cifarNeed struct {
	name    string
	records int
	data    []byte
}

// locateCIFAR10 resolves path to a directory of batch files or to the archive.
func locateCIFAR10(p string) (dir, archive string, err error) {
	info, err := os.Stat(p)
	if err != nil {
		return "", "", fmt.Errorf("cifar10: %w", err)
	}
	if !info.IsDir() {
		return "", p, nil
	}
	for _, name := range []string{CIFAR10TrainBatch(1), CIFAR10TestBatch} {
		if _, err := os.Stat(filepath.Join(p, name)); err == nil {
			return p, "", nil
		}
	}
	if sub := filepath.Join(p, CIFAR10BatchDir); isDir(sub) {
		return sub, "", nil
	}
	if a := filepath.Join(p, CIFAR10Archive); fileExists(a) {
		return "", a, nil
	}
	return "", "", fmt.Errorf("cifar10: %s holds neither the batch files (%s, …, %s), nor %s/, nor %s: %w",
		p, CIFAR10TrainBatch(1), CIFAR10TestBatch, CIFAR10BatchDir, CIFAR10Archive, fs.ErrNotExist)
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

func fileExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// readCIFAR10Dir reads the needed records from the batch files in dir.
func readCIFAR10Dir(dir string, need []cifarNeed) error {
	for i := range need {
		p := filepath.Join(dir, need[i].name)
		f, info, err := regfile.Open(p)
		if err != nil {
			return fmt.Errorf("cifar10: %w", err)
		}
		need[i].data, err = readCIFAR10Records(f, info.Size(), need[i].records)
		f.Close()
		if err != nil {
			return fmt.Errorf("cifar10: %s: %w", p, err)
		}
	}
	return nil
}

// readCIFAR10Archive reads the needed records from the batch files inside a .tar.gz
// archive, streaming through it once; members are matched by base name.
func readCIFAR10Archive(archive string, need []cifarNeed) error {
	f, _, err := regfile.Open(archive)
	if err != nil {
		return fmt.Errorf("cifar10: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("cifar10: %s: %w", archive, err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	found := 0
	for found < len(need) {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("cifar10: %s: %w", archive, err)
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		for i := range need {
			if need[i].data != nil || path.Base(hdr.Name) != need[i].name {
				continue
			}
			if need[i].data, err = readCIFAR10Records(tr, hdr.Size, need[i].records); err != nil {
				return fmt.Errorf("cifar10: %s: %s: %w", archive, hdr.Name, err)
			}
			found++
		}
	}
	for _, nd := range need {
		if nd.data == nil {
			return fmt.Errorf("cifar10: %s: no member %s/%s: %w", archive, CIFAR10BatchDir, nd.name, fs.ErrNotExist)
		}
	}
	return nil
}

// readCIFAR10Records reads the first n records of a batch file of the given size and
// checks their labels.
func readCIFAR10Records(r io.Reader, size int64, n int) ([]byte, error) {
	if rest := size % cifarRecord; rest != 0 {
		return nil, fmt.Errorf("%d bytes: truncated record %d (%d of %d bytes)", size, size/cifarRecord, rest, cifarRecord)
	}
	if have := size / cifarRecord; have < int64(n) {
		return nil, fmt.Errorf("holds %d records, need %d", have, n)
	}
	data := make([]byte, n*cifarRecord)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("reading %d records: %w", n, err)
	}
	for i := range n {
		if y := data[i*cifarRecord]; y > 9 {
			return nil, fmt.Errorf("record %d: label %d outside 0..9", i, y)
		}
	}
	return data, nil
}
