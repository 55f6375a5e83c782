package gosyntax

import (
	"slices"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/reduce/rewrite"
)

func TestSameTokens(t *testing.T) {
	tests := []struct {
		reason string
		a, b   string
		want   bool
	}{
		{"a blank line deleted", "package p\n\nvar x = 1\n", "package p\nvar x = 1\n", true},
		{"spaces", "package p\nvar x = 1\n", "package p\nvar x=1\n", true},
		{"a written semicolon", "package p\nvar x = 1\n", "package p\nvar x = 1;\n", true},
		{"a token deleted", "package p\nvar x = 1\n", "package p\nvar x\n", false},
		{"a blank line in a raw string", "package p\nvar x = `a\n\nb`\n", "package p\nvar x = `a\nb`\n", false},
		{"a comment deleted", "package p\n// c\nvar x = 1\n", "package p\nvar x = 1\n", false},
	}
	var s Syntax
	for _, tt := range tests {
		if got := s.SameTokens("x.go", []byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("%s: SameTokens = %v, want %v", tt.reason, got, tt.want)
		}
	}
}

func TestCompact(t *testing.T) {
	tests := []struct {
		reason   string
		in, want string
	}{
		{"blank lines go", "package p\n\nvar x = 1\n\n\nfunc f() {\n\n\tg()\n}\n", "package p\nvar x = 1\nfunc f() {\n\tg()\n}\n"},
		{"a raw string keeps its own", "package p\n\nvar x = `a\n\nb`\n", "package p\nvar x = `a\n\nb`\n"},
		{"a block comment keeps its own", "package p\n/* a\n\nb */\n\nvar x = 1\n", "package p\n/* a\n\nb */\nvar x = 1\n"},
	}
	var s Syntax
	for _, tt := range tests {
		if got := string(s.Compact("x.go", []byte(tt.in))); got != tt.want {
			t.Errorf("%s: Compact = %q, want %q", tt.reason, got, tt.want)
		}
	}
}

func TestFingerprint(t *testing.T) {
	// The edit replaces an argument, after the text before it, by nil.
	edit := func(text, arg string) rewrite.Edit {
		before, arg, _ := strings.Cut(arg, "|")
		i := strings.Index(text, before+arg) + len(before)
		return rewrite.Edit{{Start: i, End: i + len(arg), Text: "nil"}}
	}
	orig := "package p\n\nfunc TestWrap(t *testing.T) {\n\tt.Errorf(\"got %v\", Wrap(err, \"read error\"))\n}\n"
	tests := []struct {
		reason string
		text   string
		arg    string
		same   bool
	}{
		{"names and literals shortened", "package p\nfunc a(t *testing.T) {\n\tt.Errorf(\"S\", b(c, \"\"))\n}\n", "(|c", true},
		{"another line before", "package p\nvar x = 1\nfunc TestWrap(t *testing.T) {\n\tt.Errorf(\"got %v\", Wrap(err, \"read error\"))\n}\n", "(|err", true},
		{"the other argument", orig, ", |\"read error\"", false},
		{"the line changed", "package p\nfunc TestWrap(t *testing.T) {\n\tt.Errorf(\"got %v\", Wrap(err))\n}\n", "(|err", false},
	}
	var s Syntax
	want := s.Fingerprint("x.go", []byte(orig), edit(orig, "(|err"))
	for _, tt := range tests {
		got := s.Fingerprint("x.go", []byte(tt.text), edit(tt.text, tt.arg))
		if (got == want) != tt.same {
			t.Errorf("%s: same fingerprint %v, want %v", tt.reason, got == want, tt.same)
		}
	}
}

// TestTestNamesKept: shortening names leaves alone, in a test file, the
// names go test runs by (a test renamed no longer runs), and renames
// them elsewhere.
func TestTestNamesKept(t *testing.T) {
	src := "package p\n\nimport \"testing\"\n\nfunc TestWrapper(t *testing.T) { helperFunc(t) }\n\nfunc helperFunc(t *testing.T) {}\n\nfunc Testament() {}\n"
	for _, tt := range []struct {
		path string
		kept []string
	}{
		{"p_test.go", []string{"TestWrapper"}},
		{"p.go", nil},
	} {
		var s Syntax
		renamed := map[string]bool{}
		for round := 0; ; round++ {
			if s.RoundName(tt.path, []byte(src), round) == "idents" {
				edits, _ := s.Edits(tt.path, []byte(src), round)
				for _, e := range edits {
					renamed[src[e[0].Start:e[0].End]] = true
				}
			}
			if _, more := s.Edits(tt.path, []byte(src), round); !more {
				break
			}
		}
		for _, name := range []string{"TestWrapper", "helperFunc", "Testament"} {
			if want := !slices.Contains(tt.kept, name); renamed[name] != want {
				t.Errorf("%s: %s renamed %v, want %v", tt.path, name, renamed[name], want)
			}
		}
	}
}
