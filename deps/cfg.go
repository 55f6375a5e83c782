package deps

import (
	"go/ast"
	"go/token"
)

// cfgBuilder builds one function's units and control-flow graph.
type cfgBuilder struct {
	fn     *function
	labels map[string]int // label -> entry unit
	gotos  []fixup
	loop   []target // innermost last
}

type fixup struct {
	from  int
	label string
}

// target is where break and continue go inside a loop, switch or select.
type target struct {
	label  string
	brk    int
	cont   int // -1 for a switch or select
	isLoop bool
}

func (fn *function) buildCFG() {
	b := &cfgBuilder{fn: fn, labels: map[string]int{}}
	// The exit node's id is only known at the end: use -1 and patch.
	fn.entry = b.seq(fn.body.List, -1)
	fn.exit = len(fn.units)
	if fn.entry == -1 {
		fn.entry = fn.exit
	}
	for _, g := range b.gotos {
		if t, ok := b.labels[g.label]; ok {
			fn.units[g.from].succ = append(fn.units[g.from].succ, t)
		}
	}
	for _, u := range fn.units {
		for i, s := range u.succ {
			if s == -1 {
				u.succ[i] = fn.exit
			}
		}
	}
	fn.controlDeps()
}

func (b *cfgBuilder) add(kind UnitKind, n ast.Node, pos, end token.Pos, succ ...int) *unit {
	f := b.fn.file
	p := f.fset.Position(pos)
	u := &unit{id: len(b.fn.units), kind: kind, fn: b.fn, node: n, pos: pos, end: end, line: p.Line, col: p.Column}
	u.succ = append(u.succ, succ...)
	b.fn.units = append(b.fn.units, u)
	return u
}

func (b *cfgBuilder) seq(list []ast.Stmt, succ int) int {
	for i := len(list) - 1; i >= 0; i-- {
		succ = b.stmt(list[i], succ, "")
	}
	return succ
}

// stmt adds the units of s, which continues at succ, and returns its entry.
func (b *cfgBuilder) stmt(s ast.Stmt, succ int, label string) int {
	switch s := s.(type) {
	case nil, *ast.EmptyStmt:
		return succ
	case *ast.BlockStmt:
		return b.seq(s.List, succ)
	case *ast.LabeledStmt:
		// The label's entry is known after building the statement; a
		// goto to it from inside is patched at the end.
		e := b.stmt(s.Stmt, succ, s.Label.Name)
		b.labels[s.Label.Name] = e
		return e
	case *ast.ReturnStmt:
		u := b.add(UnitReturn, s, s.Pos(), s.End(), -1)
		u.bare = len(s.Results) == 0
		return u.id
	case *ast.BranchStmt:
		u := b.add(UnitJoin, s, s.Pos(), s.End())
		switch s.Tok {
		case token.GOTO:
			b.gotos = append(b.gotos, fixup{u.id, s.Label.Name})
		case token.BREAK, token.CONTINUE:
			for i := len(b.loop) - 1; i >= 0; i-- {
				t := b.loop[i]
				if s.Label != nil && t.label != s.Label.Name {
					continue
				}
				if s.Tok == token.CONTINUE && !t.isLoop {
					continue
				}
				if s.Tok == token.BREAK {
					u.succ = append(u.succ, t.brk)
				} else {
					u.succ = append(u.succ, t.cont)
				}
				break
			}
		case token.FALLTHROUGH:
			u.succ = append(u.succ, succ) // patched by the switch
		}
		return u.id
	case *ast.IfStmt:
		els := succ
		if s.Else != nil {
			els = b.stmt(s.Else, succ, "")
		}
		then := b.seq(s.Body.List, succ)
		c := b.add(UnitCond, s.Cond, s.Cond.Pos(), s.Cond.End(), then, els)
		c.ifs = s
		return b.init(s.Init, c.id)
	case *ast.ForStmt:
		head := b.add(UnitJoin, s, s.For, s.For+3)
		if s.Cond != nil {
			head.kind, head.node, head.pos, head.end = UnitCond, s.Cond, s.Cond.Pos(), s.Cond.End()
			head.loop = s
		}
		// "for {" leaves only by break, return or panic: its head is a
		// join, given a way out to the loop's successor all the same, so
		// that the loop is not taken to end for sure (then what a break
		// guards would post-dominate its condition and depend on
		// nothing). Units it controls depend on its own controllers
		// (controlDeps).
		head.succ = append(head.succ, succ)
		cont := head.id
		if s.Post != nil {
			cont = b.simple(s.Post, head.id)
		}
		b.loop = append(b.loop, target{label, succ, cont, true})
		body := b.seq(s.Body.List, cont)
		b.loop = b.loop[:len(b.loop)-1]
		head.succ = append([]int{body}, head.succ...)
		return b.init(s.Init, head.id)
	case *ast.RangeStmt:
		head := b.add(UnitRange, s, s.For, s.Body.Lbrace, succ)
		if s.Tok != token.ILLEGAL {
			for _, l := range []ast.Expr{s.Key, s.Value} {
				if l != nil {
					head.lhs = append(head.lhs, l)
					if id, ok := l.(*ast.Ident); ok && s.Tok == token.DEFINE {
						b.fn.locals[id.Name] = true
					}
				}
			}
		}
		b.loop = append(b.loop, target{label, succ, head.id, true})
		body := b.seq(s.Body.List, head.id)
		b.loop = b.loop[:len(b.loop)-1]
		head.succ = append([]int{body}, head.succ...)
		return head.id
	case *ast.SwitchStmt:
		var tag *unit
		if s.Tag != nil {
			tag = b.add(UnitTag, s.Tag, s.Tag.Pos(), s.Tag.End())
		}
		e := b.clauses(s.Body, succ, label)
		if tag != nil {
			tag.succ = append(tag.succ, e)
			e = tag.id
		}
		return b.init(s.Init, e)
	case *ast.TypeSwitchStmt:
		tag := b.add(UnitTag, s.Assign, s.Assign.Pos(), s.Assign.End())
		if as, ok := s.Assign.(*ast.AssignStmt); ok {
			tag.lhs = as.Lhs
			b.fn.locals[as.Lhs[0].(*ast.Ident).Name] = true
		}
		tag.succ = append(tag.succ, b.clauses(s.Body, succ, label))
		return b.init(s.Init, tag.id)
	case *ast.SelectStmt:
		sel := b.add(UnitSelect, s, s.Select, s.Select+6)
		b.loop = append(b.loop, target{label, succ, -1, false})
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			e := b.seq(cc.Body, succ)
			if cc.Comm != nil {
				e = b.simple(cc.Comm, e)
			}
			sel.succ = append(sel.succ, e)
		}
		b.loop = b.loop[:len(b.loop)-1]
		if len(sel.succ) == 0 {
			sel.succ = append(sel.succ, -1) // select {} blocks forever
		}
		return sel.id
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return succ
		}
		return b.simple(s, succ)
	default:
		return b.simple(s, succ)
	}
}

