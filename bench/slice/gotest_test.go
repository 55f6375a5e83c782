package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/bench/internal/proof"
)

// TestPick checks the choice of the failure to slice from go test -json
// output.
func TestPick(t *testing.T) {
	ev := func(action, test, output string, elapsed float64) string {
		return `{"Action":"` + action + `","Package":"example.com/m/sub","Test":"` + test + `","Output":"` + output + `","Elapsed":` + fmtF(elapsed) + "}"
	}
	tests := []struct {
		name, reason string
		lines        []string
		want         string // test file:line, "" for none
	}{
		{"leaf", "a failing subtest's check, not its parent's", []string{
			ev("output", "TestA/x", `    a_test.go:12: got 1\n`, 0),
			ev("fail", "TestA/x", "", 0.1),
			ev("fail", "TestA", "", 0.2),
		}, "TestA/x a_test.go:12"},
		{"shortest", "of two failing tests with checks, the one whose top-level test ran shorter", []string{
			ev("output", "TestSlow", `    b_test.go:3: no\n`, 0),
			ev("fail", "TestSlow", "", 5),
			ev("output", "TestFast", `    b_test.go:9: no\n`, 0),
			ev("fail", "TestFast", "", 0.01),
		}, "TestFast b_test.go:9"},
		{"gocheck", "gopkg.in/check.v1 names the failed assertion on a line of its own", []string{
			ev("output", "Test", `FAIL: decode_test.go:100: S.TestX\n`, 0),
			ev("output", "Test", `decode_test.go:140:\n`, 0),
			ev("fail", "Test", "", 0.3),
		}, "Test decode_test.go:140"},
		{"no check", "a test that failed with no reported check (a panic) is not sliced", []string{
			ev("output", "TestP", `panic: boom\n`, 0),
			ev("fail", "TestP", "", 0.1),
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := parseTestJSON([]byte(strings.Join(tc.lines, "\n")))
			f, ok := r.pick()
			got := ""
			if ok {
				got = f.Test + " " + f.File + ":" + itoa(f.Line)
			}
			if got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
}

// TestPkgFile checks the names of check files relative to the module
// root, as the slice's JSON gives them, and the package filter.
func TestPkgFile(t *testing.T) {
	if got := pkgFile(".", "a_test.go"); got != "a_test.go" {
		t.Errorf("root package: %q", got)
	}
	if got := pkgFile("./unicode/norm", "n_test.go"); got != "unicode/norm/n_test.go" {
		t.Errorf("sub package: %q", got)
	}
	if !inPackages("unicode/norm/x.go", []string{"./unicode/norm"}) || inPackages("language/x.go", []string{"./unicode/norm"}) || !inPackages("x.go", nil) {
		t.Error("inPackages")
	}
}

func fmtF(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func itoa(n int) string { return strconv.Itoa(n) }

// TestFaultIn: the faulty line is looked up among the slice's lines by
// its path from the module root; a deleted statement has no line to be
// there.
func TestFaultIn(t *testing.T) {
	lines := map[string]bool{"cmp/report_text.go:426": true}
	for _, tc := range []struct {
		m    proof.Mutant
		want string
	}{
		{proof.Mutant{Op: "const", File: "cmp/report_text.go", Line: 426}, "yes"},
		{proof.Mutant{Op: "flip", File: "cmp/report_text.go", Line: 427}, "NO"},
		{proof.Mutant{Op: "delete", File: "cmp/report_text.go", Line: 426}, "deleted"},
	} {
		if got := faultIn(tc.m, lines); got != tc.want {
			t.Errorf("faultIn(%v) = %s, want %s", tc.m, got, tc.want)
		}
	}
}

func TestLongestCompile(t *testing.T) {
	trace := `[
{"name":"Running test command","ph":"B","ts":1000000,"pid":0,"tid":0}
,{"name":"Executing action (build check cache fmt)","ph":"B","ts":1000000,"pid":0,"tid":1}
,{"name":"Executing action (build check cache fmt)","ph":"E","ts":9000000,"pid":0,"tid":1}
,{"name":"Executing action (build m/p [m/p.test])","ph":"B","ts":2000000,"pid":0,"tid":2}
,{"name":"Executing action (build culprit.invalid/rt)","ph":"B","ts":2000000,"pid":0,"tid":3}
,{"name":"Executing action (build culprit.invalid/rt)","ph":"E","ts":3500000,"pid":0,"tid":3}
,{"name":"Executing action (build m/p [m/p.test])","ph":"E","ts":6250000,"pid":0,"tid":2}
,{"name":"Running test command","ph":"E","ts":9000000,"pid":0,"tid":0}
]`
	name := filepath.Join(t.TempDir(), "trace.json")
	if err := os.WriteFile(name, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := longestCompile(name); got != 4.25 {
		t.Errorf("longestCompile = %v, want 4.25 (m/p's build; cache checks and the command left out)", got)
	}
	if got := longestCompile(filepath.Join(t.TempDir(), "none")); got != 0 {
		t.Errorf("longestCompile of no file = %v, want 0", got)
	}
}

// TestFailedAt: a mutant's failure counts when a second run fails the
// same test at the same check (a test failing by timing may not).
func TestFailedAt(t *testing.T) {
	f := failure{Package: "m", Test: "TestA/x", File: "a_test.go", Line: 12}
	for _, tc := range []struct {
		name   string
		failed []failure
		want   bool
	}{
		{"same", []failure{{Package: "m", Test: "TestA/x", File: "a_test.go", Line: 12}, {Package: "m", Test: "TestA"}}, true},
		{"passed", nil, false},
		{"another check", []failure{{Package: "m", Test: "TestA/x", File: "a_test.go", Line: 20}}, false},
		{"another test", []failure{{Package: "m", Test: "TestA/y", File: "a_test.go", Line: 12}}, false},
	} {
		if got := (testRun{Failed: tc.failed}).failedAt(f); got != tc.want {
			t.Errorf("%s: failedAt = %v, want %v", tc.name, got, tc.want)
		}
	}
}
