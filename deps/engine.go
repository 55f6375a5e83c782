package deps

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
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
}

// ErrNoFailure is returned by Build when no test was named and none failed.
var ErrNoFailure = errors.New("no test failed: name one with -test")

// Run is the graph of one test's run.
type Run struct {
	*Graph
	Package string
	Test    string
	Outcome trace.Outcome
	Root    string // the module root the site table names
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
	return replayOne(tr, proc, test, opt, func(f func(trace.Event)) error {
		for _, e := range proc.Events {
			f(e)
		}
		return nil
	})
}

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
	return replayOne(tr, proc, test, opt, stream(d, proc))
}

// openStream opens the trace directory dir for streaming and reads each
// events file once to find its process's tests; the events are not kept.
func openStream(dir string) (*trace.Dir, *trace.Trace, error) {
	d, err := trace.OpenDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open trace: %w", err)
	}
	tr := &trace.Trace{Sites: *d.Sites}
	for _, name := range d.Events {
		p, err := d.ReadFile(name, func(trace.Event) error { return nil })
		if err != nil {
			return nil, nil, err
		}
		tr.Processes = append(tr.Processes, p)
	}
	return d, tr, nil
}

// stream calls back with proc's events as its file is decoded.
func stream(d *trace.Dir, proc *trace.Process) func(func(trace.Event)) error {
	return func(f func(trace.Event)) error {
		_, err := d.ReadFile(proc.File, func(e trace.Event) error { f(e); return nil })
		return err
	}
}

// replayOne builds the graph of one test of proc (replay).
func replayOne(tr *trace.Trace, proc *trace.Process, test *trace.Test, opt Options, each func(func(trace.Event)) error) (*Run, error) {
	runs, err := replay(tr, newProgram(tr.Sites.Sites), proc, []*trace.Test{test}, opt, each)
	if err != nil {
		return nil, err
	}
	return runs[0], nil
}

