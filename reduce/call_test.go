package reduce

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// mysteryFunc panics when a '(' precedes a ')', like the seed's mystery.
func mysteryFunc(inp string) {
	if mystery(inp) == Fail {
		panic(errors.New("Invalid input"))
	}
}

// removeHTMLMarkup is the seed's buggy markup remover: the quote test
// misses parentheses (a quote toggles even outside tags), and the
// postcondition that no markup survives catches it.
func removeHTMLMarkup(s string) string {
	tag, quote := false, false
	var out strings.Builder
	for _, c := range s {
		switch {
		case c == '<' && !quote:
			tag = true
		case c == '>' && !quote:
			tag = false
		case c == '"' || c == '\'' && tag:
			quote = !quote
		case !tag:
			out.WriteRune(c)
		}
	}
	if strings.ContainsAny(out.String(), "<>") {
		panic("markup left in output")
	}
	return out.String()
}

func stringError(s1, s2 string) {
	if strings.Contains(s2, s1) {
		panic("no substrings")
	}
}

func listError(l1, l2 []int, maxlen int) {
	if !(len(l1) < len(l2) && len(l2) < maxlen) {
		panic("invalid string length")
	}
}

// TestCallSeed reproduces the seed's call reductions, logs included.
// Test counts: remove_html_markup and string_error run as many tests as in
// the seed (10 and 3). mystery runs one more test per mode than the
// seed's DeltaDebugger (25, 9, 10 against 24, 8, 9) for the reason given
// at TestSeedExample: we split in input order, the seed in Python set
// order.
func TestCallSeed(t *testing.T) {
	tests := []struct {
		name  string
		fn    any
		args  []any
		mode  Mode
		want  string
		tests int
	}{
		{"mystery_min", mysteryFunc, []any{failingInput}, Min, `mysteryFunc("()")`, 25},
		{"mystery_max", mysteryFunc, []any{failingInput}, Max, `mysteryFunc("V\"/+!aF-V4EOz*+s/Q,7)2@0_")`, 9},
		{"mystery_diff", mysteryFunc, []any{failingInput}, Diff,
			`mysteryFunc("z*+s/Q,7)2@0_") mysteryFunc("(z*+s/Q,7)2@0_") mysteryFunc("(")`, 10},
		{"html_min", removeHTMLMarkup, []any{`"x > y"`}, Min, `removeHTMLMarkup("\">")`, 10},
		{"string_error_min", stringError, []any{"foo", "foobar"}, Min, `stringError("", "")`, 3},
		{"list_error_min", listError, []any{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []int{1, 2, 3}, 5}, Min,
			`listError([]int{}, []int{}, 5)`, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewCall(tc.fn, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			var log strings.Builder
			c.Log = &log
			var got string
			switch tc.mode {
			case Min:
				args, err := c.Min(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				got = c.Format(args)
			case Max:
				args, err := c.Max(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				got = c.Format(args)
			case Diff:
				pass, fail, diff, err := c.Diff(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				got = c.Format(pass) + " " + c.Format(fail) + " " + c.Format(diff)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if n := c.Stats().Tests; tc.tests >= 0 && n != tc.tests {
				t.Errorf("ran %d tests, want %d", n, tc.tests)
			}
			golden(t, "call_"+tc.name+".log", log.String())
		})
	}
}

func TestCallErrors(t *testing.T) {
	flaky := 0
	tests := []struct {
		name string
		fn   any
		args []any
		want string
		is   error
	}{
		{"not a function", 42, nil, "int is not a function", nil},
		{"nil function", (func(string))(nil), []any{"x"}, "is not a function", nil},
		{"too few", mysteryFunc, nil, "mysteryFunc takes 1 argument(s), got 0", nil},
		{"too many", mysteryFunc, []any{"a", "b"}, "takes 1 argument(s), got 2", nil},
		{"wrong type", mysteryFunc, []any{42}, "argument 1: int is not assignable to string", nil},
		{"nil for string", mysteryFunc, []any{nil}, "argument 1: nil is not a string", nil},
		{"does not fail", mysteryFunc, []any{"no parens"}, `mysteryFunc("no parens") did not fail`, ErrNotFailing},
		{"variadic too few", func(a int, xs ...string) { panic("x") }, nil, "takes at least 1 argument(s), got 0", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCall(tc.fn, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one containing %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
		})
	}

	// A failure that changes when the call is repeated is not reproduced.
	c, err := NewCall(func(s string) {
		flaky++
		panic(fmt.Sprintf("attempt %d", flaky))
	}, "abc")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Min(context.Background())
	if !errors.Is(err, ErrNotReproduced) || !strings.Contains(err.Error(), "panic: string: attempt 2 instead of panic: string: attempt 1") {
		t.Errorf("flaky call: got %v", err)
	}
	// Max needs the empty call to pass.
	c, err = NewCall(func(s string) { panic("always") }, "abc")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Max(context.Background()); !errors.Is(err, ErrNotPassing) {
		t.Errorf("max with failing empty call: got %v, want ErrNotPassing", err)
	}
}

// parseNumbers fails with an error naming the first bad field.
func parseNumbers(fields ...string) (int, error) {
	sum := 0
	for _, f := range fields {
		var n int
		if _, err := fmt.Sscanf(f, "%d", &n); err != nil {
			return 0, fmt.Errorf("bad field %q", "?")
		}
		sum += n
	}
	return sum, nil
}

// lastDigit indexes out of range on any input holding a '9'.
func lastDigit(xs []int) int {
	for i, x := range xs {
		if x == 9 {
			return xs[len(xs)+i]
		}
	}
	return 0
}

// sumNonzero fails when the array holds a 3 and a 4.
func sumNonzero(a [6]int) error {
	has := map[int]bool{}
	for _, x := range a {
		has[x] = true
	}
	if has[3] && has[4] {
		return errors.New("3 and 4")
	}
	return nil
}

func TestCallKinds(t *testing.T) {
	tests := []struct {
		name    string
		fn      any
		args    []any
		want    string
		failure string
	}{
		{"returned error, variadic", parseNumbers, []any{"1", "2", "x", "4", "y"},
			`parseNumbers("x")`, `error: *errors.errorString: bad field "?"`},
		{"runtime error with changing numbers", lastDigit, []any{[]int{1, 2, 3, 9, 4, 5}},
			`lastDigit([]int{9})`, "panic: runtime.boundsError: runtime error: index out of range [9] with length 6"},
		{"array elements become zero", sumNonzero, []any{[6]int{1, 3, 5, 4, 2, 6}},
			`sumNonzero([6]int{0, 3, 0, 4, 0, 0})`, "error: *errors.errorString: 3 and 4"},
		{"goexit", func(s string) {
			if strings.Contains(s, "!") {
				runtimeGoexit()
			}
		}, []any{"hello, world!"}, `fn("!")`, "goexit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewCall(tc.fn, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Failure().String(); got != tc.failure {
				t.Errorf("failure %q, want %q", got, tc.failure)
			}
			args, err := c.Min(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Format(args); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if !reflect.DeepEqual(c.Args(), tc.args) {
				t.Errorf("Args() = %#v, want the original %#v", c.Args(), tc.args)
			}
		})
	}
}

func TestCallOtherFailureIsUnresolved(t *testing.T) {
	// Short inputs panic differently: they must never be accepted, even
	// though they are smaller.
	fn := func(s string) {
		if strings.Contains(s, "ab") {
			if len(s) < 4 {
				panic("other failure")
			}
			panic("target")
		}
	}
	c, err := NewCall(fn, "zzzabzzz")
	if err != nil {
		t.Fatal(err)
	}
	args, err := c.Min(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := args[0].(string)
	if len(s) != 4 || !strings.Contains(s, "ab") {
		t.Errorf("got %s, want 4 characters holding ab", c.Format(args))
	}
}

func TestCallTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	var hung atomic.Int32
	fn := func(s string) {
		if strings.Contains(s, "z") && !strings.Contains(s, "b") {
			hung.Add(1)
			<-block // hangs: must count as unresolved
		}
		if strings.Contains(s, "a") {
			panic("a")
		}
	}
	c, err := NewCall(fn, "bzza")
	if err != nil {
		t.Fatal(err)
	}
	c.Timeout = 50 * time.Millisecond
	args, err := c.Min(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Format(args); got != `fn("a")` {
		t.Errorf("got %s", got)
	}
	if hung.Load() == 0 {
		t.Errorf("no candidate timed out; the test does not test timeouts")
	}
}

// TestCallRegressionTest checks that the emitted test is valid Go.
func TestCallRegressionTest(t *testing.T) {
	for _, tc := range []struct {
		fn   any
		args []any
	}{
		{mysteryFunc, []any{failingInput}},
		{parseNumbers, []any{"1", "x"}},
	} {
		c, err := NewCall(tc.fn, tc.args...)
		if err != nil {
			t.Fatal(err)
		}
		args, err := c.Min(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		src := c.Test(args)
		file := "package p\n\nimport \"testing\"\n\n" + src
		if _, err := parser.ParseFile(token.NewFileSet(), "x_test.go", file, 0); err != nil {
			t.Errorf("emitted test does not parse: %v\n%s", err, src)
		}
		golden(t, "regression_"+c.Name+".go.txt", src)
	}
}
