package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind says what a site is.
type Kind uint8

// Site kinds. The numbers are part of the format.
const (
	KindStmt   Kind = 1 // a statement: Info is empty
	KindBranch Kind = 2 // one outcome of a decision: Info names it ("if true", "case 2", "&& rhs true"...)
	KindFunc   Kind = 3 // a function: Info is "name(params) (results)" with the recorded value names
	KindRead   Kind = 4 // a variable read: Info is the variable's name
	KindWrite  Kind = 5 // a write: Info is what was written ("x", "p.f", "s[i]")
	KindCall   Kind = 6 // a call: Info is the callee as written ("f", "x.M")
	KindPanic  Kind = 7 // a panic call (Info "panic") or a recover call (Info "recover")
	KindGo     Kind = 8 // a go statement: Info is the callee as written
	KindSend   Kind = 9 // a channel send (Info "send") or receive (Info "receive")
)

func (k Kind) String() string {
	switch k {
	case KindStmt:
		return "stmt"
	case KindBranch:
		return "branch"
	case KindFunc:
		return "func"
	case KindRead:
		return "read"
	case KindWrite:
		return "write"
	case KindCall:
		return "call"
	case KindPanic:
		return "panic"
	case KindGo:
		return "go"
	case KindSend:
		return "chan"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// EventSet is a set of event kinds a run records, one bit each.
type EventSet uint32

// Event kinds, selectable with culprit test -events.
const (
	EventStmt     EventSet = 1 << iota // statements executed, per test
	EventBranch                        // branch outcomes, per test
	EventFunc                          // function entry and exit with values
	EventRead                          // variable reads with values
	EventWrite                         // writes with values
	EventCall                          // call sites, linked to the callee's entry, with results
	EventPanic                         // panics and recovers with values
	EventGo                            // goroutine creation, parent to child
	EventChan                          // channel sends and receives with values
	EventStep                          // every statement execution, in order, per goroutine (stream records)
	EventDecision                      // every branch outcome, in order, per goroutine (stream records)
)

// AllEvents holds every event kind the runtime can record.
const AllEvents = EventStmt | EventBranch | EventFunc | EventRead | EventWrite | EventCall | EventPanic | EventGo | EventChan | EventStep | EventDecision

// StreamEvents are the kinds recorded as a stream of records (the others
// are per-test sets of sites).
const StreamEvents = AllEvents &^ (EventStmt | EventBranch)

var eventNames = []struct {
	name string
	set  EventSet
}{
	{"stmt", EventStmt},
	{"branch", EventBranch},
	{"func", EventFunc},
	{"reads", EventRead},
	{"writes", EventWrite},
	{"calls", EventCall},
	{"panics", EventPanic},
	{"goroutines", EventGo},
	{"chans", EventChan},
	{"steps", EventStep},
	{"decisions", EventDecision},
}

// ParseEvents parses a comma-separated list of event kind names, or "all".
func ParseEvents(s string) (EventSet, error) {
	if s == "all" {
		return AllEvents, nil
	}
	var set EventSet
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		found := false
		for _, e := range eventNames {
			if e.name == f {
				set |= e.set
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown event kind %q (want all or a list of %s)", f, EventSet(AllEvents))
		}
	}
	return set, nil
}

func (s EventSet) String() string {
	var names []string
	for _, e := range eventNames {
		if s&e.set != 0 {
			names = append(names, e.name)
		}
	}
	return strings.Join(names, ",")
}

// Site is one instrumented place in the user's source.
type Site struct {
	Kind    Kind
	File    string // absolute path of the original file
	Line    int    // 1-based
	Col     int    // 1-based, in bytes
	EndLine int
	EndCol  int
	Func    string // enclosing function, as pkgpath.Name or pkgpath.Type.Method; "" at package level
	Info    string // kind-specific detail, see Kind
	// The declaration of the variable a read or write site names (its
	// root variable: x of p.f, s of s[i]), so that shadowed names stay
	// apart: "" and 0 when it is not a variable of the program (a field
	// of a qualified package, a blank) or not known.
	DeclFile string
	DeclLine int
	DeclCol  int
}

// Results returns the result names of a function site (KindFunc), from
// its Info "name(params) (results)": nil when it has none.
func (s Site) Results() []string {
	if s.Kind != KindFunc || !strings.HasSuffix(s.Info, ")") {
		return nil
	}
	i := strings.LastIndex(s.Info, ") (")
	if i < 0 {
		return nil
	}
	return strings.Split(s.Info[i+len(") ("):len(s.Info)-1], ", ")
}

// Decl returns the declaring position "file:line:col", or "".
func (s Site) Decl() string {
	if s.DeclLine == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", s.DeclFile, s.DeclLine, s.DeclCol)
}

// Pos returns "file:line:col".
func (s Site) Pos() string { return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col) }

// Sites is a site table: the index of a site is its ID.
type Sites struct {
	Root   string   // module root directory the files are under
	Events EventSet // the event kinds the run recorded
	Sites  []Site
}

// Outcome is how a test ended.
type Outcome uint8

// Test outcomes. The numbers are part of the format.
const (
	OutcomeRunning Outcome = 0 // still running when the trace was written (the process died)
	OutcomePass    Outcome = 1
	OutcomeFail    Outcome = 2
	OutcomeSkip    Outcome = 3
	OutcomePanic   Outcome = 4 // the test's own goroutine panicked
	OutcomeUnknown Outcome = 5 // examples: testing decides after the function returns
)

func (o Outcome) String() string {
	switch o {
	case OutcomeRunning:
		return "running"
	case OutcomePass:
		return "pass"
	case OutcomeFail:
		return "fail"
	case OutcomeSkip:
		return "skip"
	case OutcomePanic:
		return "panic"
	case OutcomeUnknown:
		return "unknown"
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// TestKind says what sort of test function a test is.
type TestKind uint8

// Test kinds. The numbers are part of the format.
const (
	TestFunc      TestKind = 0 // TestXxx and its subtests, fuzz seeds (FuzzXxx/seed#0)
	TestBenchmark TestKind = 1
	TestFuzz      TestKind = 2 // the FuzzXxx function itself
	TestExample   TestKind = 3
)

// Value is one recorded value.
type Value struct {
	Tag   uint8  // one of the Val constants
	Int   int64  // ValInt
	Uint  uint64 // ValUint; ValRef: length of a slice or map, 0 otherwise
	Float float64
	Str   string // ValString: the first MaxString bytes
	Len   int    // ValString: the full length
	Type  string // ValRef, ValOther: the Go type

	// The parts of a value recorded deep (format 4: function entries,
	// exits and call results), each bounded as format.go says.
	Fields []Field // a struct (ValOther): its first fields, in order
	Elems  []Value // a slice (ValRef) or array (ValOther): its first elements; a pointer (ValRef): the value it points to
	Err    *Value  // an error of the standard library: its message (a ValString)
	Deep   bool    // the value was recorded with its parts (Fields, Elems, Err: those it has)
}

// Field is one field of a struct value.
type Field struct {
	Name  string
	Value Value
}

// Pointer reports whether v is a non-nil pointer recorded with the value
// it points to (Elems[0]).
func (v Value) Pointer() bool {
	return v.Tag == ValRef && v.Deep && strings.HasPrefix(v.Type, "*") && len(v.Elems) == 1
}

// Deref returns the value v points to, when v is a pointer recorded deep.
func (v Value) Deref() (Value, bool) {
	if !v.Pointer() {
		return Value{}, false
	}
	return v.Elems[0], true
}

// Full renders v with its recorded parts: &{X: 1, Y: 2}, []int{1, 2,
// ...}(len 10), error("boom"). String renders the value alone.
func (v Value) Full() string {
	var b strings.Builder
	v.full(&b)
	return b.String()
}

func (v Value) full(b *strings.Builder) {
	if v.Err != nil {
		b.WriteString("error(" + v.Err.String() + ")")
		return
	}
	switch {
	case !v.Deep:
		b.WriteString(v.String())
	case v.Pointer():
		b.WriteString("&")
		v.Elems[0].full(b)
	case v.Fields != nil || (v.Tag == ValOther && v.Elems == nil):
		b.WriteString(v.Type + "{")
		for i, f := range v.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + ": ")
			f.Value.full(b)
		}
		b.WriteString("}")
	default:
		b.WriteString(v.Type + "{")
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.full(b)
		}
		if uint64(len(v.Elems)) < v.Uint {
			fmt.Fprintf(b, ", ...}(len %d)", v.Uint)
			return
		}
		b.WriteString("}")
	}
}

