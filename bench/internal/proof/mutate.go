package proof

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Mutant is one single-statement mutation of a file.
type Mutant struct {
	Op   string // flip, const, swap, delete
	File string // slash-separated, relative to the module root
	Line int    // the faulty statement's first line (where its events are)
	Col  int    // the faulty statement's column
	Off  int    // byte offset of the edit
	End  int    // end of the replaced bytes
	New  string // replacement
	Desc string // "a < b -> a >= b"
}

// String names the mutant: file:line, operator and what changed.
func (m Mutant) String() string {
	return fmt.Sprintf("%s:%d %s: %s", m.File, m.Line, m.Op, m.Desc)
}

// Apply returns src with the mutation; src is not changed.
func (m Mutant) Apply(src []byte) []byte {
	out := append([]byte{}, src[:m.Off]...)
	out = append(out, m.New...)
	return append(out, src[m.End:]...)
}

// negated comparison operators: the flipped comparison.
var negated = map[token.Token]token.Token{
	token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR,
	token.EQL: token.NEQ, token.NEQ: token.EQL,
}

// swappable operators: operands exchanged change the result.
var swappable = map[token.Token]bool{
	token.SUB: true, token.QUO: true, token.REM: true, token.SHL: true, token.SHR: true,
	token.LSS: true, token.GTR: true, token.LEQ: true, token.GEQ: true,
}

// Candidates returns every mutation the non-test Go files below root allow
// inside function bodies, in a deterministic order. Files are named
// relative to root, slash-separated.
func Candidates(root string) ([]Mutant, error) {
	var out []Mutant
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		ms, err := FileCandidates(filepath.ToSlash(rel), src)
		if err != nil {
			return nil // unparsable (build-tagged oddities): skip
		}
		out = append(out, ms...)
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Off < out[j].Off
	})
	return out, err
}

// FileCandidates returns the mutations of one file, src, named rel.
// Generated files have none.
func FileCandidates(rel string, src []byte) ([]Mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	for _, c := range f.Comments {
		if strings.Contains(c.Text(), "Code generated") && strings.Contains(c.Text(), "DO NOT EDIT") {
			return nil, nil
		}
	}
	var out []Mutant
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		var stack []ast.Node // Inspect's path from the body, innermost last
		// add records a mutation inside the innermost statement holding
		// node stack[i] (a container holds none: block, case, label).
		add := func(op string, off, end int, repl, desc string) {
			for i := len(stack) - 1; i >= 0; i-- {
				switch x := stack[i].(type) {
				case *ast.CaseClause:
					// A case's own expressions are its line's, not the
					// switch's: the line a user reads the fault on.
					if i+1 < len(stack) && inList(x.List, stack[i+1]) {
						p := fset.Position(x.Pos())
						out = append(out, Mutant{Op: op, File: rel, Line: p.Line, Col: p.Column, Off: off, End: end, New: repl, Desc: desc})
						return
					}
					continue
				case *ast.BlockStmt, *ast.CommClause, *ast.LabeledStmt:
					continue
				case ast.Stmt:
					p := fset.Position(stack[i].Pos())
					out = append(out, Mutant{Op: op, File: rel, Line: p.Line, Col: p.Column, Off: off, End: end, New: repl, Desc: desc})
					return
				}
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			inList := false // a statement of a block or clause, not of a header
			if len(stack) > 1 {
				switch stack[len(stack)-2].(type) {
				case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
					inList = true
				}
			}
			switch x := n.(type) {
			case *ast.ExprStmt, *ast.IncDecStmt:
				if !inList {
					break
				}
				add("delete", fset.Position(x.Pos()).Offset, fset.Position(x.End()).Offset, "{}", "deleted "+oneLine(text(x)))
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE && inList {
					add("delete", fset.Position(x.Pos()).Offset, fset.Position(x.End()).Offset, "{}", "deleted "+oneLine(text(x)))
				}
			case *ast.BinaryExpr:
				off := fset.Position(x.OpPos).Offset
				if neg, ok := negated[x.Op]; ok {
					add("flip", off, off+len(x.Op.String()), neg.String(), oneLine(text(x))+": "+x.Op.String()+" -> "+neg.String())
				}
				if swappable[x.Op] {
					a, b := fset.Position(x.X.Pos()).Offset, fset.Position(x.X.End()).Offset
					c, d := fset.Position(x.Y.Pos()).Offset, fset.Position(x.Y.End()).Offset
					add("swap", a, d, string(src[c:d])+string(src[b:c])+string(src[a:b]), "swapped "+oneLine(text(x)))
				}
			case *ast.BasicLit:
				if x.Kind == token.INT {
					if v, err := strconv.ParseInt(strings.ReplaceAll(x.Value, "_", ""), 0, 64); err == nil {
						nv := v + 1
						if v != 0 && fset.Position(x.Pos()).Offset%2 == 1 {
							nv = v - 1
						}
						off := fset.Position(x.Pos()).Offset
						add("const", off, off+len(x.Value), strconv.FormatInt(nv, 10), x.Value+" -> "+strconv.FormatInt(nv, 10))
					}
				}
			}
			return true
		})
	}
	return out, nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// Order returns the mutants in a deterministic pseudo-random order
// (seeded), interleaving the operators so that each is represented.
func Order(ms []Mutant, seed int64) []Mutant {
	byOp := map[string][]Mutant{}
	var ops []string
	for _, m := range ms {
		if byOp[m.Op] == nil {
			ops = append(ops, m.Op)
		}
		byOp[m.Op] = append(byOp[m.Op], m)
	}
	sort.Strings(ops)
	rng := rand.New(rand.NewSource(seed))
	for _, op := range ops {
		l := byOp[op]
		rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
	}
	var out []Mutant
	for i := 0; len(out) < len(ms); i++ {
		for _, op := range ops {
			if i < len(byOp[op]) {
				out = append(out, byOp[op][i])
			}
		}
	}
	return out
}

// inList reports whether n is one of list.
func inList(list []ast.Expr, n ast.Node) bool {
	for _, e := range list {
		if ast.Node(e) == n {
			return true
		}
	}
	return false
}
