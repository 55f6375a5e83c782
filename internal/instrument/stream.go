package instrument

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"hash/fnv"
	"strings"

	"github.com/culprit-go/culprit/trace"
)

// Stream events: reads, writes, calls, panics, goroutines and channel
// operations. Values are captured by wrapping an expression in a call of
// a generic identity function of rt (R, W, Ret, Panic, Send, Recv), which
// keeps its type, or by a statement after the one that wrote them.
//
// Hazards, and what the rules below do about them:
//   - Evaluation order: the compiler reads a plain variable operand after
//     the calls of its expression (x + f() reads x after f; Go leaves the
//     order unspecified). A wrapped read is a call, evaluated in order: so
//     a read is wrapped only when no call or receive follows it in its
//     statement, or when no call can change what it reads and the read
//     cannot panic (safeLocals, safeStorage: a local variable never
//     captured by a closure and whose address is never taken, its fields,
//     its arrays' elements at constant indexes).
//   - Addressability: variables are not wrapped where they are assigned,
//     incremented, addressed (&x, x.f = v on a struct, a[i] = v on an
//     array, x[:] of an array), or select a method or field of a value
//     that is not a pointer.
//   - Untyped constants are never wrapped (only variables and calls are),
//     nor is anything inside a constant expression (len of an array,
//     unsafe.Sizeof).
//   - recover() stays directly in the deferred function: its result is
//     wrapped, not the call.

// Contexts of an expression.
const (
	ctxValue     = iota // a value
	ctxStmt             // the expression of an expression statement
	ctxMulti            // the sole right-hand side of a tuple assignment, or a lone return value
	ctxDeferred         // the call of a go or defer statement
	ctxComm             // a receive in a select case
	ctxMultiStmt        // ctxMulti, in a statement of a statement list
)

// funcKey identifies a function for linking a call site to the callee's
// entry: a hash of its full name, never 0 (0 is "not known").
func funcKey(f *types.Func) uint32 {
	h := fnv.New32a()
	h.Write([]byte(f.Origin().FullName()))
	k := h.Sum32()
	if k == 0 {
		k = 1
	}
	return k
}

// varSite adds a read or write site naming the variable v (nil: none),
// with v's declaring position.
func (r *fileRewriter) varSite(kind trace.Kind, from, to token.Pos, fn, info string, v types.Object) uint32 {
	a, b := r.position(from), r.position(to)
	s := trace.Site{Kind: kind, File: r.path, Line: a.Line, Col: a.Column, EndLine: b.Line, EndCol: b.Column, Func: fn, Info: info}
	if v != nil && v.Pos().IsValid() {
		d := r.position(v.Pos())
		s.DeclFile, s.DeclLine, s.DeclCol = d.Filename, d.Line, d.Column
		if r.fset.File(v.Pos()) == r.tokFile {
			s.DeclFile = r.path
		}
	}
	return r.sites.add(s)
}

// rootVar returns the variable an operand is rooted in: x of x, p.f,
// s[i].f, *p; nil when there is none (a call, a qualified identifier).
func (r *fileRewriter) rootVar(e ast.Expr) types.Object {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			if v, ok := r.info.ObjectOf(x).(*types.Var); ok {
				return v
			}
			return nil
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			if _, ok := r.info.Selections[x]; !ok {
				v, _ := r.info.Uses[x.Sel].(*types.Var) // pkg.Var
				if v == nil {
					return nil
				}
				return v
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

func exprText(r *fileRewriter, e ast.Expr) string {
	return string(r.src[r.offset(e.Pos()):r.offset(e.End())])
}

// wrap surrounds e with open and close text, at nesting depth.
func (r *fileRewriter) wrap(e ast.Expr, depth int, open, close string) {
	r.insert(r.offset(e.Pos()), false, depth, open)
	r.insert(r.offset(e.End()), true, -depth, close)
}

// walk instruments the expression e, evaluated as part of unit (the
// statement or condition whose evaluation it belongs to).
func (r *fileRewriter) walk(fs *funcState, e ast.Expr, unit ast.Node, depth int, ctx int) {
	if e == nil {
		return
	}
	if tv, ok := r.info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
		return // a type, or a constant expression: nothing runs
	}
	switch x := e.(type) {
	case *ast.Ident:
		r.read(fs, x, unit, depth)
	case *ast.FuncLit:
		r.lits[x.Body] = x
		r.funcBody(x.Type, nil, x.Body, fs.name+".func", fs, nil)
	case *ast.ParenExpr:
		r.walk(fs, x.X, unit, depth+1, ctx)
	case *ast.BinaryExpr:
		if (x.Op == token.LAND || x.Op == token.LOR) && (r.events&trace.EventBranch != 0 || r.decisions(fs)) {
			r.logical(fs, x)
			return
		}
		r.walk(fs, x.X, unit, depth+1, ctxValue)
		r.walk(fs, x.Y, unit, depth+1, ctxValue)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.AND:
			r.lvalueAt(fs, x.X, unit, depth+1)
			return
		case token.ARROW:
			r.walk(fs, x.X, unit, depth+1, ctxValue)
			if ctx != ctxMulti && ctx != ctxMultiStmt && ctx != ctxComm {
				r.recv(fs, x, depth)
			}
			return
		}
		r.walk(fs, x.X, unit, depth+1, ctxValue)
	case *ast.StarExpr:
		r.walk(fs, x.X, unit, depth+1, ctxValue)
		r.elemRead(fs, x, unit, depth)
	case *ast.SelectorExpr:
		if sel, ok := r.info.Selections[x]; ok {
			if sel.Kind() == types.FieldVal || sel.Kind() == types.MethodVal {
				if isPointerOrIface(r.info.TypeOf(x.X)) {
					r.walk(fs, x.X, unit, depth+1, ctxValue)
				} else {
					r.lvalueAt(fs, x.X, unit, depth+1) // a struct value: x.f is x's storage
				}
			}
			if sel.Kind() == types.FieldVal {
				r.elemRead(fs, x, unit, depth)
			}
			return
		}
		// A qualified identifier: a variable of another package is read
		// through its address.
		if _, ok := r.info.Uses[x.Sel].(*types.Var); ok {
			r.elemRead(fs, x, unit, depth)
		}
	case *ast.IndexExpr:
		r.indexBase(fs, x.X, unit, depth)
		r.walk(fs, x.Index, unit, depth+1, ctxValue)
		if ctx != ctxMulti && ctx != ctxMultiStmt {
			if tv, ok := r.info.Types[x.X]; ok && tv.IsValue() {
				r.elemRead(fs, x, unit, depth)
			}
		}
	case *ast.IndexListExpr:
		r.walk(fs, x.X, unit, depth+1, ctxValue)
	case *ast.SliceExpr:
		r.indexBase(fs, x.X, unit, depth)
		r.walk(fs, x.Low, unit, depth+1, ctxValue)
		r.walk(fs, x.High, unit, depth+1, ctxValue)
		r.walk(fs, x.Max, unit, depth+1, ctxValue)
	case *ast.TypeAssertExpr:
		r.walk(fs, x.X, unit, depth+1, ctxValue)
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if _, isStruct := under(r.info.TypeOf(x)).(*types.Struct); !isStruct {
					r.walk(fs, kv.Key, unit, depth+1, ctxValue)
				}
				r.walk(fs, kv.Value, unit, depth+1, ctxValue)
				continue
			}
			r.walk(fs, el, unit, depth+1, ctxValue)
		}
	case *ast.KeyValueExpr:
		r.walk(fs, x.Value, unit, depth+1, ctxValue)
	case *ast.CallExpr:
		r.call(fs, x, unit, depth, ctx)
	}
}

