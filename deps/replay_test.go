package deps_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/report"
)

var replayTrace moduleTrace

// TestReplay slices the return value of each function of the
// testdata/replay module, as a summary graph and an execution-level one,
// and compares both with testdata/replay.golden. Package loops has every
// kind of loop and jump: no statement may be placed twice (an extra
// version of a variable, a stray <test>) and no control dependence may
// be lost. Package calls passes pointers, slices and maps to code that
// is not instrumented: what it writes through them is a possible write
// at the call. Each row says what must and must not be in the
// execution-level slice (want, not), besides the golden file.
func TestReplay(t *testing.T) {
	tr, dir := replayTrace.run(t, filepath.Join("testdata", "replay"))
	cases := []struct {
		test, fn, reason string
		want, not        []string
	}{
		{"TestLoops/Forever", "Forever", "for {: the body's first statement once per iteration (v@0, v@1), r under the decision that broke, v@1 under the one that looped back",
			[]string{"v@1 (16) <= strconv.Atoi(s)@1 (16); <- <test>@0 (17)", "r@0 (18) <= v@1 (16); <- <test>@1 (17)"}, []string{"v@2", "<test>@2"}},
		{"TestLoops/Classic", "Classic", "for init; cond; post with continue: s += i under the if, the if under the loop's condition, i++ after the continue under the loop's",
			[]string{"<test>@3 (30) <= 2 (30), 0 (30), i@1 (29); <- <test>@2 (29)", "s@1 (33) <= s@0 (28), i@1 (29); <- <test>@3 (30)", "i@1 (29) <= i@0 (29); <- <test>@0 (29)"}, nil},
		{"TestLoops/PostOnly", "PostOnly", "for ; ; i++: the post runs after the body (i@1 after s@1), not as the loop starts",
			[]string{"s@1 (45) <= s@0 (40), i@0 (40); <- <test>@0 (42)\n    i@1 (41) <= i@0 (40); <- <test>@0 (42)"}, []string{"i@4"}},
		{"TestLoops/RangeInt", "RangeInt", "range over an int: each iteration's body under its header",
			[]string{"s@3 (54) <= s@2 (54), i@2 (53); <- <test>@2 (53)"}, []string{"i@3"}},
		{"TestLoops/RangeSlice", "RangeSlice", "range over a slice left by a break: the next iteration under the if that did not break",
			[]string{"<test>@2 (62) <= xs@0 (60); <- <test>@1 (63)", "s@2 (66) <= s@1 (66), x@1 (62); <- <test>@3 (63)"}, []string{"x@2"}},
		{"TestLoops/RangeMap", "RangeMap", "range over a map: the body under the if, the if under the header",
			[]string{`<test>@1 (75) <= k@0 (74), "" (75); <- <test>@0 (74)`, "s@1 (76) <= s@0 (73), v@0 (74); <- <test>@1 (75)"}, nil},
		{"TestLoops/RangeChan", "RangeChan", "range over a channel: each value from its send, the body under the header",
			[]string{"v@1 (89) <= ch@0 (84), <send>@3 (86)", "s@2 (90) <= s@1 (90), v@1 (89); <- <test>@1 (89)"}, []string{"v@2"}},
		{"TestLoops/RangeFunc", "RangeFunc", "range over a function: the body, run from the iterator's yield, in RangeFunc's frame (s@3 from s@2), the range's value what count's iterator passed to yield each iteration (its i)",
			[]string{"s@3 (113) <= s@2 (113), v@2 (109); <- <test>@5 (110)", "v@2 (109) <= i@2 (98); <- <test>@3 (110)"}, []string{"count(n)@", "v@2 (109) <= <count() return value>"}},
		{"TestLoops/RangeYield", "RangeYield", "range over a function yielding xs[i]*2: the loop variable is the value passed to yield, so its slice reaches xs and the 2",
			[]string{"v@0 (206) <= xs[0]@0 (195), 2 (195)\n", "xs[0]@0 (195) <= xs@0 (192)", "v@1 (206) <= 2 (195), xs[1]@0 (195)\n"}, []string{"v@0 (206) <= <doubled() return value>"}},
		{"TestLoops/RangeYield2", "RangeYield2", "range over a Seq2 yielding (i, plus(x, k)) into _, v: the value is yield's second argument, plus's result (a call in the argument), not the key i",
			[]string{"v@0 (227) <= <plus() return value>@0 (233)\n", "v@1 (227) <= <plus() return value>@1 (233)\n", "b@1 (233) <= k@0 (213)"}, []string{"v@0 (227) <= <indexed() return value>"}},
		{"TestLoops/RangeAdapter", "RangeAdapter", "range over an adapter, next(doubled(xs)): next's yield is called from the body of its range over doubled, in next's frame; the loop variable is v+1 there, next's v what doubled passed",
			[]string{"v@0 (250) <= v@0 (239), 1 (240)\n", "v@0 (239) <= xs[0]@0 (195), 2 (195)\n"}, []string{"v@0 (250) <= <next() return value>"}},
		{"TestLoops/Labeled", "Labeled", "continue and break of the outer loop from the inner one: i++ and the outer condition under the if that continued outer",
			[]string{"i@1 (122) <= i@0 (122); <- <test>@5 (124)", "<test>@6 (122) <= n@0 (119), i@1 (122); <- <test>@5 (124)", "j@2 (123) <= 0 (123); <- <test>@6 (122)"}, nil},
		{"TestLoops/Goto", "Goto", "a loop made of goto: each s += i under the if's decision of its iteration",
			[]string{"s@2 (141) <= s@1 (141), i@1 (142); <- <test>@1 (140)", "s@3 (141) <= s@2 (141), i@2 (142); <- <test>@2 (140)"}, []string{"s@4"}},
		{"TestLoops/Select", "Select", "select in a loop: the clause taken under the select's decision",
			[]string{"s@1 (156) <= s@0 (152), v@0 (155); <- <test>@1 (154)", "s@2 (158) <= s@1 (156); <- <test>@3 (154)"}, nil},
		{"TestLoops/Fallthrough", "Fallthrough", "fallthrough: the next case's body runs under the first case's decision; the next case's test never ran",
			[]string{"s@2 (172) <= s@1 (169), 2 (172); <- <test>@0 (168)"}, []string{"<test>@1", "0 (171)"}},
		{"TestLoops/Block", "Block", "a bare block in a loop: its statements once per iteration, under the loop's condition",
			[]string{"x@1 (184) <= 2 (184), i@1 (182); <- <test>@1 (182)"}, []string{"x@2"}},
		{"TestLoops/Header", "Header", "len, cap and range's index and <test> read xs's length, its value the elements (summary: n (9) and i (10) not from xs[0] (7), x (13) from it)",
			[]string{"xs[0]@0 (7) <= a@0 (5)"}, nil},
		{"TestCalls/Sscan", "Sscan", "fmt.Sscan(s, &n) may write n: the return depends on the call, so on s",
			[]string{"n@1 (20) <= <fmt.Sscan()>@0 (20)", "<Sscan() return value>@0 (21) <= n@0 (19), n@1 (20)"}, nil},
		{"TestCalls/Unmarshal", "Unmarshal", "json.Unmarshal(data, &v) may write v: v.N read after depends on the call, so on data",
			[]string{"v@1 (33) <= v.N@0 (32), json.Unmarshal(data, &v)@0 (33)", "n@0 (36) <= v.N@0 (32), v@1 (33)"}, nil},
		{"TestCalls/BinaryRead", "BinaryRead", "binary.Read(r, order, &x) may write x",
			[]string{"x@1 (43) <= <binary.Read()>@0 (43)"}, nil},
		{"TestCalls/ReadFull", "ReadFull", "io.ReadFull(r, buf) may write the slice's elements",
			[]string{"buf@1 (51) <= <io.ReadFull()>@0 (51)", "buf[1]@0 (52) <= buf@0 (49), buf@1 (51)"}, nil},
		{"TestCalls/Min", "Min", "sort.Ints(xs) may write the elements instrumented code wrote: xs[0] read after sees the sort, so b",
			[]string{"xs@1 (61) <= xs[0]@0 (59), xs[1]@0 (60), <sort.Ints()>@0 (61)", "v@0 (62) <= xs[0]@0 (59), xs@1 (61)"}, nil},
		{"TestCalls/Reflect", "Reflect", "reflect.ValueOf(&y) in a call statement: y may be written by the statement, which reads x",
			[]string{"y@1 (69) <= <reflect.ValueOf(&y).Elem().SetInt()>@0 (69)", "x@0 (67)"}, nil},
		{"TestCalls/Delete", "Delete", "delete(m, k) writes m: its length depends on k",
			[]string{"m@1 (77) <= m[\"a\"]@0 (76), <delete()>@0 (77)", "k@0 (74)"}, nil},
		{"TestCalls/ReadOnly", "ReadOnly", "fmt.Sprint and strings.ToUpper only read their arguments: xs is not written",
			[]string{"<ReadOnly() return value>@0 (86) <= xs[0]@0 (83)"}, []string{"xs@1", "Sprint"}},
		{"TestCalls/Instrumented", "Instrumented", "an instrumented callee's write through the pointer is recorded: no possible write at the call",
			[]string{"<Instrumented() return value>@0 (98) <= *p@0 (91)"}, []string{"x@1"}},
		{"TestCalls/Mapped", "Mapped", "strings.Map calls next back from code that is not instrumented: next's parameter may come from anything Map was given, Map's value from next's return values and its operands",
			[]string{"strings.Map(next, s)@1 (17) <= s@0 (16), <next() return value>@0 (10)", "r@0 (9) <= strings.Map(next, s)@0 (17)"}, nil},
		{"TestCalls/Through", "Through", "*(*int)(p) = v writes x through a converted pointer: x read after is that write",
			[]string{"<Through() return value>@0 (26) <= *(*int)(p)@0 (25)", "*(*int)(p)@0 (25) <= v@0 (22)"}, nil},
		{"TestCalls/Builder", "Builder", "sb.WriteString(a) may write sb (a method of code that is not instrumented): the string read after depends on both parts",
			[]string{"a@0 (", "b@0 ("}, nil},
		{"TestCalls/Counter", "Counter", "c.Add(n) may write c: the value loaded after depends on n",
			[]string{"n@0 ("}, nil},
		{"TestElems/Append", "Append", "ys := append(xs, c) copies xs to a new array: ys[0] read after is xs[0], from a, not b nor c (summary: the return from xs[0] (9), not ys (11))",
			[]string{"<Append() return value>@0 (12) <= xs[0]@0 (9)"}, []string{"c@", "b@"}},
		{"TestElems/Appended", "Appended", "the element append added: ys[2] from c, not a nor b (summary: ys[2] (20) <= c)",
			[]string{"ys[2]@0 (20) <= c@0 (16)"}, []string{"a@", "b@"}},
		{"TestElems/Struct", "Struct", "q := p copies the struct: q.x read after is p.x, from a, not b (summary: the return from p.x (29), not q (31))",
			[]string{"p.x@0 (29) <= a@0 (27)"}, []string{"b@", "p.y@"}},
	}
	var got bytes.Buffer
	for _, tc := range cases {
		sum, ver := bothGraphs(t, tr, tc.test)
		fmt.Fprintf(&got, "-- %s: %s --\n", tc.test, tc.reason)
		if err := report.SliceDeps(&got, sum.Backward(sum.Returns(tc.fn)...), report.SliceInfo{Root: dir}); err != nil {
			t.Fatal(err)
		}
		precise := versions(ver.Graph, ver.Backward(ver.Returns(tc.fn)...))
		fmt.Fprintf(&got, "precise:\n%s", precise)
		checkSlice(t, tc.test, tc.reason, precise, tc.want, tc.not)
		for _, n := range sum.Notes {
			t.Errorf("%s: note %q", tc.test, n)
		}
		for id := range ver.Backward(ver.Returns(tc.fn)...).Nodes {
			if n := ver.Nodes[id]; n.Seq == 0 && !n.Const {
				t.Errorf("%s: %s (%d) is no execution of the run: a decision made up for a statement whose controller had not run", tc.test, n.Var, n.Line)
			}
		}
	}
	checkGolden(t, filepath.Join("testdata", "replay.golden"), got.Bytes())
}

