package flow_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/flow"
	"github.com/culprit-go/culprit/internal/instrument"
	"github.com/culprit-go/culprit/report"
)

// hello is the real program nobody here wrote that docs/flow.md draws:
// the Go team's hello command, with its package reverse.
const hello = "golang.org/x/example/hello@v0.0.0-20250915201037-7f05d217867b"

// TestHello runs hello -r gopher instrumented, from a copy of the module
// cache's (skipped when the module cannot be had), and checks the graph
// docs/flow.md shows: the greeting from the format, the argument, the
// runes reverse.String swapped and the flag's default.
func TestHello(t *testing.T) {
	src := moduleDir(t, hello)
	dir := filepath.Join(t.TempDir(), "hello")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	tr, out := recordProgram(t, dir, []string{"-r", "gopher"}, nil)
	if out != "olleH, rehpog!\n" {
		t.Errorf("hello -r gopher printed %q", out)
	}
	g, err := flow.Build(tr, flow.Options{Test: instrument.ProgramRun})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Outputs) != 1 {
		t.Fatalf("%d outputs, want the greeting: %+v", len(g.Outputs), g.Outputs)
	}
	const want = `"", "%s, %s!\n", 0, 1, 2, args[0], flag.Args()@0, r[0], r[1], r[2], r[3], r[4], r[5], s@0`
	if got := strings.Join(g.Outputs[0].DependsOn, ", "); got != want {
		t.Errorf("the greeting depends on\n\t%s\nwant (as docs/flow.md says)\n\t%s", got, want)
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
	if !funcs["main"] || !funcs["String"] || !strings.Contains(dot.String(), `label="String"`) {
		t.Errorf("want nodes of main and reverse.String, clustered: %v", funcs)
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
