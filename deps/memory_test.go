package deps_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
)

// moduleTrace is the trace of a testdata module's tests, recorded once.
type moduleTrace struct {
	once sync.Once
	tr   *trace.Trace
	dir  string
	td   string
	err  error
	out  string
}

var memTrace moduleTrace

// memRun runs the testdata/mem module's tests instrumented, once.
func memRun(t *testing.T) (*trace.Trace, string) {
	t.Helper()
	return memTrace.run(t, filepath.Join("testdata", "mem"))
}

// run runs the tests of the module in dir (relative to the package)
// instrumented, once; m.td is their trace.
func (m *moduleTrace) run(t *testing.T, dir string) (*trace.Trace, string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("builds and runs the %s module's tests", dir)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	m.once.Do(func() {
		m.dir, m.err = filepath.Abs(dir)
		if m.err != nil {
			return
		}
		traceDir, err := os.MkdirTemp("", "culprit-"+filepath.Base(dir)+"-")
		if err != nil {
			m.err = err
			return
		}
		m.td = traceDir
		var out bytes.Buffer
		_, m.err = instrument.Run(context.Background(), instrument.Config{
			Dir: m.dir, Packages: []string{"./..."},
			Events: trace.AllEvents, TraceDir: traceDir, CallLimit: -1, Inlinable: true,
			Stdout: &out, Stderr: &out,
		})
		m.out = out.String()
		if m.err == nil {
			m.tr, m.err = trace.Open(traceDir)
		}
	})
	if m.err != nil {
		t.Fatalf("%v\n%s", m.err, m.out)
	}
	return m.tr, m.dir
}

// TestMemory checks that variables are told apart by their declarations
// and that elements, map entries and fields are nodes of their own,
// followed through aliases by address.
func TestMemory(t *testing.T) {
	tr, dir := memRun(t)
	cases := []struct {
		test, fn, reason string
		want, not        []string
	}{
		{"TestShadow", "Shadow", "the inner x shadows the outer: the return sees x (5) only",
			[]string{"<Shadow() return value> (10) <= x (5)"}, []string{"x (7)"}},
		{"TestElems", "Elems", "xs[i] with i = 3 is the node xs[3]; xs[2] is not read",
			[]string{"xs[3] (18) <= b (14), xs (15)", "v (19) <= i (17), xs[3] (18)"}, []string{"xs[2] (16)"}},
		{"TestAlias", "Alias", "ys aliases xs: the write through ys is the element read",
			[]string{"v (29) <= ys[1] (28)"}, []string{"xs[1] (27)"}},
		{"TestField", "Field", "q aliases p: q.name is what p.name reads; p.city is not",
			[]string{"v (41) <= q.name (39)"}, []string{"p.city (40)"}},
		{"TestPointer", "Pointer", "*p writes x: the return reads the write through p",
			[]string{"<Pointer() return value> (50) <= *p (49)"}, []string{"x (47) <= a"}},
		{"TestMap", "Map", `m["k"] and m["j"] are nodes of their own`,
			[]string{`v (58) <= m["k"] (56)`}, []string{`m["j"] (57)`}},
		{"TestSwitch", "Switch", "the case entered (a decision record) depends on the switch tag",
			[]string{"<test> (68) <= <switch> (65)", "y (69) <= b (63); <- <test> (68)"}, []string{"a (63)", "<test> (68) <= b"}},
	}
	for _, tc := range cases {
		r, err := deps.Build(tr, deps.Options{Test: tc.test})
		if err != nil {
			t.Fatalf("%s: %v", tc.test, err)
		}
		var got bytes.Buffer
		if err := report.SliceDeps(&got, r.Backward(r.Returns(tc.fn)...), report.SliceInfo{Root: dir}); err != nil {
			t.Fatal(err)
		}
		checkSlice(t, tc.test, tc.reason, got.String(), tc.want, tc.not)
	}
}

