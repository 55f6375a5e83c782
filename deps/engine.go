package deps

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Options selects the run a graph is built from.
type Options struct {
	// Test names the test (or subtest, "TestX/sub") whose run to analyze;
	// "" picks the first failing leaf test.
	Test string
	// Versions builds the execution-level graph instead of the summary
	// graph: each definition is a node of its own (a version, Node.Version),
	// constants are leaf nodes, calls into code that is not instrumented
	// are nodes, and element reads with a known index are named by it
	// (versions.go).
	Versions bool
	// MaxNodes bounds an execution-level graph's nodes (Versions): past
	// it, the sites that made the most versions make no new ones, their
	// latest version standing for later definitions (versions.go). 0
	// sets it from the trace's size (a node per eventsPerNode events);
	// negative, no bound.
	MaxNodes int
	// Segments cuts the run at its checks (Graph.Segments): the test
	// case purification of a failing test's spectrum.
	Segments bool
}

// ErrNoFailure is returned by Build when no test was named and none failed.
var ErrNoFailure = errors.New("no test failed: name one with -test")

// ErrNoTest is the error (wrapped, with the trace's test names) when the
// test named is not in the trace.
var ErrNoTest = errors.New("no such test in the trace")

// Run is the graph of one test's run.
type Run struct {
	*Graph
	Package string
	Test    string
	Outcome trace.Outcome
	Root    string // the module root the site table names

	src *source // the files the replay read
}

// Syntax returns the source file path as the replay read it: its bytes
// and its syntax, positions in fset; ok is false when the replay did not
// read it. Analyses over a run read no file again.
func (r *Run) Syntax(path string) (fset *token.FileSet, f *ast.File, src []byte, ok bool) {
	if r.src == nil {
		return nil, nil, nil, false
	}
	sf, ok := r.src.files[path]
	if !ok || sf == nil {
		return nil, nil, nil, false
	}
	return sf.fset, sf.ast, sf.src, true
}

// Build replays the events of one test of a trace (with those of its
// parent tests and of package initialization, whose variables it sees)
// and returns its dependence graph. Source files named by the site table
// are parsed for the program's structure: statements, control flow,
// assignments and calls.
func Build(tr *trace.Trace, opt Options) (*Run, error) {
	proc, test, err := pick(tr, opt.Test)
	if err != nil {
		return nil, err
	}
	return build(tr, proc, test, opt)
}

// build replays one test of proc.
func build(tr *trace.Trace, proc *trace.Process, test *trace.Test, opt Options) (*Run, error) {
	if opt.MaxNodes == 0 {
		opt.MaxNodes = max(minNodes, len(proc.Events)/eventsPerNode)
	}
	return replayOne(tr, proc, test, opt, held(proc))
}

// held calls back with the events of proc held in memory.
func held(proc *trace.Process) events {
	return func(want func(int) bool, f func(*trace.Event)) error {
		for i := range proc.Events {
			if e := &proc.Events[i]; want(e.Test) {
				f(e)
			}
		}
		return nil
	}
}

// events calls f back with a process's events, in order, those of the
// tests want takes.
type events func(want func(test int) bool, f func(*trace.Event)) error

// BuildStream is Build for a trace directory whose events are not held
// in memory: it reads each events file once to find the tests, then the
// chosen test's file again, replaying its records as they are decoded
// (for execution-level graphs, Options.Versions, of long runs: the
// graph grows with the run, the trace is not kept).
func BuildStream(dir string, opt Options) (*Run, error) {
	d, tr, err := openStream(dir)
	if err != nil {
		return nil, err
	}
	proc, test, err := pick(tr, opt.Test)
	if err != nil {
		return nil, err
	}
	if opt.MaxNodes == 0 {
		opt.MaxNodes = minNodes
		if fi, err := os.Stat(proc.File); err == nil {
			opt.MaxNodes = max(minNodes, int(fi.Size()/(eventBytes*eventsPerNode)))
		}
	}
	return replayOne(tr, proc, test, opt, stream(d, proc))
}

