package deps_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

var casesTrace moduleTrace

// TestSegments: a failing test cut at its checks, a segment per case
// with its statements and branch outcomes, the failing case's alone
// holding the faulty line (sign.go:11) and its condition's outcome.
func TestSegments(t *testing.T) {
	tr, _ := casesTrace.run(t, filepath.Join("testdata", "cases"))
	for _, tc := range []struct {
		test string
		want []string
	}{
		{"TestSign", []string{"pass 7 8 7:if true", "pass 7 10 13 16 7:if false 10:if false 13:if false", "pass 7 10 13 14 7:if false 10:if false 13:if true",
			"FAIL 7 10 11 7:if false 10:if true", "pass 7 8 7:if true"}},
		// Each case checked by a check of its own: none is a sibling of
		// the failing one, whose state it may have built.
		{"TestSignInRow", nil},
		// The setup's segment, closed by its own check, is left out.
		{"TestSignAfterSetup", []string{"pass 7 8 7:if true", "FAIL 7 10 11 7:if false 10:if true"}},
	} {
		r, err := deps.Build(tr, deps.Options{Test: tc.test, Segments: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range r.Segments {
			w := "pass"
			if s.Failed {
				w = "FAIL"
			}
			for _, l := range s.Lines {
				if filepath.Base(l.File) != "sign.go" {
					t.Errorf("%s: a segment holds %s:%d, not of sign.go", tc.test, l.File, l.Line)
				}
				w += fmt.Sprintf(" %d", l.Line)
			}
			for _, b := range s.Branches {
				w += fmt.Sprintf(" %d:%s", b.Line.Line, b.Outcome)
			}
			got = append(got, w)
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s: segments\n%s\nwant\n%s", tc.test, strings.Join(got, "; "), strings.Join(tc.want, "; "))
		}
	}
	// Without the option, or for a test that passed, none.
	r, err := deps.Build(tr, deps.Options{Test: "TestSign"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Segments) != 0 {
		t.Errorf("segments without Options.Segments: %v", r.Segments)
	}
}
