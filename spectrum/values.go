package spectrum

import (
	"fmt"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// procState is what the collector keeps while it reads the stream of one
// process (one events file).
type procState struct {
	own    map[int][]int       // per test: the distinct stream events it had
	seen   map[uint64]struct{} // test<<32 | event, to keep own distinct
	stacks map[int][]*frame    // per goroutine: function activations, innermost last
}

func newProcState() *procState {
	return &procState{own: map[int][]int{}, seen: map[uint64]struct{}{}, stacks: map[int][]*frame{}}
}

func (ps *procState) add(test, id int) {
	k := uint64(test)<<32 | uint64(uint32(id))
	if _, ok := ps.seen[k]; ok {
		return
	}
	ps.seen[k] = struct{}{}
	ps.own[test] = append(ps.own[test], id)
}

// A frame is one activation of a function on a goroutine, as far as the
// stream shows it: the latest value of each numeric variable the
// activation read or wrote (its arguments included), which stands for the
// variables "in scope" at an assignment.
type frame struct {
	fn   string // trace.Site.Func
	vars []numVar
}

type numVar struct {
	name string
	decl string // the declaring position (trace format 3), "" when not known
	v    float64
}

// maxFrameVars bounds the variables a frame remembers; maxStack the
// activations remembered per goroutine (a stream whose exits were
// sampled away must not grow without end).
const (
	maxFrameVars = 32
	maxStack     = 1024
)

// set records the value of the variable name declared at decl ("" when
// not known: arguments, traces before format 3). Two variables with one
// name and different declarations (shadowing) are kept apart; a variable
// without a declaring position is taken to be the one with its name.
func (f *frame) set(name, decl string, v float64) {
	for i := range f.vars {
		x := &f.vars[i]
		if x.name == name && (x.decl == decl || x.decl == "" || decl == "") {
			x.v = v
			if x.decl == "" {
				x.decl = decl
			}
			return
		}
	}
	if len(f.vars) < maxFrameVars {
		f.vars = append(f.vars, numVar{name, decl, v})
	}
}

// enter pushes a new activation of fn on goroutine g.
func (ps *procState) enter(g int, fn string) *frame {
	st := ps.stacks[g]
	if len(st) >= maxStack {
		st = append(st[:0], st[len(st)-maxStack/2:]...)
	}
	f := &frame{fn: fn}
	ps.stacks[g] = append(st, f)
	return f
}

// exit pops the innermost activation of fn on goroutine g, and those
// above it (their exits were not recorded).
func (ps *procState) exit(g int, fn string) {
	st := ps.stacks[g]
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].fn == fn {
			ps.stacks[g] = st[:i]
			return
		}
	}
}

// frameOf returns the innermost activation of fn on goroutine g: the
// activations above it are taken as returned (their exits were not
// recorded); when there is none (the entry was not recorded, or the
// trace has no function events) a new one is pushed, which then lasts
// until fn's next recorded exit.
func (ps *procState) frameOf(g int, fn string) *frame {
	st := ps.stacks[g]
	for i := len(st) - 1; i >= 0; i-- {
		if st[i].fn == fn {
			ps.stacks[g] = st[:i+1]
			return st[i]
		}
	}
	return ps.enter(g, fn)
}

// event adds the events a stream record implies to its test's set, and
// keeps the activations of the record's goroutine up to date.
func (c *collector) event(ps *procState, e trace.Event) {
	if e.Site < 0 || e.Site >= len(c.sites.Sites) {
		return
	}
	s := c.sites.Sites[e.Site]
	body := c.kinds.Has(Value) || c.kinds.Has(Predicate)
	switch {
	case e.Tag == trace.TagEnter && s.Kind == trace.KindFunc:
		f := ps.enter(e.Goroutine, s.Func)
		c.funcEvent(ps, e, s, f)
	case e.Tag == trace.TagExit && s.Kind == trace.KindFunc:
		c.funcEvent(ps, e, s, nil)
		ps.exit(e.Goroutine, s.Func)
	case e.Tag == trace.TagReturn && s.Kind == trace.KindCall:
		if c.kinds.Has(Predicate) && !c.skip(e.Test, s) {
			c.returned(ps, e, s)
		}
	case !body || len(e.Values) != 1:
	case e.Tag == trace.TagRead && s.Kind == trace.KindRead:
		c.read(ps, e, s)
	case e.Tag == trace.TagWrite && s.Kind == trace.KindWrite:
		c.write(ps, e, s)
	}
}