// TestHeaderReads: in the summary graph, len(xs), cap(xs) and a range's
// index and decision depend on xs's length (its definition by make),
// not on the elements written since; the range's value does (issue 18:
// a sum said to depend on an element never read).
func TestHeaderReads(t *testing.T) {
	got := summarySlice(t, "TestLoops/Header", "Header")
	for _, w := range []string{"n (9) <= xs (6);", "i (10) <= xs (6);", "<test> (10) <= xs (6);", "x (13) <= xs (6), xs[0] (7), xs[1] (8)"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q:\n%s", w, got)
		}
	}
}

// summarySlice returns, in the deps format, the summary graph's slice of
// the return value of fn in test of the testdata/replay module.
func summarySlice(t *testing.T, test, fn string) string {
	t.Helper()
	tr, dir := replayTrace.run(t, filepath.Join("testdata", "replay"))
	r, err := deps.Build(tr, deps.Options{Test: test})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := report.SliceDeps(&got, r.Backward(r.Returns(fn)...), report.SliceInfo{Root: dir}); err != nil {
		t.Fatal(err)
	}
	return got.String()
}

// TestDeclared: in the summary graph, a read of a package-level variable
// that the run never defined (initialized before the test began, in a
// file the trace does not name) depends on its declaration.
func TestDeclared(t *testing.T) {
	got := summarySlice(t, "TestCalls/Scaled", "Scaled")
	for _, w := range []string{"package-level variables (calls/tables.go):\n    factor (6)\n    names (8)\n", "<Scaled() return value> (28) <= x (27), k (27), factor (calls/tables.go:6), names (calls/tables.go:8);"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q:\n%s", w, got)
		}
	}
}

