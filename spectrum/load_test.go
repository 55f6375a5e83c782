package spectrum

import (
	"fmt"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// synthetic returns a trace of one process: TestA with subtests ok (pass),
// bad (fail) and skipped (skip), TestB (panic), TestC with a passing
// subtest while C itself failed, an example of unknown outcome, a
// benchmark. Sites: 0-4 statements, 5-6 an if's outcomes, 7 a function
// Middle(x, y, z) (r0).
func synthetic() *trace.Trace {
	sites := trace.Sites{Root: "/m", Events: trace.EventStmt | trace.EventBranch | trace.EventFunc}
	for i := 0; i < 5; i++ {
		sites.Sites = append(sites.Sites, trace.Site{Kind: trace.KindStmt, File: "/m/a.go", Line: 10 + i, Col: 2, Func: "m.F"})
	}
	sites.Sites = append(sites.Sites,
		trace.Site{Kind: trace.KindBranch, File: "/m/a.go", Line: 10, Col: 5, Func: "m.F", Info: "if true"},
		trace.Site{Kind: trace.KindBranch, File: "/m/a.go", Line: 10, Col: 5, Func: "m.F", Info: "if false"},
		trace.Site{Kind: trace.KindFunc, File: "/m/a.go", Line: 9, Col: 30, Func: "m.Middle", Info: "m.Middle(x, y, z) (_culpritR0)"},
	)
	i := func(n int64) trace.Value { return trace.Value{Tag: trace.ValInt, Int: n} }
	p := &trace.Process{Package: "m", Tests: []*trace.Test{
		{ID: 1, Name: "TestA", Outcome: trace.OutcomeFail, Ended: true, Hits: []int{0}},
		{ID: 2, Parent: 1, Name: "TestA/ok", Outcome: trace.OutcomePass, Ended: true, Hits: []int{1, 6}},
		{ID: 3, Parent: 1, Name: "TestA/bad", Outcome: trace.OutcomeFail, Ended: true, Hits: []int{2, 5}},
		{ID: 4, Parent: 1, Name: "TestA/skipped", Outcome: trace.OutcomeSkip, Ended: true, Hits: []int{4}},
		{ID: 5, Name: "TestB", Outcome: trace.OutcomePanic, Ended: true, Hits: []int{3}},
		{ID: 6, Name: "TestC", Outcome: trace.OutcomeFail, Ended: true, Hits: []int{4}},
		{ID: 7, Parent: 6, Name: "TestC/fine", Outcome: trace.OutcomePass, Ended: true, Hits: []int{1}},
		{ID: 8, Name: "ExampleF", Kind: trace.TestExample, Outcome: trace.OutcomeUnknown, Ended: true, Hits: []int{1}},
		{ID: 9, Name: "BenchmarkF", Kind: trace.TestBenchmark, Outcome: trace.OutcomePass, Ended: true, Hits: []int{1}},
	}, Events: []trace.Event{
		{Tag: trace.TagEnter, Test: 3, Site: 7, Values: []trace.Value{i(2), i(1), i(3)}},
		{Tag: trace.TagExit, Test: 3, Site: 7, Values: []trace.Value{i(1)}},
		{Tag: trace.TagEnter, Test: 2, Site: 7, Values: []trace.Value{i(1), i(2), i(3)}},
		{Tag: trace.TagExit, Test: 2, Site: 7, Values: []trace.Value{i(2)}},
		{Tag: trace.TagEnter, Test: 0, Site: 7, Values: []trace.Value{i(9), i(9), i(9)}},
	}}
	return &trace.Trace{Sites: sites, Processes: []*trace.Process{p}}
}

// TestFromTrace checks which tests become runs and what each run holds.
func TestFromTrace(t *testing.T) {
	tests := []struct {
		kinds  Kinds
		want   []string // per run: "name outcome: events"
		reason string
	}{
		{KindsOf(Stmt), []string{
			"TestA/ok pass: a.go:10:2 stmt|a.go:11:2 stmt",
			"TestA/bad fail: a.go:10:2 stmt|a.go:12:2 stmt",
			"TestB fail: a.go:13:2 stmt",
			"TestC fail: a.go:14:2 stmt",
			"TestC/fine pass: a.go:11:2 stmt|a.go:14:2 stmt",
		}, "leaves with their parents' statements; skipped, unknown and benchmarks left out; a panic fails; a parent failing alone is a run"},
		{KindsOf(Branch), []string{
			"TestA/ok pass: a.go:10:5 branch if false",
			"TestA/bad fail: a.go:10:5 branch if true",
			"TestB fail: ",
			"TestC fail: ",
			"TestC/fine pass: ",
		}, "branch outcomes only"},
		{KindsOf(Func, Value, Predicate), []string{
			"TestA/ok pass: a.go:9:30 func|a.go:9:30 value result = 2|a.go:9:30 value x = 1|a.go:9:30 value y = 2|a.go:9:30 value z = 3|a.go:9:30 pred result > 0|a.go:9:30 pred x < y|a.go:9:30 pred x < z|a.go:9:30 pred x > 0|a.go:9:30 pred y < z|a.go:9:30 pred y > 0|a.go:9:30 pred z > 0",
			"TestA/bad fail: a.go:9:30 func|a.go:9:30 value result = 1|a.go:9:30 value x = 2|a.go:9:30 value y = 1|a.go:9:30 value z = 3|a.go:9:30 pred result > 0|a.go:9:30 pred x < z|a.go:9:30 pred x > 0|a.go:9:30 pred x > y|a.go:9:30 pred y < z|a.go:9:30 pred y > 0|a.go:9:30 pred z > 0",
			"TestB fail: ",
			"TestC fail: ",
			"TestC/fine pass: ",
		}, "function entries, values and predicates; test 0's call left out"},
	}
	for _, tt := range tests {
		s, err := FromTrace(synthetic(), Options{Kinds: tt.kinds})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := describeRuns(s), strings.Join(tt.want, "\n"); g != w {
			t.Errorf("%s (%s):\ngot\n%s\nwant\n%s", tt.kinds, tt.reason, g, w)
		}
	}
	s, _ := FromTrace(synthetic(), Options{})
	notes := strings.Join(s.Notes, "\n")
	for _, want := range []string{"1 skipped", "1 examples", "1 tests that failed outside"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

func TestFromTraceMissingEvents(t *testing.T) {
	tr := synthetic()
	tr.Sites.Events = trace.EventStmt
	if _, err := FromTrace(tr, Options{Kinds: KindsOf(Value)}); err == nil || !strings.Contains(err.Error(), "not recorded") {
		t.Errorf("values from a statement trace: %v", err)
	}
}

// TestTree checks the decision tree on the seed's tables: one split on
// the faulty line separates the runs.
func TestTree(t *testing.T) {
	tests := []struct {
		name string
		s    *Spectra
		want string
	}{
		// 3_3_5 and 2_1_3 cover the same lines: no split separates them.
		{"middle", seedMiddle(), "if middle.py:6 stmt executed -> FAIL (1/2)\n" +
			"if middle.py:6 stmt not executed -> PASS (4/4)\n"},
		{"html", seedHTML(), "if remove_html_markup.py:12 stmt executed -> FAIL (1/1)\n" +
			"if remove_html_markup.py:12 stmt not executed -> PASS (2/2)\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := WriteRules(&b, tt.s, Tree(tt.s, TreeOptions{})); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, b.String(), tt.want)
		}
	}
}

// bodyTrace is a trace of F(n) (r0) { i := 0; i = n - 2; s := ""; var p *T;
// strconv.Atoi(...); g(); return i } with reads, writes and call results:
// TestX calls F(5) on goroutine 1, which calls F(2) recursively; TestY
// calls F(-1) on goroutine 2, writes p non-nil and sees Atoi fail.
func bodyTrace() *trace.Trace {
	sites := trace.Sites{Root: "/m", Events: trace.EventFunc | trace.EventRead | trace.EventWrite | trace.EventCall}
	sites.Sites = []trace.Site{
		{Kind: trace.KindFunc, File: "/m/a.go", Line: 10, Col: 20, Func: "m.F", Info: "m.F(n) (_culpritR0)"},
		{Kind: trace.KindWrite, File: "/m/a.go", Line: 11, Col: 2, Func: "m.F", Info: "i"},
		{Kind: trace.KindRead, File: "/m/a.go", Line: 12, Col: 6, Func: "m.F", Info: "n"},
		{Kind: trace.KindWrite, File: "/m/a.go", Line: 12, Col: 2, Func: "m.F", Info: "i"},
		{Kind: trace.KindWrite, File: "/m/a.go", Line: 13, Col: 2, Func: "m.F", Info: "s"},
		{Kind: trace.KindWrite, File: "/m/a.go", Line: 14, Col: 2, Func: "m.F", Info: "p"},
		{Kind: trace.KindCall, File: "/m/a.go", Line: 15, Col: 9, Func: "m.F", Info: "strconv.Atoi"},
		{Kind: trace.KindCall, File: "/m/a.go", Line: 16, Col: 9, Func: "m.F", Info: "g"},
	}
	i := func(n int64) []trace.Value { return []trace.Value{{Tag: trace.ValInt, Int: n}} }
	ev := func(test, g, site int, tag byte, v []trace.Value) trace.Event {
		return trace.Event{Tag: tag, Test: test, Goroutine: g, Site: site, Values: v}
	}
	p := &trace.Process{Package: "m", Tests: []*trace.Test{
		{ID: 1, Name: "TestX", Outcome: trace.OutcomePass, Ended: true},
		{ID: 2, Name: "TestY", Outcome: trace.OutcomeFail, Ended: true},
	}, Events: []trace.Event{
		ev(1, 1, 0, trace.TagEnter, i(5)),
		ev(1, 1, 1, trace.TagWrite, i(0)),
		ev(2, 2, 0, trace.TagEnter, i(-1)), // another goroutine meanwhile
		ev(1, 1, 0, trace.TagEnter, i(2)),  // recursion: a new activation
		ev(1, 1, 1, trace.TagWrite, i(0)),
		ev(1, 1, 0, trace.TagExit, i(0)),
		ev(1, 1, 2, trace.TagRead, i(5)),
		ev(1, 1, 3, trace.TagWrite, i(3)), // i < n: the outer n, 5
		ev(1, 1, 4, trace.TagWrite, []trace.Value{{Tag: trace.ValString}}),
		ev(1, 1, 5, trace.TagWrite, []trace.Value{{Tag: trace.ValNil}}),
		ev(1, 1, 6, trace.TagReturn, []trace.Value{{Tag: trace.ValInt, Int: 7}, {Tag: trace.ValNil}}),
		ev(1, 1, 7, trace.TagReturn, []trace.Value{{Tag: trace.ValString, Len: 2}}),
		ev(1, 1, 0, trace.TagExit, i(3)),
		ev(2, 2, 1, trace.TagWrite, i(0)),
		ev(2, 2, 2, trace.TagRead, i(-1)),
		ev(2, 2, 3, trace.TagWrite, i(0)),
		ev(2, 2, 5, trace.TagWrite, []trace.Value{{Tag: trace.ValRef, Type: "*m.T"}}),
		ev(2, 2, 6, trace.TagReturn, []trace.Value{{Tag: trace.ValInt}, {Tag: trace.ValRef, Type: "*errors.errorString"}}),
		ev(2, 2, 0, trace.TagExit, i(0)),
	}}
	return &trace.Trace{Sites: sites, Processes: []*trace.Process{p}}
}

// TestBodyEvents checks values and predicates at assignments: compared
// with the numeric variables of the same activation only (not the
// recursive call's, not the other goroutine's), signs, nil-ness and
// emptiness.
func TestBodyEvents(t *testing.T) {
	tests := []struct {
		kinds  Kinds
		want   []string
		reason string
	}{
		{KindsOf(Value), []string{
			"TestX pass: a.go:10:20 value n = 2|a.go:10:20 value n = 5|a.go:10:20 value result = 0|a.go:10:20 value result = 3|a.go:11:2 value i = 0|a.go:12:2 value i = 3|a.go:13:2 value s = \"\"|a.go:14:2 value p = nil",
			"TestY fail: a.go:10:20 value n = -1|a.go:10:20 value result = 0|a.go:11:2 value i = 0|a.go:12:2 value i = 0|a.go:14:2 value p = *m.T(len 0)",
		}, "arguments and results at the function, assignments at their place"},
		{KindsOf(Predicate), []string{
			"TestX pass: a.go:10:20 pred n > 0|a.go:10:20 pred result == 0|a.go:10:20 pred result > 0|a.go:11:2 pred i < n|a.go:11:2 pred i == 0|a.go:12:2 pred i < n|a.go:12:2 pred i > 0|a.go:12:6 pred n > 0|a.go:12:6 pred n > i|a.go:13:2 pred s == \"\"|a.go:14:2 pred p == nil|a.go:15:9 pred strconv.Atoi() result 1 > 0|a.go:15:9 pred strconv.Atoi() result 2 == nil|a.go:16:9 pred g() != \"\"",
			"TestY fail: a.go:10:20 pred n < 0|a.go:10:20 pred result == 0|a.go:11:2 pred i == 0|a.go:11:2 pred i > n|a.go:12:2 pred i == 0|a.go:12:2 pred i > n|a.go:12:6 pred n < 0|a.go:12:6 pred n < i|a.go:14:2 pred p != nil|a.go:15:9 pred strconv.Atoi() result 1 == 0|a.go:15:9 pred strconv.Atoi() result 2 != nil",
		}, "i compared with n of its own activation; signs; nil and empty; n compared where it is read; call results"},
	}
	for _, tt := range tests {
		s, err := FromTrace(bodyTrace(), Options{Kinds: tt.kinds})
		if err != nil {
			t.Fatal(err)
		}
		if g, w := describeRuns(s), strings.Join(tt.want, "\n"); g != w {
			t.Errorf("%s (%s):\ngot\n%s\nwant\n%s", tt.kinds, tt.reason, g, w)
		}
	}
	// A trace of function events only: arguments and results, with a note.
	tr := bodyTrace()
	tr.Sites.Events = trace.EventFunc
	s, err := FromTrace(tr, Options{Kinds: KindsOf(Value)})
	if err != nil || !strings.Contains(strings.Join(s.Notes, "\n"), "no reads and writes") {
		t.Errorf("function events only: %v, notes %q", err, s.Notes)
	}
}

// TestFrameShadowing checks that variables of one name declared at
// different places stay apart, and that an argument (no declaring
// position) is the variable its reads name.
func TestFrameShadowing(t *testing.T) {
	var f frame
	f.set("n", "", 1)         // argument at entry
	f.set("n", "a.go:1:8", 2) // a read of it
	f.set("x", "a.go:2:2", 3)
	f.set("x", "a.go:4:3", 4) // an inner x
	f.set("x", "a.go:2:2", 5)
	want := []numVar{{"n", "a.go:1:8", 2}, {"x", "a.go:2:2", 5}, {"x", "a.go:4:3", 4}}
	if fmt.Sprint(f.vars) != fmt.Sprint(want) {
		t.Errorf("frame %v, want %v", f.vars, want)
	}
}

// describeRuns lists each run as "name outcome: event|event...".
func describeRuns(s *Spectra) string {
	var got []string
	for r, run := range s.Runs {
		var evs []string
		for _, e := range s.RunEvents(r) {
			evs = append(evs, s.Events[e].String())
		}
		got = append(got, run.Name+" "+run.Outcome.String()+": "+strings.Join(evs, "|"))
	}
	return strings.Join(got, "\n")
}

// TestRunningWhenDied checks what a test still running when its process
// died counts as: failing when nothing else explains the death (a
// timeout, a fatal error, os.Exit), left out when another test of the
// process panicked, since that panic stopped it.
func TestRunningWhenDied(t *testing.T) {
	tests := []struct {
		name  string
		other trace.Outcome // TestOther's outcome beside the running TestR
		want  string
		note  string
	}{
		{"beside a panic", trace.OutcomePanic, "TestOther fail: a.go:11:2 stmt", "1 tests still running when another test's panic"},
		{"alone", trace.OutcomePass, "TestR fail: a.go:10:2 stmt\nTestOther pass: a.go:11:2 stmt", "1 tests still running when their process died, counted as failing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := synthetic()
			tr.Processes[0].Events = nil
			tr.Processes[0].Tests = []*trace.Test{
				{ID: 1, Name: "TestR", Outcome: trace.OutcomeRunning, Hits: []int{0}},
				{ID: 2, Name: "TestOther", Outcome: tt.other, Ended: true, Hits: []int{1}},
			}
			s, err := FromTrace(tr, Options{Kinds: KindsOf(Stmt)})
			if err != nil {
				t.Fatal(err)
			}
			if got := describeRuns(s); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if notes := strings.Join(s.Notes, "\n"); !strings.Contains(notes, tt.note) {
				t.Errorf("notes lack %q:\n%s", tt.note, notes)
			}
		})
	}
}
