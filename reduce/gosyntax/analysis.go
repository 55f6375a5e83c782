package gosyntax

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// analysis holds a parsed file and the nodes the rounds edit.
type analysis struct {
	text []byte
	fset *token.FileSet
	file *ast.File
	tf   *token.File
	info *types.Info // nil without type information

	stmts    [][]ast.Stmt          // statements by depth, 0 = function bodies
	lits     [][]*ast.CompositeLit // composite literals by nesting depth
	exprs    [][]ast.Expr          // replaceable expressions by depth
	noExpr   map[ast.Expr]bool
	calls    []*ast.CallExpr
	idents   []*ast.Ident
	declared []string // names declared in the file, in order
}

func (a *analysis) off(p token.Pos) int { return a.tf.Offset(p) }

func (a *analysis) src(n ast.Node) string { return string(a.text[a.off(n.Pos()):a.off(n.End())]) }

// del deletes a node with the blanks that follow it, and the newline
// after them when the node starts its line: a comment after code on its
// line goes without the newline, which would join the code to the next
// line's.
func (a *analysis) del(n ast.Node) rewrite.Edit {
	start, end := a.off(n.Pos()), a.off(n.End())
	for end < len(a.text) && (a.text[end] == ' ' || a.text[end] == '\t') {
		end++
	}
	first := true
	for i := start - 1; i >= 0 && a.text[i] != '\n'; i-- {
		if a.text[i] != ' ' && a.text[i] != '\t' {
			first = false
			break
		}
	}
	if first && end < len(a.text) && a.text[end] == '\n' {
		end++
	}
	return rewrite.Edit{{Start: start, End: end}}
}

func (a *analysis) repl(n ast.Node, text string) rewrite.Edit {
	return rewrite.Edit{{Start: a.off(n.Pos()), End: a.off(n.End()), Text: text}}
}

// listDel deletes element k of a comma-separated list with its comma.
func (a *analysis) listDel(items []ast.Node, k int) rewrite.Replacement {
	switch {
	case k+1 < len(items):
		return rewrite.Replacement{Start: a.off(items[k].Pos()), End: a.off(items[k+1].Pos())}
	case k > 0:
		return rewrite.Replacement{Start: a.off(items[k-1].End()), End: a.off(items[k].End())}
	}
	return rewrite.Replacement{Start: a.off(items[k].Pos()), End: a.off(items[k].End())}
}

// collect walks the file once and records the nodes of the rounds.
func (a *analysis) collect() {
	a.noExpr = map[ast.Expr]bool{}
	seen := map[string]bool{}
	declare := func(id *ast.Ident) {
		if id != nil && id.Name != "_" && !seen[id.Name] {
			seen[id.Name] = true
			a.declared = append(a.declared, id.Name)
		}
	}
	var stack []ast.Node
	stmtDepth, exprDepth, litDepth := 0, 0, 0
	ast.Inspect(a.file, func(n ast.Node) bool {
		if n == nil {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch top.(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				stmtDepth--
			case *ast.CompositeLit:
				litDepth--
			}
			if _, ok := top.(ast.Expr); ok && !a.noExpr[top.(ast.Expr)] {
				exprDepth--
			}
			return true
		}
		if _, ok := n.(*ast.ImportSpec); ok {
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.BlockStmt:
			a.addStmts(stmtDepth, n.List)
			stmtDepth++
		case *ast.CaseClause:
			a.addStmts(stmtDepth, n.Body)
			stmtDepth++
			for _, e := range n.List {
				a.noType(e)
			}
		case *ast.CommClause:
			a.addStmts(stmtDepth, n.Body)
			stmtDepth++
		case *ast.FuncDecl:
			if n.Recv == nil {
				declare(n.Name)
			}
		case *ast.TypeSpec:
			declare(n.Name)
			a.noType(n.Type)
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declare(id)
			}
			a.noType(n.Type)
		case *ast.Field:
			for _, id := range n.Names {
				declare(id)
			}
			a.noType(n.Type)
		case *ast.AssignStmt:
			for _, e := range n.Lhs {
				a.noExpr[e] = true
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
					declare(id)
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					a.noExpr[e] = true
					if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
						declare(id)
					}
				}
			}
		case *ast.IncDecStmt:
			a.noExpr[n.X] = true
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				a.noExpr[n.X] = true
			}
		case *ast.CallExpr:
			a.calls = append(a.calls, n)
			a.noExpr[n.Fun] = true
		case *ast.SelectorExpr:
			a.noExpr[n.Sel] = true
			if id, ok := n.X.(*ast.Ident); ok && a.isPackage(id) {
				a.noExpr[id] = true
			}
		case *ast.KeyValueExpr:
			a.noExpr[n.Key] = true
		case *ast.CompositeLit:
			a.noType(n.Type)
			for len(a.lits) <= litDepth {
				a.lits = append(a.lits, nil)
			}
			a.lits[litDepth] = append(a.lits[litDepth], n)
			litDepth++
		case *ast.FuncLit:
			a.noType(n.Type)
		case *ast.TypeAssertExpr:
			a.noType(n.Type)
		case *ast.LabeledStmt:
			a.noExpr[n.Label] = true
		case *ast.BranchStmt:
			if n.Label != nil {
				a.noExpr[n.Label] = true
			}
		case *ast.Ident:
			if n != a.file.Name {
				a.idents = append(a.idents, n)
			}
		}
		if e, ok := n.(ast.Expr); ok && !a.noExpr[e] {
			if a.replaceable(e) {
				for len(a.exprs) <= exprDepth {
					a.exprs = append(a.exprs, nil)
				}
				a.exprs[exprDepth] = append(a.exprs[exprDepth], e)
			}
			exprDepth++
		}
		return true
	})
}

