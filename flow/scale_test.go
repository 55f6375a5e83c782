package flow_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/flow"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/report"
	"github.com/culprit-go/culprit/trace"
)

// wordsumLines is how many lines of input the scale test gives
// testdata/wordsum: some six hundred nodes unfolded.
const wordsumLines = 16

// wordsumInput returns n lines of words, line i having 1 + i%7 words of
// 1 to 6 letters: the inner loop runs a different number of times on
// each line.
func wordsumInput(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		for k := 0; k <= i%7; k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.Repeat(string(rune('a'+(i+k)%26)), 1+(i*3+k)%6))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// recordWordsum runs testdata/wordsum instrumented on lines of input and
// returns the execution-level graph of its run.
func recordWordsum(tb testing.TB, lines int) *deps.Run {
	tb.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "wordsum"))
	if err != nil {
		tb.Fatal(err)
	}
	tr, _ := recordProgram(tb, dir, ".", nil, strings.NewReader(wordsumInput(lines)))
	r, err := deps.Build(tr, deps.Options{Test: instrument.ProgramRun, Versions: true})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// recordProgram runs the main package pkg of the module in dir
// instrumented with every event kind, with args and stdin, and returns
// its trace and what it printed. It skips in -short mode and without the
// go command.
func recordProgram(tb testing.TB, dir, pkg string, args []string, stdin io.Reader) (*trace.Trace, string) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("builds and runs a program instrumented")
	}
	if _, err := exec.LookPath("go"); err != nil {
		tb.Skip("no go command")
	}
	traceDir := tb.TempDir()
	var out bytes.Buffer
	res, err := instrument.RunProgram(context.Background(), instrument.Program{
		Config: instrument.Config{Dir: dir, Packages: []string{pkg}, Events: trace.AllEvents, TraceDir: traceDir,
			CallLimit: -1, Inlinable: true, Stdout: &out, Stderr: &out},
		Args: args, Stdin: stdin,
	})
	if err != nil || res.ExitCode != 0 {
		tb.Fatalf("%s: %v %+v\n%s", dir, err, res, out.String())
	}
	tr, err := trace.Open(traceDir)
	if err != nil {
		tb.Fatal(err)
	}
	return tr, out.String()
}

