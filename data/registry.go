package data

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gexph/gexph/internal/modroot"
	"github.com/gexph/gexph/internal/regfile"
)

// Transforms are the changes a loader makes to data as read, each off unless set (the
// gnn-benchmark sets known by name turn some on: see LoadGNNBenchmark). The same struct
// is a run's config (gexph.Config's data group, the JSON keys below) and LoadOptions'
// part, so that the data a run loads again is the data it trained on.
type Transforms struct {
	// AllNodes keeps every node of a gnn-benchmark npz graph, as PyTorch Geometric loads
	// it and the Exphormer reference code trains on it, instead of the largest connected
	// component the paper's statistics describe. It overrides LargestComponent.
	AllNodes bool `json:"all_nodes"`
	// BinaryFeatures sets every positive node feature to 1, as PyTorch Geometric reads
	// the gnn-benchmark files (x[x > 0] = 1). The gnn-benchmark sets known by name turn
	// it on; data loaded by path (npz:PATH, edgelist:DIR) keeps its features as given
	// unless it is set.
	BinaryFeatures bool `json:"binary_features"`
	// LargestComponent keeps only the largest connected component of the graph, its
	// nodes renumbered in their original order (Graph.NodeIDs keeps the original ids),
	// like PyG's T.LargestConnectedComponents(). The gnn-benchmark sets known by name
	// turn it on (unless AllNodes); data loaded by path keeps every node unless it is
	// set.
	LargestComponent bool `json:"largest_component"`
	// DoubledEdges lists every edge of a gnn-benchmark npz graph twice in each direction,
	// as the reference code does when it adds reverse edges to the already symmetric
	// files: degree-normalised message passing then weighs self loops half as much.
	DoubledEdges bool `json:"doubled_edges"`
	// SelfLoops adds a self loop to every node of a gnn-benchmark npz graph (the
	// reference's add_self_loops), so attention also runs over node → itself.
	SelfLoops bool `json:"self_loops"`
	// NormalizeFeatures divides the node features of a gnn-benchmark npz graph, row by
	// row, by their sum where it exceeds 1 (x / max(Σ x, 1)), after BinaryFeatures, as
	// PyTorch Geometric's T.NormalizeFeatures does to non-negative features, on which Luo
	// et al. train their classic GNNs. Negative features are refused (PyG would subtract
	// their minimum from every entry first).
	NormalizeFeatures bool `json:"normalize_features"`
}

// Or returns the transforms that t or u asks for (a run's config over a command's flags).
func (t Transforms) Or(u Transforms) Transforms {
	return Transforms{
		AllNodes: t.AllNodes || u.AllNodes, BinaryFeatures: t.BinaryFeatures || u.BinaryFeatures,
		LargestComponent: t.LargestComponent || u.LargestComponent, DoubledEdges: t.DoubledEdges || u.DoubledEdges,
		SelfLoops: t.SelfLoops || u.SelfLoops, NormalizeFeatures: t.NormalizeFeatures || u.NormalizeFeatures,
	}
}

// Loader is the signature of every loader of the package (LoadNPZ, LoadGNNBenchmark,
// LoadEdgeListDir, LoadOGBNode, LoadExport, LoadPeptidesFunc, LoadPeptidesStruct,
// LoadMNISTSuperpixels, LoadCIFAR10Superpixels, LoadMalNetTiny, and Load itself): the
// data at path (a file or a directory; for Load, a spec) read as opts says. A loader
// reads the fields of opts that its documentation names and ignores the others; Load
// refuses the transforms that do not apply to the data set it is given.
type Loader func(path string, opts LoadOptions) (*Dataset, error)