// TestMain removes the traces the tests recorded.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, mt := range []*moduleTrace{&memTrace, &replayTrace, &examplesTrace, &casesTrace} {
		if mt.td != "" {
			os.RemoveAll(mt.td)
		}
	}
	os.Exit(code)
}

// TestRuntimePanic: a runtime panic has no panic record; the recovered
// value comes from the statement that raised it, so the failing check's
// slice holds the division.
func TestRuntimePanic(t *testing.T) {
	tr, dir := memRun(t)
	r, err := deps.Build(tr, deps.Options{Test: "TestDiv"})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := report.SliceDeps(&got, r.Backward(r.Failure...), report.SliceInfo{Root: dir}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"q (5) <= a (4), b (4)", "r (7) <= q (div.go:5)", "<t.Errorf()> (8) <= t (5), r (7); <- <test> (7)"} {
		if !strings.Contains(got.String(), w) {
			t.Errorf("no %q:\n%s", w, got.String())
		}
	}
}

// TestRuntimePanicCriterion: a test that dies of a runtime panic (an
// index out of range, no panic record, no recover) fails at the
// statement that raised it, seen unwinding, not at its last step (the
// call whose result never came): the slice holds the i++ that overran.
func TestRuntimePanicCriterion(t *testing.T) {
	tr, dir := memRun(t)
	r, err := deps.Build(tr, deps.Options{Test: "TestAttr"})
	if err != nil {
		t.Fatal(err)
	}
	if r.FailureKind != deps.FailurePanic {
		t.Fatalf("failure %q at %v, want %q", r.FailureKind, r.Failure, deps.FailurePanic)
	}
	var got bytes.Buffer
	if err := report.SliceDeps(&got, r.Backward(r.Failure...), report.SliceInfo{Root: dir}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"c (11) <= s (6), i (9)", "i (9) <= i (7); <- <test> (8)"} {
		if !strings.Contains(got.String(), w) {
			t.Errorf("no %q:\n%s", w, got.String())
		}
	}
}

// TestFailingLeaf: a parent test named that failed through a subtest is
// sliced at its first failing leaf, whose check is the failure point (the
// parent's own run holds none).
func TestFailingLeaf(t *testing.T) {
	tr, _ := memRun(t)
	r, err := deps.Build(tr, deps.Options{Test: "TestParent"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Test != "TestParent/bad" || r.FailureKind != deps.FailureCheck {
		t.Errorf("test %s, failure %q: want TestParent/bad's check", r.Test, r.FailureKind)
	}
	r, err = deps.Build(tr, deps.Options{Test: "TestParent/ok"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Test != "TestParent/ok" {
		t.Errorf("test %s: want TestParent/ok, as named", r.Test)
	}
}

// TestShortCircuit: operand decisions say b > 0 did not run.
func TestShortCircuit(t *testing.T) {
	tr, dir := memRun(t)
	r, err := deps.Build(tr, deps.Options{Test: "TestEither"})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := report.SliceDeps(&got, r.Backward(r.Returns("Either")...), report.SliceInfo{Root: dir}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.String(), "ok (11) <= a (10);") || strings.Contains(got.String(), "b (10)") {
		t.Errorf("ok should depend on a alone:\n%s", got.String())
	}
}

// TestRecoveredPanic checks that a panic recovered inside the code under
// test (a parser's way to report errors) is not the test's failure point,
// nor is the fmt.Errorf call that made its value (a check is t.Errorf).
func TestRecoveredPanic(t *testing.T) {
	memRun(t)
	for _, tc := range []struct{ test, kind string }{
		{"TestRecovered", ""},          // recovered by Parse, the test passes
		{"TestDiv", deps.FailureCheck}, // recovered by the test, which reports it
	} {
		r, err := deps.BuildStream(memTrace.td, deps.Options{Test: tc.test})
		if err != nil {
			t.Fatal(err)
		}
		if r.FailureKind != tc.kind {
			t.Errorf("%s: failure %q at %v, want %q", tc.test, r.FailureKind, r.Failure, tc.kind)
		}
	}
}
