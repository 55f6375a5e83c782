package command

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/culprit-go/culprit/reduce"
	"github.com/culprit-go/culprit/reduce/gosyntax"
	"github.com/culprit-go/culprit/reduce/oracle"
	"github.com/culprit-go/culprit/reduce/rewrite"
)

// gofmt acts as gofmt -e on the file at path: it prints each syntax error
// as file:line:col: message and exits 2 when there is one.
func gofmt(path string) {
	_, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.AllErrors)
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(os.Stderr, e)
		}
		os.Exit(2)
	}
}

// brokenGo is a Go file of n functions with one syntax error in the
// middle, the kind of input a gofmt or compiler bug report starts from.
func brokenGo(n int) string {
	var b strings.Builder
	b.WriteString("package big\n\nimport \"fmt\"\n\n")
	for i := range n {
		if i == n/2 {
			b.WriteString("var brokenTable map[string]\n\n")
		}
		fmt.Fprintf(&b, "// f%d prints its argument.\nfunc f%d(x int) int {\n\tif x > %d {\n\t\tfmt.Println(\"big\", x)\n\t}\n\treturn x * %d\n}\n\n", i, i, i, i)
	}
	return b.String()
}

// goReducer returns a reducer of a single Go file against the gofmt
// helper, with the Go syntax.
func goReducer(t *testing.T, src string, judge oracle.Judge) *Reducer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newReducer(t, path, reduce.Min, 2, nil)
	r.Command.Env = append(os.Environ(), helperEnv+"=gofmt", "GORACE=atexit_sleep_ms=0")
	r.Judge = judge
	syn := &gosyntax.Syntax{}
	r.Syntax = func(string) rewrite.Syntax { return syn }
	return r
}

// TestUnparsableGo reduces a Go file with a syntax error: candidates that
// fail to parse no worse than the original are run, and the tree passes
// work on the partial syntax tree.
func TestUnparsableGo(t *testing.T) {
	tests := []struct {
		name  string
		judge oracle.Judge
	}{
		{"match", oracle.Judge{Rule: oracle.Match, Regexp: regexp.MustCompile("expected type")}},
		{"exit status", oracle.Judge{Rule: oracle.ExitStatus}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := brokenGo(40)
			r := goReducer(t, src, tt.judge)
			sum := run(t, r)
			got := readFile(t, r.Output)
			if len(got) > 30 {
				t.Errorf("reduced to %d bytes, want at most 30:\n%s", len(got), got)
			}
			if sum.FinalBytes != len(got) || sum.OriginalBytes != len(src) {
				t.Errorf("summary %+v for a result of %d bytes", sum, len(got))
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "", got, 0); err == nil {
				t.Errorf("the result parses:\n%s", got)
			}
		})
	}
}

// rejectAll is a syntax whose check rejects every candidate.
type rejectAll struct{}

func (rejectAll) Name() string                                     { return "reject" }
func (rejectAll) Edits(string, []byte, int) ([]rewrite.Edit, bool) { return nil, false }
func (rejectAll) Normalize(_ string, old, c []byte) ([]byte, error) {
	if string(old) == string(c) {
		return c, nil
	}
	return nil, errors.New("rejected")
}

// TestFilterFallback: a level whose candidates the syntax filter all
// rejects runs them anyway, as long as the filter has not let through a
// candidate that failed.
func TestFilterFallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(path, []byte(seedInput), 0o644)
	r := newReducer(t, path, reduce.Min, 1, []Level{Bytes})
	r.Command.Timeout = time.Minute
	r.Syntax = func(string) rewrite.Syntax { return rejectAll{} }
	sum := run(t, r)
	if got := readFile(t, r.Output); got != "()" {
		t.Errorf("reduced to %q, want %q (%+v)", got, "()", sum)
	}
	if sum.Skipped == 0 {
		t.Errorf("no candidate skipped: %+v", sum)
	}
}

