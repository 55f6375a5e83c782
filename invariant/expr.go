package invariant

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strconv"
	"strings"
)

// Expr is a parsed invariant: a Go expression over a function's
// parameters and results. The language is a small subset of Go:
//
//	identifiers (parameters, results), true, false, nil
//	parts of them: p.f (through pointers too), *p, s[0] (a constant
//	index), err.Error()   (as the trace recorded them, trace format 4)
//	integer, floating-point and string literals
//	! - + (unary); * / % + - (numbers; + also joins strings)
//	== != < <= > >= (numbers, strings; == and != with nil, bools)
//	&& || (short-circuit), parentheses
//	len(x)                      strings, slices, maps, channels, nil
//	old(x)                      x's value at entry; in postconditions x is its value at
//	                            exit when the trace recorded that and it changed, else at entry
//	approx(a, b)                a and b equal within a relative 1e-9
//	strings.HasPrefix(s, t), strings.HasSuffix(s, t), strings.Contains(s, t)
//	sum(s)                      the sum of a slice of numbers (s a variable or part)
//	sorted(s)                   its elements in non-decreasing order
//	all(s) > 0                  every element compared (== != < <= > >=) with a value
//
// sum, sorted and all need every element of s: the trace records the
// first MaxElems, so over a longer slice they are not applicable (never
// computed over part of it); a nil slice has no elements.
//
// Numbers keep Go's integer arithmetic when both operands are integers
// and are floating-point otherwise.
type Expr struct {
	src  string
	node ast.Expr
}

// ErrNotApplicable is wrapped by evaluation errors that come from the
// values rather than the expression: a string compared with a number, a
// string the trace kept only in part, a division by zero.
var ErrNotApplicable = errors.New("not applicable")

// Parse parses an invariant expression.
func Parse(src string) (*Expr, error) {
	n, err := parser.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("invariant %q: %w", src, err)
	}
	if err := checkSyntax(n); err != nil {
		return nil, fmt.Errorf("invariant %q: %w", src, err)
	}
	return &Expr{src: src, node: n}, nil
}

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// Vars returns the variables the expression reads, in order of first use.
func (e *Expr) Vars() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, walk) // p of p.f, not f
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" {
				ast.Inspect(sel.X, walk)
			}
			for _, a := range n.Args {
				ast.Inspect(a, walk)
			}
			return false
		case *ast.Ident:
			if isVar(n.Name) && !seen[n.Name] {
				seen[n.Name] = true
				out = append(out, n.Name)
			}
		}
		return true
	}
	ast.Inspect(e.node, walk)
	return out
}

// isPath reports whether n names a variable or a part of one: x, p.f,
// *p, s[0], err.Error().
func isPath(n ast.Expr) bool {
	switch n := n.(type) {
	case *ast.Ident:
		return isVar(n.Name)
	case *ast.ParenExpr:
		return isPath(n.X)
	case *ast.SelectorExpr:
		return isPath(n.X)
	case *ast.StarExpr:
		return isPath(n.X)
	case *ast.IndexExpr:
		if last, ok := n.Index.(*ast.BinaryExpr); ok {
			// s[len(s)-1]
			call, ok := last.X.(*ast.CallExpr)
			one, ok2 := last.Y.(*ast.BasicLit)
			return ok && ok2 && last.Op == token.SUB && one.Value == "1" && callName(call.Fun) == "len" &&
				len(call.Args) == 1 && isPath(call.Args[0]) && pathName(call.Args[0]) == pathName(n.X)
		}
		lit, ok := n.Index.(*ast.BasicLit)
		return ok && lit.Kind == token.INT && isPath(n.X)
	case *ast.CallExpr:
		sel, ok := n.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Error" && len(n.Args) == 0 && isPath(sel.X)
	}
	return false
}

// pathName is the name of a part as derived variables spell it.
func pathName(n ast.Expr) string {
	var b strings.Builder
	if err := printer.Fprint(&b, token.NewFileSet(), n); err != nil {
		return "?"
	}
	return b.String()
}

func isVar(name string) bool { return name != "true" && name != "false" && name != "nil" }

