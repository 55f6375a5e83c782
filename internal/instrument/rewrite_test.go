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
		reason string
		events trace.EventSet
		golden string
	}{
		{"statements only", trace.EventStmt, "mid.stmt.golden"},
		{"statements and branches", trace.EventStmt | trace.EventBranch, "mid.branch.golden"},
		{"every event kind", trace.AllEvents, "mid.all.golden"},
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
				src: src, path: "/m/mid.go", events: tt.events, sites: &siteTable{}}
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