func (v Value) String() string { return string(v.AppendString(nil)) }

// AppendString appends v's String form to b: a caller comparing it with
// strings it holds allocates nothing (string(b) == x does not).
func (v Value) AppendString(b []byte) []byte {
	switch v.Tag {
	case ValNil:
		return append(b, "nil"...)
	case ValFalse:
		return append(b, "false"...)
	case ValTrue:
		return append(b, "true"...)
	case ValInt:
		return strconv.AppendInt(b, v.Int, 10)
	case ValUint:
		return strconv.AppendUint(b, v.Uint, 10)
	case ValFloat:
		return fmt.Append(b, v.Float)
	case ValString:
		b = strconv.AppendQuote(b, v.Str)
		if v.Len > len(v.Str) {
			b = append(b, "...("...)
			b = strconv.AppendInt(b, int64(v.Len), 10)
			b = append(b, " bytes)"...)
		}
		return b
	case ValRef:
		b = append(b, v.Type...)
		b = append(b, "(len "...)
		b = strconv.AppendUint(b, v.Uint, 10)
		return append(b, ')')
	case ValOther:
		b = append(b, v.Type...)
		return append(b, "{...}"...)
	}
	return append(b, '?')
}

// Test is one test, subtest, benchmark, example or fuzz seed of a process.
type Test struct {
	ID      int
	Parent  int // 0 when top-level
	Name    string
	Kind    TestKind
	Outcome Outcome
	Ended   bool  // an end record was seen
	Shared  bool  // other tests ran at the same time for part of it: Hits holds theirs then too
	Hits    []int // statement and branch-outcome sites executed, ascending
}