// LoadOptions configures Load and every Loader.
type LoadOptions struct {
	// DataDir is the data root holding the real data sets; empty means $GEXPH_DATA, else
	// ../shared/data relative to the working directory or to the module root.
	DataDir string
	// CacheDir holds preprocessed data sets; empty means DefaultCacheDir.
	CacheDir string
	// NoCache disables the cache: slow data sets are rebuilt and nothing is written.
	NoCache bool
	// Seed drives random splits and the generation of synthetic data sets.
	Seed uint64
	// TrainGraphs, ValGraphs and TestGraphs shrink the splits of PATTERN and CLUSTER
	// (graph i of a split is the same at every size) and cap those of MNIST and CIFAR10
	// (the first images); 0 keeps a split's full size.
	TrainGraphs, ValGraphs, TestGraphs int
	// Transforms are what the loader changes in the data as read (see there).
	Transforms
	// Warn, when not nil, receives what looks wrong in data read by path but is not
	// refused (one message per call, naming the file): as many classes as labelled
	// nodes, a label column that is a permutation of the node ids, duplicate edges
	// collapsed. Nil drops the warnings.
	Warn func(msg string)
	// MaxBytes bounds what loading may take in: the text (decompressed) read from each
	// file of an edge-list directory, an OGB data set, Peptides or MalNet-Tiny, and the
	// estimated memory of a generated data set (a planted-partition graph,
	// PlantedPartitionBytes; PATTERN or CLUSTER graphs, SBMOptions.MaxBytes). A longer
	// file, a stream that goes on, or a larger graph is refused with an error naming the
	// file or size and the bound. 0 means DefaultMaxBytes; callers that know their memory
	// budget pass a fraction of it.
	MaxBytes int64
	// Workers is the number of goroutines that preprocess the data (the superpixels of
	// MNIST and CIFAR10, the molecules of Peptides, the graphs of MalNet-Tiny); 0 means
	// GOMAXPROCS. The result does not depend on it.
	Workers int
	// Fetch, when set, lets Load download the missing files of a named data set (see
	// Fetch) before loading it; nil, the default, never touches the network.
	Fetch *FetchOptions
	// SplitFile, when set, makes Load replace the data set's split with the fixed one in
	// this file (ReadSplitFile): indices of the nodes of a transductive set as loaded
	// (with AllNodes, as PyTorch Geometric numbers them), of the graphs of another.
	SplitFile string
}

// DatasetInfo describes a data set Load knows by name.
type DatasetInfo struct {
	Name, Description string
	// Files lists where Load looks for the data, relative to the data root (the first
	// found is used); empty for generated data sets and for those Load cannot read.
	Files []string
	// Sources lists the files Fetch can download for the data set (with their canonical
	// URLs and checksums); empty when there is nothing to fetch.
	Sources []RemoteFile
}

// datasetEntry is one row of the registry.
type datasetEntry struct {
	DatasetInfo
	// cache marks data sets slow enough to build that Load keeps them in the cache.
	cache bool
	// load builds the data set from the file found (empty when Files is); Load names
	// the data set after the row.
	load Loader
}

