package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Array is an array read from a NumPy .npy file: its type, shape and raw data, held
// little-endian in C order whatever the file's byte order and layout.
type Array struct {
	// Name identifies the array in error messages: a file name, or "file.npz:entry".
	Name string
	// DType is the NumPy type string as the file gives it, such as "<i8", ">f4", "|b1"
	// or "|S3".
	DType string
	// Shape lists the dimensions; a scalar has none.
	Shape []int
	kind  byte // 'i' signed, 'u' unsigned, 'f' float, 'b' bool, 'S' bytes, 'U' unicode
	size  int  // bytes per element
	data  []byte
	// bigEndian and fortran describe the file's data until normalize converts it.
	bigEndian, fortran bool
	// dataOffset is the length of the file's magic, version and header.
	dataOffset int64
}

// UnsupportedArrayError reports a well-formed .npy array this package does not read:
// pickled objects, structured types, unusual types (complex numbers, dates).
type UnsupportedArrayError struct {
	// Name identifies the array, as Array.Name does; Reason says what is unsupported.
	Name, Reason string
}

// Error returns the array's name and the reason it is not read.
func (e *UnsupportedArrayError) Error() string { return e.Name + ": " + e.Reason }

// npyMagic opens every .npy file.
const npyMagic = "\x93NUMPY"

// maxNPYHeader bounds the header length (NumPy writes at most a few hundred bytes).
const maxNPYHeader = 1 << 16

// ReadFile reads the .npy file at path. A regular file's size bounds what its header
// may claim: a shape larger than the file is refused before its data is read.
func ReadFile(path string) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return readSized(bufio.NewReader(f), path, size)
}

// Read reads one .npy array (format version 1, 2 or 3) from r; name labels errors. It
// reads booleans, signed and unsigned integers, 16-, 32- and 64-bit floats and bytes or
// unicode strings, little- or big-endian, in C or Fortran order, as NumPy does (the
// Array holds them little-endian in C order). It fails on pickled objects and structured
// types (an *UnsupportedArrayError), on a malformed header, and when the data is shorter
// or longer than the shape says. Memory grows with the data read, never ahead of it by
// more than 64 MiB, whatever the header claims.
func Read(r io.Reader, name string) (*Array, error) { return readSized(r, name, -1) }

// headerBytes returns the bytes of a .npy file before its data: the magic, version and
// header length fields and the header (major version 1 has a 2-byte length field).
func headerBytes(major byte, hlen int) int64 {
	if major == 1 {
		return 10 + int64(hlen)
	}
	return 12 + int64(hlen)
}

// readSized is Read of a .npy file of size bytes (< 0: unknown): a header whose shape
// needs more data than the file holds is refused before anything more is read.
func readSized(r io.Reader, name string, size int64) (*Array, error) {
	a, nbytes, err := readNPYHeader(r, name)
	if err != nil {
		return nil, err
	}
	if size >= 0 && a.dataOffset+nbytes > size {
		return nil, fmt.Errorf("%s: data truncated: shape %v of %s needs %d bytes of data, more than the %d the file holds after its %d-byte header",
			name, a.Shape, a.DType, nbytes, max(0, size-a.dataOffset), a.dataOffset)
	}
	var buf bytes.Buffer
	buf.Grow(int(min(nbytes, 1<<26)))
	n, err := io.CopyN(&buf, r, nbytes)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, a.truncated(n, nbytes)
		}
		return nil, fmt.Errorf("%s: reading data: %w", name, err)
	}
	var extra [1]byte
	switch k, err := io.ReadFull(r, extra[:]); {
	case k > 0:
		return nil, a.tooLong(nbytes)
	case err != io.EOF:
		return nil, fmt.Errorf("%s: reading data: %w", name, err)
	}
	a.data = buf.Bytes()
	a.normalize(true)
	return a, nil
}

// parseNPY reads a .npy file held in b, as Read does; the array's data shares b's
// memory.
func parseNPY(b []byte, name string) (*Array, error) {
	r := bytes.NewReader(b)
	a, nbytes, err := readNPYHeader(r, name)
	if err != nil {
		return nil, err
	}
	data := b[len(b)-r.Len():]
	switch {
	case int64(len(data)) < nbytes:
		return nil, a.truncated(int64(len(data)), nbytes)
	case int64(len(data)) > nbytes:
		return nil, a.tooLong(nbytes)
	}
	a.data = data[:nbytes:nbytes]
	a.normalize(false)
	return a, nil
}

