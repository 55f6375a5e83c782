package deps_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

// TestBuildAll builds graphs of the testdata/replay module's runs with
// one replay (BuildAll) and checks each against Build's alone: the same
// nodes, edges, criteria and notes.
func TestBuildAll(t *testing.T) {
	tr, _ := replayTrace.run(t, filepath.Join("testdata", "replay"))
	cases := []struct {
		reason string
		opts   []deps.Options
	}{
		{"the web view's: both views of one run", []deps.Options{{Test: "TestCalls"}, {Test: "TestCalls", Versions: true}}},
		{"tests of one process, and one of another", []deps.Options{{Test: "TestRecovered"}, {Test: "TestPair", Versions: true}, {Test: "TestAddr/Marked"}}},
		{"one test asked twice", []deps.Options{{Test: "TestLoops"}, {Test: "TestLoops"}}},
		{"segments in one of them", []deps.Options{{Test: "TestAvoided", Segments: true}, {Test: "TestAvoided", Versions: true}}},
		{"a test not in the trace fails alone", []deps.Options{{Test: "TestNone"}, {Test: "TestElems", Versions: true}}},
	}
	for _, tc := range cases {
		runs, errs := deps.BuildAll(tr, tc.opts...)
		if len(runs) != len(tc.opts) || len(errs) != len(tc.opts) {
			t.Fatalf("%s: %d runs and %d errors for %d options", tc.reason, len(runs), len(errs), len(tc.opts))
		}
		for i, opt := range tc.opts {
			want, wantErr := deps.Build(tr, opt)
			if (errs[i] == nil) != (wantErr == nil) || (runs[i] == nil) != (want == nil) {
				t.Errorf("%s: %+v: BuildAll's run %v, error %v; Build's %v, %v", tc.reason, opt, runs[i] != nil, errs[i], want != nil, wantErr)
				continue
			}
			if wantErr != nil {
				if errs[i].Error() != wantErr.Error() || !errors.Is(errs[i], deps.ErrNoTest) {
					t.Errorf("%s: %+v: error %v, Build's %v", tc.reason, opt, errs[i], wantErr)
				}
				continue
			}
			got := runs[i]
			if got.Test != want.Test || got.Package != want.Package || got.Outcome != want.Outcome || got.Root != want.Root {
				t.Errorf("%s: %+v: run of %s %s %v, Build's of %s %s %v", tc.reason, opt, got.Package, got.Test, got.Outcome, want.Package, want.Test, want.Outcome)
			}
			if !reflect.DeepEqual(got.Graph, want.Graph) {
				t.Errorf("%s: %+v: the graphs differ (%d nodes, %d edges; Build's %d, %d)", tc.reason, opt, len(got.Nodes), len(got.Edges), len(want.Nodes), len(want.Edges))
			}
		}
		for i := 1; i < len(runs); i++ {
			if runs[i] != nil && runs[0] != nil && runs[i].Files() != runs[0].Files() {
				t.Errorf("%s: runs %d and 0 read the sources apart", tc.reason, i)
			}
		}
	}
}