// noType marks a type expression and everything in it as no value.
func (a *analysis) noType(e ast.Expr) {
	if e == nil {
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.BlockStmt:
			return false
		case ast.Expr:
			a.noExpr[n] = true
		}
		return true
	})
}

// isPackage reports whether id names an imported package.
func (a *analysis) isPackage(id *ast.Ident) bool {
	for _, imp := range a.file.Imports {
		if importName(imp) == id.Name {
			return true
		}
	}
	return false
}

// replaceable reports whether e is a value that a round may replace.
func (a *analysis) replaceable(e ast.Expr) bool {
	switch e.(type) {
	case *ast.KeyValueExpr, *ast.Ellipsis, *ast.ArrayType, *ast.MapType, *ast.ChanType,
		*ast.FuncType, *ast.StructType, *ast.InterfaceType:
		return false
	}
	if a.info != nil {
		tv, ok := a.info.Types[e]
		if ok && !tv.IsValue() {
			return false
		}
	}
	return true
}

func (a *analysis) addStmts(depth int, list []ast.Stmt) {
	for len(a.stmts) <= depth {
		a.stmts = append(a.stmts, nil)
	}
	a.stmts[depth] = append(a.stmts[depth], list...)
}

// A round is one kind of edit at one depth of the tree, with its key
// (rewrite.Keyed): the stage, the kind, the depth, and the variant at
// that depth.
type round struct {
	key   rewrite.Key
	name  string // what it edits, for progress reports
	edits func() []rewrite.Edit
}

// rounds lists the rounds on this file, largest subtrees first; the keys
// keep that order across files, whatever their depths.
func (a *analysis) rounds() []round {
	var rs []round
	stage, kind := 0, 0
	add := func(name string, depth, variant int, f func() []rewrite.Edit) {
		rs = append(rs, round{rewrite.Key{stage, kind, depth, variant}, name, f})
	}
	type named struct {
		name string
		f    func() []rewrite.Edit
	}
	next := func(ns ...named) {
		for _, n := range ns {
			add(n.name, 0, 0, n.f)
			kind++
		}
	}
	next(named{"comments", a.comments}, named{"decls", a.decls}, named{"members", a.members})
	for d := range a.lits {
		add("elements", d, 0, func() []rewrite.Edit { return a.elements(d) })
	}
	kind++
	next(named{"receivers", a.receivers}, named{"results", a.results})
	for d := range a.stmts {
		add("stmts", d, 0, func() []rewrite.Edit { return a.deleteStmts(d) })
		add("then", d, 1, func() []rewrite.Edit { return a.unwrap(d, false) })
		add("else", d, 2, func() []rewrite.Edit { return a.unwrap(d, true) })
	}
	kind++
	next(named{"defs", a.deleteDefs}, named{"params", a.params}, named{"inline", a.inline}, named{"inline", a.inlineFuncs})
	// The edits of one expression: each of a few bytes, and mostly a test
	// that fails otherwise (a test's message prints the value); they wait
	// until the rounds above, which delete more, are done.
	stage = 1
	next(named{"args", a.args})
	for d := range a.exprs {
		add("operand", d, 0, func() []rewrite.Edit { return a.operand(d, false) })
		add("operand", d, 1, func() []rewrite.Edit { return a.operand(d, true) })
		add("zero", d, 2, func() []rewrite.Edit { return a.zero(d) })
	}
	// The edits of a name or a literal: many, each of a few bytes, and
	// often each a test that fails otherwise (a test's message prints
	// the literal); they wait until the rounds above are done.
	stage = 2
	next(named{"idents", a.shortenIdents}, named{"literals", a.emptyLiterals}, named{"literals", a.halveStrings})
	return rs
}
