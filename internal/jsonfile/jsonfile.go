// Package jsonfile reads and writes JSON files: writes are atomic (see atomicfile) and
// indented, reads name the file in their errors.
package jsonfile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/gexph/gexph/internal/atomicfile"
)

// Read decodes the JSON file at path into v; a malformed file's error names it. A
// missing file's error wraps os.ErrNotExist.
func Read(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Write writes v as indented JSON to path atomically.
func Write(path string, v any) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}
