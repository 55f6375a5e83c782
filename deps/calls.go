package deps

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// frameOf returns the frame an event of fn belongs to when the top of
// g's stack is another function's: the innermost frame of fn when every
// frame above it was entered without an entry record (those are over:
// they end) or when one was entered with one (the body of a range over a
// function runs in its function's frame, called from the iterator's
// yield); else a new frame of fn (a function entered without an entry
// record, not instrumented for calls).
func (b *builder) frameOf(g *goroutine, fn *function) *frame {
	for i := len(g.stack) - 1; i >= 0; i-- {
		if g.stack[i].fn != fn {
			continue
		}
		above := g.stack[i+1:]
		for _, f := range above {
			if !f.implicit {
				return g.stack[i]
			}
		}
		for j := len(g.stack) - 1; j > i; j-- {
			b.end(g.stack[j])
		}
		g.stack = g.stack[:i+1]
		return g.stack[i]
	}
	fr := b.push(g, fn, -1)
	fr.implicit = true
	return fr
}

// push enters a frame of fn on g.
func (b *builder) push(g *goroutine, fn *function, site int) *frame {
	b.frames++
	fr := &frame{fn: fn, serial: b.frames, vars: map[string]defSet{}, units: make([]unitRun, len(fn.units)), tag: -1, ret: -1, call: -1, from: -1, cbSite: -1, entryCtrl: -1, entryNode: -1}
	if fn.parent != nil {
		fr.lex = b.last[fn.parent]
	}
	b.last[fn] = fr
	g.stack = append(g.stack, fr)
	return fr
}

// enter handles a function entry: parameters are defined at the
// function's declaration and depend on the call's arguments.
func (b *builder) enter(g *goroutine, e *trace.Event) {
	fn := b.funcs[e.Site]
	if fn == nil {
		return
	}
	var caller *frame
	if len(g.stack) > 0 {
		caller = g.stack[len(g.stack)-1]
	}
	callSite := e.From
	var cbArgs []int // a callback's parameters: what the call under way read
	cbSite := -1
	if callSite < 0 && caller != nil {
		if n := len(g.calls); n > 0 && g.calls[n-1].fr == caller {
			// The entry names no call site, yet the caller has a call
			// under way: its callee named another function (or entered
			// already, or was left out by sampling), whose code, not
			// instrumented, called back. What it passes may come from
			// anything the call was given; what it returns goes back
			// to that code.
			cbSite = g.calls[n-1].site
			if c := b.callAt(caller, cbSite); c != nil {
				cbArgs = b.readsIn(caller, c, caller.cur)
			}
		} else {
			callSite = caller.call
		}
	}
	if callSite >= 0 && b.units[callSite] != nil && (caller == nil || b.units[callSite].fn != caller.fn) {
		// A go statement's call: the arguments were read by the latest
		// frame of the function holding it, on another goroutine.
		if fr := b.last[b.units[callSite].fn]; fr != nil {
			caller = fr
		}
	}
	call := b.callAt(caller, callSite)
	// Resolve the arguments in the caller before the callee's frame exists.
	args := b.argReads(caller, call)
	var recv []int
	if call != nil {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			recv = b.readsIn(caller, sel.X, caller.cur)
		}
	}
	if call != nil && caller != nil && callSite >= 0 {
		b.entered[callSite] = true
	}
	if call != nil && caller.cur != nil {
		if _, ok := caller.cur.calls[call.End()]; ok {
			caller.cur.calls[call.End()] = true // instrumented: its writes are recorded
		}
	}
	// A call in the right operand of && or || runs because of the left
	// operand's outcome: its parameters are control dependent on it.
	opCtrl := -1
	if call != nil && caller.cur != nil {
		opCtrl = caller.cur.operandAt(call.Pos())
	}
	fr := b.push(g, fn, e.Site)
	fr.from = callSite
	if cbSite >= 0 {
		fr.cbOf, fr.cbSite = caller, cbSite
	}
	b.enteredBy(fr, caller, call, callSite, cbSite, opCtrl)
	names := b.params(e.Site)
	f := fn.file
	declPos := fn.decl.Pos()
	method := false
	if fd, ok := fn.decl.(*ast.FuncDecl); ok {
		method = fd.Recv != nil && len(fd.Recv.List) > 0 && len(fd.Recv.List[0].Names) > 0 && fd.Recv.List[0].Names[0].Name != "_"
	}
	b.givenRefs(fr, caller, call, method, e.Values[:min(len(names), len(e.Values))])
	for i, name := range names {
		id := b.view.fresh(name, f, declPos, fn)
		b.g.Nodes[id].Count++
		if i < len(e.Values) {
			b.value(id, e.Values[i])
		}
		k := fn.paramKey(name)
		fr.vars[k] = only(fr.vars[k], id)
		var from []int
		switch {
		case method && i == 0:
			from = recv
		default:
			k := i
			if method {
				k--
			}
			if k < len(args) {
				from = args[k]
				b.view.argument(id, caller.fn.file, call.Args[k])
			}
			if i == len(names)-1 {
				for ; k+1 < len(args); k++ {
					from = append(from, args[k+1]...)
				}
			}
		}
		for _, s := range from {
			b.edge(s, id, Data)
		}
		for _, s := range cbArgs {
			b.edge(s, id, Data)
		}
		b.edge(opCtrl, id, Control)
	}
}

