package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gexph/gexph/data"
	"github.com/gexph/gexph/internal/sysinfo"
)

// dataFlags are the data-set flags shared by `gexph data`, `train`, `eval`, `predict`
// and `compare`.
type dataFlags struct {
	spec             *string
	dir, cache       *string
	noCache          *bool
	train, val, test *int
	// binary and largest ask for transforms of data loaded by path.
	binary, largest *bool
	// fetchMissing, mirror and trustNew opt in to downloading missing data (see
	// data.FetchOptions).
	fetchMissing, trustNew *bool
	mirror                 *string
}

func addDataFlags(fs interface {
	String(string, string, string) *string
	Int(string, int, string) *int
	Bool(string, bool, string) *bool
}, defaultSpec string) dataFlags {
	return dataFlags{
		spec:    fs.String("dataset", defaultSpec, "data set: a name ("+knownNames()+"), or "+data.SpecKindsText()),
		dir:     fs.String("data-dir", "", "data root (default $GEXPH_DATA, else ../shared/data)"),
		cache:   fs.String("cache-dir", "", "cache of preprocessed data sets (default $GEXPH_CACHE, else the user cache dir)"),
		noCache: fs.Bool("no-cache", false, "neither read nor write the cache"),
		train:   fs.Int("train-graphs", 0, "generated and superpixel data sets: training graphs (0 = full size)"),
		val:     fs.Int("val-graphs", 0, "generated and superpixel data sets: validation graphs (0 = full size)"),
		test:    fs.Int("test-graphs", 0, "generated and superpixel data sets: test graphs (0 = full size)"),
		binary:  fs.Bool("binary-features", false, "npz:PATH, edgelist:DIR: set every positive node feature to 1, as PyG reads the gnn-benchmark files (the sets known by name always are)"),
		largest: fs.Bool("largest-component", false, "npz:PATH, edgelist:DIR: keep only the largest connected component, like PyG's T.LargestConnectedComponents() (the gnn-benchmark sets known by name always do, unless all_nodes); predictions keep the original node ids"),
		fetchMissing: fs.Bool("fetch-missing", false, "download a named data set's missing files into the data root before loading "+
			"(also with $GEXPH_FETCH=1; off by default: gexph never touches the network otherwise)"),
		mirror:   fs.String("mirror", "", "fetch from this base URL serving the data root's layout (a copy of ../shared/data) instead of the canonical URLs"),
		trustNew: fs.Bool("trust-new", false, "fetch files whose SHA-256 gexph does not pin, recording the first download's checksum in FILE.sha256 and verifying later downloads against it"),
	}
}

// options returns the load options the flags give, drawing splits from seed; what
// looks wrong in the data is printed on warnings (the command's standard error).
func (f dataFlags) options(seed uint64, warnings io.Writer) data.LoadOptions {
	return data.LoadOptions{
		DataDir: *f.dir, CacheDir: *f.cache, NoCache: *f.noCache, Seed: seed,
		TrainGraphs: *f.train, ValGraphs: *f.val, TestGraphs: *f.test,
		BinaryFeatures: *f.binary, LargestComponent: *f.largest,
		MaxBytes: loadBound(sysinfo.MemoryBudget()),
		Warn:     func(msg string) { fmt.Fprintf(warnings, "warning: %s\n", msg) },
		Fetch:    f.fetchOptions(*f.fetchMissing || os.Getenv("GEXPH_FETCH") == "1", warnings),
	}
}

// fetchOptions returns the fetch options of the flags, or nil when fetching is off.
func (f dataFlags) fetchOptions(on bool, progress io.Writer) *data.FetchOptions {
	if !on {
		return nil
	}
	return &data.FetchOptions{Mirror: *f.mirror, TrustNew: *f.trustNew, Progress: progress}
}

// loadBound returns the data.LoadOptions.MaxBytes of a process with the given memory
// budget: half of it (a file's text takes about as much memory again once parsed), or
// 0 (the default) when the budget is unknown.
func loadBound(b sysinfo.Budget) int64 { return b.Bytes / 2 }

// transformsText lists the transforms a loader applied, or says the data is as read.
func transformsText(t []string) string {
	if len(t) == 0 {
		return "none (the data as read)"
	}
	return strings.Join(t, ", ")
}

