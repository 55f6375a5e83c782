package instrument

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"sort"
	"strings"
)

// This file writes mutant schemata: every mutant of a file's chosen
// lines is compiled into one copy of the file, each guarded by its
// number, so that one build runs them all (Untch et al.'s mutant
// schemata): the test binary reads the mutant to enable from the
// environment (mutantEnv). Mutants never evaluate an operand twice
// unless it is free of effects.

// mutantEnv names the environment variable holding the enabled mutant.
const mutantEnv = "CULPRIT_MUTANT"

// mutName is the package variable holding the enabled mutant's number.
const mutName = "_culpritMut"

// MutantSite is one mutant: where, and what it changes.
type MutantSite struct {
	ID       int    // from 1; 0 is the original program
	File     string // absolute
	Line     int
	Operator string // "negate", "boundary", "and-or", "arith", "+1", "-1", "delete", "zero", "skip", "var x", "+=", "-=", "=", "value", "keep x"
}

// mutator writes the mutants of one file.
type mutator struct {
	fset  *token.FileSet
	info  *types.Info
	pkg   *types.Package
	file  *ast.File
	tok   *token.File
	src   []byte
	path  string
	lines map[int]bool
	// imports are the packages this file imports by name, by path
	// (typeName's cache).
	imports map[string]*types.PkgName
	next    *int // the next mutant number, shared by every file of a build
	sites   []MutantSite
	edits   []insertion
	seq     int
}

func (m *mutator) add(n ast.Node, op string) int {
	*m.next++
	id := *m.next
	m.sites = append(m.sites, MutantSite{ID: id, File: m.path, Line: m.fset.Position(n.Pos()).Line, Operator: op})
	return id
}

// open and close insert text before and after a node: at one offset,
// closings come first, inner ones (opened later) before outer ones.
func (m *mutator) open(off int, text string) {
	m.seq++
	m.edits = append(m.edits, insertion{off: off, seq: m.seq, text: text})
}

func (m *mutator) close(off int, text string) {
	m.seq++
	m.edits = append(m.edits, insertion{off: off, seq: m.seq, text: text, close: true})
}

func (m *mutator) on(n ast.Node) bool { return m.lines[m.fset.Position(n.Pos()).Line] }

func (m *mutator) off(p token.Pos) int { return m.tok.Offset(p) }

func (m *mutator) text(n ast.Node) string { return string(m.src[m.off(n.Pos()):m.off(n.End())]) }

// typeText returns how to name e's type where e is, "" when it cannot
// be named there (see typeName).
func (m *mutator) typeText(e ast.Expr) string {
	t := m.info.TypeOf(e)
	if t == nil {
		return ""
	}
	return m.typeName(t, e.Pos())
}

// typeName returns how to name t at pos in this file: types of other
// packages through the name this file imports them by. It is "" when t
// cannot be named there: an untyped constant's type, a type of a
// package this file does not import (or imports with a dot or a
// blank), or one whose import name a declaration at pos shadows.
func (m *mutator) typeName(t types.Type, pos token.Pos) string {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return ""
	}
	if m.imports == nil {
		m.imports = map[string]*types.PkgName{}
		for _, spec := range m.file.Imports {
			if pn := m.info.PkgNameOf(spec); pn != nil && pn.Name() != "_" && pn.Name() != "." {
				m.imports[pn.Imported().Path()] = pn
			}
		}
	}
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == m.pkg {
			return ""
		}
		pn := m.imports[p.Path()]
		if pn == nil {
			ok = false
			return p.Name()
		}
		if _, o := m.pkg.Scope().Innermost(pos).LookupParent(pn.Name(), pos); o != pn {
			ok = false // shadowed here
		}
		return pn.Name()
	})
	if !ok {
		return ""
	}
	return s
}

// guard is the test for mutant id.
func guard(id int) string { return fmt.Sprintf("%s == %d", mutName, id) }

