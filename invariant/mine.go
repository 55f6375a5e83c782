package invariant

import (
	"hash/maphash"
	"sort"

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
}

func (o Options) conf() float64 {
	if o.Confidence <= 0 {
		return DefaultConfidence
	}
	return o.Confidence
}

// Mine mines the pre- and postconditions of every function with at least
// one selected call.
func Mine(cs *Calls, opt Options) *Contracts {
	use := opt.Use
	if use == nil {
		use = (*Call).Passing
	}
	out := &Contracts{Version: SchemaVersion, Confidence: opt.conf(), Functions: []*Spec{}}
	for _, f := range cs.Functions {
		var calls []*Call
		for i := range f.Calls {
			if use(&f.Calls[i]) {
				calls = append(calls, &f.Calls[i])
			}
		}
		if len(calls) == 0 {
			continue
		}
		out.Functions = append(out.Functions, mineFunction(f, calls, opt))
	}
	return out
}

// Contrast mines the invariants of the calls made by failing tests and
// keeps those that do not hold in every call made by passing tests: the
// circumstances of failure (the seed's failing-vs-passing invariants).
// Functions without failing calls are left out.
func Contrast(cs *Calls, opt Options) *Contracts {
	out := &Contracts{Version: SchemaVersion, Confidence: opt.conf(), Contrast: true, Functions: []*Spec{}}
	for _, f := range cs.Functions {
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
			continue
		}
		s := &Spec{Name: f.Name, File: f.File, Line: f.Line, Params: f.Params, Results: f.Results, Calls: len(fail), Pre: []string{}, Post: []string{}}
		s.Types = types(f, fail)
		for _, post := range []bool{false, true} {
			m := newMiner(f, fail, post, opt)
			if post && len(m.samples) == 0 {
				continue
			}
			facts := m.survivors()
			if len(pass) > 0 {
				pm := newMiner(f, pass, post, opt)
				facts = pm.violated(facts)
			}
			facts = m.justified(facts)
			facts = reduce(m.vars, facts)
			list := render(m.vars, facts, post)
			if post {
				s.Post, s.Returned = list, len(m.samples)
			} else {
				s.Pre = list
			}
		}
		out.Functions = append(out.Functions, s)
	}
	return out
}

func mineFunction(f *Function, calls []*Call, opt Options) *Spec {
	s := &Spec{Name: f.Name, File: f.File, Line: f.Line, Params: f.Params, Results: f.Results, Calls: len(calls), Pre: []string{}, Post: []string{}}
	s.Types = types(f, calls)
	post := newMiner(f, calls, true, opt)
	pre, ok := post.prefix(calls)
	if !ok {
		pre = newMiner(f, calls, false, opt)
	}
	for _, m := range []*miner{pre, post} {
		isPost := m == post
		if isPost && (!m.hasResult() || len(m.samples) == 0) {
			continue
		}
		facts := m.justified(m.survivors())
		facts = reduce(m.vars, facts)
		list := render(m.vars, facts, isPost)
		if isPost {
			s.Post, s.Returned = list, len(m.samples)
		} else {
			s.Pre = list
		}
	}
	return s
}

