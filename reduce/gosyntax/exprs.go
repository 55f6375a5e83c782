package gosyntax

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// operand replaces expressions at depth d by an operand: a binary
// expression by its left side (right with second), a call by its first
// argument (last), a parenthesized, unary, star, index, slice, selector
// or type assertion expression by its operand.
func (a *analysis) operand(d int, second bool) []rewrite.Edit {
	var out []rewrite.Edit
	for _, e := range a.exprs[d] {
		var x ast.Expr
		switch e := e.(type) {
		case *ast.BinaryExpr:
			x = e.X
			if second {
				x = e.Y
			}
		case *ast.CallExpr:
			if len(e.Args) > 0 && !(second && len(e.Args) == 1) {
				x = e.Args[0]
				if second {
					x = e.Args[len(e.Args)-1]
				}
			}
		case *ast.ParenExpr:
			if !second {
				x = e.X
			}
		case *ast.UnaryExpr:
			if !second {
				x = e.X
			}
		case *ast.StarExpr:
			if !second {
				x = e.X
			}
		case *ast.IndexExpr:
			x = e.X
			if second {
				x = e.Index
			}
		case *ast.SliceExpr:
			if !second {
				x = e.X
			}
		case *ast.SelectorExpr:
			if !second && !a.noExpr[e.X] {
				x = e.X
			}
		case *ast.TypeAssertExpr:
			if !second {
				x = e.X
			}
		}
		if x != nil {
			out = append(out, a.repl(e, a.src(x)))
		}
	}
	return out
}

// zero replaces expressions at depth d by the zero value of their type.
func (a *analysis) zero(d int) []rewrite.Edit {
	var out []rewrite.Edit
	for _, e := range a.exprs[d] {
		z := a.zeroOf(e)
		if z != "" && z != a.src(e) {
			out = append(out, a.repl(e, z))
		}
	}
	return out
}

// zeroOf returns the zero value of e's type as source, or "" when it is
// not known.
func (a *analysis) zeroOf(e ast.Expr) string {
	if a.info == nil {
		if lit, ok := e.(*ast.BasicLit); ok {
			return emptyLiteral(lit)
		}
		return ""
	}
	tv, ok := a.info.Types[e]
	if !ok || tv.Type == nil || !tv.IsValue() {
		return ""
	}
	t := tv.Type
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		case u.Kind() == types.UntypedNil, u.Kind() == types.UnsafePointer:
			return "nil"
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil"
	case *types.Struct, *types.Array:
		if n, ok := t.(*types.Named); ok && n.TypeArgs().Len() > 0 {
			return ""
		}
		return types.TypeString(t, func(p *types.Package) string {
			if p.Name() == a.file.Name.Name {
				return ""
			}
			return p.Name()
		}) + "{}"
	}
	return ""
}

func emptyLiteral(lit *ast.BasicLit) string {
	switch lit.Kind {
	case token.STRING:
		return `""`
	case token.INT, token.FLOAT, token.IMAG:
		return "0"
	}
	return ""
}
