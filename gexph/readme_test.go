package gexph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// exampleBody returns the statements of the function named fn in the Go file path as
// source, one tab of indentation removed, without the "// Output:" comment; and the
// file's import paths.
func exampleBody(t *testing.T, path, fn string) (body string, imports []string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range file.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		imports = append(imports, p)
	}
	for _, d := range file.Decls {
		f, ok := d.(*ast.FuncDecl)
		if !ok || f.Name.Name != fn {
			continue
		}
		text := string(src[fset.Position(f.Body.Lbrace).Offset+1 : fset.Position(f.Body.Rbrace).Offset])
		text, _, _ = strings.Cut(text, "\t// Output:")
		var lines []string
		for _, l := range strings.Split(strings.Trim(text, "\n"), "\n") {
			lines = append(lines, strings.TrimPrefix(l, "\t"))
		}
		return strings.TrimSpace(strings.Join(lines, "\n")), imports
	}
	t.Fatalf("%s has no function %s", path, fn)
	return "", nil
}

// readmeGoBlock returns the first ```go block after the heading in README.md.
func readmeGoBlock(t *testing.T, heading string) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no heading %q", heading)
	}
	_, block, ok := strings.Cut(section, "```go\n")
	if ok {
		block, _, ok = strings.Cut(block, "\n```")
	}
	if !ok {
		t.Fatalf("README.md's section %q has no ```go block", heading)
	}
	return block
}

func TestREADMEFromGoIsTheExample(t *testing.T) {
	body, imports := exampleBody(t, "example_test.go", "Example")
	block := readmeGoBlock(t, "## From Go")
	if !strings.Contains(block, body) {
		t.Errorf("README.md's \"From Go\" block is not Example's body (gexph/example_test.go): copy it over.\nExample:\n%s\n\nREADME:\n%s", body, block)
	}
	for _, p := range imports {
		if !strings.Contains(block, strconv.Quote(p)) {
			t.Errorf("README.md's \"From Go\" block does not import %q, which Example needs", p)
		}
	}
}