func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

func isPointerOrIface(t types.Type) bool {
	switch under(t).(type) {
	case *types.Pointer, *types.Interface:
		_, tp := t.(*types.TypeParam)
		return !tp
	}
	return false
}

// indexBase walks the operand of an index or slice expression: an array
// operand is storage (not wrapped), others are values.
func (r *fileRewriter) indexBase(fs *funcState, x ast.Expr, unit ast.Node, depth int) {
	switch t := r.info.TypeOf(x).(type) {
	case *types.TypeParam:
		r.lvalueAt(fs, x, unit, depth+1)
		return
	default:
		if _, ok := under(t).(*types.Array); ok {
			r.lvalueAt(fs, x, unit, depth+1)
			return
		}
	}
	r.walk(fs, x, unit, depth+1, ctxValue)
}

// lvalue walks an expression denoting storage: its variable is not
// wrapped, what it reads to find the storage is.
func (r *fileRewriter) lvalue(fs *funcState, e ast.Expr, unit ast.Node) { r.lvalueAt(fs, e, unit, 1) }

func (r *fileRewriter) lvalueAt(fs *funcState, e ast.Expr, unit ast.Node, depth int) {
	switch x := e.(type) {
	case nil:
	case *ast.Ident:
	case *ast.ParenExpr:
		r.lvalueAt(fs, x.X, unit, depth+1)
	case *ast.SelectorExpr:
		if _, ok := r.info.Selections[x]; !ok {
			return
		}
		if isPointerOrIface(r.info.TypeOf(x.X)) {
			r.walk(fs, x.X, unit, depth+1, ctxValue)
		} else {
			r.lvalueAt(fs, x.X, unit, depth+1)
		}
	case *ast.IndexExpr:
		r.indexBase(fs, x.X, unit, depth)
		r.walk(fs, x.Index, unit, depth+1, ctxValue)
	case *ast.StarExpr:
		r.walk(fs, x.X, unit, depth+1, ctxValue)
	default:
		r.walk(fs, e, unit, depth, ctxValue)
	}
}

// wantsValue reports whether values of type t are recorded by wrapping:
// not structs and arrays (a copy each time, and only their type is kept).
func wantsValue(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := under(t).(type) {
	case *types.Struct, *types.Array, *types.Tuple:
		return false
	case *types.Pointer:
		// A pointer to an array through a generic call's result crashes
		// the compiler when sliced (go1.26: "bad ptr to array in slice").
		if _, arr := under(u.Elem()).(*types.Array); arr {
			return false
		}
	}
	return true
}

// read wraps a variable read.
func (r *fileRewriter) read(fs *funcState, id *ast.Ident, unit ast.Node, depth int) {
	if !fs.stream || !fs.generic || r.events&trace.EventRead == 0 || id.Name == "_" {
		return
	}
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return
	}
	if !fs.safe[v] && r.callAfter(unit, id.End()) {
		return
	}
	if !wantsValue(v.Type()) {
		// A struct or array variable is read through its address (the
		// value is copied once, as plain), recording its type and where
		// it is.
		switch under(v.Type()).(type) {
		case *types.Struct, *types.Array:
			if fs.modern {
				site := r.varSite(trace.KindRead, id.Pos(), id.End(), fs.name, id.Name, v)
				fs.usesT = true
				r.wrap(id, depth, fmt.Sprintf("%s.RA(%s, %d, &", rtName, tName, site), ")")
			}
		}
		return
	}
	site := r.varSite(trace.KindRead, id.Pos(), id.End(), fs.name, id.Name, v)
	fs.usesT = true
	r.wrap(id, depth, fmt.Sprintf("%s.R(%s, %d, ", rtName, tName, site), ")")
}

// elemReads reports whether element, field and dereference reads are
// recorded in fs, at e: the wrappers are generic functions whose type
// arguments come from core types and untyped constants (go1.21), and a
// wrapped read runs before the calls that follow it, so none may, unless
// e is storage no call can change (safeStorage).
func (r *fileRewriter) elemReads(fs *funcState, e ast.Expr, unit ast.Node) bool {
	return fs.stream && fs.generic && fs.modern && r.events&trace.EventRead != 0 &&
		wantsValue(r.info.TypeOf(e)) && (!r.callAfter(unit, e.End()) || r.safeStorage(fs, e))
}

// addressable reports whether e denotes storage whose address can be
// taken: a variable, a field of addressable storage or through a pointer,
// a slice element, an element of an addressable array, a dereference.
func (r *fileRewriter) addressable(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		_, ok := r.info.ObjectOf(x).(*types.Var)
		return ok && x.Name != "_"
	case *ast.ParenExpr:
		return r.addressable(x.X)
	case *ast.StarExpr:
		return true
	case *ast.SelectorExpr:
		sel, ok := r.info.Selections[x]
		if !ok {
			_, isVar := r.info.Uses[x.Sel].(*types.Var)
			return isVar
		}
		if sel.Kind() != types.FieldVal {
			return false
		}
		if isPointerOrIface(r.info.TypeOf(x.X)) || sel.Indirect() {
			return true
		}
		return r.addressable(x.X)
	case *ast.IndexExpr:
		switch t := under(r.info.TypeOf(x.X)).(type) {
		case *types.Slice:
			return true
		case *types.Pointer:
			_, arr := under(t.Elem()).(*types.Array)
			return arr
		case *types.Array:
			return r.addressable(x.X)
		}
	}
	return false
}