// enteredBy records the call that entered fr from caller: the call site's
// statement and the decision that made it run, for the control
// dependence of fr's statements that no decision of fr's controls
// (opCtrl: the && or || whose left operand let the call's operand run,
// -1 when none).
// A callback's call is the call under way that went into code that is
// not instrumented (cbSite).
func (b *builder) enteredBy(fr, caller *frame, call *ast.CallExpr, callSite, cbSite, opCtrl int) {
	if cbSite >= 0 {
		call, callSite = b.callAt(caller, cbSite), cbSite
	}
	if call == nil || caller == nil || callSite < 0 || b.units[callSite] == nil || !b.view.relevance() {
		return
	}
	fr.entry, fr.entryBy = call, caller
	fr.entryCtrl = opCtrl // a call in the right operand of && or ||
	if opCtrl < 0 {
		fr.entryCtrl = b.control(caller, b.units[callSite])
	}
}

// entryOf returns the node of the call that entered fr, made on first
// use, control dependent on the decision that made the call run; -1 when
// the call is not known.
func (b *builder) entryOf(fr *frame) int {
	if fr.entry == nil {
		return -1
	}
	if fr.entryNode < 0 {
		f := fr.entryBy.fn.file
		id := b.view.fresh(f.entryName(fr.entry), f, fr.entry.Pos(), fr.entryBy.fn)
		b.g.Nodes[id].Count++
		b.edge(fr.entryCtrl, id, Control)
		fr.entryNode = id
	}
	return fr.entryNode
}

// callAt returns the call expression of call site site made by fr's
// function, nil when site is no call of it.
func (b *builder) callAt(fr *frame, site int) *ast.CallExpr {
	if fr == nil || site < 0 || b.units[site] == nil || b.units[site].fn != fr.fn {
		return nil
	}
	cs := b.sites[site]
	f := fr.fn.file
	return findCall(f, f.pos(cs.Line, cs.Col), f.pos(cs.EndLine, cs.EndCol))
}

// argReads returns what each argument of call read in fr, as fr's
// current instance evaluates it.
func (b *builder) argReads(fr *frame, call *ast.CallExpr) [][]int {
	if call == nil {
		return nil
	}
	args := make([][]int, len(call.Args))
	for i, a := range call.Args {
		args[i] = b.readsIn(fr, a, fr.cur)
	}
	return args
}

// yielded returns what the iterator passed to yield when a range over a
// function's body starts in fr, per argument: what it read. The body
// runs in fr, called from yield, the latest call under way on g, made by
// a frame above fr (the iterator's, or the body of a range over another
// function in it: an adapter's). Nil when no frame above fr made it (the
// iterator is not instrumented).
func (b *builder) yielded(g *goroutine, fr *frame) [][]int {
	if len(g.calls) == 0 {
		return nil
	}
	c := g.calls[len(g.calls)-1]
	for i := len(g.stack) - 1; i >= 0 && g.stack[i] != fr; i-- {
		if g.stack[i] == c.fr {
			return b.argReads(c.fr, b.callAt(c.fr, c.site))
		}
	}
	return nil
}

// paramNames returns the recorded value names of a function site's info,
// "pkg.F(a, b) (r)": a, b.
func paramNames(info string) []string {
	i := strings.IndexByte(info, '(')
	j := strings.IndexByte(info, ')')
	if i < 0 || j < i {
		return nil
	}
	var out []string
	for _, n := range strings.Split(info[i+1:j], ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// findCall returns the call expression spanning [pos, end) in f.
func findCall(f *file, pos, end token.Pos) *ast.CallExpr {
	k := [2]token.Pos{pos, end}
	if c, ok := f.calls[k]; ok {
		return c
	}
	if f.calls == nil {
		f.calls = map[[2]token.Pos]*ast.CallExpr{}
	}
	f.calls[k] = searchCall(f, pos, end)
	return f.calls[k]
}

// searchCall does findCall's work.
func searchCall(f *file, pos, end token.Pos) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if found != nil || n == nil || n.End() < pos || n.Pos() > end {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() == pos && c.End() == end {
			found = c
			return false
		}
		return true
	})
	return found
}

