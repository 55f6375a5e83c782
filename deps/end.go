package deps

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// end closes the frame's current instance: it creates the nodes of what
// the unit defined, with their data and control dependencies, and
// returns them.
func (b *builder) end(fr *frame) []int {
	in := fr.cur
	if in == nil {
		return nil
	}
	fr.cur = nil
	u := in.u
	f := u.fn.file
	b.seq++
	ctrl := b.control(fr, u)
	fr.units[u.id].exec = b.seq
	var ids []int
	def := func(name string, pos token.Pos, from []int) int {
		id := b.fresh(name, f, pos, u.fn)
		b.g.Nodes[id].Count++
		for _, s := range from {
			b.edge(s, id, Data)
		}
		for _, s := range in.extra {
			b.edge(s, id, Data)
		}
		b.edge(ctrl, id, Control)
		for _, op := range in.opNodes {
			b.edge(op.id, id, Control)
		}
		for _, nv := range in.values {
			if nv.name == name {
				b.value(id, nv.v)
			}
		}
		ids = append(ids, id)
		return id
	}
	all := func() []int { return b.reads(fr, u.node, u.lhs, in) }
	switch u.kind {
	case UnitCond, UnitSelect:
		from := []int(nil)
		if u.kind == UnitCond {
			if cc, isCase := u.node.(*ast.CaseClause); isCase {
				// A clause's tests, not its body.
				for _, x := range cc.List {
					from = append(from, b.reads(fr, x, nil, in)...)
				}
				if fr.tag >= 0 {
					from = append(from, fr.tag)
				}
			} else {
				from = all()
			}
		}
		fr.units[u.id].dec = def("<test>", u.pos, from)
	case UnitTag:
		var from []int
		if as, ok := u.node.(*ast.AssignStmt); ok {
			from = b.reads(fr, as.Rhs[0], nil, in)
		} else {
			from = all()
		}
		id := def("<switch>", u.pos, from)
		fr.tag = id
		for _, l := range u.lhs {
			if r := rootName(l); r != "" {
				b.define(fr, f.key(rootIdent(l)), def(r, l.Pos(), []int{id}), true)
			}
		}
	case UnitRange:
		rs := u.node.(*ast.RangeStmt)
		from, ok := fr.ranged[u.id]
		if !ok || in.stepped || !hasCall(rs.X) {
			// A range expression with a call is evaluated once, as the
			// loop starts (its step): later iterations depend on that.
			from = b.reads(fr, rs.X, nil, in)
			if hasCall(rs.X) {
				if fr.ranged == nil {
					fr.ranged = map[int][]int{}
				}
				fr.ranged[u.id] = from
			}
		}
		// Whether the loop goes on, and the index, depend on the
		// length of a slice or array ranged over, not on what its
		// elements were written.
		hdr := from
		if _, plain := ast.Unparen(rs.X).(*ast.Ident); plain {
			hdr = nil
			for _, d := range from {
				if !b.elemOnly[d] {
					hdr = append(hdr, d)
				}
			}
		}
		fr.units[u.id].dec = def("<test>", u.pos, hdr)
		if in.yield == nil {
			for _, l := range u.lhs {
				base := from
				if l == rs.Key {
					base = hdr
				}
				b.assign(fr, in, u, []ast.Expr{l}, nil, append([]int{}, base...), def)
			}
			break
		}
		// A range over a function: the key and value are what the
		// iterator passed to yield, its first and second arguments.
		for k, l := range u.lhs {
			var arg []int
			if k < len(in.yield) {
				arg = in.yield[k]
			}
			b.assign(fr, in, u, []ast.Expr{l}, nil, append([]int{}, arg...), def)
		}
	case UnitReturn:
		rs := u.node.(*ast.ReturnStmt)
		var from []int
		if rs.Results == nil {
			for _, r := range u.fn.results {
				if r != "" {
					for d := range b.lookup(fr, u.fn.paramKey(r)) {
						from = append(from, d)
					}
				}
			}
			sort.Ints(from)
		} else {
			from = all()
		}
		fr.ret = def(u.fn.returnName(), u.pos, from)
	case UnitSimple:
		switch s := u.node.(type) {
		case *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt:
			b.assign(fr, in, u, u.lhs, u.rhs, nil, def)
		case *ast.ExprStmt:
			id := def(exprName(f, s.X), u.pos, all())
			if in.check {
				b.g.Failure, b.g.FailureKind = []int{id}, FailureCheck
				b.checks[id] = true
			}
			if dst := copyDest(s.X); dst != nil {
				// copy(dst, src) writes dst's elements: a later read of
				// dst sees them, with what it saw before.
				b.define(fr, f.key(dst), id, false)
				b.elemOnly[id] = true
			}
		case *ast.SendStmt:
			def("<send>", u.pos, all())
		case *ast.GoStmt:
			def("<go "+callName(f, s.Call)+">", u.pos, all())
		case *ast.DeferStmt:
			def("<defer "+callName(f, s.Call)+">", u.pos, all())
		default:
			def("<stmt>", u.pos, all())
		}
	}
	b.callWrites(fr, in, u, ids, def)
	if in.inTest && len(ids) > 0 {
		b.lastIn = ids[0]
	}
	if len(ids) > 0 && u.kind == UnitSimple {
		b.sinks(u, ids[0])
	}
	b.release(in)
	return ids
}

// control returns the node of the decision that made u run in fr: the
// latest execution among its static controllers, -1 when none.
func (b *builder) control(fr *frame, u *unit) int {
	ctrl := -1
	best := -1
	for _, c := range u.ctrl {
		if s := fr.units[c].exec; s > 0 && s > best {
			best, ctrl = s, fr.units[c].dec
		}
	}
	if ctrl < 0 && len(u.ctrl) == 1 && u.dom {
		// The one controller must have run (a condition that recorded
		// nothing): its static node.
		cu := u.fn.units[u.ctrl[0]]
		ctrl = b.node(decisionName(cu), u.fn.file, cu.pos, u.fn)
	}
	return ctrl
}