// openStream opens the trace directory dir for streaming and reads each
// events file once to find its process's tests, skipping the events.
// Values are read shallow: the engine reads their scalars only, and
// keeps none of the slices a record comes in.
func openStream(dir string) (*trace.Dir, *trace.Trace, error) {
	d, err := trace.OpenDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open trace: %w", err)
	}
	d.Shallow = true
	tr := &trace.Trace{Sites: *d.Sites, Only: d.Only}
	for _, name := range d.Events {
		p, err := d.ReadTests(name)
		if err != nil {
			return nil, nil, err
		}
		tr.Processes = append(tr.Processes, p)
	}
	return d, tr, nil
}

// An execution-level graph's nodes are bounded by default by the
// trace's size: a node per eventsPerNode events, an event counted as
// eventBytes bytes of an events file (what culprit's traces average),
// and no fewer than minNodes (programs' and tests' runs of the size of
// the examples are never bounded). A node, its edges and the replay's
// state of it take some 600 bytes while the graph is built, a node
// stands for 288 bytes of trace: the graph takes about twice the trace's
// size, and the process, with the garbage collector's headroom, some
// four to seven times (btree's and yaml.v3's failing tests).
const (
	eventsPerNode = 32
	eventBytes    = 9
	minNodes      = 1 << 16
)

// batchLen is the number of events a batch carries from the decoder to
// the replay.
const batchLen = 1 << 10

// batch is events decoded, their values copied out of the decoder's
// reused memory.
type batch struct {
	evs  []trace.Event
	vals []trace.Value
}

// stream reads proc's events file and calls back with the events of the
// tests want takes: decoded on a goroutine of its own, a batch at a
// time, while the caller replays the batch before (the decoder is a
// third of the work, and most machines have a second core).
func stream(d *trace.Dir, proc *trace.Process) events {
	return func(want func(int) bool, f func(*trace.Event)) error {
		const batches = 4
		full, free := make(chan *batch, batches), make(chan *batch, batches)
		for range batches {
			free <- &batch{evs: make([]trace.Event, 0, batchLen)}
		}
		var err error
		go func() {
			defer close(full)
			b := <-free
			_, err = d.Stream(proc.File, func(e *trace.Event) error {
				if !want(e.Test) {
					return nil
				}
				b.evs = append(b.evs, *e)
				if n := len(e.Values) + len(e.Final); n > 0 {
					// Copied: the decoder reuses the memory it hands out.
					c := &b.evs[len(b.evs)-1]
					i := len(b.vals)
					b.vals = append(append(b.vals, e.Values...), e.Final...)
					c.Values = b.vals[i : i+len(e.Values) : i+len(e.Values)]
					c.Final = b.vals[i+len(e.Values) : i+n : i+n]
				}
				if len(b.evs) == batchLen {
					full <- b
					b = <-free
				}
				return nil
			})
			if len(b.evs) > 0 {
				full <- b
			}
		}()
		for b := range full {
			for i := range b.evs {
				f(&b.evs[i])
			}
			b.evs, b.vals = b.evs[:0], b.vals[:0]
			free <- b
		}
		return err
	}
}

// replayOne builds the graph of one test of proc (replay).
func replayOne(tr *trace.Trace, proc *trace.Process, test *trace.Test, opt Options, each events) (*Run, error) {
	runs, err := replay(tr, newProgram(tr.Sites.Sites), proc, []*trace.Test{test}, opt, each)
	if err != nil {
		return nil, err
	}
	return runs[0], nil
}

// budgetNote says what a trace that reached its event budget lost.
func budgetNote(n uint64) string {
	return fmt.Sprintf("the run reached its budget of %d recorded events: from then on each site recorded its first 100 events, then those numbered by powers of two, so dependencies through the events left out are missing (-calls -1 records every event)", n)
}

// replay builds the graphs of tests of proc, one each, from one pass
// over proc's events, which each calls back with in order: each graph's
// builder replays the events of its test, of the test's parents and of
// package initialization (test 0), whose variables it sees.
func replay(tr *trace.Trace, prog *program, proc *trace.Process, tests []*trace.Test, opt Options, each events) ([]*Run, error) {
	opts := make([]Options, len(tests))
	for i := range opts {
		opts[i] = opt
	}
	return replayEach(tr, prog, proc, tests, opts, each)
}

