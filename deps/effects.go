package deps

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/culprit-go/culprit/trace"
)

// Writes a call may have made through the references it was given, that
// the run does not show reaching the caller's variables. An instrumented
// function given a pointer, slice, map or reflect.Value may write what
// it refers to through code that is not instrumented (rv.Set, copy,
// json.Unmarshal: possible writes, writes.go), through local variables
// the engine does not know alias it (subv := rv.Field(i)), or not write
// it because a wrong condition skipped the call that would have (a loop
// that ran no iteration over md.unify(..., rv.Index(i))): a caller's read
// of the variable it passed as a whole (reflect.DeepEqual(want, got))
// then depends on nothing of it. In the summary graph (relevance) each
// frame keeps its effects: the possible writes made in it, the decisions
// of its ifs and loops whose branch not taken makes a call given a
// variable, and the effects of the calls it made that it gave references
// to. When a frame given references returns with effects, its node
// "<F() writes>" (at F's declaration) depends on them, counts as an
// effect of the caller, and is a definition, added to what they held, of
// the caller's variables it was given (the roots of the reference
// arguments: x of x, &x, x.f, x[i:j]).

// refArg is an argument of the call that entered a frame, a reference
// (as the entry's values say), in the caller's code.
type refArg struct {
	arg ast.Expr
}

// givenRefs notes, for a frame entered by call from caller, the
// arguments (and receiver) that are references: the parameters' values
// vals say. A variadic parameter is a slice the call made, but for
// f(xs...).
func (b *builder) givenRefs(fr, caller *frame, call *ast.CallExpr, method bool, vals []trace.Value) {
	if !b.view.relevance() || call == nil || caller == nil {
		return
	}
	if variadic(fr.fn) && !call.Ellipsis.IsValid() && len(vals) > 0 {
		vals = vals[:len(vals)-1]
	}
	for i, v := range vals {
		if v.Tag != trace.ValRef && v.Type != "reflect.Value" {
			continue
		}
		var a ast.Expr
		switch k := i; {
		case method && i == 0:
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				a = sel.X
			}
		default:
			if method {
				k--
			}
			if k < len(call.Args) {
				a = call.Args[k]
			}
		}
		if a != nil {
			fr.refArgs = append(fr.refArgs, refArg{a})
		}
	}
	if len(fr.refArgs) > 0 {
		fr.refBy = caller
	}
}

// effect adds id to fr's effects.
func (fr *frame) effect(id int) {
	if id < 0 {
		return
	}
	if fr.effects == nil {
		fr.effects = map[int]bool{}
	}
	fr.effects[id] = true
}

// returned passes fr's effects on to its caller when fr, returning, was
// given references.
func (b *builder) returned(fr *frame) {
	c := fr.refBy
	if len(fr.effects) == 0 || c == nil {
		return
	}
	fn := fr.fn
	n := b.view.fresh(fn.effectsName(), fn.file, fn.decl.Pos(), fn)
	b.g.Nodes[n].Count++
	ids := make([]int, 0, len(fr.effects))
	for id := range fr.effects {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		b.edge(id, n, Data)
	}
	c.effect(n)
	f := c.fn.file
	for _, ra := range fr.refArgs {
		r := argRoot(ra.arg)
		if r == nil || r.Name == "nil" {
			continue
		}
		if k := f.key(r); b.isVar(c, k) {
			b.define(c, k, n, false)
		}
	}
}

// argRoot returns the variable an argument refers to storage of: x of
// x, &x, x.f, x[i], x[i:j], *x; nil for other expressions.
func argRoot(a ast.Expr) *ast.Ident {
	a = ast.Unparen(a)
	switch x := a.(type) {
	case *ast.UnaryExpr:
		if x.Op != token.AND {
			return nil
		}
		a = x.X
	case *ast.SliceExpr:
		a = x.X
	case *ast.CallExpr:
		return nil
	}
	return rootIdent(ast.Unparen(a))
}

// branchCalls says whether each branch of the decision u (an if's then
// and else, a loop's body and nothing) makes a call given a variable
// (as an argument, or the receiver of a method), found once.
func (u *unit) branchCalls() [2]bool {
	if u.calling != nil {
		return *u.calling
	}
	var out [2]bool
	var branches [2]ast.Node
	switch {
	case u.ifs != nil:
		branches = [2]ast.Node{u.ifs.Body, u.ifs.Else}
	case u.loop != nil:
		branches[0] = u.loop.Body
	}
	f := u.fn.file
	variable := func(e ast.Expr) bool {
		r := argRoot(e)
		return r != nil && !f.imported(r.Name) && r.Name != "nil" && r.Name != "true" && r.Name != "false"
	}
	for i, n := range branches {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(m ast.Node) bool {
			c, ok := m.(*ast.CallExpr)
			if _, lit := m.(*ast.FuncLit); lit || out[i] {
				return false
			}
			if !ok {
				return true
			}
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && variable(sel.X) {
				out[i] = true
			}
			for _, a := range c.Args {
				if variable(a) {
					out[i] = true
				}
			}
			return !out[i]
		})
	}
	u.calling = &out
	return out
}

// decided notes the decision of u in fr as an effect when the branch
// not taken (taken: the then branch or the loop's body ran) makes a call
// given a variable.
func (b *builder) decided(fr *frame, u *unit, taken bool) {
	if fr.refBy == nil || u.ifs == nil && u.loop == nil {
		return
	}
	bc := u.branchCalls()
	if taken && bc[1] || !taken && bc[0] {
		fr.effect(fr.units[u.id].dec)
	}
}

// variadic reports whether fn's last parameter is variadic.
func variadic(fn *function) bool {
	var ft *ast.FuncType
	switch d := fn.decl.(type) {
	case *ast.FuncDecl:
		ft = d.Type
	case *ast.FuncLit:
		ft = d.Type
	}
	if ft == nil || ft.Params == nil || len(ft.Params.List) == 0 {
		return false
	}
	_, ok := ft.Params.List[len(ft.Params.List)-1].Type.(*ast.Ellipsis)
	return ok
}
