package invariant

import (
	"hash/maphash"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/culprit-go/culprit/trace"
)

// DefaultConfidence is the default limit on the chance that an invariant
// held by accident (Options.Confidence).
const DefaultConfidence = 0.01

// Options say how to mine.
type Options struct {
	// Confidence is the largest chance of holding by accident an
	// invariant may have and still be reported (Daikon's confidence
	// limit); 0 is DefaultConfidence, 1 or more reports every invariant
	// that held in every call (the seed's behaviour).
	Confidence float64
	// Use selects the calls to learn from; nil takes the calls of
	// passing tests.
	Use func(*Call) bool
	// Props are user properties: Go expressions (the Expr language) whose
	// upper-case single-letter identifiers X, Y, Z... are metavariables,
	// instantiated with every combination of distinct variables.
	Props []*Expr
	// Workers is how many functions are mined at once; 0 is GOMAXPROCS.
	Workers int
}

func (o Options) workers() int {
	if o.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Workers
}

func (o Options) conf() float64 {
	if o.Confidence <= 0 {
		return DefaultConfidence
	}
	return o.Confidence
}

// Mine mines the pre- and postconditions of every function with at least
// one selected call. Functions are mined in parallel (Options.Workers);
// the contracts do not depend on how many.
func Mine(cs *Calls, opt Options) *Contracts {
	use := opt.Use
	if use == nil {
		use = (*Call).Passing
	}
	out := &Contracts{Version: SchemaVersion, Confidence: opt.conf(), Functions: []*Spec{}}
	out.Functions = append(out.Functions, eachFunction(cs.Functions, opt.workers(), func(f *Function, a *arena) *Spec {
		var calls []*Call
		for i := range f.Calls {
			if use(&f.Calls[i]) {
				calls = append(calls, &f.Calls[i])
			}
		}
		if len(calls) == 0 {
			return nil
		}
		return mineFunction(f, calls, opt, a)
	})...)
	return out
}

// Contrast mines the invariants of the calls made by failing tests and
// keeps those that do not hold in every call made by passing tests: the
// circumstances of failure (the seed's failing-vs-passing invariants).
// Functions without failing calls are left out.
func Contrast(cs *Calls, opt Options) *Contracts {
	out := &Contracts{Version: SchemaVersion, Confidence: opt.conf(), Contrast: true, Functions: []*Spec{}}
	out.Functions = append(out.Functions, eachFunction(cs.Functions, opt.workers(), func(f *Function, a *arena) *Spec {
		return contrastFunction(f, opt, a)
	})...)
	return out
}