// keyFits reports whether the index k of map type m can be passed as
// RK's or WK's key: an untyped constant (converted to the key type) or a
// value of the key type itself. A value of another type assignable to an
// interface key, a typed constant among them (gopher-lua's
// m[LString("key")] in a map[LValue]LValue), would make type inference
// fail: K inferred from it conflicts with the map's key type.
func (r *fileRewriter) keyFits(k ast.Expr, m *types.Map) bool {
	tv, ok := r.info.Types[k]
	if !ok || tv.IsNil() {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 && tv.Value != nil {
		return true // converted to the key type, as in the index
	}
	return types.Identical(tv.Type, m.Key())
}

// elemRead wraps the read of an element, a map entry, a field or a
// dereference, recording where it read: RE(t, site, s, i), RK(t, site,
// m, k), RA(t, site, &p.f).
func (r *fileRewriter) elemRead(fs *funcState, e ast.Expr, unit ast.Node, depth int) {
	if !r.elemReads(fs, e, unit) {
		return
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		if _, tp := r.info.TypeOf(x.X).(*types.TypeParam); tp {
			return
		}
		var fn, slice string
		switch t := under(r.info.TypeOf(x.X)).(type) {
		case *types.Slice:
			fn = "RE"
		case *types.Map:
			if !r.keyFits(x.Index, t) {
				return
			}
			fn = "RK"
		case *types.Array:
			if !r.addressable(x.X) {
				return
			}
			fn, slice = "RE", "[:]"
		case *types.Pointer:
			if _, arr := under(t.Elem()).(*types.Array); !arr {
				return
			}
			fn, slice = "RE", "[:]"
		default:
			return
		}
		site := r.varSite(trace.KindRead, x.Pos(), x.End(), fs.name, exprText(r, x), r.rootVar(x))
		fs.usesT = true
		r.usesRT = true
		r.insert(r.offset(x.Pos()), false, depth, fmt.Sprintf("%s.%s(%s, %d, ", rtName, fn, tName, site))
		if slice != "" {
			r.insert(r.offset(x.X.End()), true, -depth, slice)
		}
		r.replace(r.offset(x.Lbrack), r.offset(x.Lbrack)+1, ", ")
		r.replace(r.offset(x.Rbrack), r.offset(x.Rbrack)+1, ")")
	case *ast.SelectorExpr, *ast.StarExpr:
		if !r.addressable(x) {
			return
		}
		site := r.varSite(trace.KindRead, x.Pos(), x.End(), fs.name, exprText(r, x), r.rootVar(x))
		fs.usesT = true
		r.usesRT = true
		r.wrap(x, depth, fmt.Sprintf("%s.RA(%s, %d, &", rtName, tName, site), ")")
	}
}

// callAfter reports whether a call or receive of unit starts after pos:
// one that could change a variable read at pos before it is read.
func (r *fileRewriter) callAfter(unit ast.Node, pos token.Pos) bool {
	found := false
	ast.Inspect(unit, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if x.Lparen > pos && !r.isConversion(x) && !r.isBuiltin(x) {
				found = true
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW && x.Pos() > pos {
				found = true
			}
		}
		return true
	})
	return found
}

func (r *fileRewriter) isConversion(c *ast.CallExpr) bool {
	tv, ok := r.info.Types[c.Fun]
	return ok && tv.IsType()
}

func (r *fileRewriter) isBuiltin(c *ast.CallExpr) bool {
	tv, ok := r.info.Types[c.Fun]
	return ok && tv.IsBuiltin()
}

// builtinName returns the name of the builtin c calls, or "".
func (r *fileRewriter) builtinName(c *ast.CallExpr) string {
	if !r.isBuiltin(c) {
		return ""
	}
	f := c.Fun
	for {
		p, ok := f.(*ast.ParenExpr)
		if !ok {
			break
		}
		f = p.X
	}
	if id, ok := f.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// call instruments a call: its operands, then the call itself.
func (r *fileRewriter) call(fs *funcState, c *ast.CallExpr, unit ast.Node, depth int, ctx int) {
	if r.isConversion(c) {
		for _, a := range c.Args {
			r.walk(fs, a, unit, depth+1, ctxValue)
		}
		return
	}
	if name := r.builtinName(c); name != "" {
		// panic's record wraps its argument (at depth+1): the
		// argument's own records go inside it.
		inner := depth + 1
		if name == "panic" {
			inner++
		}
		for _, a := range c.Args {
			r.walk(fs, a, unit, inner, ctxValue)
		}
		r.builtin(fs, c, name, depth)
		return
	}
	if r.isParallel(c) {
		r.usesRT = true
		r.insert(r.offset(c.Fun.Pos()), false, depth, rtName+".Parallel(")
		sel := c.Fun.(*ast.SelectorExpr)
		r.walk(fs, sel.X, unit, depth+1, ctxValue)
		r.replace(r.offset(sel.X.End()), r.offset(c.Rparen)+1, ")")
		return
	}
	// The function operand: a method's receiver is walked as a selector.
	r.walk(fs, c.Fun, unit, depth+1, ctxValue)
	for _, a := range c.Args {
		r.walk(fs, a, unit, depth+1, ctxValue)
	}
	if !fs.stream || r.events&trace.EventCall == 0 || ctx == ctxDeferred {
		return
	}
	key := uint32(0)
	if f := r.staticCallee(c); f != nil {
		key = funcKey(f)
	}
	results := 0
	if sig, ok := under(r.info.TypeOf(c.Fun)).(*types.Signature); ok {
		results = sig.Results().Len()
	}
	switch {
	case ctx == ctxStmt:
		site := r.site(trace.KindCall, c.Pos(), c.End(), fs.name, exprText(r, c.Fun))
		fs.usesT = true
		r.insert(r.offset(c.Pos()), false, -800, r.guard(fmt.Sprintf("%s.C(%d, %d)", tName, site, key))+";")
		r.insert(r.offset(c.End()), true, 800, ";"+r.guard(fmt.Sprintf("%s.V(%d)", tName, site)))
	case results == 1 && fs.generic:
		site := r.site(trace.KindCall, c.Pos(), c.End(), fs.name, exprText(r, c.Fun))
		fs.usesT = true
		r.wrap(c, depth, fmt.Sprintf("%s.Ret(%s.C(%d, %d), %d, ", rtName, tName, site, key, site), ")")
	case results > 1 && ctx == ctxMultiStmt:
		if as, ok := unit.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && as.Rhs[0] == ast.Expr(c) {
			site := r.site(trace.KindCall, c.Pos(), c.End(), fs.name, exprText(r, c.Fun))
			fs.usesT = true
			r.insert(r.offset(as.Pos()), false, -800, r.guard(fmt.Sprintf("%s.C(%d, %d)", tName, site, key))+";")
			var names []string
			for _, l := range as.Lhs {
				names = append(names, r.lhsValue(l))
			}
			r.pendingAfter = append(r.pendingAfter, afterText{as, ";" + r.guard(fmt.Sprintf("%s.V(%d, %s)", tName, site, strings.Join(names, ", ")))})
		}
		if rs, ok := unit.(*ast.ReturnStmt); ok && len(rs.Results) == 1 && rs.Results[0] == ast.Expr(c) {
			// return f(), f of several results: the call is recorded
			// before the statement (nothing can follow it), so that the
			// callee's entry names its call site and the engine takes
			// the return value from the callee's exit.
			site := r.site(trace.KindCall, c.Pos(), c.End(), fs.name, exprText(r, c.Fun))
			fs.usesT = true
			r.insert(r.offset(rs.Pos()), false, -800, fmt.Sprintf("%s.C(%d, %d);", tName, site, key))
		}
	}
}

// lhsValue returns what to record of an assigned operand after the
// assignment: the identifier, or rt.Blank.
func (r *fileRewriter) lhsValue(l ast.Expr) string {
	if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
		return id.Name
	}
	return rtName + ".Blank"
}

