package examplestest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// modulePath is the examples module's path; packages below are named
// relative to it.
const modulePath = "github.com/culprit-go/culprit/examples"

// expectation is the outcome one leaf test of the examples must have.
type expectation struct {
	test    string // package (relative to modulePath) + "." + test name
	outcome string // "pass", "fail" or "skip"
	reason  string // why a failing test fails; empty for passing ones
}

// expectations names every leaf test of the examples (a test without
// subtests, or a subtest without subtests of its own).
var expectations = []expectation{
	{"calc.TestEval/division_by_zero", "fail", "Eval divides without checking: integer divide by zero panics instead of an error"},
	{"calc.TestEval/missing_operand", "pass", ""},
	{"calc.TestEval/parentheses", "pass", ""},
	{"calc.TestEval/precedence", "pass", ""},
	{"calc.TestEval/truncating_division", "pass", ""},
	{"calc.TestEval/unary_minus", "pass", ""},
	{"calc.TestEval/unbalanced", "pass", ""},

	{"deps.TestAddThenMultiply", "pass", ""},
	{"deps.TestCheckPassword/right", "pass", ""},
	{"deps.TestCheckPassword/wrong", "pass", ""},
	{"deps.TestDemo", "pass", ""},
	{"deps.TestFun2", "pass", ""},
	{"deps.TestFunc", "pass", ""},
	{"deps.TestMax", "pass", ""},

	{"htmlmarkup.TestRemoveHTMLMarkup/apostrophe_in_text", "pass", ""},
	{"htmlmarkup.TestRemoveHTMLMarkup/bold_text", "pass", ""},
	{"htmlmarkup.TestRemoveHTMLMarkup/empty_element_with_attribute", "pass", ""},
	{"htmlmarkup.TestRemoveHTMLMarkup/foo_element", "pass", ""},
	{"htmlmarkup.TestRemoveHTMLMarkup/plain_text", "pass", ""},
	{"htmlmarkup.TestRemoveHTMLMarkup/quoted_attribute", "pass", ""},
	{"htmlmarkup.TestRemoveHTMLMarkup/quoted_comparison", "fail", `the quote outside a tag hides the '>' from the tag logic; the postcondition panics`},
	{"htmlmarkup.TestRemoveHTMLMarkup/quoted_foo", "fail", `a quote outside a tag toggles the quote state and is dropped: foo, not "foo"`},
	{"htmlmarkup.TestRemoveHTMLMarkup/quoted_text", "fail", `a quote outside a tag toggles the quote state and is dropped: abc, not "abc"`},

	{"listlength.TestListLength", "pass", ""},
	{"listlength.TestListLengthEmpty", "pass", ""},
	{"listlength.TestListLengthStrings", "pass", ""},

	{"middle.TestMiddle/1_2_3", "pass", ""},
	{"middle.TestMiddle/2_1_3", "fail", "y < x < z reaches the return y that should be return x"},
	{"middle.TestMiddle/3_2_1", "pass", ""},
	{"middle.TestMiddle/3_3_5", "pass", ""},
	{"middle.TestMiddle/5_3_4", "pass", ""},
	{"middle.TestMiddle/5_5_5", "pass", ""},

	{"multiarg.TestListError/increasing_lengths", "pass", ""},
	{"multiarg.TestListError/long_first_list", "fail", "the seed's call: len(l1) < len(l2) does not hold, ListError panics"},
	{"multiarg.TestStringError/foo_in_foobar", "fail", `the seed's call: "foo" occurs in "foobar", StringError panics`},
	{"multiarg.TestStringError/foo_not_in_bar", "pass", ""},

	{"myquery.TestQuery", "pass", ""},

	{"mystery.FuzzMystery/seed#0", "pass", ""},
	{"mystery.FuzzMystery/seed#1", "pass", ""},
	{"mystery.FuzzMystery/seed#2", "pass", ""},
	{"mystery.TestMystery/closing_first", "pass", ""},
	{"mystery.TestMystery/first_half", "pass", ""},
	{"mystery.TestMystery/fuzzed", "fail", "the seed's fuzzed input has ( before ): Invalid input"},
	{"mystery.TestMystery/maximized", "pass", ""},
	{"mystery.TestMystery/minimized", "fail", "() is the 1-minimal failing input: Invalid input"},
	{"mystery.TestMystery/no_parentheses", "pass", ""},
	{"mystery.TestMystery/second_half", "pass", ""},
	{"mystery.TestMystery/without_first_and_second_quarter", "pass", ""},
	{"mystery.TestMystery/without_first_and_third_quarter", "fail", "still has ( before ): Invalid input"},
	{"mystery.TestMystery/without_first_quarter", "fail", "still has ( before ): Invalid input"},

	{"sqrt.TestSquareRoot/four", "pass", ""},
	{"sqrt.TestSquareRoot/minus_one", "fail", "the precondition x >= 0 panics where math.Sqrt returns NaN"},
	{"sqrt.TestSquareRoot/one", "pass", ""},
	{"sqrt.TestSquareRoot/one_hundredth", "pass", ""},
	{"sqrt.TestSquareRoot/ten", "pass", ""},
	{"sqrt.TestSquareRoot/twenty_five", "pass", ""},
	{"sqrt.TestSquareRoot/two", "pass", ""},

	{"sum.TestPrintSum", "pass", ""},
	{"sum.TestSum2Single", "pass", ""},
	{"sum.TestSum2Varied", "pass", ""},
	{"sum.TestSum3Ints", "pass", ""},
	{"sum.TestSum3Strings", "pass", ""},
}

