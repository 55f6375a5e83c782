package deps_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

// TestCheckedCoverage: Sum's calls++ runs in TestSum but no check reads
// it; the helper equal's condition is the check that covers the rest.
func TestCheckedCoverage(t *testing.T) {
	tr, dir := memRun(t)
	covs, err := deps.CheckedCoverage(tr, dir)
	if err != nil {
		t.Fatal(err)
	}
	var sum *deps.Coverage
	for _, c := range covs {
		if c.Test == "TestSum" {
			sum = c
		}
	}
	if sum == nil {
		t.Fatalf("no TestSum among %d tests", len(covs))
	}
	str := func(ls []deps.Line) string {
		var out []string
		for _, l := range ls {
			out = append(out, fmt.Sprintf("%s:%d", filepath.Base(l.File), l.Line))
		}
		return strings.Join(out, " ")
	}
	const want = "mem.go:78 mem.go:79 mem.go:80 mem.go:81 mem.go:83 mem_test.go:48 mem_test.go:49 mem_test.go:50 mem_test.go:55 mem_test.go:56"
	if got := str(sum.Executed); got != want {
		t.Errorf("executed: %s, want %s", got, want)
	}
	if got := str(sum.Unchecked()); got != "mem.go:78 mem_test.go:55" {
		t.Errorf("unchecked: %s, want mem.go:78 (calls++) and mem_test.go:55 (t.Helper())", got)
	}
}

// TestCheckedPassing: a passing test with its check inline is checked
// through the condition guarding t.Error, which never ran.
func TestCheckedPassing(t *testing.T) {
	tr, dir := memRun(t)
	covs, err := deps.CheckedCoverage(tr, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range covs {
		if c.Test == "TestElems" {
			if len(c.Checked) == 0 || len(c.Unchecked()) != 1 {
				t.Errorf("TestElems: checked %v, unchecked %v: want all but xs[2] = a", c.Checked, c.Unchecked())
			}
			return
		}
	}
	t.Fatal("no TestElems")
}
