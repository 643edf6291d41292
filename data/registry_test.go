package data

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadGenerated(t *testing.T) {
	opts := LoadOptions{Seed: 3, TrainGraphs: 10, ValGraphs: 2, TestGraphs: 3, NoCache: true}
	d, err := Load("PATTERN", opts)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := GeneratePATTERN(SBMOptions{Seed: 3, Train: 10, Val: 2, Test: 3})
	if !reflect.DeepEqual(d, want) {
		t.Error("Load(PATTERN) differs from GeneratePATTERN with the same options")
	}
	if d, err := Load("cluster", opts); err != nil || d.NumClasses != 6 || len(d.Graphs) != 15 {
		t.Errorf("cluster: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := Load("imagenet", LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `"imagenet"`) || !strings.Contains(err.Error(), "computers") || !strings.Contains(err.Error(), "npz:PATH") {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := Load("tar:x", LoadOptions{}); err == nil || !strings.Contains(err.Error(), `unknown kind "tar"`) {
		t.Errorf("unknown kind: %v", err)
	}
	root := t.TempDir()
	_, err = Load("computers", LoadOptions{DataDir: root})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "gnn-benchmark", "amazon-computers.zip")) || !strings.Contains(err.Error(), "GEXPH_DATA") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Load("npz:"+filepath.Join(root, "nope.npz"), LoadOptions{}); err == nil || !strings.Contains(err.Error(), "nope.npz") {
		t.Errorf("missing npz: %v", err)
	}
}

func TestLoadFromDataDirAndPaths(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "gnn-benchmark"), 0o755)
	os.WriteFile(filepath.Join(root, "gnn-benchmark", "cora.npz"), zipBytes(false, tinyGNN()...), 0o644)
	d, err := Load("cora", LoadOptions{DataDir: root, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "cora" || d.Graphs[0].NumNodes != 4 {
		t.Errorf("cora: name %q, %d nodes", d.Name, d.Graphs[0].NumNodes)
	}
	byPath, err := Load("npz:"+filepath.Join(root, "gnn-benchmark", "cora.npz"), LoadOptions{Seed: 4, BinaryFeatures: true, LargestComponent: true})
	if err != nil || !reflect.DeepEqual(byPath.Graphs, d.Graphs) || !reflect.DeepEqual(byPath.Split, d.Split) {
		t.Errorf("npz:PATH: %v", err)
	}
	if d, err := Load("edgelist:"+writeEdgeListDir(t, tinyEdgeList), LoadOptions{}); err != nil || d.Graphs[0].NumNodes != 4 {
		t.Errorf("edgelist:DIR: %v", err)
	}
}

func TestLoadOGBCached(t *testing.T) {
	dir := writeOGB(t, nil)
	cache := t.TempDir()
	opts := LoadOptions{CacheDir: cache}
	first, err := Load("ogb:"+dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(cache)
	if len(files) != 1 {
		t.Fatalf("cache holds %d files, want 1", len(files))
	}
	second, err := Load("ogb:"+dir, opts)
	if err != nil || !reflect.DeepEqual(first, second) {
		t.Fatalf("cached load differs: %v", err)
	}
	direct, _ := LoadOGBNode(dir, LoadOptions{})
	if !reflect.DeepEqual(direct, second) {
		t.Error("cached data set differs from a direct load")
	}
	// Changing a source file changes the key.
	os.WriteFile(filepath.Join(dir, "split", "time", "test.csv.gz"), gzipBytes("3\n\n"), 0o644)
	if _, err := Load("ogb:"+dir, opts); err != nil {
		t.Fatal(err)
	}
	if files, _ = os.ReadDir(cache); len(files) != 2 {
		t.Errorf("cache holds %d files after a source change, want 2", len(files))
	}
	noCache := t.TempDir()
	if _, err := Load("ogb:"+dir, LoadOptions{CacheDir: noCache, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	if files, _ = os.ReadDir(noCache); len(files) != 0 {
		t.Errorf("NoCache wrote %d files", len(files))
	}
}

func TestDataRoots(t *testing.T) {
	t.Setenv("GEXPH_DATA", "")
	if r := DataRoots(LoadOptions{DataDir: "/x"}); !reflect.DeepEqual(r, []string{"/x"}) {
		t.Errorf("DataDir: %v", r)
	}
	roots := DataRoots(LoadOptions{})
	wd, _ := os.Getwd()
	moduleRoot := filepath.Dir(wd) // this package lives one level below go.mod
	if len(roots) != 2 || roots[0] != filepath.Join(wd, "..", "shared", "data") || roots[1] != filepath.Join(moduleRoot, "..", "shared", "data") {
		t.Errorf("default roots %v", roots)
	}
	t.Setenv("GEXPH_DATA", "/env")
	if r := DataRoots(LoadOptions{}); !reflect.DeepEqual(r, []string{"/env"}) {
		t.Errorf("GEXPH_DATA: %v", r)
	}
}

func TestLoadComputersByName(t *testing.T) {
	sharedData(t, "gnn-benchmark/amazon-computers.zip")
	d, err := Load("computers", LoadOptions{DataDir: os.Getenv("GEXPH_DATA"), Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Stats(); s.Nodes != 13381 || s.EdgesUndirected != 245778 || s.Classes != 10 || s.Features != 767 {
		t.Errorf("stats %+v", s)
	}
}

func TestKnownDatasets(t *testing.T) {
	seen := map[string]bool{}
	for _, info := range KnownDatasets() {
		if seen[info.Name] || info.Description == "" || info.Name != strings.ToLower(info.Name) {
			t.Errorf("entry %+v: duplicate, undocumented or not lower case", info)
		}
		seen[info.Name] = true
	}
	// The paper's Table 1 data sets.
	for _, name := range []string{"pattern", "cluster", "computers", "photo", "cs", "physics", "ogbn-arxiv", "ogbn-products",
		"peptides-func", "peptides-struct", "mnist", "cifar10", "malnet-tiny", "pascalvoc-sp", "coco-sp", "pcqm-contact"} {
		if !seen[name] {
			t.Errorf("%s not registered", name)
		}
	}
}

func TestLoadMNISTCached(t *testing.T) {
	sharedData(t, "mnist/"+MNISTTestImages)
	opts := LoadOptions{TrainGraphs: 20, ValGraphs: 5, TestGraphs: 5, CacheDir: t.TempDir()}
	first, err := Load("mnist", opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Load("mnist", opts)
	if err != nil || !reflect.DeepEqual(first, second) {
		t.Fatalf("cached MNIST differs: %v", err)
	}
	if files, _ := os.ReadDir(opts.CacheDir); len(files) != 1 || len(first.Graphs) != 30 {
		t.Errorf("%d cache files, %d graphs", len(files), len(first.Graphs))
	}
}

func TestLoadPickleOnlyDatasets(t *testing.T) {
	for _, c := range []struct {
		name, want string
	}{
		{"pascalvoc-sp", "edgelist:DIR"},
		{"COCO-SP", "edgelist:DIR"},
		{"pcqm-contact", "cannot be converted"},
	} {
		_, err := Load(c.name, LoadOptions{DataDir: t.TempDir()})
		if !errors.Is(err, ErrUnsupportedFormat) {
			t.Errorf("%s: error %v does not wrap ErrUnsupportedFormat", c.name, err)
			continue
		}
		for _, w := range []string{strings.ToLower(c.name), "pickle", c.want} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
}
