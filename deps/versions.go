package deps

import (
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// versioned is the view of execution-level graphs (Options.Versions):
// every definition is a node of its own, numbered per variable as in
// SSA; constants, calls into code that is not instrumented and elements
// read by a known index are nodes too.
//
// The graph grows with the run, so a site's versions are bounded: past
// MaxVersions definitions at one site, its latest version stands for
// the later ones (their values, dependencies and count are added to
// it), and the graph is that of a run sampled as culprit slice samples
// (a hot loop's late iterations summarized). And so are all the
// nodes, by the trace's size (Options.MaxNodes): each time the nodes
// reach the budget (then half the headroom left, then half that...),
// the positions that made the most versions stop making new ones, at
// half the most any made, and the latest version made at a position
// stands for later definitions there (the elements named by their
// index there, "xs[1234]", count as one name). The hot
// loops are summarized first, the rest of the run keeps its versions;
// the memory is bounded by the budget and the program, not by the run.
type versioned struct {
	*builder
	count  map[string]int              // Func + "\x00" + Var -> versions made so far
	elems  map[scopeKey]map[string]int // variable scope -> element or field name -> its latest definition
	inputs map[string]int              // element reads nothing defined, by name and collection version
	sites  map[nodeKey]siteVersions    // per site and name: its versions
	reused int                         // definitions given a site's latest version
	// The budget of nodes (0: none): positions and their versions,
	// the cap on a position's versions once the nodes reached it (0:
	// none yet), the node count at which the cap halves next, and the
	// definitions given a position's latest version.
	budget, limit, next, merged, rounds int
	atPos                               map[posKey]siteVersions
	// Definitions joined (join): how many joins, of how many
	// definitions, the first where.
	joins, joined int
	joinedAt      string
	// idents' answers, by expression and assigned operands: the syntax
	// is walked once, not at each execution.
	identsOf map[planKey][]*ast.Ident
	steps    map[ast.Node][]walkStep // walk's steps, by expression
	scratch  readScratch             // reads' sets, kept from one statement to the next
}

// readScratch holds the sets reads fills, emptied and used again at each
// statement rather than made anew (busy: in use, by a reads that is
// running).
type readScratch struct {
	seen       map[int]bool
	isAssigned map[ast.Node]bool
	claimed    map[*ast.Ident]bool
	busy       bool
}

// take returns sc's sets, emptied, or new ones when sc is in use.
func (sc *readScratch) take() *readScratch {
	if sc.busy {
		return &readScratch{seen: map[int]bool{}, isAssigned: map[ast.Node]bool{}, claimed: map[*ast.Ident]bool{}, busy: true}
	}
	if sc.seen == nil {
		sc.seen, sc.isAssigned, sc.claimed = map[int]bool{}, map[ast.Node]bool{}, map[*ast.Ident]bool{}
	}
	clear(sc.seen)
	clear(sc.isAssigned)
	clear(sc.claimed)
	sc.busy = true
	return sc
}

// done releases sc; sets a large statement grew are let go, so that
// emptying them does not cost every later statement their size.
func (sc *readScratch) done() {
	sc.busy = false
	if len(sc.seen) > 256 || len(sc.isAssigned) > 256 || len(sc.claimed) > 256 {
		sc.seen = nil
	}
}

// A walkStep is a node of an expression callNodes looks at, in the
// order ast.Inspect visits them, with the index of the first step after
// its subtree.
type walkStep struct {
	n    ast.Node
	skip int
}

// walk visits n's nodes as ast.Inspect does (a node whose visit returns
// false has its subtree skipped), only those callNodes looks at:
// literals, calls, composite literals, element, field and dereference
// reads. The steps are found once per expression, not at each
// execution.
func (b *versioned) walk(n ast.Node, visit func(ast.Node) bool) {
	steps, ok := b.steps[n]
	if !ok {
		steps = walkSteps(n)
		if b.steps == nil {
			b.steps = map[ast.Node][]walkStep{}
		}
		b.steps[n] = steps
	}
	for i := 0; i < len(steps); {
		if visit(steps[i].n) {
			i++
		} else {
			i = steps[i].skip
		}
	}
}

// walkSteps returns the steps of walk over n. (Apart from walk, so that
// walk's own variables stay on its stack at every execution.)
func walkSteps(n ast.Node) []walkStep {
	var steps []walkStep
	var open []int // for each node entered, its step (-1: none)
	ast.Inspect(n, func(m ast.Node) bool {
		if m == nil {
			if i := open[len(open)-1]; i >= 0 {
				steps[i].skip = len(steps)
			}
			open = open[:len(open)-1]
			return true
		}
		switch m.(type) {
		case *ast.FuncLit:
			steps = append(steps, walkStep{m, len(steps) + 1})
			return false
		case *ast.BasicLit, *ast.CallExpr, *ast.CompositeLit, *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
			open = append(open, len(steps))
			steps = append(steps, walkStep{n: m})
		default:
			open = append(open, -1)
		}
		return true
	})
	return steps
}

// idents is idents(n, assigned), found once per expression.
func (b *versioned) idents(n ast.Node, assigned []ast.Expr) []*ast.Ident {
	k := keyOf(n, assigned)
	if ids, ok := b.identsOf[k]; ok {
		return ids
	}
	ids := idents(n, assigned)
	if b.identsOf == nil {
		b.identsOf = map[planKey][]*ast.Ident{}
	}
	b.identsOf[k] = ids
	return ids
}

// A scopeKey names a variable as scope does.
type scopeKey struct {
	serial int    // the frame holding it, -1 for a package-level variable
	root   string // its key in the frame, or "dir\x00name" at package level
}

// scope names the variable root as seen from fr: the frame (or package)
// holding it, and its name.
func (b *versioned) scope(fr *frame, root string) scopeKey {
	for f := fr; f != nil; f = f.lex {
		if f.fn.owns(root) {
			// By the frame's serial, not its address: a frame's
			// memory may be a later frame's once it is collected.
			return scopeKey{f.serial, root}
		}
	}
	name, _ := splitKey(root)
	return scopeKey{-1, fr.fn.file.path[:strings.LastIndexByte(fr.fn.file.path+"/", '/')] + "\x00" + name}
}

// elemName names the element an index expression denotes when its index
// is known: a constant, or a variable whose read the trace recorded.
func (b *versioned) elemName(f *file, x *ast.IndexExpr, in *instance) (string, string, bool) {
	coll, ok := collName(x.X)
	if !ok {
		return "", "", false
	}
	var idx string
	switch i := ast.Unparen(x.Index).(type) {
	case *ast.BasicLit:
		idx = i.Value
	case *ast.Ident:
		if in == nil {
			return "", "", false
		}
		v, ok := in.read.get(i.Pos())
		if !ok || (v.Tag != trace.ValInt && v.Tag != trace.ValUint && v.Tag != trace.ValString) {
			return "", "", false
		}
		idx = v.String()
	default:
		return "", "", false
	}
	return coll + "[" + idx + "]", coll, true
}

// collName names the collection an index expression reads: a variable
// ("xs"), or a variable of another package ("os.Args": an identifier the
// parser did not resolve, qualified by one).
func collName(x ast.Expr) (string, bool) {
	switch c := ast.Unparen(x).(type) {
	case *ast.Ident:
		return c.Name, true
	case *ast.SelectorExpr:
		if pkg, ok := c.X.(*ast.Ident); ok && pkg.Obj == nil {
			return pkg.Name + "." + c.Sel.Name, true
		}
	}
	return "", false
}

// typeNames are identifiers that, called, convert rather than call.
var typeNames = map[string]bool{
	"bool": true, "byte": true, "rune": true, "string": true, "error": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true,
}

// conversion reports whether a call expression looks like a conversion.
func conversion(c *ast.CallExpr) bool {
	switch fn := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		return typeNames[fn.Name]
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StarExpr:
		return true
	}
	return false
}

