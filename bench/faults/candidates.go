package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// A faultSet is the lines a ranking may name to have found the fault.
type faultSet map[lineKey]bool

func (s faultSet) has(file string, line int) bool { return s[lineKey{file, line}] }

// candidates returns the lines that stand for the bug's fault lines in a
// ranking of statements, as Pearson et al. (ICSE 2017) count a fault
// localized: a fault line where a statement starts is itself; a line
// inside a statement that started on an earlier line (a multi-line
// call or literal) is that statement's first line; and a line that holds
// no code of its own (blank, a comment, closing braces, "} else {"),
// which the corpus gives for a fix that only inserts code (the line
// before the insertion), is an omission: the statements just before and
// just after it in its function stand for it. Package-level
// declarations are their own first line (in a grouped declaration, the
// spec's: each name = value of a var ( ... ) block is a declaration).
func candidates(dir string, bug *Bug) faultSet {
	out := faultSet{}
	for _, f := range bug.Faults {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.File)))
		fset := token.NewFileSet()
		var file *ast.File
		if err == nil {
			file, _ = parser.ParseFile(fset, f.File, src, parser.ParseComments|parser.SkipObjectResolution)
		}
		if file == nil {
			for _, l := range f.Lines {
				out[lineKey{f.File, l}] = true
			}
			continue
		}
		text := strings.Split(string(src), "\n")
		for _, l := range f.Lines {
			for _, c := range standIns(fset, file, text, l) {
				out[lineKey{f.File, c}] = true
			}
		}
	}
	return out
}

// standIns are the statement lines that stand for line l of file.
func standIns(fset *token.FileSet, file *ast.File, text []string, l int) []int {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	// Statements (and package-level declarations) by their span, and
	// the function whose body holds l.
	type span struct{ start, end int }
	var stmts []span
	var body span
	for _, d := range file.Decls {
		if line(d.Pos()) <= l && l <= line(d.End()) {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				body = span{line(fd.Body.Pos()), line(fd.Body.End())}
				continue
			}
			// A grouped declaration's specs are declarations of their
			// own: "x = 1" in "var ( ... )" is its own first line.
			if gd, ok := d.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					if line(sp.Pos()) <= l && l <= line(sp.End()) {
						return []int{line(sp.Pos())}
					}
				}
			}
			return []int{line(d.Pos())}
		}
	}
	if body.start == 0 {
		return []int{l}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.BlockStmt, nil:
		case ast.Stmt:
			if s := line(n.Pos()); body.start <= s && s <= body.end {
				stmts = append(stmts, span{s, line(n.End())})
			}
		}
		return true
	})
	for _, s := range stmts {
		if s.start == l {
			return []int{l}
		}
	}
	if !noCode(text, l) {
		// Inside a statement begun earlier: the innermost one's first line.
		in := span{}
		for _, s := range stmts {
			if s.start < l && l <= s.end && s.start > in.start {
				in = s
			}
		}
		if in.start > 0 {
			return []int{in.start}
		}
		return []int{l}
	}
	// An omission: the nearest statements before and after.
	before, after := 0, 0
	for _, s := range stmts {
		if s.start < l && s.start > before {
			before = s.start
		}
		if s.start > l && (after == 0 || s.start < after) {
			after = s.start
		}
	}
	var out []int
	for _, c := range []int{before, after} {
		if c > 0 {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return []int{l}
	}
	return out
}

// noCode reports whether line l (from 1) holds no code of its own:
// blank, a comment, or closing and opening braces around an else.
func noCode(text []string, l int) bool {
	if l < 1 || l > len(text) {
		return true
	}
	t := strings.TrimSpace(text[l-1])
	if i := strings.Index(t, "//"); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	t = strings.TrimSpace(strings.ReplaceAll(t, "else", ""))
	return strings.Trim(t, "{}) \t") == ""
}
