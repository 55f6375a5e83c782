package deps

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// event replays one stream record.
func (b *builder) event(e *trace.Event, inTest bool) {
	if e.Site < 0 || e.Site >= len(b.sites) {
		b.note(fmt.Sprintf("event for site %d outside the site table", e.Site))
		return
	}
	switch e.Tag {
	case trace.TagEnter, trace.TagExit, trace.TagStarted, trace.TagRead, trace.TagWrite, trace.TagCall,
		trace.TagReturn, trace.TagPanic, trace.TagRecover, trace.TagSend, trace.TagRecv, trace.TagStep, trace.TagDecision:
	default:
		return
	}
	g := b.gor(e.Goroutine)
	switch e.Tag {
	case trace.TagEnter:
		b.enter(g, e)
		return
	case trace.TagExit:
	default:
		g.unwinding = false
	}
	switch e.Tag {
	case trace.TagExit:
		b.exit(g, e)
		return
	case trace.TagStarted:
		return
	}
	u := b.units[e.Site]
	if e.Tag == trace.TagStep {
		st := b.stepUnit(e.Site)
		u = st.u
		if st.fn != nil && len(g.stack) > 0 && g.stack[len(g.stack)-1].fn == st.fn {
			top := g.stack[len(g.stack)-1]
			top.fell = st.fall
			if u == nil {
				// A statement that evaluates nothing of its own as it
				// starts (a block, "for {", a break): what ran before
				// it has ended all the same.
				b.end(top)
			}
		}
	}
	if u == nil || len(g.stack) == 0 {
		return
	}
	fr := g.stack[len(g.stack)-1]
	if fr.fn != u.fn {
		fr = b.frameOf(g, u.fn)
	}
	site := b.sites[e.Site]
	pos := b.sitePos[e.Site]
	if e.Tag == trace.TagStep {
		// A statement starts: whatever ran before it in this frame has
		// ended, exactly (without steps, at() infers it from positions).
		b.end(fr)
		fr.cur = b.instance(u, pos)
		fr.cur.lastEv = [2]int{int(e.Tag), e.Site}
		fr.cur.inTest = inTest
		fr.cur.stepped = true
		if b.seg.on && inTest {
			b.seg.step(u, e.Site)
		}
		return
	}
	if e.Tag == trace.TagDecision {
		if b.seg.on && inTest {
			b.seg.decision(u, e.Site)
		}
		if strings.HasPrefix(site.Info, "operand ") {
			// An && or || operand evaluated: its outcome, on the
			// instance evaluating it.
			in := b.at(fr, u, pos, trace.TagRead, e.Site)
			if in.ops == nil {
				in.ops = map[token.Pos]bool{}
			}
			in.ops[pos] = site.Info == "operand true"
			b.operands(fr, in)
			return
		}
		b.decision(g, fr, u, pos, site)
		return
	}
	in := b.at(fr, u, pos, e.Tag, e.Site)
	in.inTest = in.inTest || inTest
	if u.kind == UnitRange && in.yield == nil {
		in.yield = b.yielded(g, fr)
	}
	switch e.Tag {
	case trace.TagRead:
		b.view.sawRead(in, pos, e)
		if len(e.Values) > 0 && e.Values[0].Tag == trace.ValRef {
			if in.refs == nil {
				in.refs = map[token.Pos]string{}
			}
			in.refs[pos] = e.Values[0].Type
		}
		if e.Loc.Kind != trace.LocNone {
			if in.rloc == nil {
				in.rloc = map[token.Pos]loc{}
			}
			in.rloc[pos] = locOf(&e.Loc)
		}
	case trace.TagWrite:
		if in.wrote == nil {
			in.wrote = map[int]bool{}
		}
		in.wrote[e.Site] = true
		if e.Loc.Kind != trace.LocNone {
			if in.wloc == nil {
				in.wloc = map[token.Pos]loc{}
			}
			in.wloc[pos] = locOf(&e.Loc)
		}
		if len(e.Values) > 0 {
			in.values = append(in.values, namedValue{site.Info, e.Values[0]})
		}
	case trace.TagCall:
		fr.call = e.Site
		g.calls = append(g.calls, openCall{fr, e.Site})
		if in.calls == nil {
			in.calls = map[token.Pos]bool{}
		}
		if end := b.siteEnd[e.Site]; !in.calls[end] {
			// A callee entered from this site before is instrumented,
			// also when a sampled run left out this call's entry.
			in.calls[end] = b.entered[e.Site]
		}
		if inTest && u.fn.file.isCheck(site.Info) {
			in.check = true
			if b.seg.on {
				b.seg.check()
			}
		}
	case trace.TagReturn:
		if g.ret >= 0 && (g.retAt == e.Site || g.retAt < 0) {
			if in.rets == nil {
				in.rets = map[token.Pos]int{}
			}
			in.rets[pos] = g.ret
		}
		if cb := fr.cbRets[e.Site]; len(cb) > 0 {
			if in.cbs == nil {
				in.cbs = map[token.Pos][]int{}
			}
			for id := range cb {
				in.cbs[pos] = append(in.cbs[pos], id)
			}
			sort.Ints(in.cbs[pos])
			delete(fr.cbRets, e.Site)
		}
		g.ret, g.retAt = -1, -1
		for i := len(g.calls) - 1; i >= 0; i-- {
			if g.calls[i] == (openCall{fr, e.Site}) {
				g.calls = g.calls[:i]
				break
			}
		}
		if fr.call == e.Site {
			// The call is over: no later entry is its callee's.
			fr.call = -1
		}
	case trace.TagPanic:
		ids := b.end(fr)
		if len(ids) > 0 {
			g.panic = ids[0]
			if len(e.Values) > 0 {
				b.value(ids[0], e.Values[0])
			}
			if inTest {
				if b.g.FailureKind != FailurePanic {
					b.beforePanic, b.beforePanicKind = b.g.Failure, b.g.FailureKind
				}
				b.g.Failure, b.g.FailureKind = []int{ids[0]}, FailurePanic
			}
		}
	case trace.TagRecover:
		if len(e.Values) > 0 && e.Values[0].Tag != trace.ValNil && g.panic >= 0 {
			in.extra = append(in.extra, g.panic)
			if b.g.FailureKind == FailurePanic && len(b.g.Failure) == 1 && b.g.Failure[0] == g.panic {
				// Recovered (a parser's panic and recover for errors):
				// not what the test died of.
				b.g.Failure, b.g.FailureKind = b.beforePanic, b.beforePanicKind
			}
			g.panic = -1
			g.recovered = deferring(g, fr)
		} else if len(e.Values) > 0 && e.Values[0].Tag != trace.ValNil && g.unwound >= 0 {
			// A runtime panic: the recovered error comes from the
			// statement that raised it.
			in.extra = append(in.extra, g.unwound)
			b.g.Raised = append(b.g.Raised, g.unwound)
			g.unwound = -1
			g.recovered = deferring(g, fr)
		} else if len(e.Values) > 0 && e.Values[0].Tag != trace.ValNil && g.panic < 0 {
			// A runtime panic recovered by a function deferred in the
			// frame that raised it (no frame exited since): the
			// statement under way there raised it.
			if d := deferring(g, fr); d != nil {
				if ids := b.end(d); len(ids) > 0 {
					// Not in Raised: the statement ended here is the
					// frame's defer, not the one that raised the panic.
					in.extra = append(in.extra, ids[0])
				}
				g.recovered = d
			}
		} else if len(e.Values) > 0 && e.Values[0].Tag == trace.ValNil && b.view.relevance() {
			// Nothing recovered: no branch that panics was taken.
			in.extra = append(in.extra, b.avoidedSince(g, deferring(g, fr))...)
		}
	case trace.TagSend:
		ids := b.end(fr)
		if len(ids) > 0 {
			b.chans[e.Ref] = append(b.chans[e.Ref], ids[0])
			if len(e.Values) > 0 {
				b.value(ids[0], e.Values[0])
			}
		}
	case trace.TagRecv:
		if q := b.chans[e.Ref]; len(q) > 0 {
			in.extra = append(in.extra, q[0])
			b.chans[e.Ref] = q[1:]
		}
	}
}