// replay builds the graphs of tests of proc, one each, from one pass
// over proc's events, which each calls back with in order: each graph's
// builder replays the events of its test, of the test's parents and of
// package initialization (test 0), whose variables it sees.
func replay(tr *trace.Trace, prog *program, proc *trace.Process, tests []*trace.Test, opt Options, each func(func(trace.Event)) error) ([]*Run, error) {
	need := trace.EventRead | trace.EventFunc
	if tr.Sites.Events&need != need {
		return nil, fmt.Errorf("the trace lacks reads or function events (recorded: %s): run culprit test -events all", tr.Sites.Events)
	}
	builders := make([]*builder, len(tests))
	feeds := map[int][]*builder{} // test ID -> the builders its events go to
	for i, test := range tests {
		b := newBuilder(prog, test)
		if opt.Versions {
			b.ver = newVersioning()
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
	err := each(func(e trace.Event) {
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
		runs[i] = &Run{Graph: b.g, Package: proc.Package, Test: b.test.Name, Outcome: b.test.Outcome, Root: tr.Sites.Root}
	}
	return runs, nil
}

// pick returns the process and test named, or the first failing leaf.
func pick(tr *trace.Trace, name string) (*trace.Process, *trace.Test, error) {
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
	return nil, nil, fmt.Errorf("no test %q in the trace (tests: %s)", name, strings.Join(names, ", "))
}

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
}

func newProgram(sites []trace.Site) *program {
	p := &program{sites: sites, src: newSource(), units: make([]*unit, len(sites)), funcs: make([]*function, len(sites))}
	for i, s := range sites {
		f := p.src.file(s.File)
		if f == nil {
			continue
		}
		pos := f.pos(s.Line, s.Col)
		if s.Kind == trace.KindFunc {
			p.funcs[i] = f.funcAt(pos)
		} else {
			p.units[i] = f.unitAt(pos)
		}
	}
	return p
}

// builder replays events into a graph.
type builder struct {
	*program
	test   *trace.Test
	g      *Graph
	nodes  map[nodeKey]int
	edges  map[Edge]bool
	gors   map[int]*goroutine
	last   map[*function]*frame // the latest frame of each function
	global map[string]map[int]bool
	chans  map[uint64][]int // channel -> sent nodes not yet received
	seq    int
	noted  map[string]bool
	lastIn int            // the latest node the test itself defined, -1
	hit    map[*unit]bool // statements the test executed (its spectrum), when recorded
	ver    *versioning    // per-execution nodes (Options.Versions), nil for the summary graph

	// Memory (summary graphs): what was last written at each address or
	// map entry, which variable lives at an address, the element and
	// field definitions whose storage is known (a read of another
	// element leaves them out), and element names made per site.
	mem     map[memKey]map[int]bool
	gmem    map[string]map[memKey]bool // package-level variable -> the storage written through it
	entered map[int]bool               // call sites an entry record named: their callees are instrumented
	vaddr   map[uint64]varRef
	located map[int]bool
	// elemOnly holds the definitions that write a slice's or array's
	// elements (xs[i] = v, copy(xs, ys)) and leave its length alone:
	// len, cap and a range's header do not read them.
	elemOnly map[int]bool
	elemN    map[token.Pos]map[string]bool
	steps    map[int]stepTarget // statement site -> what its step starts
	checks   map[int]bool       // check calls the test made (checked coverage)
	sinkSeen map[Sink]bool

	// Scratch of reads: a mark per node (seen[id] == seenGen: already
	// read), and slices reused from one read to the next.
	seen        []uint32
	seenGen     uint32
	skipScratch [][2]token.Pos
	rootScratch []uint8
	posScratch  []token.Pos
	idScratch   []int
	free        []*instance // instances ended, for reuse
	// Copies that keep their parts apart (elems.go): what the elements
	// of variables defined by append hold, and where variables' elements
	// were seen stored.
	appends map[varKey]*appendRec
	bases   map[varKey]elemBase

	// The failure before the test's latest panic, back when it is
	// recovered.
	beforePanic     []int
	beforePanicKind string
}

// memKey names storage: an address, or a map and a key.
type memKey struct {
	addr uint64
	key  string
}

// varRef is a variable that lives at an address: the frame that holds
// it (nil for a package-level variable) and its key.
type varRef struct {
	fr  *frame
	key string
}

// locKey returns the storage a location names.
func locKey(l trace.Loc) (memKey, bool) {
	switch l.Kind {
	case trace.LocAddr, trace.LocElem:
		return memKey{addr: l.Addr}, l.Addr != 0
	case trace.LocKey:
		return memKey{addr: l.Base, key: l.Key.String()}, l.Base != 0
	}
	return memKey{}, false
}

type nodeKey struct {
	name string
	file string
	pos  token.Pos
}

type goroutine struct {
	stack []*frame
	ret   int // the return-value node of the call that just returned, -1
	retAt int // its call site, -1 when not known
	panic int // the node of the panic under way, -1
	// A runtime panic (no panic record): the statement that raised it,
	// found as the innermost frame exiting in the middle of a statement
	// that is not a return, -1; unwinding is true while frames exit.
	unwound   int
	unwoundAt int // b.seq when unwound was set
	unwinding bool
	// calls are the calls made on g and not yet returned, innermost
	// last: the latest is yield's when a range over a function's body
	// starts.
	calls []openCall
}

// openCall is a call under way: its site and the frame making it.
type openCall struct {
	fr   *frame
	site int
}

type frame struct {
	fn   *function
	lex  *frame // the frame of the enclosing function, for closures
	vars map[string]map[int]bool
	wmem map[string]map[memKey]bool // variable -> the storage written through it (writes.go)
	// ranged holds, per range unit whose expression calls, what the
	// expression read when the loop started.
	ranged map[int][]int
	// implicit says the frame was entered without an entry record.
	implicit bool
	// fell says the latest statement was a fallthrough: the next case
	// clause's decision record enters its body without testing it.
	fell bool
	cur  *instance
	// units holds, per unit of fn (by id), the sequence number of its
	// latest execution in the frame (0: none yet) and, for a decision,
	// its node then.
	units []unitRun
	tag   int // the latest switch tag node, -1
	ret   int // the return-value node, -1 until a return ran
	call  int // the latest call site entered from this frame, -1
	from  int // the call site that entered this frame, -1
	// A callback: a frame entered by code that is not instrumented, under
	// the call site cbSite (-1: none) of the frame cbOf; its return value
	// goes to that call's value, not to a call of its own.
	cbOf   *frame
	cbSite int
	// cbRets holds, per call site of this frame under way, the return
	// values of the callbacks made under it.
	cbRets map[int]map[int]bool
	check  bool
}

// instance is one execution of a unit.
type instance struct {
	u       *unit
	lastPos token.Pos
	lastEv  [2]int // tag and site of the latest event
	wrote   map[int]bool
	rets    map[token.Pos]int   // call position -> the callee's return-value node
	cbs     map[token.Pos][]int // call position -> return values of the callbacks made under the call (code that is not instrumented)
	extra   []int               // nodes it depends on as a whole (received, recovered values)
	values  map[string][]trace.Value
	read    map[token.Pos]trace.Value // values read, by position of the read (versioned graphs)
	rloc    map[token.Pos]trace.Loc   // storage read, by position of the read
	ops     map[token.Pos]bool        // && and || operands evaluated, by position: their outcome
	opNodes []operandNode             // && and || whose left operand let the right one run
	opDone  map[token.Pos]bool        // && and || (by operator position) whose left outcome is known
	wloc    map[token.Pos]trace.Loc   // storage written, by position of the written operand
	calls   map[token.Pos]bool        // calls made (a call record), by end position: true when the callee was entered (instrumented)
	refs    map[token.Pos]string      // types of the pointers, slices and maps read, by position of the read
	callIDs map[token.Pos]int         // versioned graphs: the node made for a call into code that is not instrumented, by end position
	yield   [][]int                   // a range over a function: what each argument of the iterator's yield call read, nil when not known
	check   bool                      // it calls t.Error and friends in the test itself
	inTest  bool
	decided bool
	stepped bool // a step started it: only the next step (or a second write of one site) ends it
}

func newBuilder(prog *program, test *trace.Test) *builder {
	b := &builder{
		program: prog, test: test, g: &Graph{},
		nodes: map[nodeKey]int{}, edges: map[Edge]bool{},
		gors: map[int]*goroutine{}, last: map[*function]*frame{},
		global: map[string]map[int]bool{}, chans: map[uint64][]int{}, noted: map[string]bool{}, lastIn: -1,
		mem: map[memKey]map[int]bool{}, vaddr: map[uint64]varRef{}, located: map[int]bool{}, elemOnly: map[int]bool{}, elemN: map[token.Pos]map[string]bool{}, steps: map[int]stepTarget{}, entered: map[int]bool{}, checks: map[int]bool{}, sinkSeen: map[Sink]bool{},
	}
	sites := prog.sites
	if test != nil && len(test.Hits) > 0 {
		b.hit = map[*unit]bool{}
		for _, id := range test.Hits {
			if id < len(sites) && sites[id].Kind == trace.KindStmt {
				if f := b.src.file(sites[id].File); f != nil {
					if u := f.unitAt(f.pos(sites[id].Line, sites[id].Col)); u != nil {
						b.hit[u] = true
					}
				}
			}
		}
	}
	paths := make([]string, 0, len(b.src.missing))
	for path := range b.src.missing {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		b.note(fmt.Sprintf("%s: %v", filepath.Base(path), b.src.missing[path]))
	}
	return b
}

func (b *builder) note(s string) {
	if !b.noted[s] {
		b.noted[s] = true
		b.g.Notes = append(b.g.Notes, s)
	}
}

// node returns the node for name at pos of f, creating it.
func (b *builder) node(name string, f *file, pos token.Pos, fn *function) int {
	k := nodeKey{name, f.path, pos}
	if id, ok := b.nodes[k]; ok {
		return id
	}
	p := f.fset.Position(pos)
	n := &Node{ID: len(b.g.Nodes), Var: name, File: f.path, Line: p.Line, Col: p.Column}
	if fn != nil {
		n.Func = fn.name
	}
	b.g.Nodes = append(b.g.Nodes, n)
	b.nodes[k] = n.ID
	return n.ID
}

func (b *builder) edge(from, to int, kind EdgeKind) {
	if from < 0 || to < 0 || from == to && kind == Control {
		return
	}
	b.edges[Edge{from, to, kind}] = true
}

func (b *builder) value(id int, v trace.Value) {
	n := b.g.Nodes[id]
	if len(n.Values) >= MaxValues {
		return // v is one of them or left out
	}
	s := v.String()
	for _, x := range n.Values {
		if x == s {
			return
		}
	}
	if len(n.Values) < MaxValues {
		n.Values = append(n.Values, s)
	}
}

func (b *builder) gor(id int) *goroutine {
	g := b.gors[id]
	if g == nil {
		g = &goroutine{ret: -1, retAt: -1, panic: -1, unwound: -1}
		b.gors[id] = g
	}
	return g
}

// event replays one stream record.
func (b *builder) event(e trace.Event, inTest bool) {
	if e.Site < 0 || e.Site >= len(b.sites) {
		b.note(fmt.Sprintf("event for site %d outside the site table", e.Site))
		return
	}
	switch e.Tag {
	case trace.TagEnter, trace.TagExit, trace.TagStarted, trace.TagRead, trace.TagWrite, trace.TagCall,
		trace.TagReturn, trace.TagPanic, trace.TagRecover, trace.TagSend, trace.TagRecv, trace.TagStep, trace.TagDecision:
	default:
		return
	}
	g := b.gor(e.Goroutine)
	switch e.Tag {
	case trace.TagEnter:
		b.enter(g, e)
		return
	case trace.TagExit:
	default:
		g.unwinding = false
	}
	switch e.Tag {
	case trace.TagExit:
		b.exit(g, e)
		return
	case trace.TagStarted:
		return
	}
	u := b.units[e.Site]
	if e.Tag == trace.TagStep {
		st := b.stepUnit(e.Site)
		u = st.u
		if st.fn != nil && len(g.stack) > 0 && g.stack[len(g.stack)-1].fn == st.fn {
			top := g.stack[len(g.stack)-1]
			top.fell = st.fall
			if u == nil {
				// A statement that evaluates nothing of its own as it
				// starts (a block, "for {", a break): what ran before
				// it has ended all the same.
				b.end(top)
			}
		}
	}
	if u == nil || len(g.stack) == 0 {
		return
	}
	fr := g.stack[len(g.stack)-1]
	if fr.fn != u.fn {
		fr = b.frameOf(g, u.fn)
	}
	site := b.sites[e.Site]
	pos := u.fn.file.pos(site.Line, site.Col)
	if e.Tag == trace.TagStep {
		// A statement starts: whatever ran before it in this frame has
		// ended, exactly (without steps, at() infers it from positions).
		b.end(fr)
		fr.cur = b.instance(u, pos)
		fr.cur.lastEv = [2]int{int(e.Tag), e.Site}
		fr.cur.inTest = inTest
		fr.cur.stepped = true
		return
	}
	if e.Tag == trace.TagDecision {
		if strings.HasPrefix(site.Info, "operand ") {
			// An && or || operand evaluated: its outcome, on the
			// instance evaluating it.
			in := b.at(fr, u, pos, trace.Event{Tag: trace.TagRead, Site: e.Site})
			if in.ops == nil {
				in.ops = map[token.Pos]bool{}
			}
			in.ops[pos] = site.Info == "operand true"
			b.operands(fr, in)
			return
		}
		b.decision(fr, u, pos, site)
		return
	}
	in := b.at(fr, u, pos, e)
	in.inTest = in.inTest || inTest
	if u.kind == UnitRange && in.yield == nil {
		in.yield = b.yielded(g, fr)
	}
	switch e.Tag {
	case trace.TagRead:
		if b.ver != nil && len(e.Values) > 0 {
			if in.read == nil {
				in.read = map[token.Pos]trace.Value{}
			}
			in.read[pos] = e.Values[0]
		}
		if len(e.Values) > 0 && e.Values[0].Tag == trace.ValRef {
			if in.refs == nil {
				in.refs = map[token.Pos]string{}
			}
			in.refs[pos] = e.Values[0].Type
		}
		if e.Loc.Kind != trace.LocNone {
			if in.rloc == nil {
				in.rloc = map[token.Pos]trace.Loc{}
			}
			in.rloc[pos] = e.Loc
		}
	case trace.TagWrite:
		if in.wrote == nil {
			in.wrote = map[int]bool{}
		}
		in.wrote[e.Site] = true
		if e.Loc.Kind != trace.LocNone {
			if in.wloc == nil {
				in.wloc = map[token.Pos]trace.Loc{}
			}
			in.wloc[pos] = e.Loc
		}
		if len(e.Values) > 0 {
			if in.values == nil {
				in.values = map[string][]trace.Value{}
			}
			in.values[site.Info] = append(in.values[site.Info], e.Values[0])
		}
	case trace.TagCall:
		fr.call = e.Site
		g.calls = append(g.calls, openCall{fr, e.Site})
		if in.calls == nil {
			in.calls = map[token.Pos]bool{}
		}
		if end := u.fn.file.pos(site.EndLine, site.EndCol); !in.calls[end] {
			// A callee entered from this site before is instrumented,
			// also when a sampled run left out this call's entry.
			in.calls[end] = b.entered[e.Site]
		}
		if inTest && u.fn.file.isCheck(site.Info) {
			in.check = true
		}
	case trace.TagReturn:
		if g.ret >= 0 && (g.retAt == e.Site || g.retAt < 0) {
			if in.rets == nil {
				in.rets = map[token.Pos]int{}
			}
			in.rets[pos] = g.ret
		}
		if cb := fr.cbRets[e.Site]; len(cb) > 0 {
			if in.cbs == nil {
				in.cbs = map[token.Pos][]int{}
			}
			for id := range cb {
				in.cbs[pos] = append(in.cbs[pos], id)
			}
			sort.Ints(in.cbs[pos])
			delete(fr.cbRets, e.Site)
		}
		g.ret, g.retAt = -1, -1
		for i := len(g.calls) - 1; i >= 0; i-- {
			if g.calls[i] == (openCall{fr, e.Site}) {
				g.calls = g.calls[:i]
				break
			}
		}
		if fr.call == e.Site {
			// The call is over: no later entry is its callee's.
			fr.call = -1
		}
	case trace.TagPanic:
		ids := b.end(fr)
		if len(ids) > 0 {
			g.panic = ids[0]
			if len(e.Values) > 0 {
				b.value(ids[0], e.Values[0])
			}
			if inTest {
				if b.g.FailureKind != FailurePanic {
					b.beforePanic, b.beforePanicKind = b.g.Failure, b.g.FailureKind
				}
				b.g.Failure, b.g.FailureKind = []int{ids[0]}, FailurePanic
			}
		}
	case trace.TagRecover:
		if len(e.Values) > 0 && e.Values[0].Tag != trace.ValNil && g.panic >= 0 {
			in.extra = append(in.extra, g.panic)
			if b.g.FailureKind == FailurePanic && len(b.g.Failure) == 1 && b.g.Failure[0] == g.panic {
				// Recovered (a parser's panic and recover for errors):
				// not what the test died of.
				b.g.Failure, b.g.FailureKind = b.beforePanic, b.beforePanicKind
			}
			g.panic = -1
		} else if len(e.Values) > 0 && e.Values[0].Tag != trace.ValNil && g.unwound >= 0 {
			// A runtime panic: the recovered error comes from the
			// statement that raised it.
			in.extra = append(in.extra, g.unwound)
			g.unwound = -1
		}
	case trace.TagSend:
		ids := b.end(fr)
		if len(ids) > 0 {
			b.chans[e.Ref] = append(b.chans[e.Ref], ids[0])
			if len(e.Values) > 0 {
				b.value(ids[0], e.Values[0])
			}
		}
	case trace.TagRecv:
		if q := b.chans[e.Ref]; len(q) > 0 {
			in.extra = append(in.extra, q[0])
			b.chans[e.Ref] = q[1:]
		}
	}
}

// decision handles a decision record: the condition or case clause
// taken is complete when the branch is taken, so its <test> node is made
// then, and what runs next is control dependent on this very execution
// (a case clause whose tests read nothing gets its node too). Decisions
// of && and || operands are part of their condition's execution: they
// say which operands ran (shortCircuited).
func (b *builder) decision(fr *frame, u *unit, pos token.Pos, site trace.Site) {
	if u.kind != UnitCond {
		return
	}
	if _, isCase := u.node.(*ast.CaseClause); isCase && fr.fell {
		fr.fell = false
		return
	}
	if fr.cur == nil || fr.cur.u != u {
		b.end(fr)
		fr.cur = b.instance(u, pos)
	}
	b.end(fr)
}

// stepTarget is what a statement's step starts: the unit that runs
// first in it, nil when the statement evaluates nothing as it starts (a
// block, "for {", "for ; ; i++", break), and the function holding it.
type stepTarget struct {
	u    *unit
	fn   *function
	fall bool // a fallthrough statement
}

// stepUnit returns what a statement's step starts: the unit of the
// statement itself, or of what its header evaluates first (an if's or
// switch's init, else its condition or tag, a for loop's init, else its
// condition; never a unit of its body, which steps on its own, nor a for
// loop's post statement, which runs after the body).
func (b *builder) stepUnit(site int) stepTarget {
	if st, ok := b.steps[site]; ok {
		return st
	}
	var st stepTarget
	s := b.sites[site]
	if f := b.src.file(s.File); f != nil {
		pos, end := f.pos(s.Line, s.Col), f.pos(s.EndLine, s.EndCol)
		if fn := f.innermostFunc(pos); fn != nil {
			st.fn = fn
			if stmt := fn.stmtAt(pos, end); stmt != nil {
				st.u = fn.unitOf(firstEvaluated(stmt))
				br, ok := stmt.(*ast.BranchStmt)
				st.fall = ok && br.Tok == token.FALLTHROUGH
			} else {
				// Not a statement of the source as parsed: the first
				// unit at or after its start.
				for _, u := range fn.units {
					if u.kind != UnitJoin && u.pos >= pos && (end <= pos || u.pos < end) && (st.u == nil || u.pos < st.u.pos) {
						st.u = u
					}
				}
			}
		}
	}
	b.steps[site] = st
	return st
}

// isCheck reports whether a callee as written in f is a test's failure
// report: t.Errorf, not fmt.Errorf (a package f imports).
func (f *file) isCheck(callee string) bool {
	i := strings.LastIndexByte(callee, '.')
	if i < 0 || f.imported(callee[:i]) {
		return false
	}
	switch callee[i+1:] {
	case "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow":
		return true
	}
	return false
}

// at returns the instance of u an event at pos belongs to, ending the
// frame's current instance when the event starts a new one.
func (b *builder) at(fr *frame, u *unit, pos token.Pos, e trace.Event) *instance {
	in := fr.cur
	if in != nil && in.u == u {
		restart := false
		switch e.Tag {
		case trace.TagWrite:
			restart = in.wrote[e.Site]
		case trace.TagReturn, trace.TagRecover, trace.TagRecv:
		case trace.TagRead, trace.TagCall:
			if in.stepped {
				break
			}
			fallthrough
		default:
			restart = len(in.wrote) > 0 || pos < in.lastPos || pos == in.lastPos && in.lastEv == [2]int{int(e.Tag), e.Site}
		}
		if !restart {
			if e.Tag != trace.TagWrite && e.Tag != trace.TagReturn && pos > in.lastPos {
				in.lastPos = pos
			}
			in.lastEv = [2]int{int(e.Tag), e.Site}
			return in
		}
	}
	b.end(fr)
	in = b.instance(u, pos)
	in.lastEv = [2]int{int(e.Tag), e.Site}
	fr.cur = in
	return in
}

// frameOf returns the frame an event of fn belongs to when the top of
// g's stack is another function's: the innermost frame of fn when every
// frame above it was entered without an entry record (those are over:
// they end) or when one was entered with one (the body of a range over a
// function runs in its function's frame, called from the iterator's
// yield); else a new frame of fn (a function entered without an entry
// record, not instrumented for calls).
func (b *builder) frameOf(g *goroutine, fn *function) *frame {
	for i := len(g.stack) - 1; i >= 0; i-- {
		if g.stack[i].fn != fn {
			continue
		}
		above := g.stack[i+1:]
		for _, f := range above {
			if !f.implicit {
				return g.stack[i]
			}
		}
		for j := len(g.stack) - 1; j > i; j-- {
			b.end(g.stack[j])
		}
		g.stack = g.stack[:i+1]
		return g.stack[i]
	}
	fr := b.push(g, fn, -1)
	fr.implicit = true
	return fr
}

// push enters a frame of fn on g.
func (b *builder) push(g *goroutine, fn *function, site int) *frame {
	fr := &frame{fn: fn, vars: map[string]map[int]bool{}, units: make([]unitRun, len(fn.units)), tag: -1, ret: -1, call: -1, from: -1, cbSite: -1}
	if fn.parent != nil {
		fr.lex = b.last[fn.parent]
	}
	b.last[fn] = fr
	g.stack = append(g.stack, fr)
	return fr
}

// enter handles a function entry: parameters are defined at the
// function's declaration and depend on the call's arguments.
func (b *builder) enter(g *goroutine, e trace.Event) {
	fn := b.funcs[e.Site]
	if fn == nil {
		return
	}
	var caller *frame
	if len(g.stack) > 0 {
		caller = g.stack[len(g.stack)-1]
	}
	callSite := e.From
	var cbArgs []int // a callback's parameters: what the call under way read
	cbSite := -1
	if callSite < 0 && caller != nil {
		if n := len(g.calls); n > 0 && g.calls[n-1].fr == caller {
			// The entry names no call site, yet the caller has a call
			// under way: its callee named another function (or entered
			// already, or was left out by sampling), whose code, not
			// instrumented, called back. What it passes may come from
			// anything the call was given; what it returns goes back
			// to that code.
			cbSite = g.calls[n-1].site
			if c := b.callAt(caller, cbSite); c != nil {
				cbArgs = b.readsIn(caller, c, caller.cur)
			}
		} else {
			callSite = caller.call
		}
	}
	if callSite >= 0 && b.units[callSite] != nil && (caller == nil || b.units[callSite].fn != caller.fn) {
		// A go statement's call: the arguments were read by the latest
		// frame of the function holding it, on another goroutine.
		if fr := b.last[b.units[callSite].fn]; fr != nil {
			caller = fr
		}
	}
	call := b.callAt(caller, callSite)
	// Resolve the arguments in the caller before the callee's frame exists.
	args := b.argReads(caller, call)
	var recv []int
	if call != nil {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			recv = b.readsIn(caller, sel.X, caller.cur)
		}
	}
	if call != nil && caller != nil && callSite >= 0 {
		b.entered[callSite] = true
	}
	if call != nil && caller.cur != nil {
		if _, ok := caller.cur.calls[call.End()]; ok {
			caller.cur.calls[call.End()] = true // instrumented: its writes are recorded
		}
	}
	// A call in the right operand of && or || runs because of the left
	// operand's outcome: its parameters are control dependent on it.
	opCtrl := -1
	if call != nil && caller.cur != nil {
		opCtrl = caller.cur.operandAt(call.Pos())
	}
	fr := b.push(g, fn, e.Site)
	fr.from = callSite
	if cbSite >= 0 {
		fr.cbOf, fr.cbSite = caller, cbSite
	}
	names := b.params(e.Site)
	f := fn.file
	declPos := fn.decl.Pos()
	method := false
	if fd, ok := fn.decl.(*ast.FuncDecl); ok {
		method = fd.Recv != nil && len(fd.Recv.List) > 0 && len(fd.Recv.List[0].Names) > 0 && fd.Recv.List[0].Names[0].Name != "_"
	}
	for i, name := range names {
		id := b.fresh(name, f, declPos, fn)
		b.g.Nodes[id].Count++
		if i < len(e.Values) {
			b.value(id, e.Values[i])
		}
		k := fn.paramKey(name)
		fr.vars[k] = only(fr.vars[k], id)
		var from []int
		switch {
		case method && i == 0:
			from = recv
		default:
			k := i
			if method {
				k--
			}
			if k < len(args) {
				from = args[k]
				if b.ver != nil {
					b.g.Nodes[id].Arg = caller.fn.file.text(call.Args[k])
				}
			}
			if i == len(names)-1 {
				for ; k+1 < len(args); k++ {
					from = append(from, args[k+1]...)
				}
			}
		}
		for _, s := range from {
			b.edge(s, id, Data)
		}
		for _, s := range cbArgs {
			b.edge(s, id, Data)
		}
		b.edge(opCtrl, id, Control)
	}
}

// callAt returns the call expression of call site site made by fr's
// function, nil when site is no call of it.
func (b *builder) callAt(fr *frame, site int) *ast.CallExpr {
	if fr == nil || site < 0 || b.units[site] == nil || b.units[site].fn != fr.fn {
		return nil
	}
	cs := b.sites[site]
	f := fr.fn.file
	return findCall(f, f.pos(cs.Line, cs.Col), f.pos(cs.EndLine, cs.EndCol))
}

// argReads returns what each argument of call read in fr, as fr's
// current instance evaluates it.
func (b *builder) argReads(fr *frame, call *ast.CallExpr) [][]int {
	if call == nil {
		return nil
	}
	args := make([][]int, len(call.Args))
	for i, a := range call.Args {
		args[i] = b.readsIn(fr, a, fr.cur)
	}
	return args
}

// yielded returns what the iterator passed to yield when a range over a
// function's body starts in fr, per argument: what it read. The body
// runs in fr, called from yield, the latest call under way on g, made by
// a frame above fr (the iterator's, or the body of a range over another
// function in it: an adapter's). Nil when no frame above fr made it (the
// iterator is not instrumented).
func (b *builder) yielded(g *goroutine, fr *frame) [][]int {
	if len(g.calls) == 0 {
		return nil
	}
	c := g.calls[len(g.calls)-1]
	for i := len(g.stack) - 1; i >= 0 && g.stack[i] != fr; i-- {
		if g.stack[i] == c.fr {
			return b.argReads(c.fr, b.callAt(c.fr, c.site))
		}
	}
	return nil
}

// paramNames returns the recorded value names of a function site's info,
// "pkg.F(a, b) (r)": a, b.
func paramNames(info string) []string {
	i := strings.IndexByte(info, '(')
	j := strings.IndexByte(info, ')')
	if i < 0 || j < i {
		return nil
	}
	var out []string
	for _, n := range strings.Split(info[i+1:j], ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// findCall returns the call expression spanning [pos, end) in f.
func findCall(f *file, pos, end token.Pos) *ast.CallExpr {
	k := [2]token.Pos{pos, end}
	if c, ok := f.calls[k]; ok {
		return c
	}
	if f.calls == nil {
		f.calls = map[[2]token.Pos]*ast.CallExpr{}
	}
	f.calls[k] = searchCall(f, pos, end)
	return f.calls[k]
}

// searchCall does findCall's work.
func searchCall(f *file, pos, end token.Pos) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if found != nil || n == nil || n.End() < pos || n.Pos() > end {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() == pos && c.End() == end {
			found = c
			return false
		}
		return true
	})
	return found
}

// exit handles a function exit: the return value is the latest return
// statement's node (or, when that return recorded nothing, the return
// statement the control flow must have taken).
func (b *builder) exit(g *goroutine, e trace.Event) {
	fn := b.funcs[e.Site]
	if fn == nil || len(g.stack) == 0 {
		return
	}
	// Frames of functions entered without an entry record end here too.
	var fr *frame
	panicked := false
	for len(g.stack) > 0 {
		fr = g.stack[len(g.stack)-1]
		g.stack = g.stack[:len(g.stack)-1]
		for len(g.calls) > 0 && g.calls[len(g.calls)-1].fr == fr {
			// Calls it made that never returned (a panic went through).
			g.calls = g.calls[:len(g.calls)-1]
		}
		// With steps, a function with results exiting in the middle of a
		// statement that is not a return is unwinding a panic.
		open := fr.cur != nil && fr.cur.stepped && fr.cur.u.kind != UnitReturn && len(fr.fn.results) > 0 && fr.ret < 0 && g.panic < 0
		ids := b.end(fr)
		if open && len(ids) > 0 {
			panicked = true
			if !g.unwinding {
				g.unwound, g.unwinding, g.unwoundAt = ids[0], true, b.seq
			}
		}
		if fr.fn == fn {
			break
		}
	}
	if fr == nil || fr.fn != fn {
		return
	}
	if fr.ret < 0 && len(fn.results) > 0 && g.panic < 0 && !panicked {
		// A return of constants records nothing: take the only one there is.
		var cands []*unit
		for _, u := range fn.units {
			if u.kind == UnitReturn && (b.hit[u] || b.hit == nil && constant(u.node)) {
				cands = append(cands, u)
			}
		}
		if len(cands) == 1 {
			fr.cur = b.instance(cands[0], token.NoPos)
			b.end(fr)
		}
		if fr.ret < 0 {
			fr.ret = b.fresh(fn.returnName(), fn.file, fn.decl.Pos(), fn)
			b.g.Nodes[fr.ret].Count++
		}
	}
	if fr.ret >= 0 {
		for _, v := range e.Values {
			b.value(fr.ret, v)
		}
		g.ret, g.retAt = fr.ret, fr.from
		if fr.cbOf != nil {
			// A callback's value goes back to the code that called it.
			g.ret, g.retAt = -1, -1
			if fr.cbOf.cbRets == nil {
				fr.cbOf.cbRets = map[int]map[int]bool{}
			}
			if fr.cbOf.cbRets[fr.cbSite] == nil {
				fr.cbOf.cbRets[fr.cbSite] = map[int]bool{}
			}
			fr.cbOf.cbRets[fr.cbSite][fr.ret] = true
		}
	}
}

// constant reports whether n reads no variable (only literals, true,
// false, nil).
func constant(n ast.Node) bool {
	for _, id := range idents(n, nil) {
		switch id.Name {
		case "true", "false", "nil", "iota":
		default:
			return false
		}
	}
	return true
}

// lookup returns the definitions a read of the variable of key k (see
// file.key) in fr sees.
func (b *builder) lookup(fr *frame, k string) map[int]bool {
	f, sc := fr.holder(k)
	if f != nil {
		return f.vars[k]
	}
	if sc.global != "" {
		return b.global[sc.global]
	}
	return nil
}

// define records a definition of the operand named by root.
func (b *builder) define(fr *frame, root string, id int, strong bool) {
	b.forget(fr, root)
	m, key := fr.vars, root
	if f, sc := fr.holder(root); f != nil {
		m = f.vars
	} else if sc.global != "" {
		m, key = b.global, sc.global
	}
	if strong || m[key] == nil {
		m[key] = only(m[key], -1)
		if b.ver != nil {
			delete(b.ver.elems, b.scope(fr, root))
		}
	}
	m[key][id] = true
}

// readsIn returns the nodes the expression n reads in fr: the
// definitions of its variables and the return values of its calls.
func (b *builder) readsIn(fr *frame, n ast.Node, in *instance) []int {
	if n == nil {
		return nil
	}
	return b.reads(fr, n, nil, in)
}

// callbacks returns the return values of the callbacks made under the
// calls of n that went into code that is not instrumented: that code's
// results may come from them.
func (in *instance) callbacks(n ast.Node) []int {
	if len(in.cbs) == 0 {
		return nil
	}
	var poss []token.Pos
	for p := range in.cbs {
		if n.Pos() <= p && p < n.End() {
			poss = append(poss, p)
		}
	}
	sort.Slice(poss, func(i, j int) bool { return poss[i] < poss[j] })
	var out []int
	for _, p := range poss {
		out = append(out, in.cbs[p]...)
	}
	return out
}

// lengthOperands returns the variables n reads for their length alone:
// the operands of the builtins len and cap.
func lengthOperands(n ast.Node) map[*ast.Ident]bool {
	var out map[*ast.Ident]bool
	ast.Inspect(n, func(m ast.Node) bool {
		c, ok := m.(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return true
		}
		fn, ok := ast.Unparen(c.Fun).(*ast.Ident)
		if !ok || fn.Obj != nil || fn.Name != "len" && fn.Name != "cap" {
			return true
		}
		if id, ok := ast.Unparen(c.Args[0]).(*ast.Ident); ok {
			if out == nil {
				out = map[*ast.Ident]bool{}
			}
			out[id] = true
		}
		return true
	})
	return out
}

// written records what an assigned operand's definition id wrote: the
// storage its write event named, and for a write through a pointer to a
// variable, a definition of that variable.
func (b *builder) written(fr *frame, in *instance, l, rhs ast.Expr, key string, id int) {
	if in.wloc == nil {
		return
	}
	loc, ok := in.wloc[l.Pos()]
	if !ok {
		return
	}
	k, ok := locKey(loc)
	if !ok {
		return
	}
	_, plain := ast.Unparen(l).(*ast.Ident)
	ref := varRef{b.owner(fr, key), key}
	if plain {
		b.vaddr[k.addr] = ref
		old := b.storage(ref, false)
		b.storage(ref, true)[k] = true
		b.mem[k] = only(b.mem[k], id)
		if p, ok := ast.Unparen(rhs).(*ast.Ident); ok && b.ver == nil {
			b.copiedFields(fr, in, ast.Unparen(l).(*ast.Ident), p, old)
		}
		return
	}
	if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && ast.Unparen(ix.X) == rootIdent(l) {
		b.sawElems(fr, key, loc)
	}
	b.storage(ref, false)[k] = true
	b.located[id] = true
	if v, ok := b.vaddr[k.addr]; ok && k.key == "" {
		if _, star := ast.Unparen(l).(*ast.StarExpr); star {
			b.defineIn(v, id)
		}
	}
	b.mem[k] = only(b.mem[k], id)
}

// owner returns the frame holding the variable of key k as seen from
// fr, nil for a package-level variable.
func (b *builder) owner(fr *frame, k string) *frame {
	f, _ := fr.holder(k)
	return f
}

// defineIn makes id the one definition of a variable written through a
// pointer.
func (b *builder) defineIn(v varRef, id int) {
	if v.fr != nil {
		v.fr.vars[v.key] = only(v.fr.vars[v.key], id)
		return
	}
	for k := range b.global {
		if strings.HasSuffix(k, "\x00"+v.key) {
			b.global[k] = only(b.global[k], id)
		}
	}
}

// elemLabel names an element or entry definition by the storage written,
// "xs[3]", `m["k"]`, when the write's location says; "" otherwise. A site
// names at most maxElems elements; beyond, its operand's text.
func (b *builder) elemLabel(f *file, l ast.Expr, in *instance) string {
	x, ok := ast.Unparen(l).(*ast.IndexExpr)
	if !ok || in.wloc == nil {
		return ""
	}
	loc, ok := in.wloc[l.Pos()]
	var idx string
	switch {
	case !ok:
		return ""
	case loc.Kind == trace.LocElem:
		idx = fmt.Sprint(loc.Index)
	case loc.Kind == trace.LocKey:
		idx = loc.Key.String()
	default:
		return ""
	}
	name := f.text(x.X) + "[" + idx + "]"
	seen := b.elemN[l.Pos()]
	if seen == nil {
		seen = map[string]bool{}
		b.elemN[l.Pos()] = seen
	}
	if !seen[name] {
		if len(seen) >= maxElems {
			return ""
		}
		seen[name] = true
	}
	return name
}

// maxElems bounds the element nodes of one site in a summary graph.
const maxElems = 16

// end closes the frame's current instance: it creates the nodes of what
// the unit defined, with their data and control dependencies, and
// returns them.
func (b *builder) end(fr *frame) []int {
	in := fr.cur
	if in == nil {
		return nil
	}
	fr.cur = nil
	u := in.u
	f := u.fn.file
	b.seq++
	ctrl := b.control(fr, u)
	fr.units[u.id].exec = b.seq
	var ids []int
	def := func(name string, pos token.Pos, from []int) int {
		id := b.fresh(name, f, pos, u.fn)
		b.g.Nodes[id].Count++
		for _, s := range from {
			b.edge(s, id, Data)
		}
		for _, s := range in.extra {
			b.edge(s, id, Data)
		}
		b.edge(ctrl, id, Control)
		for _, op := range in.opNodes {
			b.edge(op.id, id, Control)
		}
		for _, v := range in.values[name] {
			b.value(id, v)
		}
		ids = append(ids, id)
		return id
	}
	all := func() []int { return b.reads(fr, u.node, u.lhs, in) }
	switch u.kind {
	case UnitCond, UnitSelect:
		from := []int(nil)
		if u.kind == UnitCond {
			if cc, isCase := u.node.(*ast.CaseClause); isCase {
				// A clause's tests, not its body.
				for _, x := range cc.List {
					from = append(from, b.reads(fr, x, nil, in)...)
				}
				if fr.tag >= 0 {
					from = append(from, fr.tag)
				}
			} else {
				from = all()
			}
		}
		fr.units[u.id].dec = def("<test>", u.pos, from)
	case UnitTag:
		var from []int
		if as, ok := u.node.(*ast.AssignStmt); ok {
			from = b.reads(fr, as.Rhs[0], nil, in)
		} else {
			from = all()
		}
		id := def("<switch>", u.pos, from)
		fr.tag = id
		for _, l := range u.lhs {
			if r := rootName(l); r != "" {
				b.define(fr, f.key(rootIdent(l)), def(r, l.Pos(), []int{id}), true)
			}
		}
	case UnitRange:
		rs := u.node.(*ast.RangeStmt)
		from, ok := fr.ranged[u.id]
		if !ok || in.stepped || !hasCall(rs.X) {
			// A range expression with a call is evaluated once, as the
			// loop starts (its step): later iterations depend on that.
			from = b.reads(fr, rs.X, nil, in)
			if hasCall(rs.X) {
				if fr.ranged == nil {
					fr.ranged = map[int][]int{}
				}
				fr.ranged[u.id] = from
			}
		}
		// Whether the loop goes on, and the index, depend on the
		// length of a slice or array ranged over, not on what its
		// elements were written.
		hdr := from
		if _, plain := ast.Unparen(rs.X).(*ast.Ident); plain {
			hdr = nil
			for _, d := range from {
				if !b.elemOnly[d] {
					hdr = append(hdr, d)
				}
			}
		}
		fr.units[u.id].dec = def("<test>", u.pos, hdr)
		if in.yield == nil {
			for _, l := range u.lhs {
				base := from
				if l == rs.Key {
					base = hdr
				}
				b.assign(fr, in, u, []ast.Expr{l}, nil, append([]int{}, base...), def)
			}
			break
		}
		// A range over a function: the key and value are what the
		// iterator passed to yield, its first and second arguments.
		for k, l := range u.lhs {
			var arg []int
			if k < len(in.yield) {
				arg = in.yield[k]
			}
			b.assign(fr, in, u, []ast.Expr{l}, nil, append([]int{}, arg...), def)
		}
	case UnitReturn:
		rs := u.node.(*ast.ReturnStmt)
		var from []int
		if rs.Results == nil {
			for _, r := range u.fn.results {
				if r != "" {
					for d := range b.lookup(fr, u.fn.paramKey(r)) {
						from = append(from, d)
					}
				}
			}
			sort.Ints(from)
		} else {
			from = all()
		}
		fr.ret = def(u.fn.returnName(), u.pos, from)
	case UnitSimple:
		switch s := u.node.(type) {
		case *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt:
			b.assign(fr, in, u, u.lhs, u.rhs, nil, def)
		case *ast.ExprStmt:
			id := def(exprName(f, s.X), u.pos, all())
			if in.check {
				b.g.Failure, b.g.FailureKind = []int{id}, FailureCheck
				b.checks[id] = true
			}
			if dst := copyDest(s.X); dst != nil {
				// copy(dst, src) writes dst's elements: a later read of
				// dst sees them, with what it saw before.
				b.define(fr, f.key(dst), id, false)
				b.elemOnly[id] = true
			}
		case *ast.SendStmt:
			def("<send>", u.pos, all())
		case *ast.GoStmt:
			def("<go "+callName(f, s.Call)+">", u.pos, all())
		case *ast.DeferStmt:
			def("<defer "+callName(f, s.Call)+">", u.pos, all())
		default:
			def("<stmt>", u.pos, all())
		}
	}
	b.callWrites(fr, in, u, ids, def)
	if in.inTest && len(ids) > 0 {
		b.lastIn = ids[0]
	}
	if len(ids) > 0 && u.kind == UnitSimple {
		b.sinks(u, ids[0])
	}
	b.release(in)
	return ids
}

// control returns the node of the decision that made u run in fr: the
// latest execution among its static controllers, -1 when none.
func (b *builder) control(fr *frame, u *unit) int {
	ctrl := -1
	best := -1
	for _, c := range u.ctrl {
		if s := fr.units[c].exec; s > 0 && s > best {
			best, ctrl = s, fr.units[c].dec
		}
	}
	if ctrl < 0 && len(u.ctrl) == 1 && u.dom {
		// The one controller must have run (a condition that recorded
		// nothing): its static node.
		cu := u.fn.units[u.ctrl[0]]
		ctrl = b.node(decisionName(cu), u.fn.file, cu.pos, u.fn)
	}
	return ctrl
}

// assign defines each assigned operand of u: from its own value when
// rhs pairs them, else from everything the unit read (or from base).
func (b *builder) assign(fr *frame, in *instance, u *unit, lhs, rhs []ast.Expr, base []int, def func(string, token.Pos, []int) int) {
	f := u.fn.file
	type pending struct {
		root   string
		id     int
		strong bool
		elems  map[string]int // execution-level graphs: the element definitions it leaves
		elem   string         // or the one element or field it defines
		lhs    ast.Expr
		rhs    ast.Expr   // its value, when paired
		rec    *appendRec // summary graphs: what append left in its elements
	}
	var defs []pending
	var whole []int
	elemsOf := make([]map[string]int, len(lhs))
	if rhs == nil && base == nil {
		whole = b.reads(fr, u.node, lhs, in)
	}
	for i, l := range lhs {
		if rootName(l) == "" {
			continue
		}
		root := f.key(rootIdent(l))
		from := base
		switch {
		case rhs != nil && b.ver != nil && appendsTo(l, rhs[i]):
			fr2, es, ok := b.appended(fr, in, u, l, rhs[i], def)
			if !ok {
				from = b.reads(fr, rhs[i], nil, in)
				break
			}
			from, elemsOf[i] = fr2, es
		case rhs != nil && b.ver != nil && copiesVar(l, rhs[i]):
			// q := p: q's parts are p's (elems.go).
			from = b.reads(fr, rhs[i], nil, in)
			p := ast.Unparen(rhs[i]).(*ast.Ident)
			elemsOf[i] = renamedParts(b.ver.elems[b.scope(fr, f.key(p))], p.Name, rootName(l))
		case rhs != nil:
			from = b.reads(fr, rhs[i], nil, in)
			if _, plain := ast.Unparen(l).(*ast.Ident); !plain {
				from = append(from, b.reads(fr, l, []ast.Expr{l}, in)...)
			}
		case base == nil:
			from = whole
		}
		if u.opAss {
			for d := range b.lookup(fr, root) {
				from = append(from, d)
			}
			sort.Ints(from)
		}
		_, plain := ast.Unparen(l).(*ast.Ident)
		name := f.text(l)
		var elems map[string]int
		var elem string
		if b.ver != nil {
			elems = elemsOf[i]
			if en, coll, ok := b.elemDef(f, l, in); ok {
				name, elem = en, coll
			} else if en := b.elemLabel(f, l, in); en != "" {
				// The index was not read where the trace says (an
				// expression): the write's location names the element.
				name, elem = en, rootName(l)
			}
		}
		if b.ver == nil && !plain {
			if en := b.elemLabel(f, l, in); en != "" {
				name = en
			}
		}
		id := def(name, l.Pos(), from)
		if elem != "" {
			b.g.Nodes[id].Elem = elem
		}
		if _, ix := ast.Unparen(l).(*ast.IndexExpr); ix && in.wloc != nil && in.wloc[l.Pos()].Kind == trace.LocElem {
			b.elemOnly[id] = true
		}
		var r ast.Expr
		var rec *appendRec
		if rhs != nil {
			r = rhs[i]
			if c := appendCall(r); c != nil && b.ver == nil && plain {
				rec = b.appendedElems(fr, in, u, l, c, def)
			}
		}
		defs = append(defs, pending{root, id, plain, elems, name, l, r, rec})
	}
	// Definitions take effect after every read of the statement: a swap
	// (a[i], a[j] = a[j], a[i]) reads both elements before either write.
	for _, d := range defs {
		b.written(fr, in, d.lhs, d.rhs, d.root, d.id)
	}
	for _, d := range defs {
		b.define(fr, d.root, d.id, d.strong)
		if d.rec != nil {
			if b.appends == nil {
				b.appends = map[varKey]*appendRec{}
			}
			b.appends[varKeyOf(fr, d.root)] = d.rec
		}
		if b.ver == nil {
			continue
		}
		sc := b.scope(fr, d.root)
		if d.elems != nil {
			b.ver.elems[sc] = d.elems
		} else if !d.strong {
			if b.ver.elems[sc] == nil {
				b.ver.elems[sc] = map[string]int{}
			}
			b.ver.elems[sc][d.elem] = d.id
		}
	}
}

// decisionName is the pseudo-variable of a decision unit.
func decisionName(u *unit) string {
	if u.kind == UnitTag {
		return "<switch>"
	}
	return "<test>"
}

// exprName names what an expression statement does: "<t.Errorf()>".
func exprName(f *file, e ast.Expr) string {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		return "<" + callName(f, c) + ">"
	}
	return "<expr>"
}

// copyDest returns the variable a call of the builtin copy writes into
// (dst of copy(dst, src), copy(dst[i:], src), copy(p.buf, src)), nil
// when e is no such call.
func copyDest(e ast.Expr) *ast.Ident {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 2 {
		return nil
	}
	if fn, ok := c.Fun.(*ast.Ident); !ok || fn.Name != "copy" || fn.Obj != nil {
		return nil
	}
	dst := ast.Unparen(c.Args[0])
	if sl, ok := dst.(*ast.SliceExpr); ok {
		dst = sl.X
	}
	return rootIdent(dst)
}

func callName(f *file, c *ast.CallExpr) string {
	name := f.text(c.Fun)
	if strings.ContainsAny(name, " \n\t") || len(name) > 40 {
		name = "func"
	}
	return name + "()"
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
	for e := range b.edges {
		b.g.Edges = append(b.g.Edges, e)
	}
	b.g.index()
	b.checkNodes()
}