// eachFunction calls mine on every function, on up to workers
// goroutines (each with its own arena, reset after every function), and
// returns the non-nil specs in the functions' order.
func eachFunction(fs []*Function, workers int, mine func(*Function, *arena) *Spec) []*Spec {
	specs := make([]*Spec, len(fs))
	workers = max(1, min(workers, len(fs)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := &arena{}
			for {
				i := int(next.Add(1)) - 1
				if i >= len(fs) {
					return
				}
				specs[i] = mine(fs[i], a)
				a.reset()
			}
		}()
	}
	wg.Wait()
	out := specs[:0]
	for _, s := range specs {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

// contrastFunction is Contrast of one function: nil when no failing
// test called it.
func contrastFunction(f *Function, opt Options, a *arena) *Spec {
	var fail, pass []*Call
	for i := range f.Calls {
		c := &f.Calls[i]
		switch {
		case c.Failing():
			fail = append(fail, c)
		case c.Passing():
			pass = append(pass, c)
		}
	}
	if len(fail) == 0 {
		return nil
	}
	s := &Spec{Name: f.Name, File: f.File, Line: f.Line, Params: f.Params, Results: f.Results, Calls: len(fail), Pre: []string{}, Post: []string{}}
	s.Types = types(f, fail)
	for _, post := range []bool{false, true} {
		m := newMiner(f, fail, post, opt, a)
		if post && m.rows+len(m.rest) == 0 {
			continue
		}
		facts := m.survivors()
		if len(pass) > 0 {
			pm := newMiner(f, pass, post, opt, a)
			facts = pm.violated(facts)
		}
		s.conditions(m, facts, post)
	}
	return s
}

// conditions sets s's postconditions (post) or preconditions: m's facts
// that are justified and not implied by others, rendered.
func (s *Spec) conditions(m *miner, facts []*fact, post bool) {
	list := render(m.vars, reduce(m.vars, m.justified(facts)), post)
	if post {
		s.Post, s.Returned = list, m.rows
	} else {
		s.Pre = list
	}
}

func mineFunction(f *Function, calls []*Call, opt Options, a *arena) *Spec {
	s := &Spec{Name: f.Name, File: f.File, Line: f.Line, Params: f.Params, Results: f.Results, Calls: len(calls), Pre: []string{}, Post: []string{}}
	s.Types = types(f, calls)
	post := newMiner(f, calls, true, opt, a)
	pre, view := post.prefix(calls)
	if !view {
		pre = newMiner(f, calls, false, opt, a)
	}
	post.lazy, pre.lazy = true, true
	mined := map[*miner][]*fact{}
	withPost := post.hasResult() && post.rows > 0
	switch {
	case view && withPost:
		mined[post], mined[pre] = survivorsShared(post, pre)
	case withPost && post.entryLeftOut && !noAdopt && sameSamples(calls):
		// Not a view only because the postconditions' miner left out
		// some variables of the parameters: the candidates over those
		// it has are still the preconditions', by name, on the same
		// calls' entry values.
		cq := pre.start()
		mined[pre] = pre.finish(cq)
		post.pre, post.preByName = cq, true
		cp := post.start()
		post.pre = nil
		cp.adopt(mined[pre], pre)
		mined[post] = post.finish(cp)
	}
	for _, m := range []*miner{pre, post} {
		isPost := m == post
		if isPost && !withPost {
			continue
		}
		facts, ok := mined[m]
		if !ok {
			facts = m.survivors()
		}
		s.conditions(m, facts, isPost)
	}
	return s
}

// prefix returns the miner of the preconditions as a view of m, the
// postconditions' miner, when their samples are the same calls (every
// call that did not panic returned): the parameters' variables come
// first, so the rows are built once. Where a parameter's part changed
// (old(x) in postconditions) the view names it x, as a miner of the
// preconditions alone would; it does so only when m left out no
// variable of the parameters (maxVars; results left out do not
// matter), so that the view has all of that miner's variables.
func (m *miner) prefix(calls []*Call) (*miner, bool) {
	if m.changed && m.entryLeftOut {
		return nil, false
	}
	if !sameSamples(calls) {
		return nil, false
	}
	k := 0
	for k < len(m.vars) && !m.vars[k].result {
		k++
	}
	for _, v := range m.vars[k:] {
		if !v.result {
			return nil, false
		}
	}
	vars := m.vars[:k:k]
	if m.changed {
		vars = append([]variable(nil), vars...)
		for i := range vars {
			vars[i].name = entryName(vars[i].name)
		}
	}
	pre := &miner{vars: vars, props: m.props, conf: m.conf, seed: m.seed, samples: make([][]cell, len(m.samples)), rows: m.rows, rest: m.rest, own: m.changed, arena: m.arena}
	for i, row := range m.samples {
		pre.samples[i] = row[:k:k]
	}
	pre.b = m.b.prefix(k)
	return pre, true
}

// sameSamples reports whether the pre- and postconditions' miners take
// the same calls: every call that did not panic returned.
func sameSamples(calls []*Call) bool {
	for _, c := range calls {
		if !c.Panicked && !c.Returned {
			return false
		}
	}
	return true
}

// entryName is the name in preconditions of a variable named name in
// postconditions: old(x) is x, len(old(x)) is len(x).
func entryName(name string) string {
	if strings.HasPrefix(name, "old(") && strings.HasSuffix(name, ")") {
		return name[len("old(") : len(name)-1]
	}
	if strings.HasPrefix(name, "len(old(") && strings.HasSuffix(name, "))") {
		return "len(" + name[len("len(old("):len(name)-2] + ")"
	}
	return name
}

// types counts the dynamic types of the parameters and results.
func types(f *Function, calls []*Call) map[string]map[string]int {
	t := map[string]map[string]int{}
	// Runs of one type are counted before they touch the maps: a
	// variable's type rarely changes from call to call.
	type run struct {
		typ string
		n   int
	}
	runs := make([]run, len(f.Params)+len(f.Results))
	flush := func(i int) {
		r := &runs[i]
		if r.n == 0 {
			return
		}
		name := ""
		if i < len(f.Params) {
			name = f.Params[i]
		} else {
			name = f.Results[i-len(f.Params)]
		}
		if t[name] == nil {
			t[name] = map[string]int{}
		}
		t[name][r.typ] += r.n
		r.n = 0
	}
	add := func(i int, v trace.Value) {
		c := cellOf(v)
		if c.k == kAbsent {
			return
		}
		if runs[i].typ != c.typ {
			flush(i)
			runs[i].typ = c.typ
		}
		runs[i].n++
	}
	for _, c := range calls {
		for i, v := range c.Args {
			if i < len(f.Params) {
				add(i, v)
			}
		}
		if c.Returned {
			for i, v := range c.Results {
				if i < len(f.Results) {
					add(len(f.Params)+i, v)
				}
			}
		}
	}
	for i := range runs {
		flush(i)
	}
	if len(t) == 0 {
		return nil
	}
	return t
}

// variable is one variable of a function for mining: a parameter, a
// result, a part of one (p.name, s[0], err.Error(), old(p.n)), or len of
// one of them. A variable is absent from the samples where it has no
// value (p.name when p is nil, s[3] when len(s) is 3): facts skip them.
type variable struct {
	name    string // as invariants write it
	base    int    // the variable it is derived from (itself when not derived)
	length  bool   // len(base)
	part    bool   // a part of a parameter or result (p.name, s[0]), or len of one
	result  bool   // a result, or derived from one
	str     bool   // length: of a string
	num     bool   // every sample is a number
	ints    bool   // every sample is an integer
	uint    bool   // every sample is an unsigned integer
	strs    bool   // every sample is a string kept whole
	bools   bool   // every sample is a bool
	nilable bool   // every sample is nil or a reference
	broken  bool   // length: a later sample of its value had none (len(x) is no variable)
}

// miner holds one function's samples: per call, the cells of its
// variables. The variables are learned from the first maxBuffered calls,
// whose rows are kept while the candidates are instantiated; the later
// calls are turned into rows one at a time (rows.go) and checked against
// the surviving candidates only, so memory grows with the variables and
// the candidates, not with the calls.
type miner struct {
	vars         []variable
	samples      [][]cell // the rows of the first calls (nil once checked)
	props        []*Expr
	conf         float64
	seed         maphash.Seed // of cell hashes
	changed      bool         // some parameter's part changed between entry and exit
	entryLeftOut bool         // some variable of the parameters was left out (maxVars)
	own          bool         // a prefix view whose variables are its own (renamed): update them too
	pre          *checking    // start: set aside the candidates the preconditions' checking has too (adopt)
	preByName    bool         // pre is another miner's: match its variables by name
	rows         int          // samples: the first calls' and the streamed ones
	b            *rowBuilder  // builds the rows of the later calls
	rest         []*Call      // the later calls, rows not yet built
	post         bool         // rows hold results: calls that returned only
	loose        bool         // candidates: also those later calls may allow (>= 0 of unsigned)
	lazy         bool         // the results go to reduce as they are: candidates over constants may wait (deferConstants)
	arena        *arena       // the first calls' rows and the candidates come from it
	hashes       []uint64     // the current row's cell hashes, by variable, when stamp matches
	stamps       []uint32
	stamp        uint32
}

// maxBuffered is how many calls of a function are held as rows while
// its variables and candidates are learned; later calls are checked one
// at a time. It is MaxDeepCalls, so that every call recorded with the
// parts of its values is among them (a variable first seen later is
// left out). A variable, not a constant, for the tests.
var maxBuffered = MaxDeepCalls

// newMiner builds the samples of calls: entry values (pre) or entry
// values and results of the calls that returned (post). The rows of the
// first maxBuffered such calls are built now, from a, the others when
// checked.
func newMiner(f *Function, calls []*Call, post bool, opt Options, a *arena) *miner {
	m := &miner{props: opt.Props, conf: opt.conf(), seed: maphash.MakeSeed(), post: post, arena: a}
	var changed map[string]bool
	if post {
		changed = changedParts(f, calls)
		m.changed = len(changed) > 0
	}
	first := calls
	n := 0
	for i, c := range calls {
		if m.takes(c) {
			if n == maxBuffered && m.rest == nil {
				first, m.rest = calls[:i], calls[i:]
			}
			m.rows++
			n = min(n+1, maxBuffered)
		}
	}
	b := newRowBuilder(f, post, changed)
	b.grow = func(name string, result bool) (int, bool) {
		if len(m.vars) >= maxVars {
			m.entryLeftOut = m.entryLeftOut || !result
			return 0, false
		}
		m.vars = append(m.vars, variable{name: name, base: len(m.vars), result: result})
		return len(m.vars) - 1, true
	}
	// The parameters and results themselves come first, in order; the
	// variables made after them are parts.
	for _, p := range f.Params {
		b.entry(p, cell{})
	}
	if post {
		for _, r := range f.Results {
			b.result(r, cell{})
		}
	}
	wholes := len(m.vars)
	b.setDirect()
	// One row per call, with room for the lengths derived below; a row
	// made before some variable is extended at the end.
	m.samples = make([][]cell, 0, n)
	var last *Call
	for _, c := range first {
		if !m.takes(c) {
			continue
		}
		nv, room := len(m.vars), 2*max(len(m.vars), 4)
		if last != nil && !noRepeats && b.same(c, last) {
			// The row of the call before (made after every variable
			// its values have), without deriving it again.
			prev := m.samples[len(m.samples)-1]
			m.samples = append(m.samples, append(a.cells(room)[:0], prev...))
			continue
		}
		m.samples = append(m.samples, b.fill(c, a.cells(room)[:nv]))
		last = c
	}
	for r, row := range m.samples {
		if len(row) != len(m.vars) {
			m.samples[r] = widen(row, len(m.vars))
		}
	}
	b.grow = nil
	for i := wholes; i < len(m.vars); i++ {
		m.vars[i].part = true
	}
	nb := len(m.vars)
	// Derived: len(x) when every sample of x has a length.
	for i := 0; i < nb; i++ {
		ok, some, str := len(m.samples) > 0, false, false
		for _, row := range m.samples {
			_, has := row[i].length()
			ok = ok && (has || row[i].k == kAbsent)
			some = some || row[i].hasLen
			str = str || row[i].k == kStr
		}
		if !ok || !some {
			continue
		}
		m.vars = append(m.vars, variable{name: "len(" + m.vars[i].name + ")", base: i, length: true, part: m.vars[i].part, result: m.vars[i].result, str: str})
		for r, row := range m.samples {
			m.samples[r] = append(row, lenCell(row[i]))
		}
	}
	// Order: parameters and their lengths, then results and theirs.
	idx := make([]int, len(m.vars))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return !m.vars[idx[a]].result && m.vars[idx[b]].result })
	pos := make([]int, len(idx))
	for n, i := range idx {
		pos[i] = n
	}
	identity := true
	for n, i := range idx {
		identity = identity && n == i
	}
	if !identity {
		vars := make([]variable, len(idx))
		for n, i := range idx {
			vars[n] = m.vars[i]
		}
		for n := range vars {
			vars[n].base = pos[vars[n].base]
		}
		for r, row := range m.samples {
			nrow := a.cells(len(row))
			for n, i := range idx {
				nrow[n] = row[i]
			}
			m.samples[r] = nrow
		}
		m.vars = vars
	}
	b.place(pos, m.vars)
	m.b = b
	m.flags()
	return m
}