// decision handles a decision record: the condition or case clause
// taken is complete when the branch is taken, so its <test> node is made
// then, and what runs next is control dependent on this very execution
// (a case clause whose tests read nothing gets its node too). Decisions
// of && and || operands are part of their condition's execution: they
// say which operands ran (shortCircuited).
func (b *builder) decision(g *goroutine, fr *frame, u *unit, pos token.Pos, site trace.Site) {
	if u.kind != UnitCond {
		return
	}
	if _, isCase := u.node.(*ast.CaseClause); isCase && fr.fell {
		fr.fell = false
		return
	}
	if fr.cur == nil || fr.cur.u != u {
		b.end(fr)
		fr.cur = b.instance(u, pos)
	}
	b.end(fr)
	if u.ifs != nil && (site.Info == "if true" || site.Info == "if false") && b.view.relevance() {
		untaken := u.branchWrites()[0]
		if site.Info == "if true" {
			untaken = u.branchWrites()[1]
		}
		for _, k := range untaken {
			// Noted in the frame that holds the variable: a closure's
			// if is read after in its enclosing function.
			h, _ := fr.holder(k)
			if h == nil {
				h = fr
			}
			if h.potential == nil {
				h.potential = map[string]int{}
			}
			h.potential[k] = fr.units[u.id].dec
		}
		b.avoid(g, fr, u, site.Info == "if true")
	}
	if b.view.relevance() && (site.Info == "if true" || site.Info == "if false" || site.Info == "for true" || site.Info == "for false") {
		b.decided(fr, u, strings.HasSuffix(site.Info, " true"))
	}
}

