// Package repl runs Go code in the yaegi interpreter with the standard library, gonum's
// mat package and gexph's packages preloaded: the `gexph repl` command.
//
// Input is either a script (a file, or standard input when it is not a terminal) or an
// interactive session on a terminal. A script is a Go program (it starts with a package
// clause and has a main function) or a sequence of imports, declarations and statements,
// evaluated one complete statement at a time as in an interactive session, and starting
// with the same packages imported. Errors name the script line (and a package used
// without its import); a panic or an unsupported construct in the interpreted code ends a
// script with an error and, in an interactive session, is reported and the session goes
// on.
//
// The interpreter speaks roughly Go 1.21: range over integers or functions and the
// min, max and clear builtins are not available, and generic functions of compiled
// packages cannot be called (the packages export non-generic wrappers).
package repl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"os/signal"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gexph/gexph/tools/repl/symbols"
)

// ErrScript reports that a script stopped on an error; the error itself has already been
// written to the error stream with its line number.
var ErrScript = errors.New("script failed")

const usageText = `Usage: gexph repl [-echo] [script.go | -]

Runs Go code in an interpreter with the standard library, gonum.org/v1/gonum/mat and
gexph's packages (expander, spectral, data, plots, gexph) preloaded; import them as usual.
Sessions and scripts of statements start with context, fmt, math, math/rand/v2, os,
sort, strings, time, mat, data, expander, gexph, plots and spectral imported (a script
keeps the names it imports or declares itself).

With a file argument, or "-" or no argument and a non-terminal standard input, it runs
that script and exits non-zero on the first error. On a terminal it starts an
interactive session: values of expressions are printed, errors are reported and the
session goes on; Ctrl-C interrupts a running statement or discards a partial one, and
Ctrl-D ends the session.

The interpreter speaks roughly Go 1.21: no range over integers or functions, no min, max
or clear builtins, and no calls to generic functions of compiled packages.

Flags:
  -echo
    	print the value of each expression statement of a script, as a session does
`

// Run runs the REPL with the given command-line arguments (without the command name):
// an optional script path, "-" for standard input, and the flag -echo that prints the
// value of each expression statement of a script. Without a path it reads a script from
// stdin, or starts an interactive session when stdin is a terminal. Output of the
// interpreted code goes to stdout; prompts, values and errors of an interactive session
// go to stdout and stderr. A script error returns an error wrapping ErrScript.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("repl", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprint(stderr, usageText) }
	echo := flags.Bool("echo", false, "print the value of each expression statement of a script")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("repl: %w", err)
	}
	if flags.NArg() > 1 {
		flags.Usage()
		return fmt.Errorf("repl: want at most one script, got %d arguments: %q", flags.NArg(), flags.Args())
	}

	path := flags.Arg(0)
	if path == "" && IsTerminal(stdin) {
		s, err := newSession("", stdin, stdout, stderr)
		if err != nil {
			return err
		}
		s.interactive(stdin)
		return nil
	}

	var src []byte
	var err error
	name := "stdin"
	if path == "" || path == "-" {
		src, err = readScript(stdin)
	} else {
		name = path
		var f *os.File
		if f, err = os.Open(path); err == nil {
			src, err = readScript(f)
			f.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("repl: reading script %s: %w", name, err)
	}
	s, err := newSession(name, stdin, stdout, stderr)
	if err != nil {
		return err
	}
	s.echo = *echo
	return s.script(string(src))
}

// MaxScriptBytes bounds a script: a longer file, or a stream that goes on (/dev/zero),
// is refused rather than read until memory runs out.
const MaxScriptBytes = 16 << 20

// readScript reads a script of at most MaxScriptBytes from r.
func readScript(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxScriptBytes+1))
	if err == nil && len(b) > MaxScriptBytes {
		err = fmt.Errorf("more than the %d bytes a script may have", MaxScriptBytes)
	}
	return b, err
}