// reads is builder.reads for execution-level graphs: besides the
// definitions of the variables n reads and the return values of its
// instrumented calls, it returns constant leaves, a node per call into
// code that is not instrumented (depending on what the call reads), and
// element nodes for elements read by a known index or field.
func (b *versioned) reads(fr *frame, n ast.Node, assigned []ast.Expr, in *instance) []int {
	var out []int
	sc := b.scratch.take()
	defer sc.done()
	seen, isAssigned, claimed := sc.seen, sc.isAssigned, sc.claimed
	add := func(id int) {
		if id >= 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, l := range assigned {
		isAssigned[ast.Unparen(l)] = true
	}
	var top ast.Node // a statement's own call is not a node: the statement is
	switch s := n.(type) {
	case *ast.ExprStmt:
		top = ast.Unparen(s.X)
	case *ast.GoStmt:
		top = s.Call
	case *ast.DeferStmt:
		top = s.Call
	}
	returned := func(c *ast.CallExpr) bool {
		if in == nil {
			return false
		}
		_, ok := in.rets[c.Pos()]
		return ok
	}
	// defsOf returns the definitions of the identifiers in x not claimed.
	defsOf := func(x ast.Node, assigned []ast.Expr) []int {
		var ids []int
		for _, id := range b.idents(x, assigned) {
			if claimed[id] {
				continue
			}
			start := len(ids)
			for _, d := range b.lookup(fr, fr.fn.file.key(id)) {
				ids = append(ids, d)
			}
			sort.Ints(ids[start:])
		}
		return ids
	}
	claim := func(x ast.Node) {
		for _, id := range b.idents(x, nil) {
			claimed[id] = true
		}
	}
	b.callNodes(fr, n, top, assigned, in, returned, defsOf, claim, claimed, isAssigned, add)
	for _, d := range defsOf(n, assigned) {
		add(d)
	}
	if c, ok := top.(*ast.CallExpr); ok && in != nil {
		for _, id := range in.cbs[c.Pos()] {
			add(id)
		}
	}
	return out
}

// callNodes walks n: constants, element and field reads, instrumented
// calls' return values and nodes for other calls go to add, and the
// identifiers they account for are claimed.
func (b *versioned) callNodes(fr *frame, n, top ast.Node, assigned []ast.Expr, in *instance,
	returned func(*ast.CallExpr) bool, defsOf func(ast.Node, []ast.Expr) []int,
	claim func(ast.Node), claimed map[*ast.Ident]bool, isAssigned map[ast.Node]bool, add func(int)) {
	f := fr.fn.file
	b.walk(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BasicLit:
			add(b.constant(f, m, fr.fn))
		case *ast.CallExpr:
			if m == top || conversion(m) {
				return true
			}
			if returned(m) {
				add(in.rets[m.Pos()])
				claimArgs(m, claim)
				if sel, ok := m.Fun.(*ast.SelectorExpr); ok {
					b.callNodes(fr, sel.X, nil, nil, in, returned, defsOf, claim, claimed, isAssigned, add)
					for _, d := range defsOf(sel.X, nil) {
						add(d)
					}
					claim(sel.X)
				}
				return false
			}
			var from []int
			b.callNodes(fr, m, m, nil, in, returned, defsOf, claim, claimed, isAssigned, func(id int) { from = append(from, id) })
			from = append(from, defsOf(m, nil)...)
			if in != nil {
				from = append(from, in.cbs[m.Pos()]...) // what its callbacks returned
			}
			claim(m)
			id := b.fresh(callText(f, m), f, m.Pos(), fr.fn)
			b.g.Nodes[id].Call = true
			if in != nil {
				if in.callIDs == nil {
					in.callIDs = map[token.Pos]int{}
				}
				in.callIDs[m.End()] = id
			}
			b.g.Nodes[id].Count++
			for _, s := range from {
				b.edge(s, id, Data)
			}
			add(id)
			return false
		case *ast.CompositeLit:
			label, ok := compositeName(f, m)
			if !ok {
				return true
			}
			var from []int
			for _, e := range m.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if _, field := kv.Key.(*ast.Ident); !field {
						b.callNodes(fr, kv.Key, nil, nil, in, returned, defsOf, claim, claimed, isAssigned, func(id int) { from = append(from, id) })
						from = append(from, defsOf(kv.Key, nil)...)
					}
					e = kv.Value
				}
				b.callNodes(fr, e, nil, nil, in, returned, defsOf, claim, claimed, isAssigned, func(id int) { from = append(from, id) })
				from = append(from, defsOf(e, nil)...)
			}
			claim(m)
			id := b.fresh(label, f, m.Pos(), fr.fn)
			b.g.Nodes[id].Count++
			for _, s := range from {
				b.edge(s, id, Data)
			}
			add(id)
			return false
		case *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
			if ids := b.memRead(m.(ast.Expr), isAssigned, in); ids != nil {
				if named, ok := b.namedElem(fr, m.(ast.Expr), in); ok && wholeVar(b.g, ids, m.(ast.Expr)) {
					// The storage of a variable's first element or field
					// is the variable's: the element a composite literal
					// defined is the one read.
					ids = []int{named}
				}
				for _, id := range ids {
					add(id)
				}
				claimRoot(m.(ast.Expr), claimed)
				_, index := m.(*ast.IndexExpr)
				return index // an index is read too (the root is claimed)
			}
		}
		switch m := m.(type) {
		case *ast.IndexExpr:
			if isAssigned[m] {
				return true
			}
			name, coll, ok := b.elemName(f, m, in)
			if !ok {
				return true
			}
			add(b.elemRead(fr, m, name, coll, in))
			claim(m)
			return false
		case *ast.SelectorExpr:
			if isAssigned[m] {
				return true
			}
			if root, ok := ast.Unparen(m.X).(*ast.Ident); ok {
				if id, ok := b.elems[b.scope(fr, f.key(root))][f.text(m)]; ok {
					add(id)
					claimed[root] = true
					return false
				}
			}
		}
		return true
	})
}

