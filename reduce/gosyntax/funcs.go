package gosyntax

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// params deletes each parameter of each function together with the
// matching argument of the calls of the function in the file.
func (a *analysis) params() []rewrite.Edit {
	var out []rewrite.Edit
	for _, d := range a.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Type.Params == nil {
			continue
		}
		// The parameters, flattened: one item per name (or per unnamed
		// field), and how to delete each from the signature.
		var dels []rewrite.Replacement
		fields := fd.Type.Params.List
		fieldNodes := make([]ast.Node, len(fields))
		for i, f := range fields {
			fieldNodes[i] = f
		}
		variadic := false
		for i, f := range fields {
			if _, ok := f.Type.(*ast.Ellipsis); ok {
				variadic = true
			}
			if len(f.Names) <= 1 {
				dels = append(dels, a.listDel(fieldNodes, i))
				continue
			}
			names := make([]ast.Node, len(f.Names))
			for j, n := range f.Names {
				names[j] = n
			}
			for j := range f.Names {
				r := a.listDel(names, j)
				if j == len(f.Names)-1 {
					// "a, b int" -> "a int": delete ", b".
					r = rewrite.Replacement{Start: a.off(f.Names[j-1].End()), End: a.off(f.Names[j].End())}
				}
				dels = append(dels, r)
			}
		}
		if variadic {
			continue
		}
		for k, del := range dels {
			e := rewrite.Edit{del}
			for _, c := range a.calls {
				if !calls(c, fd) || len(c.Args) != len(dels) || c.Ellipsis.IsValid() {
					continue
				}
				args := make([]ast.Node, len(c.Args))
				for j, x := range c.Args {
					args[j] = x
				}
				e = append(e, a.listDel(args, k))
			}
			out = append(out, e)
		}
	}
	return out
}

// receivers turns each method into a function by deleting its receiver
// and, when no other method of the file has its name, the operand of its
// calls (x.m(...) becomes m(...)).
func (a *analysis) receivers() []rewrite.Edit {
	methods := map[string]int{}
	for _, d := range a.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			methods[fd.Name.Name]++
		}
	}
	var out []rewrite.Edit
	for _, d := range a.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil {
			continue
		}
		e := a.del(fd.Recv)
		if methods[fd.Name.Name] == 1 {
			for _, c := range a.calls {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == fd.Name.Name && !a.noExpr[sel.X] {
					e = append(e, rewrite.Replacement{Start: a.off(sel.X.Pos()), End: a.off(sel.Sel.Pos())})
				}
			}
		}
		out = append(out, e)
	}
	return out
}

// results makes each function return nothing: it deletes the result
// list and the values of the function's return statements.
func (a *analysis) results() []rewrite.Edit {
	var out []rewrite.Edit
	for _, d := range a.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Type.Results == nil || fd.Body == nil {
			continue
		}
		e := rewrite.Edit{{Start: a.off(fd.Type.Results.Pos()), End: a.off(fd.Type.Results.End())}}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) > 0 {
					e = append(e, rewrite.Replacement{Start: a.off(n.Results[0].Pos()), End: a.off(n.Results[len(n.Results)-1].End())})
				}
			}
			return true
		})
		out = append(out, e)
	}
	return out
}

// args deletes each argument of each call.
func (a *analysis) args() []rewrite.Edit {
	var out []rewrite.Edit
	for _, c := range a.calls {
		if c.Ellipsis.IsValid() {
			continue
		}
		args := make([]ast.Node, len(c.Args))
		for j, x := range c.Args {
			args[j] = x
		}
		for k := range args {
			out = append(out, rewrite.Edit{a.listDel(args, k)})
		}
	}
	return out
}

// calls reports whether the call may call the function or method fd.
func calls(c *ast.CallExpr, fd *ast.FuncDecl) bool {
	switch fun := c.Fun.(type) {
	case *ast.Ident:
		return fd.Recv == nil && fun.Name == fd.Name.Name
	case *ast.SelectorExpr:
		return fd.Recv != nil && fun.Sel.Name == fd.Name.Name
	}
	return false
}

// inline replaces a variable defined once (x := e) and used once by its
// value at the use, deleting the definition.
func (a *analysis) inline() []rewrite.Edit {
	uses := map[string][]*ast.Ident{}
	for _, id := range a.idents {
		uses[id.Name] = append(uses[id.Name], id)
	}
	var out []rewrite.Edit
	for _, list := range a.stmts {
		for _, s := range list {
			as, ok := s.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				continue
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok || id.Name == "_" || len(uses[id.Name]) != 2 || uses[id.Name][0] != id {
				continue
			}
			use := uses[id.Name][1]
			if use.Pos() < as.End() {
				continue
			}
			val := a.src(as.Rhs[0])
			switch as.Rhs[0].(type) {
			case *ast.Ident, *ast.BasicLit, *ast.CallExpr, *ast.SelectorExpr, *ast.IndexExpr, *ast.CompositeLit, *ast.ParenExpr:
			default:
				val = "(" + val + ")"
			}
			e := a.del(as)
			e = append(e, a.repl(use, val)...)
			out = append(out, e)
		}
	}
	return out
}

