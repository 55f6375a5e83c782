package gosyntax_test

import (
	"context"
	"errors"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// TestNormalizeRelative checks candidates against an original that does
// not parse: they are accepted, unformatted, when their syntax errors are
// among the original's.
func TestNormalizeRelative(t *testing.T) {
	const broken = "package p\n\nvar t map[string]\n\nfunc f() {}\n"
	tests := []struct {
		reason    string
		orig, c   string
		want      string // "" when rejected
		wantError error
	}{
		{"the same error, less code", broken, "package p\nvar t map[string]\n", "package p\nvar t map[string]\n", nil},
		{"a new error", broken, "package p\nvar t map[string]\nfunc f() {\n", "", gosyntax.ErrSyntax},
		{"no error is no worse", broken, "package   p\n", "package p\n", nil},
		{"an original that parses admits no error", "package p\n\nfunc f() {}\n", "package p\nfunc f() {\n", "", nil},
	}
	for _, tt := range tests {
		s := &gosyntax.Syntax{}
		if _, err := s.Normalize("x.go", []byte(tt.orig), []byte(tt.orig)); err != nil {
			t.Fatalf("%s: the original is rejected: %v", tt.reason, err)
		}
		got, err := s.Normalize("x.go", []byte(tt.orig), []byte(tt.c))
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s: accepted %q", tt.reason, got)
		case tt.want == "" && tt.wantError != nil && !errors.Is(err, tt.wantError):
			t.Errorf("%s: error %v, want %v", tt.reason, err, tt.wantError)
		case tt.want != "" && (err != nil || string(got) != tt.want):
			t.Errorf("%s: got %q, %v; want %q", tt.reason, got, err, tt.want)
		}
	}
}

// TestReduceUnparsable reduces a file with a syntax error through the
// partial tree go/parser recovers: the declarations around the error go.
func TestReduceUnparsable(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"fmt\"\n\n")
	for i := range 30 {
		if i == 15 {
			b.WriteString("var broken map[string]\n\n")
		}
		b.WriteString("// f prints.\nfunc f" + strings.Repeat("x", i) + "() {\n\tif true {\n\t\tfmt.Println(1)\n\t}\n}\n\n")
	}
	src := b.String()
	tests := 0
	fails := func(_ context.Context, s string) bool {
		tests++
		_, err := parser.ParseFile(token.NewFileSet(), "", s, 0)
		return err != nil && strings.Contains(err.Error(), "expected type")
	}
	out, err := rewrite.String(context.Background(), &gosyntax.Syntax{}, "p.go", src, fails, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := "package p\n\nvar broken map[string]\n"; len(out) > len(want) {
		t.Errorf("reduced %d bytes to %q in %d tests, want at most %q", len(src), out, tests, want)
	}
}
