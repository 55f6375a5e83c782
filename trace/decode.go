package trace

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// byteReader is what the decoders read from.
type byteReader interface {
	io.Reader
	io.ByteReader
}

// decoder reads the varints, strings and values of the format. From a
// bufio.Reader it reads through a window on the reader's buffer (Peek),
// discarding what it consumed when it refills and when it is done
// (sync), so that the reader is left just past what was decoded, as
// reading byte by byte would leave it.
type decoder struct {
	r   byteReader
	br  *bufio.Reader // r, when it is one
	buf []byte        // the window: bytes buffered in br, not yet discarded
	pos int           // of buf, decoded
	err error

	vs valueScratch
	// shallow decodes values without their parts, handing out the
	// scratch itself (Dir.Shallow).
	shallow bool
	tmp     []byte            // strings read past the window
	strs    map[string]string // value strings, interned
}

func newDecoder(r io.Reader) *decoder {
	br, ok := r.(byteReader)
	if !ok {
		br = bufio.NewReader(r)
	}
	d := &decoder{r: br}
	d.br, _ = br.(*bufio.Reader)
	return d
}

// ReadByte reads a byte from the window, refilling it from br, or from r.
func (d *decoder) ReadByte() (byte, error) {
	if d.pos < len(d.buf) {
		b := d.buf[d.pos]
		d.pos++
		return b, nil
	}
	if d.br == nil {
		return d.r.ReadByte()
	}
	d.sync()
	d.buf = nil
	if _, err := d.br.Peek(1); err != nil {
		return 0, err // the error ReadByte returns
	}
	d.buf, _ = d.br.Peek(d.br.Buffered())
	d.pos = 1
	return d.buf[0], nil
}

// sync discards the window's decoded bytes from br.
func (d *decoder) sync() {
	if d.br != nil && d.pos > 0 {
		d.br.Discard(d.pos)
		d.buf, d.pos = d.buf[d.pos:], 0
	}
}

// reader returns r for reading past the window: synced, the window
// dropped (reading may move br's buffer).
func (d *decoder) reader() io.Reader {
	d.sync()
	d.buf = nil
	return d.r
}

func (d *decoder) uv() uint64 {
	if d.err != nil {
		return 0
	}
	if d.pos < len(d.buf) {
		if b := d.buf[d.pos]; b < 0x80 {
			d.pos++
			return uint64(b)
		}
		if v, n := binary.Uvarint(d.buf[d.pos:]); n > 0 {
			d.pos += n
			return v
		}
	}
	// Cut by the window's end or overflowing: byte by byte, with
	// ReadUvarint's errors.
	v, err := binary.ReadUvarint(d)
	if err != nil {
		d.err = err
	}
	return v
}

func (d *decoder) sv() int64 {
	u := d.uv()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if d.pos < len(d.buf) {
		b := d.buf[d.pos]
		d.pos++
		return b
	}
	b, err := d.ReadByte()
	if err != nil {
		d.err = err
	}
	return b
}

func (d *decoder) str() string {
	s, _ := d.strInterned(false)
	return s
}

// skipStr reads past a string.
func (d *decoder) skipStr() {
	n := d.uv()
	switch {
	case d.err != nil:
	case n <= uint64(len(d.buf)-d.pos):
		d.pos += int(n)
	case n > 1<<30:
		d.err = fmt.Errorf("string of %d bytes: corrupt file", n)
	default:
		if _, err := io.CopyN(io.Discard, d.reader(), int64(n)); err != nil {
			d.err = err
		}
	}
}

// maxInterned bounds the value strings a decoder interns.
const maxInterned = 1 << 16

// strInterned reads a string; intern looks it up among the strings read
// before (value strings repeat: the same arguments call after call).
func (d *decoder) strInterned(intern bool) (string, bool) {
	n := d.uv()
	if d.err != nil {
		return "", false
	}
	if n > 1<<30 {
		d.err = fmt.Errorf("string of %d bytes: corrupt file", n)
		return "", false
	}
	if n == 0 {
		return "", true
	}
	var b []byte
	if n <= uint64(len(d.buf)-d.pos) {
		b = d.buf[d.pos : d.pos+int(n)]
		d.pos += int(n)
	} else {
		if n <= 1<<12 {
			if cap(d.tmp) < int(n) {
				d.tmp = make([]byte, 1<<12)
			}
			b = d.tmp[:n]
		} else {
			b = make([]byte, n)
		}
		got, err := io.ReadFull(d.reader(), b)
		if err != nil {
			d.err = err
			clear(b[got:])
			return string(b), false
		}
	}
	if !intern || n > MaxString {
		return string(b), true
	}
	if s, ok := d.strs[string(b)]; ok {
		return s, true
	}
	s := string(b)
	if d.strs == nil {
		d.strs = map[string]string{}
	}
	if len(d.strs) < maxInterned {
		d.strs[s] = s
	}
	return s, true
}