// IsTerminal reports whether r is a character device such as a terminal.
func IsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// session is one interpreter with the position bookkeeping that maps the interpreter's
// chunk-relative positions back to lines of the script.
type session struct {
	interp *interp.Interpreter
	out    io.Writer
	errs   *positionWriter
	echo   bool
	// resultsDeclared tells that resultsVar is declared (see evalValues).
	resultsDeclared bool
	// bound holds the package names imported so far; packages maps a package name to
	// the import paths of the symbol tables' packages of that name (packageIndex).
	bound    map[string]bool
	packages map[string][]string
}

// newSession returns an interpreter with every symbol table loaded. name is the source
// name used in messages.
func newSession(name string, stdin io.Reader, stdout, stderr io.Writer) (*session, error) {
	errs := &positionWriter{w: stderr, name: name}
	in := interp.New(interp.Options{
		Stdin:  stdin,
		Stdout: stdout,
		Stderr: errs,
		Env:    os.Environ(),
		Args:   []string{"gexph-repl"},
	})
	if err := in.Use(stdlib.Symbols); err != nil {
		return nil, fmt.Errorf("repl: loading standard library symbols: %w", err)
	}
	if err := in.Use(symbols.Symbols); err != nil {
		return nil, fmt.Errorf("repl: loading gexph symbols: %w", err)
	}
	return &session{interp: in, out: stdout, errs: errs, bound: map[string]bool{},
		packages: packageIndex(stdlib.Symbols, symbols.Symbols)}, nil
}

// script runs src to the end or to its first error. A script of statements starts, as
// an interactive session does, with startImports imported: those whose names it does
// not bind itself (boundNames), so that its own imports and declarations stand as
// written.
func (s *session) script(src string) error {
	if firstToken(src) == token.PACKAGE {
		// A whole program: one compilation, then main runs.
		if _, err := s.eval(context.Background(), src, 1); err != nil {
			return s.fail(err, src, 1)
		}
		return nil
	}
	s.importStart(src)
	chunk, start := "", 1
	lines := strings.SplitAfter(src, "\n")
	for i, line := range lines {
		if chunk == "" {
			start = i + 1
		}
		chunk += line
		if strings.TrimSpace(chunk) == "" {
			chunk = ""
			continue
		}
		vals, err := s.evalChunk(context.Background(), chunk, start, s.echo)
		if incomplete(err, chunk, start) && i < len(lines)-1 {
			continue
		}
		if err != nil {
			return s.fail(err, chunk, start)
		}
		s.bindImports(importsOnly(chunk))
		printValues(s.out, vals)
		chunk = ""
	}
	return nil
}

// fail reports the error of the chunk starting at line start and returns the script's
// error; a call of os.Exit(0) is a normal end.
func (s *session) fail(err error, chunk string, start int) error {
	if code, ok := exitCode(err); ok {
		if code == 0 {
			return nil
		}
		return fmt.Errorf("%w: %s: os.Exit(%d)", ErrScript, s.errs.name, code)
	}
	fmt.Fprintln(s.errs.w, s.describe(err, chunk, start))
	return fmt.Errorf("%w: %s", ErrScript, s.errs.name)
}

