package source

import (
	"errors"
	"go/ast"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"
)

// counting is an fs.FS that counts the files opened.
type counting struct {
	fstest.MapFS
	opened map[string]int
}

func (c *counting) Open(name string) (fs.File, error) {
	c.opened[name]++
	return c.MapFS.Open(name)
}

func (c *counting) ReadFile(name string) ([]byte, error) {
	c.opened[name]++
	return c.MapFS.ReadFile(name)
}

func TestLines(t *testing.T) {
	tests := []struct {
		reason  string
		text    string
		lines   []string // Line(1..LineCount())
		display []string
	}{
		{"a final newline ends the last line", "a\nb\n", []string{"a", "b"}, []string{"a", "b"}},
		{"no final newline", "a\nb", []string{"a", "b"}, []string{"a", "b"}},
		{"an empty file has one empty line", "", []string{""}, []string{""}},
		{"empty lines count, but the piece after the final newline", "a\n\n", []string{"a", ""}, []string{"a", ""}},
		{"tabs are four spaces for display, kept in Line", "\tx\t= 1\n", []string{"\tx\t= 1"}, []string{"    x    = 1"}},
		{"a carriage return is kept", "a\r\nb\r\n", []string{"a\r", "b\r"}, []string{"a\r", "b\r"}},
	}
	for _, tt := range tests {
		s := New(fstest.MapFS{"f.go": {Data: []byte(tt.text)}})
		f, err := s.File("f.go")
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		var got []string
		for n := 1; n <= f.LineCount(); n++ {
			got = append(got, f.Line(n))
		}
		if !reflect.DeepEqual(got, tt.lines) {
			t.Errorf("%s: lines %q, want %q", tt.reason, got, tt.lines)
		}
		if d := f.Display(); !reflect.DeepEqual(d, tt.display) {
			t.Errorf("%s: display %q, want %q", tt.reason, d, tt.display)
		}
		if l := f.Line(0) + f.Line(f.LineCount()+1); l != "" {
			t.Errorf("%s: lines out of range are %q, want empty", tt.reason, l)
		}
	}
}

func TestReadOnce(t *testing.T) {
	fsys := &counting{MapFS: fstest.MapFS{"p/a.go": {Data: []byte("package p\n")}}, opened: map[string]int{}}
	s := New(fsys)
	tests := []struct {
		reason string
		name   string
		err    bool
	}{
		{"the first read", "p/a.go", false},
		{"read again: the same file", "p/a.go", false},
		{"a name that cleans to it is it", "p/./x/../a.go", false},
		{"a file that is not there", "p/b.go", true},
		{"its error is kept", "p/b.go", true},
		{"a name outside the file system", "../a.go", true},
	}
	var first *File
	for _, tt := range tests {
		f, err := s.File(tt.name)
		if (err != nil) != tt.err {
			t.Fatalf("%s: File(%q) error %v, want error %v", tt.reason, tt.name, err, tt.err)
		}
		if err != nil {
			if tt.name == "p/b.go" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: error %v, want fs.ErrNotExist", tt.reason, err)
			}
			continue
		}
		if first == nil {
			first = f
		}
		if f != first {
			t.Errorf("%s: File(%q) is another File", tt.reason, tt.name)
		}
	}
	if want := map[string]int{"p/a.go": 1, "p/b.go": 1}; !reflect.DeepEqual(fsys.opened, want) {
		t.Errorf("opened %v, want %v", fsys.opened, want)
	}
	if first.Name() != "p/a.go" {
		t.Errorf("Name() = %q, want the first name asked", first.Name())
	}
}