// memRead returns the definitions last written at the storage an
// element, field or dereference read e recorded, nil when it recorded
// none or no instrumented code wrote there.
func (b *versioned) memRead(e ast.Expr, isAssigned map[ast.Node]bool, in *instance) []int {
	if isAssigned[e] || in == nil || in.rloc == nil {
		return nil
	}
	l, ok := in.rloc[e.Pos()]
	if !ok {
		return nil
	}
	k, ok := locKey(l)
	if !ok {
		return nil
	}
	defs, hit := b.mem[k]
	if !hit {
		return nil
	}
	ids := make([]int, 0, len(defs))
	for _, d := range defs {
		ids = append(ids, d)
	}
	sort.Ints(ids)
	return ids
}

// claimRoot claims the root identifier of e: its storage answered.
func claimRoot(e ast.Expr, claimed map[*ast.Ident]bool) {
	if r := rootIdent(e); r != nil {
		claimed[r] = true
	}
}

// claimArgs claims the identifiers inside a call's parentheses: the
// callee's parameters depend on them, the call's value does not.
func claimArgs(c *ast.CallExpr, claim func(ast.Node)) {
	for _, a := range c.Args {
		claim(a)
	}
}

// callText names a call node by its source: "len(xs)", "strings.ToUpper(s)".
func callText(f *file, c *ast.CallExpr) string {
	t := f.text(c)
	if len(t) > 40 || strings.ContainsAny(t, "\n\t") {
		return callName(f, c)
	}
	return t
}