// interactive runs a read-eval-print loop on in until end of input: with line editing,
// history and completion when in is a terminal, after importing startImports.
func (s *session) interactive(in io.Reader) {
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)

	var lr lineReader = &plainReader{out: s.out, scan: bufio.NewScanner(in)}
	if f, ok := in.(*os.File); ok && IsTerminal(f) {
		if er, err := newEditReader(f, s.out, newCompleter(stdlib.Symbols, symbols.Symbols)); err == nil {
			lr = er
		}
	}
	defer lr.Close()

	imported := map[string]bool{}
	names := s.importStart("")
	for _, p := range names {
		imported[" "+p] = true
	}
	fmt.Fprintf(s.out, "gexph REPL (Go interpreter, roughly Go 1.21); imported: %s; Tab completes package members, Ctrl-D ends the session.\n",
		strings.Join(names, ", "))
	chunk, lineNo, start := "", 0, 1
	for {
		prompt := "> "
		if chunk != "" {
			prompt = ". "
		}
		line, err := lr.ReadLine(prompt)
		if err == errInterrupted {
			chunk = ""
			continue
		}
		if err != nil {
			fmt.Fprintln(s.out)
			return
		}
		// A signal that arrived while reading belongs to the prompt, not the next eval.
		select {
		case <-interrupts:
		default:
		}
		lineNo++
		if chunk == "" {
			start = lineNo
		}
		chunk += line + "\n"
		if strings.TrimSpace(chunk) == "" {
			chunk = ""
			continue
		}
		if specs := importsOnly(chunk); specs != nil {
			// Packages imported already (at the start, or earlier) are not imported again.
			var fresh []string
			for _, sp := range specs {
				if !imported[sp] {
					fresh = append(fresh, sp)
				}
			}
			if len(fresh) == 0 {
				chunk = ""
				continue
			}
			if _, err := s.eval(context.Background(), importSource(fresh), start); err != nil {
				fmt.Fprintln(s.errs.w, s.describe(err, chunk, start))
			} else {
				for _, sp := range fresh {
					imported[sp] = true
				}
				s.bindImports(fresh)
			}
			chunk = ""
			continue
		}

		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			select {
			case <-interrupts:
				cancel()
			case <-done:
			}
		}()
		vals, err := s.evalChunk(ctx, chunk, start, true)
		close(done)
		cancel()
		if incomplete(err, chunk, start) {
			continue
		}
		stmt := chunk
		chunk = ""
		switch {
		case errors.Is(err, context.Canceled):
			fmt.Fprintln(s.errs.w, "interrupted")
		case err != nil:
			if code, ok := exitCode(err); ok {
				fmt.Fprintf(s.errs.w, "os.Exit(%d) ignored: the session goes on (Ctrl-D ends it)\n", code)
				continue
			}
			fmt.Fprintln(s.errs.w, s.describe(err, stmt, start))
		default:
			printValues(s.out, vals)
		}
	}
}

// evalChunk evaluates a chunk of statements and returns the values to print: with show,
// those of an expression statement worth echoing (every result of a call, see
// evalValues), else none.
func (s *session) evalChunk(ctx context.Context, chunk string, start int, show bool) ([]reflect.Value, error) {
	if show && isExpression(chunk) {
		return s.evalValues(ctx, chunk, start)
	}
	_, err := s.evalStatement(ctx, chunk, start)
	return nil, err
}

// eval evaluates chunk, whose first line is line start of the input, and recovers any
// panic of the interpreter itself. The chunk is padded with start newlines so that every
// position the interpreter reports, in this chunk or in a function declared by an
// earlier one, is the input line plus one: the interpreter's wrapping of statements and
// declarations stays on the padding's first line.
func (s *session) eval(ctx context.Context, chunk string, start int) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = interp.Panic{Value: r, Stack: []byte(compilePhase)}
		}
	}()
	return s.interp.EvalWithContext(ctx, strings.Repeat("\n", start)+chunk)
}

// compilePhase is a stack frame name that marks a panic raised while compiling.
const compilePhase = "interp.(*Interpreter).CompileAST"

