package deps

import (
	"go/ast"
	"go/token"
	"slices"
	"strconv"

	"github.com/culprit-go/culprit/trace"
)

// A read plan is what the replay needs of an expression's syntax to
// resolve its reads, found once per expression (and assigned operands)
// instead of at each execution: the identifiers it reads with their
// keys, its calls, and its element, field and dereference operands.
type readPlan struct {
	pos, end token.Pos
	idents   []planIdent
	calls    []planCall // every call in the expression
	mems     []planMem  // element, field and dereference operands read (not assigned), outside function literals
	// assignedRoots are the roots (indexes in idents) of the assigned
	// operands that are not plain variables; addrOf the variables whose
	// address the expression takes (&x).
	assignedRoots []int
	addrOf        []int
}

type planIdent struct {
	pos    token.Pos
	key    string // file.key
	header bool   // read for its length alone (len(x), cap(x))
	// where the variable lives as seen from fn, the function whose frames
	// evaluate the plan's node (function.scopeOf, kept: a map lookup by
	// key at every read otherwise)
	fn    *function
	scope scopeOf
}

type planCall struct{ pos, lparen, rparen token.Pos }

type planMem struct {
	pos    token.Pos
	root   int  // the root variable's index in idents, -1 when it is not one of them
	direct bool // an element of the root variable itself: xs[i]
	// index is the index of such an element when it is a constant: xs[2]
	// (-1 otherwise), for reads whose location the trace does not name.
	index int64
}

type planKey struct {
	n  ast.Node
	a  ast.Expr // the first assigned operand
	na int      // how many are assigned
}

// keyOf is the key of expression n with the operands assigned.
func keyOf(n ast.Node, assigned []ast.Expr) planKey {
	k := planKey{n: n, na: len(assigned)}
	if len(assigned) > 0 {
		k.a = assigned[0]
	}
	return k
}

// plan returns the read plan of n in f with the operands assigned.
func (p *program) plan(f *file, n ast.Node, assigned []ast.Expr) *readPlan {
	k := keyOf(n, assigned)
	if rp, ok := p.plans[k]; ok {
		return rp
	}
	rp := &readPlan{pos: n.Pos(), end: n.End()}
	index := map[*ast.Ident]int{}
	header := lengthOperands(n)
	for i, id := range idents(n, assigned) {
		index[id] = i
		rp.idents = append(rp.idents, planIdent{pos: id.Pos(), key: f.key(id), header: header[id]})
	}
	at := func(id *ast.Ident) int {
		if i, ok := index[id]; ok && id != nil {
			return i
		}
		return -1
	}
	isAssigned := map[ast.Node]bool{}
	for _, l := range assigned {
		isAssigned[ast.Unparen(l)] = true
		if _, plain := ast.Unparen(l).(*ast.Ident); !plain {
			if i := at(rootIdent(l)); i >= 0 {
				rp.assignedRoots = append(rp.assignedRoots, i)
			}
		}
	}
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.CallExpr:
			rp.calls = append(rp.calls, planCall{x.Pos(), x.Lparen, x.Rparen})
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND {
				if i := at(id); i >= 0 {
					rp.addrOf = append(rp.addrOf, i)
				}
			}
		}
		return true
	})
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
			e := x.(ast.Expr)
			if isAssigned[e] {
				return true
			}
			if r := rootIdent(e); r != nil {
				m := planMem{pos: e.Pos(), root: at(r), index: -1}
				if ix, ok := e.(*ast.IndexExpr); ok {
					m.direct = ast.Unparen(ix.X) == r && m.root >= 0
					if lit, ok := ast.Unparen(ix.Index).(*ast.BasicLit); ok && m.direct && lit.Kind == token.INT {
						if i, err := strconv.ParseInt(lit.Value, 0, 64); err == nil {
							m.index = i
						}
					}
				}
				rp.mems = append(rp.mems, m)
			}
		}
		return true
	})
	if p.plans == nil {
		p.plans = map[planKey]*readPlan{}
	}
	p.plans[k] = rp
	return rp
}

