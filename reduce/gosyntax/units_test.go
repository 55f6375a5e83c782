package gosyntax_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// TestUnits checks that the Go passes delete each kind of unit: the rows
// of a table-driven test (elements of composite literals), struct fields
// and switch cases. Each case keeps what its regular expression needs and
// must lose the rest.
func TestUnits(t *testing.T) {
	tests := []struct {
		reason string
		src    string
		keep   string // the oracle: the candidate matches this
		want   string
	}{
		{
			reason: "rows of a table-driven test",
			src: `package p

import "testing"

func TestAdd(t *testing.T) {
	tests := []struct {
		a, b, want int
	}{
		{1, 2, 3},
		{2, 2, 4},
		{40, 2, 42},
		{0, 0, 0},
		{-1, 1, 0},
	}
	for _, tt := range tests {
		if got := tt.a + tt.b; got != tt.want {
			t.Errorf("%d + %d = %d", tt.a, tt.b, got)
		}
	}
}
`,
			keep: `40, 2, 42`,
			want: "package p\n\nfunc c() {\n\td := []struct {\n\t\ta, b, e int\n\t}{\n\t\t{40, 2, 42},\n\t}\n}\n",
		},
		{
			reason: "map entries, nested literals",
			src: `package p

var table = map[string][]int{
	"one":   {1},
	"two":   {1, 2},
	"three": {1, 2, 3},
}
`,
			keep: `"two":\s+\{(1, )?2\}`,
			want: "package p\n\nvar a = map[string][]int{\n\t\"two\": {2},\n}\n",
		},
		{
			reason: "struct fields",
			src: `package p

type Config struct {
	Name    string
	Verbose bool
	Depth   int
	Needle  float64
}
`,
			keep: `Needle`,
			want: "package p\n\ntype a struct {\n\tNeedle float64\n}\n",
		},
		{
			reason: "a method becomes a function, at its calls too",
			src: `package p

type counter struct{ n int }

func (c *counter) bump(k int) int {
	return k + 1
}

func use() int {
	var c counter
	return c.bump(41)
}
`,
			keep: `bump\(41\)`,
			// Names are shortened last (a later stage), once the type
			// that took a name is gone.
			want: "package p\n\nfunc bump(k int) int {\n\treturn k\n}\n\nfunc b() int {\n\treturn bump(41)\n}\n",
		},
		{
			reason: "a struct field with its keyed elements and assignments",
			src: `package p

type config struct {
	name    string
	verbose bool
	depth   int
}

func f() config {
	c := config{name: "x", verbose: true, depth: 3}
	c.verbose = false
	c.depth = 4
	return c
}
`,
			keep: `name: "x"`,
			want: "package p\n\ntype a struct {\n\tname string\n}\n\nfunc f() {\n\tc := a{name: \"x\"}\n}\n",
		},
		{
			reason: "functions called once, inlined",
			src: `package p

import "fmt"

func greet(name string, times int) {
	for i := 0; i < times; i++ {
		fmt.Println("hello", name)
	}
}

func answer() int { return 6 * 7 }

func run() {
	greet("needle", answer())
}
`,
			keep: `needle[\s\S]*6 \* 7`,
			want: "package p\n\nfunc a() {\n\tb, c := \"needle\", (6 * 7)\n}\n",
		},
		{
			reason: "switch cases",
			src: `package p

func f(x int) string {
	switch x {
	case 1:
		return "one"
	case 2:
		return "needle"
	case 3:
		return "three"
	default:
		return "many"
	}
}
`,
			keep: `case 2:\s+return "needle"`,
			// The default case stays: without it, f would miss a return.
			want: "package p\n\nfunc f() string {\n\tswitch 0 {\n\tcase 2:\n\t\treturn \"needle\"\n\tdefault:\n\t\treturn \"\"\n\t}\n}\n",
		},
	}
	for _, tt := range tests {
		keep := regexp.MustCompile(tt.keep)
		fails := func(_ context.Context, s string) bool {
			if _, err := parser.ParseFile(token.NewFileSet(), "", s, 0); err != nil {
				t.Errorf("%s: tested a candidate that does not parse:\n%s", tt.reason, s)
			}
			return keep.MatchString(s)
		}
		got, err := rewrite.String(context.Background(), &gosyntax.Syntax{}, "p.go", tt.src, fails, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s: reduced to\n%s\nwant\n%s", tt.reason, got, tt.want)
		}
	}
}