// predKey names a predicate at a read site without building its text:
// the site, the variable compared with ("" for zero, or the shape of a
// value that is not a number) and the relation.
type predKey struct {
	site  int
	other string
	rel   byte // '<', '>', '=', or 's' for a shape
}

// pred returns the ID of the predicate k, whose text text() makes on
// first use.
func (c *collector) pred(k predKey, s trace.Site, text func() string) int {
	id, ok := c.preds[k]
	if !ok {
		id = c.intern(c.at(Predicate, s, text()))
		c.preds[k] = id
	}
	return id
}

// read adds the predicates that hold where a variable is used (an if or
// for condition, an operand, an argument, a returned expression): a
// number compared with zero and with every other numeric variable of the
// activation, as at an assignment; nil-ness and emptiness of a value
// that is not a number. A plain variable's value then enters the
// activation.
func (c *collector) read(ps *procState, e trace.Event, s trace.Site) {
	if !plainName(s.Info) {
		return
	}
	x, isNum := number(e.Values[0])
	var f *frame
	if isNum {
		f = ps.frameOf(e.Goroutine, s.Func)
	}
	if c.kinds.Has(Predicate) && !c.skip(e.Test, s) {
		add := func(id int) { ps.add(e.Test, id) }
		switch {
		case isNum:
			rel := compare(x, 0)
			add(c.pred(predKey{e.Site, "", rel[0]}, s, func() string { return s.Info + " " + rel + " 0" }))
			for _, o := range f.vars {
				if o.name != s.Info {
					rel, name := compare(x, o.v), o.name
					add(c.pred(predKey{e.Site, name, rel[0]}, s, func() string { return s.Info + " " + rel + " " + name }))
				}
			}
		default:
			if p := shape(s.Info, e.Values[0]); p != "" {
				add(c.pred(predKey{e.Site, p, 's'}, s, func() string { return p }))
			}
		}
	}
	if isNum {
		f.set(s.Info, s.Decl(), x)
	}
}

// returned adds the predicates over the results of a call, at the call
// (CBI's "returns" scheme): the sign of each number, nil-ness of errors,
// pointers and other references, emptiness of strings, slices and maps.
// A call of f with one result names it "f()"; with several, the i-th
// (from 1) is "f() result i".
func (c *collector) returned(ps *procState, e trace.Event, s trace.Site) {
	for i, v := range e.Values {
		name := s.Info + "()"
		if len(e.Values) > 1 {
			name += fmt.Sprintf(" result %d", i+1)
		}
		p := ""
		if x, ok := number(v); ok {
			p = name + " " + compare(x, 0) + " 0"
		} else {
			p = shape(name, v)
		}
		if p != "" {
			ps.add(e.Test, c.intern(c.at(Predicate, s, p)))
		}
	}
}

// skip reports whether events at s are left out: code outside any test,
// or a test file's own code.
func (c *collector) skip(test int, s trace.Site) bool {
	return test == 0 || (!c.testFiles && strings.HasSuffix(s.File, "_test.go"))
}

// funcEvent adds the events of a function entry or exit: the function,
// the values of its arguments or results and the predicates over them. At
// an entry, f is the new activation, which takes the numeric arguments.
func (c *collector) funcEvent(ps *procState, e trace.Event, s trace.Site, f *frame) {
	body := c.kinds.Has(Value) || c.kinds.Has(Predicate)
	skip := c.skip(e.Test, s)
	if skip && (f == nil || !body) {
		return
	}
	add := func(ev Event) { ps.add(e.Test, c.intern(ev)) }
	if e.Tag == trace.TagEnter && c.kinds.Has(Func) && !skip {
		add(c.at(Func, s, ""))
	}
	if !body {
		return
	}
	fi := c.funcs[e.Site]
	if fi == nil {
		fi = parseFuncInfo(s.Info)
		c.funcs[e.Site] = fi
	}
	names := fi.params
	if e.Tag == trace.TagExit {
		names = fi.results
	}
	named := make([]namedValue, len(e.Values))
	for i, v := range e.Values {
		n := fmt.Sprintf("arg%d", i)
		if e.Tag == trace.TagExit {
			n = fmt.Sprintf("result%d", i)
			if len(e.Values) == 1 {
				n = "result"
			}
		}
		if i < len(names) && !strings.HasPrefix(names[i], "_culprit") {
			n = names[i]
		}
		named[i] = namedValue{n, v}
		if x, ok := number(v); ok && f != nil {
			f.set(n, "", x)
		}
	}
	if skip {
		return
	}
	if c.kinds.Has(Value) {
		for _, nv := range named {
			add(c.value(s, s.Func, nv))
		}
	}
	if c.kinds.Has(Predicate) {
		for _, p := range predicates(named) {
			add(c.at(Predicate, s, p))
		}
	}
}