// mutate finds and writes the mutants of the chosen lines: in pre-order,
// so that an enclosing mutant's edits come before those inside it.
func (m *mutator) mutate() {
	negated := map[ast.Expr]bool{}
	unused := map[*ast.CallExpr]bool{}  // calls whose results no one reads
	cases := map[*ast.CaseClause]bool{} // expression switches' clauses: true where the switch has no tag
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GenDecl:
			return x.Tok != token.CONST
		case *ast.ArrayType:
			return false // array lengths are constants
		case *ast.SwitchStmt:
			for _, s := range x.Body.List {
				if cc, ok := s.(*ast.CaseClause); ok {
					cases[cc] = x.Tag == nil
				}
			}
		case *ast.CaseClause:
			m.statements(x.Body)
			// A switch with no tag chooses by conditions, as an if
			// chain does: each is negated, and mutated inside.
			// Another's case values are mutated as literals (a
			// constant one more or less is no longer constant, so it
			// cannot duplicate another case). A type switch's cases
			// are types: they stay as written.
			cond, expr := cases[x]
			for _, e := range x.List {
				if !expr {
					break
				}
				if cond && m.on(e) && !m.isConst(e) {
					m.negate(e)
					negated[ast.Unparen(e)] = true
				}
				ast.Inspect(e, visit)
			}
			for _, b := range x.Body {
				ast.Inspect(b, visit)
			}
			return false
		case *ast.CompositeLit:
			for _, e := range x.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value // keys of arrays and maps may have to be constants
				}
				ast.Inspect(e, visit)
			}
			return false
		case *ast.BlockStmt:
			m.statements(x.List)
		case *ast.CommClause:
			m.statements(x.Body)
		case *ast.IfStmt:
			if x.Cond != nil && m.on(x.Cond) {
				m.negate(x.Cond)
				negated[ast.Unparen(x.Cond)] = true
			}
		case *ast.ForStmt:
			if x.Cond != nil && m.on(x.Cond) {
				m.negate(x.Cond)
				negated[ast.Unparen(x.Cond)] = true
			}
		case *ast.BinaryExpr:
			if !m.on(x) || m.isConst(x) {
				break
			}
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				if !negated[x] {
					m.negate(x)
				}
			}
			m.binary(x)
		case *ast.BasicLit:
			m.literal(x)
		case *ast.UnaryExpr:
			m.signedLiteral(x)
		case *ast.IndexExpr:
			if m.sequence(x.X) {
				m.offByOne(x.Index)
			}
		case *ast.SliceExpr:
			if m.sequence(x.X) {
				m.offByOne(x.Low)
				m.offByOne(x.High)
			}
		case *ast.ReturnStmt:
			m.operands(x.Results...)
			for _, r := range x.Results {
				m.result(r)
			}
		case *ast.AssignStmt:
			m.operands(x.Rhs...)
			if len(x.Lhs) == len(x.Rhs) && (x.Tok == token.ASSIGN || x.Tok == token.DEFINE) {
				for _, r := range x.Rhs {
					m.zeroValue(r)
				}
			}
		case *ast.RangeStmt:
			m.skipLoop(x)
			m.rangeValue(x)
		case *ast.ExprStmt:
			if c, ok := x.X.(*ast.CallExpr); ok {
				unused[c] = true
			}
		case *ast.GoStmt:
			unused[x.Call] = true
		case *ast.DeferStmt:
			unused[x.Call] = true
		case *ast.CallExpr:
			if !unused[x] {
				m.zero(x)
			}
			m.operands(x.Args...)
		}
		if b, ok := n.(*ast.BinaryExpr); ok && m.on(b) && !m.isConst(b) {
			m.operands(b.X, b.Y)
		}
		return true
	}
	ast.Inspect(m.file, visit)
}

// results are the types of a call's results (none for a conversion or
// a builtin).
func (m *mutator) results(call *ast.CallExpr) []types.Type {
	if tv, ok := m.info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return nil
	}
	switch t := m.info.TypeOf(call).(type) {
	case nil:
		return nil
	case *types.Tuple:
		out := make([]types.Type, t.Len())
		for i := range out {
			out[i] = t.At(i).Type()
		}
		return out
	default:
		return []types.Type{t}
	}
}