// inlineFuncs inlines each function called once in the file, deleting
// it: a call statement f(x, y) becomes the block { a, b := x, y; BODY }
// (a and b the parameters) for a function without results or return
// statements; a call f() of a function without parameters whose body is
// "return E" becomes (E).
func (a *analysis) inlineFuncs() []rewrite.Edit {
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range a.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil && fd.Type.TypeParams == nil &&
			fd.Name.Name != "main" && fd.Name.Name != "init" {
			funcs[fd.Name.Name] = fd
		}
	}
	uses := map[string]int{}
	for _, id := range a.idents {
		if funcs[id.Name] != nil && id != funcs[id.Name].Name {
			uses[id.Name]++
		}
	}
	// The call statements, by the function they call.
	stmtOf := map[*ast.CallExpr]ast.Stmt{}
	for _, list := range a.stmts {
		for _, st := range list {
			if es, ok := st.(*ast.ExprStmt); ok {
				if c, ok := es.X.(*ast.CallExpr); ok {
					stmtOf[c] = es
				}
			}
		}
	}
	var out []rewrite.Edit
	for _, c := range a.calls {
		id, ok := c.Fun.(*ast.Ident)
		if !ok {
			continue
		}
		fd := funcs[id.Name]
		if fd == nil || uses[id.Name] != 1 || c.Ellipsis.IsValid() || a.off(c.Pos()) >= a.off(fd.Pos()) && a.off(c.End()) <= a.off(fd.End()) {
			continue
		}
		var repl rewrite.Edit
		switch st, isStmt := stmtOf[c]; {
		case isStmt && fd.Type.Results == nil && !hasReturn(fd.Body):
			var params []string
			for _, f := range fd.Type.Params.List {
				for _, n := range f.Names {
					params = append(params, n.Name)
				}
				if len(f.Names) == 0 {
					params = append(params, "_")
				}
			}
			if len(params) != len(c.Args) {
				continue
			}
			block := "{\n"
			if len(params) > 0 {
				var args []string
				for _, x := range c.Args {
					args = append(args, a.src(x))
				}
				block += strings.Join(params, ", ") + " := " + strings.Join(args, ", ") + "\n"
			}
			block += a.body(fd.Body) + "\n}"
			repl = a.repl(st, block)
		case fd.Type.Params.NumFields() == 0 && len(fd.Body.List) == 1:
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			repl = a.repl(c, "("+a.src(ret.Results[0])+")")
		default:
			continue
		}
		out = append(out, append(repl, a.del(fd)...))
	}
	return out
}

// hasReturn reports whether a function body returns, outside the function
// literals in it.
func hasReturn(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// deleteDefs deletes each short variable declaration (x, y := E), and
// each var declaration in a function, with the uses of its variables,
// each replaced by the zero value of its type: a statement that computes
// a value the failure does not need goes, where
// deleting it alone would leave its variables undefined, and replacing
// the uses alone would leave them unused.
func (a *analysis) deleteDefs() []rewrite.Edit {
	if a.info == nil || a.info.Defs == nil {
		return nil
	}
	uses := map[types.Object][]*ast.Ident{}
	for id, obj := range a.info.Uses {
		if _, ok := obj.(*types.Var); ok {
			uses[obj] = append(uses[obj], id)
		}
	}
	// Uses where a value cannot stand: assigned, incremented, addressed.
	lvalue := map[*ast.Ident]bool{}
	mark := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok {
			lvalue[id] = true
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		case *ast.RangeStmt:
			mark(n.Key)
			mark(n.Value)
		}
		return true
	})
	var out []rewrite.Edit
	for _, list := range a.stmts {
		for _, s := range list {
			var lhs []ast.Expr
			switch s := s.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE {
					lhs = s.Lhs
				}
			case *ast.DeclStmt:
				// var x, y T = E
				if g, isGen := s.Decl.(*ast.GenDecl); isGen && g.Tok == token.VAR && len(g.Specs) == 1 {
					for _, id := range g.Specs[0].(*ast.ValueSpec).Names {
						lhs = append(lhs, id)
					}
				}
			}
			if lhs == nil {
				continue
			}
			e, n, ok := a.del(s), 0, true
			for _, l := range lhs {
				id, isID := l.(*ast.Ident)
				if !isID {
					ok = false
					break
				}
				obj := a.info.Defs[id]
				if obj == nil {
					continue // _, or a variable declared before
				}
				for _, u := range uses[obj] {
					z := a.zeroOf(u)
					if z == "" || lvalue[u] {
						ok = false
						break
					}
					e = append(e, a.repl(u, z)...)
					n++
				}
			}
			if ok && n > 0 {
				out = append(out, e)
			}
		}
	}
	return out
}