// TestUnparsableOriginalNotFiltered: when the syntax rejects the original
// itself, its candidates are not filtered at all.
func TestUnparsableOriginalNotFiltered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(path, []byte(seedInput), 0o644)
	r := newReducer(t, path, reduce.Min, 1, []Level{Bytes})
	r.Syntax = func(string) rewrite.Syntax { return rejectOriginal{} }
	sum := run(t, r)
	if got := readFile(t, r.Output); got != "()" || sum.Skipped != 0 {
		t.Errorf("reduced to %q with %d skipped, want %q with none", got, sum.Skipped, "()")
	}
}

// rejectOriginal is a syntax that rejects the seed's input.
type rejectOriginal struct{ rejectAll }

func (rejectOriginal) Normalize(_ string, _, c []byte) ([]byte, error) {
	if string(c) == seedInput {
		return nil, errors.New("rejected")
	}
	return c, nil
}

// TestInterruptRewriteSummary interrupts a reduction during the tree
// passes: the summary reports the size of the result on disk, not the
// original's.
func TestInterruptRewriteSummary(t *testing.T) {
	src := brokenGo(40)
	r := goReducer(t, src, oracle.Judge{Rule: oracle.Match, Regexp: regexp.MustCompile("expected type")})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.OnStatus = func(s Status) {
		if strings.HasPrefix(s.Level, "go") && s.Bytes < len(src) {
			cancel() // at the first improvement the tree passes find
		}
	}
	sum, err := r.Reduce(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Reduce = %v, want context.Canceled", err)
	}
	got := readFile(t, r.Output)
	if sum.FinalBytes != len(got) || len(got) >= len(src) {
		t.Errorf("summary says %d bytes, the result on disk has %d (original %d)", sum.FinalBytes, len(got), len(src))
	}
}

// TestDirFilesFirst: on a directory, whole files are tried before the tree
// passes rewrite any of them.
func TestDirFilesFirst(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkg")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "README"), []byte("A package, with notes.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package p\n\n// F is (f.\nfunc F() int { return 1 }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package p\n\n// G is g).\nfunc G() int { return 2 }\n"), 0o644)
	r := newReducer(t, dir, reduce.Min, 1, nil)
	syn := &gosyntax.Syntax{}
	r.Syntax = func(p string) rewrite.Syntax {
		if filepath.Ext(p) == ".go" {
			return syn
		}
		return nil
	}
	var levels []string
	r.OnTest = func(e Event) { levels = append(levels, e.Level) }
	run(t, r)
	if len(levels) < 2 || levels[0] != "original" || levels[1] != "files" {
		t.Errorf("tests by level: %v, want the original's, then files", levels)
	}
	if _, err := os.Stat(filepath.Join(r.Output, "README")); err == nil {
		t.Errorf("README kept")
	}
	if got := readAll(r.Output); !strings.Contains(got, "(") || !strings.Contains(got, ")") {
		t.Errorf("result %q does not fail", got)
	}
}

// TestDirFilesTypeCheck: the files level does not run a candidate that
// deletes a Go file the package's other files need (it would not
// compile): a.go alone does not type-check without b.go's G.
func TestDirFilesTypeCheck(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkg")
	os.MkdirAll(dir, 0o755)
	a := "package p\n\nfunc F() int { return G() }\n"
	os.WriteFile(filepath.Join(dir, "a.go"), []byte(a), 0o644)
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package p\n\n// G is the second, at last.\nfunc G() int { return 2 }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.go"), []byte("package p\n\nfunc H() int { return 3 }\n"), 0o644)
	r := newReducer(t, dir, reduce.Min, 1, nil)
	syn := &gosyntax.Syntax{}
	r.Syntax = func(p string) rewrite.Syntax { return syn }
	var ran []int
	r.OnTest = func(e Event) {
		if e.Level == "files" && !e.Cached {
			ran = append(ran, e.Bytes)
		}
	}
	sum := run(t, r)
	for _, n := range ran {
		if n == len(a) {
			t.Errorf("the files level ran a.go alone (%d bytes), which does not type-check; tests: %v", n, ran)
		}
	}
	if sum.Skipped == 0 {
		t.Errorf("no candidate skipped")
	}
}
