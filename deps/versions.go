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
	count  map[string]int            // Func + "\x00" + Var -> versions made so far
	elems  map[string]map[string]int // variable scope -> element or field name -> its latest definition
	inputs map[string]int            // element reads nothing defined, by name and collection version
	sites  map[nodeKey]siteVersions  // per site and name: its versions
	reused int                       // definitions given a site's latest version
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

// scope names the variable root as seen from fr: the frame (or package)
// holding it, and its name.
func (b *versioned) scope(fr *frame, root string) string {
	for f := fr; f != nil; f = f.lex {
		if f.fn.owns(root) {
			// By the frame's serial, not its address: a frame's
			// memory may be a later frame's once it is collected.
			return strconv.Itoa(f.serial) + "\x00" + root
		}
	}
	name, _ := splitKey(root)
	return fmt.Sprintf("%s\x00%s", fr.fn.file.path[:strings.LastIndexByte(fr.fn.file.path+"/", '/')], name)
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
		if in == nil || in.read == nil {
			return "", "", false
		}
		v, ok := in.read[i.Pos()]
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
	seen := map[int]bool{}
	add := func(id int) {
		if id >= 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	isAssigned := map[ast.Node]bool{}
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
	claimed := map[*ast.Ident]bool{}
	defsOf := func(x ast.Node, assigned []ast.Expr) []int {
		var ids []int
		for _, id := range b.idents(x, assigned) {
			if claimed[id] {
				continue
			}
			defs := b.lookup(fr, fr.fn.file.key(id))
			var ds []int
			for d := range defs {
				ds = append(ds, d)
			}
			sort.Ints(ds)
			ids = append(ids, ds...)
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
	for d := range defs {
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
	for d := range b.lookup(fr, ck) {
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
	if in != nil && in.read != nil {
		if v, ok := in.read[x.Pos()]; ok && !b.collValue(v, base) {
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
	for d := range b.lookup(fr, f.key(first)) {
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
