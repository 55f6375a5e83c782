package deps_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

// TestBuildAll builds graphs of the testdata/replay module's runs with
// one replay, from the trace in memory (BuildAll) and streamed from its
// directory (BuildAllStream), and checks each against Build's and
// BuildStream's alone: the same nodes, edges, criteria and notes.
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
		sameRuns(t, "BuildAll: "+tc.reason, tc.opts, runs, errs, func(opt deps.Options) (*deps.Run, error) { return deps.Build(tr, opt) })
		runs, errs = deps.BuildAllStream(replayTrace.td, tc.opts...)
		sameRuns(t, "BuildAllStream: "+tc.reason, tc.opts, runs, errs, func(opt deps.Options) (*deps.Run, error) { return deps.BuildStream(replayTrace.td, opt) })
	}
	runs, errs := deps.BuildAllStream(filepath.Join(t.TempDir(), "none"), deps.Options{}, deps.Options{Versions: true})
	if runs[0] != nil || runs[1] != nil || errs[0] == nil || errs[1] == nil {
		t.Errorf("BuildAllStream of no trace: runs %v, errors %v", runs, errs)
	}
}

// sameRuns checks the runs and errors of a BuildAll against those build
// makes of each of opts alone.
func sameRuns(t *testing.T, reason string, opts []deps.Options, runs []*deps.Run, errs []error, build func(deps.Options) (*deps.Run, error)) {
	t.Helper()
	if len(runs) != len(opts) || len(errs) != len(opts) {
		t.Fatalf("%s: %d runs and %d errors for %d options", reason, len(runs), len(errs), len(opts))
	}
	for i, opt := range opts {
		want, wantErr := build(opt)
		if (errs[i] == nil) != (wantErr == nil) || (runs[i] == nil) != (want == nil) {
			t.Errorf("%s: %+v: run %v, error %v; alone %v, %v", reason, opt, runs[i] != nil, errs[i], want != nil, wantErr)
			continue
		}
		if wantErr != nil {
			if errs[i].Error() != wantErr.Error() || !errors.Is(errs[i], deps.ErrNoTest) {
				t.Errorf("%s: %+v: error %v, alone %v", reason, opt, errs[i], wantErr)
			}
			continue
		}
		got := runs[i]
		if got.Test != want.Test || got.Package != want.Package || got.Outcome != want.Outcome || got.Root != want.Root {
			t.Errorf("%s: %+v: run of %s %s %v, alone of %s %s %v", reason, opt, got.Package, got.Test, got.Outcome, want.Package, want.Test, want.Outcome)
		}
		if len(got.Nodes) == 0 || !reflect.DeepEqual(got.Graph, want.Graph) {
			t.Errorf("%s: %+v: the graphs differ (%d nodes, %d edges; alone %d, %d)", reason, opt, len(got.Nodes), len(got.Edges), len(want.Nodes), len(want.Edges))
		}
	}
	for i := 1; i < len(runs); i++ {
		if runs[i] != nil && runs[0] != nil && runs[i].Files() != runs[0].Files() {
			t.Errorf("%s: runs %d and 0 read the sources apart", reason, i)
		}
	}
}
