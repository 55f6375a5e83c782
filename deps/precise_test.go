package deps_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/report"
)

// TestPrecise: First's result comes from the loop's first iteration,
// where y read x := 0; the summary graph cannot tell iterations apart and
// takes in x = a (and a) from the second, the execution-level graph,
// streamed from the trace directory, does not.
func TestPrecise(t *testing.T) {
	tr, dir := memRun(t)
	sum, err := deps.Build(tr, deps.Options{Test: "TestFirst"})
	if err != nil {
		t.Fatal(err)
	}
	pre, err := deps.BuildStream(memTrace.td, deps.Options{Test: "TestFirst", Versions: true})
	if err != nil {
		t.Fatal(err)
	}
	lines := func(r *deps.Run) string {
		var b bytes.Buffer
		if err := report.SliceCode(&b, r.Backward(r.Returns("First")...), report.SliceInfo{Root: dir}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	s, p := lines(sum), lines(pre)
	if !strings.Contains(s, "*   95         x = a") || !strings.Contains(s, "<= x (88), x (95)") {
		t.Errorf("summary slice lacks x = a (95):\n%s", s)
	}
	if strings.Contains(p, "*   95 ") || !strings.Contains(p, "*   88     x := 0") || !strings.Contains(p, "y := x + 1  // <= x (88), 1 (91)") {
		t.Errorf("precise slice: want x := 0 (88) and y := x + 1 (91), not x = a (95):\n%s", p)
	}
}

// TestPreciseMemory: execution-level graphs read elements, fields and
// dereferences by address too.
func TestPreciseMemory(t *testing.T) {
	_, dir := memRun(t)
	for _, tc := range []struct{ test, fn, want string }{
		{"TestAlias", "Alias", "v (29) <= ys[1] (28)"},
		{"TestField", "Field", "v (41) <= q.name (39)"},
		{"TestPointer", "Pointer", "<Pointer() return value> (50) <= *p (49)"},
		{"TestShift", "Shift", "v (21) <= xs[3] (20)"},
	} {
		r, err := deps.BuildStream(memTrace.td, deps.Options{Test: tc.test, Versions: true})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := report.SliceDeps(&b, r.Backward(r.Returns(tc.fn)...), report.SliceInfo{Root: dir}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: no %q:\n%s", tc.test, tc.want, b.String())
		}
	}
}
