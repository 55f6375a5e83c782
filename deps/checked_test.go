package deps_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

// TestCheckedCoverage: Sum's calls++ runs in TestSum but no check reads
// it; the helper equal's condition is the check that covers the rest.
func TestCheckedCoverage(t *testing.T) {
	memRun(t)
	covs, err := deps.CheckedCoverage(memTrace.td, 0)
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
	memRun(t)
	covs, err := deps.CheckedCoverage(memTrace.td, 0)
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

// TestCheckedStreamed: checked coverage streamed from the trace, a
// batch of tests per read of an events file, equals the in-memory
// replay of each test alone, on the examples module and testdata/mem,
// whatever the batch (one test per read, a few, all of a process); so
// do the graphs it is taken from, node for node.
func TestCheckedStreamed(t *testing.T) {
	for _, m := range []struct {
		mt  *moduleTrace
		dir string
	}{
		{&examplesTrace, filepath.Join("..", "examples")},
		{&memTrace, filepath.Join("testdata", "mem")},
	} {
		tr, _ := m.mt.run(t, m.dir)
		want, wantRuns, err := deps.CheckedInMemory(tr)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) < 10 {
			t.Fatalf("%s: %d leaf tests: too few to batch", m.dir, len(want))
		}
		for _, batch := range []int{1, 3, 0, 1000} {
			got, err := deps.CheckedCoverage(m.mt.td, batch)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, batches of %d: streamed coverage differs from the in-memory one", m.dir, batch)
			}
			runs, err := deps.LeafRuns(m.mt.td, batch)
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != len(wantRuns) {
				t.Fatalf("%s, batches of %d: %d graphs, want %d", m.dir, batch, len(runs), len(wantRuns))
			}
			for i, r := range runs {
				w := wantRuns[i]
				if !reflect.DeepEqual(r.Graph, w.Graph) || r.Package != w.Package || r.Test != w.Test || r.Outcome != w.Outcome || r.Root != w.Root {
					t.Errorf("%s, batches of %d: %s: the streamed graph (%d nodes, %d edges) differs from the in-memory one (%d nodes, %d edges)",
						m.dir, batch, r.Test, len(r.Nodes), len(r.Edges), len(wantRuns[i].Nodes), len(wantRuns[i].Edges))
				}
			}
		}
	}
}
