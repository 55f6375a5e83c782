package instrument

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/culprit-go/culprit/trace"
)

// TestOldGoVersion instruments the oldgo fixture, whose go.mod declares
// go 1.12 and whose files carry plus-build lines, with every event kind:
// its tests (which check that loop variables and panic(nil) keep their
// go1.12 meaning, and run an example with statements after its output
// comment) pass as they do plain, and it records exactly what the same
// module declaring go 1.21 records: reads, call results, panics and
// channel operations included.
func TestOldGoVersion(t *testing.T) {
	if goMinor(runtimeGoVersion(t)) < raiseMin {
		t.Skip("the go command is older than go1.21: files are not raised")
	}
	src, _ := filepath.Abs("testdata/oldgo")
	records := map[string]string{}
	for _, version := range []string{"1.12", "1.21", ""} {
		dir := copyFixture(t, src)
		mod := "module example.com/oldgo\n"
		if version != "" {
			mod += "\ngo " + version + "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
			t.Fatal(err)
		}
		name := "go " + version
		if version == "" {
			name = "no go line"
		}
		// TestSemantics holds only below go1.21 (panic(nil)).
		run := "TestScale|TestCheck|TestPipe|Example"
		if version != "1.21" {
			run += "|TestSemantics"
		}
		plain := exec.Command("go", "test", "-count=1", "-run", run, ".")
		plain.Dir = dir
		if out, err := plain.CombinedOutput(); err != nil {
			t.Fatalf("%s: plain run fails: %v\n%s", name, err, out)
		}
		traceDir := t.TempDir()
		var out bytes.Buffer
		res, err := Run(context.Background(), Config{Dir: dir, Packages: []string{"."}, Events: trace.AllEvents,
			TraceDir: traceDir, Stdout: &out, Stderr: &out, GoFlags: []string{"-v", "-run", run}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.ExitCode != 0 {
			t.Fatalf("%s: exit %d:\n%s", name, res.ExitCode, out.Bytes())
		}
		if !strings.Contains(out.String(), "--- PASS: ExampleScale") {
			t.Errorf("%s: the example did not run as one with output:\n%s", name, out.Bytes())
		}
		tr, err := trace.Open(traceDir)
		if err != nil || len(tr.Processes) != 1 {
			t.Fatalf("%s: trace: %v", name, err)
		}
		tags := map[byte]int{}
		var lines []string
		for _, e := range tr.Processes[0].Events {
			tags[e.Tag]++
			s := tr.Sites.Sites[e.Site]
			if strings.Contains(s.Func, "TestSemantics") || strings.Contains(s.Func, "Closures") || strings.Contains(s.Func, "Twice") {
				continue // run in one version only
			}
			lines = append(lines, fmt.Sprintf("%s:%d:%d %c", filepath.Base(s.File), s.Line, s.Col, e.Tag))
		}
		sort.Strings(lines)
		records[name] = strings.Join(lines, "\n")
		for _, tag := range []byte{trace.TagRead, trace.TagWrite, trace.TagCall, trace.TagReturn, trace.TagPanic,
			trace.TagRecover, trace.TagSend, trace.TagRecv} {
			if tags[tag] == 0 {
				t.Errorf("%s: no %q records", name, tag)
			}
		}
	}
	if records["go 1.12"] != records["go 1.21"] {
		t.Errorf("a module declaring go 1.12 records differently from one declaring go 1.21:\n%s", diffLines(records["go 1.12"], records["go 1.21"]))
	}
	if records["no go line"] != records["go 1.21"] {
		t.Errorf("a module without a go line records differently from one declaring go 1.21:\n%s", diffLines(records["no go line"], records["go 1.21"]))
	}
}

// TestRaisedVersionEdits checks the edits that raise a file's version,
// for each shape of build constraint header.
func TestRaisedVersionEdits(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // lines the rewritten file must hold
		refuse    []string // substrings it must not hold
	}{
		{"none", "package p\n\nfunc F(x int) int { return x + 1 }\n",
			[]string{"//go:build go1.21", ""}, nil},
		{"go:build", "//go:build linux || darwin\n\npackage p\n\nfunc F(x int) int { return x + 1 }\n",
			[]string{"//go:build (linux || darwin) && go1.21"}, []string{"//go:build go1.21"}},
		{"plus build", "// +build linux darwin\n\npackage p\n\nfunc F(x int) int { return x + 1 }\n",
			[]string{"//go:build go1.21", "// _build linux darwin"}, []string{"+build"}},
		{"both", "//go:build linux\n// +build linux\n\npackage p\n\nfunc F(x int) int { return x + 1 }\n",
			[]string{"//go:build (linux) && go1.21", "// _build linux"}, []string{"+build"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := rewriteSource(t, "go1.16", tt.src)
			lines := strings.Split(string(out), "\n")
			for _, w := range tt.want {
				found := false
				for _, l := range lines {
					if l == w {
						found = true
					}
				}
				if !found {
					t.Errorf("no line %q in:\n%s", w, out)
				}
			}
			for _, r := range tt.refuse {
				if strings.Contains(string(out), r) {
					t.Errorf("%q in:\n%s", r, out)
				}
			}
			// The original lines keep their numbers: the package clause
			// is on the same line after the //line directive.
			if !bytes.Contains(out, []byte("//line /m/p.go:1:1\n")) {
				t.Errorf("no //line directive:\n%s", out)
			}
		})
	}
	// A file already at go1.21 or later is left as it is.
	if out := rewriteSource(t, "go1.22", tests[0].src); bytes.Contains(out, []byte("go:build")) {
		t.Errorf("go1.22 file raised:\n%s", out)
	}
}

func runtimeGoVersion(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Skipf("go env: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// copyFixture copies a fixture directory (flat) to a temporary one.
func copyFixture(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// diffLines shows the first lines where two texts differ.
func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: %q vs %q (of %d and %d)", i+1, x, y, len(al), len(bl))
		}
	}
	return "equal"
}

// sourceRewriter type-checks one file of package p, at /m/p.go, as the Go
// version given, and returns its rewriter for every event kind.
func sourceRewriter(t *testing.T, version, src string) *fileRewriter {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/m/p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes: map[ast.Node]*types.Scope{}, FileVersions: map[*ast.File]string{}}
	conf := types.Config{GoVersion: version, Importer: importer.Default()}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return &fileRewriter{fset: fset, info: info, pkg: pkg, file: f, tokFile: fset.File(f.Pos()),
		src: []byte(src), path: "/m/p.go", events: trace.AllEvents, sites: &siteTable{}}
}

// rewriteSource type-checks one file of package p, at /m/p.go, as the Go
// version given, and instruments it with every event kind.
func rewriteSource(t *testing.T, version, src string) []byte {
	t.Helper()
	out := sourceRewriter(t, version, src).rewrite()
	if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, parser.ParseComments); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, out)
	}
	return out
}
