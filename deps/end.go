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
	if n := len(b.ends); n < cap(b.ends) {
		// The slot's ids keep their array: end's result is read before
		// the next instance ends at this depth.
		b.ends = b.ends[:n+1]
		b.ends[n] = ending{u: u, in: in, ctrl: ctrl, ids: b.ends[n].ids[:0]}
	} else {
		b.ends = append(b.ends, ending{u: u, in: in, ctrl: ctrl})
	}
	def := b.def
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
			from = b.namedResults(fr, u.fn, nil)
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
	b.callWrites(fr, in, u, b.ends[len(b.ends)-1].ids, def)
	ids := b.ends[len(b.ends)-1].ids
	b.ends = b.ends[:len(b.ends)-1]
	if in.inTest && len(ids) > 0 {
		b.lastIn = ids[0]
	}
	if len(ids) > 0 && u.kind == UnitSimple {
		b.sinks(u, ids[0])
	}
	b.release(in)
	return ids
}

// ending is an instance end is closing: what its definitions depend on,
// and the nodes they made.
type ending struct {
	u    *unit
	in   *instance
	ctrl int
	ids  []int
}

// defNode is def of the instance being ended (builder.def, made once: a
// closure made per statement run was two allocations on the hot path):
// the node of name at pos, depending on from, on what the instance
// depends on as a whole and on its controlling decisions, with the
// values the instance wrote under name.
func (b *builder) defNode(name string, pos token.Pos, from []int) int {
	c := b.ends[len(b.ends)-1]
	in := c.in
	id := b.view.fresh(name, c.u.fn.file, pos, c.u.fn)
	b.g.Nodes[id].Count++
	for _, s := range from {
		b.edge(s, id, Data)
	}
	for _, s := range in.extra {
		b.edge(s, id, Data)
	}
	b.edge(c.ctrl, id, Control)
	for _, op := range in.opNodes {
		b.edge(op.id, id, Control)
	}
	for _, nv := range in.values {
		if nv.name == name {
			b.value(id, nv.v)
		}
	}
	top := &b.ends[len(b.ends)-1]
	top.ids = append(top.ids, id)
	return id
}

// namedResults returns from with the definitions fn's named results
// hold in fr added, sorted: what a bare return (or a return after a
// recovered panic) returns.
func (b *builder) namedResults(fr *frame, fn *function, from []int) []int {
	for _, r := range fn.results {
		if r != "" {
			for _, d := range b.lookup(fr, fn.paramKey(r)) {
				from = append(from, d)
			}
		}
	}
	sort.Ints(from)
	return from
}

// control returns the node of the decision that made u run in fr: the
// latest execution among its static controllers; with none, the call
// that entered fr (interprocedural control dependence: a function's
// statements run because it was called, under the decision that made
// the call run); -1 when that is not known either.
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
	if ctrl < 0 {
		// No decision of the function's own: the statement ran because
		// the call that entered the frame did.
		ctrl = b.entryOf(fr)
	}
	return ctrl
}

// assign defines each assigned operand of u: from its own value when
// rhs pairs them, else from everything the unit read (or from base).
func (b *builder) assign(fr *frame, in *instance, u *unit, lhs, rhs []ast.Expr, base []int, def defFunc) {
	f := u.fn.file
	start := len(b.pending) // b.pending[start:] are this statement's
	var whole []int
	if rhs == nil && base == nil {
		whole = b.reads(fr, u.node, lhs, in)
	}
	for i, l := range lhs {
		if rootName(l) == "" {
			continue
		}
		_, plain := ast.Unparen(l).(*ast.Ident)
		// The slot is taken first: a pointer to a local would escape
		// (the view's methods take it), an allocation per operand.
		b.pending = append(b.pending, pending{root: f.key(rootIdent(l)), strong: plain, lhs: l})
		d := &b.pending[len(b.pending)-1]
		if rhs != nil {
			d.rhs = rhs[i]
		}
		from := base
		if rhs != nil {
			var ok bool
			if from, ok = b.view.assigned(fr, in, u, l, rhs[i], d, def); !ok {
				from = b.reads(fr, rhs[i], nil, in)
				if !plain {
					from = append(from, b.reads(fr, l, []ast.Expr{l}, in)...)
				}
			}
		} else if base == nil {
			from = whole
		}
		if u.opAss {
			for _, d := range b.lookup(fr, d.root) {
				from = append(from, d)
			}
			sort.Ints(from)
		}
		var coll string
		d.name, coll = b.view.target(f, l, in, plain)
		d.id = def(d.name, l.Pos(), from)
		if coll != "" {
			b.g.Nodes[d.id].Elem = coll
		}
		if _, ix := ast.Unparen(l).(*ast.IndexExpr); ix && in.wloc != nil && in.wloc[l.Pos()].Kind == trace.LocElem {
			b.elemOnly[d.id] = true
		}
		b.view.defined(fr, in, u, d, def)
	}
	// Definitions take effect after every read of the statement: a swap
	// (a[i], a[j] = a[j], a[i]) reads both elements before either write.
	defs := b.pending[start:]
	for i := range defs {
		b.written(fr, in, defs[i].lhs, defs[i].rhs, defs[i].root, defs[i].id)
	}
	for i := range defs {
		b.define(fr, defs[i].root, defs[i].id, defs[i].strong)
		b.view.settled(fr, &defs[i])
	}
	clear(defs)
	b.pending = b.pending[:start]
}

// decisionName is the pseudo-variable of a decision unit.
func decisionName(u *unit) string {
	if u.kind == UnitTag {
		return "<switch>"
	}
	return "<test>"
}

// exprName names what an expression statement does: "<t.Errorf()>",
// made once per call (it was a string made at every statement run).
func exprName(f *file, e ast.Expr) string {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "<expr>"
	}
	if t, ok := f.stmtNames[c]; ok {
		return t
	}
	t := "<" + callName(f, c) + ">"
	if f.stmtNames == nil {
		f.stmtNames = map[*ast.CallExpr]string{}
	}
	f.stmtNames[c] = t
	return t
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