// staticCallee returns the function c calls when it is known statically.
func (r *fileRewriter) staticCallee(c *ast.CallExpr) *types.Func {
	f := c.Fun
	for {
		switch x := f.(type) {
		case *ast.ParenExpr:
			f = x.X
			continue
		case *ast.IndexExpr:
			f = x.X
			continue
		case *ast.IndexListExpr:
			f = x.X
			continue
		}
		break
	}
	switch x := f.(type) {
	case *ast.Ident:
		fn, _ := r.info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := r.info.Uses[x.Sel].(*types.Func)
		if fn == nil {
			return nil
		}
		if sel, ok := r.info.Selections[x]; ok {
			if _, iface := under(sel.Recv()).(*types.Interface); iface {
				return nil
			}
			if _, tp := sel.Recv().(*types.TypeParam); tp {
				return nil
			}
		}
		return fn
	}
	return nil
}

// isParallel reports whether c is t.Parallel() on a *testing.T.
func (r *fileRewriter) isParallel(c *ast.CallExpr) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Parallel" || len(c.Args) != 0 {
		return false
	}
	fn, ok := r.info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && fn.FullName() == "(*testing.T).Parallel"
}

// builtin instruments panic and recover.
func (r *fileRewriter) builtin(fs *funcState, c *ast.CallExpr, name string, depth int) {
	if !fs.stream || r.events&trace.EventPanic == 0 {
		return
	}
	switch name {
	case "panic":
		if len(c.Args) != 1 || !fs.generic {
			return
		}
		if tv, ok := r.info.Types[c.Args[0]]; ok && tv.IsNil() {
			return
		}
		site := r.site(trace.KindPanic, c.Pos(), c.End(), fs.name, "panic")
		fs.usesT = true
		r.wrap(c.Args[0], depth+1, fmt.Sprintf("%s.Panic(%s, %d, ", rtName, tName, site), ")")
	case "recover":
		site := r.site(trace.KindPanic, c.Pos(), c.End(), fs.name, "recover")
		fs.usesT = true
		r.wrap(c, depth, fmt.Sprintf("%s.Recovered(%d, ", tName, site), ")")
	}
}

// chanOperand returns the text naming a channel for a record: the
// expression when evaluating it again has no effect, else nil.
func (r *fileRewriter) chanOperand(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		if _, isVar := r.info.Uses[id].(*types.Var); isVar {
			return id.Name
		}
	}
	// A typed nil: the generic Send and Recv must be able to infer the
	// channel's type parameter from it.
	return "interface{}(nil)"
}

// recv wraps a receive expression.
func (r *fileRewriter) recv(fs *funcState, x *ast.UnaryExpr, depth int) {
	if !fs.stream || !fs.generic || r.events&trace.EventChan == 0 {
		return
	}
	site := r.site(trace.KindSend, x.Pos(), x.End(), fs.name, "receive")
	fs.usesT = true
	r.wrap(x, depth, fmt.Sprintf("%s.Recv(%s, %d, %s, ", rtName, tName, site, r.chanOperand(x.X)), ")")
}

// send wraps the value of a send statement (not in a select case).
func (r *fileRewriter) send(fs *funcState, s *ast.SendStmt) {
	if !fs.stream || r.events&trace.EventChan == 0 {
		return
	}
	tv, ok := r.info.Types[s.Value]
	if !ok || tv.IsNil() {
		return
	}
	ch, ok := under(r.info.TypeOf(s.Chan)).(*types.Chan)
	if !ok || !fs.generic || r.isConst(s.Value) || !types.Identical(ch.Elem(), r.info.TypeOf(s.Value)) {
		// A constant, or a value converted to the element type: wrapping
		// it would change its type. When it can be evaluated again, it is
		// recorded before the send.
		if text := r.sentValue(s.Value); text != "" && r.inList[s] {
			site := r.site(trace.KindSend, s.Pos(), s.End(), fs.name, "send")
			fs.usesT = true
			r.insert(r.offset(s.Pos()), false, -800, fmt.Sprintf("%s.Sent(%d, %s, %s);", tName, site, r.chanOperand(s.Chan), text))
		}
		return
	}
	site := r.site(trace.KindSend, s.Pos(), s.End(), fs.name, "send")
	fs.usesT = true
	// Outside whatever wraps the value itself (a struct variable's read
	// takes its address: RA(t, site, &v) must stay inside Send).
	r.wrap(s.Value, -1, fmt.Sprintf("%s.Send(%s, %d, %s, ", rtName, tName, site, r.chanOperand(s.Chan)), ")")
}

// sentValue returns the text of a sent value that can be evaluated again
// with no effect (a constant or a variable), or "".
func (r *fileRewriter) sentValue(e ast.Expr) string {
	if tv := r.info.Types[e]; tv.Value != nil {
		// Passed as an interface value, an integer constant becomes an
		// int: it must fit.
		if tv.Value.Kind() == constant.Int {
			if _, exact := constant.Int64Val(tv.Value); !exact {
				return ""
			}
		}
		return exprText(r, e)
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if _, isVar := r.info.Uses[id].(*types.Var); isVar {
			return id.Name
		}
	}
	return ""
}

// comm instruments a select case's communication: a receive is recorded
// at the start of the case's body, and so is a send of a constant or a
// variable (the case ran, so it was sent).
func (r *fileRewriter) comm(fs *funcState, c *ast.CommClause) {
	var recv *ast.UnaryExpr
	var val string
	switch s := c.Comm.(type) {
	case *ast.SendStmt:
		r.walk(fs, s.Chan, s, 0, ctxValue)
		r.walk(fs, s.Value, s, 0, ctxValue)
		if text := r.sentValue(s.Value); text != "" && fs.stream && r.events&trace.EventChan != 0 {
			if tv, ok := r.info.Types[s.Value]; ok && !tv.IsNil() {
				site := r.site(trace.KindSend, s.Pos(), s.End(), fs.name, "send")
				fs.usesT = true
				r.insert(r.offset(c.Colon)+1, false, -850, fmt.Sprintf("%s.Sent(%d, %s, %s);", tName, site, r.chanOperand(s.Chan), text))
			}
		}
	case *ast.ExprStmt:
		recv, _ = ast.Unparen(s.X).(*ast.UnaryExpr)
		r.walk(fs, s.X, s, 0, ctxComm)
		val = rtName + ".Blank"
	case *ast.AssignStmt:
		recv, _ = ast.Unparen(s.Rhs[0]).(*ast.UnaryExpr)
		for _, l := range s.Lhs {
			r.lvalue(fs, l, s)
		}
		r.walk(fs, s.Rhs[0], s, 0, ctxComm)
		val = r.lhsValue(s.Lhs[0])
	}
	if recv == nil || recv.Op != token.ARROW || !fs.stream || r.events&trace.EventChan == 0 {
		return
	}
	site := r.site(trace.KindSend, recv.Pos(), recv.End(), fs.name, "receive")
	fs.usesT = true
	r.insert(r.offset(c.Colon)+1, false, -850, fmt.Sprintf("%s.Recvd(%d, %s, %s);", tName, site, r.chanOperand(recv.X), val))
}

// afterText is text to insert after a statement of a statement list.
type afterText struct {
	stmt ast.Stmt
	text string
}

