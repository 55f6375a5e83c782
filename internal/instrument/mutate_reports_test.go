package instrument

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestCompareReports compares a failing table-driven test's run under a
// mutant with the original's, report by report: the failing case's
// check changed, other cases made to fail, the test fixed, the test made
// to panic, and a testify report of several lines.
func TestCompareReports(t *testing.T) {
	const base = `=== RUN   TestCast
    cast_test.go:120: got error for "18446744073709551615"
--- FAIL: TestCast (0.00s)
=== RUN   TestOther
--- PASS: TestOther (0.01s)
FAIL
`
	const testify = `=== RUN   TestEq
    eq_test.go:9: 
        	Error Trace:	/x/eq_test.go:9
        	Error:      	Not equal: 
        	            	expected: 5
        	            	actual  : 4
--- FAIL: TestEq (0.00s)
`
	trace := func(cases int, at string) string {
		out := "=== RUN   TestGet\n"
		for i := range cases {
			out += fmt.Sprintf("case %d\n", i)
		}
		return out + "--- FAIL: TestGet (0.00s)\npanic: runtime error: slice bounds out of range [1:0] [recovered]\n\ngoroutine 6 [running]:\n" +
			"testing.tRunner.func1.2({0x58d020, 0xc0000120f0})\n\t/go/src/testing/testing.go:1974 +0x232\npanic({0x58d020?, 0xc0000120f0?})\n\t/go/src/runtime/panic.go:860 +0x13a\n" +
			"example.com/m.search({0xc0000160d0, 0x4, 0x8})\n\t/m/m.go:" + at + " +0x51e\nexample.com/m.TestGet(0xc0000a6820)\n\t/m/m_test.go:12 +0x36\nexit status 2\n"
	}
	for _, c := range []struct {
		name, base, got                          string
		failing                                  []string
		changed, fixed, lost, added, crashed, rp int
	}{
		{name: "same", base: base, got: base, failing: []string{"TestCast"}, rp: 1},
		{name: "message changed", base: base, failing: []string{"TestCast"}, changed: 1, lost: 1, rp: 1,
			got: "=== RUN   TestCast\n    cast_test.go:120: got 9223372036854775807, want 18446744073709551615\n--- FAIL: TestCast (0.02s)\n"},
		{name: "other cases fail", base: base, failing: []string{"TestCast"}, changed: 1, added: 2, rp: 1,
			got: "=== RUN   TestCast\n    cast_test.go:120: got error for \"18446744073709551615\"\n    cast_test.go:120: got 0, want 8\n    cast_test.go:120: got 0, want 9\n--- FAIL: TestCast (0.00s)\n"},
		{name: "fixed", base: base, failing: []string{"TestCast"}, changed: 1, fixed: 1, lost: 1, rp: 1,
			got: "=== RUN   TestCast\n--- PASS: TestCast (0.00s)\n"},
		{name: "panicked", base: base, failing: []string{"TestCast"}, changed: 1, crashed: 1, rp: 1,
			got: "=== RUN   TestCast\n--- FAIL: TestCast (0.00s)\npanic: runtime error: index out of range [3] with length 3 [recovered]\n\ngoroutine 7 [running]:\n"},
		{name: "did not finish", base: base, failing: []string{"TestCast"}, changed: 1, crashed: 1, rp: 1,
			got: "=== RUN   TestCast\n"},
		{name: "testify value changed", base: testify, failing: []string{"TestEq"}, changed: 1, lost: 1, rp: 1,
			got: "=== RUN   TestEq\n    eq_test.go:9: \n        \tError Trace:\t/x/eq_test.go:9\n        \tError:      \tNot equal: \n        \t            \texpected: 5\n        \t            \tactual  : 0\n--- FAIL: TestEq (0.00s)\n"},
		{name: "example output changed", failing: []string{"ExampleWidth"}, changed: 1, lost: 1, rp: 1,
			base: "=== RUN   ExampleWidth\n--- FAIL: ExampleWidth (0.00s)\ngot:\n3\nwant:\n2\n",
			got:  "=== RUN   ExampleWidth\n--- FAIL: ExampleWidth (0.00s)\ngot:\n4\nwant:\n2\n"},
		{name: "testify bytes changed after a blank line", failing: []string{"TestB/x"}, changed: 1, lost: 1, rp: 1,
			base: "=== RUN   TestB/x\n    require.go:157: \n        \tError Trace:\tb_test.go:30\n        \tError:      \tNot equal: \n        \t            \texpected: []byte{0x1, 0x17}\n        \t            \tactual  : []byte{0x1, 0x7}\n        \t            \t\n        \t            \tDiff:\n        \t            \t- 01 17\n        \t            \t+ 01 07\n        \tTest:       \tTestB/x\n--- FAIL: TestB/x (0.00s)\n",
			got:  "=== RUN   TestB/x\n    require.go:157: \n        \tError Trace:\tb_test.go:30\n        \tError:      \tNot equal: \n        \t            \texpected: []byte{0x1, 0x17}\n        \t            \tactual  : []byte{0x1, 0x10}\n        \t            \t\n        \t            \tDiff:\n        \t            \t- 01 17\n        \t            \t+ 01 10\n        \tTest:       \tTestB/x\n--- FAIL: TestB/x (0.00s)\n"},
		{name: "panicked alike in an earlier case", failing: []string{"TestGet"}, rp: 1, base: trace(9, "311"), got: trace(4, "311")},
		{name: "panicked elsewhere", failing: []string{"TestGet"}, changed: 1, rp: 1, base: trace(9, "311"), got: trace(9, "312")},
		{name: "subtest", failing: []string{"TestT"}, changed: 1, lost: 1, added: 0, rp: 2,
			base: "=== RUN   TestT\n=== RUN   TestT/a\n    t_test.go:5: a wrong\n=== RUN   TestT/b\n    t_test.go:5: b wrong\n--- FAIL: TestT (0.00s)\n    --- FAIL: TestT/a (0.00s)\n    --- FAIL: TestT/b (0.00s)\n",
			got:  "=== RUN   TestT\n=== RUN   TestT/a\n=== RUN   TestT/b\n    t_test.go:5: b wrong\n--- FAIL: TestT (0.00s)\n    --- PASS: TestT/a (0.00s)\n    --- FAIL: TestT/b (0.00s)\n"},
		{name: "subtests in another order", failing: []string{"TestM/a", "TestM/b"}, rp: 2,
			base: "=== RUN   TestM\n=== RUN   TestM/a\n    m_test.go:5: a wrong\n=== RUN   TestM/b\n    m_test.go:5: b wrong\n--- FAIL: TestM (0.00s)\n    --- FAIL: TestM/a (0.00s)\n    --- FAIL: TestM/b (0.00s)\nFAIL\n",
			got:  "=== RUN   TestM\n=== RUN   TestM/b\n    m_test.go:5: b wrong\n=== RUN   TestM/a\n    m_test.go:5: a wrong\n--- FAIL: TestM (0.00s)\n    --- FAIL: TestM/b (0.00s)\n    --- FAIL: TestM/a (0.00s)\nFAIL\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var o MutantOutcome
			compareOutcomes(&o, parseVerbose(c.base), parseVerbose(c.got), c.failing, []string{"TestOther"})
			if o.Changed != c.changed || o.Fixed != c.fixed || o.Lost != c.lost || o.Added != c.added || o.Crashed != c.crashed || o.Reports != c.rp {
				t.Errorf("changed %d fixed %d lost %d added %d crashed %d reports %d, want %d %d %d %d %d %d",
					o.Changed, o.Fixed, o.Lost, o.Added, o.Crashed, o.Reports, c.changed, c.fixed, c.lost, c.added, c.crashed, c.rp)
			}
		})
	}
}

