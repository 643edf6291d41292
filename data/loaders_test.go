package data

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// exportedLoaders lists every exported Load* function of the package. Each entry is a
// Loader, so the table does not compile when one takes another signature, and
// TestEveryExportedLoadFuncIsALoader fails when a Load* function is missing from it.
var exportedLoaders = map[string]Loader{
	"Load":                   Load,
	"LoadNPZ":                LoadNPZ,
	"LoadGNNBenchmark":       LoadGNNBenchmark,
	"LoadEdgeListDir":        LoadEdgeListDir,
	"LoadOGBNode":            LoadOGBNode,
	"LoadExport":             LoadExport,
	"LoadPeptidesFunc":       LoadPeptidesFunc,
	"LoadPeptidesStruct":     LoadPeptidesStruct,
	"LoadMNISTSuperpixels":   LoadMNISTSuperpixels,
	"LoadCIFAR10Superpixels": LoadCIFAR10Superpixels,
	"LoadMalNetTiny":         LoadMalNetTiny,
}

// loaderSignature is Loader's signature as loadFuncSignatures prints it.
const loaderSignature = "(string, LoadOptions) (*Dataset, error)"

// loadFuncSignatures returns the exported functions (not methods) of the Go source
// files whose names start with "Load", with their signatures written without parameter
// names.
func loadFuncSignatures(fset *token.FileSet, files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || !strings.HasPrefix(fn.Name.Name, "Load") {
				continue
			}
			out[fn.Name.Name] = fmt.Sprintf("(%s) (%s)", fieldTypes(fn.Type.Params), fieldTypes(fn.Type.Results))
		}
	}
	return out
}

// fieldTypes lists the types of a parameter or result list, one per parameter.
func fieldTypes(fields *ast.FieldList) string {
	var parts []string
	if fields == nil {
		return ""
	}
	for _, f := range fields.List {
		for range max(len(f.Names), 1) {
			parts = append(parts, types.ExprString(f.Type))
		}
	}
	return strings.Join(parts, ", ")
}