// registry lists the data sets Load knows by name; adding one is adding a row.
func registry() []datasetEntry {
	info := func(name, desc string, files ...string) DatasetInfo {
		return DatasetInfo{Name: name, Description: desc, Files: files, Sources: remoteSources(name)}
	}
	return []datasetEntry{
		{info("pattern", "PATTERN: SBM graphs with a planted pattern, node classification (generated)"),
			false, func(_ string, o LoadOptions) (*Dataset, error) { return GeneratePATTERN(o.sbm()) }},
		{info("cluster", "CLUSTER: SBM graphs of 6 communities, node classification (generated)"),
			false, func(_ string, o LoadOptions) (*Dataset, error) { return GenerateCLUSTER(o.sbm()) }},
		{info("computers", "Amazon Computers co-purchase graph, largest component, random 60/20/20 split",
			"gnn-benchmark/amazon-computers.zip", "gnn-benchmark/amazon_electronics_computers.npz"),
			false, LoadGNNBenchmark},
		{info("photo", "Amazon Photo co-purchase graph, largest component, random 60/20/20 split",
			"gnn-benchmark/amazon-photo.zip", "gnn-benchmark/amazon_electronics_photo.npz"),
			false, LoadGNNBenchmark},
		{info("cs", "Coauthor CS co-authorship graph, largest component, random 60/20/20 split",
			"gnn-benchmark/coauthor-cs.zip", "gnn-benchmark/ms_academic_cs.npz"),
			false, LoadGNNBenchmark},
		{info("physics", "Coauthor Physics co-authorship graph, largest component, random 60/20/20 split",
			"gnn-benchmark/coauthor-physics.zip", "gnn-benchmark/ms_academic_phy.npz"),
			false, LoadGNNBenchmark},
		{info("cora", "Cora citation graph (gnn-benchmark npz), largest component, random 60/20/20 split",
			"gnn-benchmark/cora.npz"),
			false, LoadGNNBenchmark},
		{info("citeseer", "CiteSeer citation graph (gnn-benchmark npz), largest component, random 60/20/20 split",
			"gnn-benchmark/citeseer.npz"),
			false, LoadGNNBenchmark},
		{info("peptides-func", "LRGB Peptides-func molecules, graph multi-label classification (10 labels, AP), official split",
			"peptides-func"),
			true, LoadPeptidesFunc},
		{info("mnist", "MNIST superpixel graphs (SLIC, ≤75 nodes, 8-NN), graph classification, 55k/5k/10k split",
			"mnist"),
			true, LoadMNISTSuperpixels},
		{info("cifar10", "CIFAR10 superpixel graphs (SLIC in Lab, ≤150 nodes, 8-NN), graph classification, 45k/5k/10k split",
			"cifar10", CIFAR10BatchDir, CIFAR10Archive),
			true, LoadCIFAR10Superpixels},
		{info("peptides-struct", "LRGB Peptides-struct molecules, graph regression (11 standardised targets, MAE), official split",
			"peptides-struct"),
			true, LoadPeptidesStruct},
		{info("malnet-tiny", "MalNet-Tiny function call graphs, graph classification (5 types), degree-profile features, official split",
			"malnet-tiny"),
			true, LoadMalNetTiny},
		{info("pascalvoc-sp", "LRGB PascalVOC-SP superpixels, node classification (21 classes, F1): shipped as pickles, not readable; see the error for converting"),
			false, unsupportedLRGB("pascalvoc-sp", "PascalVOC-SP", "voc_superpixels_edge_wt_region_boundary.zip", true)},
		{info("coco-sp", "LRGB COCO-SP superpixels, node classification (81 classes, F1): shipped as pickles, not readable; see the error for converting"),
			false, unsupportedLRGB("coco-sp", "COCO-SP", "coco_superpixels_edge_wt_region_boundary.zip", true)},
		{info("pcqm-contact", "LRGB PCQM-Contact molecules, link ranking: shipped as pickles, and link tasks are not supported"),
			false, unsupportedLRGB("pcqm-contact", "PCQM-Contact", "pcqm4m-v2-contact processed .pt files", false)},
		{info("ogbn-arxiv", "ogbn-arxiv citation graph (OGB layout), undirected, official time split",
			"ogbn-arxiv", "ogbn_arxiv"),
			true, LoadOGBNode},
		{info("ogbn-products", "ogbn-products co-purchase graph (OGB layout, 2.4 M nodes), undirected, official sales-rank split",
			"ogbn-products", "ogbn_products"),
			true, LoadOGBNode},
	}
}

// ErrUnsupportedFormat is wrapped by the errors of data sets whose only distribution
// is in a format gexph does not read (Python pickles).
var ErrUnsupportedFormat = errors.New("data set format not supported")

// ErrTooLarge marks a file or a generated data set refused for exceeding
// LoadOptions.MaxBytes (see there), before it was read or generated in full.
var ErrTooLarge = errors.New("the bound LoadOptions.MaxBytes")

// unsupportedLRGB returns the loader of an LRGB data set distributed only as pickled
// PyTorch objects: an error saying so and how to convert it.
func unsupportedLRGB(name, title, files string, nodeTask bool) Loader {
	return func(string, LoadOptions) (*Dataset, error) {
		how := "its link-ranking targets have no place in the formats gexph reads (edgelist:DIR holds node " +
			"classification data), so it cannot be converted yet"
		if nodeTask {
			how = "convert it once with Python into an edgelist directory and load that as edgelist:DIR: " +
				"nodes.csv (per node: its class, then its features), edges.csv (per edge: the two node indices, " +
				"then its features) and train.csv, val.csv, test.csv (node indices), placing the graphs side by " +
				"side as one graph on disjoint node ranges (see the package documentation)"
		}
		return nil, fmt.Errorf("%s: LRGB distributes %s only as pickled PyTorch objects (%s), which gexph never "+
			"unpickles since unpickling runs arbitrary code; %s: %w", name, title, files, how, ErrUnsupportedFormat)
	}
}

func (o LoadOptions) sbm() SBMOptions {
	return SBMOptions{Seed: o.Seed, Train: o.TrainGraphs, Val: o.ValGraphs, Test: o.TestGraphs, MaxBytes: o.MaxBytes}
}

// KnownDatasets lists the data sets Load knows by name.
func KnownDatasets() []DatasetInfo {
	var out []DatasetInfo
	for _, e := range registry() {
		out = append(out, e.DatasetInfo)
	}
	return out
}