// Root states of the identifiers of a read (builder.reads).
const (
	rootAny     = iota // not the root of an operand read through memory
	rootOnlyMem        // the memory answered: the variable's own definitions are not read
	rootMissed         // the memory did not answer: its located definitions are left out
)

// reads returns the nodes the expression n reads in fr, as the instance
// in evaluates it (in may be nil): the definitions of its variables (for
// an element, field or dereference read whose storage the trace names,
// what was last written there), the return values of its calls whose
// callee returned (their arguments are read by the callee's parameters),
// and what callbacks made under its calls into code that is not
// instrumented returned. The operands assigned are not read (but what
// they index is).
func (b *builder) reads(fr *frame, n ast.Node, assigned []ast.Expr, in *instance) []int {
	return b.view.reads(fr, n, assigned, in)
}

// reads is builder.reads for summary graphs.
func (b *summary) reads(fr *frame, n ast.Node, assigned []ast.Expr, in *instance) []int {
	var rp *readPlan
	if k := keyOf(n, assigned); in != nil && in.u.readPlan != nil && in.u.readKey == k {
		rp = in.u.readPlan
	} else {
		rp = b.plan(fr.fn.file, n, assigned)
		if in != nil && n == in.u.node && fr.fn.file == in.u.fn.file {
			in.u.readPlan, in.u.readKey = rp, k
		}
	}
	b.seenGen++
	if len(b.seen) < len(b.g.Nodes) {
		b.seen = append(b.seen, make([]uint32, len(b.g.Nodes)-len(b.seen))...)
	}
	out := b.outScratch[:0]
	add := func(id int) {
		if b.seen[id] != b.seenGen {
			b.seen[id] = b.seenGen
			out = append(out, id)
		}
	}
	skip := b.skipScratch[:0]
	if in != nil && len(in.ops) > 0 {
		from := len(skip)
		skip = b.shortCircuited(skip, n, in.ops)
		for i := from; i < len(skip); i++ {
			skip[i][0]-- // open: the operand's first identifier is inside
		}
	}
	if in != nil && len(in.rets) > 0 {
		for _, c := range rp.calls {
			if _, ok := in.rets[c.pos]; ok {
				skip = append(skip, [2]token.Pos{c.lparen, c.rparen})
			}
		}
	}
	b.skipScratch = skip
	roots := b.rootScratch[:0]
	for range rp.idents {
		roots = append(roots, rootAny)
	}
	b.rootScratch = roots
	for _, i := range rp.assignedRoots {
		roots[i] = rootMissed
	}
	if in != nil {
		for _, m := range rp.mems {
			l, ok := in.rloc[m.pos]
			if !ok {
				if m.index >= 0 && len(b.appends) > 0 {
					// A constant index, its storage not recorded: what
					// append left there, if known.
					if elem := b.appendedElem(fr, rp.idents[m.root].key, m.index); elem != nil {
						for _, d := range elem {
							add(d)
						}
						roots[m.root] = rootOnlyMem
					}
				}
				continue
			}
			k, ok := locKey(l)
			if !ok {
				continue
			}
			b.siblings(l, k, add)
			defs, hit := b.mem[k]
			if !hit && m.direct && l.Kind == trace.LocElem && len(b.appends) > 0 {
				// An element of an array append made: what it knows.
				if elem := b.appendedElem(fr, rp.idents[m.root].key, l.Index); elem != nil {
					for _, d := range elem {
						add(d)
					}
					roots[m.root] = rootOnlyMem
					continue
				}
			}
			if !hit {
				if m.root >= 0 && roots[m.root] == rootAny {
					roots[m.root] = rootMissed
				}
				continue
			}
			b.addSorted(defs, add, nil)
			if m.root >= 0 {
				roots[m.root] = rootOnlyMem
			}
		}
	}
	for _, i := range rp.addrOf {
		roots[i] = rootOnlyMem
	}
ids:
	for i := range rp.idents {
		id := &rp.idents[i]
		for _, r := range skip {
			if r[0] < id.pos && id.pos < r[1] {
				continue ids
			}
		}
		root := roots[i]
		if root == rootOnlyMem {
			continue
		}
		if id.fn != fr.fn {
			id.fn, id.scope = fr.fn, fr.fn.scopeOf(id.key)
		}
		h, sc := fr.holderIn(id.scope), id.scope
		pf := h // where decisions that skipped an assignment of it are
		if pf == nil {
			pf = fr
		}
		if d, ok := pf.potential[id.key]; ok && d >= 0 {
			add(d)
		}
		defs := b.lookupIn(h, sc, id.key)
		if len(defs) == 0 {
			if d := b.declaration(fr, id.key); d >= 0 {
				if d >= len(b.seen) { // a node made now
					b.seen = append(b.seen, make([]uint32, d+1-len(b.seen))...)
				}
				add(d)
			}
		}
		b.addSorted(defs, add, func(d int) bool {
			return root == rootMissed && b.located[d] || id.header && b.elemOnly[d]
		})
	}
	if in != nil {
		if len(in.rets) > 0 {
			poss := b.posScratch[:0]
			for p := range in.rets {
				if rp.pos <= p && p < rp.end {
					poss = append(poss, p)
				}
			}
			slices.Sort(poss)
			for _, p := range poss {
				add(in.rets[p])
			}
			b.posScratch = poss
		}
		for _, id := range in.callbacks(n) {
			add(id)
		}
	}
	b.outScratch = out[:0]
	if len(out) == 0 {
		return nil
	}
	// Copied out (its callers keep it), capped so that appending to it
	// copies: from a chunk shared by many reads, not an allocation each.
	return b.keepInts(out)
}

