package repl

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// resultsVar is the session variable through which evalValues reads all the results of
// a call; it holds them only while they are printed.
const resultsVar = "gexphREPLResults"

// evalValues evaluates chunk, an expression statement whose value is to be shown, and
// returns its values: every result of a call (so that an error returned beside a value
// is shown, which the interpreter's value of a call, its first result, would hide),
// else the expression's value. A call goes through a variadic function literal, which
// takes its results whatever their number; where that does not compile (a call with no
// result), nothing ran and the chunk is evaluated as it is, with no value to show.
func (s *session) evalValues(ctx context.Context, chunk string, start int) ([]reflect.Value, error) {
	if call := callSource(chunk); call != "" {
		if err := s.declareResults(); err != nil {
			return nil, err
		}
		v, err := s.eval(ctx, resultsVar+" = func(v ...interface{}) []interface{} { return v }("+call+")", start)
		if err == nil {
			vals := unpackResults(v)
			_, _ = s.eval(context.Background(), resultsVar+" = nil", start)
			return vals, nil
		}
		var p interp.Panic
		if errors.As(err, &p) || errors.Is(err, context.Canceled) {
			return nil, err // the call ran and failed
		}
		// A call with no result (or one that does not compile: its error comes now).
		_, err = s.eval(ctx, chunk, start)
		return nil, err
	}
	v, err := s.eval(ctx, chunk, start)
	return []reflect.Value{v}, err
}

// declareResults declares resultsVar in the session, once.
func (s *session) declareResults() error {
	if s.resultsDeclared {
		return nil
	}
	if _, err := s.eval(context.Background(), "var "+resultsVar+" []interface{}", 1); err != nil {
		return fmt.Errorf("repl: declaring %s: %w", resultsVar, err)
	}
	s.resultsDeclared = true
	return nil
}

// unpackResults returns the elements of the []interface{} v, an invalid value for each
// nil.
func unpackResults(v reflect.Value) []reflect.Value {
	if v.Kind() != reflect.Slice {
		return []reflect.Value{v}
	}
	out := make([]reflect.Value, v.Len())
	for i := range out {
		if e := v.Index(i); !e.IsNil() {
			out[i] = e.Elem()
		}
	}
	return out
}

// callSource returns the source of chunk's call when chunk is a single expression
// statement that is a call (without the comments around it), else "".
func callSource(chunk string) string {
	fset, file, stmts, err := parseChunk(chunk)
	if err != nil || !stmts {
		return ""
	}
	body := file.Decls[0].(*ast.FuncDecl).Body.List
	if len(body) != 1 {
		return ""
	}
	stmt, ok := body[0].(*ast.ExprStmt)
	if !ok {
		return ""
	}
	if _, ok = ast.Unparen(stmt.X).(*ast.CallExpr); !ok {
		return ""
	}
	return chunkSource(chunk)[fset.Position(stmt.X.Pos()).Offset:fset.Position(stmt.X.End()).Offset]
}

// chunkSource is the source parseChunk parses for a chunk of statements.
func chunkSource(chunk string) string { return "package p; func _() {\n" + chunk + "\n}" }

// printValues writes the values of an expression statement: one value as printValue
// does (a nil error prints nothing), several one per line, nil ones as <nil>.
func printValues(w io.Writer, vals []reflect.Value) {
	if len(vals) == 1 {
		printValue(w, vals[0])
		return
	}
	for _, v := range vals {
		if !v.IsValid() || (v.Kind() == reflect.Interface && v.IsNil()) {
			fmt.Fprintln(w, "<nil>")
			continue
		}
		printValue(w, v)
	}
}

// evalStatement evaluates chunk; a short variable declaration x := EXPR that the
// interpreter cannot type (it fails with "constant definition loop" on an element of a
// slice of a compiled struct type, x := ds.Graphs[0]) is evaluated again as
// var x T = EXPR, T the type of EXPR's value, where EXPR makes no call (evaluating it
// twice is harmless). Otherwise the error stays, and describe says how to write it.
func (s *session) evalStatement(ctx context.Context, chunk string, start int) (reflect.Value, error) {
	v, err := s.eval(ctx, chunk, start)
	if err == nil || !strings.Contains(err.Error(), "constant definition loop") {
		return v, err
	}
	name, rhs, calls, ok := shortVarDecl(chunk)
	if !ok || calls {
		return v, err
	}
	val, verr := s.eval(ctx, rhs, start)
	if verr != nil || !val.IsValid() {
		return v, err
	}
	if v2, err2 := s.eval(ctx, fmt.Sprintf("var %s %s = %s", name, val.Type().String(), rhs), start); err2 == nil {
		return v2, nil
	}
	return v, err
}

// definitionLoopHint explains the interpreter's "constant definition loop" error of
// chunk: a name it does not know, or, for a short variable declaration x := EXPR, a
// value whose type it cannot infer.
func definitionLoopHint(chunk string) string {
	const unknown = "a name the interpreter does not know: check its spelling, and import its package first, e.g. import \"github.com/gexph/gexph/gexph\""
	name, rhs, _, ok := shortVarDecl(chunk)
	if !ok {
		return unknown
	}
	return fmt.Sprintf("%s; or a value of a compiled struct type whose type the interpreter cannot infer: declare it with its type, var %s T = %s", unknown, name, rhs)
}

// shortVarDecl returns the name and the right-hand side of chunk when it is one short
// variable declaration of one name, x := EXPR, and whether EXPR makes a call (other than
// of the builtins len and cap).
func shortVarDecl(chunk string) (name, rhs string, calls, ok bool) {
	fset, file, stmts, err := parseChunk(chunk)
	if err != nil || !stmts {
		return "", "", false, false
	}
	body := file.Decls[0].(*ast.FuncDecl).Body.List
	if len(body) != 1 {
		return "", "", false, false
	}
	as, isAssign := body[0].(*ast.AssignStmt)
	if !isAssign || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return "", "", false, false
	}
	id, isIdent := as.Lhs[0].(*ast.Ident)
	if !isIdent {
		return "", "", false, false
	}
	ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
		if call, isCall := n.(*ast.CallExpr); isCall {
			fn, isIdent := call.Fun.(*ast.Ident)
			calls = calls || !isIdent || (fn.Name != "len" && fn.Name != "cap")
		}
		return !calls
	})
	from, to := fset.Position(as.Rhs[0].Pos()).Offset, fset.Position(as.Rhs[0].End()).Offset
	return id.Name, chunkSource(chunk)[from:to], calls, true
}