// checkSyntax rejects what the evaluator does not know.
func checkSyntax(n ast.Expr) error {
	var err error
	ast.Inspect(n, func(m ast.Node) bool {
		if err != nil {
			return false
		}
		if e, ok := m.(ast.Expr); ok && isPath(e) {
			if _, id := e.(*ast.Ident); !id {
				return false
			}
		}
		switch m := m.(type) {
		case nil, *ast.Ident, *ast.BasicLit, *ast.ParenExpr:
		case *ast.UnaryExpr:
			if m.Op != token.NOT && m.Op != token.SUB && m.Op != token.ADD {
				err = fmt.Errorf("operator %s not supported", m.Op)
			}
		case *ast.BinaryExpr:
			switch m.Op {
			case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.EQL, token.NEQ,
				token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			default:
				err = fmt.Errorf("operator %s not supported", m.Op)
			}
		case *ast.CallExpr:
			name := callName(m.Fun)
			want, ok := builtins[name]
			if !ok {
				err = fmt.Errorf("function %s not supported (len, old, approx, sum, sorted, all, strings.HasPrefix, strings.HasSuffix, strings.Contains)", name)
			} else if len(m.Args) != want {
				err = fmt.Errorf("%s takes %d arguments", name, want)
			}
			for _, a := range m.Args {
				if e := checkSyntax(a); e != nil && err == nil {
					err = e
				}
			}
			return false
		default:
			err = fmt.Errorf("%T not supported", m)
		}
		return true
	})
	return err
}

var builtins = map[string]int{
	"len": 1, "old": 1, "approx": 2, "sum": 1, "sorted": 1, "all": 1,
	"strings.HasPrefix": 2, "strings.HasSuffix": 2, "strings.Contains": 2,
}

func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
	}
	return "?"
}

// env maps variable names to values.
type env func(name string) (cell, bool)

// Holds evaluates the expression over the named values and reports
// whether it is true. The error wraps ErrNotApplicable when the values do
// not fit the expression (and is another error when a name is unknown).
func (e *Expr) holds(lookup env) (bool, error) {
	v, err := eval(e.node, lookup)
	if err != nil {
		return false, err
	}
	if v.k != kBool {
		return false, fmt.Errorf("%s is not a condition: %w", e.src, ErrNotApplicable)
	}
	return v.full, nil
}

func notApplicable(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, ErrNotApplicable)...)
}

func boolCell(b bool) cell { return cell{k: kBool, full: b, typ: "bool"} }

func eval(n ast.Expr, lookup env) (cell, error) {
	switch n := n.(type) {
	case *ast.ParenExpr:
		return eval(n.X, lookup)
	case *ast.Ident:
		switch n.Name {
		case "true":
			return boolCell(true), nil
		case "false":
			return boolCell(false), nil
		case "nil":
			return cell{k: kNil, typ: "nil"}, nil
		}
		v, ok := lookup(n.Name)
		if !ok {
			return cell{}, fmt.Errorf("unknown variable %s", n.Name)
		}
		if v.k == kAbsent {
			return cell{}, notApplicable("%s was not recorded", n.Name)
		}
		return v, nil
	case *ast.BasicLit:
		switch n.Kind {
		case token.INT:
			i, err := strconv.ParseInt(n.Value, 0, 64)
			if err != nil {
				return cell{}, fmt.Errorf("literal %s: %w", n.Value, err)
			}
			return intCell(i), nil
		case token.FLOAT:
			f, err := strconv.ParseFloat(n.Value, 64)
			if err != nil {
				return cell{}, fmt.Errorf("literal %s: %w", n.Value, err)
			}
			return cell{k: kNum, f: f, typ: "float64"}, nil
		case token.STRING:
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				return cell{}, fmt.Errorf("literal %s: %w", n.Value, err)
			}
			return cell{k: kStr, s: s, full: true, n: len(s), hasLen: true, typ: "string"}, nil
		}
		return cell{}, fmt.Errorf("literal %s not supported", n.Value)
	case *ast.UnaryExpr:
		x, err := eval(n.X, lookup)
		if err != nil {
			return cell{}, err
		}
		switch {
		case n.Op == token.NOT && x.k == kBool:
			return boolCell(!x.full), nil
		case n.Op == token.ADD && x.k == kNum:
			return x, nil
		case n.Op == token.SUB && x.k == kNum:
			if x.isInt {
				return intCell(-x.i), nil
			}
			return cell{k: kNum, f: -x.f, typ: x.typ}, nil
		}
		return cell{}, notApplicable("%s%s", n.Op, x)
	case *ast.BinaryExpr:
		return evalBinary(n, lookup)
	case *ast.SelectorExpr, *ast.StarExpr, *ast.IndexExpr:
		return evalPath(n, lookup)
	case *ast.CallExpr:
		if isPath(n) {
			return evalPath(n, lookup)
		}
		return evalCall(n, lookup)
	}
	return cell{}, fmt.Errorf("%T not supported", n)
}

