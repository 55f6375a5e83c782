package invariant

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// goHelpers are the Go functions that stand for the expression
// language's aggregates in generated Go: sum(s) is sumElems(s),
// sorted(s) sortedElems(s), all(s) > 0 allElems(s, ">", 0).
var goHelpers = map[string]string{
	"sumElems": `// sumElems returns the sum of the elements of s.
func sumElems[E elemNumber](s []E) (t E) {
	for _, x := range s {
		t += x
	}
	return t
}
`,
	"sortedElems": `// sortedElems reports whether the elements of s are in non-decreasing order.
func sortedElems[E elemNumber](s []E) bool {
	for i := 1; i < len(s); i++ {
		if s[i] < s[i-1] {
			return false
		}
	}
	return true
}
`,
	"allElems": `// allElems reports whether every element x of s satisfies x op v.
func allElems[E elemNumber](s []E, op string, v E) bool {
	for _, x := range s {
		ok := false
		switch op {
		case "==":
			ok = x == v
		case "!=":
			ok = x != v
		case "<":
			ok = x < v
		case "<=":
			ok = x <= v
		case ">":
			ok = x > v
		case ">=":
			ok = x >= v
		}
		if !ok {
			return false
		}
	}
	return true
}
`,
}

const goNumber = `// elemNumber is the element types of the slices sumElems, sortedElems and allElems take.
type elemNumber interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64
}
`

// GoCond rewrites a condition of the expression language as Go source
// for generated code: sum(s), sorted(s) and all(s) op v become calls of
// the helpers GoHelpers defines (sumElems(s), sortedElems(s),
// allElems(s, "op", v)), and old(x) becomes (x). It returns the names of
// the helpers used; the other forms are Go already (approx aside).
func GoCond(cond string) (src string, helpers []string, err error) {
	e, err := Parse(cond)
	if err != nil {
		return "", nil, err
	}
	used := map[string]bool{}
	var rewrite func(n ast.Expr) ast.Expr
	rewrite = func(n ast.Expr) ast.Expr {
		switch n := n.(type) {
		case *ast.ParenExpr:
			n.X = rewrite(n.X)
		case *ast.UnaryExpr:
			n.X = rewrite(n.X)
		case *ast.BinaryExpr:
			if isAll(n.X) || isAll(n.Y) {
				s, v, op := n.X, n.Y, n.Op
				if !isAll(s) {
					s, v = n.Y, n.X
					if m, ok := map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ}[op]; ok {
						op = m
					}
				}
				s = ast.Unparen(s)
				used["allElems"] = true
				arg := rewrite(s.(*ast.CallExpr).Args[0])
				return &ast.CallExpr{Fun: ast.NewIdent("allElems"), Args: []ast.Expr{arg,
					&ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(op.String())}, rewrite(v)}}
			}
			n.X, n.Y = rewrite(n.X), rewrite(n.Y)
		case *ast.CallExpr:
			switch callName(n.Fun) {
			case "sum":
				n.Fun = ast.NewIdent("sumElems")
				used["sumElems"] = true
			case "sorted":
				n.Fun = ast.NewIdent("sortedElems")
				used["sortedElems"] = true
			case "old":
				if len(n.Args) == 1 {
					return &ast.ParenExpr{X: rewrite(n.Args[0])}
				}
			}
			for i, a := range n.Args {
				n.Args[i] = rewrite(a)
			}
		}
		return n
	}
	// Parse again: the rewrite changes the tree.
	node, err := parser.ParseExpr(e.src)
	if err != nil {
		return "", nil, err
	}
	src = pathName(rewrite(node))
	for h := range used {
		helpers = append(helpers, h)
	}
	sort.Strings(helpers)
	return src, helpers, nil
}

// GoHelpers returns the Go source of the named helpers (GoCond's), with
// the constraint they share; "" for none.
func GoHelpers(names []string) string {
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(goNumber)
	seen := map[string]bool{}
	for _, n := range names {
		if h, ok := goHelpers[n]; ok && !seen[n] {
			seen[n] = true
			fmt.Fprintf(&b, "\n%s", h)
		}
	}
	return b.String()
}