// branchWrites returns the keys of the variables an if's then and else
// branches assign (=, op=, ++ and --; not := nor what function literals
// assign), found once.
func (u *unit) branchWrites() [2][]string {
	if u.branches != nil {
		return *u.branches
	}
	var out [2][]string
	f := u.fn.file
	for i, n := range []ast.Node{u.ifs.Body, u.ifs.Else} {
		if n == nil {
			continue
		}
		seen := map[string]bool{}
		add := func(l ast.Expr) {
			if r := rootIdent(l); r != nil && r.Name != "_" {
				if k := f.key(r); !seen[k] {
					seen[k] = true
					out[i] = append(out[i], k)
				}
			}
		}
		ast.Inspect(n, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE {
					for _, l := range x.Lhs {
						add(l)
					}
				}
			case *ast.IncDecStmt:
				add(x.X)
			}
			return true
		})
	}
	u.branches = &out
	return out
}

// stepTarget is what a statement's step starts: the unit that runs
// first in it, nil when the statement evaluates nothing as it starts (a
// block, "for {", "for ; ; i++", break), and the function holding it.
type stepTarget struct {
	u     *unit
	fn    *function
	fall  bool // a fallthrough statement
	known bool // found (builder.steps)
}

// stepUnit returns what a statement's step starts: the unit of the
// statement itself, or of what its header evaluates first (an if's or
// switch's init, else its condition or tag, a for loop's init, else its
// condition; never a unit of its body, which steps on its own, nor a for
// loop's post statement, which runs after the body).
func (b *builder) stepUnit(site int) stepTarget {
	if b.steps[site].known {
		return b.steps[site]
	}
	st := stepTarget{known: true}
	s := b.sites[site]
	if f := b.src.file(s.File); f != nil {
		pos, end := f.pos(s.Line, s.Col), f.pos(s.EndLine, s.EndCol)
		if fn := f.innermostFunc(pos); fn != nil {
			st.fn = fn
			if stmt := fn.stmtAt(pos, end); stmt != nil {
				st.u = fn.unitOf(firstEvaluated(stmt))
				br, ok := stmt.(*ast.BranchStmt)
				st.fall = ok && br.Tok == token.FALLTHROUGH
			} else {
				// Not a statement of the source as parsed: the first
				// unit at or after its start.
				for _, u := range fn.units {
					if u.kind != UnitJoin && u.pos >= pos && (end <= pos || u.pos < end) && (st.u == nil || u.pos < st.u.pos) {
						st.u = u
					}
				}
			}
		}
	}
	b.steps[site] = st
	return st
}

// isCheck reports whether a callee as written in f is a test's failure
// report: t.Errorf, not fmt.Errorf (a package f imports).
func (f *file) isCheck(callee string) bool {
	i := strings.LastIndexByte(callee, '.')
	if i < 0 || f.imported(callee[:i]) {
		return false
	}
	switch callee[i+1:] {
	case "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow":
		return true
	}
	return false
}

// at returns the instance of u an event (tag, at site) at pos belongs
// to, ending the frame's current instance when the event starts a new
// one.
func (b *builder) at(fr *frame, u *unit, pos token.Pos, tag byte, site int) *instance {
	in := fr.cur
	if in != nil && in.u == u {
		restart := false
		switch tag {
		case trace.TagWrite:
			restart = in.wrote[site]
		case trace.TagReturn, trace.TagRecover, trace.TagRecv:
		case trace.TagRead, trace.TagCall:
			if in.stepped {
				break
			}
			fallthrough
		default:
			restart = len(in.wrote) > 0 || pos < in.lastPos || pos == in.lastPos && in.lastEv == [2]int{int(tag), site}
		}
		if !restart {
			if tag != trace.TagWrite && tag != trace.TagReturn && pos > in.lastPos {
				in.lastPos = pos
			}
			in.lastEv = [2]int{int(tag), site}
			return in
		}
	}
	b.end(fr)
	in = b.instance(u, pos)
	in.lastEv = [2]int{int(tag), site}
	fr.cur = in
	return in
}

// deferring returns the frame under fr on g's stack: the frame that
// deferred fr's function when fr recovers a panic (nil if none).
func deferring(g *goroutine, fr *frame) *frame {
	for i := len(g.stack) - 1; i > 0; i-- {
		if g.stack[i] == fr {
			return g.stack[i-1]
		}
	}
	return nil
}