// keepInts returns a copy of ids that its holder may keep, taken from
// a chunk shared with other copies (its capacity its length, so that an
// append copies it out).
func (b *builder) keepInts(ids []int) []int {
	n := len(ids)
	if n > intChunk/8 {
		return append(make([]int, 0, n), ids...)
	}
	if len(b.intArena)+n > cap(b.intArena) {
		b.intArena = make([]int, 0, intChunk)
	}
	start := len(b.intArena)
	b.intArena = append(b.intArena, ids...)
	return b.intArena[start : start+n : start+n]
}

// intChunk is the size of keepInts's chunks, in ints.
const intChunk = 1 << 14

// addSorted adds the definitions of defs that leave does not leave out
// (nil: none), in increasing order.
func (b *builder) addSorted(defs defSet, add func(int), leave func(int) bool) {
	for _, d := range defs {
		if leave == nil || !leave(d) {
			add(d)
		}
	}
}

// instance returns an execution of u starting at pos, reusing one that
// ended: an execution is made per statement run, the hot path of a
// replay.
func (b *builder) instance(u *unit, pos token.Pos) *instance {
	var in *instance
	if n := len(b.free); n > 0 {
		in, b.free = b.free[n-1], b.free[:n-1]
	} else {
		in = &instance{}
	}
	in.u, in.lastPos = u, pos
	return in
}

// release takes back an ended instance (no one holds it any more),
// keeping its slices and its small maps, emptied (small).
func (b *builder) release(in *instance) {
	keep := instance{wrote: small(in.wrote), rets: small(in.rets), values: in.values[:0], rloc: small(in.rloc), wloc: small(in.wloc), refs: small(in.refs), calls: small(in.calls), extra: in.extra[:0], opNodes: in.opNodes[:0], ops: small(in.ops), opDone: small(in.opDone)}
	*in = keep
	b.free = append(b.free, in)
}

// small returns m emptied, or nil when it held more than a map's
// smallest table does: clearing a map costs its capacity, not its
// length, and an instance reused after a statement of many reads would
// clear that capacity on every statement after it.
func small[K comparable, V any](m map[K]V) map[K]V {
	if len(m) > 8 {
		return nil
	}
	clear(m)
	return m
}

// namedValue is a value an instance wrote, with its write site's name.
type namedValue struct {
	name string
	v    trace.Value
}

// lastValue returns the latest value the instance wrote under name.
func (in *instance) lastValue(name string) (trace.Value, bool) {
	for i := len(in.values) - 1; i >= 0; i-- {
		if in.values[i].name == name {
			return in.values[i].v, true
		}
	}
	return trace.Value{}, false
}