// prefix returns the miner of the preconditions as a view of m, the
// postconditions' miner, when their samples are the same calls (every
// call that did not panic returned) and no parameter changed (so the
// parameters' variables are named alike and come first): the rows are
// built once.
func (m *miner) prefix(calls []*Call) (*miner, bool) {
	if m.changed {
		return nil, false
	}
	for _, c := range calls {
		if !c.Panicked && !c.Returned {
			return nil, false
		}
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
	pre := &miner{vars: m.vars[:k:k], props: m.props, conf: m.conf, seed: m.seed, samples: make([][]cell, len(m.samples))}
	for i, row := range m.samples {
		pre.samples[i] = row[:k:k]
	}
	return pre, true
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
}

// miner holds one function's samples: per call, the cells of its
// variables.
type miner struct {
	vars    []variable
	samples [][]cell
	props   []*Expr
	conf    float64
	seed    maphash.Seed // of cell hashes
	changed bool         // some parameter's part changed between entry and exit
}

// newMiner builds the samples of calls: entry values (pre) or entry
// values and results of the calls that returned (post).
func newMiner(f *Function, calls []*Call, post bool, opt Options) *miner {
	m := &miner{props: opt.Props, conf: opt.conf(), seed: maphash.MakeSeed()}
	var changed map[string]bool
	if post {
		changed = changedParts(f, calls)
		m.changed = len(changed) > 0
	}
	index := map[string]int{}
	nm := names{}
	var row []cell
	// put sets the variable name of the current row, making it when it
	// is new and maxVars allows.
	// Calls mostly have the shapes of the call before: seq remembers
	// the order of the names put in the previous call (names come from
	// the cache, so comparing them is cheap), and the index map is asked
	// only where the order differs.
	type slot struct {
		name string
		j    int
	}
	var seq []slot
	at := 0
	put := func(name string, result bool, c cell) {
		if at < len(seq) && seq[at].name == name {
			if row != nil {
				row[seq[at].j] = c
			}
			at++
			return
		}
		j, ok := index[name]
		if ok {
			if at < len(seq) {
				seq[at] = slot{name, j}
				seq = seq[:at+1]
			} else {
				seq = append(seq, slot{name, j})
			}
			at++
		}
		if !ok {
			if len(m.vars) >= maxVars {
				return
			}
			j = len(m.vars)
			index[name] = j
			m.vars = append(m.vars, variable{name: name, base: j, result: result})
		}
		if row != nil {
			row[j] = c
		}
	}
	entry := func(name string, c cell) {
		if changed[name] {
			name = "old(" + name + ")"
		}
		put(name, false, c)
	}
	result := func(name string, c cell) { put(name, true, c) }
	final := func(name string, c cell) {
		if changed[name] {
			put(name, true, c)
		}
	}
	// The parameters and results themselves come first, in order; the
	// variables made after them are parts.
	for _, p := range f.Params {
		entry(p, cell{})
	}
	if post {
		for _, r := range f.Results {
			result(r, cell{})
		}
	}
	wholes := len(m.vars)
	// direct: parameter i is variable i and result j variable
	// len(Params)+j (no names repeat), so plain values go straight in.
	direct := true
	for i, p := range f.Params {
		direct = direct && index[p] == i && !changed[p]
	}
	for j, r := range f.Results {
		direct = direct && (!post || index[r] == len(f.Params)+j)
	}
	// Two passes: the first makes the variables of the parts, so that
	// the second fills rows of their final width (with room for the
	// lengths derived below) from one allocation.
	for pass := 0; pass < 2; pass++ {
		var slab []cell
		nv := len(m.vars)
		for _, c := range calls {
			if (post && !c.Returned) || c.Panicked {
				continue
			}
			row, at = nil, 0
			if pass == 1 {
				if len(slab) < 2*nv {
					slab = make([]cell, 2*nv*min(len(calls), 1024))
				}
				row, slab = slab[:nv:2*nv], slab[2*nv:]
			}
			for i, p := range f.Params {
				if i < len(c.Args) {
					if a := c.Args[i]; direct && !a.Deep && a.Err == nil {
						if row != nil {
							row[i] = cellOf(a) // the common case, without derive
						}
					} else {
						derive(nm, p, a, entry)
					}
				}
			}
			if post {
				for i, r := range f.Results {
					if i < len(c.Results) {
						if v := c.Results[i]; direct && !v.Deep && v.Err == nil {
							if row != nil {
								row[len(f.Params)+i] = cellOf(v)
							}
						} else {
							derive(nm, r, v, result)
						}
					}
				}
				for i, p := range f.Params {
					if i < len(c.Final) {
						derive(nm, p, c.Final[i], final)
					}
				}
			}
			if row != nil {
				m.samples = append(m.samples, row)
			}
		}
	}
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
		j := len(m.vars)
		m.vars = append(m.vars, variable{name: "len(" + m.vars[i].name + ")", base: i, length: true, part: m.vars[i].part, result: m.vars[i].result, str: str})
		for r, row := range m.samples {
			n, has := row[i].length()
			c := intCell(int64(n))
			if !has {
				c = cell{}
			}
			m.samples[r] = append(row, c)
		}
		_ = j
	}
	// Order: parameters and their lengths, then results and theirs.
	idx := make([]int, len(m.vars))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return !m.vars[idx[a]].result && m.vars[idx[b]].result })
	identity := true
	for n, i := range idx {
		identity = identity && n == i
	}
	if identity {
		m.flags()
		return m
	}
	vars := make([]variable, len(idx))
	pos := make([]int, len(idx))
	for n, i := range idx {
		vars[n] = m.vars[i]
		pos[i] = n
	}
	for n := range vars {
		vars[n].base = pos[vars[n].base]
	}
	for r, row := range m.samples {
		nrow := make([]cell, len(row))
		for n, i := range idx {
			nrow[n] = row[i]
		}
		m.samples[r] = nrow
	}
	m.vars = vars
	m.flags()
	return m
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
			v.num = v.num && c.k == kNum
			v.ints = v.ints && c.k == kNum && c.isInt
			v.uint = v.uint && c.typ == "uint"
			v.strs = v.strs && c.k == kStr && c.full
			v.bools = v.bools && c.k == kBool
			v.nilable = v.nilable && c.nilable()
		}
		if present == 0 {
			*v = variable{name: v.name, base: v.base, length: v.length, part: v.part, result: v.result, str: v.str}
		}
	}
}

// changedParts returns the derived variables of the parameters whose
// value at exit (Call.Final) differed from the value at entry in some
// call that returned: in postconditions those are named x (at exit) and
// old(x) (at entry); the others are named x and read at entry.
func changedParts(f *Function, calls []*Call) map[string]bool {
	changed := map[string]bool{}
	for _, c := range calls {
		if !c.Returned || c.Panicked || len(c.Final) == 0 {
			continue
		}
		for i, p := range f.Params {
			if i >= len(c.Args) || i >= len(c.Final) {
				continue
			}
			at := map[string]cell{}
			derived(p, c.Args[i], at)
			derive(nil, p, c.Final[i], func(name string, v cell) {
				if e, ok := at[name]; !ok || e.key() != v.key() || e.typ != v.typ {
					changed[name] = true
				}
				delete(at, name)
			})
			for name := range at {
				changed[name] = true
			}
		}
	}
	return changed
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
