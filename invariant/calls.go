package invariant

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Function is one instrumented function or method and the calls a trace
// recorded of it.
type Function struct {
	Name    string   // package path and name: "example.com/m.F", "example.com/m.T.M"
	File    string   // the file, relative to the module root when under it
	Line    int      // the line of the body's opening brace
	Params  []string // the recorded parameters: the receiver first, then the arguments
	Results []string // result names: "result", or "result0", "result1"..., or their Go names
	Calls   []Call
	// vals holds the values of the calls after the first MaxDeepCalls,
	// side by side (keep): a function's calls are read in order, and
	// one block is less for the collector than three slices a call.
	vals []trace.Value
	// The values of the call before, among the first MaxDeepCalls
	// (share).
	lastArgs, lastResults []trace.Value
}

// share makes each value of vs that equals the one at its place in like
// (the call before's) share like's parts, and returns vs, or a copy of
// it when no value of it has parts of its own left: the block the
// trace reader decoded its parts into is then garbage. Calls repeat
// their receivers and arguments, so the first calls of a function hold
// one copy of a repeated value, and comparing them later (changedParts,
// rowBuilder.same) finds the parts the same at once.
func share(vs, like []trace.Value) []trace.Value {
	own := false
	for i := range vs {
		v := &vs[i]
		if v.Fields == nil && v.Elems == nil && v.Err == nil {
			continue
		}
		if i < len(like) && equalValues(v, &like[i]) {
			*v = like[i]
			continue
		}
		own = own || v.Fields != nil || v.Elems != nil
	}
	if own || len(vs) == 0 {
		return vs
	}
	return append([]trace.Value(nil), vs...)
}

// valChunk is the size of a block of Function.vals, in values.
const valChunk = 1024

// keep returns a copy of vs without their parts (keeping errors'
// messages), in f's block of values; nil when vs is empty.
func (f *Function) keep(vs []trace.Value) []trace.Value {
	if len(vs) == 0 {
		return nil
	}
	if cap(f.vals)-len(f.vals) < len(vs) {
		f.vals = make([]trace.Value, 0, max(valChunk, len(vs)))
	}
	start := len(f.vals)
	for _, v := range vs {
		v.Fields, v.Elems, v.Deep = nil, nil, false
		f.vals = append(f.vals, v)
	}
	return f.vals[start:len(f.vals):len(f.vals)]
}

// Call is one observed call of a function.
type Call struct {
	Args     []trace.Value // receiver and arguments at entry
	Results  []trace.Value // results at exit; nil when the call did not return
	Final    []trace.Value // receiver and arguments at exit, when the exit recorded them (else nil)
	Returned bool          // the exit was recorded and no panic was unwinding
	Panicked bool          // the exit was recorded while a panic was unwinding
	Test     string        // the test that made the call ("" outside any test)
	Outcome  trace.Outcome // that test's outcome (OutcomeUnknown outside any test)
	Site     string        // where the call was made ("file:line:col"), when the trace links it
}

// Failing reports whether the call was made by a test that failed,
// panicked or was still running when its process died.
func (c *Call) Failing() bool {
	return c.Outcome == trace.OutcomeFail || c.Outcome == trace.OutcomePanic || c.Outcome == trace.OutcomeRunning
}

// Passing reports whether the call was made by a test that passed.
func (c *Call) Passing() bool { return c.Outcome == trace.OutcomePass }

// Calls is what Collect read from a trace: the functions with at least
// one recorded entry, sorted by name.
type Calls struct {
	Functions []*Function
	Notes     []string // what was left out, and why
}

