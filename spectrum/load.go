package spectrum

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Options say which events to read from a trace.
type Options struct {
	Kinds Kinds // event kinds to collect; 0 is statements only
	// MaxValues bounds the distinct values kept per function and name:
	// later new values become one "x = (other)" event. 0 is
	// DefaultMaxValues.
	MaxValues int
	// TestFiles keeps events in _test.go files, which are left out by
	// default: the tests' own code is not where a fault is looked for,
	// and their failure paths (t.Errorf) would top every ranking.
	TestFiles bool
}

// DefaultMaxValues is the default of Options.MaxValues.
const DefaultMaxValues = 16

// Needs returns the trace event kinds a run must record for kinds: values
// and predicates need function entries and exits (arguments, results and
// the activations that delimit scopes), reads and writes (assignments,
// uses and the variables in scope); predicates also need calls (their
// results, at the call).
func Needs(kinds Kinds) trace.EventSet {
	set := needed(kinds)
	if kinds.Has(Value) || kinds.Has(Predicate) {
		set |= trace.EventRead | trace.EventWrite
	}
	if kinds.Has(Predicate) {
		set |= trace.EventCall
	}
	return set
}

// needed returns the trace event kinds without which kinds cannot be
// ranked at all: a trace of function events only still gives the values
// and predicates of arguments and results.
func needed(kinds Kinds) trace.EventSet {
	var set trace.EventSet
	if kinds.Has(Stmt) {
		set |= trace.EventStmt
	}
	if kinds.Has(Branch) {
		set |= trace.EventBranch
	}
	if kinds.Has(Func) || kinds.Has(Value) || kinds.Has(Predicate) {
		set |= trace.EventFunc
	}
	return set
}

// Load reads the trace directory dir (see the trace package) and returns
// its spectra. Function events are streamed: the trace need not fit in
// memory.
func Load(dir string, opt Options) (*Spectra, error) {
	d, err := trace.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	c, err := newCollector(d.Sites, opt)
	if err != nil {
		return nil, fmt.Errorf("read trace %s: %w", dir, err)
	}
	for _, name := range d.Events {
		ps := newProcState()
		// A nil onEvent would keep every stream record in memory: a
		// trace recorded for richer kinds than ranked can hold millions.
		onEvent := func(trace.Event) error { return nil }
		if c.stream {
			onEvent = func(e trace.Event) error { c.event(ps, e); return nil }
		}
		p, err := d.ReadFile(name, onEvent)
		if err != nil {
			return nil, fmt.Errorf("read trace: %w", err)
		}
		c.process(p, ps.own)
	}
	return c.spectra(), nil
}

// FromTrace returns the spectra of a trace read with trace.Open.
//
// There is one run per leaf test of each process: a test, subtest,
// example or fuzz seed without subtests of its own. A test with subtests
// is not a run (it fails because a child failed), but what it executed
// outside its subtests belongs to each of its leaves. Skipped tests,
// benchmarks, examples whose outcome is unknown and code run outside any
// test (package initialization, TestMain) are left out. A test that
// panicked, or was still running when its process died, counts as
// failing, unless another test of the process panicked: then it was
// stopped by that panic, and is left out. A parent that failed while all its leaves passed (t.Error
// outside its subtests) counts as a failing run of its own.
func FromTrace(tr *trace.Trace, opt Options) (*Spectra, error) {
	c, err := newCollector(&tr.Sites, opt)
	if err != nil {
		return nil, err
	}
	for _, p := range tr.Processes {
		ps := newProcState()
		if c.stream {
			for _, e := range p.Events {
				c.event(ps, e)
			}
		}
		c.process(p, ps.own)
	}
	return c.spectra(), nil
}

// collector accumulates runs and events from the processes of a trace.
type collector struct {
	sites     *trace.Sites
	kinds     Kinds
	testFiles bool
	stream    bool
	noBodies  bool // values and predicates wanted, but the trace has no reads and writes
	maxValues int

	ids       map[Event]int
	events    []Event
	siteEvent []int // per site: its stmt or branch event, -1 for none, -2 not yet known
	funcs     map[int]*funcInfo
	values    map[string]int // distinct values seen per function site and name
	preds     map[predKey]int

	runs                                     []Run
	sets                                     [][]int
	skipped, unknown, running, shared, fails int
	stopped                                  int // running when another test's panic ended the process
}