// TestReportsSpaces reads two runs of a test whose go-cmp report put
// no-break spaces in one run and spaces in the other (go-cmp chooses at
// random, run by run): the same reports and output.
func TestReportsSpaces(t *testing.T) {
	run := func(sp string) testResult {
		out := "=== RUN   TestX\n    x_test.go:9: range mismatch:" + sp + sp + "hcl.Range{\n          " + sp + sp + "\tFilename: \"test.hcl\",\n          }\n--- FAIL: TestX (0.01s)\n"
		return parseVerbose(out)["TestX"]
	}
	a, b := run(" "), run("\u00a0")
	if len(a.reports) != 1 || !slices.Equal(a.reports, b.reports) || a.output != b.output {
		t.Errorf("reports %q and %q, output %q and %q: want one report, the same in both", a.reports, b.reports, a.output, b.output)
	}
}

// TestReportsTraceArgs reads two runs of a test that panicked, whose
// traces differ in the arguments the runtime printed for a frame (a
// register's stale value, marked "?"): the same reports and output.
func TestReportsTraceArgs(t *testing.T) {
	run := func(arg string) testResult {
		out := "=== RUN   TestX\n--- FAIL: TestX (0.00s)\npanic: runtime error: index out of range [1] with length 0 [recovered]\n\n" +
			"goroutine 7 [running]:\nexample.com/m.get({0xc000014090, 0x4, 0x8}, {0x6f7c50?, " + arg + "?, 0x4?})\n\t/m/m.go:311 +0x51e\n" +
			"example.com/m.Get(...)\n\t/m/m.go:933\ntesting.tRunner(0xc0000a6820, 0x5af4b0)\n\t/go/src/testing/testing.go:2036 +0xea\nexit status 2\n"
		return parseVerbose(out)["TestX"]
	}
	a, b := run("0x46ca3c"), run("0x0")
	if !a.panicked || !slices.Equal(a.reports, b.reports) || a.output != b.output || a.panicAt != "example.com/m.get(…) /m/m.go:311" {
		t.Errorf("panicked %v at %q, reports %q and %q, output %q and %q: want a panic at m.get, the same in both", a.panicked, a.panicAt, a.reports, b.reports, a.output, b.output)
	}
}