// resultNames names the types of a call's results where the call is,
// nil when one cannot be named there (or the call has none).
func (m *mutator) resultNames(call *ast.CallExpr) []string {
	results := m.results(call)
	names := make([]string, len(results))
	for i, t := range results {
		if names[i] = m.typeName(t, call.Pos()); names[i] == "" {
			return nil
		}
	}
	return names
}

// zero makes a call's mutant that yields its results' zero values
// instead of calling: a call computing the wrong value is a fault the
// other operators cannot reach ("host := getHost(req)", "_, err :=
// convert(v, ty)"). Only calls of functions (not conversions or
// builtins), whose results are read, of types this file can name.
func (m *mutator) zero(call *ast.CallExpr) {
	if !m.on(call) {
		return
	}
	names := m.resultNames(call)
	if len(names) == 0 {
		return
	}
	zeros := make([]string, len(names))
	for i, n := range names {
		zeros[i] = "*new(" + n + ")"
	}
	results := strings.Join(names, ", ")
	if len(names) > 1 {
		results = "(" + results + ")"
	}
	id := m.add(call, "zero")
	m.open(m.off(call.Pos()), fmt.Sprintf("func() %s { if %s { return %s }; return ", results, guard(id), strings.Join(zeros, ", ")))
	m.close(m.off(call.End()), " }()")
}

// zeroValue makes the mutant of a value read from memory (a field, an
// element, a slice of one, a dereference, a type assertion) or built (a
// composite literal) that yields its type's zero value instead: the
// wrong value assigned or returned, as zero does for calls. Only in
// single-valued contexts (a comma-ok form is not wrapped).
func (m *mutator) zeroValue(e ast.Expr) {
	switch ast.Unparen(e).(type) {
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr, *ast.SliceExpr, *ast.CompositeLit, *ast.TypeAssertExpr:
	default:
		return
	}
	if !m.on(e) || m.isConst(e) {
		return
	}
	if tv, ok := m.info.Types[e]; !ok || !tv.IsValue() {
		return
	}
	t := m.typeText(e)
	if t == "" {
		return
	}
	id := m.add(e, "zero")
	m.open(m.off(e.Pos()), fmt.Sprintf("func() %s { if %s { return *new(%s) }; return ", t, guard(id), t))
	m.close(m.off(e.End()), " }()")
}

// result makes a returned value's mutants beyond its operands': a
// boolean result negated (a comparison is negated where it stands), any
// other read value zeroed (zeroValue).
func (m *mutator) result(e ast.Expr) {
	if !m.on(e) {
		return
	}
	if b, ok := m.info.TypeOf(e).Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
		if x, ok := ast.Unparen(e).(*ast.BinaryExpr); ok {
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				return
			}
		}
		id := m.add(e, "negate")
		m.open(m.off(e.Pos()), "((")
		m.close(m.off(e.End()), fmt.Sprintf(") != (%s))", guard(id)))
		return
	}
	m.zeroValue(e)
}

// skipLoop makes a range loop's mutant that ranges over its operand's
// zero value: the loop body skipped (not over channels, which would
// block, or functions, which would panic).
func (m *mutator) skipLoop(r *ast.RangeStmt) {
	if r.X == nil || !m.on(r.X) || m.isConst(r.X) {
		return
	}
	t := m.info.TypeOf(r.X)
	if t == nil {
		return
	}
	switch t.Underlying().(type) {
	case *types.Chan, *types.Signature, *types.Interface:
		return // a type parameter's core type may be either
	}
	name := m.typeText(r.X)
	if name == "" {
		return
	}
	id := m.add(r.X, "skip")
	m.open(m.off(r.X.Pos()), fmt.Sprintf("func() %s { if %s { return *new(%s) }; return ", name, guard(id), name))
	m.close(m.off(r.X.End()), " }()")
}

// maxReplacements bounds the variables tried in place of one.
const maxReplacements = 2

