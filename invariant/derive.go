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

// derive calls add with name and the cell of v, then with each part of v
// the trace recorded, named as a Go expression.
func derive(name string, v trace.Value, add func(name string, c cell)) {
	add(name, cellOf(v))
	if v.Err != nil {
		// The message says what the error's fields would, without
		// the standard library's internals (errorString.s).
		add(name+".Error()", cellOf(*v.Err))
		return
	}
	if !v.Deep {
		return
	}
	if p, ok := v.Deref(); ok {
		if p.Fields != nil && p.Err == nil {
			// Go selects fields through the pointer: p.name.
			fields(name, p, add)
			return
		}
		derive("*"+name, p, add)
		return
	}
	fields(name, v, add)
	for i, e := range v.Elems {
		derive(name+"["+strconv.Itoa(i)+"]", e, add)
	}
	if n := len(v.Elems); n > 1 && uint64(n) == v.Uint && v.Tag == trace.ValRef {
		// The last element, when the trace kept them all.
		derive(name+"[len("+name+")-1]", v.Elems[n-1], add)
	}
}

// fields derives the fields of the struct v, under name.f.
func fields(name string, v trace.Value, add func(name string, c cell)) {
	for _, f := range v.Fields {
		if f.Name == "" || f.Name == "_" {
			continue
		}
		derive(name+"."+f.Name, f.Value, add)
	}
}

// derived returns the variables of one value by name, for evaluating
// expressions over a call (check).
func derived(name string, v trace.Value, into map[string]cell) {
	derive(name, v, func(n string, c cell) {
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