// init adds an if's or switch's init statement before entry.
func (b *cfgBuilder) init(s ast.Stmt, entry int) int {
	if s == nil {
		return entry
	}
	return b.simple(s, entry)
}

// clauses adds a switch's case clauses: tests in order, the default's
// body after the last test fails.
func (b *cfgBuilder) clauses(body *ast.BlockStmt, succ int, label string) int {
	b.loop = append(b.loop, target{label, succ, -1, false})
	defer func() { b.loop = b.loop[:len(b.loop)-1] }()
	n := len(body.List)
	entries := make([]int, n)
	next := succ
	for i := n - 1; i >= 0; i-- {
		cc := body.List[i].(*ast.CaseClause)
		entries[i] = b.seq(cc.Body, succ)
		// fallthrough: the last statement of the body goes to the next body.
		if k := len(cc.Body); k > 0 {
			if br, ok := cc.Body[k-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				u := b.fn.units[entries[i]]
				for _, x := range b.fn.units {
					if x.node == br {
						u = x
					}
				}
				u.succ = []int{next}
			}
		}
		next = entries[i]
	}
	fail := succ
	for i := n - 1; i >= 0; i-- {
		if body.List[i].(*ast.CaseClause).List == nil {
			fail = entries[i]
		}
	}
	for i := n - 1; i >= 0; i-- {
		cc := body.List[i].(*ast.CaseClause)
		if cc.List == nil {
			continue
		}
		t := b.add(UnitCond, cc, cc.Case, cc.Colon, entries[i], fail)
		fail = t.id
	}
	return fail
}

// simple adds a unit for a simple statement.
func (b *cfgBuilder) simple(s ast.Stmt, succ int) int {
	u := b.add(UnitSimple, s, s.Pos(), s.End(), succ)
	switch s := s.(type) {
	case *ast.AssignStmt:
		u.lhs = s.Lhs
		if len(s.Lhs) == len(s.Rhs) {
			u.rhs = s.Rhs
		}
		u.opAss = s.Tok != token.ASSIGN && s.Tok != token.DEFINE
		if s.Tok == token.DEFINE {
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					b.fn.locals[id.Name] = true
				}
			}
		}
	case *ast.IncDecStmt:
		u.lhs = []ast.Expr{s.X}
		u.opAss = true
	case *ast.DeclStmt:
		for _, sp := range s.Decl.(*ast.GenDecl).Specs {
			vs := sp.(*ast.ValueSpec)
			for i, n := range vs.Names {
				b.fn.locals[n.Name] = true
				u.lhs = append(u.lhs, n)
				if len(vs.Values) == len(vs.Names) {
					u.rhs = append(u.rhs, vs.Values[i])
				}
			}
		}
		if len(u.rhs) != len(u.lhs) {
			u.rhs = nil
		}
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok && endsFunction(c) {
			u.calls = true
			u.succ = []int{-1}
		}
	}
	return u.id
}