// AbsoluteSpec returns the Load spec that names the same data from any working
// directory: the path of npz:, ogb:, edgelist: and export: made absolute, a name in lower
// case, anything else as it is. A checkpoint records it, so that eval and predict load
// the run's data again without being told.
func AbsoluteSpec(spec string) string {
	k, arg, ok := KindOf(spec)
	switch {
	case ok:
		return absolutePath(k, arg)
	case !strings.Contains(spec, ":"):
		return strings.ToLower(spec)
	}
	return spec
}

// Load loads the data set named by spec: a registered name (see KnownDatasets), whose
// files are looked up under the data root and which takes that name, or "npz:PATH" (a
// .npz or .zip in the gnn-benchmark layout, read as given: see LoadNPZ),
// "ogb:DIR" (an OGB node property directory), "edgelist:DIR" (see LoadEdgeListDir),
// "export:DIR" (a data set written by Export, or by PyG in its layout; see LoadExport) or
// "planted:N" (a generated planted-partition graph of N nodes with
// DefaultPlantedPartitionOptions and opts.Seed, the scaling experiments' graph).
// Data sets that are slow to build are kept in the cache, keyed by the contents of
// their files and the options (see CacheKey). opts.SplitFile then replaces the split.
func Load(spec string, opts LoadOptions) (*Dataset, error) {
	d, err := load(spec, opts)
	if err != nil || opts.SplitFile == "" {
		return d, err
	}
	if err := useSplitFile(d, opts.SplitFile); err != nil {
		return nil, fmt.Errorf("data set %q: %w", spec, err)
	}
	return d, nil
}

// load is Load before the split file.
func load(spec string, opts LoadOptions) (*Dataset, error) {
	if err := checkTransforms(spec, opts); err != nil {
		return nil, err
	}
	if kind, _, found := strings.Cut(spec, ":"); found {
		k, arg, ok := KindOf(spec)
		if !ok {
			return nil, fmt.Errorf("data set %q: unknown kind %q (want %s)", spec, kind, SpecKindsText())
		}
		return k.load(arg, opts)
	}
	name := strings.ToLower(spec)
	entries := registry()
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
		if e.Name != name {
			continue
		}
		d, err := e.loadFound(opts)
		if err != nil {
			return nil, err
		}
		d.Name = e.Name
		return d, nil
	}
	return nil, fmt.Errorf("unknown data set %q; known: %s; or give %s",
		spec, strings.Join(names, ", "), SpecKindsText())
}

// loadFound loads the row's data set: generated, or from the first of its files found
// under the data root (fetched first when opts.Fetch asks), through the cache when the
// row says.
func (e datasetEntry) loadFound(opts LoadOptions) (*Dataset, error) {
	if len(e.Files) == 0 {
		return e.load("", opts)
	}
	if opts.Fetch != nil && len(e.Sources) > 0 {
		if err := fetchMissing(e.Name, e.Sources, opts); err != nil {
			return nil, err
		}
	}
	path, err := findDataFile(e.Name, e.Files, opts)
	if err != nil {
		return nil, err
	}
	return loadCached(e.Name, path, e.cache, opts, func() (*Dataset, error) { return e.load(path, opts) })
}

// checkTransforms refuses opts.BinaryFeatures and opts.LargestComponent for a data set
// they do not apply to (one that is neither npz:PATH, edgelist:DIR nor a gnn-benchmark
// set known by name, which applies both anyway), rather than ignoring them.
func checkTransforms(spec string, opts LoadOptions) error {
	if opts.NormalizeFeatures && !isGNNBenchmark(spec) {
		return fmt.Errorf("data set %q: LoadOptions.NormalizeFeatures (config normalize_features) applies to npz:PATH data and the gnn-benchmark sets known by name only", spec)
	}
	if !opts.BinaryFeatures && !opts.LargestComponent {
		return nil
	}
	if k, _, ok := KindOf(spec); ok && k.Transforms {
		return nil
	}
	for _, e := range registry() {
		if !strings.Contains(spec, ":") && e.Name == strings.ToLower(spec) && e.gnnBenchmark() {
			return nil
		}
	}
	return fmt.Errorf("data set %q: LoadOptions.BinaryFeatures and LargestComponent (-binary-features, -largest-component; config binary_features, largest_component) apply to npz:PATH and edgelist:DIR data only", spec)
}

