package repl

import (
	"context"
	"fmt"
	"go/scanner"
	"go/token"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// packageIndex maps a package name to the import paths of the packages of that name in
// the interpreter's symbol tables, whose keys are "import/path/name".
func packageIndex(tables ...map[string]map[string]reflect.Value) map[string][]string {
	index := map[string][]string{}
	for _, table := range tables {
		for key := range table {
			dir, name := path.Split(key)
			if name != "" && dir != "" {
				index[name] = append(index[name], strings.TrimSuffix(dir, "/"))
			}
		}
	}
	for _, paths := range index {
		sort.Strings(paths)
	}
	return index
}

// nameOf returns the name that an import of path p binds: its last element, or the one
// before a major-version suffix ("math/rand/v2" binds rand).
func nameOf(p string) string {
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(p))
	}
	return base
}

// importStart imports those of startImports that src leaves free (see boundNames; all
// for an interactive session, src ""), each on its own so that one failure costs only
// its package, and returns the paths it imported.
func (s *session) importStart(src string) []string {
	taken := boundNames(src)
	var done []string
	for _, p := range startImports {
		name := nameOf(p)
		if taken[name] {
			continue
		}
		if _, err := s.eval(context.Background(), importSource([]string{" " + p}), 1); err == nil {
			s.bound[name] = true
			done = append(done, p)
		}
	}
	return done
}

// bindImports records the names that the import specs ("name path") bind.
func (s *session) bindImports(specs []string) {
	for _, sp := range specs {
		name, p, _ := strings.Cut(sp, " ")
		if name == "" {
			name = nameOf(p)
		}
		s.bound[name] = true
	}
}

// boundNames returns the names that src binds at its top level in a way a package of
// the same name imported beforehand would clash with: its imports (explicit names, or
// the package's last path element) and its func, type and const declarations. A
// script that binds such a name keeps it; the package of that name is not preimported.
func boundNames(src string) map[string]bool {
	toks := tokens(src)
	bound := map[string]bool{}
	for i := 0; i < len(toks); i++ {
		switch toks[i].tok {
		case token.FUNC, token.TYPE, token.CONST:
			if i+1 < len(toks) && toks[i+1].tok == token.IDENT {
				bound[toks[i+1].lit] = true
			}
		case token.IMPORT:
			i = importNames(toks, i+1, bound)
		}
	}
	return bound
}

// importNames reads the import specs of a declaration whose first token after "import"
// is toks[i], adds the names they bind to bound and returns the index of its last token.
func importNames(toks []tok, i int, bound map[string]bool) int {
	group := i < len(toks) && toks[i].tok == token.LPAREN
	if group {
		i++
	}
	name := ""
	for ; i < len(toks); i++ {
		switch t := toks[i]; t.tok {
		case token.IDENT, token.PERIOD:
			name = t.lit
		case token.STRING:
			if p, err := strconv.Unquote(t.lit); err == nil && name == "" {
				name = nameOf(p)
			}
			bound[name], name = true, ""
			if !group {
				return i
			}
		case token.RPAREN:
			return i
		}
	}
	return i
}

// missingImport names a package that chunk uses (as X.Name) and that is not imported:
// "strings is not imported: add import \"strings\"", or "".
func (s *session) missingImport(chunk string) string {
	toks := tokens(chunk)
	for i := 0; i+2 < len(toks); i++ {
		x := toks[i]
		if x.tok != token.IDENT || toks[i+1].tok != token.PERIOD || toks[i+2].tok != token.IDENT ||
			(i > 0 && toks[i-1].tok == token.PERIOD) || s.bound[x.lit] {
			continue
		}
		paths := s.packages[x.lit]
		if len(paths) == 0 {
			continue
		}
		quoted := make([]string, len(paths))
		for k, p := range paths {
			quoted[k] = strconv.Quote(p)
		}
		return fmt.Sprintf("%s is not imported: add import %s", x.lit, strings.Join(quoted, " or "))
	}
	return ""
}

// tok is one token of a source: its kind and literal text.
type tok struct {
	tok token.Token
	lit string
}

// tokens returns the tokens of src, comments and automatic semicolons left out; it
// stops at the first token the scanner cannot read.
func tokens(src string) []tok {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), func(token.Position, string) {}, 0)
	var out []tok
	for {
		_, t, lit := sc.Scan()
		switch {
		case t == token.EOF || t == token.ILLEGAL:
			return out
		case t == token.SEMICOLON && lit == "\n":
			continue
		case lit == "":
			lit = t.String()
		}
		out = append(out, tok{t, lit})
	}
}
