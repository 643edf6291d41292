package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// networkFiles are the only non-test files of the module that may import a network
// package: the fetching of data sets (gexph data -fetch, LoadOptions.Fetch).
var networkFiles = []string{"data/fetch.go", "data/fetch_download.go"}

// TestOnlyFetchTouchesTheNetwork parses every non-test Go file of the module (outside
// third_party) and fails for one outside networkFiles that imports net, net/http or
// any package below them.
func TestOnlyFetchTouchesTheNetwork(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == "third_party" || strings.HasPrefix(d.Name(), ".")) && rel != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if (path == "net" || strings.HasPrefix(path, "net/")) && !slices.Contains(networkFiles, rel) {
				t.Errorf("%s imports %s: only %v may touch the network", rel, path, networkFiles)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