// after inserts what records a statement's writes, comma-ok receives
// and multi-value calls, after it.
func (r *fileRewriter) after(fs *funcState, s ast.Stmt) {
	inner := unlabel(s)
	var texts []string
	for _, p := range r.pendingAfter {
		if p.stmt == inner {
			texts = append(texts, p.text)
		}
	}
	if fs.stream && r.events&trace.EventWrite != 0 {
		texts = append(texts, r.writes(fs, inner)...)
	}
	if fs.stream && r.events&trace.EventChan != 0 {
		if as, ok := inner.(*ast.AssignStmt); ok && len(as.Lhs) == 2 && len(as.Rhs) == 1 {
			if u, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				site := r.site(trace.KindSend, u.Pos(), u.End(), fs.name, "receive")
				fs.usesT = true
				texts = append(texts, fmt.Sprintf(";%s.Recvd(%d, %s, %s)", tName, site, r.chanOperand(u.X), r.lhsValue(as.Lhs[0])))
			}
		}
	}
	if len(texts) > 0 {
		switch inner.(type) {
		case *ast.ReturnStmt, *ast.BranchStmt:
			return
		}
		r.insert(r.offset(s.End()), true, 900, strings.Join(texts, ""))
	}
}

// writes returns the statements recording what s wrote.
func (r *fileRewriter) writes(fs *funcState, s ast.Stmt) []string {
	var lhs []ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		lhs = s.Lhs
	case *ast.IncDecStmt:
		lhs = []ast.Expr{s.X}
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return nil
		}
		for _, sp := range gd.Specs {
			for _, n := range sp.(*ast.ValueSpec).Names {
				lhs = append(lhs, n)
			}
		}
	default:
		return nil
	}
	var out []string
	for _, l := range lhs {
		if !r.rereadable(l, lhs) {
			continue
		}
		out = append(out, ";"+r.guard(r.writeRec(fs, l)))
	}
	return out
}

// writeRec returns the call recording the value of the assigned operand
// l, after the assignment, with where it was written when the file's Go
// version allows: WA(t, site, &x) for variables, fields and
// dereferences, WE(t, site, s, i) for elements, WK(t, site, m, k) for map
// entries; Wv(site, l) otherwise.
func (r *fileRewriter) writeRec(fs *funcState, l ast.Expr) string {
	text := exprText(r, l)
	site := r.varSite(trace.KindWrite, l.Pos(), l.End(), fs.name, text, r.rootVar(l))
	fs.usesT = true
	if fs.generic && fs.modern {
		if x, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
			base, index := exprText(r, x.X), exprText(r, x.Index)
			switch t := under(r.info.TypeOf(x.X)).(type) {
			case *types.Slice:
				return fmt.Sprintf("%s.WE(%s, %d, %s, %s)", rtName, tName, site, base, index)
			case *types.Array:
				return fmt.Sprintf("%s.WE(%s, %d, (%s)[:], %s)", rtName, tName, site, base, index)
			case *types.Pointer:
				if _, arr := under(t.Elem()).(*types.Array); arr {
					return fmt.Sprintf("%s.WE(%s, %d, (%s)[:], %s)", rtName, tName, site, base, index)
				}
			case *types.Map:
				if r.keyFits(x.Index, t) {
					return fmt.Sprintf("%s.WK(%s, %d, %s, %s)", rtName, tName, site, base, index)
				}
			}
		} else if r.addressable(ast.Unparen(l)) && !r.localFunc(ast.Unparen(l)) {
			r.usesRT = true
			return fmt.Sprintf("%s.WA(%s, %d, &%s)", rtName, tName, site, text)
		}
	}
	return fmt.Sprintf("%s.Wv(%d, %s)", tName, site, text)
}

// localFunc reports whether e is a local variable of function type. Its
// write is recorded by value: taking its address would make the compiler
// treat it as reassigned, so a call through it (a helper closure,
// str := func(s string) { buf = append(buf, s...) }) would no longer be
// inlined or resolved statically, its arguments would escape, and code
// that allocated nothing would allocate (slog's TestTextHandlerAlloc).
func (r *fileRewriter) localFunc(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := r.info.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	_, fn := under(v.Type()).(*types.Signature)
	return fn
}

// headerWrites records the writes of an if, switch or for statement's
// init or post statement, where no statement can follow: the assigned
// value is wrapped, x := W(t, site, v), or x++ becomes x = W(t, site,
// x+1). A wrapped value is recorded before the assignment, and before the
// values after it in a tuple (i, j = i+1, j-1) are evaluated: it is
// wrapped only when nothing after it can read the variable it is
// assigned to (tupleWrapSafe). Tuples assigned from one multi-valued
// expression (a, b = f()) are not recorded here (header moves those of
// if and switch statements out of the header).
func (r *fileRewriter) headerWrites(fs *funcState, s ast.Stmt) {
	if !fs.stream || !fs.generic || r.events&trace.EventWrite == 0 {
		return
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) != len(s.Rhs) || len(s.Lhs) > 1 && s.Tok != token.DEFINE && s.Tok != token.ASSIGN {
			return
		}
		for i, l := range s.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" || !r.rereadable(l, s.Lhs) || !r.tupleWrapSafe(fs, s, i) {
				continue
			}
			v := r.info.ObjectOf(id)
			rhs := s.Rhs[i]
			tv, ok := r.info.Types[rhs]
			if !ok || tv.IsNil() || v == nil {
				continue
			}
			switch s.Tok {
			case token.DEFINE:
				// The variable takes the value's (default) type: W's type
				// argument is the same.
			case token.ASSIGN:
				if tv.Value != nil || !types.Identical(tv.Type, v.Type()) {
					continue
				}
			default:
				// x op= v becomes x = W(t, site, x op (v)).
				if len(s.Lhs) != 1 {
					return
				}
				op := s.Tok.String()
				op = op[:len(op)-1]
				site := r.varSite(trace.KindWrite, l.Pos(), l.End(), fs.name, id.Name, v)
				fs.usesT = true
				r.usesRT = true
				r.replace(r.offset(s.TokPos), r.offset(s.TokPos)+len(s.Tok.String()),
					fmt.Sprintf("= %s.W(%s, %d, %s %s ", rtName, tName, site, id.Name, op))
				// Outermost: the reads of v (b.f, a[i]) wrap its parts
				// from the same places, inside the parentheses.
				r.wrap(rhs, -1000, "(", "))")
				continue
			}
			site := r.varSite(trace.KindWrite, l.Pos(), l.End(), fs.name, id.Name, v)
			fs.usesT = true
			r.usesRT = true
			r.wrap(rhs, -1000, fmt.Sprintf("%s.W(%s, %d, ", rtName, tName, site), ")")
		}
	case *ast.IncDecStmt:
		id, ok := s.X.(*ast.Ident)
		if !ok || id.Name == "_" {
			return
		}
		v, ok := r.info.ObjectOf(id).(*types.Var)
		if !ok {
			return
		}
		op := "+"
		if s.Tok == token.DEC {
			op = "-"
		}
		site := r.varSite(trace.KindWrite, id.Pos(), id.End(), fs.name, id.Name, v)
		fs.usesT = true
		r.usesRT = true
		r.replace(r.offset(s.TokPos), r.offset(s.TokPos)+2, fmt.Sprintf(" = %s.W(%s, %d, %s %s 1)", rtName, tName, site, id.Name, op))
	}
}

