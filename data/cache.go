package data

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gexph/gexph/internal/atomicfile"
)

// Cache files hold one data set in a compact binary encoding:
//
//	magic "gexphds\n" | format version (uint32 LE) | body | CRC-32 (IEEE, uint32 LE) of all before
//
// The body lists the data set's fields in declaration order; integers are varints
// (signed ones zigzag-encoded), float32 values 4 bytes little-endian, and every slice is
// prefixed by its length plus one, 0 meaning nil, so a data set reads back exactly.
const (
	cacheMagic = "gexphds\n"
	// cacheFormatVersion changes whenever the encoding or any loader's output changes,
	// which invalidates every cached data set.
	cacheFormatVersion = 2 // 2: npz sparse matrices read as scipy reads them
	cacheSuffix        = ".gxd"
)

// DefaultCacheDir returns the cache directory: $GEXPH_CACHE if set, else the "gexph"
// directory in the user's cache directory (os.UserCacheDir).
func DefaultCacheDir() (string, error) {
	if dir := os.Getenv("GEXPH_CACHE"); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set GEXPH_CACHE): %w", err)
	}
	return filepath.Join(dir, "gexph"), nil
}

// CacheKey returns the cache key of a data set built by the named loader: the name, a
// hash of the cache format version, the name and parts (what chooses the data set built:
// options, the input files' names and sizes), which is the key's slot, and a hash of
// content (the input files' bytes). Cached keeps one entry a slot: writing a key removes
// the slot's entries of other content, so data staged again, copied or edited leaves no
// stale file behind.
func CacheKey(name, content string, parts ...string) string {
	slot := sha256.New()
	fmt.Fprintf(slot, "%d\x00%s", cacheFormatVersion, name)
	for _, p := range parts {
		fmt.Fprintf(slot, "\x00%d:%s", len(p), p)
	}
	sum := sha256.Sum256([]byte(content))
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
	return safe + "-" + hex.EncodeToString(slot.Sum(nil)[:cacheSlotBytes]) + "-" + hex.EncodeToString(sum[:cacheContentBytes])
}

// The lengths, in bytes, of a key's slot hash and of the content hash at its end.
const (
	cacheSlotBytes    = 12
	cacheContentBytes = 8
)

// Cached returns the data set cached in dir under key, or builds it with build and
// caches it. A missing, unreadable or corrupt cache file counts as a miss and is
// rewritten; failing to write the cache does not fail the call, since the data set
// itself is sound. After a write, the other entries of key's slot (CacheKey) are removed.
func Cached(dir, key string, build func() (*Dataset, error)) (*Dataset, error) {
	path := filepath.Join(dir, key+cacheSuffix)
	if d, err := ReadCacheFile(path); err == nil {
		return d, nil
	}
	d, err := build()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		if WriteCacheFile(path, d) == nil { // best effort, see above
			removeSuperseded(dir, key)
		}
	}
	return d, nil
}