// replayEach is replay with options of its own for each test's graph,
// opts[i] tests[i]'s: one pass builds graphs of either view.
func replayEach(tr *trace.Trace, prog *program, proc *trace.Process, tests []*trace.Test, opts []Options, each events) ([]*Run, error) {
	need := trace.EventRead | trace.EventFunc
	if tr.Sites.Events&need != need {
		return nil, fmt.Errorf("the trace lacks reads or function events (recorded: %s): run culprit test -events all", tr.Sites.Events)
	}
	builders := make([]*builder, len(tests))
	feeds := map[int][]*builder{} // test ID -> the builders its events go to
	for i, test := range tests {
		opt := opts[i]
		b := newBuilder(prog, test)
		if opt.Versions {
			b.view = newVersioned(b, opt.MaxNodes)
		}
		if opt.Segments {
			b.seg = segmenter{on: true, seen: map[int]int{}, conds: map[*unit]int{}, sites: prog.sites}
		}
		if proc.Budget > 0 {
			b.note(budgetNote(proc.Budget))
		}
		builders[i] = b
		in := map[int]bool{0: true}
		for t := proc.Test(test.ID); t != nil; t = proc.Test(t.Parent) {
			in[t.ID] = true
			if t.Parent == 0 {
				break
			}
		}
		for id := range in {
			feeds[id] = append(feeds[id], b)
		}
	}
	err := each(func(test int) bool { return len(feeds[test]) > 0 }, func(e *trace.Event) {
		for _, b := range feeds[e.Test] {
			b.event(e, e.Test == b.test.ID)
		}
	})
	if err != nil {
		return nil, err
	}
	runs := make([]*Run, len(tests))
	for i, b := range builders {
		b.finish()
		runs[i] = &Run{Graph: b.g, Package: proc.Package, Test: b.test.Name, Outcome: b.test.Outcome, Root: tr.Sites.Root, src: prog.src}
	}
	return runs, nil
}

// pick returns the process and test named, or the first failing leaf,
// unless the trace did not record that test's stream events (a slice or
// flow run of another test: trace.Trace.Only).
func pick(tr *trace.Trace, name string) (*trace.Process, *trace.Test, error) {
	p, t, err := pickTest(tr, name)
	if err == nil && tr.Only != "" && !related(t.Name, tr.Only) {
		return nil, nil, &unrecordedError{t.Name, tr.Only}
	}
	return p, t, err
}

// related reports whether test name is test only, one of its parents or
// one of its subtests: the tests whose stream events a run that recorded
// only's (trace.Trace.Only) kept.
func related(name, only string) bool {
	return name == only || strings.HasPrefix(only, name+"/") || strings.HasPrefix(name, only+"/")
}

// unrecordedError says that the trace holds another test's run only.
type unrecordedError struct{ name, only string }

func (e *unrecordedError) Error() string {
	return fmt.Sprintf("the trace records the run of %s (with its parents and subtests) only, not %s's: run the tests again for %s, without -trace", e.only, e.name, e.name)
}

func (e *unrecordedError) Unwrap() error { return ErrNoTest }

// pickTest is pick, whatever the trace recorded.
func pickTest(tr *trace.Trace, name string) (*trace.Process, *trace.Test, error) {
	var names []string
	for _, p := range tr.Processes {
		parents := map[int]bool{}
		for _, t := range p.Tests {
			parents[t.Parent] = true
		}
		for _, t := range p.Tests {
			if t.ID == 0 || t.Name == "" {
				continue
			}
			if name != "" && t.Name == name {
				if leaf := failingLeaf(p, t, parents); leaf != nil {
					return p, leaf, nil
				}
				return p, t, nil
			}
			if name == "" && !parents[t.ID] && (t.Outcome == trace.OutcomeFail || t.Outcome == trace.OutcomePanic) {
				return p, t, nil
			}
			names = append(names, t.Name)
		}
	}
	if name == "" {
		return nil, nil, ErrNoFailure
	}
	sort.Strings(names)
	if len(names) > 8 {
		names = append(names[:8], "...")
	}
	return nil, nil, &noTestError{name, names}
}

// noTestError says which test is not in the trace and which are.
type noTestError struct {
	name  string
	names []string
}

func (e *noTestError) Error() string {
	return fmt.Sprintf("no test %q in the trace (tests: %s)", e.name, strings.Join(e.names, ", "))
}