// deferLink links a deferred call to the callee's entry: the call is
// announced just before it runs and closed just after, by two more
// deferred calls, "defer t.V(site); defer f(x); defer t.C(site, key)"
// (deferred calls run last first); recover stays directly in f.
func (r *fileRewriter) deferLink(fs *funcState, s *ast.DeferStmt) {
	if !fs.stream || r.events&trace.EventCall == 0 || !r.inList[s] || r.isBuiltin(s.Call) || r.isConversion(s.Call) {
		return
	}
	key := uint32(0)
	if f := r.staticCallee(s.Call); f != nil {
		key = funcKey(f)
	}
	info := "func literal"
	if _, lit := s.Call.Fun.(*ast.FuncLit); !lit {
		info = exprText(r, s.Call.Fun)
	}
	site := r.site(trace.KindCall, s.Call.Pos(), s.Call.End(), fs.name, info)
	fs.usesT = true
	r.insert(r.offset(s.Pos()), false, -800, fmt.Sprintf("defer %s.V(%d);", tName, site))
	r.insert(r.offset(s.End()), true, 800, fmt.Sprintf(";defer %s.C(%d, %d)", tName, site, key))
}

// rereadable reports whether the assigned operand l can be evaluated
// again after the assignment, with no effect and the same meaning: made
// of identifiers, fields, dereferences, conversions to pointers and
// indexes by identifiers or constants, none of them assigned by the same
// statement.
func (r *fileRewriter) rereadable(l ast.Expr, all []ast.Expr) bool {
	if id, ok := l.(*ast.Ident); ok {
		if id.Name == "_" {
			return false
		}
		_, isVar := r.info.ObjectOf(id).(*types.Var)
		return isVar
	}
	// What the statement assigns: variables, and the other left-hand
	// sides by their text (bbolt's b.calls[i], b.calls = last, b.calls[:n]
	// shortens b.calls before b.calls[i] could be read again).
	assigned := map[types.Object]bool{}
	assignedText := map[string]bool{}
	for _, a := range all {
		if id, ok := a.(*ast.Ident); ok {
			assigned[r.info.ObjectOf(id)] = true
		} else if a != nil && a != l {
			assignedText[types.ExprString(ast.Unparen(a))] = true
		}
	}
	ok := true
	var check func(e ast.Expr)
	check = func(e ast.Expr) {
		if _, isIdent := e.(*ast.Ident); !isIdent && assignedText[types.ExprString(ast.Unparen(e))] {
			ok = false
			return
		}
		switch x := e.(type) {
		case *ast.Ident:
			if assigned[r.info.ObjectOf(x)] {
				ok = false
			}
		case *ast.ParenExpr:
			check(x.X)
		case *ast.SelectorExpr:
			if _, isSel := r.info.Selections[x]; !isSel {
				ok = false
				return
			}
			check(x.X)
		case *ast.StarExpr:
			check(x.X)
		case *ast.CallExpr:
			// A conversion to a pointer: *(*T)(p) = v writes through p.
			tv, isType := r.info.Types[x.Fun]
			if !isType || !tv.IsType() || len(x.Args) != 1 || !pointerLike(tv.Type) {
				ok = false
				return
			}
			check(x.Args[0])
		case *ast.IndexExpr:
			if _, tp := r.info.TypeOf(x.X).(*types.TypeParam); tp {
				ok = false
				return
			}
			check(x.X)
			if !r.isConst(x.Index) {
				check(x.Index)
			}
		case *ast.BasicLit:
		default:
			ok = false
		}
	}
	check(l)
	return ok
}

// pointerLike reports whether t is a pointer or unsafe.Pointer: a
// conversion to it allocates nothing, so evaluating it again means the
// same storage.
func pointerLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// rangeEvents records the iteration variables at the start of a range
// body: writes, and receives when ranging over a channel.
func (r *fileRewriter) rangeEvents(fs *funcState, s *ast.RangeStmt) {
	if !fs.stream {
		return
	}
	var texts []string
	if r.events&trace.EventWrite != 0 && s.Tok != token.ILLEGAL {
		for _, l := range []ast.Expr{s.Key, s.Value} {
			if l == nil || !r.rereadable(l, []ast.Expr{s.Key, s.Value}) {
				continue
			}
			texts = append(texts, r.writeRec(fs, l)+";")
		}
	}
	if _, ok := under(r.info.TypeOf(s.X)).(*types.Chan); ok && r.events&trace.EventChan != 0 {
		val := rtName + ".Blank"
		if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
			val = id.Name
		}
		site := r.site(trace.KindSend, s.X.Pos(), s.X.End(), fs.name, "receive")
		texts = append(texts, fmt.Sprintf("%s.Recvd(%d, %s, %s);", tName, site, r.chanOperand(s.X), val))
	}
	if len(texts) > 0 {
		fs.usesT = true
		r.insert(r.offset(s.Body.Lbrace)+1, false, -850, strings.Join(texts, ""))
	}
}

// safeLocals returns the local variables of a function that no call can
// change: declared in it, never captured by a function literal, never
// addressed (explicitly, or implicitly by a method call, a slice of an
// array or a field of a struct variable).
func safeLocals(info *types.Info, ft *ast.FuncType, recv *ast.FieldList, body *ast.BlockStmt) map[*types.Var]bool {
	safe := map[*types.Var]bool{}
	addDefs := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Defs[id].(*types.Var); ok && !v.IsField() {
					safe[v] = true
				}
			}
			return true
		})
	}
	if recv != nil {
		addDefs(recv)
	}
	addDefs(ft)
	addDefs(body)
	var unsafe func(e ast.Expr)
	unsafe = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok {
				delete(safe, v)
			}
		case *ast.ParenExpr:
			unsafe(x.X)
		case *ast.SelectorExpr:
			unsafe(x.X)
		case *ast.IndexExpr:
			unsafe(x.X)
		case *ast.SliceExpr:
			unsafe(x.X)
		case *ast.CompositeLit:
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(x.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok {
						delete(safe, v)
					}
				}
				return true
			})
			return false
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				unsafe(x.X)
			}
		case *ast.SelectorExpr:
			// A method of a value may take its address (a pointer
			// receiver); reading or assigning a field does not.
			if sel, ok := info.Selections[x]; (!ok || sel.Kind() != types.FieldVal) && !isPointerOrIface(info.TypeOf(x.X)) {
				unsafe(x.X)
			}
		case *ast.SliceExpr:
			unsafe(x.X)
		}
		return true
	})
	return safe
}

