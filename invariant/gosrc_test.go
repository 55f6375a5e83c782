package invariant

import (
	"go/ast"
	"go/parser"
	"go/token"
	gotypes "go/types"
	"strings"
	"testing"
)

// TestGoCond rewrites conditions to Go and type-checks them, with the
// helpers, in a function over the variables they name.
func TestGoCond(t *testing.T) {
	tests := []struct {
		cond, want string
		helpers    []string
	}{
		{"result == sum(xs)", "result == sumElems(xs)", []string{"sumElems"}},
		{"approx(f, sum(fs))", "approx(f, sumElems(fs))", []string{"sumElems"}},
		{"sorted(result)", "sortedElems(result)", []string{"sortedElems"}},
		{"all(xs) > 0", `allElems(xs, ">", 0)`, []string{"allElems"}},
		{"0 < all(xs) && all(fs) != 0", `allElems(xs, ">", 0) && allElems(fs, "!=", 0)`, []string{"allElems"}},
		{"len(result) == len(old(xs)) + 1", "len(result) == len((xs))+1", nil},
		{"result > xs[0]", "result > xs[0]", nil},
	}
	for _, tt := range tests {
		got, helpers, err := GoCond(tt.cond)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want || strings.Join(helpers, ",") != strings.Join(tt.helpers, ",") {
			t.Errorf("GoCond(%q) = %q, %q; want %q, %q", tt.cond, got, helpers, tt.want, tt.helpers)
			continue
		}
		src := "package p\n\nfunc approx(a, b float64) bool { return a == b }\n\n" +
			"func check(xs []int, fs []float64, f float64, result []int) bool {\n\treturn " +
			strings.ReplaceAll(got, "result ", "len(result) ") + "\n}\n\n" + GoHelpers(helpers)
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Errorf("%s: %v\n%s", tt.cond, err, src)
			continue
		}
		if _, err := (&gotypes.Config{}).Check("p", fset, []*ast.File{file}, nil); err != nil {
			t.Errorf("%s: %v\n%s", tt.cond, err, src)
		}
	}
}
