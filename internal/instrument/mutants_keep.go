package instrument

// This file holds the mutants that keep a result the code discarded.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// keepCall makes the mutants of a call statement whose results are
// discarded that keep one in a local variable of its type
// ("closeTok = p.recover(TokenCParen)" for "p.recover(TokenCParen)"):
// a result that should have been kept (a value returned changed, not
// changed in place; an error not checked) is a fault no other operator
// reaches. The call is written again in the mutant's branch, before the
// statement's own (its deletion).
func (m *mutator) keepCall(s *ast.ExprStmt, call *ast.CallExpr) {
	results := m.results(call)
	for i, t := range results {
		for _, v := range m.keepers(t, call) {
			lhs := make([]string, len(results))
			for j := range lhs {
				lhs[j] = "_"
			}
			lhs[i] = v
			id := m.add(s, "keep "+v)
			m.open(m.off(s.Pos()), fmt.Sprintf("if %s { %s = %s } else ", guard(id), strings.Join(lhs, ", "), m.text(call)))
		}
	}
}

// keepBlank makes the mutants of an assignment of a call's results one
// of which goes to the blank identifier that keep that one in a local
// variable of its type ("defaultVal, err := convert.Convert(defaultVal,
// ty)" for "_, err := ...": the value converted, then dropped). The call
// is wrapped in a function literal that gives the result to the
// variable before returning them all.
func (m *mutator) keepBlank(a *ast.AssignStmt) {
	if len(a.Rhs) != 1 || len(a.Lhs) < 2 || !m.on(a) || (a.Tok != token.DEFINE && a.Tok != token.ASSIGN) {
		return
	}
	call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return
	}
	results := m.results(call)
	names := m.resultNames(call)
	if len(names) != len(a.Lhs) {
		return
	}
	vars := make([]string, len(names))
	for i := range vars {
		vars[i] = fmt.Sprintf("_culpritR%d", i)
	}
	var keep strings.Builder
	for i, l := range a.Lhs {
		if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
			continue
		}
		for _, v := range m.keepers(results[i], call) {
			id := m.add(a, "keep "+v)
			if keep.Len() > 0 {
				keep.WriteString(" else ")
			}
			fmt.Fprintf(&keep, "if %s { %s = %s }", guard(id), v, vars[i])
		}
	}
	if keep.Len() == 0 {
		return
	}
	list := strings.Join(vars, ", ")
	m.open(m.off(call.Pos()), fmt.Sprintf("func() (%s) { %s := ", strings.Join(names, ", "), list))
	m.close(m.off(call.End()), fmt.Sprintf("; %s; return %s }()", keep.String(), list))
}

// keepers returns up to maxReplacements local variables, in scope at
// call and of type t, that could keep a result of call: the call's own
// operands first (the value given, to be replaced by what came back),
// then, unless t is a basic type without a name, the nearest scopes'.
func (m *mutator) keepers(t types.Type, call *ast.CallExpr) []string {
	var out []string
	seen := map[string]bool{}
	inner := m.pkg.Scope().Innermost(call.Pos())
	ok := func(id *ast.Ident) bool {
		w, isVar := m.info.Uses[id].(*types.Var)
		if !isVar || seen[id.Name] || id.Name == "_" || w.Parent() == nil || w.Parent() == m.pkg.Scope() || w.Pkg() != m.pkg || w.IsField() {
			return false
		}
		if _, o := inner.LookupParent(id.Name, call.Pos()); o != w {
			return false // shadowed here
		}
		return types.Identical(w.Type(), t)
	}
	operands := append([]ast.Expr{}, call.Args...)
	if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel {
		operands = append(operands, sel.X)
	}
	for _, e := range operands {
		if id, isID := ast.Unparen(e).(*ast.Ident); isID && ok(id) {
			seen[id.Name] = true
			out = append(out, id.Name)
			if len(out) == maxReplacements {
				return out
			}
		}
	}
	if _, basic := t.(*types.Basic); basic {
		// A number, string or boolean of no type of its own (a count
		// written, a length): kept in another variable it would only
		// make noise.
		return out
	}
	return m.localsOfType(t, call.Pos(), seen, out)
}
