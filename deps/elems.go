package deps

import (
	"go/ast"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Copies that keep their parts apart (issue 18, item 3): after
// "ys := append(xs, c)" an element of ys read is the element of xs it
// was copied from, or c, not all of them; after "q := p" of a struct (or
// array) a field of q read is the field of p it was copied from.
//
// In the summary graph, storage is known by address. A struct copied
// takes the fields written through p (single-level operands, "p.x",
// "p[2]", at p's address or after it) to the same offsets from q's
// address; what q's fields were written before is gone. An append that
// moves the elements to a new array leaves addresses the memory does not
// know: the variable it defines keeps, per index (the first maxElems),
// the definitions of the element: those the elements of xs had (their
// storage known from earlier element writes through xs), or the node of
// the appended argument ("ys[2]"). Any later definition of the variable
// (an element write, a possible write by a call) forgets them.
//
// In the execution-level graph, parts are named: q's fields and ys's
// elements are p's and xs's renamed.

// varKey names a variable's storage as define resolves it: its frame
// (nil for package-level variables) and key.
type varKey struct {
	fr  *frame
	key string
}

// varKeyOf returns the variable of key k as seen from fr.
func varKeyOf(fr *frame, k string) varKey {
	f, sc := fr.holder(k)
	switch {
	case f != nil:
		return varKey{f, k}
	case sc.global != "":
		return varKey{nil, sc.global}
	}
	return varKey{fr, k}
}

// appendRec is what the elements of a slice variable defined by append
// hold, by index: the definitions of each (nil: not known).
type appendRec struct {
	elems [][]int
}

// elemBase is where a variable's elements were last seen stored: the
// address of element 0 and the size of one (0: not known).
type elemBase struct {
	base, size uint64
}

// sawElems notes the storage of an element written through the
// variable of key k.
func (b *summary) sawElems(fr *frame, k string, loc loc) {
	if loc.Kind != trace.LocElem || loc.Base == 0 {
		return
	}
	v := varKeyOf(fr, k)
	eb := b.bases[v]
	if eb.base != loc.Base {
		eb = elemBase{base: loc.Base}
	}
	if loc.Index > 0 && loc.Addr > loc.Base {
		eb.size = (loc.Addr - loc.Base) / uint64(loc.Index)
	}
	if b.bases == nil {
		b.bases = map[varKey]elemBase{}
	}
	b.bases[v] = eb
}

// appendCall returns the call of the builtin append rhs is, without
// "...", with something to append; nil otherwise.
func appendCall(rhs ast.Expr) *ast.CallExpr {
	c, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || c.Ellipsis.IsValid() || len(c.Args) < 2 {
		return nil
	}
	if fn, ok := c.Fun.(*ast.Ident); !ok || fn.Name != "append" || fn.Obj != nil {
		return nil
	}
	return c
}

// appendedElems makes, for "ys = append(xs, a, b)" (the summary graph),
// a node per appended argument whose index the site may name ("ys[2]"),
// depending on what the argument reads, and returns what each element of
// ys holds after it; nil when the new length is not known.
func (b *summary) appendedElems(fr *frame, in *instance, u *unit, l ast.Expr, c *ast.CallExpr, def func(string, token.Pos, []int) int) *appendRec {
	f := u.fn.file
	last, ok := in.lastValue(f.text(l))
	if !ok || last.Tag != trace.ValRef {
		return nil
	}
	added := len(c.Args) - 1
	n := int(last.Uint) - added // the elements copied
	if n < 0 {
		return nil
	}
	rec := &appendRec{elems: make([][]int, min(n+added, maxElems))}
	// The elements copied: as xs's record says, else from their storage.
	if x, ok := ast.Unparen(c.Args[0]).(*ast.Ident); ok && x.Name != "_" {
		k := f.key(x)
		v := varKeyOf(fr, k)
		if prev := b.appends[v]; prev != nil {
			copy(rec.elems[:min(n, len(rec.elems))], prev.elems)
		} else if eb, ok := b.bases[v]; ok {
			own := b.lookup(fr, k)
			for i := 0; i < min(n, len(rec.elems)); i++ {
				if i > 0 && eb.size == 0 {
					break
				}
				if defs := b.mem[memKey{addr: eb.base + uint64(i)*eb.size}]; len(defs) > 0 {
					rec.elems[i] = slices.Clone(defs)
					continue
				}
				// Never written by instrumented code: the element is
				// what xs was made with.
				var made []int
				for d := range own {
					if !b.located[d] {
						made = append(made, d)
					}
				}
				sort.Ints(made)
				if len(made) > 0 {
					rec.elems[i] = made
				}
			}
		}
	}
	for j, a := range c.Args[1:] {
		i := n + j
		if i >= len(rec.elems) {
			break
		}
		name := f.text(l) + "[" + strconv.Itoa(i) + "]"
		if !b.mayName(l.Pos(), name) {
			continue
		}
		rec.elems[i] = []int{def(name, a.Pos(), b.reads(fr, a, nil, in))}
	}
	return rec
}

// mayName reports whether the site at pos may name one more element
// (at most maxElems, the names already made included).
func (b *builder) mayName(pos token.Pos, name string) bool {
	seen := b.elemN[pos]
	if seen == nil {
		seen = map[string]bool{}
		b.elemN[pos] = seen
	}
	if !seen[name] {
		if len(seen) >= maxElems {
			return false
		}
		seen[name] = true
	}
	return true
}

// appendedElem returns what element i of the variable of key k holds
// when append defined the variable last and knew it; nil otherwise.
func (b *summary) appendedElem(fr *frame, k string, i int64) []int {
	rec := b.appends[varKeyOf(fr, k)]
	if rec == nil || i < 0 || i >= int64(len(rec.elems)) {
		return nil
	}
	return rec.elems[i]
}

// forget drops what a record of the variable of key k knows of its
// elements: the variable was defined again.
func (b *summary) forget(fr *frame, k string) {
	if len(b.appends) > 0 {
		delete(b.appends, varKeyOf(fr, k))
	}
}

// copiedFields gives q, assigned the struct or array p ("q = p", the
// summary graph), the field and element definitions written through p:
// each at the same offset from q's address as from p's. What was written
// through q's fields before is forgotten. oldQ is the storage written
// through q before the assignment.
func (b *builder) copiedFields(fr *frame, in *instance, q, p *ast.Ident, oldQ map[memKey]bool) {
	if in.rloc == nil || in.wloc == nil || q.Name == p.Name {
		return
	}
	if _, isRef := in.refs[p.Pos()]; isRef {
		return // a pointer, slice or map: the parts are shared, not copied
	}
	pl, ok := in.rloc[p.Pos()]
	ql, ok2 := in.wloc[q.Pos()]
	if !ok || !ok2 || pl.Kind != trace.LocAddr || ql.Kind != trace.LocAddr || pl.Addr == 0 || ql.Addr == 0 {
		return
	}
	f := fr.fn.file
	qk, pk := f.key(q), f.key(p)
	for k := range oldQ {
		if k.key == "" && k.addr > ql.Addr && k.addr-ql.Addr < maxStruct && b.ownParts(b.mem[k], q.Name) {
			delete(b.mem, k)
		}
	}
	pf := b.owner(fr, pk)
	var src map[memKey]bool
	if pf != nil {
		src = pf.wmem[pk]
	} else if b.gmem != nil {
		src = b.gmem[pk]
	}
	dst := b.storage(varRef{b.owner(fr, qk), qk}, false)
	for k := range src {
		if k.key != "" || k.addr < pl.Addr || k.addr-pl.Addr >= maxStruct || !b.ownParts(b.mem[k], p.Name) {
			continue
		}
		nk := memKey{addr: ql.Addr + (k.addr - pl.Addr)}
		b.mem[nk] = slices.Clone(b.mem[k])
		dst[nk] = true
	}
}

// maxStruct bounds the offset of a field copied with its struct.
const maxStruct = 1 << 12

// ownParts reports whether defs are all definitions of a field or
// element of the variable named root itself ("p.x", "p[2]"), not of
// something it points to ("p.next.x", "p.s[1]").
func (b *builder) ownParts(defs defSet, root string) bool {
	if len(defs) == 0 {
		return false
	}
	for _, d := range defs {
		rest, ok := strings.CutPrefix(b.g.Nodes[d].Var, root)
		if !ok || rest == "" {
			return false
		}
		switch rest[0] {
		case '.':
			if strings.ContainsAny(rest[1:], ".[(*") {
				return false
			}
		case '[':
			if i := strings.IndexByte(rest, ']'); i != len(rest)-1 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// renamedParts returns the element and field definitions named for the
// variable from ("from[2]", "from.x") as parts of to ("to[2]", "to.x"):
// the execution-level graph's copy of them.
func renamedParts(elems map[string]int, from, to string) map[string]int {
	out := map[string]int{}
	for name, id := range elems {
		if rest, ok := strings.CutPrefix(name, from); ok && rest != "" && (rest[0] == '.' || rest[0] == '[') {
			out[to+rest] = id
		}
	}
	return out
}

// copiesVar reports whether "l = rhs" copies one variable into another.
func copiesVar(l, rhs ast.Expr) bool {
	q, ok := ast.Unparen(l).(*ast.Ident)
	p, ok2 := ast.Unparen(rhs).(*ast.Ident)
	return ok && ok2 && q.Name != "_" && p.Name != q.Name && p.Obj != nil && p.Obj.Kind == ast.Var
}
