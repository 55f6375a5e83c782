package flow_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/flow"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/report"
)

// TestPrograms runs real programs nobody here wrote instrumented, from
// copies of the module cache's (each skipped when its module cannot be
// had), and checks what their outputs depend on:
//   - the Go team's hello command, with its package reverse, that
//     docs/flow.md draws: the greeting from the format, the argument, the
//     runes reverse.String swapped and the flag's default;
//   - BurntSushi/toml's toml-test-decoder (TOML on standard input, JSON
//     on standard output through a json.Encoder): the output is found,
//     and what it depends on stops at the decoded value, which the
//     decoder wrote through reflection, unseen.
func TestPrograms(t *testing.T) {
	cases := []struct {
		name, reason string
		module, pkg  string
		args         []string
		stdin        string
		out          string   // what the program printed, a prefix of it
		depends      string   // what its one output depends on, exactly
		some         []string // or some of what it depends on
		funcs        []string
	}{
		{"hello", "docs/flow.md's real program", "golang.org/x/example/hello@v0.0.0-20250915201037-7f05d217867b", ".",
			[]string{"-r", "gopher"}, "", "olleH, rehpog!\n",
			`args[0], flag.Args()@0, r[0], r[1], r[2], r[3], r[4], r[5], s@0, "", "%s, %s!\n", 0, 1, 2`,
			nil, []string{"main", "String"}},
		{"toml", "a module of the instrumentation proof; reflection's writes are not seen", "github.com/BurntSushi/toml@v1.6.0", "./cmd/toml-test-decoder",
			nil, "title = \"culprit\"\n[owner]\nage = 42\n", "{\n",
			"", []string{`decoded@0`, `json.NewEncoder(os.Stdout)@0`, `"integer"`}, []string{"main", "Add"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := moduleDir(t, tc.module)
			dir := filepath.Join(t.TempDir(), tc.name)
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			tr, out := recordProgram(t, dir, tc.pkg, tc.args, strings.NewReader(tc.stdin))
			if !strings.HasPrefix(out, tc.out) {
				t.Errorf("the program printed %q, want %q first", out, tc.out)
			}
			g, err := flow.Build(tr, flow.Options{Test: instrument.ProgramRun})
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Outputs) != 1 {
				t.Fatalf("%d outputs, want one: %+v", len(g.Outputs), g.Outputs)
			}
			got := strings.Join(g.Outputs[0].DependsOn, ", ")
			if tc.depends != "" && got != tc.depends {
				t.Errorf("%s depends on\n\t%s\nwant (%s)\n\t%s", g.Outputs[0].Value, got, tc.reason, tc.depends)
			}
			for _, d := range tc.some {
				if !slices.Contains(g.Outputs[0].DependsOn, d) {
					t.Errorf("%s depends on %s, not on %s (%s)", g.Outputs[0].Value, got, d, tc.reason)
				}
			}
			var dot, js bytes.Buffer
			info := report.SliceInfo{Root: dir}
			if err := report.FlowDOT(&dot, g, info); err != nil {
				t.Fatal(err)
			}
			if err := report.FlowJSONTo(&js, g, info); err != nil {
				t.Fatal(err)
			}
			var doc report.FlowJSON
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatalf("JSON: %v", err)
			}
			funcs := map[string]bool{}
			for _, n := range doc.Nodes {
				funcs[n.Function] = true
			}
			for _, f := range tc.funcs {
				if !funcs[f] || !strings.Contains(dot.String(), "label=\""+f+"\"") {
					t.Errorf("no cluster of %s's nodes: %v", f, funcs)
				}
			}
		})
	}
}

// moduleDir returns the directory of a module version in the module
// cache, downloading it if it is not there; the test is skipped when it
// cannot be had.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a program instrumented")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Dir = t.TempDir()
	data, err := cmd.Output()
	var info struct{ Dir, Error string }
	if err != nil || json.Unmarshal(data, &info) != nil || info.Dir == "" {
		t.Skipf("%s cannot be had: %v %s", mod, err, info.Error)
	}
	return info.Dir
}
