// Package jsonfile reads and writes JSON files: writes are atomic (see atomicfile) and
// indented, reads name the file in their errors.
package jsonfile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"
)

// MaxReadBytes bounds the JSON files Read reads (the records gexph writes are
// kilobytes to a few megabytes).
const MaxReadBytes = 256 << 20

// Read decodes the JSON file at path into v; a malformed file's error names it, and so
// does one of more than MaxReadBytes. A missing file's error wraps os.ErrNotExist.
func Read(path string, v any) error {
	b, err := ReadFileLimit(path, MaxReadBytes, "JSON file")
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// ReadFileLimit reads the file at path, reading at most limit+1 bytes: a file or a
// stream (a pipe, a device such as /dev/zero) of more than limit bytes is refused with
// an error naming the file, what it was read as (kind, e.g. "config file") and the
// bound, instead of being read until memory runs out. A regular file's size is checked
// before anything is read.
func ReadFileLimit(path string, limit int64, kind string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLong := func(size string) error {
		return fmt.Errorf("%s: %s, more than the %d bytes a %s may have", path, size, limit, kind)
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, tooLong(fmt.Sprintf("%d bytes", st.Size()))
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLong("a stream that goes on")
	}
	return b, nil
}

// Write writes v as indented JSON to path atomically.
func Write(path string, v any) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}

// DecodeStrict decodes text, a single JSON value, into v as a user's input should be read:
// a key that names no field of v is an error (where encoding/json would drop it), so is
// a key that matches a field only up to case ("Layers" for "layers", which encoding/json
// would accept), and so is anything after the value ('{"a":1}{"a":2}', which a decoder
// would stop before), and so is a key twice in one object (where encoding/json would keep
// the last). Fields of nested structs are checked the same way.
func DecodeStrict(text string, v any) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return suggestField(err, reflect.TypeOf(v))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("unexpected data after the JSON value at offset %d", dec.InputOffset())
	}
	if err := checkDuplicateKeys(text); err != nil {
		return err
	}
	var raw any
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return err
	}
	return checkKeyCase(raw, reflect.TypeOf(v), "")
}

// checkDuplicateKeys reports the first key that appears twice in one object of the
// JSON text (where encoding/json would keep the last), with its line.
func checkDuplicateKeys(text string) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	return checkDuplicatesIn(dec, text, "")
}

// checkDuplicatesIn reads one JSON value from dec, checking its objects for duplicate
// keys; path names the value for errors.
func checkDuplicatesIn(dec *json.Decoder, text, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			if seen[key] {
				line := 1 + strings.Count(text[:dec.InputOffset()], "\n")
				return fmt.Errorf("json: key %q appears twice%s (line %d); give each key once", key, inObject(path), line)
			}
			seen[key] = true
			if err := checkDuplicatesIn(dec, text, strings.TrimPrefix(path+"."+key, ".")); err != nil {
				return err
			}
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := checkDuplicatesIn(dec, text, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// checkKeyCase reports the first key of the decoded JSON value raw that matches a field
// of type t only up to case; path names the enclosing object for the error.
func checkKeyCase(raw any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	obj, ok := raw.(map[string]any)
	if !ok || t.Kind() != reflect.Struct {
		return nil
	}
	fields := map[string]reflect.Type{}
	collectFields(t, fields)
	for key, val := range obj {
		ft, exact := fields[key]
		if !exact {
			for name := range fields {
				if strings.EqualFold(name, key) {
					return fmt.Errorf("json: field %q%s: keys are case-sensitive; did you mean %q?", key, inObject(path), name)
				}
			}
			continue
		}
		if err := checkKeyCase(val, ft, strings.TrimPrefix(path+"."+key, ".")); err != nil {
			return err
		}
	}
	return nil
}

// collectFields maps the JSON names of t's fields (those of embedded structs included,
// as encoding/json flattens them) to their types.
func collectFields(t reflect.Type, fields map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				collectFields(ft, fields)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
}

func inObject(path string) string {
	if path == "" {
		return ""
	}
	return " in " + path
}

// suggestField adds to an unknown-field error of encoding/json the closest field name of
// t (by edit distance, when close enough to be a typo) or else the list of valid names.
func suggestField(err error, t reflect.Type) error {
	msg := err.Error()
	const prefix = `json: unknown field "`
	if !strings.HasPrefix(msg, prefix) {
		return err
	}
	key := strings.TrimSuffix(strings.TrimPrefix(msg, prefix), `"`)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return err
	}
	fields := map[string]reflect.Type{}
	collectFields(t, fields)
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	best, bestDist := "", len(key)/3+2
	for _, name := range names {
		if d := editDistance(strings.ToLower(key), strings.ToLower(name)); d < bestDist {
			best, bestDist = name, d
		}
	}
	if best != "" {
		return fmt.Errorf("%w; did you mean %q?", err, best)
	}
	return fmt.Errorf("%w; valid fields: %s", err, strings.Join(names, ", "))
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