// normalize converts the data as read to little-endian C order, as NumPy reads a
// big-endian or Fortran-ordered file; owned tells whether a.data may be changed in
// place (otherwise a converted copy replaces it).
func (a *Array) normalize(owned bool) {
	if a.bigEndian {
		if !owned {
			a.data, owned = bytes.Clone(a.data), true
		}
		unit := a.size // bytes per swapped unit: a UTF-32 code point of 'U' strings
		if a.kind == 'U' {
			unit = 4
		}
		for i := 0; i+unit <= len(a.data); i += unit {
			slices.Reverse(a.data[i : i+unit])
		}
		a.bigEndian = false
	}
	if a.fortran {
		if len(a.Shape) > 1 {
			a.data = fortranToC(a.data, a.Shape, a.size)
		}
		a.fortran = false
	}
}

// fortranToC returns data of the given shape and element size, stored in Fortran
// (column-major) order, in C (row-major) order.
func fortranToC(data []byte, shape []int, size int) []byte {
	out := make([]byte, len(data))
	idx := make([]int, len(shape))    // the C-order multi-index of element k
	stride := make([]int, len(shape)) // Fortran strides in elements
	for i, st := 0, 1; i < len(shape); i++ {
		stride[i], st = st, st*shape[i]
	}
	for k := 0; k*size < len(out); k++ {
		off := 0
		for i, x := range idx {
			off += x * stride[i]
		}
		copy(out[k*size:(k+1)*size], data[off*size:(off+1)*size])
		for i := len(idx) - 1; i >= 0; i-- { // next C-order index
			if idx[i]++; idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return out
}

func (a *Array) truncated(have, want int64) error {
	return fmt.Errorf("%s: data truncated: %d of %d bytes for shape %v of %s", a.Name, have, want, a.Shape, a.DType)
}

func (a *Array) tooLong(nbytes int64) error {
	return fmt.Errorf("%s: data longer than shape %v of %s (%d bytes) says", a.Name, a.Shape, a.DType, nbytes)
}

// readNPYHeader reads the magic, version and header of a .npy file and returns the
// array without data and the data's length in bytes.
func readNPYHeader(r io.Reader, name string) (*Array, int64, error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return nil, 0, fmt.Errorf("%s: reading .npy magic: %w", name, noEOF(err))
	}
	if string(pre[:6]) != npyMagic {
		return nil, 0, fmt.Errorf("%s: not a .npy file (magic %q)", name, pre[:6])
	}
	var hlen int
	switch major := pre[6]; major {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return nil, 0, fmt.Errorf("%s: reading .npy header length: %w", name, noEOF(err))
		}
		hlen = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, 0, fmt.Errorf("%s: reading .npy header length: %w", name, noEOF(err))
		}
		n := binary.LittleEndian.Uint32(b[:])
		if n > maxNPYHeader {
			return nil, 0, fmt.Errorf("%s: .npy header length %d exceeds %d", name, n, maxNPYHeader)
		}
		hlen = int(n)
	default:
		return nil, 0, fmt.Errorf("%s: unsupported .npy format version %d.%d", name, major, pre[7])
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, 0, fmt.Errorf("%s: reading .npy header (%d bytes): %w", name, hlen, noEOF(err))
	}
	a, err := parseNPYHeader(name, string(header))
	if err != nil {
		return nil, 0, err
	}
	a.dataOffset = headerBytes(pre[6], hlen)
	count := 1
	for _, d := range a.Shape {
		if d != 0 && count > math.MaxInt32/d {
			return nil, 0, fmt.Errorf("%s: shape %v too large", name, a.Shape)
		}
		count *= d
	}
	return a, int64(count) * int64(a.size), nil
}

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// parseNPYHeader reads the header dictionary: 'descr', 'fortran_order' and 'shape'.
func parseNPYHeader(name, header string) (*Array, error) {
	p := pyParser{s: header}
	v, err := p.value(0)
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = fmt.Errorf("unexpected %q at offset %d", p.s[p.i], p.i)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: malformed .npy header %q: %w", name, header, err)
	}
	dict, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: .npy header %q is not a dictionary", name, header)
	}
	a := &Array{Name: name}
	switch descr := dict["descr"].(type) {
	case string:
		a.DType = descr
	case nil:
		return nil, fmt.Errorf("%s: .npy header %q has no 'descr'", name, header)
	default:
		return nil, &UnsupportedArrayError{name, fmt.Sprintf("structured dtype %v not supported", descr)}
	}
	fortran, ok := dict["fortran_order"].(bool)
	if !ok {
		return nil, fmt.Errorf("%s: .npy header %q: 'fortran_order' missing or not a bool", name, header)
	}
	shape, ok := dict["shape"].([]any)
	if !ok {
		return nil, fmt.Errorf("%s: .npy header %q: 'shape' missing or not a tuple", name, header)
	}
	for _, d := range shape {
		n, ok := d.(int)
		if !ok || n < 0 {
			return nil, fmt.Errorf("%s: .npy header: shape entry %v is not a non-negative integer", name, d)
		}
		a.Shape = append(a.Shape, n)
	}
	var err2 error
	if a.kind, a.size, a.bigEndian, err2 = parseDType(a.DType); err2 != nil {
		return nil, &UnsupportedArrayError{name, err2.Error()}
	}
	a.fortran = fortran && len(a.Shape) > 1
	return a, nil
}

