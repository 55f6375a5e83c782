package deps

import (
	"path/filepath"
	"slices"
)

// Variables are resolved once per function and key, not at every read:
// the replay looks a variable up at each read and definition, and the
// answer depends on the program alone.

// scopeOf says where the variable of a key lives as seen from a
// function: hops enclosing functions up (0: the function itself; -1:
// none of them), and the package-level variable of that name it would
// be otherwise, under global ("" when there is none).
type scopeOf struct {
	hops   int
	global string // directory + "\x00" + name
}

// scopeOf returns where the variable of key k lives as seen from fn.
func (fn *function) scopeOf(k string) scopeOf {
	if s, ok := fn.scopes[k]; ok {
		return s
	}
	s := scopeOf{hops: -1}
	for g, h := fn, 0; g != nil; g, h = g.parent, h+1 {
		if g.owns(k) {
			s.hops = h
			break
		}
	}
	if name, p := splitKey(k); !p.IsValid() && fn.file.globals[name] {
		s.global = filepath.Dir(fn.file.path) + "\x00" + name
	}
	if fn.scopes == nil {
		fn.scopes = map[string]scopeOf{}
	}
	fn.scopes[k] = s
	return s
}

// holder returns the frame holding the variable of key k as seen from
// fr (nil for a package-level variable, or a local whose frame is gone:
// then sc.global says whether a package-level variable answers).
func (fr *frame) holder(k string) (f *frame, sc scopeOf) {
	s := fr.fn.scopeOf(k)
	return fr.holderIn(s), s
}

// holderIn returns the frame holding the variable whose scope, as seen
// from fr's function, is s (nil: see holder).
func (fr *frame) holderIn(s scopeOf) *frame {
	if s.hops < 0 {
		return nil
	}
	f := fr
	for i := 0; i < s.hops && f != nil; i++ {
		f = f.lex
	}
	return f
}

// returnName is the name of fn's return-value node.
func (fn *function) returnName() string {
	if fn.retName == "" {
		fn.retName = "<" + fn.name + "() return value>"
	}
	return fn.retName
}

// effectsName is the name of fn's effects node.
func (fn *function) effectsName() string {
	if fn.effName == "" {
		fn.effName = "<" + fn.name + "() writes>"
	}
	return fn.effName
}

// params returns paramNames of a function site's info, once per site.
func (p *program) params(site int) []string {
	if p.paramNames == nil {
		p.paramNames = make([][]string, len(p.sites))
	}
	if p.paramNames[site] == nil {
		ns := paramNames(p.sites[site].Info)
		if ns == nil {
			ns = []string{} // known: none
		}
		p.paramNames[site] = ns
	}
	return p.paramNames[site]
}

// unitRun is what a frame knows of a unit's latest execution in it.
type unitRun struct {
	exec int // its sequence number (builder.seq), 0: none yet
	dec  int // a decision's node
}

// defSet is a set of definitions (node IDs) in increasing order: what a
// variable or a storage location holds. Its one holder owns its array
// (no two share one), so it grows and is emptied in place. Most hold
// one definition: a slice is read without a map's iteration or a sort,
// and takes no allocation when emptied and set again.
type defSet []int

// has reports whether id is in s.
func (s defSet) has(id int) bool {
	_, ok := slices.BinarySearch(s, id)
	return ok
}

// with returns s with id added, in s's array when it has room.
func (s defSet) with(id int) defSet {
	if n := len(s); n == 0 || s[n-1] < id {
		return append(s, id) // the usual case: a node newer than all
	}
	i, ok := slices.BinarySearch(s, id)
	if ok {
		return s
	}
	return slices.Insert(s, i, id)
}

// without returns s less the definitions of drop (sorted), in place.
func (s defSet) without(drop []int) defSet {
	return slices.DeleteFunc(s, func(d int) bool {
		_, ok := slices.BinarySearch(drop, d)
		return ok
	})
}

// only returns the set {id} ({} for id -1) in old's array: its holder
// sets it anew.
func only(old defSet, id int) defSet {
	if id < 0 {
		if old == nil {
			return defSet{}
		}
		return old[:0]
	}
	return append(old[:0], id)
}
