package deps_test

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/report"
)

var update = flag.Bool("update", false, "rewrite testdata/examples.golden")

var examplesTrace moduleTrace

// TestExamples runs the examples module's tests instrumented, once, and
// compares the slices of the seed's worked examples (middle, deps, sqrt,
// htmlmarkup) with testdata/examples.golden.
func TestExamples(t *testing.T) {
	golden, err := filepath.Abs(filepath.Join("testdata", "examples.golden"))
	if err != nil {
		t.Fatal(err)
	}
	tr, dir := examplesTrace.run(t, filepath.Join("..", "examples"))
	cases := []struct {
		name, reason  string
		test, returns string // the run; the criterion (the failure when "")
		format        string
	}{
		{"middle failure", "the seed's middle slice: the failing check back to return y (12), its <test>s and x, y, z", "TestMiddle/2_1_3", "", "code"},
		{"middle return", "the seed's dependencies of <middle() return value>: <= y; <- <test> (11) <- (9) <- (8)", "TestMiddle/2_1_3", "Middle", "deps"},
		{"demo", "the seed's demo(10): z (15) <= z (13), z (15); <- <test> (14)", "TestDemo", "Demo", "deps"},
		{"add then multiply", "the seed's add_to/mul_with flow: y of MulWith <= <AddTo() return value>", "TestAddThenMultiply", "AddThenMultiply", "code"},
		{"fun2", "the seed's fun_1/fun_2: the argument to the parameter, the return to the call", "TestFun2", "Fun2", "deps"},
		{"max", "an else-if branch: res (70) <- <test> (69) <- <test> (67)", "TestMax", "Max", "deps"},
		{"password", "the password checker: the result depends on the digest of the line read", "TestCheckPassword/wrong", "CheckPassword", "deps"},
		{"sqrt loop", "the seed's square_root: approx and guess depend on each other across iterations", "TestSquareRoot/four", "SquareRoot", "deps"},
		{"sqrt panic", "a precondition panic, recovered by the test, reported by t.Errorf", "TestSquareRoot/minus_one", "", "code"},
		{"html failure", "the seed's remove_html_markup: out <= c, out; <- <test>s (quote is never read: every !quote operand was short-circuited)", "TestRemoveHTMLMarkup/quoted_text", "", "code"},
	}
	var got bytes.Buffer
	for _, tc := range cases {
		r, err := deps.Build(tr, deps.Options{Test: tc.test})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		crit := r.Failure
		if tc.returns != "" {
			crit = r.Returns(tc.returns)
		}
		if len(crit) == 0 {
			t.Errorf("%s: no criterion (%s)", tc.name, tc.reason)
			continue
		}
		info := report.SliceInfo{Root: dir}
		fmt.Fprintf(&got, "-- %s (%s) --\n", tc.name, r.Test)
		s := r.Backward(crit...)
		if tc.format == "code" {
			err = report.SliceCode(&got, s, info)
		} else {
			err = report.SliceDeps(&got, s, info)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	checkGolden(t, golden, got.Bytes())
	// The seed's middle: the return value's exact dependencies.
	if !strings.Contains(got.String(), "<Middle() return value> (12) <= y (7); <- <test> (11)") {
		t.Errorf("middle's return y does not depend on y and <test> (11) alone")
	}
}