// removeSuperseded removes the cache files in dir of key's slot whose content hash
// differs from key's: those of the same name, options and file layout built from other
// bytes. A key not of CacheKey's form removes nothing. Failures are ignored: a stale
// file costs disk, not correctness.
func removeSuperseded(dir, key string) {
	slot, ok := cacheSlot(key)
	if !ok {
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name, isCache := strings.CutSuffix(e.Name(), cacheSuffix)
		if !isCache || name == key {
			continue
		}
		if other, ok := cacheSlot(name); ok && other == slot {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// cacheKeyForm matches a key of CacheKey's form, "name-SLOT-CONTENT", its first group the
// key without the content hash.
var cacheKeyForm = regexp.MustCompile(fmt.Sprintf(`^(.+-[0-9a-f]{%d})-[0-9a-f]{%d}$`, 2*cacheSlotBytes, 2*cacheContentBytes))

// cacheSlot returns the slot of a key of CacheKey's form: the key without its content
// hash. ok is false for any other string.
func cacheSlot(key string) (slot string, ok bool) {
	m := cacheKeyForm.FindStringSubmatch(key)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// WriteCacheFile writes d to path atomically: to a temporary file in the same directory,
// then renamed over path.
func WriteCacheFile(path string, d *Dataset) error {
	if err := atomicfile.WriteBytes(path, encodeDataset(d)); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// ReadCacheFile reads a data set written by WriteCacheFile, checking its format version,
// checksum and invariants.
func ReadCacheFile(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := decodeDataset(b)
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", path, err)
	}
	return d, nil
}

func encodeDataset(d *Dataset) []byte {
	e := encoder{b: []byte(cacheMagic)}
	e.b = binary.LittleEndian.AppendUint32(e.b, cacheFormatVersion)
	e.str(d.Name)
	e.int(int64(d.Task))
	e.int(int64(d.NumClasses))
	e.bool(d.Transductive)
	e.uint(uint64(len(d.Graphs)))
	for i := range d.Graphs {
		g := &d.Graphs[i]
		e.int(int64(g.NumNodes))
		e.int32s(g.Src)
		e.int32s(g.Dst)
		e.features(&g.Node)
		e.features(&g.Edge)
		e.int32s(g.NodeLabels)
		e.int(int64(g.Label))
		e.float32s(g.Targets)
	}
	e.ints(d.Split.Train)
	e.ints(d.Split.Val)
	e.ints(d.Split.Test)
	return binary.LittleEndian.AppendUint32(e.b, crc32.ChecksumIEEE(e.b))
}

func decodeDataset(b []byte) (*Dataset, error) {
	head := len(cacheMagic) + 4
	if len(b) < head+4 || string(b[:len(cacheMagic)]) != cacheMagic {
		return nil, errors.New("not a gexph data set cache file")
	}
	if v := binary.LittleEndian.Uint32(b[len(cacheMagic):]); v != cacheFormatVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, cacheFormatVersion)
	}
	body := len(b) - 4
	if sum := binary.LittleEndian.Uint32(b[body:]); sum != crc32.ChecksumIEEE(b[:body]) {
		return nil, errors.New("checksum mismatch (file corrupt)")
	}
	r := decoder{b: b[head:body]}
	d := &Dataset{Name: r.str(), Task: Task(r.int()), NumClasses: int(r.int()), Transductive: r.bool()}
	n := r.length(1)
	if n > 0 {
		d.Graphs = make([]Graph, n)
	}
	for i := range d.Graphs {
		g := &d.Graphs[i]
		g.NumNodes = int(r.int())
		g.Src, g.Dst = r.int32s(), r.int32s()
		g.Node, g.Edge = r.features(), r.features()
		g.NodeLabels = r.int32s()
		g.Label = int32(r.int())
		g.Targets = r.float32s()
		if r.err != nil {
			break
		}
	}
	d.Split = Split{Train: r.ints(), Val: r.ints(), Test: r.ints()}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes left after the data set", len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}
func (e *encoder) str(s string) { e.uint(uint64(len(s))); e.b = append(e.b, s...) }

// sliceLen writes a slice's length plus one, or 0 for nil.
func (e *encoder) sliceLen(isNil bool, n int) {
	if isNil {
		e.uint(0)
	} else {
		e.uint(uint64(n) + 1)
	}
}

func (e *encoder) int32s(s []int32) {
	e.sliceLen(s == nil, len(s))
	for _, v := range s {
		e.int(int64(v))
	}
}

func (e *encoder) int64s(s []int64) {
	e.sliceLen(s == nil, len(s))
	for _, v := range s {
		e.int(v)
	}
}

func (e *encoder) ints(s []int) {
	e.sliceLen(s == nil, len(s))
	for _, v := range s {
		e.int(int64(v))
	}
}

func (e *encoder) float32s(s []float32) {
	e.sliceLen(s == nil, len(s))
	for _, v := range s {
		e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(v))
	}
}

func (e *encoder) features(f *Features) {
	e.int(int64(f.Kind))
	e.int(int64(f.Rows))
	e.int(int64(f.Cols))
	e.float32s(f.Dense)
	e.int64s(f.Indptr)
	e.int32s(f.Indices)
	e.float32s(f.Values)
	e.int32s(f.Categorical)
	e.ints(f.Cardinality)
}

// decoder reads what encoder wrote; the first error sticks and later reads return zero
// values.
type decoder struct {
	b   []byte
	err error
}

func (r *decoder) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("truncated or malformed %s", what)
	}
}

func (r *decoder) uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("integer")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *decoder) int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("integer")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *decoder) bool() bool { return r.uint() != 0 }

func (r *decoder) str() string {
	n := r.length(1)
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// length reads a count of items of at least minBytes bytes each, checking it against the
// bytes left.
func (r *decoder) length(minBytes int) int {
	n := r.uint()
	if n > uint64(len(r.b)/minBytes) {
		r.fail("length")
		return 0
	}
	return int(n)
}

// sliceLen reads a slice length written by encoder.sliceLen: -1 for nil.
func (r *decoder) sliceLen(minBytes int) int {
	n := r.uint()
	if n == 0 || r.err != nil {
		return -1
	}
	if n-1 > uint64(len(r.b)/minBytes) {
		r.fail("length")
		return -1
	}
	return int(n - 1)
}

func (r *decoder) int32s() []int32 {
	n := r.sliceLen(1)
	if n < 0 {
		return nil
	}
	s := make([]int32, n)
	for i := range s {
		v := r.int()
		if v < math.MinInt32 || v > math.MaxInt32 {
			r.fail("int32")
		}
		s[i] = int32(v)
	}
	return s
}

func (r *decoder) int64s() []int64 {
	n := r.sliceLen(1)
	if n < 0 {
		return nil
	}
	s := make([]int64, n)
	for i := range s {
		s[i] = r.int()
	}
	return s
}

func (r *decoder) ints() []int {
	n := r.sliceLen(1)
	if n < 0 {
		return nil
	}
	s := make([]int, n)
	for i := range s {
		s[i] = int(r.int())
	}
	return s
}

func (r *decoder) float32s() []float32 {
	n := r.sliceLen(4)
	if n < 0 {
		return nil
	}
	s := make([]float32, n)
	for i := range s {
		s[i] = math.Float32frombits(binary.LittleEndian.Uint32(r.b[4*i:]))
	}
	r.b = r.b[4*n:]
	return s
}

func (r *decoder) features() Features {
	return Features{
		Kind: FeatureKind(r.int()), Rows: int(r.int()), Cols: int(r.int()),
		Dense: r.float32s(), Indptr: r.int64s(), Indices: r.int32s(), Values: r.float32s(),
		Categorical: r.int32s(), Cardinality: r.ints(),
	}
}
