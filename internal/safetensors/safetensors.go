// Package safetensors writes the safetensors format: an 8-byte little-endian header
// length, a JSON header naming each tensor's dtype, shape and byte range (and string
// metadata under "__metadata__"), then the tensors' raw little-endian bytes.
package safetensors

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gexph/gexph/internal/atomicfile"
)

// Tensor is one named tensor: DType is a safetensors dtype ("F32", "I64", …) and Data
// its raw little-endian bytes, row-major.
type Tensor struct {
	Name  string
	DType string
	Shape []int
	Data  []byte
}

// Write writes tensors (in order) and metadata to path atomically. The header is padded
// with spaces so that the data start at a multiple of 8 bytes.
func Write(path string, tensors []Tensor, metadata map[string]string) error {
	type entry struct {
		DType   string   `json:"dtype"`
		Shape   []int    `json:"shape"`
		Offsets [2]int64 `json:"data_offsets"`
	}
	header := map[string]any{}
	var offset int64
	for _, t := range tensors {
		if _, dup := header[t.Name]; dup || t.Name == "__metadata__" {
			return fmt.Errorf("safetensors %s: tensor name %q repeated or reserved", path, t.Name)
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		header[t.Name] = entry{DType: t.DType, Shape: shape, Offsets: [2]int64{offset, offset + int64(len(t.Data))}}
		offset += int64(len(t.Data))
	}
	if len(metadata) > 0 {
		header["__metadata__"] = metadata
	}
	h, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("safetensors %s: %w", path, err)
	}
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		if _, err := w.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(h)))); err != nil {
			return err
		}
		if _, err := w.Write(h); err != nil {
			return err
		}
		for _, t := range tensors {
			if _, err := w.Write(t.Data); err != nil {
				return err
			}
		}
		return nil
	})
}
