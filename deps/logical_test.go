package deps_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/report"
)

// TestLogical compares with testdata/logical.golden the slices of
// functions whose && and || let their right operand run: what the right
// operand evaluates (its reads, the calls it makes and their parameters)
// and what the statement computes from it are control dependent on the
// left operand's outcome, the "<&&>" or "<||>" node at the operator.
func TestLogical(t *testing.T) {
	tr, dir := memRun(t)
	cases := []struct {
		test, fn, reason string
	}{
		{"TestGuarded", "Guarded", "ok and the parameters of above, called in the right operand, are control dependent on p != nil"},
		{"TestNested", "Nested", "c > 0 runs because b > 0 held, which runs because a > 0 did not: <&&> <- <||>; the condition depends on both"},
		{"TestEither", "Either", "a > 0 held: b > 0 did not run, so there is no <||> node and b is not read"},
		{"TestCopy", "Copy", "the builtin copy defines dst from src: the element read after it depends on a"},
		{"TestSpawn", "Spawn", "go send(ch, a): a flows to send's v, sent on ch, received into v"},
	}
	var got bytes.Buffer
	for _, tc := range cases {
		r, err := deps.Build(tr, deps.Options{Test: tc.test})
		if err != nil {
			t.Fatalf("%s: %v", tc.test, err)
		}
		fmt.Fprintf(&got, "-- %s (%s) --\n", tc.test, tc.reason)
		if err := report.SliceDeps(&got, r.Backward(r.Returns(tc.fn)...), report.SliceInfo{Root: dir}); err != nil {
			t.Fatal(err)
		}
	}
	checkGolden(t, filepath.Join("testdata", "logical.golden"), got.Bytes())
}

// checkGolden compares got with the golden file (rewritten first with
// -update).
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("slices differ from %s (-update to rewrite):\n%s", golden, got)
	}
}
