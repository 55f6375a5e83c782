package deps

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// lookup returns the definitions a read of the variable of key k (see
// file.key) in fr sees.
func (b *builder) lookup(fr *frame, k string) defSet {
	f, sc := fr.holder(k)
	return b.lookupIn(f, sc, k)
}

// lookupIn is lookup of the variable of key k held by f (nil: none),
// sc as fr.holder said.
func (b *builder) lookupIn(f *frame, sc scopeOf, k string) defSet {
	if f != nil {
		return f.vars[k]
	}
	if sc.global != "" {
		return b.global[sc.global]
	}
	return nil
}

// declaration returns the node of the declaration of the package-level
// variable of key k, as seen from fr, for a read that finds no
// definition of it in the run (it was initialized before the trace
// began, by its declaration or an init function): -1 when k names no
// package-level variable or its declaration is not found.
func (b *builder) declaration(fr *frame, k string) int {
	f, sc := fr.holder(k)
	if f != nil || sc.hops >= 0 || sc.global == "" {
		return -1
	}
	dir, name, _ := strings.Cut(sc.global, "\x00")
	site, ok := b.src.declared[dir][name]
	if !ok {
		return -1
	}
	df := b.src.file(site.path)
	if df == nil {
		return -1
	}
	id := b.view.fresh(name, df, df.pos(site.line, site.col), nil)
	if b.g.Nodes[id].Count == 0 {
		b.g.Nodes[id].Count = 1
	}
	return id
}

// define records a definition of the operand named by root.
func (b *builder) define(fr *frame, root string, id int, strong bool) {
	m, key := fr.vars, root
	f, sc := fr.holder(root)
	if pf := f; strong && (pf != nil || fr.potential != nil) {
		if pf == nil {
			pf = fr
		}
		delete(pf.potential, root)
	}
	if f != nil {
		m = f.vars
	} else if sc.global != "" {
		m, key = b.global, sc.global
	}
	replaced := strong || m[key] == nil
	if replaced {
		m[key] = only(m[key], -1)
	}
	b.view.defining(fr, root, replaced)
	m[key] = m[key].with(id)
	if !replaced {
		m[key] = b.bound(fr, root, m[key], id)
	}
}

// maxReaching bounds the definitions a variable or a storage location
// holds at once, as a later read sees them all: writes through a
// variable's elements or fields, or calls that may have written what it
// points to, add to what it holds without replacing it. A summary
// graph's node per site bounds them; an execution-level graph's node per
// definition does not, and a loop writing n elements would make every
// read of the variable in it depend on each of the writes before: n*n
// edges.
const maxReaching = 32

// bound lets the view join the definitions defs (of the variable of key
// root, or of storage written through it; last the latest) when there
// are more than maxReaching, and returns what they are then.
func (b *builder) bound(fr *frame, root string, defs defSet, last int) defSet {
	if len(defs) > maxReaching {
		return b.view.join(fr, root, defs, last)
	}
	return defs
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
		p, copies := ast.Unparen(rhs).(*ast.Ident)
		copies = copies && b.view.copiesInStorage()
		if copies || len(old) > 32 {
			b.storage(ref, true)[k] = true
		} else {
			// Emptied in place: no one else holds it.
			clear(old)
			old[k] = true
		}
		b.mem[k] = only(b.mem[k], id)
		if copies {
			b.copiedFields(fr, in, ast.Unparen(l).(*ast.Ident), p, old)
		}
		return
	}
	if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && ast.Unparen(ix.X) == rootIdent(l) {
		b.view.wroteElem(fr, key, loc)
	}
	b.storage(ref, false)[k] = true
	b.located[id] = true
	b.loggedElem(loc, k, l, id)
	if v, ok := b.vaddr[k.addr]; ok && k.key == "" {
		if _, star := ast.Unparen(l).(*ast.StarExpr); star {
			b.defineIn(v, id)
		}
	}
	if v, ok := b.vaddr[loc.Base]; ok && loc.Kind == trace.LocElem && v != ref {
		// An element of an array variable written through another
		// variable (a slice of it: fill(buf[:]) writing dst[i]): a
		// later read of the array as a whole sees the write.
		b.addDef(v, id)
	}
	b.mem[k] = only(b.mem[k], id)
}

// owner returns the frame holding the variable of key k as seen from
// fr, nil for a package-level variable.
func (b *builder) owner(fr *frame, k string) *frame {
	f, _ := fr.holder(k)
	return f
}

// addDef adds id to what a variable holds, without replacing it: a
// write to one of its elements through another variable.
func (b *builder) addDef(v varRef, id int) {
	if v.fr != nil {
		v.fr.vars[v.key] = v.fr.vars[v.key].with(id)
		b.view.defining(v.fr, v.key, false)
		v.fr.vars[v.key] = b.bound(v.fr, v.key, v.fr.vars[v.key], id)
		return
	}
	for _, k := range b.globalKeys(v.key) {
		b.global[k] = b.global[k].with(id)
	}
}

// globalKeys returns the keys of b.global of the package-level
// variables called name (in any package), found once while no variable
// is added: an array written through slices of it in a loop looks them
// up at each write.
func (b *builder) globalKeys(name string) []string {
	if b.globalsN != len(b.global) {
		b.globalsOf, b.globalsN = nil, len(b.global)
	}
	if keys, ok := b.globalsOf[name]; ok {
		return keys
	}
	var keys []string
	for k := range b.global {
		if strings.HasSuffix(k, "\x00"+name) {
			keys = append(keys, k)
		}
	}
	if b.globalsOf == nil {
		b.globalsOf = map[string][]string{}
	}
	b.globalsOf[name] = keys
	return keys
}

// defineIn makes id the one definition of a variable written through a
// pointer.
func (b *builder) defineIn(v varRef, id int) {
	if v.fr != nil {
		v.fr.vars[v.key] = only(v.fr.vars[v.key], id)
		return
	}
	for _, k := range b.globalKeys(v.key) {
		b.global[k] = only(b.global[k], id)
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
		idx = loc.Key
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
