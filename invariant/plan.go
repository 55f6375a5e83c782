package invariant

import "github.com/culprit-go/culprit/trace"

// Plans. Deriving a value's parts names each part (p.items[2]) and
// looks the name up among the variables, part after part. A parameter's
// value usually has the shape of its value in the call before (the same
// fields, as many elements), and then its parts have the same names, in
// the same order, and go to the same cells of the row. So the builder
// walks a value without naming its parts (shapeOf) and, when the shape
// is the one it recorded last for that parameter, puts the cells where
// the names went then (plan.slots); otherwise it derives the parts by
// name and records their places. The rows are those of deriving every
// value by name (the tests build them both ways, noPlans).

// noPlans derives every value by name, for the tests.
var noPlans bool

// shape is a value walked without names: the cells of its parts in
// derive's order and what decided that order.
type shape struct {
	toks  []uint64 // per part: how it was walked (tok*), and counts
	names []string // the fields' names, in order
	cells []cell
}

const (
	tokErr uint64 = iota + 1
	tokShallow
	tokPtrFields
	tokPtr
	tokVal
	tokFields
)

func (s *shape) reset() { s.toks, s.names, s.cells = s.toks[:0], s.names[:0], s.cells[:0] }

// walk appends the parts of v as derive visits them.
func (s *shape) walk(v *trace.Value) {
	s.cells = append(s.cells, cellOf(*v))
	if v.Err != nil {
		s.toks = append(s.toks, tokErr)
		s.cells = append(s.cells, cellOf(*v.Err))
		return
	}
	if !v.Deep {
		s.toks = append(s.toks, tokShallow)
		return
	}
	if v.Pointer() {
		p := &v.Elems[0]
		if p.Fields != nil && p.Err == nil {
			s.toks = append(s.toks, tokPtrFields)
			s.fields(p)
			return
		}
		s.toks = append(s.toks, tokPtr)
		s.walk(p)
		return
	}
	n := len(v.Elems)
	last := n > 1 && uint64(n) == v.Uint && v.Tag == trace.ValRef
	t := tokVal | uint64(n)<<8
	if last {
		t |= 1 << 40
	}
	s.toks = append(s.toks, t)
	s.fields(v)
	for i := range v.Elems {
		s.walk(&v.Elems[i])
	}
	if last {
		s.walk(&v.Elems[n-1])
	}
}

// fields appends the fields of the struct v (those derive names).
func (s *shape) fields(v *trace.Value) {
	s.toks = append(s.toks, tokFields|uint64(len(v.Fields))<<8)
	for i := range v.Fields {
		f := &v.Fields[i]
		s.names = append(s.names, f.Name)
		if f.Name == "" || f.Name == "_" {
			continue
		}
		s.walk(&f.Value)
	}
}

// same reports whether s and t were walked alike.
func (s *shape) same(t *shape) bool {
	if len(s.toks) != len(t.toks) || len(s.names) != len(t.names) || len(s.cells) != len(t.cells) {
		return false
	}
	for i := range s.toks {
		if s.toks[i] != t.toks[i] {
			return false
		}
	}
	for i := range s.names {
		if s.names[i] != t.names[i] {
			return false
		}
	}
	return true
}

// plan is where the parts of a value of one shape go in the row: the
// position of each cell of the shape's walk, -1 where derive's name is
// not a variable (left out, or at exit not changed).
type plan struct {
	shape shape
	slots []int
	ok    bool
}

// Kinds of values a builder plans for.
const (
	planArg = iota
	planResult
	planFinal
	planKinds
)

// deriveInto puts the cells of value v, the i-th of its kind, named
// name, into the current row through add (entry, result or final), by
// the plan of the value before when v has its shape.
func (b *rowBuilder) deriveInto(kind, i int, name string, v *trace.Value, add func(string, cell)) {
	if noPlans {
		derive(b.nm, name, *v, add)
		return
	}
	for len(b.plans[kind]) <= i {
		b.plans[kind] = append(b.plans[kind], plan{})
	}
	pl := &b.plans[kind][i]
	s := &b.scratch
	s.reset()
	s.walk(v)
	if pl.ok && s.same(&pl.shape) {
		for k, j := range pl.slots {
			if j >= 0 {
				b.set(j, s.cells[k])
			}
		}
		return
	}
	// Derive by name, recording where each part went.
	pl.ok = false
	pl.slots = pl.slots[:0]
	derive(b.nm, name, *v, func(name string, c cell) {
		b.slot = -1
		add(name, c)
		pl.slots = append(pl.slots, b.slot)
	})
	if len(pl.slots) != len(s.cells) {
		return // not walked alike: no plan (never expected)
	}
	pl.shape.toks = append(pl.shape.toks[:0], s.toks...)
	pl.shape.names = append(pl.shape.names[:0], s.names...)
	pl.shape.cells = append(pl.shape.cells[:0], s.cells...)
	pl.ok = true
}

// forget drops the plans: the variables moved (place) or the builder
// is another's copy (prefix).
func (b *rowBuilder) forget() { b.plans = [planKinds][]plan{} }
