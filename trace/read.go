package trace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Trace is a whole trace directory: the site table and every process.
type Trace struct {
	Sites     Sites
	Processes []*Process
}

// Process is what one test binary recorded.
type Process struct {
	File      string // the events file, when read by Open
	Package   string // import path of the package under test
	PID       int
	NumSites  int
	Start     int64 // Unix nanoseconds
	Tests     []*Test
	Events    []Event // stream records in order, unless read with a callback
	Exit      int     // exit status, -1 when not known
	Truncated bool    // the file ended without an end record
}

// Test returns the test with the given ID, or nil.
func (p *Process) Test(id int) *Test {
	if id >= 1 && id <= len(p.Tests) && p.Tests[id-1].ID == id {
		return p.Tests[id-1]
	}
	for _, t := range p.Tests {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// FullName returns the test's name; subtests carry their parents' names
// already, as testing reports them ("TestX/sub").
func (t *Test) String() string { return t.Name + " " + t.Outcome.String() }

// Dir is a trace directory opened for streaming: its site table, read,
// and the paths of its events files, in a stable order.
type Dir struct {
	Path   string
	Sites  *Sites
	Events []string
}

// OpenDir reads the site table of the trace directory dir and lists its
// events files, without reading them: analyses stream each one with
// ReadFile, so a trace need not fit in memory.
func OpenDir(dir string) (*Dir, error) {
	f, err := os.Open(filepath.Join(dir, SitesFile))
	if err != nil {
		return nil, err // names the file
	}
	sites, err := ReadSites(bufio.NewReader(f))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	names, err := filepath.Glob(filepath.Join(dir, EventsPrefix+"*"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return &Dir{Path: dir, Sites: sites, Events: names}, nil
}

// ReadFile streams the events file name (one of d.Events) through
// ReadEvents: onEvent, if not nil, sees each stream event instead of the
// returned Process collecting it.
func (d *Dir) ReadFile(name string, onEvent func(Event) error) (*Process, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	results := make([]int, len(d.Sites.Sites)) // results+1 of each function site, 0: not yet known
	split := func(e *Event) {
		if e.Tag != TagExit || e.Site < 0 || e.Site >= len(results) {
			return
		}
		if results[e.Site] == 0 {
			results[e.Site] = len(d.Sites.Sites[e.Site].Results()) + 1
		}
		if n := results[e.Site] - 1; len(e.Values) > n {
			e.Values, e.Final = e.Values[:n:n], e.Values[n:]
		}
	}
	each := onEvent
	if onEvent != nil {
		each = func(e Event) error {
			split(&e)
			return onEvent(e)
		}
	}
	p, err := ReadEvents(bufio.NewReaderSize(f, 1<<16), each)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	for i := range p.Events {
		split(&p.Events[i])
	}
	p.File = name
	return p, nil
}

// Open reads a trace directory, collecting all events in memory.
func Open(dir string) (*Trace, error) {
	d, err := OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open trace: %w", err)
	}
	tr := &Trace{Sites: *d.Sites}
	for _, name := range d.Events {
		p, err := d.ReadFile(name, nil)
		if err != nil {
			return nil, err
		}
		tr.Processes = append(tr.Processes, p)
	}
	return tr, nil
}

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

	vs   valueScratch
	tmp  []byte            // strings read past the window
	strs map[string]string // value strings, interned
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

// ReadSites decodes a site table.
func ReadSites(r io.Reader) (*Sites, error) {
	d := newDecoder(r)
	defer d.sync()
	if err := d.magic(SitesMagic); err != nil {
		return nil, fmt.Errorf("site table: %w", err)
	}
	n := d.uv()
	if n > 1<<28 {
		return nil, fmt.Errorf("site table: %d strings: corrupt file", n)
	}
	strs := make([]string, n)
	for i := range strs {
		strs[i] = d.str()
	}
	s := func() string {
		i := d.uv()
		if i >= uint64(len(strs)) {
			if d.err == nil {
				d.err = fmt.Errorf("string index %d out of range", i)
			}
			return ""
		}
		return strs[i]
	}
	t := &Sites{Root: s(), Events: EventSet(d.uv())}
	n = d.uv()
	if n > 1<<28 {
		return nil, fmt.Errorf("site table: %d sites: corrupt file", n)
	}
	t.Sites = make([]Site, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		var st Site
		st.Kind = Kind(d.uv())
		st.File = s()
		st.Line = int(d.uv())
		st.Col = int(d.uv())
		st.EndLine = int(d.uv())
		st.EndCol = int(d.uv())
		st.Func = s()
		st.Info = s()
		st.DeclFile = s()
		st.DeclLine = int(d.uv())
		st.DeclCol = int(d.uv())
		t.Sites = append(t.Sites, st)
	}
	if d.err != nil {
		return nil, fmt.Errorf("site table: %w", d.err)
	}
	return t, nil
}

// WriteSites encodes a site table.
func WriteSites(w io.Writer, t *Sites) error {
	strs := []string{""}
	index := map[string]uint64{"": 0}
	intern := func(s string) uint64 {
		i, ok := index[s]
		if !ok {
			i = uint64(len(strs))
			index[s] = i
			strs = append(strs, s)
		}
		return i
	}
	var body bytes.Buffer
	put := func(v uint64) { body.Write(binary.AppendUvarint(nil, v)) }
	put(intern(t.Root))
	put(uint64(t.Events))
	put(uint64(len(t.Sites)))
	for _, s := range t.Sites {
		put(uint64(s.Kind))
		put(intern(s.File))
		put(uint64(s.Line))
		put(uint64(s.Col))
		put(uint64(s.EndLine))
		put(uint64(s.EndCol))
		put(intern(s.Func))
		put(intern(s.Info))
		put(intern(s.DeclFile))
		put(uint64(s.DeclLine))
		put(uint64(s.DeclCol))
	}
	var head []byte
	head = append(head, SitesMagic...)
	head = binary.AppendUvarint(head, Version)
	head = binary.AppendUvarint(head, uint64(len(strs)))
	for _, s := range strs {
		head = binary.AppendUvarint(head, uint64(len(s)))
		head = append(head, s...)
	}
	if _, err := w.Write(head); err != nil {
		return fmt.Errorf("write site table: %w", err)
	}
	if _, err := w.Write(body.Bytes()); err != nil {
		return fmt.Errorf("write site table: %w", err)
	}
	return nil
}

// ReadEvents decodes one events file. When onEvent is not nil it receives
// each stream record (function entries and exits, reads, writes...) in
// order and Process.Events stays empty, so long traces need not fit in
// memory. A file cut short is not an error: the process holds what was
// read and Truncated is set.
func ReadEvents(r io.Reader, onEvent func(Event) error) (*Process, error) {
	d := newDecoder(r)
	defer d.sync()
	if err := d.magic(EventsMagic); err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	p := &Process{Exit: -1}
	p.Package = d.str()
	p.PID = int(d.uv())
	p.NumSites = int(d.uv())
	p.Start = d.sv()
	if d.err != nil {
		return nil, fmt.Errorf("events header: %w", d.err)
	}
	types := &typeTable{sparse: map[uint64]string{}, fields: map[uint64][]string{}}
	tests := map[int]*Test{}
	lastTest, lastG := 0, 0 // of the previous stream record, for short forms
	for {
		tag, err := d.ReadByte()
		if err == io.EOF {
			p.Truncated = true
			break
		}
		if err != nil {
			return nil, fmt.Errorf("events: %w", err)
		}
		switch tag {
		case TagTestStart:
			t := &Test{ID: int(d.uv()), Parent: int(d.uv()), Kind: TestKind(d.uv())}
			t.Name = d.str()
			if d.err == nil {
				tests[t.ID] = t
				p.Tests = append(p.Tests, t)
			}
		case TagTestEnd:
			id := int(d.uv())
			out := Outcome(d.uv())
			flags := d.uv()
			n := d.uv()
			if n > uint64(p.NumSites) {
				return nil, fmt.Errorf("events: test %d has %d hits for %d sites", id, n, p.NumSites)
			}
			hits := make([]int, 0, n)
			prev := 0
			for i := uint64(0); i < n && d.err == nil; i++ {
				prev += int(d.uv())
				hits = append(hits, prev)
			}
			if d.err != nil {
				break
			}
			t := tests[id]
			if t == nil {
				t = &Test{ID: id}
				tests[id] = t
				p.Tests = append(p.Tests, t)
			}
			// A test ended twice (running, then its real end) keeps the
			// later outcome and the union of the hits.
			t.Outcome, t.Ended = out, true
			t.Shared = t.Shared || flags&FlagShared != 0
			t.Hits = union(t.Hits, hits)
		case TagType:
			id := d.uv()
			types.setName(id, d.str())
		case TagFields:
			id := d.uv()
			n := d.uv()
			if n > maxParts {
				return nil, fmt.Errorf("events: type %d with %d fields: corrupt file", id, n)
			}
			names := make([]string, 0, n)
			for i := uint64(0); i < n && d.err == nil; i++ {
				names = append(names, d.str())
			}
			types.fields[id] = names
		case TagEnter, TagExit, TagExitPanic, TagRead, TagWrite, TagCall, TagReturn, TagPanic, TagRecover, TagGo, TagStarted, TagSend, TagRecv,
			TagStep, TagDecision, TagStepShort, TagDecisionShort:
			var e Event
			switch tag {
			case TagStepShort:
				e = Event{Tag: TagStep, Test: lastTest, Goroutine: lastG, Site: int(d.uv()), From: -1}
			case TagDecisionShort:
				e = Event{Tag: TagDecision, Test: lastTest, Goroutine: lastG, Site: int(d.uv()), From: -1}
			case TagExitPanic:
				e = Event{Tag: TagExit, Panicking: true, Test: int(d.uv()), Goroutine: int(d.uv()), Site: int(d.uv()), From: -1}
			default:
				e = Event{Tag: tag, Test: int(d.uv()), Goroutine: int(d.uv()), Site: int(d.uv()), From: -1}
			}
			lastTest, lastG = e.Test, e.Goroutine
			if e.Site >= p.NumSites && d.err == nil {
				return nil, fmt.Errorf("events: record %q for site %d of %d: corrupt file", tag, e.Site, p.NumSites)
			}
			switch tag {
			case TagEnter:
				e.From = int(d.uv()) - 1
				e.Values = d.values(types)
			case TagExit, TagExitPanic, TagReturn:
				e.Values = d.values(types)
			case TagRead, TagWrite:
				e.Values = d.value(types)
				e.Loc = d.loc(types)
			case TagPanic, TagRecover:
				e.Values = d.value(types)
			case TagGo, TagStarted:
				e.Ref = d.uv()
			case TagSend, TagRecv:
				e.Ref = d.uv()
				e.Values = d.value(types)
			}
			if d.err != nil {
				break
			}
			if onEvent != nil {
				if err := onEvent(e); err != nil {
					return nil, err
				}
			} else {
				p.Events = append(p.Events, e)
			}
		case TagEnd:
			p.Exit = int(d.sv())
			if d.err != nil {
				break
			}
			// Records after an end record come from goroutines that
			// outlived a final flush; keep reading them.
			continue
		default:
			return nil, fmt.Errorf("events: unknown record tag %q", tag)
		}
		if d.err != nil {
			if errors.Is(d.err, io.EOF) || errors.Is(d.err, io.ErrUnexpectedEOF) {
				p.Truncated = true
				break
			}
			return nil, fmt.Errorf("events: %w", d.err)
		}
	}
	if p.Exit != -1 && p.Truncated {
		// An end record followed by nothing is a clean end.
		p.Truncated = false
	}
	return p, nil
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
	return d.vs.build()
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

func union(a, b []int) []int {
	if len(a) == 0 {
		return b
	}
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// Summary describes a trace in a few lines, for people.
func (t *Trace) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d sites (%s), %d processes\n", len(t.Sites.Sites), t.Sites.Events, len(t.Processes))
	for _, p := range t.Processes {
		counts := map[Outcome]int{}
		for _, x := range p.Tests {
			counts[x.Outcome]++
		}
		fmt.Fprintf(&b, "%s: %d tests (%d pass, %d fail, %d skip, %d panic, %d running), %d stream records",
			p.Package, len(p.Tests), counts[OutcomePass], counts[OutcomeFail], counts[OutcomeSkip], counts[OutcomePanic], counts[OutcomeRunning], len(p.Events))
		if p.Truncated {
			b.WriteString(", truncated")
		}
		b.WriteString("\n")
	}
	return b.String()
}