// parseDType decodes a NumPy type string into its kind, element size and byte order.
func parseDType(d string) (kind byte, size int, bigEndian bool, err error) {
	if len(d) < 2 {
		return 0, 0, false, fmt.Errorf("dtype %q not supported", d)
	}
	order, kind := d[0], d[1]
	if kind == 'O' {
		return 0, 0, false, fmt.Errorf("object dtype %q (pickled data) not supported", d)
	}
	n, err := strconv.Atoi(d[2:])
	if err != nil || n < 1 {
		return 0, 0, false, fmt.Errorf("dtype %q not supported", d)
	}
	size = n
	switch kind {
	case 'b':
		if size != 1 {
			return 0, 0, false, fmt.Errorf("dtype %q not supported", d)
		}
	case 'i', 'u':
		if size != 1 && size != 2 && size != 4 && size != 8 {
			return 0, 0, false, fmt.Errorf("dtype %q not supported", d)
		}
	case 'f':
		if size != 2 && size != 4 && size != 8 {
			return 0, 0, false, fmt.Errorf("dtype %q not supported (only float16, float32 and float64)", d)
		}
	case 'S', 'a': // bytes, n per element
		kind = 'S'
	case 'U': // UTF-32 strings of n code points
		size = 4 * n
	default:
		return 0, 0, false, fmt.Errorf("dtype %q not supported", d)
	}
	switch order {
	case '<', '|':
	case '>':
		bigEndian = size > 1 && kind != 'S'
	default:
		return 0, 0, false, fmt.Errorf("dtype %q: byte order %q not supported", d, order)
	}
	return kind, size, bigEndian, nil
}

// Strings returns the elements of a bytes ('S') or unicode ('U') array, without the
// NUL padding NumPy stores.
func (a *Array) Strings() ([]string, error) {
	out := make([]string, a.Len())
	switch a.kind {
	case 'S':
		for i := range out {
			out[i] = strings.TrimRight(string(a.data[i*a.size:(i+1)*a.size]), "\x00")
		}
	case 'U':
		for i := range out {
			var b strings.Builder
			for k := i * a.size; k < (i+1)*a.size; k += 4 {
				r := rune(binary.LittleEndian.Uint32(a.data[k:]))
				if r == 0 {
					break
				}
				b.WriteRune(r)
			}
			out[i] = b.String()
		}
	default:
		return nil, fmt.Errorf("%s: dtype %s is not a string type", a.Name, a.DType)
	}
	return out, nil
}

// Len returns the number of elements.
func (a *Array) Len() int { return len(a.data) / a.size }

// IsFloat tells whether the array holds floating-point numbers (float16, float32 or
// float64), not integers, booleans or strings.
func (a *Array) IsFloat() bool { return a.kind == 'f' }

// IsBool tells whether the array holds booleans.
func (a *Array) IsBool() bool { return a.kind == 'b' }

// Int64s returns the elements of an integer or boolean array.
func (a *Array) Int64s() ([]int64, error) {
	out := make([]int64, a.Len())
	d, s := a.data, a.size
	le := binary.LittleEndian
	switch {
	case a.kind == 'i' && s == 8:
		for i := range out {
			out[i] = int64(le.Uint64(d[8*i:]))
		}
	case a.kind == 'u' && s == 8:
		for i := range out {
			v := le.Uint64(d[8*i:])
			if v > math.MaxInt64 {
				return nil, fmt.Errorf("%s: element %d value %d exceeds int64", a.Name, i, v)
			}
			out[i] = int64(v)
		}
	case a.kind == 'i' && s == 4:
		for i := range out {
			out[i] = int64(int32(le.Uint32(d[4*i:])))
		}
	case a.kind == 'u' && s == 4:
		for i := range out {
			out[i] = int64(le.Uint32(d[4*i:]))
		}
	case a.kind == 'i' && s == 2:
		for i := range out {
			out[i] = int64(int16(le.Uint16(d[2*i:])))
		}
	case a.kind == 'u' && s == 2:
		for i := range out {
			out[i] = int64(le.Uint16(d[2*i:]))
		}
	case a.kind == 'i' && s == 1:
		for i := range out {
			out[i] = int64(int8(d[i]))
		}
	case a.kind == 'u' && s == 1, a.kind == 'b':
		for i := range out {
			out[i] = int64(d[i])
		}
	default:
		return nil, fmt.Errorf("%s: dtype %s is not an integer type", a.Name, a.DType)
	}
	return out, nil
}

