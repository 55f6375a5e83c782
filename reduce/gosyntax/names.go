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
