package deps_test

import (
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/trace"
)

// TestSampledEntry: a sampled run (culprit slice records the first
// events of each site, then fewer) may record a call to an instrumented
// function without its entry. The call site's callee was entered before,
// so the call is no call into code that is not instrumented: &x is no
// possible write there (set's own write through the pointer is recorded
// when its events are).
func TestSampledEntry(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc set(p *int, v int) { *p = v }\n\nfunc F() int {\n\tx := 0\n\tfor i := 0; i < 2; i++ {\n\t\tset(&x, i)\n\t}\n\treturn x\n}\n"
	site := sourceFile(t, dir, src)
	sites := []trace.Site{
		site(trace.KindFunc, 3, 25, 3, 36, "p.set(p, v)"),
		site(trace.KindFunc, 5, 14, 11, 2, "p.F() (r)"),
		site(trace.KindStmt, 8, 3, 8, 13, ""),
		site(trace.KindCall, 8, 3, 8, 13, "set"),
		site(trace.KindStmt, 10, 2, 10, 10, ""),
		site(trace.KindRead, 10, 9, 10, 10, "x"),
		site(trace.KindStmt, 3, 27, 3, 33, ""),
		site(trace.KindWrite, 3, 27, 3, 29, "*p"),
	}
	ev := func(tag byte, s, from int) trace.Event {
		return trace.Event{Tag: tag, Test: 1, Goroutine: 1, Site: s, From: from}
	}
	events := []trace.Event{
		ev(trace.TagEnter, 1, -1),
		// The first call: its entry recorded.
		ev(trace.TagStep, 2, 0), ev(trace.TagCall, 3, 0), ev(trace.TagEnter, 0, 3),
		ev(trace.TagStep, 6, 0), ev(trace.TagWrite, 7, 0), ev(trace.TagExit, 0, 0), ev(trace.TagReturn, 3, 0),
		// The second: its entry and what set did sampled away.
		ev(trace.TagStep, 2, 0), ev(trace.TagCall, 3, 0), ev(trace.TagReturn, 3, 0),
		ev(trace.TagStep, 4, 0), ev(trace.TagRead, 5, 0), ev(trace.TagExit, 1, 0),
	}
	tr := &trace.Trace{
		Sites:     trace.Sites{Root: dir, Events: trace.AllEvents, Sites: sites},
		Processes: []*trace.Process{{Package: "p", Tests: []*trace.Test{{ID: 1, Name: "TestF", Outcome: trace.OutcomePass}}, Events: events}},
	}
	for _, versions := range []bool{false, true} {
		r, err := deps.Build(tr, deps.Options{Test: "TestF", Versions: versions})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range r.Nodes {
			if n.Var == "x" && n.Line == 8 {
				t.Errorf("versions %v: x (8): a call to the instrumented set taken for a call into code that is not instrumented", versions)
			}
		}
		if len(r.Nodes) == 0 || len(r.Returns("F")) == 0 {
			t.Errorf("versions %v: no return value of F: %v", versions, r.Nodes)
		}
	}
}