// examplesDir returns the absolute path of the examples module.
func examplesDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test's source file")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "examples")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("examples module: %v", err)
	}
	return dir
}

// goExamples skips the test under -short or without a go command, since
// running the examples' tests and commands builds another module, and
// returns the examples directory otherwise.
func goExamples(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the examples module")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	return examplesDir(t)
}

// goCommand returns a go command to run in dir, outside any workspace.
func goCommand(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	return cmd
}

// event is the part of a test2json event the test needs.
type event struct {
	Action     string
	Package    string
	ImportPath string // of build-output events, which have no Package
	Test       string
	Output     string
}

// TestExampleOutcomes runs the examples' tests and compares each leaf
// test's outcome with expectations.
func TestExampleOutcomes(t *testing.T) {
	dir := goExamples(t)

	var stderr bytes.Buffer
	cmd := goCommand(dir, "test", "-json", "./...")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("go test -json: %v", err)
	}

	got := map[string]string{}    // test -> outcome
	output := map[string]string{} // package or test -> its output
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("go test -json: bad event %q: %v\nstderr:\n%s", sc.Text(), err, stderr.Bytes())
		}
		pkg := e.Package
		if pkg == "" {
			pkg, _, _ = strings.Cut(e.ImportPath, " ") // "p [p.test]"
		}
		name := strings.TrimPrefix(strings.TrimPrefix(pkg, modulePath), "/")
		if e.Test != "" {
			name += "." + e.Test
		}
		switch e.Action {
		case "output", "build-output":
			output[name] += e.Output
		case "pass", "fail", "skip":
			if e.Test != "" {
				got[name] = e.Action
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading go test -json output: %v", err)
	}
	if len(got) == 0 {
		t.Fatalf("go test -json reported no tests\nstderr:\n%s", stderr.Bytes())
	}

	// Keep the leaves: a parent fails whenever one of its subtests does.
	var names []string
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	leaves := map[string]string{}
	for i, name := range names {
		if i+1 < len(names) && strings.HasPrefix(names[i+1], name+"/") {
			continue
		}
		leaves[name] = got[name]
	}

	reported := map[string]bool{} // packages whose output was shown
	for _, want := range expectations {
		outcome, ok := leaves[want.test]
		switch {
		case !ok:
			pkg, _, _ := strings.Cut(want.test, ".")
			t.Errorf("%s: missing from the examples' test run (expected %s)", want.test, want.outcome)
			if !reported[pkg] {
				reported[pkg] = true
				t.Logf("output of package %s:\n%s", pkg, output[pkg])
			}
		case outcome != want.outcome && want.outcome == "fail":
			t.Errorf("%s: %s, want fail (%s)", want.test, outcome, want.reason)
		case outcome != want.outcome:
			t.Errorf("%s: %s, want %s\n%s", want.test, outcome, want.outcome, output[want.test])
		}
		delete(leaves, want.test)
	}
	for name, outcome := range leaves {
		t.Errorf("%s: unexpected test (outcome %s); add it to expectations", name, outcome)
	}
}

// TestExampleCommands checks that the example commands crash on their
// testdata with the panic culprit reduce keys on, and succeed once the
// failure-inducing part is gone.
func TestExampleCommands(t *testing.T) {
	dir := goExamples(t)

	for _, tc := range []struct {
		name      string
		pkg       string // command package, relative to the examples
		crash     string // crashing input, relative to the examples
		panicLine string // first line of the panic on standard error
		cut       string // the failure-inducing part of crash
	}{
		{"mystery", "./mystery/cmd/mystery", "mystery/testdata/crash.txt", "panic: Invalid input", "("},
		{"htmlmarkup", "./htmlmarkup/cmd/htmlmarkup", "htmlmarkup/testdata/crash.html",
			"panic: postcondition violated: output contains '<' or '>'", `"x > y"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			crash := filepath.Join(dir, tc.crash)
			var stderr bytes.Buffer
			cmd := goCommand(dir, "run", tc.pkg, crash)
			cmd.Stderr = &stderr
			err := cmd.Run()
			if err == nil {
				t.Fatalf("go run %s %s succeeded, want a panic", tc.pkg, tc.crash)
			}
			if first, _, _ := strings.Cut(stderr.String(), "\n"); first != tc.panicLine {
				t.Errorf("go run %s %s: stderr starts %q, want %q\nstderr:\n%s", tc.pkg, tc.crash, first, tc.panicLine, stderr.Bytes())
			}

			data, err := os.ReadFile(crash)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(tc.cut)) {
				t.Fatalf("%s does not contain %q", tc.crash, tc.cut)
			}
			benign := filepath.Join(t.TempDir(), filepath.Base(tc.crash))
			if err := os.WriteFile(benign, bytes.ReplaceAll(data, []byte(tc.cut), nil), 0o666); err != nil {
				t.Fatal(err)
			}
			stderr.Reset()
			cmd = goCommand(dir, "run", tc.pkg, benign)
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Errorf("go run %s on %s without %q: %v\nstderr:\n%s", tc.pkg, tc.crash, tc.cut, err, stderr.Bytes())
			}
		})
	}
}

// TestCrashInput checks that the mystery crash file holds exactly the
// seed's fuzzed input, with no trailing newline.
func TestCrashInput(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(examplesDir(t), "mystery", "testdata", "crash.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), `V"/+!aF-(V4EOz*+s/Q,7)2@0_`; got != want {
		t.Errorf("mystery/testdata/crash.txt = %q, want %q", got, want)
	}
}