// describe turns an evaluation error of the chunk starting at line start into a message
// with input positions.
func (s *session) describe(err error, chunk string, start int) string {
	var list scanner.ErrorList
	var p interp.Panic
	switch {
	case errors.As(err, &list) && len(list) > 0:
		return s.errs.relocate(list[0].Error())
	case errors.As(err, &p):
		msg := s.errs.relocate(fmt.Sprint(p.Value))
		where := s.errs.lines(start, lastLine(chunk, start))
		if !bytes.Contains(p.Stack, []byte(compilePhase)) {
			return fmt.Sprintf("%s: panic: %s", where, msg)
		}
		why := unsupported(chunk, start, s.errs)
		if why == "" {
			why = s.missingImport(chunk)
		}
		if why == "" {
			why = "it speaks roughly Go 1.21: no range over integers or functions, no min, max or " +
				"clear builtins, no generic type inference across compiled packages"
		}
		return fmt.Sprintf("%s: the interpreter cannot compile this (%s): %s", where, why, msg)
	default:
		msg := s.errs.relocate(err.Error())
		if why := unsupported(chunk, start, s.errs); why != "" {
			msg += " (" + why + ")"
		} else if why := s.missingImport(chunk); why != "" {
			msg += " (" + why + ")"
		} else if strings.Contains(msg, "constant definition loop") || strings.Contains(msg, "undefined: ") {
			msg += " (" + definitionLoopHint(chunk) + ")"
		}
		return msg
	}
}

// unsupported names the first construct of chunk (starting at input line start) that the
// interpreter does not support, or returns "".
func unsupported(chunk string, start int, names *positionWriter) string {
	fset, file, _, err := parseChunk(chunk)
	if err != nil {
		return ""
	}
	var why string
	ast.Inspect(file, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		at := func() string { return names.lines(fset.Position(n.Pos()).Line-2+start, 0) }
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn, ok := n.Fun.(*ast.Ident); ok && (fn.Name == "min" || fn.Name == "max" || fn.Name == "clear") {
				why = fmt.Sprintf("%s: the interpreter has no %s builtin", at(), fn.Name)
			}
		case *ast.RangeStmt:
			switch x := n.X.(type) {
			case *ast.BasicLit:
				if x.Kind == token.INT {
					why = at() + ": the interpreter cannot range over an integer"
				}
			case *ast.FuncLit:
				why = at() + ": the interpreter cannot range over a function"
			}
		}
		return true
	})
	return why
}

// parseChunk parses chunk as the interpreter reads it: a file when it starts with a
// package clause, declarations of a file, or statements of a function body (stmts).
// Line k of chunk is line k+1 of the parsed source.
func parseChunk(chunk string) (fset *token.FileSet, file *ast.File, stmts bool, err error) {
	var src string
	switch firstToken(chunk) {
	case token.PACKAGE:
		src = "\n" + chunk
	case token.CONST, token.FUNC, token.IMPORT, token.TYPE, token.VAR:
		src = "package p;\n" + chunk
	default:
		src, stmts = chunkSource(chunk), true
	}
	fset = token.NewFileSet()
	file, err = parser.ParseFile(fset, "", src, 0)
	return fset, file, stmts, err
}

// lastLine is the input line of the last line of chunk, which starts at line start.
func lastLine(chunk string, start int) int {
	return start + strings.Count(strings.TrimRight(chunk, "\n"), "\n")
}

// exitCode recognizes the panic by which the interpreter's os.Exit ends a script.
func exitCode(err error) (int, bool) {
	var p interp.Panic
	if !errors.As(err, &p) {
		return 0, false
	}
	msg, ok := p.Value.(string)
	if !ok || !strings.HasPrefix(msg, "os.Exit(") || !strings.HasSuffix(msg, ")") {
		return 0, false
	}
	code, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(msg, "os.Exit("), ")"))
	return code, err == nil
}

// isExpression reports whether chunk is a single expression statement whose value is
// worth echoing: not a call of one of fmt's or the builtin print functions, whose results
// (a byte count) would only repeat what they printed.
func isExpression(chunk string) bool {
	_, file, stmts, err := parseChunk(chunk)
	if err != nil || !stmts {
		return false
	}
	body := file.Decls[0].(*ast.FuncDecl).Body.List
	if len(body) != 1 {
		return false
	}
	stmt, ok := body[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return true
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name != "print" && fn.Name != "println"
	case *ast.SelectorExpr:
		pkg, ok := fn.X.(*ast.Ident)
		return !ok || pkg.Name != "fmt" || !strings.Contains(fn.Sel.Name, "rint")
	}
	return true
}

