package gosyntax

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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

func (a *analysis) comments() []rewrite.Edit {
	var out []rewrite.Edit
	for _, g := range a.file.Comments {
		out = append(out, a.del(g))
	}
	return out
}

func (a *analysis) decls() []rewrite.Edit {
	var out []rewrite.Edit
	for _, d := range a.file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Lparen.IsValid() && len(g.Specs) > 1 {
			for _, s := range g.Specs {
				out = append(out, a.del(s))
			}
			continue
		}
		out = append(out, a.del(d))
	}
	return out
}

// members deletes struct fields and interface methods. A named struct
// field goes with its uses that can go too: the elements of composite
// literals keyed by its name (F: v) and the assignments to it (x.F = v).
func (a *analysis) members() []rewrite.Edit {
	var out []rewrite.Edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.StructType:
			for _, f := range n.Fields.List {
				out = append(out, append(a.del(f), a.fieldUses(f.Names)...))
			}
		case *ast.InterfaceType:
			for _, f := range n.Methods.List {
				out = append(out, a.del(f))
			}
		}
		return true
	})
	return out
}

// fieldUses returns the deletions of the uses of the fields named: keyed
// elements of composite literals, and assignments whose left-hand sides
// all select one of them. Names are matched as such, without types: a
// deletion that removes another struct's field of the same name makes a
// type error, and the candidate is not tested.
func (a *analysis) fieldUses(names []*ast.Ident) rewrite.Edit {
	if len(names) == 0 {
		return nil
	}
	named := map[string]bool{}
	for _, id := range names {
		named[id.Name] = true
	}
	var e rewrite.Edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			for k, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if id, ok := kv.Key.(*ast.Ident); !ok || !named[id.Name] {
					continue
				}
				end := a.off(elt.End())
				if k+1 < len(n.Elts) {
					end = a.off(n.Elts[k+1].Pos())
				} else {
					for end < len(a.text) && (a.text[end] == ' ' || a.text[end] == '\t') {
						end++
					}
					if end < len(a.text) && a.text[end] == ',' {
						end++
					} else {
						end = a.off(elt.End())
					}
				}
				e = append(e, rewrite.Replacement{Start: a.off(elt.Pos()), End: end})
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN {
				return true
			}
			for _, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); !ok || !named[sel.Sel.Name] {
					return true
				}
			}
			e = append(e, a.del(n)...)
		}
		return true
	})
	return e
}

// elements deletes the elements of the composite literals at nesting
// depth d: the rows of a table-driven test, the entries of a map. A long
// array of plain values (a lookup table, [256]byte{...}) is cut short
// instead: deleting one of its values moves all the values after it to
// other indices, so each such deletion fails on its own and delta
// debugging would pay a test for every value; cuts at n/2, 3n/4, ...
// of its n values, and at 0, cost a few.
func (a *analysis) elements(d int) []rewrite.Edit {
	var out []rewrite.Edit
	for _, lit := range a.lits[d] {
		ends := make([]int, len(lit.Elts)) // where each element's deletion ends
		for k, e := range lit.Elts {
			// An element goes with the comma after it, so that deleting
			// every one leaves an empty literal; a trailing comma is
			// valid Go.
			start, end := a.off(e.Pos()), a.off(e.End())
			if k+1 < len(lit.Elts) {
				end = a.off(lit.Elts[k+1].Pos())
			} else {
				for end < len(a.text) && (a.text[end] == ' ' || a.text[end] == '\t') {
					end++
				}
				if end < len(a.text) && a.text[end] == ',' {
					end++
				} else {
					end = a.off(e.End())
				}
			}
			ends[k] = end
			if !plainValues(lit) {
				out = append(out, rewrite.Edit{{Start: start, End: end}})
			}
		}
		if n := len(lit.Elts); plainValues(lit) {
			cuts := []int{0}
			for c := n / 2; c < n; c = max(c+1, (c+n+1)/2) {
				cuts = append(cuts, c)
			}
			for _, c := range cuts {
				out = append(out, rewrite.Edit{{Start: a.off(lit.Elts[c].Pos()), End: ends[n-1]}})
			}
		}
	}
	return out
}

// plainValues reports whether a composite literal is a long array (not
// a slice: a list of test inputs loses any of them) of values without
// keys, none of them a composite literal: a table whose values are known
// by their index.
func plainValues(lit *ast.CompositeLit) bool {
	if t, ok := lit.Type.(*ast.ArrayType); !ok || t.Len == nil || len(lit.Elts) < 8 {
		return false
	}
	for _, e := range lit.Elts {
		switch e.(type) {
		case *ast.KeyValueExpr, *ast.CompositeLit:
			return false
		}
	}
	return true
}

func (a *analysis) deleteStmts(d int) []rewrite.Edit {
	var out []rewrite.Edit
	for _, s := range a.stmts[d] {
		out = append(out, a.del(s))
	}
	return out
}

// body is the text inside a block's braces.
func (a *analysis) body(b *ast.BlockStmt) string {
	if b == nil || !b.Rbrace.IsValid() {
		return ""
	}
	return strings.TrimSpace(string(a.text[a.off(b.Lbrace)+1 : a.off(b.Rbrace)]))
}

// clause is the text of a case clause's statements.
func (a *analysis) clause(s ast.Stmt) string {
	switch c := s.(type) {
	case *ast.CaseClause:
		return strings.TrimSpace(string(a.text[a.off(c.Colon)+1 : a.off(c.End())]))
	case *ast.CommClause:
		return strings.TrimSpace(string(a.text[a.off(c.Colon)+1 : a.off(c.End())]))
	}
	return ""
}

