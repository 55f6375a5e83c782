package flow_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
	"github.com/culprit-go/culprit/flow"
	"github.com/culprit-go/culprit/internal/instrument"
)

// TestOutputs runs the programs of testdata/outputs instrumented and
// checks each one's outputs and what they depend on, exactly: a "for {"
// loop whose first statement is placed once, writers passed as
// parameters, a result of an instrumented function in an if's init,
// values written through pointers by code that is not instrumented, and
// lines read in a "for {" loop.
func TestOutputs(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "outputs"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		pkg, stdin, reason string
		outputs            []string // "value <= depends, on"
		check              func(t *testing.T, g *flow.Graph)
	}{
		{"./forever", "", "for { v, err := strconv.Atoi(\"3\"); if err != nil || v > 2 { fmt.Println(v); break } }: v from the call and its constant, under the decision (whence its 2); no <test>@0 made up for the loop's first iteration",
			[]string{`fmt.Println(v) = 3 <= v, "3", 2`}, func(t *testing.T, g *flow.Graph) {
				out := g.Node(g.Outputs[0].Node)
				if !hasEdge(g, out, deps.Control, "<test>", 12) {
					t.Errorf("the Println is not control dependent on the condition at line 12: %v", g.Edges)
				}
				if !hasEdge(g, out, deps.Data, "v", 11) {
					t.Errorf("the Println does not read v (11)")
				}
				for _, n := range g.Nodes {
					if n.Var == "v" && n.Version > 0 {
						t.Errorf("%s: the loop's first statement was placed twice", n.Name)
					}
				}
			}},
		{"./writer", "", "fmt.Fprintln, io.WriteString, w.Write and a checked fmt.Fprintf to an io.Writer parameter called with os.Stdout are output; a Write to a buffer is not",
			[]string{
				`fmt.Fprintln(w, x) = 5 <= x, w@0, 5`,
				`io.WriteString(w, s) = hi <= s, w@0, "hi"`,
				`w.Write([]byte(s)) <= s, w@0, "hi"`,
				`fmt.Fprintf(w, "%s!\n", s) = hi! <= s, w@0, "%s!\n", "hi"`,
			}, nil},
		{"./parse", "", "if n, err := parse(\"12\"); err == nil { fmt.Println(n) }: n from parse's return value, computed from \"12\" (and 2) in its body",
			[]string{`fmt.Println(n) = 24 <= n, err, s, "12", 2`}, func(t *testing.T, g *flow.Graph) {
				out := g.Node(g.Outputs[0].Node)
				if !hasEdge(g, out, deps.Control, "<test>", 16) {
					t.Errorf("the Println is not control dependent on err == nil")
				}
				var n *flow.Node
				for _, e := range g.Edges {
					if e.To == out.ID && g.Node(e.From).Var == "n" {
						n = g.Node(e.From)
					}
				}
				if n == nil || !hasEdge(g, n, deps.Data, "<parse() return value>", 12) {
					t.Errorf("the printed n does not depend on parse's return value")
				}
			}},
		{"./scan", "5\n", "fmt.Sscan(\"42\", &n), json.Unmarshal(data, &v) and fmt.Scan(&x) write what they point to: the printed values depend on the calls, so on \"42\", the JSON and standard input",
			[]string{
				`fmt.Println(n) <= n, n@0, "42"`,
				"fmt.Println(v.N) <= v, v@0, `{\"N\": 7}`",
				"fmt.Println(x + 1) <= x, stdin scan 1, v@0, 1, `{\"N\": 7}`",
			}, nil},
		{"./lines", "ab\ncd\n", "a \"for {\" loop whose first statement reads a line: each line once, the first output from the first line",
			[]string{`fmt.Print(strings.ToUpper(line))@0 <= line, stdin line 1`, `fmt.Print(strings.ToUpper(line))@1 <= line, stdin line 1, stdin line 2`}, nil},
		{"./sum", "", "issue 18's weighted count: the output named by what it printed, fmt.Println(sum) = 5, through sum and the elements it read (weights[1] and its 2.25 only through the range's length: the literal's header is built from its parts)",
			[]string{`fmt.Println(sum) = 5 <= sum, weights[2], counts[2], weights[0], counts[0], 0, 0.0, 0.5, 1.5, 2, 2.25, 4`}, nil},
		{"./buffer", "", "a String method writing into a bytes.Buffer: its Fprintf calls are intermediate values inside the graph of the one output, the Fprintln to os.Stderr that prints the buffer's text, which holds the ! that buf.WriteString wrote (a method of code that is not instrumented writes its receiver)",
			[]string{`fmt.Fprintln(os.Stderr, "point", s) = point (3, 4)! <= s, p, p.x, p.y, buf, buf@0, "!", "(%d", ", %d)", "point", 3, 4`},
			func(t *testing.T, g *flow.Graph) {
				writes := 0
				for _, n := range g.Nodes {
					if n.Var == "<fmt.Fprintf()>" {
						writes++
						if n.Output || n.Kind != flow.KindEffect {
							t.Errorf("%s: a write into the buffer is an output or not an effect (%s)", n.Name, n.Kind)
						}
					}
				}
				if writes != 2 {
					t.Errorf("%d writes into the buffer in the graph, want 2", writes)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(strings.TrimPrefix(tc.pkg, "./"), func(t *testing.T) {
			tr, _ := recordProgram(t, dir, tc.pkg, nil, strings.NewReader(tc.stdin))
			g, err := flow.Build(tr, flow.Options{Test: instrument.ProgramRun})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range g.Outputs {
				got = append(got, outputLine(o))
			}
			if !slices.Equal(got, tc.outputs) {
				t.Errorf("outputs\n\t%s\nwant (%s)\n\t%s", strings.Join(got, "\n\t"), tc.reason, strings.Join(tc.outputs, "\n\t"))
			}
			if tc.check != nil && len(g.Outputs) > 0 {
				tc.check(t, g)
			}
		})
	}
}

// outputLine is an output as the text format shows it: "fmt.Println(sum)
// = 5 <= sum, weights[2], 0.5": what it printed, the variables and
// elements it came through, nearest first, then its inputs and
// constants, constants last.
func outputLine(o flow.Output) string {
	s := o.Value
	if len(o.Values) > 0 {
		s += " = " + strings.Join(o.Values, " | ")
	}
	return s + " <= " + strings.Join(append(append([]string{}, o.Through...), o.DependsOn...), ", ")
}

// hasEdge reports whether to has an edge of kind from a node of variable
// v at line.
func hasEdge(g *flow.Graph, to *flow.Node, kind deps.EdgeKind, v string, line int) bool {
	for _, e := range g.Edges {
		if e.To == to.ID && e.Kind == kind {
			if n := g.Node(e.From); n != nil && n.Var == v && n.Line == line {
				return true
			}
		}
	}
	return false
}
