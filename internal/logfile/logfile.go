// Package logfile writes the append-only logs of a run: files opened for appending after
// the content they must start with (kept, so that `tail -f` goes on, where they do),
// and CSV rows of a struct's fields named as its JSON encoding names them.
package logfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"
)

// OpenAppend opens the log at path for appending after content. A file that
// starts with content already (a resumed run's log that matches its checkpoint, the
// common case) is kept, cut after content where a killed run wrote more, so that a
// `tail -f` of it goes on through the resumed run; any other file (one whose header
// differs: a resumed run with other -epochs, a new version) is replaced atomically by
// content, which `tail -F` follows and `tail -f` does not. A missing file is created.
func OpenAppend(path string, content []byte) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return rewriteForAppend(path, content)
	}
	head := make([]byte, len(content)+1)
	n, _ := io.ReadFull(f, head)
	if n >= len(content) && bytes.Equal(head[:len(content)], content) {
		if n == len(content) {
			return f, nil
		}
		if err := f.Truncate(int64(len(content))); err == nil {
			return f, nil
		}
	}
	f.Close()
	return rewriteForAppend(path, content)
}

// rewriteForAppend replaces path with content atomically and opens it for appending.
func rewriteForAppend(path string, content []byte) (*os.File, error) {
	if err := atomicfile.WriteBytes(path, content); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	return f, nil
}

// CSVColumns are the columns of a CSV log of rows of type T, a struct: the JSON names
// of its fields, in their order (one source: a field added to T is a column).
func CSVColumns[T any]() []string {
	t := reflect.TypeFor[T]()
	cols := make([]string, t.NumField())
	for i := range cols {
		cols[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return cols
}

// CSVRow formats row, a struct of float64, int, bool and string fields (or pointers to
// them), as a row of CSVColumns: numbers as Go writes them, booleans as true/false,
// strings as they are, a nil pointer (an absent value) as an empty cell.
func CSVRow(row any) []string {
	v := reflect.ValueOf(row)
	cells := make([]string, v.NumField())
	for i := range cells {
		cells[i] = csvCell(v.Field(i))
	}
	return cells
}

// csvCell formats one field of a row.
func csvCell(f reflect.Value) string {
	switch f.Kind() {
	case reflect.Pointer:
		if f.IsNil() {
			return ""
		}
		return csvCell(f.Elem())
	case reflect.Float64:
		return strconv.FormatFloat(f.Float(), 'g', -1, 64)
	case reflect.Int:
		return strconv.FormatInt(f.Int(), 10)
	case reflect.Bool:
		return strconv.FormatBool(f.Bool())
	case reflect.String:
		return f.String()
	}
	panic(fmt.Sprintf("csv log: no cell format for a field of kind %s", f.Kind()))
}
