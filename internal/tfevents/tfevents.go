// Package tfevents writes TensorBoard event files of scalars: TFRecord framing around
// serialised tensorflow.Event messages, encoded with protowire (no generated code).
package tfevents

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// Writer writes scalars to a TensorBoard event file
// (events.out.tfevents.TIME.HOST.gexph): TFRecord framing (length, masked CRC-32C of
// the length, the record, masked CRC-32C of the record) around serialised
// tensorflow.Event messages, encoded field by field with protowire:
//
//	Event   { double wall_time = 1; int64 step = 2; string file_version = 3; Summary summary = 5; }
//	Summary { repeated Value value = 1; }
//	Value   { string tag = 1; float simple_value = 2; }
type Writer struct {
	f *os.File
}

// Protobuf field numbers of the messages above (exported for readers and tests).
const (
	EventWallTime    = 1
	EventStep        = 2
	EventFileVersion = 3
	EventSummary     = 5
	SummaryValue     = 1
	ValueTag         = 1
	ValueSimple      = 2
)

// Create starts a new event file in dir (created if needed).
func Create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tfevents: %w", err)
	}
	host, _ := os.Hostname()
	if host == "" {
		host = "localhost"
	}
	now := time.Now()
	name := fmt.Sprintf("events.out.tfevents.%d.%s.gexph", now.Unix(), host)
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tfevents: %w", err)
	}
	w := &Writer{f: f}
	var ev []byte
	ev = protowire.AppendTag(ev, EventWallTime, protowire.Fixed64Type)
	ev = protowire.AppendFixed64(ev, math.Float64bits(float64(now.UnixNano())/1e9))
	ev = protowire.AppendTag(ev, EventFileVersion, protowire.BytesType)
	ev = protowire.AppendString(ev, "brain.Event:2")
	if err := w.record(ev); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Scalars writes one event holding the named values at step (tags sorted).
func (w *Writer) Scalars(step int64, values map[string]float64) error {
	tags := make([]string, 0, len(values))
	for t := range values {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	var summary []byte
	for _, t := range tags {
		var v []byte
		v = protowire.AppendTag(v, ValueTag, protowire.BytesType)
		v = protowire.AppendString(v, t)
		v = protowire.AppendTag(v, ValueSimple, protowire.Fixed32Type)
		v = protowire.AppendFixed32(v, math.Float32bits(float32(values[t])))
		summary = protowire.AppendTag(summary, SummaryValue, protowire.BytesType)
		summary = protowire.AppendBytes(summary, v)
	}
	var ev []byte
	ev = protowire.AppendTag(ev, EventWallTime, protowire.Fixed64Type)
	ev = protowire.AppendFixed64(ev, math.Float64bits(float64(time.Now().UnixNano())/1e9))
	ev = protowire.AppendTag(ev, EventStep, protowire.VarintType)
	ev = protowire.AppendVarint(ev, uint64(step))
	ev = protowire.AppendTag(ev, EventSummary, protowire.BytesType)
	ev = protowire.AppendBytes(ev, summary)
	return w.record(ev)
}

// record writes data as one TFRecord, in one write.
func (w *Writer) record(data []byte) error {
	buf := binary.LittleEndian.AppendUint64(nil, uint64(len(data)))
	buf = binary.LittleEndian.AppendUint32(buf, MaskedCRC(buf[:8]))
	buf = append(buf, data...)
	buf = binary.LittleEndian.AppendUint32(buf, MaskedCRC(data))
	if _, err := w.f.Write(buf); err != nil {
		return fmt.Errorf("tfevents: %w", err)
	}
	return nil
}

// Close closes the file; a nil writer does nothing.
func (w *Writer) Close() error {
	if w == nil {
		return nil
	}
	return w.f.Close()
}

// MaskedCRC is TFRecord's masked CRC-32C of b.
func MaskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
	return (c>>15 | c<<17) + 0xa282ead8
}