// Event is one stream record: a statement executed, a branch outcome, a
// function entry or exit, a read, a write, a call, a panic or recover, a
// go statement or a goroutine's start, a channel send or receive
// (trace/format.go says what each holds).
type Event struct {
	Tag       byte // one of the stream record tags: TagStep, TagDecision, TagEnter, TagExit, TagRead... (short forms are read as their long tag)
	Test      int
	Goroutine int
	Site      int
	From      int    // TagEnter: the call site that made the call, -1 when not known
	Panicking bool   // TagExit: the function was left by a panic, not a return (a 'J' record)
	Ref       uint64 // TagGo, TagStarted: the spawn number; TagSend, TagRecv: the channel
	Values    []Value
	// TagExit: the receiver's and parameters' final values, when the exit
	// recorded them after its results (read through a Dir, which knows
	// the function's results; ReadEvents alone leaves them in Values).
	Final []Value
	Loc   Loc // TagRead, TagWrite: the storage read or written, when recorded
}

// LocKind says what a Loc names.
type LocKind uint8

// Location kinds. The numbers are part of the format.
const (
	LocNone LocKind = 0 // not recorded
	LocAddr LocKind = 1 // storage at Addr: a variable, a field (the site's Info names it), *p
	LocElem LocKind = 2 // element Index of the array or slice whose element 0 is at Base; Addr is the element's
	LocKey  LocKind = 3 // the entry Key of the map Base
)

// Loc is the storage a read or write touched. Addresses identify storage
// while it is live: the garbage collector may reuse them after, and a
// goroutine's stack variables move when its stack grows.
type Loc struct {
	Kind  LocKind
	Addr  uint64 // LocAddr, LocElem: address of the storage
	Base  uint64 // LocElem: address of the sequence's element 0; LocKey: the map
	Index int64  // LocElem
	Key   Value  // LocKey: the key (bounded as values are)
}

func (l Loc) String() string {
	switch l.Kind {
	case LocAddr:
		return fmt.Sprintf("@%#x", l.Addr)
	case LocElem:
		return fmt.Sprintf("@%#x[%d]", l.Base, l.Index)
	case LocKey:
		return fmt.Sprintf("@%#x[%s]", l.Base, l.Key)
	}
	return ""
}

// Exit reports whether e is a function exit.
func (e Event) Exit() bool { return e.Tag == TagExit }
