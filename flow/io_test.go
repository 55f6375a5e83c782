package flow

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/deps"
)

// run builds an execution-level graph from lines "name <- dep, dep" as
// synth does, with call nodes marked: a name with "(" that does not start
// with "<" is a call into code that is not instrumented. Every node
// stands at line 10 of file, its column its order, but io.Copy at the
// column of the call on TestStreams's source line.
func run(t *testing.T, file string, lines ...string) *deps.Run {
	t.Helper()
	r := synth(t, lines...)
	for _, n := range r.Nodes {
		n.Call = strings.Contains(n.Var, "(") && !strings.HasPrefix(n.Var, "<")
		n.File, n.Col, n.Line = file, n.Line, 10
		if n.Var == "<io.Copy()>" {
			n.Col = 2
		}
	}
	return r
}

func TestStreams(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	// Line 10 of the source is what firstArg and line read.
	text := "package main\n\nfunc main() {" + strings.Repeat("\n", 7) + "\tio.Copy(os.Stdout, r); w := bufio.NewWriter(os.Stdout)\n}\n"
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	scanner := []string{
		"bufio.NewScanner(os.Stdin)@0 <- 0",
		"sc@0 <- bufio.NewScanner(os.Stdin)@0",
		"sc.Text()@0 <- sc@0",
		"line@0 <- sc.Text()@0",
		"sc.Text()@1 <- sc@0",
		"line@1 <- sc.Text()@1",
		"<fmt.Println()>@0 <- line@0, line@1",
	}
	cases := []struct {
		name, reason string
		lines        []string
		depends      []string // of the first output
		outputs      int
		source       bool // the nodes stand in the source file
	}{
		{"scanner", "each Text() of a scanner over standard input is a line of its own", scanner,
			[]string{"stdin line 1", "stdin line 2"}, 1, false},
		{"words", "a scanner split otherwise returns tokens", append([]string{"<sc.Split()>@0 <- sc@0"}, scanner...),
			[]string{"stdin token 1", "stdin token 2"}, 1, false},
		{"not stdin", "a scanner over a string reads no input of the program's", []string{
			"strings.NewReader(s@0)@0 <- s@0", "sc@0 <- strings.NewReader(s@0)@0", "sc.Text()@0 <- sc@0",
			"<fmt.Println()>@0 <- sc.Text()@0",
		}, []string{"s@0"}, 1, false},
		{"writer", "a Write method of a writer made over os.Stdout writes output; to another writer not", []string{
			"w@0 <- bufio.NewWriter(os.Stdout)@0", "<w.WriteString()>@0 <- w@0, 7",
			"b@0 <- bytes.NewBuffer(x@0)@0", "<b.WriteString()>@0 <- b@0, 8",
		}, []string{"bufio.NewWriter(os.Stdout)@0", "7"}, 1, false},
		{"encode", "a call whose error is checked writes output too: an Encode of an encoder over os.Stdout", []string{
			"j@0 <- json.NewEncoder(os.Stdout)@0", "j.Encode(v)@0 <- j@0, 9", "err@0 <- j.Encode(v)@0",
		}, []string{"json.NewEncoder(os.Stdout)@0", "9"}, 1, false},
		{"args", "a call computed from an argument is a call, the argument the input", []string{
			"strconv.Atoi(os.Args[1])@0 <- os.Args[1]@0", "n@0 <- strconv.Atoi(os.Args[1])@0", "<fmt.Println()>@0 <- n@0, len(os.Args)@0",
		}, []string{"len(os.Args)@0", "os.Args[1]@0"}, 1, false},
		{"stdout", "os.Stdout.Write and io.Copy to os.Stdout write output", []string{
			"<os.Stdout.Write()>@0 <- 5", "<io.Copy()>@0 <- r@0",
		}, []string{"5"}, 2, true},
		{"line", "a writer defined on a line naming os.Stdout", []string{
			"w@0 <- 0", "<w.Write()>@0 <- w@0, 6",
		}, []string{"0", "6"}, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := ""
			if tc.source {
				file = src
			}
			g, err := FromRun(run(t, file, tc.lines...), Options{})
			if err != nil {
				t.Fatalf("%v (%s)", err, tc.reason)
			}
			if len(g.Outputs) != tc.outputs || !reflect.DeepEqual(g.Outputs[0].DependsOn, tc.depends) {
				t.Errorf("outputs %+v, want %d, the first depending on %v (%s)", g.Outputs, tc.outputs, tc.depends, tc.reason)
			}
		})
	}
}

func TestFoldNumbered(t *testing.T) {
	// Two reads at one site fold into "stdin line 1..2".
	r := run(t, "", "sc@0 <- bufio.NewScanner(os.Stdin)@0", "sc.Text()@0 <- sc@0", "sc.Text()@1 <- sc@0",
		"<fmt.Println()>@0 <- sc.Text()@0, sc.Text()@1")
	r.Nodes[2].Col, r.Nodes[3].Col = 20, 20
	g, err := FromRun(r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range g.Nodes {
		if n.Kind == KindInput {
			names = append(names, n.Name)
		}
	}
	if want := []string{"bufio.NewScanner(os.Stdin)@0", "stdin line 1..2"}; !reflect.DeepEqual(names, want) {
		t.Errorf("inputs %q, want %q", names, want)
	}
}

func TestMethodCall(t *testing.T) {
	cases := []struct {
		call, recv, method string
		ok                 bool
	}{
		{"sc.Text()", "sc", "Text", true},
		{"os.Stdout.WriteString()", "os.Stdout", "WriteString", true},
		{"in.ReadString('\\n')", "in", "ReadString", true},
		{"a.b.c.Write()", "", "", false},
		{"len(xs)", "", "", false},
		{"f().Text()", "", "", false},
	}
	for _, tc := range cases {
		recv, method, ok := methodCall(tc.call)
		if ok != tc.ok || ok && (recv != tc.recv || method != tc.method) {
			t.Errorf("methodCall(%q) = %q, %q, %v; want %q, %q, %v", tc.call, recv, method, ok, tc.recv, tc.method, tc.ok)
		}
	}
}