// operands makes, for each operand that is a local variable, the mutants
// that read another local variable of the same type in its place (the
// wrong variable: "return y" for "return x").
func (m *mutator) operands(es ...ast.Expr) {
	for _, e := range es {
		id, ok := e.(*ast.Ident)
		if !ok || !m.on(id) {
			continue
		}
		v, ok := m.info.Uses[id].(*types.Var)
		if !ok || v.Parent() == nil || v.Parent() == m.pkg.Scope() || v.Pkg() != m.pkg {
			continue
		}
		t := m.typeText(id)
		if t == "" {
			continue
		}
		alts := m.sameTyped(v, id.Pos())
		if len(alts) == 0 {
			continue
		}
		var cases strings.Builder
		for _, alt := range alts {
			mid := m.add(id, "var "+alt)
			fmt.Fprintf(&cases, "if %s { return %s }; ", guard(mid), alt)
		}
		m.open(m.off(id.Pos()), fmt.Sprintf("func() %s { %sreturn ", t, cases.String()))
		m.close(m.off(id.End()), " }()")
	}
}

// sameTyped returns up to maxReplacements local variables other than v,
// declared before pos in the scopes around it, of v's type, nearest
// first.
func (m *mutator) sameTyped(v *types.Var, pos token.Pos) []string {
	return m.localsOfType(v.Type(), pos, map[string]bool{v.Name(): true}, nil)
}

