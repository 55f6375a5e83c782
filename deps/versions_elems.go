package deps

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// The versioned view's elements, appends and composite literals: which
// node an element read sees, and how a definition of a collection or a
// struct keeps its parts apart.

// elemRead returns the node an element read x (named name, of collection
// coll) sees: the element's latest definition when instrumented code wrote
// it, else an input node for the element of the collection's current
// version, depending on that version and on the index.
func (b *versioned) elemRead(fr *frame, x *ast.IndexExpr, name, coll string, in *instance) int {
	ck := fr.fn.file.key(rootIdent(x.X))
	if id, ok := b.elems[b.scope(fr, ck)][name]; ok {
		return id
	}
	var base []int
	for _, d := range b.lookup(fr, ck) {
		base = append(base, d)
	}
	sort.Ints(base)
	key := fmt.Sprint(name, base)
	if id, ok := b.inputs[key]; ok {
		return id
	}
	f := fr.fn.file
	id := b.fresh(name, f, x.Pos(), fr.fn)
	n := b.g.Nodes[id]
	n.Elem, n.Input = coll, true
	n.Count++
	b.inputs[key] = id
	for _, d := range base {
		b.edge(d, id, Data)
	}
	if in != nil {
		if v, ok := in.read.get(x.Pos()); ok && !b.collValue(v, base) {
			b.value(id, v)
		}
	}
	return id
}

// collValue reports whether a value read where an element read starts is
// the collection's own (a read of xs in xs[i] stands at the same
// position): a reference of the type one of the collection's versions
// held.
func (b *versioned) collValue(v trace.Value, coll []int) bool {
	if v.Tag != trace.ValRef {
		return false
	}
	for _, c := range coll {
		for _, s := range b.g.Nodes[c].Values {
			if strings.HasPrefix(s, v.Type+"(") {
				return true
			}
		}
	}
	return false
}

// elemDef names what an assigned operand defines in an execution-level
// graph: "xs[3]" for an element with a known index, "p.name" for a
// field; its collection or object; ok false for a whole variable.
func (b *versioned) elemDef(f *file, l ast.Expr, in *instance) (name, coll string, ok bool) {
	switch x := ast.Unparen(l).(type) {
	case *ast.IndexExpr:
		return b.elemName(f, x, in)
	case *ast.SelectorExpr:
		if root, ok := ast.Unparen(x.X).(*ast.Ident); ok {
			return f.text(x), root.Name, true
		}
	}
	return "", "", false
}

// appendsTo reports whether rhs defines elements of an identifier l:
// "append(l, ...)", or a composite literal (appended defines them).
func appendsTo(l, rhs ast.Expr) bool {
	if _, isIdent := ast.Unparen(l).(*ast.Ident); isIdent && compositeOf(rhs) != nil {
		return true
	}
	c, isCall := ast.Unparen(rhs).(*ast.CallExpr)
	id, isIdent := ast.Unparen(l).(*ast.Ident)
	if !isCall || !isIdent || c.Ellipsis.IsValid() || len(c.Args) < 2 {
		return false
	}
	fn, ok := c.Fun.(*ast.Ident)
	_, ok2 := ast.Unparen(c.Args[0]).(*ast.Ident)
	return ok && ok2 && fn.Name == "append" && id.Name != "_"
}

