package deps

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// BenchmarkBuildStream builds the summary graph of a stored trace, the
// directory $CULPRIT_BENCH_TRACE (a trace culprit slice left in
// .culprit; $CULPRIT_BENCH_TEST names the test, else the failing one),
// as culprit slice does: for profiling the engine on real runs.
func BenchmarkBuildStream(b *testing.B) { benchBuild(b, false) }

// BenchmarkBuildStreamVersions builds the execution-level graph of the
// same trace, as culprit flow does.
func BenchmarkBuildStreamVersions(b *testing.B) { benchBuild(b, true) }

func benchBuild(b *testing.B, versions bool) {
	dir := os.Getenv("CULPRIT_BENCH_TRACE")
	if dir == "" {
		b.Skip("set CULPRIT_BENCH_TRACE to a trace directory")
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := BuildStream(dir, Options{Test: os.Getenv("CULPRIT_BENCH_TEST"), Versions: versions})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(r.Nodes)), "nodes")
	}
}

// TestDumpStream writes the summary graph of the stored trace
// $CULPRIT_BENCH_TRACE (the execution-level graph, as culprit flow builds
// it, when $CULPRIT_BENCH_VERSIONS is set) to the file $CULPRIT_DUMP, in
// a canonical text form (nodes by position, edges by their nodes'
// names): two versions of the engine built the same graph when their
// dumps are equal.
func TestDumpStream(t *testing.T) {
	dir, out := os.Getenv("CULPRIT_BENCH_TRACE"), os.Getenv("CULPRIT_DUMP")
	if dir == "" || out == "" {
		t.Skip("set CULPRIT_BENCH_TRACE and CULPRIT_DUMP")
	}
	r, err := BuildStream(dir, Options{Test: os.Getenv("CULPRIT_BENCH_TEST"), Versions: os.Getenv("CULPRIT_BENCH_VERSIONS") != ""})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(dump(r)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dump is a run's graph as canonical text.
func dump(r *Run) string {
	name := func(id int) string {
		n := r.Nodes[id]
		return fmt.Sprintf("%s:%d:%d %s", filepath.Base(n.File), n.Line, n.Col, n.Var)
	}
	var lines []string
	for _, n := range r.Nodes {
		lines = append(lines, fmt.Sprintf("node %s count=%d values=%q", name(n.ID), n.Count, n.Values))
	}
	for _, e := range r.Edges {
		lines = append(lines, fmt.Sprintf("edge %s -%s-> %s", name(e.From), e.Kind, name(e.To)))
	}
	for _, id := range r.Failure {
		lines = append(lines, "failure "+r.FailureKind+" "+name(id))
	}
	for _, id := range r.Checks {
		lines = append(lines, "check "+name(id))
	}
	for _, s := range r.Sinks {
		lines = append(lines, fmt.Sprintf("sink %s %s %s", name(s.Node), s.Kind, s.Call))
	}
	for _, n := range r.Notes {
		lines = append(lines, "note "+n)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}