// takes reports whether call c is one of m's samples.
func (m *miner) takes(c *Call) bool {
	return !c.Panicked && (!m.post || c.Returned)
}

// flags sets what every sample of each variable is.
func (m *miner) flags() {
	for i := range m.vars {
		v := &m.vars[i]
		v.num, v.ints, v.uint, v.strs, v.bools, v.nilable = true, true, true, true, true, true
		present := 0
		for _, row := range m.samples {
			c := row[i]
			if c.k == kAbsent {
				continue
			}
			present++
			v.narrow(c)
		}
		if present == 0 {
			*v = variable{name: v.name, base: v.base, length: v.length, part: v.part, result: v.result, str: v.str}
		}
	}
}

// narrow narrows what every sample of v is by one more sample c.
func (v *variable) narrow(c cell) {
	v.num = v.num && c.k == kNum
	v.ints = v.ints && c.k == kNum && c.isInt
	v.uint = v.uint && c.typ == "uint"
	v.strs = v.strs && c.k == kStr && c.full
	v.bools = v.bools && c.k == kBool
	v.nilable = v.nilable && c.nilable()
}

// changedParts returns the derived variables of the parameters whose
// value at exit (Call.Final) differed from the value at entry in some
// call that returned: in postconditions those are named x (at exit) and
// old(x) (at entry); the others are named x and read at entry.
func changedParts(f *Function, calls []*Call) map[string]bool {
	changed := map[string]bool{}
	nm := names{}
	for _, c := range calls {
		if !c.Returned || c.Panicked || len(c.Final) == 0 {
			continue
		}
		for i, p := range f.Params {
			if i >= len(c.Args) || i >= len(c.Final) {
				continue
			}
			if equalValues(&c.Args[i], &c.Final[i]) {
				continue // the common case, without copying the values
			}
			diffParts(nm, p, c.Args[i], c.Final[i], changed)
		}
	}
	return changed
}