// assign defines each assigned operand of u: from its own value when
// rhs pairs them, else from everything the unit read (or from base).
func (b *builder) assign(fr *frame, in *instance, u *unit, lhs, rhs []ast.Expr, base []int, def func(string, token.Pos, []int) int) {
	f := u.fn.file
	type pending struct {
		root   string
		id     int
		strong bool
		elems  map[string]int // execution-level graphs: the element definitions it leaves
		elem   string         // or the one element or field it defines
		lhs    ast.Expr
		rhs    ast.Expr   // its value, when paired
		rec    *appendRec // summary graphs: what append left in its elements
	}
	var defs []pending
	var whole []int
	elemsOf := make([]map[string]int, len(lhs))
	if rhs == nil && base == nil {
		whole = b.reads(fr, u.node, lhs, in)
	}
	for i, l := range lhs {
		if rootName(l) == "" {
			continue
		}
		root := f.key(rootIdent(l))
		from := base
		switch {
		case rhs != nil && b.ver != nil && appendsTo(l, rhs[i]):
			fr2, es, ok := b.appended(fr, in, u, l, rhs[i], def)
			if !ok {
				from = b.reads(fr, rhs[i], nil, in)
				break
			}
			from, elemsOf[i] = fr2, es
		case rhs != nil && b.ver != nil && copiesVar(l, rhs[i]):
			// q := p: q's parts are p's (elems.go).
			from = b.reads(fr, rhs[i], nil, in)
			p := ast.Unparen(rhs[i]).(*ast.Ident)
			elemsOf[i] = renamedParts(b.ver.elems[b.scope(fr, f.key(p))], p.Name, rootName(l))
		case rhs != nil:
			from = b.reads(fr, rhs[i], nil, in)
			if _, plain := ast.Unparen(l).(*ast.Ident); !plain {
				from = append(from, b.reads(fr, l, []ast.Expr{l}, in)...)
			}
		case base == nil:
			from = whole
		}
		if u.opAss {
			for d := range b.lookup(fr, root) {
				from = append(from, d)
			}
			sort.Ints(from)
		}
		_, plain := ast.Unparen(l).(*ast.Ident)
		name := f.text(l)
		var elems map[string]int
		var elem string
		if b.ver != nil {
			elems = elemsOf[i]
			if en, coll, ok := b.elemDef(f, l, in); ok {
				name, elem = en, coll
			} else if en := b.elemLabel(f, l, in); en != "" {
				// The index was not read where the trace says (an
				// expression): the write's location names the element.
				name, elem = en, rootName(l)
			}
		}
		if b.ver == nil && !plain {
			if en := b.elemLabel(f, l, in); en != "" {
				name = en
			}
		}
		id := def(name, l.Pos(), from)
		if elem != "" {
			b.g.Nodes[id].Elem = elem
		}
		if _, ix := ast.Unparen(l).(*ast.IndexExpr); ix && in.wloc != nil && in.wloc[l.Pos()].Kind == trace.LocElem {
			b.elemOnly[id] = true
		}
		var r ast.Expr
		var rec *appendRec
		if rhs != nil {
			r = rhs[i]
			if c := appendCall(r); c != nil && b.ver == nil && plain {
				rec = b.appendedElems(fr, in, u, l, c, def)
			}
		}
		defs = append(defs, pending{root, id, plain, elems, name, l, r, rec})
	}
	// Definitions take effect after every read of the statement: a swap
	// (a[i], a[j] = a[j], a[i]) reads both elements before either write.
	for _, d := range defs {
		b.written(fr, in, d.lhs, d.rhs, d.root, d.id)
	}
	for _, d := range defs {
		b.define(fr, d.root, d.id, d.strong)
		if d.rec != nil {
			if b.appends == nil {
				b.appends = map[varKey]*appendRec{}
			}
			b.appends[varKeyOf(fr, d.root)] = d.rec
		}
		if b.ver == nil {
			continue
		}
		sc := b.scope(fr, d.root)
		if d.elems != nil {
			b.ver.elems[sc] = d.elems
		} else if !d.strong {
			if b.ver.elems[sc] == nil {
				b.ver.elems[sc] = map[string]int{}
			}
			b.ver.elems[sc][d.elem] = d.id
		}
	}
}

// decisionName is the pseudo-variable of a decision unit.
func decisionName(u *unit) string {
	if u.kind == UnitTag {
		return "<switch>"
	}
	return "<test>"
}

// exprName names what an expression statement does: "<t.Errorf()>".
func exprName(f *file, e ast.Expr) string {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		return "<" + callName(f, c) + ">"
	}
	return "<expr>"
}

// copyDest returns the variable a call of the builtin copy writes into
// (dst of copy(dst, src), copy(dst[i:], src), copy(p.buf, src)), nil
// when e is no such call.
func copyDest(e ast.Expr) *ast.Ident {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 2 {
		return nil
	}
	if fn, ok := c.Fun.(*ast.Ident); !ok || fn.Name != "copy" || fn.Obj != nil {
		return nil
	}
	dst := ast.Unparen(c.Args[0])
	if sl, ok := dst.(*ast.SliceExpr); ok {
		dst = sl.X
	}
	return rootIdent(dst)
}

func callName(f *file, c *ast.CallExpr) string {
	name := f.text(c.Fun)
	if strings.ContainsAny(name, " \n\t") || len(name) > 40 {
		name = "func"
	}
	return name + "()"
}