// TestScale draws wordsum's graph: several hundred nodes unfolded, folded by
// loop site, cut by -depth and -focus, rendered as DOT and, when Graphviz
// is installed, as SVG, each in seconds. Its nested loop's inner loop runs
// a different number of times per line, and each line's printed sum
// depends on its own line of input and on no other (the seed could not);
// the count of odd sums is computed in an else branch, under its
// decision.
func TestScale(t *testing.T) {
	r := recordWordsum(t, wordsumLines)
	unfolded, err := flow.FromRun(r, flow.Options{Unfold: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(unfolded.Nodes) < 300 || len(unfolded.Outputs) != wordsumLines+1 {
		t.Fatalf("%d nodes, %d outputs; want several hundred and %d", len(unfolded.Nodes), len(unfolded.Outputs), wordsumLines+1)
	}
	// Each line's sum from its own line.
	for i, o := range unfolded.Outputs[:wordsumLines] {
		var lines []string
		for _, d := range o.DependsOn {
			if strings.HasPrefix(d, "stdin line ") {
				lines = append(lines, d)
			}
		}
		if want := fmt.Sprintf("stdin line %d", i+1); len(lines) != 1 || lines[0] != want {
			t.Errorf("output %d (%s) depends on %v, want only %s", i, o.Value, lines, want)
		}
	}
	if last := unfolded.Outputs[wordsumLines]; len(last.DependsOn) < wordsumLines {
		t.Errorf("the totals depend on %d inputs, want every line: %v", len(last.DependsOn), last.DependsOn)
	}
	// odd++ in the else branch: under the decision of sum%2 == 0.
	byID := map[int]*flow.Node{}
	for _, n := range unfolded.Nodes {
		byID[n.ID] = n
	}
	odd := 0
	for _, e := range unfolded.Edges {
		if to, from := byID[e.To], byID[e.From]; to.Var == "odd" && to.Version > 0 && e.Kind == deps.Control && from.Kind == flow.KindDecision {
			odd++
		}
	}
	if odd == 0 {
		t.Errorf("no version of odd depends on a decision")
	}

	folded, err := flow.FromRun(r, flow.Options{})
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, n := range folded.Nodes {
		if n.Count > 1 {
			multi++
		}
	}
	if len(folded.Nodes) >= len(unfolded.Nodes)/2 || multi == 0 {
		t.Errorf("folded: %d nodes (%d folded) of %d", len(folded.Nodes), multi, len(unfolded.Nodes))
	}
	shallow, err := flow.FromRun(r, flow.Options{Unfold: true, Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	focused, err := flow.FromRun(r, flow.Options{Unfold: true, Focus: "stdin line 3"})
	if err != nil {
		t.Fatal(err)
	}
	outs := 0
	for _, n := range focused.Nodes {
		if n.Output {
			outs++
		}
	}
	if len(shallow.Nodes) >= len(unfolded.Nodes) || outs != 2 {
		t.Errorf("-depth 2: %d nodes; -focus 'stdin line 3': %d outputs, want the line's and the totals", len(shallow.Nodes), outs)
	}
	for _, tc := range []struct {
		name string
		g    *flow.Graph
	}{{"unfolded", unfolded}, {"folded", folded}} {
		start := time.Now()
		var dot bytes.Buffer
		if err := report.FlowDOT(&dot, tc.g, report.SliceInfo{Root: r.Root}); err != nil {
			t.Fatal(err)
		}
		text := time.Since(start)
		svg, err := renderSVG(dot.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d nodes, %d edges: DOT in %v, dot -Tsvg in %v", tc.name, len(tc.g.Nodes), len(tc.g.Edges), text, svg)
		if svg > 30*time.Second {
			t.Errorf("%s: dot -Tsvg took %v", tc.name, svg)
		}
	}
}

// renderSVG runs Graphviz's dot -Tsvg on a graph and returns how long it
// took, 0 when dot is not installed.
func renderSVG(dot []byte) (time.Duration, error) {
	path, err := exec.LookPath("dot")
	if err != nil {
		return 0, nil
	}
	start := time.Now()
	cmd := exec.Command(path, "-Tsvg", "-o", "/dev/null")
	cmd.Stdin = bytes.NewReader(dot)
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("dot -Tsvg: %v: %s", err, out)
	}
	return time.Since(start), nil
}

// BenchmarkScale measures, on wordsum's runs over 16 and 60 lines (some
// 600 and 2300 nodes unfolded), drawing the flow graph from the engine's
// graph (folded, unfolded, cut by depth and focus, reduced), writing it
// as DOT and rendering it with dot -Tsvg.
func BenchmarkScale(b *testing.B) {
	for _, lines := range []int{16, 60} {
		r := recordWordsum(b, lines)
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) { benchmarkRun(b, r) })
	}
}

func benchmarkRun(b *testing.B, r *deps.Run) {
	for _, tc := range []struct {
		name string
		opt  flow.Options
	}{
		{"folded", flow.Options{}},
		{"unfolded", flow.Options{Unfold: true}},
		{"depth3", flow.Options{Unfold: true, Depth: 3}},
		{"focus", flow.Options{Unfold: true, Focus: "stdin line 3"}},
		{"reduce", flow.Options{Unfold: true, Reduce: true}},
	} {
		b.Run("build/"+tc.name, func(b *testing.B) {
			var g *flow.Graph
			for i := 0; i < b.N; i++ {
				var err error
				if g, err = flow.FromRun(r, tc.opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(g.Nodes)), "nodes")
		})
	}
	for _, unfold := range []bool{false, true} {
		g, err := flow.FromRun(r, flow.Options{Unfold: unfold})
		if err != nil {
			b.Fatal(err)
		}
		name := "folded"
		if unfold {
			name = "unfolded"
		}
		var dot bytes.Buffer
		b.Run("dot/"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				dot.Reset()
				if err := report.FlowDOT(&dot, g, report.SliceInfo{Root: r.Root}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(g.Nodes)), "nodes")
		})
		b.Run("svg/"+name, func(b *testing.B) {
			if _, err := exec.LookPath("dot"); err != nil {
				b.Skip("Graphviz dot is not installed")
			}
			for i := 0; i < b.N; i++ {
				if _, err := renderSVG(dot.Bytes()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(g.Nodes)), "nodes")
		})
	}
}