func knownNames() string {
	var names []string
	for _, d := range data.KnownDatasets() {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// dataReport is the -json output of `gexph data`.
type dataReport struct {
	data.Stats
	Spec    string  `json:"spec"`
	Seconds float64 `json:"seconds"`
	// Export is the directory the data set was exported to, if any.
	Export string `json:"export,omitempty"`
}

func runData(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data", "-dataset "+specUsage()+" [-seed S] [-export DIR] [-json]\n       gexph data -fetch NAME|all [-mirror BASE_URL] [-trust-new] [-data-dir DIR]", stderr)
	df := addDataFlags(fs, "")
	seed := fs.Uint64("seed", 1, "seed of random splits and generated data sets")
	export := fs.String("export", "", "also write the data set, as gexph trains on it with the same -seed and split sizes, to this directory: meta.json and one .npz per split (PyG's layout; tools/pyg/load_export.py reads it)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	list := fs.Bool("list", false, "list the data sets known by name")
	fetch := fs.String("fetch", "", "download the files of a named data set (or all) into the data root, verified by SHA-256, and exit; see -mirror and -trust-new")
	if err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	if *list {
		for _, d := range data.KnownDatasets() {
			fmt.Fprintf(stdout, "%-14s %s\n", d.Name, d.Description)
		}
		return nil
	}
	if *fetch != "" {
		return runFetch(*fetch, df, stdout, stderr)
	}
	if *df.spec == "" {
		return fmt.Errorf("-dataset is required (known: %s)", knownNames())
	}
	start := time.Now()
	ds, err := data.Load(*df.spec, df.options(*seed, stderr))
	if err != nil {
		return err
	}
	rep := dataReport{Stats: ds.Stats(), Spec: *df.spec, Seconds: time.Since(start).Seconds()}
	if *export != "" {
		lo := df.options(*seed, stderr)
		opts := map[string]any{"train_graphs": lo.TrainGraphs, "val_graphs": lo.ValGraphs, "test_graphs": lo.TestGraphs}
		if _, err := data.Export(ds, *export, data.ExportInfo{Spec: *df.spec, Seed: *seed, Options: opts}); err != nil {
			return err
		}
		rep.Export = *export
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	s := &rep.Stats
	fmt.Fprintf(stdout, "data set   %s (%s)\n", s.Name, s.Task)
	fmt.Fprintf(stdout, "graphs     %d\n", s.Graphs)
	fmt.Fprintf(stdout, "nodes      %d (%.1f per graph)\n", s.Nodes, s.AvgNodes)
	fmt.Fprintf(stdout, "edges      %d stored, %d undirected (%.1f undirected per graph)\n", s.Edges, s.EdgesUndirected, s.AvgEdges)
	fmt.Fprintf(stdout, "features   %d per node, %d per edge\n", s.Features, s.EdgeFeatures)
	if s.Unlabelled {
		fmt.Fprintf(stdout, "classes    none: unlabelled (to predict on)\n")
	} else {
		fmt.Fprintf(stdout, "classes    %d\n", s.Classes)
	}
	unit := "graphs"
	if ds.Transductive {
		unit = "nodes"
	}
	fmt.Fprintf(stdout, "split      %d / %d / %d %s (train / val / test)\n", s.Train, s.Val, s.Test, unit)
	fmt.Fprintf(stdout, "transforms %s\n", transformsText(s.Transforms))
	for i, what := range s.Inferred {
		label := "inferred  "
		if i > 0 {
			label = "          "
		}
		fmt.Fprintf(stdout, "%s %s\n", label, what)
	}
	fmt.Fprintf(stdout, "seconds    %.3f\n", rep.Seconds)
	if rep.Export != "" {
		fmt.Fprintf(stdout, "exported   %s (meta.json and .npz arrays; python3 tools/pyg/load_export.py %s loads it in PyG)\n", rep.Export, rep.Export)
	}
	return nil
}

// runFetch downloads the files of the named data set, or of every data set with files
// to fetch ("all"), and reports each file; with "all" it goes on past a data set that
// fails and returns every error at the end.
func runFetch(name string, df dataFlags, stdout, stderr io.Writer) error {
	lo := df.options(0, stderr)
	root, err := data.FetchRoot(lo)
	if err != nil {
		return err
	}
	names := []string{name}
	if name == "all" {
		names = nil
		for _, d := range data.KnownDatasets() {
			if len(d.Sources) > 0 {
				names = append(names, d.Name)
			}
		}
	}
	fmt.Fprintf(stdout, "fetching into %s; files without a pinned SHA-256 %s\n", root, trustPolicy(*df.trustNew))
	var errs []error
	for _, n := range names {
		res, err := data.Fetch(n, lo, *df.fetchOptions(true, stderr))
		for _, r := range res {
			fmt.Fprintln(stdout, fetchLine(r))
		}
		if err != nil {
			errs = append(errs, err)
			fmt.Fprintf(stdout, "%-16s FAILED (see below)\n", n)
		}
	}
	return errors.Join(errs...)
}

// trustPolicy says what -fetch does with a file whose checksum gexph does not pin.
func trustPolicy(trustNew bool) string {
	if trustNew {
		return "are downloaded (-trust-new) and the first download's checksum is recorded in FILE.sha256; later downloads must match it"
	}
	return "are refused (give -trust-new to download them and record the first download's checksum)"
}

// fetchLine describes one file Fetch handled.
func fetchLine(r data.FetchResult) string {
	switch {
	case r.From == "":
		return fmt.Sprintf("in place   %s", r.Dest)
	case r.Recorded:
		return fmt.Sprintf("fetched    %s from %s (sha256 %s recorded: not pinned by gexph)", r.Dest, r.From, r.SHA256)
	}
	return fmt.Sprintf("fetched    %s from %s (sha256 %s verified)", r.Dest, r.From, r.SHA256)
}

// specUsage is a usage line's choice of data sets: NAME|npz:PATH|… (data.SpecKinds).
func specUsage() string {
	parts := []string{"NAME"}
	for _, k := range data.SpecKinds() {
		parts = append(parts, k.Prefix+":"+k.Arg)
	}
	return strings.Join(parts, "|")
}