// unwrap replaces compound statements at depth d by a part of them: the
// then-branch of an if, the body of a loop or block, the statement of a
// label, the call of go and defer, the first clause of a switch; with
// second set, the else-branch of an if and the last clause of a switch.
func (a *analysis) unwrap(d int, second bool) []rewrite.Edit {
	var out []rewrite.Edit
	add := func(s ast.Stmt, text string) {
		if text != a.src(s) {
			out = append(out, a.repl(s, text))
		}
	}
	withInit := func(init ast.Stmt, text string) string {
		if init == nil {
			return text
		}
		return a.src(init) + "\n" + text
	}
	for _, s := range a.stmts[d] {
		switch s := s.(type) {
		case *ast.IfStmt:
			switch {
			case !second:
				add(s, withInit(s.Init, a.body(s.Body)))
			case s.Else == nil:
			case isBlock(s.Else):
				add(s, withInit(s.Init, a.body(s.Else.(*ast.BlockStmt))))
			default:
				add(s, withInit(s.Init, a.src(s.Else)))
			}
		case *ast.ForStmt:
			if !second {
				add(s, a.body(s.Body))
			}
		case *ast.RangeStmt:
			if !second {
				add(s, a.body(s.Body))
			}
		case *ast.BlockStmt:
			if !second {
				add(s, a.body(s))
			}
		case *ast.LabeledStmt:
			if !second {
				add(s, a.src(s.Stmt))
			}
		case *ast.GoStmt:
			if !second {
				add(s, a.src(s.Call))
			}
		case *ast.DeferStmt:
			if !second {
				add(s, a.src(s.Call))
			}
		case *ast.SwitchStmt:
			a.unwrapSwitch(s, s.Init, s.Body, second, add, withInit)
		case *ast.TypeSwitchStmt:
			a.unwrapSwitch(s, s.Init, s.Body, second, add, withInit)
		case *ast.SelectStmt:
			a.unwrapSwitch(s, nil, s.Body, second, add, withInit)
		}
	}
	return out
}

func (a *analysis) unwrapSwitch(s, init ast.Stmt, body *ast.BlockStmt, second bool,
	add func(ast.Stmt, string), withInit func(ast.Stmt, string) string) {
	if body == nil || len(body.List) == 0 {
		return
	}
	c := body.List[0]
	if second {
		if len(body.List) < 2 {
			return
		}
		c = body.List[len(body.List)-1]
	}
	add(s, withInit(init, a.clause(c)))
}

func isBlock(s ast.Stmt) bool { _, ok := s.(*ast.BlockStmt); return ok }

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

// shortenIdents renames each name declared in the file to a one- or
// two-letter name not used in the file, everywhere it occurs.
func (a *analysis) shortenIdents() []rewrite.Edit {
	used := map[string]bool{}
	for _, id := range a.idents {
		used[id.Name] = true
	}
	byName := map[string][]*ast.Ident{}
	for _, id := range a.idents {
		byName[id.Name] = append(byName[id.Name], id)
	}
	next := 0
	fresh := func() string {
		for {
			name := shortName(next)
			next++
			if !used[name] && token.Lookup(name) == token.IDENT && types.Universe.Lookup(name) == nil {
				return name
			}
		}
	}
	var out []rewrite.Edit
	for _, name := range a.declared {
		if name == "main" || name == "init" || len(name) <= 1 || a.isPackage(&ast.Ident{Name: name}) || a.testName(name) {
			continue
		}
		short := fresh()
		if len(short) >= len(name) {
			continue
		}
		var e rewrite.Edit
		for _, id := range byName[name] {
			e = append(e, rewrite.Replacement{Start: a.off(id.Pos()), End: a.off(id.End()), Text: short})
		}
		out = append(out, e)
	}
	return out
}

// testName reports whether name, in a test file, names a test, benchmark,
// fuzz test or example for go test: renamed, it would no longer run.
func (a *analysis) testName(name string) bool {
	if !strings.HasSuffix(a.tf.Name(), "_test.go") {
		return false
	}
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			return rest == "" || !unicode.IsLower(r)
		}
	}
	return false
}

// shortName returns the n-th name of a, b, ..., z, aa, ab, ...
func shortName(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	if n < len(letters) {
		return letters[n : n+1]
	}
	return shortName(n/len(letters)-1) + letters[n%len(letters):n%len(letters)+1]
}

// literals returns the string and number literals outside imports and
// struct tags.
func (a *analysis) literals() []*ast.BasicLit {
	tags := map[*ast.BasicLit]bool{}
	var out []*ast.BasicLit
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Field:
			if n.Tag != nil {
				tags[n.Tag] = true
			}
		case *ast.BasicLit:
			if !tags[n] {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

func (a *analysis) emptyLiterals() []rewrite.Edit {
	var out []rewrite.Edit
	for _, lit := range a.literals() {
		if z := emptyLiteral(lit); z != "" && z != lit.Value {
			out = append(out, a.repl(lit, z))
		}
	}
	return out
}

// halveStrings keeps the first half of each string literal.
func (a *analysis) halveStrings() []rewrite.Edit {
	var out []rewrite.Edit
	for _, lit := range a.literals() {
		if lit.Kind != token.STRING {
			continue
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || utf8.RuneCountInString(s) < 2 {
			continue
		}
		r := []rune(s)
		half := strconv.Quote(string(r[:len(r)/2]))
		if strings.HasPrefix(lit.Value, "`") && !strings.ContainsAny(string(r[:len(r)/2]), "`\r") {
			half = "`" + string(r[:len(r)/2]) + "`"
		}
		if len(half) < len(lit.Value) {
			out = append(out, a.repl(lit, half))
		}
	}
	return out
}

// deleteDefs deletes each short variable declaration (x, y := E), and
// each var declaration in a function, with the uses of its variables, each replaced by the zero value of its type:
// a statement that computes a value the failure does not need goes, where
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
