package diagnosis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// A Decl is a package-level variable or constant: its lines are
// suspects when a failing test's code reads it. Their initializers run
// before any test (a table, a regular expression, a constant string),
// so no spectrum records them; what points at them is the executed line
// that read them.
type Decl struct {
	Name    string     // "pkgpath.name"
	Lines   []Location // the declaration's lines: its spec (the first line of a long one)
	Readers []Location // lines in function bodies that read it
	Reads   []string   // the names of the other declarations its initializer reads
}

// maxDeclLines is how long a declaration may be for all its lines to be
// suspects: longer ones (a table of a hundred rows) would tie with each
// other and bury the functions' lines, so only their first line is.
const maxDeclLines = 5

// PackageDecls returns the package-level variables and constants of a
// type-checked package's files with the lines that read them, paths
// relative to root. Test files are left out (the tests' own tables are
// not the code under test), and so are enumerations (constants made
// from iota or repeating an earlier value), whose names code reads
// everywhere.
func PackageDecls(fset *token.FileSet, files []*ast.File, info *types.Info, pkg *types.Package, root string) []Decl {
	byObj := map[types.Object]*Decl{}
	var order []types.Object
	loc := func(p token.Pos) Location {
		pos := fset.Position(p)
		return Location{File: Relative(root, pos.Filename), Line: pos.Line}
	}
	for _, f := range files {
		name := fset.Position(f.Pos()).Filename
		if isTestFile(name) {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR && gd.Tok != token.CONST {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				if gd.Tok == token.CONST && enumerated(vs, info) {
					continue // an enumeration's names: read everywhere, rarely wrong
				}
				first, last := fset.Position(vs.Pos()).Line, fset.Position(vs.End()).Line
				if last-first+1 > maxDeclLines {
					last = first
				}
				var lines []Location
				for l := first; l <= last; l++ {
					lines = append(lines, Location{File: Relative(root, name), Line: l})
				}
				for _, id := range vs.Names {
					obj := info.Defs[id]
					if obj == nil || id.Name == "_" {
						continue
					}
					byObj[obj] = &Decl{Name: pkg.Path() + "." + id.Name, Lines: lines}
					order = append(order, obj)
				}
			}
		}
	}
	// Who reads each: lines of function bodies, and other declarations'
	// initializers.
	for _, f := range files {
		if isTestFile(fset.Position(f.Pos()).Filename) {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body == nil {
					continue
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if d := byObj[info.Uses[id]]; d != nil {
							d.Readers = append(d.Readers, loc(id.Pos()))
						}
					}
					return true
				})
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					vs, ok := sp.(*ast.ValueSpec)
					if !ok {
						continue
					}
					var readers []*Decl
					for _, id := range vs.Names {
						if obj := info.Defs[id]; obj != nil && byObj[obj] != nil {
							readers = append(readers, byObj[obj])
						}
					}
					for _, v := range vs.Values {
						ast.Inspect(v, func(n ast.Node) bool {
							id, ok := n.(*ast.Ident)
							if !ok {
								return true
							}
							if d := byObj[info.Uses[id]]; d != nil {
								for _, r := range readers {
									r.Reads = append(r.Reads, d.Name)
								}
							}
							// A function literal's body reads at run
							// time, as a function's does.
							return true
						})
					}
				}
			}
		}
	}
	read := map[string]bool{} // declarations another one's initializer reads
	for _, d := range byObj {
		for _, r := range d.Reads {
			read[r] = true
		}
	}
	out := make([]Decl, 0, len(order))
	for _, obj := range order {
		d := byObj[obj]
		if len(d.Readers) == 0 && len(d.Reads) == 0 && !read[d.Name] {
			continue
		}
		sort.Slice(d.Readers, func(i, j int) bool { return less(d.Readers[i], d.Readers[j]) })
		out = append(out, *d)
	}
	return out
}

// enumerated reports whether a constant spec is part of an enumeration:
// its value implicit (repeated from an earlier spec) or made from iota.
func enumerated(vs *ast.ValueSpec, info *types.Info) bool {
	if len(vs.Values) == 0 {
		return true
	}
	iota := false
	for _, v := range vs.Values {
		ast.Inspect(v, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "iota" && info.Uses[id] == types.Universe.Lookup("iota") {
				iota = true
			}
			return !iota
		})
	}
	return iota
}

func less(a, b Location) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Line < b.Line
}

func isTestFile(name string) bool { return strings.HasSuffix(name, "_test.go") }

// declEvidence returns, for each declaration a failing run read (its
// reader line executed by a failing run, or a declaration so read whose
// initializer reads it), the evidence of its best reader: the line's
// spectrum is what points at the declaration.
func declEvidence(decls []Decl, executed func(Location) (Evidence, bool)) map[string]Evidence {
	best := map[string]Evidence{}
	for _, d := range decls {
		for _, r := range d.Readers {
			if ev, ok := executed(r); ok {
				if b, seen := best[d.Name]; !seen || ev.Spectrum > b.Spectrum {
					ev.Event = declarationEvent + r.File + ":" + strconv.Itoa(r.Line)
					best[d.Name] = ev
				}
			}
		}
	}
	// Through initializers: a regular expression built from a constant
	// string points at the constant too. Each round passes the evidence
	// one declaration further.
	for range decls {
		changed := false
		for _, d := range decls {
			ev, ok := best[d.Name]
			if !ok {
				continue
			}
			for _, name := range d.Reads {
				if b, seen := best[name]; !seen || ev.Spectrum > b.Spectrum {
					best[name] = ev
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	return best
}
