package source

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Decl is where a package-level variable is declared: a file's name (as
// Vars found it: its directory joined with the base name) and the
// 1-based line and byte column of the variable's name.
type Decl struct {
	Path      string
	Line, Col int
}

// Vars returns the package-level variables declared in the Go files of
// the directory dir, by name: every *.go file, build constraints aside,
// those the trace names and those it does not (var declarations alone,
// regular expressions, tables). Test files are read after the others and
// the first declaration of a name wins; "_" is left out, and so are
// files that cannot be read or parsed. The directory is scanned once;
// the map is the Set's, not to be modified.
func (s *Set) Vars(dir string) map[string]Decl {
	if vs, ok := s.vars[dir]; ok {
		return vs
	}
	if s.vars == nil {
		s.vars = map[string]map[string]Decl{}
	}
	vs := map[string]Decl{}
	s.vars[dir] = vs
	var paths []string
	if k, inFS := s.key(dir); inFS {
		paths, _ = fs.Glob(s.fsys, path.Join(k, "*.go"))
	} else {
		paths, _ = filepath.Glob(filepath.Join(dir, "*.go"))
	}
	sort.SliceStable(paths, func(i, j int) bool {
		return !strings.HasSuffix(paths[i], "_test.go") && strings.HasSuffix(paths[j], "_test.go")
	})
	var fset *token.FileSet // for the files not parsed yet
	for _, p := range paths {
		f, err := s.File(p)
		if err != nil {
			continue
		}
		// A file parsed already answers from its syntax; the others are
		// parsed here alone, apart from the Set's FileSet, so that the
		// positions of the files parsed later do not depend on which
		// directories were scanned before.
		af, pos := f.syntax, f.Position
		if !f.parsed {
			if fset == nil {
				fset = token.NewFileSet()
			}
			af, err = parser.ParseFile(fset, p, f.data, parser.SkipObjectResolution)
			pos = fset.Position
		} else if f.err != nil {
			continue
		}
		if err != nil {
			continue
		}
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					if _, seen := vs[n.Name]; !seen && n.Name != "_" {
						at := pos(n.Pos())
						vs[n.Name] = Decl{p, at.Line, at.Column}
					}
				}
			}
		}
	}
	return vs
}