// TestOutputFastPaths checks that the normalization of test output
// lines, which skips its regular expressions where they cannot match,
// gives what the regular expressions give.
func TestOutputFastPaths(t *testing.T) {
	for _, l := range []string{
		"", "ok", "a b c", "a  b", "a\tb", "a\u00a0b", "a \u00a0 b", "é b", "a\rb", "a\fb", "a\vb", "trailing ",
		"--- FAIL: TestX (0.01s)", "--- FAIL: TestX (12.345s) more", "(1s)", "took (0.5s",
		"panic: at 0x1234abcd", "0x12", "main.f({0x4?, 0xc000012345}, 0x1)", "testing.(*T).Run(0xc0001, {0x5a, 0x3})", "main.g(...)", "f(x) and 0x12", "goroutine 17 [running]:", "goroutine x", "0xdeadbeef0 and goroutine 3",
		"    x_test.go:9: got 1", "x.go:12: ", "\tfoo_bar.go:1: msg", "not a.go:report", "a.go:x: no", "  a.go:3:no space",
	} {
		want := hexRe.ReplaceAllString(frameRe.ReplaceAllString(durationRe.ReplaceAllString(l, ""), "$1(…)"), "X")
		if got := normalizeOutput(l); got != want {
			t.Errorf("normalizeOutput(%q) = %q, want %q", l, got, want)
		}
		if got, want := oneSpace(l), spaceRe.ReplaceAllString(l, " "); got != want {
			t.Errorf("oneSpace(%q) = %q, want %q", l, got, want)
		}
		if got, want := strings.Contains(l, ".go:") && reportRe.MatchString(l), reportRe.MatchString(l); got != want {
			t.Errorf("report %q: %v, want %v", l, got, want)
		}
	}
}

// spaceRe is what oneSpace does, as a regular expression.
var spaceRe = regexp.MustCompile(`[\s\x{00a0}]+`)

// TestWordSet checks wordSet and oneSpace against the regular
// expressions they stand for, on reports and on random strings of ASCII, letters and
// digits of other scripts, white space of both kinds and invalid UTF-8.
func TestWordSet(t *testing.T) {
	re := regexp.MustCompile(`[\pL\pN_.]+|[^\s\pL\pN_.]`)
	want := func(r string) string {
		w := re.FindAllString(r, -1)
		sort.Strings(w)
		return strings.Join(w, " ")
	}
	cases := []string{
		"", " ", "a", "x_test.go:12: got 3, want 4", "bad unused: []string{\"b\", \"a\"}",
		"é ü ß 日本 ²½ ٣", "a\u00a0b\vc\u2028d", "\xff\xfe ok\xc3", "a \u00a0\t b", "\xc2 \xa0", "\ufffd\ufffd.x", "a.b_c-d+e",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", "0", "_", ".", "-", " ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "é", "日", "²", "\u0663", "\xff", "\xc3", "\ufffd", "{", "\"", "\u0301"}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(20) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if got, want := wordSet(c), want(c); got != want {
			t.Errorf("wordSet(%q) = %q, want %q", c, got, want)
		}
		if got, want := oneSpace(c), spaceRe.ReplaceAllString(c, " "); got != want {
			t.Errorf("oneSpace(%q) = %q, want %q", c, got, want)
		}
	}
}

// TestFamily checks the subtests parseVerbose indexes against the names
// with the test's prefix, where other tests' names sort between them
// ("TestA-b" between "TestA" and "TestA/x").
func TestFamily(t *testing.T) {
	var out strings.Builder
	names := []string{"TestA", "TestA/x", "TestA-b", "TestA/x/1", "TestA/y", "TestAB", "TestA-b/z", "TestB"}
	for _, n := range names {
		fmt.Fprintf(&out, "=== RUN   %s\n", n)
	}
	for _, n := range slices.Backward(names) {
		fmt.Fprintf(&out, "--- PASS: %s (0.00s)\n", n)
	}
	res := parseVerbose(out.String())
	for _, n := range append(names, "TestMissing") {
		want := []string{}
		for _, m := range slices.Sorted(maps.Keys(res)) {
			if m == n || strings.HasPrefix(m, n+"/") {
				want = append(want, m)
			}
		}
		if got := family(res, n); !slices.Equal(got, want) {
			t.Errorf("family(%s) = %q, want %q", n, got, want)
		}
	}
}