// localsOfType appends to out, up to maxReplacements in all, the local
// variables of type t in scope at pos whose names are not in seen,
// nearest scope first, and returns it.
func (m *mutator) localsOfType(t types.Type, pos token.Pos, seen map[string]bool, out []string) []string {
	inner := m.pkg.Scope().Innermost(pos)
	for sc := inner; sc != nil && sc != m.pkg.Scope() && sc != types.Universe; sc = sc.Parent() {
		names := sc.Names()
		sort.Strings(names)
		for _, name := range names {
			if len(out) == maxReplacements {
				return out
			}
			if seen[name] || name == "_" {
				continue
			}
			w, ok := sc.Lookup(name).(*types.Var)
			if !ok || !types.Identical(w.Type(), t) {
				continue
			}
			// In scope at pos (a variable's scope starts after its
			// declaration's statement) and not shadowed there.
			if _, o := inner.LookupParent(name, pos); o != w {
				continue
			}
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// literal makes an integer literal's mutants, one more and one less,
// where it is a value of a type this file can name.
func (m *mutator) literal(lit *ast.BasicLit) {
	if lit.Kind != token.INT || !m.on(lit) {
		return
	}
	m.plusMinusOne(lit, lit)
}

// plusMinusOne makes lit's mutants one more and one less, in the type
// of typed (lit itself, or the signed expression around it), where
// that is an integer type this file can name.
func (m *mutator) plusMinusOne(lit *ast.BasicLit, typed ast.Expr) {
	t := m.typeText(typed)
	if t == "" || !isInteger(m.info.TypeOf(typed)) {
		return
	}
	up := m.add(lit, "+1")
	down := m.add(lit, "-1")
	m.open(m.off(lit.Pos()), "(")
	m.close(m.off(lit.End()), fmt.Sprintf(" + %s(_culpritDelta(%s, %d, %d)))", t, mutName, up, down))
}

// signedLiteral makes the mutants of an integer literal under a sign
// ("return -1"), one more and one less: go/types leaves the literal of
// a constant expression untyped (literal makes none for it), and gives
// the signed expression its type.
func (m *mutator) signedLiteral(u *ast.UnaryExpr) {
	lit, ok := ast.Unparen(u.X).(*ast.BasicLit)
	if !ok || lit.Kind != token.INT || (u.Op != token.SUB && u.Op != token.ADD) || !m.on(lit) {
		return
	}
	if t := m.info.TypeOf(lit); t == nil || !isUntyped(t) {
		return // typed already: literal made its mutants
	}
	if v, ok := constant.Int64Val(m.info.Types[lit].Value); !ok || v > math.MaxInt32 {
		return // one more might not fit the type (-9223372036854775808)
	}
	m.plusMinusOne(lit, u)
}

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// sequence reports whether e is a slice, array, string or pointer to an
// array: what an integer indexes.
func (m *mutator) sequence(e ast.Expr) bool {
	tv, ok := m.info.Types[e]
	if !ok || !tv.IsValue() {
		return false // a generic function instantiated, a type
	}
	t := tv.Type.Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	switch t := t.(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return t.Info()&types.IsString != 0
	}
	return false
}

// offByOne makes the mutants of an index or slice bound that is not a
// constant (those are literal's): one more and one less, the classic
// off-by-one.
func (m *mutator) offByOne(e ast.Expr) {
	if e == nil || !m.on(e) || m.isConst(e) {
		return
	}
	tv, ok := m.info.Types[e]
	if !ok || !tv.IsValue() || !isInteger(tv.Type) {
		return
	}
	t := m.typeText(e)
	if t == "" {
		return
	}
	up := m.add(e, "index+1")
	down := m.add(e, "index-1")
	m.open(m.off(e.Pos()), "(")
	m.close(m.off(e.End()), fmt.Sprintf(" + %s(_culpritDelta(%s, %d, %d)))", t, mutName, up, down))
}

// isConst reports whether e is a constant expression (its value is known
// to the compiler, so it may stand where only constants may).
func (m *mutator) isConst(e ast.Expr) bool {
	tv, ok := m.info.Types[e]
	return ok && tv.Value != nil
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// negate makes the condition's mutant: its opposite.
func (m *mutator) negate(cond ast.Expr) {
	if m.isConst(cond) {
		return
	}
	id := m.add(cond, "negate")
	m.open(m.off(cond.Pos()), "((")
	m.close(m.off(cond.End()), fmt.Sprintf(") != (%s))", guard(id)))
}

var boundary = map[token.Token]token.Token{token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR}
var arith = map[token.Token]token.Token{token.ADD: token.SUB, token.SUB: token.ADD, token.MUL: token.QUO}

// binary makes the mutants of an operator: a comparison's boundary (<
// and <=), && and ||, + and -, * and / (floats). The mutant evaluates
// either the original or the changed expression, never both, so its
// operands may have effects.
func (m *mutator) binary(x *ast.BinaryExpr) {
	var to token.Token
	var op string
	switch {
	case boundary[x.Op] != 0:
		to, op = boundary[x.Op], "boundary"
	case x.Op == token.LAND:
		to, op = token.LOR, "and-or"
	case x.Op == token.LOR:
		to, op = token.LAND, "and-or"
	case arith[x.Op] != 0:
		t := m.info.TypeOf(x)
		if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
			return // string concatenation
		}
		if x.Op == token.MUL && isInteger(t) {
			return // an integer division by zero would panic
		}
		to, op = arith[x.Op], "arith"
	default:
		return
	}
	tt := m.typeText(x)
	if op == "boundary" || op == "and-or" {
		tt = "bool" // the expression may be an untyped boolean
	}
	if tt == "" {
		return
	}
	id := m.add(x, op)
	alt := "(" + m.text(x.X) + ") " + to.String() + " (" + m.text(x.Y) + ")"
	m.open(m.off(x.Pos()), fmt.Sprintf("func() %s { if %s { return %s }; return ", tt, guard(id), alt))
	m.close(m.off(x.End()), " }()")
}

// statements makes deletion mutants of simple statements of a list:
// calls, increments, assignments and loops' break and continue.
func (m *mutator) statements(list []ast.Stmt) {
	for _, s := range list {
		if !m.on(s) {
			continue
		}
		switch x := s.(type) {
		case *ast.ExprStmt:
			if call, ok := x.X.(*ast.CallExpr); ok {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
					if _, builtin := m.info.Uses[id].(*types.Builtin); builtin && id.Name == "panic" {
						continue // a terminating statement: removing it could leave a function without a return
					}
				}
				m.keepCall(x, call)
			}
		case *ast.IncDecStmt:
		case *ast.BranchStmt:
			// A loop that should not stop or skip: unlabelled break and
			// continue (deleting a label's last use would not compile).
			if x.Label != nil || x.Tok != token.BREAK && x.Tok != token.CONTINUE {
				continue
			}
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				m.keepBlank(x)
				continue
			}
		default:
			continue
		}
		id := m.add(s, "delete")
		m.open(m.off(s.Pos()), fmt.Sprintf("if %s != %d { ", mutName, id))
		m.close(m.off(s.End()), " }")
		if a, ok := s.(*ast.AssignStmt); ok {
			m.keepBlank(a) // inside the deletion's branch
			m.assignOps(a)
		}
	}
}

// assignOps makes the mutants of an assignment to one number or string
// that assign with another operator: "=" for "+=" and "+=" for "=" (an
// accumulation lost or added: "ret = b - '0'" for "ret += b - '0'"),
// and "-=" beside them for numbers. The statement is written again
// with the other operator in the mutant's branch.
func (m *mutator) assignOps(a *ast.AssignStmt) {
	if len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return
	}
	if id, ok := a.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
		return
	}
	t := m.info.TypeOf(a.Lhs[0])
	if t == nil {
		return
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsNumeric|types.IsString) == 0 {
		return
	}
	numeric := b.Info()&types.IsNumeric != 0
	var alts []token.Token
	switch a.Tok {
	case token.ASSIGN:
		alts = []token.Token{token.ADD_ASSIGN, token.SUB_ASSIGN}
	case token.ADD_ASSIGN:
		alts = []token.Token{token.ASSIGN, token.SUB_ASSIGN}
	case token.SUB_ASSIGN:
		alts = []token.Token{token.ASSIGN, token.ADD_ASSIGN}
	}
	for _, tok := range alts {
		if tok == token.SUB_ASSIGN && !numeric {
			continue
		}
		id := m.add(a, tok.String())
		m.open(m.off(a.Pos()), fmt.Sprintf("if %s { %s %s %s } else { ", guard(id), m.text(a.Lhs[0]), tok, m.text(a.Rhs[0])))
		m.close(m.off(a.End()), " }")
	}
}