// diffParts marks in changed the derived variables of a parameter name
// (derive's, by the same names) whose value at entry a and at exit z
// differ, or that only one of them has. Where the two have the same
// shape it walks them side by side; elsewhere it compares their
// derived variables by name.
func diffParts(nm names, name string, a, z trace.Value, changed map[string]bool) {
	if equalValues(&a, &z) {
		return // the common case: nothing changed
	}
	pa, aptr := a.Deref()
	pz, zptr := z.Deref()
	if !sameShape(a, z) || aptr != zptr || aptr && (pa.Fields != nil && pa.Err == nil) != (pz.Fields != nil && pz.Err == nil) {
		at := map[string]cell{}
		derived(name, a, at)
		derive(nm, name, z, func(name string, v cell) {
			if e, ok := at[name]; !ok || e.key() != v.key() || e.typ != v.typ {
				changed[name] = true
			}
			delete(at, name)
		})
		for name := range at {
			changed[name] = true
		}
		return
	}
	if ca, cz := cellOf(a), cellOf(z); ca.key() != cz.key() || ca.typ != cz.typ {
		changed[name] = true
	}
	switch {
	case a.Err != nil:
		diffParts(nm, nm.of(name, ".Error()", 0), *a.Err, *z.Err, changed)
	case !a.Deep:
	case aptr && pa.Fields != nil && pa.Err == nil:
		diffFields(nm, name, pa, pz, changed)
	case aptr:
		diffParts(nm, nm.of("*", name, 0), pa, pz, changed)
	default:
		diffFields(nm, name, a, z, changed)
		for i := range a.Elems {
			diffParts(nm, nm.of(name, "", i), a.Elems[i], z.Elems[i], changed)
		}
		if n := len(a.Elems); n > 1 && uint64(n) == a.Uint && a.Tag == trace.ValRef {
			diffParts(nm, nm.of(name, "", -1), a.Elems[n-1], z.Elems[n-1], changed)
		}
	}
}

