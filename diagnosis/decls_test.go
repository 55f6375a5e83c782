package diagnosis

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"testing"
)

// TestPackageDecls finds the package-level declarations and who reads
// them: function bodies' lines, other declarations' initializers; a
// long table stands as its first line; a test file's and an
// enumeration's are left out.
func TestPackageDecls(t *testing.T) {
	src := `package p

const (
	pattern = "^a+$"
	unused  = 1
)

const (
	red = iota
	green
)

var re = compile(pattern)

var table = []string{
	"a",
	"b",
	"c",
	"d",
	"e",
}

func compile(s string) string { return s }

func Match(s string) bool {
	return s == re ||
		s == table[green]
}
`
	test := `package p

var fixture = pattern
`
	fset := token.NewFileSet()
	var files []*ast.File
	for name, text := range map[string]string{"/m/p/p.go": src, "/m/p/p_test.go": test} {
		f, err := parser.ParseFile(fset, name, text, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{}).Check("example.com/p", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Decl{}
	for _, d := range PackageDecls(fset, files, info, pkg, "/m") {
		got[d.Name] = d
	}
	loc := func(l int) Location { return Location{"p/p.go", l} }
	want := map[string]Decl{
		"example.com/p.pattern": {Name: "example.com/p.pattern", Lines: []Location{loc(4)}},
		"example.com/p.re":      {Name: "example.com/p.re", Lines: []Location{loc(13)}, Readers: []Location{loc(26)}, Reads: []string{"example.com/p.pattern"}},
		"example.com/p.table":   {Name: "example.com/p.table", Lines: []Location{loc(15)}, Readers: []Location{loc(27)}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
