package spectrum

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Kind says what sort of event an Event is.
type Kind uint8

// Event kinds. The names (String) are the values of culprit rank -events.
const (
	Stmt      Kind = iota + 1 // a statement executed
	Branch                    // one outcome of a decision ("if true", "case 2")
	Func                      // a function entered
	Value                     // a value assigned, or seen at a function's entry or exit: "x = 3"
	Predicate                 // a predicate at an assignment, entry or exit: "x < y", "result > 0", "err == nil"
)

var kindNames = []string{Stmt: "stmt", Branch: "branch", Func: "func", Value: "value", Predicate: "pred"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Kinds is a set of event kinds, one bit per Kind.
type Kinds uint32

// Has reports whether k is in the set.
func (s Kinds) Has(k Kind) bool { return s&(1<<k) != 0 }

// KindsOf returns the set holding ks.
func KindsOf(ks ...Kind) Kinds {
	var s Kinds
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// AllKinds holds every event kind.
var AllKinds = KindsOf(Stmt, Branch, Func, Value, Predicate)

// plurals are accepted for the kinds' names, as culprit test names its
// kinds ("reads", "writes").
var plurals = map[string]string{"stmts": "stmt", "branches": "branch", "funcs": "func", "values": "value", "preds": "pred"}

// ParseKinds parses a comma-separated list of kind names, or "all".
func ParseKinds(list string) (Kinds, error) {
	if list == "all" {
		return AllKinds, nil
	}
	var s Kinds
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if one, ok := plurals[f]; ok {
			f = one
		}
		found := false
		for k, name := range kindNames {
			if name != "" && name == f {
				s |= 1 << k
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown event kind %q (want all or a list of %s)", f, AllKinds)
		}
	}
	return s, nil
}

func (s Kinds) String() string {
	var names []string
	for k, name := range kindNames {
		if name != "" && s.Has(Kind(k)) {
			names = append(names, name)
		}
	}
	return strings.Join(names, ",")
}

// Event is one thing a run can do: execute a statement, take a branch,
// enter a function, see a value. Two events are the same when all their
// fields are equal.
type Event struct {
	Kind    Kind
	File    string // the source file, relative to Spectra.Root when under it (slash-separated)
	Line    int    // 1-based; 0 when the event has no position
	Col     int    // 1-based, in bytes
	EndLine int
	EndCol  int
	Func    string // enclosing function (pkgpath.Name, pkgpath.Type.Method)
	Text    string // what happened: "" for statements, "if true", "x = 3", "x < y"
}

// Pos returns "file:line:col", or "file:line" when the column is not known.
func (e Event) Pos() string {
	if e.Col == 0 {
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
}

// String describes the event in one line: "middle.go:12:4 stmt",
// "middle.go:8:5 branch if true", "middle.go:7:31 value x = 2".
func (e Event) String() string {
	s := e.Pos() + " " + e.Kind.String()
	if e.Text != "" {
		s += " " + e.Text
	}
	return s
}

// less orders events by position, then kind and text.
func (e Event) less(f Event) bool {
	if e.File != f.File {
		return e.File < f.File
	}
	if e.Line != f.Line {
		return e.Line < f.Line
	}
	if e.Col != f.Col {
		return e.Col < f.Col
	}
	if e.Kind != f.Kind {
		return e.Kind < f.Kind
	}
	if e.Text != f.Text {
		return e.Text < f.Text
	}
	return e.Func < f.Func
}

// Outcome is how a run ended, as far as ranking is concerned.
type Outcome uint8

// Run outcomes.
const (
	Pass Outcome = iota + 1
	Fail
)

func (o Outcome) String() string {
	switch o {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	}
	return fmt.Sprintf("outcome(%d)", uint8(o))
}

// Run is one execution with an outcome: a leaf test, or a run a Builder
// was given.
type Run struct {
	Package string // import path of the test's package ("" for a Builder's runs)
	Name    string // the test's name as go test prints it ("TestMiddle/2_1_3")
	Outcome Outcome
	Detail  string // how the test ended when it is not plain pass or fail ("panic", "running")
	// Shared says that other tests ran at the same time for part of this
	// one and its events may include theirs (the runtime's FlagShared).
	Shared bool
}

// ID returns the run's name, prefixed with its package when it has one.
func (r Run) ID() string {
	if r.Package == "" {
		return r.Name
	}
	return r.Package + "." + r.Name
}

// Counts are the four numbers every spectrum metric is a function of.
type Counts struct {
	EF int // failing runs that had the event
	EP int // passing runs that had the event
	NF int // failing runs that did not
	NP int // passing runs that did not
}

// Failed returns the number of failing runs, EF+NF.
func (c Counts) Failed() int { return c.EF + c.NF }

// Passed returns the number of passing runs, EP+NP.
func (c Counts) Passed() int { return c.EP + c.NP }

// Spectra is the matrix of runs by events: for each run, the set of events
// it had. Events are sorted by position; only events at least one run had
// are present.
type Spectra struct {
	Root   string  // directory event files are relative to ("" when not known)
	Kinds  Kinds   // the kinds of events collected (0 when not known: a Builder's)
	Runs   []Run   // in the order they were added or found
	Events []Event // sorted by position, kind and text
	Notes  []string

	runEvents [][]int32 // per run, ascending event indexes
	counts    []Counts  // per event
}

// Failed returns the number of failing runs.
func (s *Spectra) Failed() int {
	n := 0
	for _, r := range s.Runs {
		if r.Outcome == Fail {
			n++
		}
	}
	return n
}

// Passed returns the number of passing runs.
func (s *Spectra) Passed() int { return len(s.Runs) - s.Failed() }

// Counts returns the counts of event e (an index into Events).
func (s *Spectra) Counts(e int) Counts { return s.counts[e] }

// RunEvents returns the events run r had, as ascending indexes into Events.
func (s *Spectra) RunEvents(r int) []int32 { return s.runEvents[r] }

// Has reports whether run r had event e.
func (s *Spectra) Has(r, e int) bool {
	evs := s.runEvents[r]
	i := sort.Search(len(evs), func(i int) bool { return int(evs[i]) >= e })
	return i < len(evs) && int(evs[i]) == e
}

// Builder assembles Spectra from runs a program labels itself, as the
// seed's statistical debugger collects passing and failing calls. The zero
// value is ready to use.
type Builder struct {
	Root   string
	runs   []Run
	events map[Event]int
	list   []Event
	sets   [][]int
}

// Add records a run and the events it had (duplicates are ignored).
func (b *Builder) Add(run Run, events ...Event) {
	if b.events == nil {
		b.events = map[Event]int{}
	}
	set := make([]int, 0, len(events))
	for _, e := range events {
		id, ok := b.events[e]
		if !ok {
			id = len(b.list)
			b.events[e] = id
			b.list = append(b.list, e)
		}
		set = append(set, id)
	}
	b.runs = append(b.runs, run)
	b.sets = append(b.sets, set)
}

// Spectra returns the spectra of the runs added so far.
func (b *Builder) Spectra() *Spectra {
	return build(b.Root, b.runs, b.list, b.sets)
}

// build sorts the events, renumbers the runs' sets and counts.
func build(root string, runs []Run, events []Event, sets [][]int) *Spectra {
	order := make([]int, len(events))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		switch {
		case events[i].less(events[j]):
			return -1
		case events[j].less(events[i]):
			return 1
		}
		return 0
	})
	renum := make([]int32, len(events))
	sorted := make([]Event, len(events))
	for newID, old := range order {
		renum[old] = int32(newID)
		sorted[newID] = events[old]
	}
	s := &Spectra{Root: root, Runs: runs, Events: sorted, counts: make([]Counts, len(events))}
	s.runEvents = make([][]int32, len(runs))
	for r, set := range sets {
		evs := make([]int32, 0, len(set))
		for _, old := range set {
			evs = append(evs, renum[old])
		}
		slices.Sort(evs)
		evs = dedup(evs)
		s.runEvents[r] = evs
	}
	failed, passed := 0, 0
	for r, run := range runs {
		fail := run.Outcome == Fail
		if fail {
			failed++
		} else {
			passed++
		}
		for _, e := range s.runEvents[r] {
			if fail {
				s.counts[e].EF++
			} else {
				s.counts[e].EP++
			}
		}
	}
	for i := range s.counts {
		s.counts[i].NF = failed - s.counts[i].EF
		s.counts[i].NP = passed - s.counts[i].EP
	}
	return s
}

func dedup(s []int32) []int32 {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Filter returns the spectra restricted to the events keep accepts; runs
// stay as they are.
func (s *Spectra) Filter(keep func(Event) bool) *Spectra {
	var events []Event
	var sets [][]int
	renum := make([]int, len(s.Events))
	for i, e := range s.Events {
		renum[i] = -1
		if keep(e) {
			renum[i] = len(events)
			events = append(events, e)
		}
	}
	for _, evs := range s.runEvents {
		var set []int
		for _, e := range evs {
			if renum[e] >= 0 {
				set = append(set, renum[e])
			}
		}
		sets = append(sets, set)
	}
	out := build(s.Root, s.Runs, events, sets)
	out.Notes, out.Kinds = s.Notes, s.Kinds
	return out
}

// FilterRuns returns the spectra of the runs keep accepts, with the events
// they had.
func (s *Spectra) FilterRuns(keep func(Run) bool) *Spectra {
	var runs []Run
	var sets [][]int
	used := make([]bool, len(s.Events))
	for r, run := range s.Runs {
		if !keep(run) {
			continue
		}
		runs = append(runs, run)
		set := make([]int, len(s.runEvents[r]))
		for i, e := range s.runEvents[r] {
			set[i] = int(e)
			used[e] = true
		}
		sets = append(sets, set)
	}
	var events []Event
	renum := make([]int, len(s.Events))
	for i, e := range s.Events {
		if used[i] {
			renum[i] = len(events)
			events = append(events, e)
		}
	}
	for _, set := range sets {
		for i, e := range set {
			set[i] = renum[e]
		}
	}
	out := build(s.Root, runs, events, sets)
	out.Notes, out.Kinds = s.Notes, s.Kinds
	return out
}