// evalPath looks up a part of a variable (p.f, s[0], err.Error()).
func evalPath(n ast.Expr, lookup env) (cell, error) {
	if !isPath(n) {
		return cell{}, fmt.Errorf("%s not supported", pathName(n))
	}
	name := pathName(n)
	v, ok := lookup(name)
	if !ok {
		return cell{}, fmt.Errorf("unknown variable %s", name)
	}
	if v.k == kAbsent {
		return cell{}, notApplicable("%s was not recorded", name)
	}
	return v, nil
}

// isAll reports whether n is all(s).
func isAll(n ast.Expr) bool {
	c, ok := ast.Unparen(n).(*ast.CallExpr)
	return ok && callName(c.Fun) == "all" && len(c.Args) == 1
}

// elements returns the elements of the slice s (a variable or a part),
// when the trace recorded them all and they are numbers.
func elements(s ast.Expr, lookup env) ([]cell, error) {
	s = ast.Unparen(s)
	if !isPath(s) {
		return nil, fmt.Errorf("%s: not a variable", pathName(s))
	}
	name := pathName(s)
	v, ok := lookup(name)
	switch {
	case !ok:
		return nil, fmt.Errorf("unknown variable %s", name)
	case v.k == kAbsent:
		return nil, notApplicable("%s was not recorded", name)
	case v.k == kNil:
		return nil, nil
	case v.k != kRef || !v.hasLen || !strings.HasPrefix(v.typ, "[]"):
		return nil, notApplicable("%s is not a slice", v)
	case v.n > MaxElems:
		return nil, notApplicable("%s has %d elements, the trace keeps the first %d", name, v.n, MaxElems)
	}
	out := make([]cell, v.n)
	for j := range out {
		e, ok := lookup(name + "[" + strconv.Itoa(j) + "]")
		if !ok || e.k == kAbsent {
			return nil, notApplicable("%s[%d] was not recorded", name, j)
		}
		if e.k != kNum {
			return nil, notApplicable("%s[%d] = %s is not a number", name, j, e)
		}
		out[j] = e
	}
	return out, nil
}

// evalAll evaluates all(s) op y (or y op all(s)): op holds between every
// element and y.
func evalAll(n *ast.BinaryExpr, lookup env) (cell, error) {
	s, other, op := n.X, n.Y, n.Op
	if !isAll(s) {
		s, other = n.Y, n.X
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ}[op]
		if op == token.ILLEGAL {
			op = n.Op
		}
	}
	s = ast.Unparen(s)
	es, err := elements(s.(*ast.CallExpr).Args[0], lookup)
	if err != nil {
		return cell{}, err
	}
	y, err := eval(other, lookup)
	if err != nil {
		return cell{}, err
	}
	for _, e := range es {
		c, err := compare(op, e, y)
		if err != nil {
			return cell{}, err
		}
		if !c.full {
			return c, nil
		}
	}
	return boolCell(true), nil
}

func evalBinary(n *ast.BinaryExpr, lookup env) (cell, error) {
	switch n.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		if isAll(n.X) || isAll(n.Y) {
			return evalAll(n, lookup)
		}
	}
	x, err := eval(n.X, lookup)
	if err != nil {
		return cell{}, err
	}
	if n.Op == token.LAND || n.Op == token.LOR {
		if x.k != kBool {
			return cell{}, notApplicable("%s %s: not a condition", x, n.Op)
		}
		if (n.Op == token.LAND) != x.full {
			return x, nil
		}
		y, err := eval(n.Y, lookup)
		if err != nil {
			return cell{}, err
		}
		if y.k != kBool {
			return cell{}, notApplicable("%s %s: not a condition", n.Op, y)
		}
		return y, nil
	}
	y, err := eval(n.Y, lookup)
	if err != nil {
		return cell{}, err
	}
	switch n.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return compare(n.Op, x, y)
	}
	if n.Op == token.ADD && x.k == kStr && y.k == kStr && x.full && y.full {
		s := x.s + y.s
		return cell{k: kStr, s: s, full: true, n: len(s), hasLen: true, typ: "string"}, nil
	}
	if x.k != kNum || y.k != kNum {
		return cell{}, notApplicable("%s %s %s", x, n.Op, y)
	}
	return arith(n.Op, x, y)
}

// compare evaluates x op y for a comparison operator.
func compare(op token.Token, x, y cell) (cell, error) {
	switch op {
	case token.EQL, token.NEQ:
		eq, err := equal(x, y)
		if err != nil {
			return cell{}, err
		}
		return boolCell(eq == (op == token.EQL)), nil
	default:
		var c int
		switch {
		case x.k == kNum && y.k == kNum:
			c = numCmp(x, y)
		case x.k == kStr && y.k == kStr && x.full && y.full:
			c = strings.Compare(x.s, y.s)
		default:
			return cell{}, notApplicable("%s %s %s", x, op, y)
		}
		switch op {
		case token.LSS:
			return boolCell(c < 0), nil
		case token.LEQ:
			return boolCell(c <= 0), nil
		case token.GTR:
			return boolCell(c > 0), nil
		}
		return boolCell(c >= 0), nil
	}
}