// rangeValue makes the mutant of a range loop over a slice or array of
// integers that declares only its index ("for v := range vals") which
// gives the index the element's value instead: the index taken for the
// value. The operand is read again, so only a variable or a field.
func (m *mutator) rangeValue(r *ast.RangeStmt) {
	key, ok := r.Key.(*ast.Ident)
	if !ok || key.Name == "_" || r.Value != nil || r.Tok != token.DEFINE || !m.on(r.X) || r.Body == nil || len(r.Body.List) == 0 {
		return
	}
	switch x := ast.Unparen(r.X).(type) {
	case *ast.Ident:
	case *ast.SelectorExpr:
		if _, ok := x.X.(*ast.Ident); !ok {
			return
		}
	default:
		return
	}
	t := m.info.TypeOf(r.X)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	default:
		return
	}
	if b, ok := elem.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return
	}
	id := m.add(r.X, "value")
	m.open(m.off(r.Body.Lbrace)+1, fmt.Sprintf(" if %s { %s = int(%s[%s]) };", guard(id), key.Name, m.text(r.X), key.Name))
}

// apply returns the file with the mutants written in, as the
// instrumenter writes its edits: a //line directive first and a
// /*line*/ comment after each insertion. Nesting follows the order the
// edits were made in (outer first).
func (m *mutator) apply() []byte {
	for i := range m.edits {
		if m.edits[i].close {
			m.edits[i].nest = -m.edits[i].seq
		} else {
			m.edits[i].nest = m.edits[i].seq
		}
	}
	r := &fileRewriter{fset: m.fset, info: m.info, file: m.file, tokFile: m.tok, src: m.src, path: m.path, edits: m.edits}
	// Mutants name types as go/types prints them ("any"), which a file
	// older than go1.18 may not: compiled as go1.21, as the
	// instrumenter compiles it, it may (directives.go).
	if !r.goVersionAtLeast(raisedVersion) {
		r.raiseVersion()
	}
	return r.apply()
}

// mutantSupport is the file each mutated package gets: the enabled
// mutant, read once from the environment, and the literal deltas.
func mutantSupport(pkg string) []byte {
	return []byte(fmt.Sprintf(`package %s

import (
	_culpritos "os"
	_culpritstrconv "strconv"
)

var %s, _ = _culpritstrconv.Atoi(_culpritos.Getenv(%q))

func _culpritDelta(m, up, down int) int {
	switch m {
	case up:
		return 1
	case down:
		return -1
	}
	return 0
}
`, pkg, mutName, mutantEnv))
}