// appended returns, for "v = append(w, a, b)" with the new length known
// from the write, the element nodes it defines ("v[3]", "v[4]"), each
// depending on its argument, w's elements as v's ("w[0]" as "v[0]"), and
// the rest of what the call reads.
//
// For "v := T{a, b}" (or &T{...}) it defines instead the elements and
// fields the literal names (composite).
func (b *versioned) appended(fr *frame, in *instance, u *unit, lhs ast.Expr, rhs ast.Expr, def func(string, token.Pos, []int) int) (from []int, elems map[string]int, ok bool) {
	if lit := compositeOf(rhs); lit != nil {
		return b.composite(fr, in, lhs, lit, def)
	}
	c, isCall := ast.Unparen(rhs).(*ast.CallExpr)
	id, isIdent := ast.Unparen(lhs).(*ast.Ident)
	if !isCall || !isIdent || c.Ellipsis.IsValid() || len(c.Args) < 2 {
		return nil, nil, false
	}
	if fn, ok := c.Fun.(*ast.Ident); !ok || fn.Name != "append" {
		return nil, nil, false
	}
	first, ok := ast.Unparen(c.Args[0]).(*ast.Ident)
	if !ok {
		return nil, nil, false
	}
	f := u.fn.file
	last, ok := in.lastValue(f.text(lhs))
	if !ok || last.Tag != trace.ValRef {
		return nil, nil, false
	}
	n := int(last.Uint)
	added := len(c.Args) - 1
	// The elements copied keep their names, renamed when appended from
	// another variable (ys := append(xs, v): ys[0] is xs[0]). Appended
	// to itself (v = append(v, a)), v keeps the very names it held: no
	// copy (a loop of n appends copying them was n*n work).
	if sc := b.scope(fr, f.key(first)); f.key(first) == f.key(id) {
		if elems = b.elems[sc]; elems == nil {
			elems = map[string]int{}
		}
	} else {
		elems = renamedParts(b.elems[sc], first.Name, id.Name)
	}
	for _, d := range b.lookup(fr, f.key(first)) {
		from = append(from, d)
	}
	sort.Ints(from)
	for j, a := range c.Args[1:] {
		name := fmt.Sprintf("%s[%d]", id.Name, n-added+j)
		e := def(name, a.Pos(), b.reads(fr, a, nil, in))
		b.g.Nodes[e].Elem = id.Name
		elems[name] = e
		from = append(from, e)
	}
	return from, elems, true
}

