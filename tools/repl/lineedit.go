package repl

import (
	"bufio"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/chzyer/readline"
)

// startImports are imported at the start of an interactive session, so that the
// common packages are at hand; importing one of them again is accepted and ignored.
var startImports = []string{
	"context", "fmt", "math", "math/rand/v2", "os", "sort", "strings", "time",
	"gonum.org/v1/gonum/mat",
	"github.com/gexph/gexph/data", "github.com/gexph/gexph/expander", "github.com/gexph/gexph/gexph",
	"github.com/gexph/gexph/plots", "github.com/gexph/gexph/spectral",
}

// lineReader reads the lines of an interactive session.
type lineReader interface {
	// ReadLine shows prompt and returns the next line; io.EOF ends the session and
	// errInterrupted drops the statement being typed.
	ReadLine(prompt string) (string, error)
	Close() error
}

// errInterrupted is returned by a lineReader for Ctrl-C at the prompt.
var errInterrupted = errors.New("interrupted")

// plainReader reads lines from a reader that is not a terminal.
type plainReader struct {
	out  io.Writer
	scan *bufio.Scanner
}

func (p *plainReader) ReadLine(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	if !p.scan.Scan() {
		if err := p.scan.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return p.scan.Text(), nil
}

func (p *plainReader) Close() error { return nil }

// editReader reads lines with line editing, a history kept across sessions, and
// completion of package members (Tab).
type editReader struct {
	rl *readline.Instance
}

func newEditReader(in io.ReadCloser, out io.Writer, completer readline.AutoCompleter) (*editReader, error) {
	cfg := &readline.Config{
		Prompt: "> ", AutoComplete: completer, InterruptPrompt: "^C", EOFPrompt: "",
		HistorySearchFold: true, Stdin: in, Stdout: out,
	}
	if dir, err := os.UserCacheDir(); err == nil {
		if err := os.MkdirAll(filepath.Join(dir, "gexph"), 0o755); err == nil {
			cfg.HistoryFile = filepath.Join(dir, "gexph", "repl_history")
		}
	}
	rl, err := readline.NewEx(cfg)
	if err != nil {
		return nil, err
	}
	return &editReader{rl: rl}, nil
}

func (e *editReader) ReadLine(prompt string) (string, error) {
	e.rl.SetPrompt(prompt)
	line, err := e.rl.Readline()
	if err == readline.ErrInterrupt {
		return "", errInterrupted
	}
	return line, err
}

func (e *editReader) Close() error { return e.rl.Close() }

// completer completes "pkg.Prefix" with the members of the packages the interpreter
// knows (the standard library and gexph's tables), and a bare prefix with package
// names.
type completer struct {
	members map[string][]string // package name → sorted member names
	names   []string            // sorted package names
}

func newCompleter(tables ...map[string]map[string]reflect.Value) *completer {
	c := &completer{members: map[string][]string{}}
	for _, table := range tables {
		for key, syms := range table {
			// Keys are "import/path/name" (the last element is the package name).
			dir, name := path.Split(key)
			if name == "" || dir == "" {
				continue
			}
			if _, seen := c.members[name]; !seen {
				c.names = append(c.names, name)
			}
			for m := range syms {
				c.members[name] = append(c.members[name], m)
			}
		}
	}
	for _, ms := range c.members {
		sort.Strings(ms)
	}
	sort.Strings(c.names)
	return c
}

// Do implements readline.AutoCompleter.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	start := pos
	for start > 0 && (line[start-1] == '.' || line[start-1] == '_' || unicode.IsLetter(line[start-1]) || unicode.IsDigit(line[start-1])) {
		start--
	}
	word := string(line[start:pos])
	pkg, prefix, dotted := strings.Cut(word, ".")
	candidates := c.names
	if dotted {
		candidates = c.members[pkg]
	} else {
		prefix = pkg
	}
	var out [][]rune
	for _, cand := range candidates {
		if strings.HasPrefix(cand, prefix) && !strings.Contains(cand, "_") {
			out = append(out, []rune(cand[len(prefix):]))
		}
	}
	return out, len([]rune(prefix))
}

// importsOnly returns the import specs of chunk when it holds import declarations
// only, keyed as "name path" (name empty for a plain import), or nil.
func importsOnly(chunk string) []string {
	if firstToken(chunk) != token.IMPORT {
		return nil
	}
	_, file, _, err := parseChunk(chunk)
	if err != nil {
		return nil
	}
	var specs []string
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			return nil
		}
		for _, s := range g.Specs {
			is := s.(*ast.ImportSpec)
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return nil
			}
			name := ""
			if is.Name != nil {
				name = is.Name.Name
			}
			specs = append(specs, name+" "+p)
		}
	}
	return specs
}

// importSource writes the import declaration of specs ("name path").
func importSource(specs []string) string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, s := range specs {
		name, p, _ := strings.Cut(s, " ")
		fmt.Fprintf(&b, "\t%s %q\n", name, p)
	}
	b.WriteString(")\n")
	return b.String()
}
