package gosyntax

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"strings"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

// Prune deletes the top-level declarations of the Go files of a package
// (a directory, its test files included) that the roots do not need: the
// functions that root names (the tests that go test -run runs), TestMain,
// init functions and blank variables are kept, with what they refer to,
// directly or not, and every method of a type kept (an interface may
// need it). It returns the files pruned so, formatted, or nil when it
// deletes nothing or a file does not parse. The result is a candidate to
// test like any other: whether the failure needed what it deleted only
// a test tells. Files outside dir, and files that are not Go, are
// returned as they are.
func (s *Syntax) Prune(files []rewrite.File, dir string, root func(name string) bool) []rewrite.File {
	fset := token.NewFileSet()
	type parsed struct {
		i    int
		file *ast.File
	}
	idx, afs, ok := parseDir(fset, files, dir)
	if !ok {
		return nil
	}
	var pkgs = map[bool][]parsed{} // by external test package
	for k, i := range idx {
		ext := strings.HasSuffix(afs[k].Name.Name, "_test")
		pkgs[ext] = append(pkgs[ext], parsed{i, afs[k]})
	}
	// The declarations, what each defines and what it uses, over both
	// packages (the external test package uses the package's objects).
	type decl struct {
		file int
		node ast.Node // *ast.FuncDecl or an *ast.GenDecl's spec
		gen  *ast.GenDecl
		doc  *ast.CommentGroup
		uses []string // the package-level objects it refers to
	}
	var decls []*decl
	// Package-level objects by name, those of the external test package
	// apart: it sees the package's through an import, as other objects.
	var base string // the package's name
	if len(pkgs[false]) > 0 {
		base = pkgs[false][0].file.Name.Name
	}
	key := func(o types.Object, ext bool) string {
		switch {
		case o.Pkg() == nil || o.Parent() != o.Pkg().Scope():
			return ""
		case ext && o.Pkg().Name() != base:
			return "_test." + o.Name()
		}
		return o.Name()
	}
	byName := map[string][]*decl{}
	methods := map[string][]*decl{} // by receiver base type
	var roots []*decl
	s.mu.Lock()
	if s.imp == nil {
		s.imp = importer.Default()
	}
	imp := s.imp
	s.mu.Unlock()
	for _, ext := range []bool{false, true} {
		var afs []*ast.File
		for _, p := range pkgs[ext] {
			afs = append(afs, p.file)
		}
		if len(afs) == 0 {
			continue
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		s.mu.Lock()
		conf.Check(afs[0].Name.Name, fset, afs, info)
		s.mu.Unlock()
		usesIn := func(n ast.Node) []string {
			var out []string
			ast.Inspect(n, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if o := info.Uses[id]; o != nil {
						if k := key(o, ext); k != "" {
							out = append(out, k)
						}
					}
				}
				return true
			})
			return out
		}
		add := func(d *decl, names []*ast.Ident) {
			decls = append(decls, d)
			for _, id := range names {
				if o := info.Defs[id]; o != nil {
					if k := key(o, ext); k != "" {
						byName[k] = append(byName[k], d)
					}
				}
			}
		}
		for _, p := range pkgs[ext] {
			for _, n := range p.file.Decls {
				switch n := n.(type) {
				case *ast.FuncDecl:
					d := &decl{file: p.i, node: n, doc: n.Doc, uses: usesIn(n)}
					if n.Recv != nil {
						decls = append(decls, d)
						if t := recvType(info.Defs[n.Name]); t != nil {
							methods[key(t, ext)] = append(methods[key(t, ext)], d)
						}
						continue
					}
					add(d, []*ast.Ident{n.Name})
					if name := n.Name.Name; name == "init" || name == "TestMain" || root(name) {
						roots = append(roots, d)
					}
				case *ast.GenDecl:
					if n.Tok == token.IMPORT {
						continue
					}
					for _, sp := range n.Specs {
						d := &decl{file: p.i, node: sp, gen: n, uses: usesIn(sp)}
						var names []*ast.Ident
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							names, d.doc = []*ast.Ident{sp.Name}, sp.Doc
						case *ast.ValueSpec:
							names, d.doc = sp.Names, sp.Doc
							for _, id := range sp.Names {
								if id.Name == "_" {
									roots = append(roots, d)
									break
								}
							}
						}
						add(d, names)
					}
				}
			}
		}
	}
	// What the roots reach.
	kept := map[*decl]bool{}
	var visit func(d *decl)
	visit = func(d *decl) {
		if kept[d] {
			return
		}
		kept[d] = true
		for _, k := range d.uses {
			for _, e := range byName[k] {
				visit(e)
			}
			for _, m := range methods[k] {
				visit(m)
			}
		}
	}
	for _, d := range roots {
		visit(d)
	}
	if len(roots) == 0 {
		return nil
	}
	// Delete the others: a grouped declaration loses its specs, or goes
	// whole when it loses them all.
	edits := map[int][]rewrite.Edit{}
	groups := map[*ast.GenDecl][]*decl{}
	var order []*ast.GenDecl
	for _, d := range decls {
		if d.gen != nil {
			if groups[d.gen] == nil {
				order = append(order, d.gen)
			}
			groups[d.gen] = append(groups[d.gen], d)
			continue
		}
		if !kept[d] {
			edits[d.file] = append(edits[d.file], deletion(fset, files[d.file].Data, d.node, d.doc))
		}
	}
	for _, g := range order {
		all := true
		for _, d := range groups[g] {
			all = all && !kept[d]
		}
		if all {
			edits[groups[g][0].file] = append(edits[groups[g][0].file], deletion(fset, files[groups[g][0].file].Data, g, g.Doc))
			continue
		}
		for _, d := range groups[g] {
			if !kept[d] {
				edits[d.file] = append(edits[d.file], deletion(fset, files[d.file].Data, d.node, d.doc))
			}
		}
	}
	if len(edits) == 0 {
		return nil
	}
	out := append([]rewrite.File(nil), files...)
	for i, es := range edits {
		text, err := rewrite.Apply(files[i].Data, es)
		if err != nil {
			return nil
		}
		if norm, err := s.Normalize(files[i].Path, files[i].Data, text); err == nil {
			text = norm
		}
		out[i].Data = text
	}
	return out
}

// parseDir parses the Go files of files in dir, and returns their
// indices in files and their trees; false when one does not parse.
func parseDir(fset *token.FileSet, files []rewrite.File, dir string) ([]int, []*ast.File, bool) {
	var idx []int
	var afs []*ast.File
	for i, f := range files {
		if !strings.HasSuffix(f.Path, ".go") || path.Dir(f.Path) != dir {
			continue
		}
		af, err := parser.ParseFile(fset, f.Path, f.Data, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, false
		}
		idx = append(idx, i)
		afs = append(afs, af)
	}
	return idx, afs, true
}

// recvType returns the type name of a method's receiver (T of *T).
func recvType(o types.Object) types.Object {
	f, ok := o.(*types.Func)
	if !ok || f.Signature().Recv() == nil {
		return nil
	}
	t := f.Signature().Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj()
	}
	return nil
}

// deletion deletes a top-level node with its doc comment.
func deletion(fset *token.FileSet, text []byte, n ast.Node, doc *ast.CommentGroup) rewrite.Edit {
	a := &analysis{text: text, fset: fset, tf: fset.File(n.Pos())}
	e := a.del(n)
	if doc != nil {
		e = append(e, a.del(doc)...)
	}
	return e
}