// compositeOf returns the composite literal e is, or takes the address
// of; nil when it is neither.
func compositeOf(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// composite defines, for "v := T{...}", an element or field node per part
// of the literal it can name: "v[0]", "v[2]" (in order or by a constant
// key) for arrays and slices, v["k"] for maps with constant keys, "v.X"
// for struct fields, keyed or in the order of a struct type declared in
// the same file. Each depends on what its part reads; v on them and on
// the parts it cannot name. The literal's old elements are gone.
func (b *versioned) composite(fr *frame, in *instance, lhs ast.Expr, lit *ast.CompositeLit, def func(string, token.Pos, []int) int) (from []int, elems map[string]int, ok bool) {
	v, isIdent := ast.Unparen(lhs).(*ast.Ident)
	if !isIdent {
		return nil, nil, false
	}
	typ := underlying(lit.Type)
	elems = map[string]int{}
	next := 0
	for i, e := range lit.Elts {
		part := e
		var name string
		kv, keyed := e.(*ast.KeyValueExpr)
		if keyed {
			part = kv.Value
		}
		switch t := typ.(type) {
		case *ast.ArrayType:
			if keyed {
				k, isLit := ast.Unparen(kv.Key).(*ast.BasicLit)
				n, err := strconv.Atoi(litValue(k, isLit))
				if err != nil {
					next = -1 // a key that is not a constant: positions unknown
					break
				}
				next = n
			}
			if next >= 0 {
				name = fmt.Sprintf("%s[%d]", v.Name, next)
				next++
			}
		case *ast.MapType:
			if !keyed {
				break
			}
			if k, isLit := ast.Unparen(kv.Key).(*ast.BasicLit); isLit {
				name = v.Name + "[" + k.Value + "]"
			}
		case *ast.StructType:
			if !keyed {
				if fields := fieldNames(t); i < len(fields) {
					name = v.Name + "." + fields[i]
				}
			} else if k, isID := kv.Key.(*ast.Ident); isID {
				name = v.Name + "." + k.Name
			}
		}
		if name == "" || name == v.Name+"._" {
			from = append(from, b.reads(fr, e, nil, in)...)
			continue
		}
		id := def(name, part.Pos(), b.reads(fr, part, nil, in))
		b.g.Nodes[id].Elem = v.Name
		elems[name] = id
		from = append(from, id)
	}
	if len(elems) == 0 {
		return nil, nil, false
	}
	return from, elems, true
}

// litValue is a literal's text, "" for none.
func litValue(l *ast.BasicLit, ok bool) string {
	if !ok || l.Kind != token.INT {
		return ""
	}
	return l.Value
}

// underlying returns the type expression a composite literal's type
// stands for: the literal's own (an array, slice, map or struct type),
// or the declaration of a type name declared in the same file.
func underlying(t ast.Expr) ast.Expr {
	for i := 0; i < 8; i++ {
		id, ok := ast.Unparen(t).(*ast.Ident)
		if !ok {
			return t
		}
		if id.Obj == nil || id.Obj.Kind != ast.Typ {
			return nil
		}
		ts, ok := id.Obj.Decl.(*ast.TypeSpec)
		if !ok {
			return nil
		}
		t = ts.Type
	}
	return nil
}

// fieldNames lists a struct type's fields in order, embedded ones by
// their type's name.
func fieldNames(t *ast.StructType) []string {
	var out []string
	for _, fl := range t.Fields.List {
		if len(fl.Names) == 0 {
			typ := fl.Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			switch x := typ.(type) {
			case *ast.Ident:
				out = append(out, x.Name)
			case *ast.SelectorExpr:
				out = append(out, x.Sel.Name)
			default:
				out = append(out, "_")
			}
			continue
		}
		for _, n := range fl.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// compositeName names a composite literal by its parts when each is a
// name (a variable, a field or a package's variable): "[x, y, z]" for
// arrays and slices, "Point{x, y}", "{"a": x}" for maps; false when a
// part is not a name or the name is long.
func compositeName(f *file, lit *ast.CompositeLit) (string, bool) {
	if len(lit.Elts) == 0 {
		return "", false
	}
	var parts []string
	for _, e := range lit.Elts {
		val := e
		prefix := ""
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			val = kv.Value
			prefix = f.text(kv.Key) + ": "
		}
		if !isName(val) {
			return "", false
		}
		parts = append(parts, prefix+f.text(val))
	}
	body := strings.Join(parts, ", ")
	var label string
	switch lit.Type.(type) {
	case *ast.ArrayType:
		label = "[" + body + "]"
	case *ast.MapType, nil:
		label = "{" + body + "}"
	default:
		label = f.text(lit.Type) + "{" + body + "}"
	}
	if len(label) > 60 || strings.ContainsAny(label, "\n\t") {
		return "", false
	}
	return label, true
}

// isName reports whether e is a variable, field or package variable:
// an identifier or a selector of one.
func isName(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x.Name != "_" && x.Name != "nil" && x.Name != "true" && x.Name != "false"
	case *ast.SelectorExpr:
		return isName(x.X)
	}
	return false
}

// namedElem returns the element or field definition a composite literal
// (or a write by name) left for the element or field read e names.
func (b *versioned) namedElem(fr *frame, e ast.Expr, in *instance) (int, bool) {
	f := fr.fn.file
	var name string
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if _, ok := ast.Unparen(x.X).(*ast.Ident); !ok {
			return 0, false
		}
		name = f.text(x)
	case *ast.IndexExpr:
		n, _, ok := b.elemName(f, x, in)
		if !ok {
			return 0, false
		}
		name = n
	default:
		return 0, false
	}
	root := rootIdent(e)
	if root == nil {
		return 0, false
	}
	id, ok := b.elems[b.scope(fr, f.key(root))][name]
	return id, ok
}

// wholeVar reports whether the definitions ids a read e found by its
// storage are all of e's root variable as a whole.
func wholeVar(g *Graph, ids []int, e ast.Expr) bool {
	root := rootIdent(e)
	if root == nil {
		return false
	}
	for _, id := range ids {
		if n := g.Nodes[id]; n.Elem != "" || n.Var != root.Name {
			return false
		}
	}
	return true
}
