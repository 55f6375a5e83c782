package textdiff

import (
	"math/rand"
	"slices"
	"testing"
)

// TestUnified checks the hunks and headers of Unified on small cases,
// with both edit scripts.
func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\n", "x\n", ""},
		{"one line", "z*+s\n", "(z*+s\n", "--- a\n+++ b\n@@ -1 +1 @@\n-z*+s\n+(z*+s\n"},
		{"no newline", "x", "(x", "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+(x\n\\ No newline at end of file\n"},
		{"from nothing", "", "a\nb\n", "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"to nothing", "a\n", "", "--- a\n+++ b\n@@ -1 +0,0 @@\n-a\n"},
		{
			"context",
			"1\n2\n3\n4\n5\n6\n7\n",
			"1\n2\n3\nfour\n5\n6\n7\n",
			"--- a\n+++ b\n@@ -1,7 +1,7 @@\n 1\n 2\n 3\n-4\n+four\n 5\n 6\n 7\n",
		},
		{
			"two hunks",
			"a\n1\n2\n3\n4\n5\n6\n7\n8\nb\n",
			"A\n1\n2\n3\n4\n5\n6\n7\n8\nB\n",
			"--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-b\n+B\n",
		},
		{
			"insertion inside",
			"a\nc\n",
			"a\nb\nc\n",
			"--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n+b\n c\n",
		},
	}
	for _, tt := range tests {
		for _, script := range []struct {
			name string
			f    func(a, b []string) []Op
		}{{"Myers", Myers}, {"Edits", Edits}} {
			if got := Unified("a", "b", tt.a, tt.b, script.f); got != tt.want {
				t.Errorf("%s, %s: Unified =\n%s\nwant\n%s", tt.name, script.name, got, tt.want)
			}
		}
	}
}

// TestEditScripts checks on random line lists that both edit scripts
// rebuild both sides, keep only equal lines, are no longer than a
// trivial one, and put a run's deletions first.
func TestEditScripts(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	words := []string{"a\n", "b\n", "c\n", "d\n", "}\n", "\n"}
	gen := func() []string {
		var s []string
		for i := rng.Intn(12); i > 0; i-- {
			s = append(s, words[rng.Intn(len(words))])
		}
		return s
	}
	for i := 0; i < 2000; i++ {
		x, y := gen(), gen()
		for _, script := range []func(a, b []string) []Op{Myers, Edits} {
			ops := script(x, y)
			var a, b []string
			changes := 0
			for k, op := range ops {
				switch op.Kind {
				case ' ':
					a, b = append(a, x[op.A]), append(b, y[op.B])
					if x[op.A] != y[op.B] {
						t.Fatalf("%q, %q: kept lines differ: %v", x, y, ops)
					}
				case '-':
					a = append(a, x[op.A])
					changes++
					if k > 0 && ops[k-1].Kind == '+' {
						t.Fatalf("%q, %q: a deletion after an insertion: %v", x, y, ops)
					}
				case '+':
					b = append(b, y[op.B])
					changes++
				}
			}
			if !slices.Equal(a, x) || !slices.Equal(b, y) || changes > len(x)+len(y) {
				t.Fatalf("%q, %q: %v", x, y, ops)
			}
		}
	}
}

// TestLines: each line keeps its newline, the last may lack one.
func TestLines(t *testing.T) {
	if got := Lines("a\n\nb"); !slices.Equal(got, []string{"a\n", "\n", "b"}) {
		t.Errorf("Lines = %q", got)
	}
	if got := Lines(""); got != nil {
		t.Errorf("Lines of nothing = %q", got)
	}
}