// parsePackage parses the non-test Go files of the package's directory.
func parsePackage(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// wrongLoaders names the functions of sigs whose signature is not Loader's, or that are
// missing from exportedLoaders.
func wrongLoaders(sigs map[string]string) []string {
	var bad []string
	for name, sig := range sigs {
		if _, listed := exportedLoaders[name]; sig != loaderSignature || !listed {
			bad = append(bad, fmt.Sprintf("%s%s (listed in exportedLoaders: %v)", name, sig, listed))
		}
	}
	slices.Sort(bad)
	return bad
}

// TestEveryExportedLoadFuncIsALoader scans the package's source: every exported
// function named Load… takes (path string, opts LoadOptions) and returns (*Dataset,
// error), and exportedLoaders lists it; and the table lists no function that is gone.
func TestEveryExportedLoadFuncIsALoader(t *testing.T) {
	fset, files := parsePackage(t)
	sigs := loadFuncSignatures(fset, files)
	if len(sigs) < len(exportedLoaders) {
		t.Errorf("the scan found %d Load functions, the table lists %d: %v", len(sigs), len(exportedLoaders), sigs)
	}
	for _, bad := range wrongLoaders(sigs) {
		t.Errorf("%s: every exported Load function is a Loader, func(path string, opts LoadOptions) (*Dataset, error), and listed in exportedLoaders", bad)
	}
	for name := range exportedLoaders {
		if _, ok := sigs[name]; !ok {
			t.Errorf("exportedLoaders lists %s, which the package's source does not define", name)
		}
	}
}

// TestLoaderScanCatchesOtherSignatures feeds the scan a loader written the old way, a
// method and an unexported function: only the first is reported.
func TestLoaderScanCatchesOtherSignatures(t *testing.T) {
	src := `package data
func LoadNPZ(path string, opts LoadOptions) (*Dataset, error) { return nil, nil }
func LoadThing(dir string, seed uint64) (*Dataset, error) { return nil, nil }
func (d *Dataset) LoadMore(n int) error { return nil }
func loadInner(dir string) (*Dataset, error) { return nil, nil }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	bad := wrongLoaders(loadFuncSignatures(fset, []*ast.File{f}))
	want := []string{"LoadThing(string, uint64) (*Dataset, error) (listed in exportedLoaders: false)"}
	if !slices.Equal(bad, want) {
		t.Errorf("scan reports %q, want %q", bad, want)
	}
}

// TestLoadNamesASetAfterItsRow checks that Load names a set known by name by that name
// whatever its file is called, while LoadGNNBenchmark, reading the same file by path,
// names it after the file; the data are otherwise the same.
func TestLoadNamesASetAfterItsRow(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "gnn-benchmark", "amazon_electronics_computers.npz")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, zipBytes(false, tinyGNN()...), 0o644); err != nil {
		t.Fatal(err)
	}
	byName, err := Load("computers", LoadOptions{DataDir: root, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	byPath, err := LoadGNNBenchmark(path, LoadOptions{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if byName.Name != "computers" || byPath.Name != "amazon_electronics_computers" {
		t.Errorf("names %q by name and %q by path, want computers and amazon_electronics_computers", byName.Name, byPath.Name)
	}
	byPath.Name = byName.Name
	if !reflect.DeepEqual(byName, byPath) {
		t.Error("Load(computers) and LoadGNNBenchmark of its file differ beyond the name")
	}
}

// TestLoadersWorkersDoNotChangeTheResult loads Peptides-func, Peptides-struct and
// MalNet-Tiny on 1 and on 3 goroutines: the data sets are equal. A negative Workers is
// refused, naming the field.
func TestLoadersWorkersDoNotChangeTheResult(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  string
		load Loader
	}{
		{"peptides-func", writePeptides(t, tinyPeptides, tinySplit), LoadPeptidesFunc},
		{"peptides-struct", writePeptidesStruct(t, structCSV(func(i, k int) string { return strconv.FormatFloat(structValue(i, k), 'g', -1, 64) }, structMolecules), `{"train": [0, 3], "val": [1], "test": [2]}`), LoadPeptidesStruct},
		{"malnet-tiny", writeMalNet(t, tinyMalNetSplits, tinyMalNetGraphs), LoadMalNetTiny},
	} {
		one, err := tc.load(tc.dir, LoadOptions{Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		three, err := tc.load(tc.dir, LoadOptions{Workers: 3})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(one, three) {
			t.Errorf("%s: 1 and 3 workers give different data sets", tc.name)
		}
		if _, err := tc.load(tc.dir, LoadOptions{Workers: -1}); err == nil || !strings.Contains(err.Error(), "LoadOptions.Workers is -1") {
			t.Errorf("%s: Workers -1: %v, want an error naming the field", tc.name, err)
		}
	}
}

// TestLoadersHonourMaxBytes loads Peptides-func and MalNet-Tiny with MaxBytes below
// their files' sizes: each is refused with ErrTooLarge, naming the file; with the
// default bound they load.
func TestLoadersHonourMaxBytes(t *testing.T) {
	for _, tc := range []struct {
		name, dir, file string
		load            Loader
	}{
		{"peptides-func", writePeptides(t, tinyPeptides, tinySplit), PeptidesCSV, LoadPeptidesFunc},
		{"malnet-tiny", writeMalNet(t, tinyMalNetSplits, tinyMalNetGraphs), "train.txt", LoadMalNetTiny},
	} {
		if _, err := tc.load(tc.dir, LoadOptions{}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err := tc.load(tc.dir, LoadOptions{MaxBytes: 8})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tc.file) {
			t.Errorf("%s with MaxBytes 8: %v, want ErrTooLarge naming %s", tc.name, err, tc.file)
		}
	}
}
