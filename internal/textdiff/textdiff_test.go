package command

import (
	"math/rand"
	"slices"
	"testing"
)

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
		if got := unified("a", "b", []byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("%s: unified =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestEditScript checks on random line lists that the edit script
// rebuilds both sides and is no longer than a trivial one.
func TestEditScript(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	words := []string{"a\n", "b\n", "c\n", "d\n"}
	gen := func() []string {
		var s []string
		for i := rng.Intn(12); i > 0; i-- {
			s = append(s, words[rng.Intn(len(words))])
		}
		return s
	}
	for i := 0; i < 500; i++ {
		x, y := gen(), gen()
		ops := editScript(x, y)
		var a, b []string
		changes := 0
		for _, op := range ops {
			if op.kind != '+' {
				a = append(a, op.line)
			}
			if op.kind != '-' {
				b = append(b, op.line)
			}
			if op.kind != ' ' {
				changes++
			}
		}
		if !slices.Equal(a, x) || !slices.Equal(b, y) || changes > len(x)+len(y) {
			t.Fatalf("editScript(%q, %q) = %v", x, y, ops)
		}
	}
}