// value returns the value event "name = v" at s, or "name = (other)" once
// more than maxValues distinct values of name were seen at scope (a
// function for arguments and results, a position for assignments).
func (c *collector) value(s trace.Site, scope string, nv namedValue) Event {
	text := nv.name + " = " + nv.v.String()
	ev := c.at(Value, s, text)
	if _, ok := c.ids[ev]; !ok {
		k := scope + "\x00" + nv.name
		c.values[k]++
		if c.values[k] > c.maxValues {
			ev.Text = nv.name + " = (other)"
		}
	}
	return ev
}

// write adds the events of an assignment: the value written ("x = 3")
// and the predicates that hold at it: a number compared with every other
// numeric variable of the activation ("x < n") and with zero ("x > 0");
// nil-ness of references, emptiness of strings, slices and maps. A plain
// variable's new value then enters the activation.
func (c *collector) write(ps *procState, e trace.Event, s trace.Site) {
	v := e.Values[0]
	x, isNum := number(v)
	var f *frame
	if isNum {
		f = ps.frameOf(e.Goroutine, s.Func)
	}
	if !c.skip(e.Test, s) && !strings.HasPrefix(s.Info, "_culprit") {
		add := func(ev Event) { ps.add(e.Test, c.intern(ev)) }
		if c.kinds.Has(Value) {
			ev := c.at(Value, s, "")
			add(c.value(s, ev.Pos(), namedValue{s.Info, v}))
		}
		if c.kinds.Has(Predicate) {
			if isNum {
				add(c.at(Predicate, s, s.Info+" "+compare(x, 0)+" 0"))
				for _, o := range f.vars {
					if o.name != s.Info {
						add(c.at(Predicate, s, s.Info+" "+compare(x, o.v)+" "+o.name))
					}
				}
			} else if p := shape(s.Info, v); p != "" {
				add(c.at(Predicate, s, p))
			}
		}
	}
	if isNum && plainName(s.Info) {
		f.set(s.Info, s.Decl(), x)
	}
}

// plainName reports whether a read or write names a variable (not a
// field, an element or a dereference).
func plainName(s string) bool {
	if s == "" || s == "_" || strings.HasPrefix(s, "_culprit") {
		return false
	}
	for _, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80) {
			return false
		}
	}
	return true
}

// number returns the value of an integer or (non-NaN) floating-point value.
func number(v trace.Value) (float64, bool) {
	switch v.Tag {
	case trace.ValInt:
		return float64(v.Int), true
	case trace.ValUint:
		return float64(v.Uint), true
	case trace.ValFloat:
		return v.Float, v.Float == v.Float
	}
	return 0, false
}

func compare(a, b float64) string {
	switch {
	case a < b:
		return "<"
	case a > b:
		return ">"
	}
	return "=="
}

// shape returns the predicate over a value that is not a number: nil-ness
// of references, emptiness of strings, slices and maps; "" for others.
func shape(name string, v trace.Value) string {
	switch {
	case v.Tag == trace.ValNil:
		return name + " == nil"
	case v.Tag == trace.ValRef && (strings.HasPrefix(v.Type, "[]") || strings.HasPrefix(v.Type, "map[")):
		if v.Uint == 0 {
			return "len(" + name + ") == 0"
		}
		return "len(" + name + ") > 0"
	case v.Tag == trace.ValRef:
		return name + " != nil"
	case v.Tag == trace.ValString:
		if v.Len == 0 {
			return name + ` == ""`
		}
		return name + ` != ""`
	}
	return ""
}