// exit handles a function exit: the return value is the latest return
// statement's node (or, when that return recorded nothing, the return
// statement the control flow must have taken).
func (b *builder) exit(g *goroutine, e *trace.Event) {
	fn := b.funcs[e.Site]
	if fn == nil || len(g.stack) == 0 {
		return
	}
	// Frames of functions entered without an entry record end here too.
	var fr *frame
	panicked := false
	for len(g.stack) > 0 {
		fr = g.stack[len(g.stack)-1]
		g.stack = g.stack[:len(g.stack)-1]
		for len(g.calls) > 0 && g.calls[len(g.calls)-1].fr == fr {
			// Calls it made that never returned (a panic went through).
			g.calls = g.calls[:len(g.calls)-1]
		}
		// With steps, a function with results exiting in the middle of a
		// statement that is not a return is unwinding a panic.
		open := fr.cur != nil && fr.cur.stepped && fr.cur.u.kind != UnitReturn && len(fr.fn.results) > 0 && fr.ret < 0 && g.panic < 0
		if e.Panicking && fr.fn == fn && fr.cur != nil && g.panic < 0 {
			// The runtime said so (an exit record of a panicking
			// function): a return statement or a function without
			// results raised it too.
			open = true
		}
		if g.recovered == fr {
			// The panic that stopped its statement was recovered by a
			// function it deferred: it returns what its named results
			// hold (zero values for unnamed ones).
			g.recovered = nil
			ids := b.end(fr)
			if len(fn.results) > 0 {
				from := b.namedResults(fr, fn, ids)
				fr.ret = b.view.fresh(fn.returnName(), fn.file, fn.decl.Pos(), fn)
				b.g.Nodes[fr.ret].Count++
				for _, d := range from {
					b.edge(d, fr.ret, Data)
				}
			}
			break
		}
		ids := b.end(fr)
		if open && len(ids) > 0 {
			panicked = true
			if !g.unwinding {
				g.unwound, g.unwinding, g.unwoundAt = ids[0], true, b.seq
			}
		}
		if fr.fn == fn {
			break
		}
	}
	if fr == nil || fr.fn != fn {
		return
	}
	if !panicked {
		b.returned(fr)
	}
	if fr.ret < 0 && len(fn.results) > 0 && g.panic < 0 && !panicked {
		// A return of constants records nothing: take the only one there is.
		var cands []*unit
		for _, u := range fn.units {
			if u.kind == UnitReturn && (b.hit[u] || b.hit == nil && constant(u.node)) {
				cands = append(cands, u)
			}
		}
		if len(cands) == 1 {
			fr.cur = b.instance(cands[0], token.NoPos)
			b.end(fr)
		}
		if fr.ret < 0 {
			fr.ret = b.view.fresh(fn.returnName(), fn.file, fn.decl.Pos(), fn)
			b.g.Nodes[fr.ret].Count++
		}
	}
	if fr.ret >= 0 {
		for _, v := range e.Values {
			b.value(fr.ret, v)
		}
		g.ret, g.retAt = fr.ret, fr.from
		c := fr.entryBy // the summary view's; else the frame below
		if c == nil && len(g.stack) > 0 {
			c = g.stack[len(g.stack)-1]
		}
		if c != nil && c.cur != nil && c.cur.u.kind == UnitReturn && fr.from >= 0 && b.units[fr.from] != nil && b.units[fr.from].fn == c.fn {
			// return f(), f of several results: no record follows the
			// call, so the caller's return takes its value from here (a
			// record of it, for one result, says the same).
			site := b.sites[fr.from]
			if pos := c.fn.file.pos(site.Line, site.Col); pos.IsValid() {
				if c.cur.rets == nil {
					c.cur.rets = map[token.Pos]int{}
				}
				if _, ok := c.cur.rets[pos]; !ok {
					c.cur.rets[pos] = fr.ret
				}
			}
		}
		if fr.cbOf != nil {
			// A callback's value goes back to the code that called it.
			g.ret, g.retAt = -1, -1
			if fr.cbOf.cbRets == nil {
				fr.cbOf.cbRets = map[int]map[int]bool{}
			}
			if fr.cbOf.cbRets[fr.cbSite] == nil {
				fr.cbOf.cbRets[fr.cbSite] = map[int]bool{}
			}
			fr.cbOf.cbRets[fr.cbSite][fr.ret] = true
		}
	}
}

// constant reports whether n reads no variable (only literals, true,
// false, nil).
func constant(n ast.Node) bool {
	for _, id := range idents(n, nil) {
		switch id.Name {
		case "true", "false", "nil", "iota":
		default:
			return false
		}
	}
	return true
}