func TestAbsoluteFromDisk(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.go")
	if err := os.WriteFile(name, []byte("package a\n\nvar x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(fstest.MapFS{})
	if lines := s.Lines(name); !reflect.DeepEqual(lines, []string{"package a", "", "var x = 1"}) {
		t.Errorf("Lines(%s) = %q", name, lines)
	}
	if lines := s.Lines(filepath.Join(dir, "b.go")); lines != nil {
		t.Errorf("Lines of a missing file = %q, want nil", lines)
	}
}

func TestPositions(t *testing.T) {
	const src = "package p\n\nfunc f() {\n\tx := g(1, 2)\n\t_ = x\n}\n"
	s := New(fstest.MapFS{"p.go": {Data: []byte(src)}, "bad.go": {Data: []byte("package\n")}})
	f, _ := s.File("p.go")
	af, err := f.Syntax()
	if err != nil {
		t.Fatal(err)
	}
	var call *ast.CallExpr
	ast.Inspect(af, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			call = c
		}
		return call == nil
	})
	tests := []struct {
		reason    string
		line, col int
		valid     bool
	}{
		{"the call's start", 4, 7, true},
		{"a line's first byte", 3, 1, true},
		{"line 0", 0, 1, false},
		{"past the last line", 8, 1, false},
	}
	for _, tt := range tests {
		p := f.Pos(tt.line, tt.col)
		if p.IsValid() != tt.valid {
			t.Errorf("%s: Pos(%d, %d) valid %v, want %v", tt.reason, tt.line, tt.col, p.IsValid(), tt.valid)
			continue
		}
		if at := f.Position(p); tt.valid && (at.Line != tt.line || at.Column != tt.col || at.Filename != "p.go") {
			t.Errorf("%s: Position(Pos(%d, %d)) = %v", tt.reason, tt.line, tt.col, at)
		}
	}
	if p := f.Pos(4, 7); p != call.Pos() {
		t.Errorf("Pos(4, 7) = %d, the call starts at %d", p, call.Pos())
	}
	if text := f.Text(call); text != "g(1, 2)" {
		t.Errorf("Text(call) = %q", text)
	}
	if text := f.Text(&ast.Ident{NamePos: call.Pos() + 10000, Name: "x"}); text != "" {
		t.Errorf("Text of a node outside the file = %q, want empty", text)
	}
	if again, _ := f.Syntax(); again != af {
		t.Errorf("Syntax parsed the file again")
	}
	bad, _ := s.File("bad.go")
	if _, err := bad.Syntax(); err == nil {
		t.Errorf("Syntax of bad.go: no error")
	}
	if bad.Token() != nil || bad.Pos(1, 1).IsValid() || bad.Text(call) != "" {
		t.Errorf("a file that does not parse has positions")
	}
}

func TestVars(t *testing.T) {
	fsys := fstest.MapFS{
		"p/a.go":      {Data: []byte("package p\n\nvar (\n\tx = 1\n\t_ = 2\n)\n")},
		"p/a_test.go": {Data: []byte("package p\n\nvar x, z = 3, 4\n")},
		"p/b.go":      {Data: []byte("package p\n\nvar y int\n\nconst c = 1\n\nfunc f() { var local int; _ = local }\n")},
		"p/bad.go":    {Data: []byte("package p\n\nvar w = \n")},
		"p/q/c.go":    {Data: []byte("package q\n\nvar inner int\n")},
	}
	s := New(fsys)
	// A file parsed before the scan answers from its syntax.
	b, _ := s.File("p/b.go")
	if _, err := b.Syntax(); err != nil {
		t.Fatal(err)
	}
	got := s.Vars("p")
	tests := []struct {
		reason string
		name   string
		want   Decl
		found  bool
	}{
		{"declared in a group", "x", Decl{"p/a.go", 4, 2}, true},
		{"a test file's declaration comes after the others'", "z", Decl{"p/a_test.go", 3, 8}, true},
		{"from a file parsed before", "y", Decl{"p/b.go", 3, 5}, true},
		{"the blank identifier is no variable", "_", Decl{}, false},
		{"constants are not variables", "c", Decl{}, false},
		{"nor are locals", "local", Decl{}, false},
		{"a file that does not parse is skipped", "w", Decl{}, false},
		{"a subdirectory is another package", "inner", Decl{}, false},
	}
	for _, tt := range tests {
		d, ok := got[tt.name]
		if ok != tt.found || d != tt.want {
			t.Errorf("%s: Vars(p)[%q] = %v, %v; want %v, %v", tt.reason, tt.name, d, ok, tt.want, tt.found)
		}
	}
	if again := s.Vars("p"); reflect.ValueOf(again).Pointer() != reflect.ValueOf(got).Pointer() {
		t.Errorf("Vars scanned p again")
	}
	// The files scanned are read, not parsed into the Set's FileSet.
	a, _ := s.File("p/a.go")
	if a.parsed {
		t.Errorf("the scan parsed p/a.go into the Set")
	}
}

func TestExpand(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"x", "x"},
		{"\t\tx", "        x"},
		{"a\tb", "a    b"},
	}
	for _, tt := range tests {
		if got := Expand(tt.in); got != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