// TestUnstableReports compares mutants' runs with an original whose
// report differs run to run: a map's keys listed in random order read
// alike; a report that differs otherwise in another run of the original
// marks the test unstable, and a mutant's different report is then no
// change, while a fix or a crash still is.
func TestUnstableReports(t *testing.T) {
	run := func(msg, outcome string) string {
		if msg != "" {
			msg = "    m_test.go:9: " + msg + "\n"
		}
		return "=== RUN   TestM\n" + msg + "--- " + outcome + ": TestM (0.00s)\nFAIL\n"
	}
	const orig = `unused: ["a" "b"], took 3 tries`
	for _, c := range []struct {
		name, again, got       string
		changed, fixed, crashd int
	}{
		{name: "stable, another report", again: orig, got: run(`unused: ["c"], took 3 tries`, "FAIL"), changed: 1},
		{name: "stable, keys in another order", again: `unused: ["b" "a"], took 3 tries`, got: run(`unused: ["b" "a"], took 3 tries`, "FAIL")},
		{name: "unstable, another report", again: `unused: ["a" "b"], took 5 tries`, got: run(`unused: ["c"], took 4 tries`, "FAIL")},
		{name: "unstable, fixed", again: `unused: ["a" "b"], took 5 tries`, got: run("", "PASS"), changed: 1, fixed: 1},
		{name: "unstable, crashed", again: `unused: ["a" "b"], took 5 tries`, got: "=== RUN   TestM\n", changed: 1, crashd: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := parseVerbose(run(orig, "FAIL"))
			markUnstable(base, parseVerbose(run(c.again, "FAIL")), []string{"TestM"})
			var o MutantOutcome
			compareOutcomes(&o, base, parseVerbose(c.got), []string{"TestM"}, nil)
			if o.Changed != c.changed || o.Fixed != c.fixed || o.Crashed != c.crashd {
				t.Errorf("changed %d fixed %d crashed %d, want %d %d %d", o.Changed, o.Fixed, o.Crashed, c.changed, c.fixed, c.crashd)
			}
		})
	}
}

// TestRunPattern checks the -test.run patterns of the mutants' runs:
// the tests' top-level tests, or the failing subtests alone, level by
// level, their names quoted.
func TestRunPattern(t *testing.T) {
	for _, tt := range []struct {
		tests []string
		alone bool
		want  string
	}{
		{[]string{"TestB/x", "TestA", "TestB/y"}, false, "^(TestA|TestB)$"},
		{[]string{"TestToml/decode/invalid/utf16-bom"}, true, "^(TestToml)$/^(decode)$/^(invalid)$/^(utf16-bom)$"},
		{[]string{"TestT/a.b", "TestT/c", "TestU/c/d"}, true, `^(TestT|TestU)$/^(a\.b|c)$/^(d)$`},
	} {
		if got := runPattern(tt.tests, tt.alone); got != tt.want {
			t.Errorf("runPattern(%q, %v) = %q, want %q", tt.tests, tt.alone, got, tt.want)
		}
	}
}

// TestRunEnv checks the mutants' environment: the cores shared among
// the jobs, a GOMAXPROCS the user set kept, the caller's slice untouched.
func TestRunEnv(t *testing.T) {
	share := fmt.Sprintf("GOMAXPROCS=%d", max(1, runtime.NumCPU()/2))
	for _, c := range []struct {
		env  []string
		jobs int
		want []string
	}{
		{[]string{"A=1"}, 2, []string{"A=1", share}},
		{[]string{"A=1"}, 1 << 20, []string{"A=1", "GOMAXPROCS=1"}},
		{[]string{"GOMAXPROCS=3", "A=1"}, 2, []string{"GOMAXPROCS=3", "A=1"}},
	} {
		in := make([]string, len(c.env), len(c.env)+4)
		copy(in, c.env)
		got := runEnv(in, c.jobs)
		if !slices.Equal(got, c.want) {
			t.Errorf("runEnv(%q, %d) = %q, want %q", c.env, c.jobs, got, c.want)
		}
		if spare := in[:len(c.env)+1][len(c.env)]; !slices.Equal(in, c.env) || spare != "" {
			t.Errorf("runEnv(%q, %d) wrote into its argument's array", c.env, c.jobs)
		}
	}
}