func (e *noTestError) Unwrap() error { return ErrNoTest }

// failingLeaf returns, for a test that failed and has subtests, its first
// failing leaf subtest (in the order the tests started): a parent fails
// through its subtests, and its own run holds no failing check. Nil when
// t passed or has no failing leaf below it.
func failingLeaf(p *trace.Process, t *trace.Test, parents map[int]bool) *trace.Test {
	failed := func(t *trace.Test) bool { return t.Outcome == trace.OutcomeFail || t.Outcome == trace.OutcomePanic }
	if !failed(t) || !parents[t.ID] {
		return nil
	}
	for _, c := range p.Tests {
		if c.ID == t.ID || parents[c.ID] || !failed(c) {
			continue
		}
		for a := p.Test(c.Parent); a != nil && a.ID != 0; a = p.Test(a.Parent) {
			if a.ID == t.ID {
				return c
			}
			if a.Parent == a.ID {
				break
			}
		}
	}
	return nil
}

// program is what the builders of one trace's graphs share, not changed
// by their replays (but for the files' memo of declaring positions,
// which file.key fills the same whoever asks): the site table, the
// parsed source files it names, and the unit or function of each site.
type program struct {
	plans      map[planKey]*readPlan
	paramNames [][]string                     // per function site: params' answers
	logical    map[ast.Node][]*ast.BinaryExpr // logicals' answers
	sites      []trace.Site
	src        *source
	units      []*unit // per site: the unit holding it
	funcs      []*function
	// Per site: its position and its end's, found once (NoPos for a
	// site of a file not read).
	sitePos, siteEnd []token.Pos
}

func newProgram(sites []trace.Site) *program {
	p := &program{sites: sites, src: newSource(), units: make([]*unit, len(sites)), funcs: make([]*function, len(sites)),
		sitePos: make([]token.Pos, len(sites)), siteEnd: make([]token.Pos, len(sites))}
	for i, s := range sites {
		f := p.src.file(s.File)
		if f == nil {
			continue
		}
		pos := f.pos(s.Line, s.Col)
		p.sitePos[i], p.siteEnd[i] = pos, f.pos(s.EndLine, s.EndCol)
		if s.Kind == trace.KindFunc {
			p.funcs[i] = f.funcAt(pos)
		} else {
			p.units[i] = f.unitAt(pos)
		}
	}
	return p
}

// finish ends every open instance and indexes the graph.
func (b *builder) finish() {
	ids := make([]int, 0, len(b.gors))
	for id := range b.gors {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		g := b.gors[id]
		for i := len(g.stack) - 1; i >= 0; i-- {
			b.end(g.stack[i])
		}
	}
	failed := b.test.Outcome != trace.OutcomePass && b.test.Outcome != trace.OutcomeSkip
	b.g.Segments = b.seg.finish(failed)
	if len(b.g.Failure) == 0 && failed {
		// A runtime panic records no panic event: the statement that
		// raised it, when a frame was seen unwinding from it and no
		// recover stopped it (the latest, over the goroutines).
		best, at := -1, -1
		for _, id := range ids {
			if g := b.gors[id]; g.unwound >= 0 && g.unwoundAt > at {
				best, at = g.unwound, g.unwoundAt
			}
		}
		if best >= 0 {
			b.g.Failure, b.g.FailureKind = []int{best}, FailurePanic
		}
	}
	if len(b.g.Failure) == 0 && b.lastIn >= 0 && failed {
		// Else the test's last step.
		b.g.Failure, b.g.FailureKind = []int{b.lastIn}, FailureLast
	}
	// What the replay kept of the program's memory and goroutines is
	// done with: let it go before the graph's edges are laid out.
	b.gors, b.last, b.global, b.chans = nil, nil, nil, nil
	b.mem, b.gmem, b.vaddr, b.located, b.elemOnly, b.elemN, b.elemLogs, b.globalsOf = nil, nil, nil, nil, nil, nil, nil, nil
	b.view.replayed()
	b.compactEdges()
	b.g.Edges = make([]Edge, len(b.edges))
	for i, k := range b.edges {
		b.g.Edges[i] = k.edge() // in order: index finds them sorted
	}
	b.edges = nil // the graph holds them now
	b.g.index()
	b.view.finish()
}
