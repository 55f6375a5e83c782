package gosyntax_test

import (
	"errors"
	"testing"

	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// TestCheckSet checks the Go files of a directory together: deleting what
// another file of the package uses is a new type error, which a file
// checked alone does not show.
func TestCheckSet(t *testing.T) {
	orig := []rewrite.File{
		{Path: "p/a.go", Data: []byte("package p\n\nfunc Square(x int) int { return x * x }\n\nfunc Half(x int) int { return x / 2 }\n")},
		{Path: "p/a_test.go", Data: []byte("package p\n\nfunc check() int { return Square(2) + undefinedInOriginal }\n")},
	}
	tests := []struct {
		reason string
		a      string // the candidate's a.go
		want   error
	}{
		{"deleting what nothing uses", "package p\n\nfunc Square(x int) int { return x * x }\n", nil},
		{"deleting what the test file uses", "package p\n\nfunc Half(x int) int { return x / 2 }\n", gosyntax.ErrTypes},
		{"an error the original has stays acceptable", "package p\n\nfunc Square(x int) int { return x * x }\n\nvar _ = 1\n", nil},
	}
	for _, tt := range tests {
		s := &gosyntax.Syntax{}
		cand := []rewrite.File{{Path: "p/a.go", Data: []byte(tt.a)}, orig[1]}
		if err := s.CheckSet(orig, cand); !errors.Is(err, tt.want) && (err != nil || tt.want != nil) {
			t.Errorf("%s: CheckSet = %v, want %v", tt.reason, err, tt.want)
		}
		// Alone, the file is fine either way.
		if err := s.Check("p/a.go", orig[0].Data, []byte(tt.a)); err != nil {
			t.Errorf("%s: Check = %v", tt.reason, err)
		}
	}
}