// printValue writes a valid result value of an evaluation, structs (and pointers to
// them) with their field names; a nil interface, such as the nil error of a call that
// succeeded, prints nothing.
func printValue(w io.Writer, v reflect.Value) {
	if !v.IsValid() || !v.CanInterface() || (v.Kind() == reflect.Interface && v.IsNil()) {
		return
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, custom := v.Interface().(fmt.Stringer); t.Kind() == reflect.Struct && !custom {
		fmt.Fprintf(w, "%+v\n", v.Interface())
		return
	}
	fmt.Fprintf(w, "%v\n", v.Interface())
}

// incomplete reports whether err is a parse error that more input lines may resolve: the
// error lies beyond the end of chunk (in the interpreter's wrapping or at the end of
// input), or is an unterminated raw string.
func incomplete(err error, chunk string, start int) bool {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return false
	}
	e := list[0]
	if strings.HasSuffix(e.Msg, "found 'EOF'") || e.Msg == "raw string literal not terminated" {
		return true
	}
	return e.Pos.Line-1 > lastLine(chunk, start)
}

// firstToken returns the first token of src, skipping comments.
func firstToken(src string) token.Token {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), nil, 0)
	_, tok, _ := sc.Scan()
	return tok
}

// Interpreter positions: "_.go:L:C" anywhere, and "L:C:" at the start of a message or
// line (the interpreter drops its default file name there). The interpreter's line L is
// input line L-1 (see session.eval).
var (
	anyPosition   = regexp.MustCompile(regexp.QuoteMeta(interp.DefaultSourceName) + `:(\d+):(\d+)`)
	leadPosition  = regexp.MustCompile(`^(\d+):(\d+):`)
	panicPosition = regexp.MustCompile(`(?m)^(\d+):(\d+): panic: `)
)

// positionWriter writes the interpreter's error stream, rewriting the positions of the
// interpreter's panic traces ("L:C: panic: main.f(...)") into input positions.
type positionWriter struct {
	w    io.Writer
	name string // input name; "" in an interactive session, whose positions read "line L:C"
}

// Write rewrites the positions of panic-trace lines in b and writes it.
func (p *positionWriter) Write(b []byte) (int, error) {
	msg := string(b)
	if panicPosition.MatchString(msg) {
		msg = panicPosition.ReplaceAllStringFunc(msg, func(m string) string {
			return p.rewrite(panicPosition, m)
		})
	}
	if _, err := io.WriteString(p.w, msg); err != nil {
		return 0, err
	}
	return len(b), nil
}

// relocate rewrites the interpreter positions of an error message.
func (p *positionWriter) relocate(msg string) string {
	msg = anyPosition.ReplaceAllStringFunc(msg, func(m string) string { return p.rewrite(anyPosition, m) })
	return leadPosition.ReplaceAllStringFunc(msg, func(m string) string { return p.rewrite(leadPosition, m) })
}

// rewrite turns the position matched by re in m into an input position, keeping the
// text that re matched around the line and column.
func (p *positionWriter) rewrite(re *regexp.Regexp, m string) string {
	idx := re.FindStringSubmatchIndex(m)
	line, _ := strconv.Atoi(m[idx[2]:idx[3]])
	col := m[idx[4]:idx[5]]
	pos := fmt.Sprintf("%s:%d:%s", p.name, line-1, col)
	if p.name == "" {
		pos = fmt.Sprintf("line %d:%s", line-1, col)
	}
	return m[:idx[0]] + pos + m[idx[5]:]
}

// lines names input lines first to last: "stdin:7" or "stdin:7-9".
func (p *positionWriter) lines(first, last int) string {
	name := p.name + ":"
	if p.name == "" {
		name = "line "
	}
	if last > first {
		return fmt.Sprintf("%s%d-%d", name, first, last)
	}
	return fmt.Sprintf("%s%d", name, first)
}