// funcInfo is what a function site's Info says about its values.
type funcInfo struct {
	params, results []string
}

func newCollector(sites *trace.Sites, opt Options) (*collector, error) {
	if opt.Kinds == 0 {
		opt.Kinds = KindsOf(Stmt)
	}
	if opt.MaxValues <= 0 {
		opt.MaxValues = DefaultMaxValues
	}
	if missing := needed(opt.Kinds) &^ sites.Events; missing != 0 {
		return nil, fmt.Errorf("events %s were not recorded (the trace has %s): run culprit test -events %s",
			opt.Kinds, sites.Events, sites.Events|Needs(opt.Kinds))
	}
	c := &collector{
		noBodies:  (opt.Kinds.Has(Value) || opt.Kinds.Has(Predicate)) && sites.Events&(trace.EventRead|trace.EventWrite) != trace.EventRead|trace.EventWrite,
		testFiles: opt.TestFiles,
		sites:     sites,
		kinds:     opt.Kinds,
		stream:    opt.Kinds.Has(Func) || opt.Kinds.Has(Value) || opt.Kinds.Has(Predicate),
		maxValues: opt.MaxValues,
		ids:       map[Event]int{},
		siteEvent: make([]int, len(sites.Sites)),
		funcs:     map[int]*funcInfo{},
		values:    map[string]int{},
		preds:     map[predKey]int{},
	}
	for i := range c.siteEvent {
		c.siteEvent[i] = -2
	}
	return c, nil
}

// intern returns the ID of e.
func (c *collector) intern(e Event) int {
	id, ok := c.ids[e]
	if !ok {
		id = len(c.events)
		c.ids[e] = id
		c.events = append(c.events, e)
	}
	return id
}

