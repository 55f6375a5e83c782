package gosyntax

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

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
