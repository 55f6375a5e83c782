package deps_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
)

// TestReach slices the return value of functions of packages addr and
// avoided of the testdata/replay module (storage written through another
// variable than the one read, a write to the wrong element, a panic that
// did not happen), as a summary graph and an execution-level one, and
// compares both with testdata/reach.golden. Each row says what must and
// must not be in the summary slice (want, not) and why.
func TestReach(t *testing.T) {
	tr, dir := replayTrace.run(t, filepath.Join("testdata", "replay"))
	cases := []struct {
		test, fn, reason string
		want, not        []string
	}{
		{"TestAddr/Filled", "Filled", "fill(buf[:], a) writes buf's element 1 through dst, a slice of it: buf read after as a whole sees dst[1], so a",
			[]string{"<Filled() return value> (18) <= buf (15), dst[1] (22)", "dst[1] (22) <= dst (21), a (21)"}, []string{"b (14)"}},
		{"TestAddr/Encoded", "Encoded", "hex.Encode(buf[:], src) may write buf (code that is not instrumented, given a slice of it): buf read after depends on the call, so on a; hex.Encode writes its first argument, not its second",
			[]string{"<hex.Encode()> (29) <= a (27), buf (28)", "<Encoded() return value> (31) <= buf (28), buf (29)"}, []string{"b (27)"}},
		{"TestAddr/Decoded", "Decoded", "decode(&r, n) writes r through reflect (rv.Set) and fillAll's loop ran no iteration over rv.Index(i).SetInt: r read after as a whole depends on decode's writes, so on the loop's condition",
			[]string{"<fillAll() writes> (52) <= <test> (53)", "<decode() writes> (46) <= v (47), rv (48), <fillAll() writes> (52)", "<Decoded() return value> (43) <= r (41), <decode() writes> (46)"}, nil},
		{"TestAddr/Marked", "Marked", "marks[b] = 9 with b = 1 wrote another element of marks than the one read after: the read of marks[2] depends on that write too (its index might have been 2), so on b",
			[]string{"<Marked() return value> (66) <= marks (63), marks[2] (64), marks[1] (65)", "marks[1] (65) <= b (62), marks (63)"}, nil},
		{"TestAvoided", "Panicked", "check(2) did not panic: the recover's nil depends on the if in check that skipped its panic, and did, read after the closure's if skipped did = true, on that if",
			[]string{"<test> (22) <= n (21)", "r (12) <= <test> (22)", "<Panicked() return value> (18) <= did (9), <test> (12)"}, nil},
	}
	var got bytes.Buffer
	for _, tc := range cases {
		sum, ver := bothGraphs(t, tr, tc.test)
		var s bytes.Buffer
		if err := report.SliceDeps(&s, sum.Backward(sum.Returns(tc.fn)...), report.SliceInfo{Root: dir}); err != nil {
			t.Fatal(err)
		}
		checkSlice(t, tc.test, tc.reason, s.String(), tc.want, tc.not)
		fmt.Fprintf(&got, "-- %s: %s --\n%sprecise:\n%s", tc.test, tc.reason, s.String(), versions(ver.Graph, ver.Backward(ver.Returns(tc.fn)...)))
	}
	checkGolden(t, filepath.Join("testdata", "reach.golden"), got.Bytes())
}

// TestReturnedPairVersions: return f(), f of several results, in the
// execution-level graph (culprit flow's): the caller's return value
// depends on f's, as in the summary graph (TestReturnedPair).
func TestReturnedPairVersions(t *testing.T) {
	tr, _ := replayTrace.run(t, filepath.Join("testdata", "replay"))
	r, err := deps.Build(tr, deps.Options{Test: "TestPair", Versions: true})
	if err != nil {
		t.Fatal(err)
	}
	got := versions(r.Graph, r.Backward(r.Returns("Pair")...))
	for _, w := range []string{"<Pair() return value>@0 (6) <= <split() return value>@0 (11)", "y@0 (10) <= x@0 (9)"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q:\n%s", w, got)
		}
	}
}

// bothGraphs builds the summary graph and the execution-level graph of
// test's run.
func bothGraphs(t *testing.T, tr *trace.Trace, test string) (sum, ver *deps.Run) {
	t.Helper()
	sum, err := deps.Build(tr, deps.Options{Test: test})
	if err != nil {
		t.Fatalf("%s: %v", test, err)
	}
	ver, err = deps.Build(tr, deps.Options{Test: test, Versions: true})
	if err != nil {
		t.Fatalf("%s: %v", test, err)
	}
	return sum, ver
}