// endsFunction reports whether a call statement never returns normally:
// panic, os.Exit, log.Fatal*, runtime.Goexit, t.Fatal*, t.FailNow, t.Skip*.
func endsFunction(c *ast.CallExpr) bool {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name == "panic"
	case *ast.SelectorExpr:
		switch f.Sel.Name {
		case "Exit", "Fatal", "Fatalf", "Fatalln", "FailNow", "Goexit", "Skip", "Skipf", "SkipNow", "Panic", "Panicf", "Panicln":
			return true
		}
	}
	return false
}

// controlDeps computes each unit's static control dependencies from the
// post-dominators of the function's control-flow graph (Ferrante,
// Ottenstein and Warren): u depends on d when d has a successor that u
// post-dominates and u does not strictly post-dominate d.
func (fn *function) controlDeps() {
	n := len(fn.units) + 1 // + exit
	exit := fn.exit
	succ := func(i int) []int {
		if i == exit {
			return nil
		}
		return fn.units[i].succ
	}
	pdom := dominators(n, exit, succ, true)
	has := func(set []uint64, i int) bool { return set[i/64]&(1<<(i%64)) != 0 }
	for d := 0; d < len(fn.units); d++ {
		ss := succ(d)
		if len(ss) < 2 {
			continue
		}
		for u := 0; u < len(fn.units); u++ {
			if u == d || has(pdom[d], u) {
				continue // u post-dominates d: runs whatever d decides
			}
			for _, s := range ss {
				if has(pdom[s], u) {
					fn.units[u].ctrl = append(fn.units[u].ctrl, d)
					break
				}
			}
		}
	}
	// A join never runs: what it controls depends on what controls the
	// join ("for {": its body on the decisions that looped back).
	for _, u := range fn.units {
		var out []int
		seen := map[int]bool{}
		var add func(c int)
		add = func(c int) {
			if seen[c] {
				return
			}
			seen[c] = true
			if fn.units[c].kind == UnitJoin {
				for _, cc := range fn.units[c].ctrl {
					add(cc)
				}
				return
			}
			out = append(out, c)
		}
		for _, c := range u.ctrl {
			add(c)
		}
		u.ctrl = out
	}
	// A loop's condition depends on itself; drop self edges.
	for _, u := range fn.units {
		out := u.ctrl[:0]
		for _, c := range u.ctrl {
			if c != u.id {
				out = append(out, c)
			}
		}
		u.ctrl = out
	}
	fn.dominance()
}

// dominators returns, for a graph of n nodes, the set (a bitset) of the
// nodes that dominate each node as seen from root: every path from root
// to it passes them. next gives the edges walked back: a node's
// predecessors for dominators, its successors (with root the exit) for
// post-dominators. A node with no such edge has itself alone (no way in,
// or none out: an endless loop's join). down iterates from the last
// node, which converges faster along successors.
func dominators(n, root int, next func(int) []int, down bool) [][]uint64 {
	words := (n + 63) / 64
	dom := make([][]uint64, n)
	for i := range dom {
		dom[i] = make([]uint64, words)
		if i == root {
			dom[i][i/64] |= 1 << (i % 64)
			continue
		}
		for w := range dom[i] {
			dom[i][w] = ^uint64(0)
		}
	}
	tmp := make([]uint64, words)
	for changed := true; changed; {
		changed = false
		for k := 0; k < n; k++ {
			i := k
			if down {
				i = n - 1 - k
			}
			if i == root {
				continue
			}
			ps := next(i)
			for w := range tmp {
				tmp[w] = 0
				if len(ps) > 0 {
					tmp[w] = ^uint64(0)
				}
			}
			for _, p := range ps {
				for w := range tmp {
					tmp[w] &= dom[p][w]
				}
			}
			tmp[i/64] |= 1 << (i % 64)
			for w := range tmp {
				if tmp[w] != dom[i][w] {
					copy(dom[i], tmp)
					changed = true
					break
				}
			}
		}
	}
	return dom
}

// dominance sets each unit's dom: whether its one static controller
// dominates it (every path from the function's entry to it runs the
// controller first), from the dominators of the control-flow graph.
func (fn *function) dominance() {
	n := len(fn.units)
	if n == 0 || fn.entry >= n {
		return
	}
	preds := make([][]int, n)
	for _, u := range fn.units {
		for _, s := range u.succ {
			if s >= 0 && s < n {
				preds[s] = append(preds[s], u.id)
			}
		}
	}
	dom := dominators(n, fn.entry, func(i int) []int { return preds[i] }, false)
	for _, u := range fn.units {
		if len(u.ctrl) == 1 {
			c := u.ctrl[0]
			u.dom = dom[u.id][c/64]&(1<<(c%64)) != 0
		}
	}
}