// safeStorage reports whether e denotes storage inside a local variable
// no call can change (safeLocals): the variable, its fields and the
// elements of its arrays at constant indexes, none reached through a
// pointer. Reading it cannot panic, and gives the same value before or
// after the calls of its statement.
func (r *fileRewriter) safeStorage(fs *funcState, e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := r.info.Uses[x].(*types.Var)
		return ok && fs.safe[v]
	case *ast.ParenExpr:
		return r.safeStorage(fs, x.X)
	case *ast.SelectorExpr:
		sel, ok := r.info.Selections[x]
		return ok && sel.Kind() == types.FieldVal && !sel.Indirect() && !isPointerOrIface(r.info.TypeOf(x.X)) && r.safeStorage(fs, x.X)
	case *ast.IndexExpr:
		_, arr := r.info.TypeOf(x.X).Underlying().(*types.Array)
		_, tp := r.info.TypeOf(x.X).(*types.TypeParam)
		return arr && !tp && r.isConst(x.Index) && r.safeStorage(fs, x.X)
	}
	return false
}

// smallPointerFunc reports whether a function is one whose inlining the
// stream events would prevent and whose inlining matters to allocations:
// small enough for the compiler's inlining budget (culprit's estimate of
// it) and returning something that holds a pointer (a value the caller
// keeps on its stack when the function is inlined, and that escapes when
// it is not). Such functions record counters only.
func (r *fileRewriter) smallPointerFunc(ft *ast.FuncType, body *ast.BlockStmt) bool {
	if ft.Results == nil {
		return false
	}
	holds := false
	for _, f := range ft.Results.List {
		if hasPointers(r.info.TypeOf(f.Type)) {
			holds = true
		}
	}
	return holds && r.cost(body, 0) <= 80
}

func hasPointers(t types.Type) bool {
	switch u := under(t).(type) {
	case *types.Basic:
		return u.Kind() == types.String || u.Kind() == types.UnsafePointer || u.Kind() == types.UntypedNil
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if hasPointers(u.Field(i).Type()) {
				return true
			}
		}
		return false
	case *types.Array:
		return hasPointers(u.Elem())
	}
	return true
}

// cost estimates the compiler's inlining cost of a function body: one per
// node, 57 per call of a function not itself cheap, too much for defer,
// go, select, recover and labels.
func (r *fileRewriter) cost(body ast.Node, depth int) int {
	if r.small == nil {
		r.small = map[*types.Func]int{}
	}
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil || n > 1000 {
			return false
		}
		switch x := x.(type) {
		case *ast.DeferStmt, *ast.GoStmt, *ast.SelectStmt, *ast.LabeledStmt:
			n += 1000
			return false
		case *ast.FuncLit:
			n += 15
		case *ast.CallExpr:
			if r.isConversion(x) {
				break
			}
			if name := r.builtinName(x); name != "" {
				if name == "recover" {
					n += 1000
				}
				break
			}
			n += r.calleeCost(x, depth)
		case *ast.Ident:
			if _, isType := r.info.Uses[x].(*types.TypeName); isType {
				return false
			}
		}
		if e, ok := x.(ast.Expr); ok {
			if tv, ok := r.info.Types[e]; ok && tv.IsType() {
				return false
			}
		}
		n++
		return true
	})
	return n
}

// calleeCost is what a call costs its caller: the callee's cost when it is
// a small function of this file, 57 otherwise.
func (r *fileRewriter) calleeCost(c *ast.CallExpr, depth int) int {
	f := r.staticCallee(c)
	if f == nil || depth > 3 {
		return 57
	}
	if v, ok := r.small[f]; ok {
		return v
	}
	r.small[f] = 57 // recursion
	for _, d := range r.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || r.info.Defs[fd.Name] != f {
			continue
		}
		if c := r.cost(fd.Body, depth+1); c <= 80 {
			r.small[f] = c
		}
	}
	return r.small[f]
}

// goDynamic instruments a go statement whose callee is not known
// statically (a function value, an interface method, a method of a type
// parameter) so that the child goroutine announces its start: the
// function value and the arguments are evaluated in the parent, in their
// order, into variables of a block, and a function literal started in
// their place records the start and makes the call, as a call site of
// the child when calls are recorded:
//
//	go f(a, 1)
//
// becomes
//
//	{F, A0 := f, a; if F == nil { go F(A0, 1) }; S := t.Go(site);
//	 go func() { defer rt.GoEnd(); rt.Started(site, S, 0); t := rt.Cur().C(call, 0); F(A0, 1); t.V(call) }()}
//
// (the nil test keeps go's fatal error on a nil function value in the
// parent). Constant arguments stay in the call, where they take the
// parameter's type; an argument whose type depends on its context (an
// untyped comparison or shift) would take another type in a variable,
// and the statement is then left as it is (false).
func (r *fileRewriter) goDynamic(fs *funcState, s *ast.GoStmt, site uint32) bool {
	c := s.Call
	if r.isBuiltin(c) || r.isConversion(c) || !r.inList[s] {
		return false
	}
	if _, ok := under(r.info.TypeOf(c.Fun)).(*types.Signature); !ok {
		return false
	}
	if len(c.Args) == 1 {
		if _, tuple := r.info.TypeOf(c.Args[0]).(*types.Tuple); tuple {
			return false // go f(g()): the results cannot be spread into variables
		}
	}
	const fn, arg = "_culpritF", "_culpritA"
	names := []string{fn}
	var vars []ast.Expr // the arguments evaluated into variables
	var callArgs []string
	for _, a := range c.Args {
		tv := r.info.Types[a]
		if tv.Value != nil || tv.IsNil() {
			callArgs = append(callArgs, exprText(r, a))
			continue
		}
		if !r.selfTyped(a) {
			return false
		}
		n := fmt.Sprintf("%s%d", arg, len(vars))
		names = append(names, n)
		vars = append(vars, a)
		callArgs = append(callArgs, n)
	}
	args := strings.Join(callArgs, ", ")
	if c.Ellipsis.IsValid() {
		args += "..."
	}
	var tail strings.Builder
	tail.WriteString("; ")
	if sel, ok := r.info.Selections[unparenSel(c.Fun)]; !ok || sel.Kind() != types.MethodVal {
		fmt.Fprintf(&tail, "if %s == nil { go %s(%s) }; ", fn, fn, args)
	}
	fmt.Fprintf(&tail, "%s := %s.Go(%d); go func() { defer %s.GoEnd(); %s.Started(%d, %s, 0); ", spawnName, tName, site, rtName, rtName, site, spawnName)
	if r.events&trace.EventCall != 0 {
		call := r.site(trace.KindCall, c.Pos(), c.End(), fs.name, exprText(r, c.Fun))
		fmt.Fprintf(&tail, "%s := %s.Cur().C(%d, 0); %s(%s); %s.V(%d) }()}", tName, rtName, call, fn, args, tName, call)
	} else {
		fmt.Fprintf(&tail, "%s(%s) }()}", fn, args)
	}
	fs.usesT = true
	r.usesRT = true
	r.replace(r.offset(s.Go), r.offset(c.Fun.Pos()), "{"+strings.Join(names, ", ")+" := ")
	from := c.Fun.End()
	for _, v := range vars {
		r.replace(r.offset(from), r.offset(v.Pos()), ", ")
		from = v.End()
	}
	r.replace(r.offset(from), r.offset(c.Rparen)+1, tail.String())
	return true
}

// unparenSel returns e without parentheses as a selector, or nil.
func unparenSel(e ast.Expr) *ast.SelectorExpr {
	s, _ := ast.Unparen(e).(*ast.SelectorExpr)
	return s
}

