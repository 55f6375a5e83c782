package brackets_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/reduce/brackets"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

func TestPairs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"f(a[1], {b})", "1:11:0 3:5:1 8:10:1"},
		{"(]) unmatched ) and (", "0:2:0"},
		{"((x)", "1:3:0"},
		{"", ""},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range brackets.Pairs([]byte(tt.in)) {
			got = append(got, fmt.Sprintf("%d:%d:%d", p.Open, p.Close, p.Depth))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Pairs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBlocks(t *testing.T) {
	text := "a:\n  b\n\n  c:\n    d\ne\n"
	var got []string
	for _, b := range brackets.Blocks([]byte(text)) {
		got = append(got, fmt.Sprintf("%q/%q@%d", text[b.Start:b.Body], text[b.Body:b.End], b.Depth))
	}
	want := []string{`"a:\n"/"  b\n\n  c:\n    d\n"@0`, `"  c:\n"/"    d\n"@1`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Blocks = %q, want %q", got, want)
	}
}

// TestEdits lists the rounds' candidates when every edit of the round is
// applied: the three bracket alternatives per depth, then the two block
// alternatives.
func TestEdits(t *testing.T) {
	text := "f(a(b)) {\n  x\n}\n"
	var got []string
	for round := 0; ; round++ {
		edits, more := brackets.Syntax{}.Edits("f", []byte(text), round)
		out, err := rewrite.Apply([]byte(text), edits)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(out))
		if !more {
			break
		}
	}
	want := []string{
		"f \n", "fa(b) \n  x\n\n", "f() {}\n", // depth 0: delete, keep contents, empty
		"f(a) {\n  x\n}\n", "f(ab) {\n  x\n}\n", "f(a()) {\n  x\n}\n", // depth 1
		"}\n", "f(a(b)) {\n}\n", // the block: delete it, delete its body
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rounds %q, want %q", got, want)
	}
}

// TestReduce checks that a bracket-aware reduction keeps brackets
// balanced in every candidate; the words between brackets are left to
// the token level.
func TestReduce(t *testing.T) {
	text := "(define (f x) (if (> x 0) (g (h x)) (k x)))"
	fails := func(_ context.Context, s string) bool {
		d := 0
		for _, c := range s {
			if c == '(' {
				d++
			} else if c == ')' {
				d--
			}
			if d < 0 {
				t.Errorf("tested unbalanced %q", s)
				return false
			}
		}
		if d != 0 {
			t.Errorf("tested unbalanced %q", s)
		}
		return strings.Contains(s, "h x")
	}
	out, err := rewrite.String(context.Background(), brackets.Syntax{}, "f.scm", text, fails, 2)
	if want := "define  if  g h x "; err != nil || out != want {
		t.Errorf("String = %q, %v; want %q", out, err, want)
	}
}
