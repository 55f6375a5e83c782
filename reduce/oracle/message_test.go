package oracle

import (
	"testing"

	"github.com/culprit-go/culprit/reduce"
)

func TestParseMessage(t *testing.T) {
	tests := []struct {
		reason, output, want string
	}{
		{"go build: the header line is not an error", "# m\n./stack.go:12:3: undefined: frameHelperGone\n", "undefined: X"},
		{"a short name after the colon", "./a.go:3:2: declared and not used: g\n", "declared and not used: X"},
		{"a long lower-case name after the colon", "a.go:3:2: undefined: helper\n", "undefined: X"},
		{"gofmt, the path replaced by {}", "{}:813:28: expected type, found newline\n{}:900:1: expected declaration\n", "expected type, found newline"},
		{"tokens in single quotes stay", "{}:1:9: expected ';', found 'EOF'\n", "expected ';', found 'EOF'"},
		{"tokens in single quotes stay whole", "{}:1:9: expected '3rd', found 'x_1' at 12\n", "expected '3rd', found 'x_1' at N"},
		{"types stay, names go", "./x.go:5:7: cannot use s (variable of type string) as int value in assignment\n", "cannot use X (variable of type string) as int value in assignment"},
		{"qualified names and strings", "./x.go:5:7: fmt.Printf format %d has arg \"x\" of wrong type string\n", "X format %d has arg \"S\" of wrong type string"},
		{"capitals start a sentence only at the start", "x_test.go:12: Parse(\"a\") = 5, want 3\n", "Parse(\"S\") = N, want N"},
		{"an embedded position", "./b.go:4:6: other declaration of f at ./a.go:3:6\n", "other declaration of X at POS"},
		{"vet's prefix", "vet: ./a.go:3:1: unreachable code\n", "unreachable code"},
		{"indented test output", "--- FAIL: TestX (0.00s)\n    x_test.go:9: got 1 want 2\nFAIL\n", "got N want N"},
		{"no position", "error: something broke\n", ""},
	}
	for _, tt := range tests {
		if got := ParseMessage([]byte(tt.output)); got != tt.want {
			t.Errorf("%s: ParseMessage = %q, want %q", tt.reason, got, tt.want)
		}
	}
}

// TestClassifyMessage: without a panic, a tool's failure is its exit status
// and its first error message, so that a reduction does not slide from
// one compile error to another.
func TestClassifyMessage(t *testing.T) {
	build := func(out string) Run { return Run{Exit: Exit{Code: 1}, Output: []byte(out)} }
	golden := build("# m\n./a.go:10:2: undefined: frameHelperGone\n")
	tests := []struct {
		reason string
		run    Run
		want   reduce.Outcome
	}{
		{"the same error elsewhere, renamed", build("# m\n./a.go:3:12: undefined: a\n"), reduce.Fail},
		{"the same first error among others", build("./a.go:3:12: undefined: b\n./a.go:4:1: missing return\n"), reduce.Fail},
		{"another compile error", build("# m\n./a.go:3:2: declared and not used: g\n"), reduce.Unresolved},
		{"another error first", build("./a.go:2:2: declared and not used: g\n./a.go:3:12: undefined: a\n"), reduce.Unresolved},
		{"no message", build("exit status 1\n"), reduce.Unresolved},
		{"it builds", Run{}, reduce.Pass},
	}
	for _, tt := range tests {
		j := Judge{Rule: GoPanic}
		if err := j.Learn(golden); err != nil {
			t.Fatal(err)
		}
		if got := j.Classify(tt.run); got != tt.want {
			t.Errorf("%s: Classify = %v, want %v (signature %v, want %v)", tt.reason, got, tt.want, j.Signature(tt.run), j.Want)
		}
	}
}

// TestClassifyTest: a go test failure is also the name of its first
// failing test.
func TestClassifyTest(t *testing.T) {
	run := func(out string) Run { return Run{Exit: Exit{Code: 1}, Output: []byte(out)} }
	golden := run("--- FAIL: TestParse (0.00s)\n    p_test.go:12: got 1 want 2\nFAIL\n")
	tests := []struct {
		reason string
		run    Run
		want   reduce.Outcome
	}{
		{"the same check, elsewhere", run("--- FAIL: TestParse (0.01s)\n    p_test.go:3: got 1 want 2\nFAIL\n"), reduce.Fail},
		{"the same check, other values", run("--- FAIL: TestParse (0.01s)\n    p_test.go:12: got 0 want 5\nFAIL\n"), reduce.Unresolved},
		{"another test", run("--- FAIL: TestPrint (0.00s)\n    p_test.go:12: got 1 want 2\nFAIL\n"), reduce.Unresolved},
		{"another check", run("--- FAIL: TestParse (0.00s)\n    p_test.go:12: unexpected error\nFAIL\n"), reduce.Unresolved},
		{"the same check, other names", run("--- FAIL: TestParse (0.00s)\n    p_test.go:12: got 1 want 2 for x\nFAIL\n"), reduce.Unresolved},
		{"the same check, other quoted values", run("--- FAIL: TestParse (0.00s)\n    p_test.go:12: got '1d' want '2t'\nFAIL\n"), reduce.Unresolved},
	}
	for _, tt := range tests {
		j := Judge{Rule: GoPanic}
		if err := j.Learn(golden); err != nil {
			t.Fatal(err)
		}
		if got := j.Classify(tt.run); got != tt.want {
			t.Errorf("%s: Classify = %v, want %v (signature %v, want %v)", tt.reason, got, tt.want, j.Signature(tt.run), j.Want)
		}
	}
}
