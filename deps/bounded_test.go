package deps_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/trace"
)

// fillSrc is a loop that writes n elements of a slice, each write a
// definition of out that adds to what out holds, then returns it.
const fillSrc = `package p

func F(n int) []int {
	out := make([]int, n)
	for i := 0; i < n; i++ {
		out[i] = i
	}
	return out
}
`

// noted reports whether one of notes says what.
func noted(notes []string, what string) bool {
	for _, n := range notes {
		if strings.Contains(n, what) {
			return true
		}
	}
	return false
}

// siteFunc makes a site of a synthetic trace's file.
type siteFunc func(k trace.Kind, line, col, endLine, endCol int, info string) trace.Site

// sourceFile writes src as p.go in dir and returns a maker of sites in it.
func sourceFile(t *testing.T, dir, src string) siteFunc {
	t.Helper()
	path := filepath.Join(dir, "p.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return func(k trace.Kind, line, col, endLine, endCol int, info string) trace.Site {
		return trace.Site{Kind: k, File: path, Line: line, Col: col, EndLine: endLine, EndCol: endCol, Info: info}
	}
}

// fillTrace returns a trace of F(n) (its loop's own steps left out: the
// writes are what matter).
func fillTrace(t *testing.T, dir string, n int) *trace.Trace {
	t.Helper()
	site := sourceFile(t, dir, fillSrc)
	sites := []trace.Site{
		site(trace.KindFunc, 3, 21, 9, 2, "p.F(n) (r)"),
		site(trace.KindStmt, 4, 2, 4, 23, ""),       // 1: out := make([]int, n)
		site(trace.KindWrite, 4, 2, 4, 5, "out"),    // 2
		site(trace.KindStmt, 6, 3, 6, 13, ""),       // 3: out[i] = i
		site(trace.KindRead, 6, 7, 6, 8, "i"),       // 4
		site(trace.KindWrite, 6, 3, 6, 9, "out[i]"), // 5
		site(trace.KindStmt, 8, 2, 8, 12, ""),       // 6: return out
		site(trace.KindRead, 8, 9, 8, 12, "out"),    // 7
	}
	ev := func(tag byte, s int, vals ...trace.Value) trace.Event {
		return trace.Event{Tag: tag, Test: 1, Goroutine: 1, Site: s, From: -1, Values: vals}
	}
	const base = 0x1000
	events := []trace.Event{
		ev(trace.TagEnter, 0, trace.Value{Tag: trace.ValInt, Int: int64(n)}),
		ev(trace.TagStep, 1), ev(trace.TagWrite, 2),
	}
	for i := 0; i < n; i++ {
		w := ev(trace.TagWrite, 5, trace.Value{Tag: trace.ValInt, Int: int64(i)})
		w.Loc = trace.Loc{Kind: trace.LocElem, Addr: base + 8*uint64(i), Base: base, Index: int64(i)}
		events = append(events, ev(trace.TagStep, 3), ev(trace.TagRead, 4, trace.Value{Tag: trace.ValInt, Int: int64(i)}), w)
	}
	events = append(events, ev(trace.TagStep, 6), ev(trace.TagRead, 7), ev(trace.TagExit, 0))
	return &trace.Trace{
		Sites:     trace.Sites{Root: dir, Events: trace.AllEvents, Sites: sites},
		Processes: []*trace.Process{{Package: "p", Tests: []*trace.Test{{ID: 1, Name: "TestF", Outcome: trace.OutcomePass}}, Events: events}},
	}
}

// TestBoundedEdges: in an execution-level graph every write of an element
// is a definition of its own, and each adds to what the slice holds: had
// every later read of the slice depended on each of them, the edges would
// grow as the square of the writes (a test filling 10,000 elements made
// 50 million edges). They grow with the writes, the value returned still
// depends on every element written, and a note says what was joined.
func TestBoundedEdges(t *testing.T) {
	build := func(n int) *deps.Run {
		r, err := deps.Build(fillTrace(t, t.TempDir(), n), deps.Options{Test: "TestF", Versions: true})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	small, large := build(200), build(1600)
	if len(large.Edges) > 10*len(small.Edges) {
		t.Errorf("edges: %d for 200 writes, %d for 1600: not linear in the writes", len(small.Edges), len(large.Edges))
	}
	for _, r := range []*deps.Run{small, large} {
		ret := r.Returns("F")
		if len(ret) != 1 {
			t.Fatalf("return values of F: %v", ret)
		}
		back := r.Backward(ret...).Nodes
		written, reached := 0, 0
		for _, id := range r.Find("p.go", 6, 0, "") {
			if strings.HasPrefix(r.Nodes[id].Var, "out[") {
				written++
				if back[id] {
					reached++
				}
			}
		}
		if written == 0 || reached != written {
			t.Errorf("F's return value depends on %d of the %d elements written", reached, written)
		}
		if !noted(r.Notes, "definitions at once") {
			t.Errorf("no note of the joined definitions: %q", r.Notes)
		}
	}
}

// TestBoundedNodes: past its budget of nodes (Options.MaxNodes), an
// execution-level graph merges later definitions into the latest
// version made at their position: the nodes stay under twice the budget
// however long the run, the value returned still depends on the
// elements written (merged), and a note says how many were merged.
func TestBoundedNodes(t *testing.T) {
	const budget = 100
	for _, n := range []int{1000, 8000} {
		r, err := deps.Build(fillTrace(t, t.TempDir(), n), deps.Options{Test: "TestF", Versions: true, MaxNodes: budget})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Nodes) > 2*budget {
			t.Errorf("%d writes: %d nodes, want at most %d", n, len(r.Nodes), 2*budget)
		}
		ret := r.Returns("F")
		if len(ret) != 1 {
			t.Fatalf("%d writes: return values of F: %v", n, ret)
		}
		count := 0
		for id := range r.Backward(ret...).Nodes {
			if strings.HasPrefix(r.Nodes[id].Var, "out[") {
				count += r.Nodes[id].Count
			}
		}
		if count != n {
			t.Errorf("%d writes: F's return value depends on %d of them", n, count)
		}
		if !noted(r.Notes, "later definitions were merged") {
			t.Errorf("%d writes: no note of the definitions merged: %q", n, r.Notes)
		}
	}
}
