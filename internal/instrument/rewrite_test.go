package instrument

import (
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/culprit-go/culprit/trace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestRewriteGolden shows what the instrumenter inserts, per event kind,
// in testdata/constructs/mid.go, and checks that every output parses.
func TestRewriteGolden(t *testing.T) {
	dir, _ := filepath.Abs("testdata/constructs")
	pkgs, err := packages.Load(&packages.Config{Dir: dir, Mode: packages.LoadAllSyntax}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("load: %v %v", err, pkgs)
	}
	p := pkgs[0]
	tests := []struct {
		reason   string
		events   trace.EventSet
		noInline bool
		golden   string
	}{
		{"statements only", trace.EventStmt, false, "mid.stmt.golden"},
		{"statements and branches", trace.EventStmt | trace.EventBranch, false, "mid.branch.golden"},
		{"every event kind", trace.AllEvents, false, "mid.all.golden"},
		// An analysis's build: an if's decisions, writes' records and call
		// statements' records are statements guarded by the muted flag.
		{"every event kind, compiled without inlining", trace.AllEvents, true, "mid.all-l.golden"},
	}
	for _, tt := range tests {
		for i, f := range p.Syntax {
			path := p.CompiledGoFiles[i]
			if filepath.Base(path) != "mid.go" {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r := &fileRewriter{fset: p.Fset, info: p.TypesInfo, pkg: p.Types, file: f, tokFile: p.Fset.File(f.Pos()),
				src: src, path: "/m/mid.go", events: tt.events, sites: &siteTable{}, noInline: tt.noInline}
			r.clones = cloneSet([]*fileRewriter{r})
			out := r.rewrite()
			if _, err := parser.ParseFile(token.NewFileSet(), "mid.go", out, parser.SkipObjectResolution); err != nil {
				t.Errorf("%s: output does not parse: %v\n%s", tt.reason, err, out)
			}
			golden := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%s: %v (run with -update)", tt.reason, err)
			}
			if string(out) != string(want) {
				t.Errorf("%s: output differs from %s (run with -update to accept):\n%s", tt.reason, golden, out)
			}
			if !strings.HasPrefix(string(out), "//line /m/mid.go:1:1\n") {
				t.Errorf("%s: no //line directive first", tt.reason)
			}
		}
	}
}

// TestKeepFuncs instruments testdata/constructs with Config.Funcs and
// Tests set: only the functions named (a function literal by its
// declaration; every function when Funcs is nil) and, in test files,
// the tests named and every helper get sites; the rest stays as written.
func TestKeepFuncs(t *testing.T) {
	dir, _ := filepath.Abs("testdata/constructs")
	pkgs, err := packages.Load(&packages.Config{Dir: dir, Mode: packages.LoadAllSyntax, Tests: true}, ".")
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "example.com/constructs"
	tests := []struct {
		file      string
		funcs     map[string]bool
		tests     map[string]bool
		want, not []string // site functions
	}{
		{"mid.go", map[string]bool{pkg + ".Middle": true}, nil, []string{pkg + ".Middle"}, []string{pkg + ".Named", pkg + ".Gen"}},
		{"more.go", map[string]bool{pkg + ".Rec.func": true, pkg + ".Counter.Inc": true}, nil,
			[]string{pkg + ".Rec", pkg + ".Counter.Inc"}, []string{pkg + ".Goto", pkg + ".Kind"}},
		{"mid_test.go", map[string]bool{}, map[string]bool{"TestPar": true}, []string{pkg + ".TestPar"}, []string{pkg + ".TestMiddle", pkg + ".TestSkip"}},
		{"mid.go", nil, map[string]bool{"TestPar": true}, []string{pkg + ".Middle", pkg + ".Named", pkg + ".Gen"}, nil},
		{"mid_test.go", nil, map[string]bool{"TestMiddle": true}, []string{pkg + ".TestMiddle"}, []string{pkg + ".TestPar"}},
		{"more_test.go", map[string]bool{}, map[string]bool{"ExampleKind": true}, []string{pkg + ".ExampleKind"}, []string{pkg + ".TestMore", pkg + ".ExampleMiddle"}},
	}
	for _, tt := range tests {
		found := false
		for _, p := range pkgs {
			if p.PkgPath != pkg || len(p.Errors) > 0 {
				continue
			}
			for i, f := range p.Syntax {
				path := p.CompiledGoFiles[i]
				if filepath.Base(path) != tt.file || found {
					continue
				}
				found = true
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				sites := &siteTable{}
				r := &fileRewriter{fset: p.Fset, info: p.TypesInfo, pkg: p.Types, file: f, tokFile: p.Fset.File(f.Pos()),
					src: src, path: path, isTest: strings.HasSuffix(path, "_test.go"), events: trace.AllEvents, sites: sites,
					funcs: tt.funcs, tests: tt.tests}
				r.rewrite()
				got := map[string]bool{}
				for _, s := range sites.sites {
					got[strings.TrimSuffix(s.Func, ".func")] = true
				}
				for _, w := range tt.want {
					if !got[w] {
						t.Errorf("%s: %s has no site (sites of %v)", tt.file, w, got)
					}
				}
				for _, w := range tt.not {
					if got[w] {
						t.Errorf("%s: %s instrumented, though not kept", tt.file, w)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: not loaded", tt.file)
		}
	}
}
