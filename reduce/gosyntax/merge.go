package gosyntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Merge joins the Go files of a package (a directory) into one file per
// package clause and kind (the package's files, its test files, its
// external test files): each group's first file gets the imports and
// the declarations of the others, which go. A package of a few small
// files then pays for one package clause and one import list instead of
// many. It returns the files left, or nil when there is nothing to join
// or a file does not parse; files that import "C" are left alone. Like
// Prune's, the result is a candidate that only a test can accept.
func (s *Syntax) Merge(files []rewrite.File, dir string) []rewrite.File {
	type group struct{ members []int }
	groups := map[string]*group{}
	var order []string
	fset := token.NewFileSet()
	parsed := map[int]*ast.File{}
	idx, afs, ok := parseDir(fset, files, dir)
	if !ok {
		return nil
	}
	for k, i := range idx {
		af, f := afs[k], files[i]
		for _, imp := range af.Imports {
			if imp.Path.Value == `"C"` {
				return nil
			}
		}
		parsed[i] = af
		k := af.Name.Name + " " + boolKey(strings.HasSuffix(f.Path, "_test.go"))
		if groups[k] == nil {
			groups[k] = &group{}
			order = append(order, k)
		}
		groups[k].members = append(groups[k].members, i)
	}
	gone := map[int]bool{}
	merged := map[int][]byte{}
	for _, k := range order {
		g := groups[k]
		if len(g.members) < 2 {
			continue
		}
		var imports []string
		seen := map[string]bool{}
		var bodies []string
		for _, i := range g.members {
			af := parsed[i]
			text := files[i].Data
			tf := fset.File(af.Package)
			// The body: what follows the package clause and the imports.
			start := tf.Offset(af.Name.End())
			for _, d := range af.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
					start = tf.Offset(gd.End())
				}
			}
			bodies = append(bodies, string(text[start:]))
			for _, imp := range af.Imports {
				spec := imp.Path.Value
				if imp.Name != nil {
					spec = imp.Name.Name + " " + spec
				}
				if !seen[spec] {
					seen[spec] = true
					imports = append(imports, spec)
				}
			}
		}
		sort.Strings(imports)
		var b strings.Builder
		b.WriteString("package " + parsed[g.members[0]].Name.Name + "\n")
		if len(imports) > 0 {
			b.WriteString("\nimport (\n\t" + strings.Join(imports, "\n\t") + "\n)\n")
		}
		for _, body := range bodies {
			b.WriteString(body)
			b.WriteString("\n")
		}
		first := g.members[0]
		text := []byte(b.String())
		// Alone, the joined file refers to what the other files of the
		// package declare, as its parts did: its errors in isolation
		// count as the original's, the package's are checked as a set.
		s.baseline(files[first].Path, files[first].Data)
		s.allow(files[first].Path, text)
		if norm, err := s.Normalize(files[first].Path, files[first].Data, text); err == nil {
			text = norm
		}
		merged[first] = text
		for _, i := range g.members[1:] {
			gone[i] = true
		}
	}
	if len(gone) == 0 {
		return nil
	}
	var out []rewrite.File
	for i, f := range files {
		if gone[i] {
			continue
		}
		if m, ok := merged[i]; ok {
			f.Data = m
		}
		out = append(out, f)
	}
	return out
}

func boolKey(b bool) string {
	if b {
		return "test"
	}
	return "code"
}

// allow adds the type errors of text, checked alone, to those of the
// original of path.
func (s *Syntax) allow(path string, text []byte) {
	if s.NoTypes {
		return
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, text, parser.SkipObjectResolution)
	if err != nil {
		return
	}
	msgs, _ := s.typeErrors(fset, f)
	s.mu.Lock()
	defer s.mu.Unlock()
	// A new original: Normalize and Check read the old one unlocked.
	old := s.base[path]
	b := &original{types: map[string]bool{}}
	if old != nil {
		b.syntax = old.syntax
		for m := range old.types {
			b.types[m] = true
		}
	}
	for m := range msgs {
		b.types[m] = true
	}
	s.base[path] = b
}