// isGNNBenchmark tells whether spec loads a gnn-benchmark npz file: npz:PATH or a set
// known by name that is one.
func isGNNBenchmark(spec string) bool {
	if strings.Contains(spec, ":") {
		k, _, ok := KindOf(spec)
		return ok && k.GNNBenchmark
	}
	for _, e := range registry() {
		if e.Name == strings.ToLower(spec) && e.gnnBenchmark() {
			return true
		}
	}
	return false
}

// gnnBenchmark tells whether the entry is a gnn-benchmark npz set (LoadGNNBenchmark).
func (e datasetEntry) gnnBenchmark() bool {
	return len(e.Files) > 0 && strings.HasPrefix(e.Files[0], "gnn-benchmark/")
}

// Generated tells whether spec names a data set that Load generates from the seed
// (PATTERN, CLUSTER, planted:N), so that another seed draws fresh graphs of the same
// distribution, rather than one it reads from files, where the seed draws only a split.
func Generated(spec string) bool {
	if strings.Contains(spec, ":") {
		k, _, ok := KindOf(spec)
		return ok && k.Generated
	}
	for _, e := range registry() {
		if e.Name == strings.ToLower(spec) {
			return len(e.Files) == 0
		}
	}
	return false
}

// loadCached runs load through the cache when cache is set and the options allow it. The
// key's slot covers the name, the options and the names and sizes of the files under
// path; its content hash, their bytes (fileStamp).
func loadCached(name, path string, cache bool, opts LoadOptions, load func() (*Dataset, error)) (*Dataset, error) {
	if !cache || opts.NoCache {
		return load()
	}
	dir := opts.CacheDir
	if dir == "" {
		var err error
		if dir, err = DefaultCacheDir(); err != nil {
			return load() // no cache directory: build without caching
		}
	}
	layout, content, err := fileStamp(path)
	if err != nil {
		return nil, err
	}
	options := fmt.Sprintf("%d %d %d %d %+v", opts.Seed, opts.TrainGraphs, opts.ValGraphs, opts.TestGraphs, opts.Transforms)
	return Cached(dir, CacheKey(name, content, layout, options), load)
}

// fileStamp describes the regular files under path (path itself when it is a file):
// layout lists each one's name relative to path and its size, content is the SHA-256 of
// their bytes in that order. Neither depends on where path lies or on the files' times,
// so the same files staged again, copied or moved hit the same cache entry, and an
// edited file misses it.
func fileStamp(path string) (layout, content string, err error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs) // a linked data directory is walked too
	}
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", path, err)
	}
	var b strings.Builder
	h := sha256.New()
	err = filepath.WalkDir(abs, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(abs, p)
		if err != nil {
			return err
		}
		f, _, err := regfile.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		n, err := io.Copy(h, f)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "\x00%s %d", filepath.ToSlash(rel), n)
		return nil
	})
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", path, err)
	}
	return b.String(), hex.EncodeToString(h.Sum(nil)), nil
}

// DataRoots returns the directories searched for data files, in order: opts.DataDir if
// set, else $GEXPH_DATA if set, else ../shared/data relative to the working directory,
// to the module root above it (the nearest directory holding go.mod), and to the module
// root above the running program (a gexph binary built in the module's build/ finds
// the data from any working directory).
func DataRoots(opts LoadOptions) []string {
	if opts.DataDir != "" {
		return []string{opts.DataDir}
	}
	if dir := os.Getenv("GEXPH_DATA"); dir != "" {
		return []string{dir}
	}
	var roots []string
	add := func(r string) {
		if !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	moduleRoot := func(from string) {
		if dir, ok := modroot.SharedData(from); ok {
			add(dir)
		}
	}
	if wd, err := os.Getwd(); err == nil {
		add(filepath.Join(wd, "..", "shared", "data"))
		moduleRoot(wd)
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			moduleRoot(filepath.Dir(exe))
		}
	}
	return roots
}

// findDataFile returns the first of the candidate files found under a data root.
func findDataFile(name string, files []string, opts LoadOptions) (string, error) {
	var tried []string
	for _, root := range DataRoots(opts) {
		for _, f := range files {
			p := filepath.Join(root, f)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("data set %q: %w", name, err)
			}
			tried = append(tried, p)
		}
	}
	return "", fmt.Errorf("data set %q: not found (looked for %s); put the file there, give the data root with -data-dir (the gexph command), $GEXPH_DATA or LoadOptions.DataDir (Go), load the file by path, or download it with gexph data -fetch %s (or -fetch-missing)",
		name, strings.Join(tried, ", "), name)
}
