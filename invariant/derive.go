package invariant

import (
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Derived variables: the parts of values recorded deep (trace format 4),
// named as Go expressions over the parameter or result they come from,
// as Daikon derives them: p.name (through pointers and values), *p,
// s[0], err.Error(). len(x) is derived later, for every variable with a
// length.

// maxVars bounds the variables of one function, parameters and results
// first; derived variables past it are left out.
const maxVars = 48

// names caches the names of parts (parent and part to "parent.part"),
// so that deriving the same shapes call after call builds no strings. A
// nil names builds them each time.
type names map[namePart]string

type namePart struct {
	parent, part string
	index        int
}

// of returns the name of a part: parent+part, or parent[index] when part
// is "", or parent[len(parent)-1] when index is -1.
func (n names) of(parent, part string, index int) string {
	k := namePart{parent, part, index}
	if s, ok := n[k]; ok {
		return s
	}
	var s string
	switch {
	case part != "":
		s = parent + part
	case index < 0:
		s = parent + "[len(" + parent + ")-1]"
	default:
		s = parent + "[" + strconv.Itoa(index) + "]"
	}
	if n != nil {
		n[k] = s
	}
	return s
}

// field returns the name of field f of parent, parent.f, without
// building "."+f to look it up.
func (n names) field(parent, f string) string {
	k := namePart{parent, f, -2}
	if s, ok := n[k]; ok {
		return s
	}
	s := parent + "." + f
	if n != nil {
		n[k] = s
	}
	return s
}

// derive calls add with name and the cell of v, then with each part of v
// the trace recorded, named as a Go expression.
func derive(nm names, name string, v trace.Value, add func(name string, c cell)) {
	add(name, cellOf(v))
	if v.Err != nil {
		// The message says what the error's fields would, without
		// the standard library's internals (errorString.s).
		add(nm.of(name, ".Error()", 0), cellOf(*v.Err))
		return
	}
	if !v.Deep {
		return
	}
	if p, ok := v.Deref(); ok {
		if p.Fields != nil && p.Err == nil {
			// Go selects fields through the pointer: p.name.
			fields(nm, name, p, add)
			return
		}
		derive(nm, nm.of("*", name, 0), p, add)
		return
	}
	fields(nm, name, v, add)
	for i, e := range v.Elems {
		derive(nm, nm.of(name, "", i), e, add)
	}
	if n := len(v.Elems); n > 1 && uint64(n) == v.Uint && v.Tag == trace.ValRef {
		// The last element, when the trace kept them all.
		derive(nm, nm.of(name, "", -1), v.Elems[n-1], add)
	}
}

// fields derives the fields of the struct v, under name.f.
func fields(nm names, name string, v trace.Value, add func(name string, c cell)) {
	for _, f := range v.Fields {
		if f.Name == "" || f.Name == "_" {
			continue
		}
		derive(nm, nm.field(name, f.Name), f.Value, add)
	}
}

// derived returns the variables of one value by name, for evaluating
// expressions over a call (check).
func derived(name string, v trace.Value, into map[string]cell) {
	derive(nil, name, v, func(n string, c cell) {
		if _, dup := into[n]; !dup {
			into[n] = c
		}
	})
}

// isOld reports whether name is old(x), and returns x.
func isOld(name string) (string, bool) {
	if strings.HasPrefix(name, "old(") && strings.HasSuffix(name, ")") {
		return name[len("old(") : len(name)-1], true
	}
	return "", false
}