// constant returns the leaf node of a literal at its site.
func (b *versioned) constant(f *file, lit *ast.BasicLit, fn *function) int {
	id := b.node(lit.Value, f, lit.Pos(), fn)
	n := b.g.Nodes[id]
	n.Const = true
	if n.Count == 0 {
		n.Count = 1
		b.value(id, constValue(lit))
	}
	return id
}

// constValue is a literal's value as the trace would show it.
func constValue(lit *ast.BasicLit) trace.Value {
	switch lit.Kind {
	case token.INT:
		if v, err := strconv.ParseInt(lit.Value, 0, 64); err == nil {
			return trace.Value{Tag: trace.ValInt, Int: v}
		}
	case token.FLOAT:
		if v, err := strconv.ParseFloat(lit.Value, 64); err == nil {
			return trace.Value{Tag: trace.ValFloat, Float: v}
		}
	case token.STRING:
		if v, err := strconv.Unquote(lit.Value); err == nil {
			s := v
			if len(s) > trace.MaxString {
				s = s[:trace.MaxString]
			}
			return trace.Value{Tag: trace.ValString, Str: s, Len: len(v)}
		}
	case token.CHAR:
		if v, _, _, err := strconv.UnquoteChar(lit.Value[1:len(lit.Value)-1], '\''); err == nil {
			return trace.Value{Tag: trace.ValInt, Int: int64(v)}
		}
	}
	return trace.Value{}
}
