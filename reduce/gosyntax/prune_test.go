package gosyntax_test

import (
	"strings"
	"testing"

	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// TestPrune: the declarations that the root test does not reach go,
// those it reaches stay, with the methods of the types kept, init, blank
// variables and what the external test package needs; files of other
// directories are left alone.
func TestPrune(t *testing.T) {
	files := []rewrite.File{
		{Path: "p/a.go", Data: []byte(`package p

import "strings"

// T is kept: Upper returns one.
type T struct{ s string }

// String stays with T.
func (t T) String() string { return t.s }

type Unused int

func (Unused) M() {}

// Upper is what TestUpper calls.
func Upper(s string) T { return T{strings.ToUpper(helper(s))} }

func helper(s string) string { return s }

func Lower(s string) string { return strings.ToLower(s) }

var (
	table = map[string]int{}
	_     = register()
)

func register() int { return 1 }

func init() { initHelper() }

func initHelper() {}

const Exported = 2
`)},
		{Path: "p/a_test.go", Data: []byte(`package p

import "testing"

func TestUpper(t *testing.T) {
	if Upper("a").s != "A" {
		t.Fatal("upper")
	}
}

func TestLower(t *testing.T) {
	if Lower("A") != "a" {
		t.Fatal("lower")
	}
}
`)},
		{Path: "p/x_test.go", Data: []byte(`package p_test

import (
	"testing"

	"example.com/p"
)

func TestExported(t *testing.T) { _ = p.Exported }

func TestUpperExt(t *testing.T) { _ = p.Upper("x") }
`)},
		{Path: "q/q.go", Data: []byte("package q\n\nfunc Unused() {}\n")},
	}
	root := func(name string) bool { return name == "TestUpper" || name == "TestUpperExt" }
	out := (&gosyntax.Syntax{}).Prune(files, "p", root)
	if out == nil {
		t.Fatal("Prune deleted nothing")
	}
	all := ""
	for _, f := range out {
		all += string(f.Data)
	}
	for _, want := range []string{"type T struct", "func (t T) String()", "func Upper(", "func helper(", "_ = register()",
		"func register()", "func init()", "func initHelper()", "func TestUpper(", "func TestUpperExt(", `"strings"`} {
		if !strings.Contains(all, want) {
			t.Errorf("lost %q:\n%s", want, all)
		}
	}
	for _, gone := range []string{"type Unused", "func (Unused) M", "func Lower(", "table", "TestLower", "TestExported", "Exported = 2"} {
		if strings.Contains(all, gone) {
			t.Errorf("kept %q:\n%s", gone, all)
		}
	}
	if string(out[3].Data) != string(files[3].Data) {
		t.Errorf("a file of another directory changed:\n%s", out[3].Data)
	}
}

// TestMerge: the files of a package join into its first one, its test
// files into the first test file, imports merged without duplicates; a
// lone file and other directories stay as they are.
func TestMerge(t *testing.T) {
	files := []rewrite.File{
		{Path: "p/a.go", Data: []byte("// Package p.\npackage p\n\nimport \"strings\"\n\nfunc A() string { return strings.ToUpper(B()) }\n")},
		{Path: "p/b.go", Data: []byte("// License.\n\npackage p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n// B is b.\nfunc B() string { return fmt.Sprint(strings.Repeat(\"b\", 2)) }\n")},
		{Path: "p/a_test.go", Data: []byte("package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { A() }\n")},
		{Path: "q/q.go", Data: []byte("package q\n")},
		{Path: "q/r.go", Data: []byte("package q\n")},
	}
	out := (&gosyntax.Syntax{}).Merge(files, "p")
	var paths []string
	for _, f := range out {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, " ") != "p/a.go p/a_test.go q/q.go q/r.go" {
		t.Fatalf("Merge left %v", paths)
	}
	want := "package p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc A() string { return strings.ToUpper(B()) }\n\n// B is b.\nfunc B() string { return fmt.Sprint(strings.Repeat(\"b\", 2)) }\n"
	if string(out[0].Data) != want {
		t.Errorf("merged:\n%s\nwant\n%s", out[0].Data, want)
	}
	if string(out[1].Data) != string(files[2].Data) {
		t.Errorf("the lone test file changed:\n%s", out[1].Data)
	}
	if (&gosyntax.Syntax{}).Merge(files[2:3], "p") != nil {
		t.Error("Merge of one file proposed a candidate")
	}
}

// TestMergeChecks: the joined test file, checked alone, refers to what
// the package declares, as the files it joins did: its candidates are
// not rejected for that.
func TestMergeChecks(t *testing.T) {
	files := []rewrite.File{
		{Path: "p/a.go", Data: []byte("package p\n\nfunc A() int { return 1 }\n\nfunc B() int { return 2 }\n")},
		{Path: "p/a_test.go", Data: []byte("package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { A() }\n")},
		{Path: "p/b_test.go", Data: []byte("package p\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { B() }\n")},
	}
	syn := &gosyntax.Syntax{}
	for _, f := range files {
		if _, err := syn.Normalize(f.Path, f.Data, f.Data); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
	}
	out := syn.Merge(files, "p")
	if len(out) != 2 {
		t.Fatalf("Merge left %d files", len(out))
	}
	merged := out[1].Data
	cand := []byte(strings.Replace(string(merged), "func TestA(t *testing.T) { A() }", "", 1))
	if _, err := syn.Normalize(out[1].Path, merged, cand); err != nil {
		t.Errorf("a candidate of the joined test file is rejected: %v\n%s", err, cand)
	}
}