// arith computes x op y.
func arith(op token.Token, x, y cell) (cell, error) {
	if x.isInt && y.isInt {
		switch op {
		case token.ADD:
			return intCell(x.i + y.i), nil
		case token.SUB:
			return intCell(x.i - y.i), nil
		case token.MUL:
			return intCell(x.i * y.i), nil
		case token.QUO, token.REM:
			if y.i == 0 {
				return cell{}, notApplicable("division by zero")
			}
			if op == token.QUO {
				return intCell(x.i / y.i), nil
			}
			return intCell(x.i % y.i), nil
		}
	}
	f := func(v float64) (cell, error) { return cell{k: kNum, f: v, typ: "float64"}, nil }
	switch op {
	case token.ADD:
		return f(x.f + y.f)
	case token.SUB:
		return f(x.f - y.f)
	case token.MUL:
		return f(x.f * y.f)
	case token.QUO:
		if y.f == 0 {
			return cell{}, notApplicable("division by zero")
		}
		return f(x.f / y.f)
	}
	return cell{}, notApplicable("%s on floating-point numbers", op)
}

// equal compares two values as Go's == would (nil with references).
func equal(x, y cell) (bool, error) {
	switch {
	case x.k == kNum && y.k == kNum:
		if x.isInt && y.isInt {
			return x.i == y.i, nil
		}
		return x.f == y.f, nil
	case x.k == kStr && y.k == kStr:
		if x.full && y.full {
			return x.s == y.s, nil
		}
		if x.n != y.n {
			return false, nil
		}
		return false, notApplicable("string kept in part")
	case x.k == kBool && y.k == kBool:
		return x.full == y.full, nil
	case x.k == kNil && y.k == kNil:
		return true, nil
	case x.k == kNil && y.k == kRef, x.k == kRef && y.k == kNil:
		return false, nil
	}
	return false, notApplicable("%s == %s", x, y)
}

func evalCall(n *ast.CallExpr, lookup env) (cell, error) {
	name := callName(n.Fun)
	if name == "old" && len(n.Args) == 1 && isPath(n.Args[0]) {
		// old(x) is a variable of its own when x changed.
		if v, ok := lookup("old(" + pathName(n.Args[0]) + ")"); ok {
			if v.k == kAbsent {
				return cell{}, notApplicable("old(%s) was not recorded", pathName(n.Args[0]))
			}
			return v, nil
		}
	}
	switch name {
	case "sum", "sorted":
		if len(n.Args) != 1 {
			return cell{}, fmt.Errorf("%s takes 1 argument", name)
		}
		es, err := elements(n.Args[0], lookup)
		if err != nil {
			return cell{}, err
		}
		if name == "sum" {
			return sumCells(es), nil
		}
		return boolCell(isSorted(es)), nil
	case "all":
		return cell{}, fmt.Errorf("all(s) is compared with a value: all(s) > 0")
	}
	args := make([]cell, len(n.Args))
	for i, a := range n.Args {
		v, err := eval(a, lookup)
		if err != nil {
			return cell{}, err
		}
		args[i] = v
	}
	if want, ok := builtins[name]; !ok || want != len(args) {
		return cell{}, fmt.Errorf("call of %s not supported", name)
	}
	switch name {
	case "len":
		l, ok := args[0].length()
		if !ok {
			return cell{}, notApplicable("len(%s)", args[0])
		}
		return intCell(int64(l)), nil
	case "old":
		return args[0], nil
	case "approx":
		if args[0].k != kNum || args[1].k != kNum {
			return cell{}, notApplicable("approx(%s, %s)", args[0], args[1])
		}
		return boolCell(numEq(args[0], args[1])), nil
	}
	s, t := args[0], args[1]
	if s.k != kStr || t.k != kStr || !s.full || !t.full {
		return cell{}, notApplicable("%s(%s, %s)", name, s, t)
	}
	switch name {
	case "strings.HasPrefix":
		return boolCell(strings.HasPrefix(s.s, t.s)), nil
	case "strings.HasSuffix":
		return boolCell(strings.HasSuffix(s.s, t.s)), nil
	}
	return boolCell(strings.Contains(s.s, t.s)), nil
}