// selfTyped reports whether the type of the non-constant expression e
// does not depend on its context: a variable declared with := from it
// has the type the expression has where it is. Untyped comparisons and
// shifts of untyped constants take their context's type, unless it is
// the type := would give them.
func (r *fileRewriter) selfTyped(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	if !ok || tv.Value != nil || tv.IsNil() {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return types.Identical(tv.Type, types.Typ[types.Bool]) || (x.Op == token.LAND || x.Op == token.LOR) && (r.selfTyped(x.X) || r.selfTyped(x.Y))
		case token.SHL, token.SHR:
			return r.selfTyped(x.X)
		}
		return r.selfTyped(x.X) || r.selfTyped(x.Y)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.ARROW, token.AND:
			return true
		case token.NOT:
			return types.Identical(tv.Type, types.Typ[types.Bool]) || r.selfTyped(x.X)
		}
		return r.selfTyped(x.X)
	}
	return true
}

// commaOkRead records the map read of a comma-ok statement of a statement
// list, v, ok := m[k]: RK(t, site, m, k) runs just before it (its result
// dropped), when evaluating m and k again has no effect (pureOperand);
// nothing runs between the two. The writes of v and ok are recorded after
// the statement, as any assignment's.
func (r *fileRewriter) commaOkRead(fs *funcState, s ast.Stmt, rhs ast.Expr) {
	x, ok := ast.Unparen(rhs).(*ast.IndexExpr)
	if !ok || !r.inList[s] || !fs.stream || !fs.generic || !fs.modern || r.events&trace.EventRead == 0 {
		return
	}
	if _, tp := r.info.TypeOf(x.X).(*types.TypeParam); tp {
		return
	}
	m, ok := under(r.info.TypeOf(x.X)).(*types.Map)
	if !ok || !wantsValue(m.Elem()) || !r.keyFits(x.Index, m) || !r.pureOperand(x.X) || !r.pureOperand(x.Index) {
		return
	}
	site := r.varSite(trace.KindRead, x.Pos(), x.End(), fs.name, exprText(r, x), r.rootVar(x))
	fs.usesT = true
	r.usesRT = true
	r.insert(r.offset(s.Pos()), false, -800, fmt.Sprintf("%s.RK(%s, %d, %s, %s);", rtName, tName, site, exprText(r, x.X), exprText(r, x.Index)))
}

// pureOperand reports whether e can be evaluated once more, just before
// the statement that evaluates it, with no effect and the same value: a
// constant, a variable, fields, dereferences and indexes of such (a nil
// pointer or an index out of range panics there as it would in the
// statement, at the same position).
func (r *fileRewriter) pureOperand(e ast.Expr) bool {
	if r.isConst(e) {
		return true
	}
	switch x := e.(type) {
	case *ast.Ident:
		_, isVar := r.info.Uses[x].(*types.Var)
		return isVar
	case *ast.ParenExpr:
		return r.pureOperand(x.X)
	case *ast.StarExpr:
		return r.pureOperand(x.X)
	case *ast.SelectorExpr:
		if sel, ok := r.info.Selections[x]; ok {
			return sel.Kind() == types.FieldVal && r.pureOperand(x.X)
		}
		_, isVar := r.info.Uses[x.Sel].(*types.Var)
		return isVar
	case *ast.IndexExpr:
		if _, tp := r.info.TypeOf(x.X).(*types.TypeParam); tp {
			return false
		}
		return r.pureOperand(x.X) && r.pureOperand(x.Index)
	}
	return false
}

// header instruments the init statement of an if or switch statement s
// (keyword kw at pos). A tuple assignment there, a, err := f(), is moved
// out of the header into a block of its own, where it is a statement of a
// list and records what one does (the call's return, the writes of each
// operand, a comma-ok read or receive):
//
//	if a, err := f(); err != nil { ... } else { ... }
//
// becomes
//
//	{a, err := f(); <records>; if err != nil { ... } else { ... }}
//
// The variables' scope is the block, which holds nothing but the
// statement: no name means anything else. An else if becomes an else
// block. A labeled switch keeps its header (a break to the label must
// name the switch, and a goto cannot enter the block); so does anything
// but a tuple assignment. A header kept records its writes with
// headerWrites.
func (r *fileRewriter) header(fs *funcState, s ast.Stmt, pos token.Pos, kw string, init ast.Stmt) {
	as, ok := init.(*ast.AssignStmt)
	hoist := ok && len(as.Lhs) > 1 && fs.stream && r.events&(trace.EventWrite|trace.EventCall|trace.EventRead|trace.EventChan) != 0
	if _, isIf := s.(*ast.IfStmt); !isIf && r.labeled[s] {
		hoist = false
	}
	semi := -1
	if hoist {
		semi = r.semicolonAfter(r.offset(init.End()))
		hoist = semi >= 0
	}
	if !hoist {
		r.stmt(fs, init)
		r.headerWrites(fs, init)
		return
	}
	if r.inList == nil {
		r.inList = map[ast.Stmt]bool{}
	}
	r.inList[init] = true
	r.replace(r.offset(pos), r.offset(pos)+len(kw), "{")
	r.replace(semi, semi+1, "; "+kw+" ")
	r.insert(r.offset(s.End()), true, 950, "}")
	r.stmt(fs, init)
	r.after(fs, init)
}

// semicolonAfter returns the offset of the semicolon that ends a header's
// init statement, the next token after off (comments and spaces skipped),
// or -1.
func (r *fileRewriter) semicolonAfter(off int) int {
	src := r.src
	for off < len(src) {
		switch {
		case src[off] == ' ' || src[off] == '\t' || src[off] == '\n' || src[off] == '\r':
			off++
		case strings.HasPrefix(string(src[off:min(off+2, len(src))]), "//"):
			for off < len(src) && src[off] != '\n' {
				off++
			}
		case strings.HasPrefix(string(src[off:min(off+2, len(src))]), "/*"):
			end := strings.Index(string(src[off+2:]), "*/")
			if end < 0 {
				return -1
			}
			off += end + 4
		case src[off] == ';':
			return off
		default:
			return -1
		}
	}
	return -1
}

// tupleWrapSafe reports whether the value assigned to the variable
// s.Lhs[i] can be recorded before the values after it are evaluated: none
// of them names the variable, and none makes a call or a receive unless
// the variable is a local no call can change (or one the statement
// declares, which nothing can see yet).
func (r *fileRewriter) tupleWrapSafe(fs *funcState, s *ast.AssignStmt, i int) bool {
	id, ok := s.Lhs[i].(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := r.info.ObjectOf(id).(*types.Var)
	if v == nil {
		return false
	}
	declared := r.info.Defs[id] != nil
	for _, e := range s.Rhs[i+1:] {
		if declared {
			continue // the new variable's scope starts after the statement
		}
		named := false
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(*ast.Ident); ok && r.info.Uses[x] == v {
				named = true
			}
			return !named
		})
		if named || !fs.safe[v] && r.callAfter(e, e.Pos()-1) {
			return false
		}
	}
	return true
}