// float reads 8 bytes IEEE 754, little-endian.
func (d *decoder) float() float64 {
	var b [8]byte
	if d.err == nil {
		if len(d.buf)-d.pos >= 8 {
			copy(b[:], d.buf[d.pos:])
			d.pos += 8
		} else {
			_, d.err = io.ReadFull(d.reader(), b[:])
		}
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
}

func (d *decoder) magic(want string) error {
	buf := make([]byte, len(want))
	if _, err := io.ReadFull(d.reader(), buf); err != nil {
		return fmt.Errorf("read magic: %w", err)
	}
	if string(buf) != want {
		return fmt.Errorf("bad magic %q, want %q", buf, want)
	}
	if v := d.uv(); d.err == nil && (v > Version || v < minVersion) {
		return fmt.Errorf("format version %d, this reader knows only %d: re-run culprit test with this culprit", v, Version)
	}
	return d.err
}

// minVersion is the oldest version the reader takes: format 4 only adds
// records and value tags to 3.
const minVersion = 3

// maxParts bounds the parts of one value and the fields of one type a
// reader accepts (the runtime writes far fewer).
const maxParts = 1 << 10

// typeTable holds an events file's type records.
type typeTable struct {
	names  []string            // by type number, the numbers below maxDenseType
	sparse map[uint64]string   // the others
	fields map[uint64][]string // struct types: the field names
}

// maxDenseType bounds the type numbers a typeTable holds in a slice (the
// runtime numbers types from 1).
const maxDenseType = 1 << 16

func (t *typeTable) name(id uint64) string {
	if id < uint64(len(t.names)) {
		return t.names[id]
	}
	return t.sparse[id]
}

func (t *typeTable) setName(id uint64, name string) {
	if id >= maxDenseType {
		t.sparse[id] = name
		return
	}
	for uint64(len(t.names)) <= id {
		t.names = append(t.names, "")
	}
	t.names[id] = name
}

// The values of a record are decoded into the decoder's scratch slices,
// the record's values (top), the parts of values (sub: elements and
// pointees, fields: struct fields), each value's parts side by side; then
// copied out into one block of Values and one of Fields a record, for the
// caller to keep (build). Where a value's parts go is a fixup on the
// scratch, applied to the blocks.
type valueScratch struct {
	top, sub []Value
	fields   []Field
	fixups   []fixup
}

// A slot is a value in the scratch: top[i], sub[i] or fields[i].Value.
type slot struct {
	in int8 // inTop, inSub, inFields
	i  int32
}

const (
	inTop = iota
	inSub
	inFields
)

// fixup says that the value at slot has n parts from start, in sub, or
// in fields when fields is set.
type fixup struct {
	at       slot
	start, n int32
	fields   bool
}

func (s *valueScratch) reset() {
	s.top, s.sub, s.fields, s.fixups = s.top[:0], s.sub[:0], s.fields[:0], s.fixups[:0]
}

func (s *valueScratch) ptr(at slot) *Value {
	switch at.in {
	case inTop:
		return &s.top[at.i]
	case inSub:
		return &s.sub[at.i]
	}
	return &s.fields[at.i].Value
}

// build copies the decoded values out and returns the top ones.
func (s *valueScratch) build() []Value {
	nt := len(s.top)
	if nt == 0 {
		return nil
	}
	block := make([]Value, nt+len(s.sub))
	copy(block, s.top)
	copy(block[nt:], s.sub)
	var fields []Field
	if len(s.fields) > 0 {
		fields = make([]Field, len(s.fields))
		copy(fields, s.fields)
	}
	for _, f := range s.fixups {
		var v *Value
		switch f.at.in {
		case inTop:
			v = &block[f.at.i]
		case inSub:
			v = &block[nt+int(f.at.i)]
		default:
			v = &fields[f.at.i].Value
		}
		switch {
		case f.fields && f.n == 0:
			v.Fields = []Field{}
		case f.fields:
			v.Fields = fields[f.start : f.start+f.n : f.start+f.n]
		case f.n == 0:
			v.Elems = []Value{}
		default:
			i, j := nt+int(f.start), nt+int(f.start+f.n)
			v.Elems = block[i:j:j]
		}
	}
	return block[:nt:nt]
}

// values reads a uv count and that many values.
func (d *decoder) values(types *typeTable) []Value {
	n := d.uv()
	if n > 1<<16 {
		if d.err == nil {
			d.err = fmt.Errorf("record with %d values: corrupt file", n)
		}
		return nil
	}
	d.vs.reset()
	for i := uint64(0); i < n && d.err == nil; i++ {
		d.vs.top = append(d.vs.top, Value{})
		d.valueAt(types, slot{inTop, int32(i)}, 0)
	}
	if d.err != nil {
		return nil // the record is dropped
	}
	return d.out()
}

// out returns the record's values read into the scratch: copied out
// with their parts, or, shallow, the scratch itself.
func (d *decoder) out() []Value {
	if d.shallow {
		n := len(d.vs.top)
		return d.vs.top[:n:n]
	}
	return d.vs.build()
}

// value reads one value, returned as a slice of one.
func (d *decoder) value(types *typeTable) []Value {
	d.vs.reset()
	d.vs.top = append(d.vs.top, Value{})
	d.valueAt(types, slot{inTop, 0}, 0)
	if d.err != nil {
		return nil
	}
	return d.out()
}

// loc reads a location: uv kind and its fields.
func (d *decoder) loc(types *typeTable) Loc {
	l := Loc{Kind: LocKind(d.uv())}
	switch l.Kind {
	case LocNone:
	case LocAddr:
		l.Addr = d.uv()
	case LocElem:
		l.Base = d.uv()
		l.Index = int64(d.uv())
		l.Addr = l.Base + uint64(l.Index)*d.uv()
	case LocKey:
		l.Base = d.uv()
		if d.shallow {
			// After the record's value, which the scratch holds.
			i := len(d.vs.top)
			d.vs.top = append(d.vs.top, Value{})
			d.valueAt(types, slot{inTop, int32(i)}, 0)
			l.Key = d.vs.top[i]
			break
		}
		d.vs.reset()
		d.vs.top = append(d.vs.top, Value{})
		d.valueAt(types, slot{inTop, 0}, 0)
		if len(d.vs.fixups) == 0 {
			l.Key = d.vs.top[0] // no parts: no block to build
		} else if d.err == nil {
			l.Key = d.vs.build()[0]
		}
	default:
		if d.err == nil {
			d.err = fmt.Errorf("unknown location kind %d", l.Kind)
		}
	}
	return l
}

// maxNesting bounds how deep the parts of a value nest (the runtime
// writes a few levels).
const maxNesting = 16

// valueAt reads a value into the scratch at slot at, its parts after
// what the scratch holds.
func (d *decoder) valueAt(types *typeTable, at slot, depth int) {
	tag := d.byte()
	if depth > maxNesting {
		if d.err == nil {
			d.err = fmt.Errorf("value nested %d deep: corrupt file", depth)
		}
		return
	}
	var v Value
	switch tag {
	case valPointer:
		*d.vs.ptr(at) = Value{Tag: ValRef, Type: types.name(d.uv()), Deep: true}
		d.parts(types, at, 1, false, nil, depth)
		return
	case valSlice, valArray:
		v = Value{Tag: ValRef, Deep: true}
		if tag == valArray {
			v.Tag = ValOther
		}
		v.Type = types.name(d.uv())
		v.Uint = d.uv()
		*d.vs.ptr(at) = v
		d.partsCounted(types, at, false, nil, depth)
		return
	case valStruct:
		id := d.uv()
		*d.vs.ptr(at) = Value{Tag: ValOther, Type: types.name(id), Deep: true}
		d.partsCounted(types, at, true, types.fields[id], depth)
		return
	case valError:
		if d.shallow {
			d.uv() // the message's length
			d.skipStr()
			d.valueAt(types, at, depth+1)
			return
		}
		msg := &Value{Tag: ValString}
		msg.Len = int(d.uv())
		msg.Str, _ = d.strInterned(true)
		d.valueAt(types, at, depth+1)
		d.vs.ptr(at).Err = msg
		return
	}
	v.Tag = tag
	switch v.Tag {
	case ValUnknown, ValNil, ValFalse, ValTrue:
	case ValInt:
		v.Int = d.sv()
	case ValUint:
		v.Uint = d.uv()
	case ValFloat:
		v.Float = d.float()
	case ValString:
		v.Len = int(d.uv())
		v.Str, _ = d.strInterned(true)
	case ValRef:
		v.Type = types.name(d.uv())
		v.Uint = d.uv()
	case ValOther:
		v.Type = types.name(d.uv())
	default:
		if d.err == nil {
			d.err = fmt.Errorf("unknown value tag %d", v.Tag)
		}
	}
	*d.vs.ptr(at) = v
}

// partsCounted reads a uv count and that many parts of the value at at.
func (d *decoder) partsCounted(types *typeTable, at slot, fields bool, names []string, depth int) {
	n := d.uv()
	if n > maxParts {
		if d.err == nil {
			d.err = fmt.Errorf("value with %d parts: corrupt file", n)
		}
		return
	}
	d.parts(types, at, int(n), fields, names, depth)
}

// parts reads n parts of the value at at one level down, the fields
// named by names when fields is set.
func (d *decoder) parts(types *typeTable, at slot, n int, fields bool, names []string, depth int) {
	s := &d.vs
	var start int
	if fields {
		start = len(s.fields)
		s.fields = append(s.fields, make([]Field, n)...)
		for i := range min(n, len(names)) {
			s.fields[start+i].Name = names[i]
		}
	} else {
		start = len(s.sub)
		s.sub = append(s.sub, make([]Value, n)...)
	}
	s.fixups = append(s.fixups, fixup{at: at, start: int32(start), n: int32(n), fields: fields})
	in := int8(inSub)
	if fields {
		in = inFields
	}
	for i := 0; i < n && d.err == nil; i++ {
		d.valueAt(types, slot{in, int32(start + i)}, depth+1)
	}
}

// skipValues reads past a uv count and that many values.
func (d *decoder) skipValues() {
	n := d.uv()
	if n > 1<<16 {
		if d.err == nil {
			d.err = fmt.Errorf("record with %d values: corrupt file", n)
		}
		return
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		d.skipValue(0)
	}
}

// skipValue reads past a value and its parts, as valueAt reads them.
func (d *decoder) skipValue(depth int) {
	tag := d.byte()
	if depth > maxNesting {
		if d.err == nil {
			d.err = fmt.Errorf("value nested %d deep: corrupt file", depth)
		}
		return
	}
	n := uint64(0) // parts
	switch tag {
	case ValUnknown, ValNil, ValFalse, ValTrue:
	case ValInt, ValUint, ValOther:
		d.uv()
	case ValFloat:
		d.float()
	case ValString:
		d.uv()
		d.skipStr()
	case ValRef:
		d.uv()
		d.uv()
	case valPointer:
		d.uv()
		n = 1
	case valSlice, valArray:
		d.uv()
		d.uv()
		n = d.uv()
	case valStruct:
		d.uv()
		n = d.uv()
	case valError:
		d.uv()
		d.skipStr()
		n = 1
	default:
		if d.err == nil {
			d.err = fmt.Errorf("unknown value tag %d", tag)
		}
	}
	if n > maxParts {
		if d.err == nil {
			d.err = fmt.Errorf("value with %d parts: corrupt file", n)
		}
		return
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		d.skipValue(depth + 1)
	}
}

// skipLoc reads past a location.
func (d *decoder) skipLoc() {
	switch k := LocKind(d.uv()); k {
	case LocNone:
	case LocAddr:
		d.uv()
	case LocElem:
		d.uv()
		d.uv()
		d.uv()
	case LocKey:
		d.uv()
		d.skipValue(0)
	default:
		if d.err == nil {
			d.err = fmt.Errorf("unknown location kind %d", k)
		}
	}
}

// skipRecord reads past the rest of a stream record of tag, its header
// read.
func (d *decoder) skipRecord(tag byte) {
	switch tag {
	case TagEnter:
		d.uv()
		d.skipValues()
	case TagExit, TagExitPanic, TagReturn:
		d.skipValues()
	case TagRead, TagWrite:
		d.skipValue(0)
		d.skipLoc()
	case TagPanic, TagRecover:
		d.skipValue(0)
	case TagGo, TagStarted:
		d.uv()
	case TagSend, TagRecv:
		d.uv()
		d.skipValue(0)
	}
}