// Int32s returns the elements of an integer or boolean array, failing on a value outside
// the int32 range.
func (a *Array) Int32s() ([]int32, error) {
	if a.kind == 'i' && a.size == 4 {
		out := make([]int32, a.Len())
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(a.data[4*i:]))
		}
		return out, nil
	}
	wide, err := a.Int64s()
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(wide))
	for i, v := range wide {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return nil, fmt.Errorf("%s: element %d value %d outside the int32 range", a.Name, i, v)
		}
		out[i] = int32(v)
	}
	return out, nil
}

// Float32s returns the elements of a numeric array as float32 values (float64 values are
// rounded; a value beyond the float32 range becomes ±Inf).
func (a *Array) Float32s() ([]float32, error) {
	out := make([]float32, a.Len())
	d := a.data
	switch {
	case a.kind == 'f' && a.size == 4:
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(d[4*i:]))
		}
	case a.kind == 'f' && a.size == 8:
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(d[8*i:])))
		}
	case a.kind == 'f' && a.size == 2:
		for i := range out {
			out[i] = halfToFloat32(binary.LittleEndian.Uint16(d[2*i:]))
		}
	case a.kind == 'S' || a.kind == 'U':
		return nil, fmt.Errorf("%s: dtype %s is not a numeric type", a.Name, a.DType)
	default:
		ints, err := a.Int64s()
		if err != nil {
			return nil, err
		}
		for i, v := range ints {
			out[i] = float32(v)
		}
	}
	return out, nil
}

// halfToFloat32 converts an IEEE 754 half-precision value to float32 (exactly: every
// half is a float32).
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac · 2⁻²⁴
		v := float32(frac) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

// pyParser reads the Python literals found in .npy headers: dictionaries, tuples, lists,
// strings, integers, True, False and None.
type pyParser struct {
	s string
	i int
}

// maxPyDepth bounds literal nesting.
const maxPyDepth = 8

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > maxPyDepth {
		return nil, errors.New("nested too deeply")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		dict := map[string]any{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return dict, nil
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			key, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("dictionary key %v is not a string", k)
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, fmt.Errorf("missing ':' after key %q", key)
			}
			p.i++
			if dict[key], err = p.value(depth + 1); err != nil {
				return nil, err
			}
			if err := p.separator('}'); err != nil {
				return nil, err
			}
		}
	case c == '(' || c == '[':
		closer := byte(')')
		if c == '[' {
			closer = ']'
		}
		p.i++
		items := []any{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == closer {
				p.i++
				return items, nil
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
			if err := p.separator(closer); err != nil {
				return nil, err
			}
		}
	case c == '\'' || c == '"':
		end := strings.IndexByte(p.s[p.i+1:], c)
		if end < 0 {
			return nil, errors.New("unterminated string")
		}
		s := p.s[p.i+1 : p.i+1+end]
		p.i += end + 2
		return s, nil
	case c == '-' || (c >= '0' && c <= '9'):
		j := p.i + 1
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(p.s[p.i:j])
		if err != nil {
			return nil, fmt.Errorf("bad integer %q", p.s[p.i:j])
		}
		p.i = j
		if p.i < len(p.s) && p.s[p.i] == 'L' { // Python 2 long
			p.i++
		}
		return n, nil
	default:
		for _, w := range []struct {
			word string
			v    any
		}{{"True", true}, {"False", false}, {"None", nil}} {
			if strings.HasPrefix(p.s[p.i:], w.word) {
				p.i += len(w.word)
				return w.v, nil
			}
		}
		return nil, fmt.Errorf("unexpected %q at offset %d", c, p.i)
	}
}

// separator consumes a ',' or sees the closer that ends the current container.
func (p *pyParser) separator(closer byte) error {
	p.space()
	if p.i >= len(p.s) {
		return errors.New("unexpected end")
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		return nil
	case closer:
		return nil
	}
	return fmt.Errorf("unexpected %q at offset %d", p.s[p.i], p.i)
}