// versions prints an execution-level slice one node a line, in the order
// of the run: "v@1 (16) <= strconv.Atoi(s)@1 (16); <- <test>@0 (17)".
func versions(g *deps.Graph, s *deps.Slice) string {
	name := func(n *deps.Node) string {
		if n.Const {
			return fmt.Sprintf("%s (%d)", n.Var, n.Line)
		}
		return fmt.Sprintf("%s@%d (%d)", n.Var, n.Version, n.Line)
	}
	var ids []int
	for id := range s.Nodes {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := g.Nodes[ids[i]], g.Nodes[ids[j]]
		if a.Seq != b.Seq {
			return a.Seq < b.Seq
		}
		return a.ID < b.ID
	})
	var b strings.Builder
	for _, id := range ids {
		var data, ctrl []string
		for _, e := range g.In(id) {
			if e.Kind == deps.Control {
				ctrl = append(ctrl, name(g.Nodes[e.From]))
			} else {
				data = append(data, name(g.Nodes[e.From]))
			}
		}
		fmt.Fprintf(&b, "    %s", name(g.Nodes[id]))
		if len(data) > 0 {
			fmt.Fprintf(&b, " <= %s", strings.Join(data, ", "))
		}
		if len(ctrl) > 0 {
			fmt.Fprintf(&b, "; <- %s", strings.Join(ctrl, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestVersionsBounded: an execution-level graph keeps at most
// MaxVersions versions per site, the latest standing for the later ones
// (issue 19: flow -calls -1 on a test that hangs grew with the run), and
// says so in a note; the slice of the return value is still there.
func TestVersionsBounded(t *testing.T) {
	tr, _ := replayTrace.run(t, filepath.Join("testdata", "replay"))
	defer func(n int) { deps.MaxVersions = n }(deps.MaxVersions)
	deps.MaxVersions = 2
	r, err := deps.Build(tr, deps.Options{Test: "TestLoops/Classic", Versions: true})
	if err != nil {
		t.Fatal(err)
	}
	sites := map[string]int{}
	count := 0
	for _, n := range r.Nodes {
		if n.Const || n.Seq == 0 {
			continue
		}
		sites[fmt.Sprintf("%s %s:%d:%d", n.Var, n.File, n.Line, n.Col)]++
		if n.Var == "i" && n.Func == "Classic" {
			count += n.Count
		}
	}
	for s, k := range sites {
		if k > 2 {
			t.Errorf("%s: %d versions, want at most 2", s, k)
		}
	}
	if count < 4 {
		t.Errorf("Classic's i: %d definitions counted, want the run's 4 or more (the later ones added to the latest version)", count)
	}
	if len(r.Returns("Classic")) == 0 || len(r.Backward(r.Returns("Classic")...).Nodes) < 3 {
		t.Errorf("no slice of Classic's return value")
	}
	noted := false
	for _, n := range r.Notes {
		noted = noted || strings.Contains(n, "latest version stands for the later ones")
	}
	if !noted {
		t.Errorf("no note of the versions folded: %q", r.Notes)
	}
}

// TestRecovered: a function whose deferred function recovered a runtime
// panic (an index out of range) and set its named results returns
// normally: its caller's value depends on those results, as the
// deferred function set them from the recovered value (before, on
// nothing: the frame was taken for one a panic unwound).
func TestRecovered(t *testing.T) {
	got := summarySlice(t, "TestRecovered", "Recovered")
	for _, w := range []string{"<Guarded() return value> (8) <= ", "v (11), err (12)", "err (12) <= r (10)", "err (22) <= <Guarded() return value> (8)"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q:\n%s", w, got)
		}
	}
}

// TestRecoveredCallee: the same with a panic of a value of its own,
// raised in a function the recovering one called: the caller's value
// depends on the error the deferred function made of the panic's value.
func TestRecoveredCallee(t *testing.T) {
	got := summarySlice(t, "TestRecoveredParse", "RecoveredParse")
	for _, w := range []string{"<GuardedParse() return value> (39) <= ", "err (42) <= r (41)", "r (41) <= <panic"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q:\n%s", w, got)
		}
	}
}

// TestReturnedPair: return f(), f of several results, has no record of
// the call's return; the caller's return value still depends on f's.
func TestReturnedPair(t *testing.T) {
	got := summarySlice(t, "TestPair", "Pair")
	for _, w := range []string{"<Pair() return value> (6) <= <split() return value> (11)", "y (10) <= x (9)"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q:\n%s", w, got)
		}
	}
}

// TestRaised: a runtime panic that a function deferred by a caller
// recovered is named by the statement that raised it (Graph.Raised); a
// panic of a value of the program's own is not, nor one raised in the
// recovering frame itself (the statement under way there is not known:
// its defer is).
func TestRaised(t *testing.T) {
	tr, _ := replayTrace.run(t, filepath.Join("testdata", "replay"))
	for _, tc := range []struct {
		test string
		want []string
	}{
		{"TestRecoveredAt", []string{"recovered.go:61"}},
		{"TestRecovered", nil},
		{"TestRecoveredParse", nil},
	} {
		r, err := deps.Build(tr, deps.Options{Test: tc.test})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, id := range r.Raised {
			got = append(got, fmt.Sprintf("%s:%d", filepath.Base(r.Nodes[id].File), r.Nodes[id].Line))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: raised at %v, want %v", tc.test, got, tc.want)
		}
	}
}