// Function returns the function named name, or nil.
func (cs *Calls) Function(name string) *Function {
	for _, f := range cs.Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// CollectOptions say which functions to collect.
type CollectOptions struct {
	// TestFiles keeps functions declared in _test.go files (left out by
	// default: the tests themselves are not what is specified).
	TestFiles bool
}

// Load reads the trace directory dir and collects its calls, streaming
// the events files so that the trace need not fit in memory.
func Load(dir string, opt CollectOptions) (*Calls, error) {
	d, err := trace.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	c, err := newCollector(d.Sites, opt)
	if err != nil {
		return nil, fmt.Errorf("read trace %s: %w", dir, err)
	}
	for _, name := range d.Events {
		pc := c.newProcess()
		p, err := d.ReadFile(name, func(e trace.Event) error { pc.event(e); return nil })
		if err != nil {
			return nil, fmt.Errorf("read trace: %w", err)
		}
		pc.finish(p)
		c.budget = max(c.budget, p.Budget)
	}
	return c.calls(), nil
}

// Collect returns the calls of a trace read with trace.Open.
func Collect(tr *trace.Trace, opt CollectOptions) (*Calls, error) {
	c, err := newCollector(&tr.Sites, opt)
	if err != nil {
		return nil, err
	}
	for _, p := range tr.Processes {
		pc := c.newProcess()
		for _, e := range p.Events {
			pc.event(e)
		}
		pc.finish(p)
		c.budget = max(c.budget, p.Budget)
	}
	return c.calls(), nil
}

// collector gathers calls from the processes of one trace.
type collector struct {
	sites     *trace.Sites
	testFiles bool
	funcs     map[int]*Function // by function site; nil: not collected
	known     map[int]bool
	siteNames map[int]string // call sites' positions, by site
	panicked  int
	unpaired  int
	budget    uint64 // the largest event budget a process's trace reached
}

func newCollector(sites *trace.Sites, opt CollectOptions) (*collector, error) {
	if sites.Events&trace.EventFunc == 0 {
		return nil, fmt.Errorf("function events were not recorded (the trace has %s): run culprit test -events func,panics", sites.Events)
	}
	return &collector{sites: sites, testFiles: opt.TestFiles, funcs: map[int]*Function{}, known: map[int]bool{}, siteNames: map[int]string{}}, nil
}

// function returns the Function of a function site, or nil when the site
// is not a collected function.
func (c *collector) function(site int) *Function {
	if c.known[site] {
		return c.funcs[site]
	}
	c.known[site] = true
	if site < 0 || site >= len(c.sites.Sites) {
		return nil
	}
	s := c.sites.Sites[site]
	if s.Kind != trace.KindFunc || (!c.testFiles && strings.HasSuffix(s.File, "_test.go")) {
		return nil
	}
	params, results := parseInfo(s.Info)
	f := &Function{Name: s.Func, File: c.rel(s.File), Line: s.Line, Params: params, Results: results}
	c.funcs[site] = f
	return f
}

// site returns the position of call site from, "file:line:col", made
// once per site ("" when from is no site).
func (c *collector) site(from int) string {
	if from < 0 || from >= len(c.sites.Sites) {
		return ""
	}
	if s, ok := c.siteNames[from]; ok {
		return s
	}
	s := c.sites.Sites[from]
	name := fmt.Sprintf("%s:%d:%d", c.rel(s.File), s.Line, s.Col)
	c.siteNames[from] = name
	return name
}

func (c *collector) rel(file string) string {
	if c.sites.Root != "" {
		if r, err := filepath.Rel(c.sites.Root, file); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return file
}

// frame is a call in progress on one goroutine.
type frame struct {
	site int
	f    *Function
	call int // index in f.Calls
}

// goroutine is the state of one goroutine of a process.
type goroutine struct {
	stack     []frame
	panicking bool
}

// process pairs the entries and exits of one events file.
type process struct {
	c   *collector
	gs  map[int]*goroutine
	ref []callRef // the calls of this process, for their tests once known
}

type callRef struct {
	f    *Function
	call int
	test int
}

func (c *collector) newProcess() *process { return &process{c: c, gs: map[int]*goroutine{}} }

func (p *process) event(e trace.Event) {
	g := p.gs[e.Goroutine]
	if g == nil {
		g = &goroutine{}
		p.gs[e.Goroutine] = g
	}
	switch e.Tag {
	case trace.TagEnter:
		f := p.c.function(e.Site)
		fr := frame{site: e.Site, f: f, call: -1}
		if f != nil {
			if len(f.Calls) >= MaxDeepCalls {
				e.Values = f.keep(e.Values)
			} else {
				e.Values = share(e.Values, f.lastArgs)
				f.lastArgs = e.Values
			}
			call := Call{Args: e.Values, Site: p.c.site(e.From)}
			f.Calls = append(f.Calls, call)
			fr.call = len(f.Calls) - 1
			p.ref = append(p.ref, callRef{f, fr.call, e.Test})
		}
		g.stack = append(g.stack, fr)
	case trace.TagExit:
		i := len(g.stack) - 1
		for i >= 0 && g.stack[i].site != e.Site {
			i--
		}
		if i < 0 {
			p.c.unpaired++
			return
		}
		fr := g.stack[i]
		g.stack = g.stack[:i]
		if fr.f != nil {
			call := &fr.f.Calls[fr.call]
			if g.panicking || e.Panicking {
				call.Panicked = true
				p.c.panicked++
			} else {
				call.Returned = true
				deep := fr.call < MaxDeepCalls
				if !deep {
					e.Values = fr.f.keep(e.Values)
				}
				call.Results = e.Values
				// An exit may record the parameters' final values
				// after the results (trace.Dir splits them off; a trace
				// read otherwise has them in Values).
				final := e.Final
				if n := len(fr.f.Results); final == nil && len(e.Values) > n {
					call.Results, final = e.Values[:n:n], e.Values[n:]
				}
				if len(final) == len(fr.f.Params) && len(final) > 0 {
					// A parameter the instrumenter did not record at
					// exit (a number, a string: nothing the caller can
					// see changed) keeps its entry value.
					switch {
					case deep:
						call.Final = make([]trace.Value, len(final))
					case e.Final == nil:
						call.Final = final // already in the block keep made
					default:
						call.Final = fr.f.keep(final)
						final = call.Final
					}
					for i, v := range final {
						if i < len(call.Args) && (v.Tag == trace.ValUnknown || deep && equalValues(&v, &call.Args[i])) {
							v = call.Args[i]
						}
						call.Final[i] = v
					}
				}
				if deep {
					call.Results = share(call.Results, fr.f.lastResults)
					fr.f.lastResults = call.Results
				}
			}
		}
		if len(g.stack) == 0 {
			g.panicking = false
		}
	case trace.TagPanic:
		g.panicking = true
	case trace.TagRecover:
		if len(e.Values) == 1 && e.Values[0].Tag != trace.ValNil {
			g.panicking = false
		}
	}
}

// MaxDeepCalls is how many calls of one function keep the parts of their
// values (fields, elements, pointees): later calls keep the values
// themselves (and errors' messages), so that a trace of many calls of
// functions over large structures fits in memory. Invariants over parts
// are learned from the first MaxDeepCalls calls; check finds those parts
// absent in later calls (not applicable, not violated).
const MaxDeepCalls = 1000

// finish attributes the process's calls to their tests.
func (p *process) finish(tp *trace.Process) {
	for _, r := range p.ref {
		call := &r.f.Calls[r.call]
		call.Outcome = trace.OutcomeUnknown
		if t := tp.Test(r.test); t != nil {
			call.Test, call.Outcome = t.Name, t.Outcome
		}
	}
}

// calls returns the collected functions, sorted by name; functions sharing
// a name (function literals of one function) get their line appended.
func (c *collector) calls() *Calls {
	out := &Calls{}
	byName := map[string][]*Function{}
	for _, f := range c.funcs {
		if f != nil && len(f.Calls) > 0 {
			byName[f.Name] = append(byName[f.Name], f)
		}
	}
	for _, fs := range byName {
		if len(fs) > 1 {
			for _, f := range fs {
				f.Name = fmt.Sprintf("%s@%d", f.Name, f.Line)
			}
		}
		out.Functions = append(out.Functions, fs...)
	}
	sort.Slice(out.Functions, func(i, j int) bool { return out.Functions[i].Name < out.Functions[j].Name })
	if c.panicked > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d calls ended in a panic: their results are left out", c.panicked))
	}
	if c.unpaired > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d function exits without an entry", c.unpaired))
	}
	if c.budget > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("the run reached its budget of %d recorded events: from then on each function recorded its first 100 calls, then those numbered by powers of two (-calls -1 records every call)", c.budget))
	}
	return out
}

// parseInfo splits a function site's "name(a, b) (r0, r1)" into the
// parameter and result names, naming unnamed results result (one) or
// result0, result1... (several).
func parseInfo(info string) (params, results []string) {
	open := strings.IndexByte(info, '(')
	if open < 0 {
		return nil, nil
	}
	rest := info[open+1:]
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return nil, nil
	}
	params = splitNames(rest[:end])
	rest = strings.TrimSpace(rest[end+1:])
	if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
		results = splitNames(rest[1 : len(rest)-1])
	}
	for i, r := range results {
		if strings.HasPrefix(r, "_culprit") {
			if len(results) == 1 {
				results[i] = "result"
			} else {
				results[i] = fmt.Sprintf("result%d", i)
			}
		}
	}
	return params, results
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