// TestEditsParse checks that each edit of the first rounds, alone, leaves
// a file that parses: deleting a comment after code on its line keeps
// the newline, which would otherwise join two statements (a candidate
// that does not parse is never run, and a few of them in a round push
// delta debugging down to one edit a test).
func TestEditsParse(t *testing.T) {
	const src = `package p

// f adds.
func f(a, b int) int {
	x := a + b // the sum
	y := x * 2 /* twice */
	return y // done
}

var z = f(1, 2) // three
var w = 1
`
	s := &gosyntax.Syntax{}
	for round := 0; round < 2; round++ {
		edits, _ := s.Edits("p.go", []byte(src), round)
		if len(edits) == 0 {
			t.Fatalf("round %d: no edits", round)
		}
		for _, e := range edits {
			c, err := rewrite.Apply([]byte(src), []rewrite.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "p.go", c, 0); err != nil {
				t.Errorf("round %d: edit %v leaves a file that does not parse: %v\n%s", round, e, err, c)
			}
		}
	}
}

// TestDeleteDefs: a short variable declaration goes with its uses, each
// replaced by its type's zero value, where the oracle demands that the
// only compile error be the original's (an unused variable): deleting
// the declaration alone leaves line undefined, deleting its use alone
// leaves line unused.
func TestDeleteDefs(t *testing.T) {
	const src = `package p

import "runtime"

func f() int {
	probe := 1
	_, _, line, _ := runtime.Caller(0)
	var twice int = line * 2
	return twice
}
`
	fails := func(_ context.Context, s string) bool {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", s, 0)
		if err != nil {
			return false
		}
		var errs []string
		conf := types.Config{Importer: importer.Default(), Error: func(err error) { errs = append(errs, err.(types.Error).Msg) }}
		conf.Check("p", fset, []*ast.File{f}, nil)
		return len(errs) == 1 && errs[0] == "declared and not used: probe"
	}
	got, err := rewrite.String(context.Background(), &gosyntax.Syntax{}, "p.go", src, fails, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := "package p\n\nfunc f() {\n\tprobe := 1\n}\n"; got != want {
		t.Errorf("reduced to\n%s\nwant\n%s", got, want)
	}
}

// TestPlainValues: a lookup table whose values the failure reads at
// two indices is cut short after the second in a few tests, where
// deleting its values one by one would cost a test for each value before
// it (deleting one moves the others).
func TestPlainValues(t *testing.T) {
	var vals []string
	for i := 1; i <= 64; i++ {
		vals = append(vals, fmt.Sprint(i))
	}
	src := "package p\n\nvar table = [64]int{" + strings.Join(vals, ", ") + "}\n\nvar x, y = table[2], table[40]\n"
	lit := regexp.MustCompile(`\[64\]int\{([^}]*)\}[\s\S]*table\[2\][\s\S]*table\[40\]`)
	calls := 0
	fails := func(_ context.Context, s string) bool {
		calls++
		m := lit.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		vs := strings.Split(m[1], ", ")
		return len(vs) > 40 && vs[2] == "3" && vs[40] == "41"
	}
	got, err := rewrite.String(context.Background(), &gosyntax.Syntax{}, "p.go", src, fails, 1)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "42") {
		t.Errorf("reduced to\n%s\nwant the table cut after 41", got)
	}
	// 171 tests; deleting the values one by one took 364 (the other
	// rounds, zero values and shorter literals, take most of the rest).
	if calls > 200 {
		t.Errorf("%d tests, want at most 200", calls)
	}
}