// diffFields is diffParts over the fields of two structs of one shape.
func diffFields(nm names, name string, a, z trace.Value, changed map[string]bool) {
	for i, f := range a.Fields {
		if f.Name != "" && f.Name != "_" {
			diffParts(nm, nm.field(name, f.Name), f.Value, z.Fields[i].Value, changed)
		}
	}
}

// sameShape reports whether two values have the same parts: derive
// names theirs alike.
func sameShape(a, b trace.Value) bool {
	if a.Tag != b.Tag || a.Deep != b.Deep || a.Uint != b.Uint && a.Tag == trace.ValRef && a.Deep ||
		len(a.Elems) != len(b.Elems) || len(a.Fields) != len(b.Fields) || (a.Err == nil) != (b.Err == nil) ||
		(a.Fields == nil) != (b.Fields == nil) {
		return false
	}
	for i := range a.Fields {
		if a.Fields[i].Name != b.Fields[i].Name {
			return false
		}
	}
	return true
}

// sameTop reports whether two recorded values are the same but for
// their parts, of which they have as many.
func sameTop(a, b *trace.Value) bool {
	return a.Tag == b.Tag && a.Int == b.Int && a.Uint == b.Uint && math.Float64bits(a.Float) == math.Float64bits(b.Float) &&
		a.Str == b.Str && a.Len == b.Len && a.Type == b.Type && a.Deep == b.Deep &&
		len(a.Elems) == len(b.Elems) && len(a.Fields) == len(b.Fields) && (a.Err == nil) == (b.Err == nil)
}

// equalValues reports whether two recorded values are the same, parts
// and all.
func equalValues(a, b *trace.Value) bool {
	if !sameTop(a, b) {
		return false
	}
	// Parts shared (the collector's share) are the same.
	if a.Err != b.Err && a.Err != nil && !equalValues(a.Err, b.Err) {
		return false
	}
	if len(a.Elems) > 0 && &a.Elems[0] != &b.Elems[0] {
		for i := range a.Elems {
			if !equalValues(&a.Elems[i], &b.Elems[i]) {
				return false
			}
		}
	}
	if len(a.Fields) > 0 && &a.Fields[0] != &b.Fields[0] {
		for i := range a.Fields {
			if a.Fields[i].Name != b.Fields[i].Name || !equalValues(&a.Fields[i].Value, &b.Fields[i].Value) {
				return false
			}
		}
	}
	return true
}

// hasResult reports whether some variable is a result or a parameter's
// part at exit: whether there are postconditions to mine.
func (m *miner) hasResult() bool {
	for _, v := range m.vars {
		if v.result {
			return true
		}
	}
	return false
}
