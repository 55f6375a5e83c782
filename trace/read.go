package trace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Trace is a whole trace directory: the site table and every process.
type Trace struct {
	Sites     Sites
	Processes []*Process
	// Only is the test whose stream events alone were recorded, with its
	// parents' and subtests' (OnlyFile); "" when every test's were.
	Only string
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
	// Budget is the event budget the process's trace reached (its
	// BudgetPrefix file), after which it sampled harder; 0 when it
	// reached none.
	Budget uint64
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
	Only   string // as Trace.Only
	// Shallow makes ReadFile decode values without their parts (Fields,
	// Elems and Err stay nil; Deep says whether they were recorded) and
	// hand each record's Values to onEvent in memory the decoder reuses:
	// a Value copied out stays valid, the slice only until onEvent
	// returns. For analyses that read values' scalars only: no allocation
	// per record.
	Shallow bool
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
	only, err := os.ReadFile(filepath.Join(dir, OnlyFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return &Dir{Path: dir, Sites: sites, Events: names, Only: string(only)}, nil
}

// ReadFile streams the events file name (one of d.Events) through
// ReadEvents: onEvent, if not nil, sees each stream event instead of the
// returned Process collecting it.
func (d *Dir) ReadFile(name string, onEvent func(Event) error) (*Process, error) {
	if onEvent == nil {
		return d.read(name, readFull, nil)
	}
	return d.read(name, d.mode(), func(e *Event) error { return onEvent(*e) })
}

// ReadTests reads the events file name for its process and tests only:
// Process.Events stays empty, the stream records are skipped, not
// decoded.
func (d *Dir) ReadTests(name string) (*Process, error) {
	return d.read(name, readTests, nil)
}

func (d *Dir) mode() readMode {
	if d.Shallow {
		return readShallow
	}
	return readFull
}

// Stream is ReadFile handing each stream event by pointer, to an Event
// the reader reuses: what onEvent keeps it copies (with d.Shallow, its
// Values slices too).
func (d *Dir) Stream(name string, onEvent func(*Event) error) (*Process, error) {
	return d.read(name, d.mode(), onEvent)
}

func (d *Dir) read(name string, mode readMode, onEvent func(*Event) error) (*Process, error) {
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
		each = func(e *Event) error {
			split(e)
			return onEvent(e)
		}
	}
	p, err := readEvents(bufio.NewReaderSize(f, 1<<16), mode, each)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	for i := range p.Events {
		split(&p.Events[i])
	}
	p.File = name
	p.Budget, err = readBudget(name)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// readBudget reads the budget file beside the events file name: the
// event budget its process reached, 0 when there is none.
func readBudget(name string) (uint64, error) {
	base := filepath.Base(name)
	if !strings.HasPrefix(base, EventsPrefix) {
		return 0, nil
	}
	path := filepath.Join(filepath.Dir(name), BudgetPrefix+strings.TrimPrefix(base, EventsPrefix))
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: not an event budget: %w", path, err)
	}
	return n, nil
}

// Open reads a trace directory, collecting all events in memory.
func Open(dir string) (*Trace, error) {
	d, err := OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open trace: %w", err)
	}
	tr := &Trace{Sites: *d.Sites, Only: d.Only}
	for _, name := range d.Events {
		p, err := d.ReadFile(name, nil)
		if err != nil {
			return nil, err
		}
		tr.Processes = append(tr.Processes, p)
	}
	return tr, nil
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
	if onEvent == nil {
		return readEvents(r, readFull, nil)
	}
	return readEvents(r, readFull, func(e *Event) error { return onEvent(*e) })
}

// ReadTests decodes one events file for its process and tests only:
// the stream records are skipped, not decoded, and Process.Events stays
// empty (finding a trace's tests or outcomes costs a fraction of a
// full read).
func ReadTests(r io.Reader) (*Process, error) {
	return readEvents(r, readTests, nil)
}

// readMode says what readEvents decodes.
type readMode uint8

const (
	readFull    readMode = iota
	readShallow          // values without their parts (Dir.Shallow)
	readTests            // the tests only: stream records are skipped
)

// readEvents is ReadEvents, reading as mode says, handing each event by
// pointer to an Event it reuses.
func readEvents(r io.Reader, mode readMode, onEvent func(*Event) error) (*Process, error) {
	d := newDecoder(r)
	d.shallow = mode == readShallow
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
	var e Event             // the record read, handed to onEvent
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
			if mode == readTests {
				d.skipRecord(tag)
				break
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
				if err := onEvent(&e); err != nil {
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