// at returns an event of kind k at site s.
func (c *collector) at(k Kind, s trace.Site, text string) Event {
	file := s.File
	if c.sites.Root != "" {
		if rel, err := filepath.Rel(c.sites.Root, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
	}
	return Event{Kind: k, File: file, Line: s.Line, Col: s.Col, EndLine: s.EndLine, EndCol: s.EndCol, Func: s.Func, Text: text}
}

// hit returns the event of a statement or branch site, or -1.
func (c *collector) hit(site int) int {
	if site < 0 || site >= len(c.siteEvent) {
		return -1
	}
	if id := c.siteEvent[site]; id != -2 {
		return id
	}
	s := c.sites.Sites[site]
	id := -1
	switch {
	case !c.testFiles && strings.HasSuffix(s.File, "_test.go"):
	case s.Kind == trace.KindStmt && c.kinds.Has(Stmt):
		id = c.intern(c.at(Stmt, s, ""))
	case s.Kind == trace.KindBranch && c.kinds.Has(Branch):
		id = c.intern(c.at(Branch, s, s.Info))
	}
	c.siteEvent[site] = id
	return id
}

// process adds the runs of one process; own holds the stream events of
// each of its tests.
func (c *collector) process(p *trace.Process, own map[int][]int) {
	byID := map[int]*trace.Test{}
	children := map[int]int{}
	var tests []*trace.Test
	for _, t := range p.Tests {
		if t.ID != 0 { // test 0 is "no test"
			tests = append(tests, t)
		}
	}
	for _, t := range tests {
		byID[t.ID] = t
		if t.Parent != 0 {
			children[t.Parent]++
		}
	}
	// events returns what test t and its ancestors executed.
	events := func(t *trace.Test) []int {
		var set []int
		seen := map[int]bool{}
		for x := t; x != nil && !seen[x.ID]; x = byID[x.Parent] {
			seen[x.ID] = true
			for _, h := range x.Hits {
				if id := c.hit(h); id >= 0 {
					set = append(set, id)
				}
			}
			set = append(set, own[x.ID]...)
			if x.Parent == 0 {
				break
			}
		}
		return set
	}
	failedLeaf := map[int]bool{} // tests with a failing leaf below them
	for _, t := range tests {
		if t.Kind == trace.TestBenchmark || children[t.ID] > 0 {
			continue
		}
		if failing(t.Outcome) {
			for x := byID[t.Parent]; x != nil && !failedLeaf[x.ID]; x = byID[x.Parent] {
				failedLeaf[x.ID] = true
			}
		}
	}
	add := func(t *trace.Test, out Outcome) {
		run := Run{Package: p.Package, Name: t.Name, Outcome: out}
		if t.Outcome != trace.OutcomePass && t.Outcome != trace.OutcomeFail {
			run.Detail = t.Outcome.String()
		}
		if t.Shared {
			c.shared++
			run.Shared = true
		}
		c.runs = append(c.runs, run)
		c.sets = append(c.sets, events(t))
	}
	// A panic ends its process: the tests running beside the one that
	// panicked stop there, neither passing nor failing.
	panicked := false
	for _, t := range tests {
		panicked = panicked || t.Outcome == trace.OutcomePanic
	}
	for _, t := range tests {
		isLeaf := t.Kind != trace.TestBenchmark && children[t.ID] == 0
		switch {
		case isLeaf && t.Outcome == trace.OutcomeRunning && panicked:
			c.stopped++
		case isLeaf && t.Outcome == trace.OutcomeSkip:
			c.skipped++
		case isLeaf && t.Outcome == trace.OutcomeUnknown:
			c.unknown++
		case isLeaf && t.Outcome == trace.OutcomePass:
			add(t, Pass)
		case isLeaf:
			if t.Outcome == trace.OutcomeRunning {
				c.running++
			}
			add(t, Fail)
		case children[t.ID] > 0 && failing(t.Outcome) && !failedLeaf[t.ID]:
			c.fails++
			add(t, Fail)
		}
	}
}

func failing(o trace.Outcome) bool {
	return o == trace.OutcomeFail || o == trace.OutcomePanic || o == trace.OutcomeRunning
}

func (c *collector) spectra() *Spectra {
	s := build(c.sites.Root, c.runs, c.events, c.sets)
	s.Kinds = c.kinds
	note := func(n int, format string) {
		if n > 0 {
			s.Notes = append(s.Notes, fmt.Sprintf(format, n))
		}
	}
	note(c.skipped, "%d skipped tests left out")
	note(c.unknown, "%d examples whose outcome is not known left out")
	note(c.running, "%d tests still running when their process died, counted as failing")
	note(c.stopped, "%d tests still running when another test's panic ended their process left out")
	note(c.fails, "%d tests that failed outside their subtests (all of which passed), counted as failing runs of their own")
	note(c.shared, "%d tests ran in parallel with others: their spectra hold what the others executed meanwhile")
	if c.noBodies {
		s.Notes = append(s.Notes, "the trace has no reads and writes: values and predicates of arguments and results only (record with culprit test -events "+(c.sites.Events|Needs(c.kinds)).String()+")")
	}
	for k, n := range c.values {
		if n > c.maxValues {
			i := strings.IndexByte(k, '\x00')
			s.Notes = append(s.Notes, fmt.Sprintf("%s: %d distinct values of %s, %d kept", k[:i], n, k[i+1:], c.maxValues))
		}
	}
	sort.Strings(s.Notes)
	return s
}

type namedValue struct {
	name string
	v    trace.Value
}

// parseFuncInfo splits "name(a, b) (r0, r1)".
func parseFuncInfo(info string) *funcInfo {
	fi := &funcInfo{}
	open := strings.IndexByte(info, '(')
	if open < 0 {
		return fi
	}
	rest := info[open+1:]
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return fi
	}
	fi.params = splitNames(rest[:end])
	rest = strings.TrimSpace(rest[end+1:])
	if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
		fi.results = splitNames(rest[1 : len(rest)-1])
	}
	return fi
}

func splitNames(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

// predicates returns the predicates that hold over a function's
// arguments or results: the comparison of every pair of numbers, the sign
// of each number, nil-ness of references, emptiness of strings, slices
// and maps.
func predicates(vs []namedValue) []string {
	var out []string
	for i, a := range vs {
		x, ok := number(a.v)
		if !ok {
			if p := shape(a.name, a.v); p != "" {
				out = append(out, p)
			}
			continue
		}
		out = append(out, a.name+" "+compare(x, 0)+" 0")
		for _, b := range vs[i+1:] {
			if y, ok := number(b.v); ok {
				out = append(out, a.name+" "+compare(x, y)+" "+b.name)
			}
		}
	}
	return out
}
