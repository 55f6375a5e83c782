package changes

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo is a repository made in a test.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.git("config", "user.email", "t@example.com")
	r.git("config", "user.name", "t")
	r.git("config", "commit.gpgsign", "false")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (an empty content deletes one) and commits them.
func (r *gitRepo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for name, data := range files {
		p := filepath.Join(r.dir, name)
		if data == "" {
			os.Remove(p)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// state is what must not change: the work tree's files, the index and
// HEAD.
func (r *gitRepo) state() string {
	h := sha256.New()
	filepath.Walk(r.dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(r.dir, p)
		if strings.HasPrefix(rel, ".git/") && rel != ".git/index" && rel != ".git/HEAD" {
			return nil
		}
		data, _ := os.ReadFile(p)
		fmt.Fprintf(h, "%s %v %d\n%s", rel, info.ModTime(), len(data), data)
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

const calcV1 = `package calc

// Add adds.
func Add(a, b int) int { return a + b }

// Mul multiplies.
func Mul(a, b int) int {
	r := 0
	for i := 0; i < abs(b); i++ {
		r += a
	}
	if b < 0 {
		return -r
	}
	return r
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
`

const calcTest = `package calc

import "testing"

func TestMul(t *testing.T) {
	for _, c := range []struct{ a, b, want int }{{2, 3, 6}, {2, -3, -6}, {-2, -3, 6}, {0, 5, 0}, {4, -1, -4}} {
		if got := Mul(c.a, c.b); got != c.want {
			t.Errorf("Mul(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Error("Add")
	}
}
`

// calcBig is the large commit: the bug (abs of a negative number is
// itself) among unrelated changes: a new function, comments, a renamed
// local, a new file.
const calcBig = `package calc

import "strconv"

// Add adds two numbers.
func Add(a, b int) int {
	sum := a + b
	return sum
}

// Mul multiplies a by b, adding a |b| times.
func Mul(a, b int) int {
	total := 0
	for i := 0; i < abs(b); i++ {
		total += a
	}
	if b < 0 {
		return -total
	}
	return total
}

// Format formats a number.
func Format(x int) string { return strconv.Itoa(x) }

// abs is the absolute value.
func abs(x int) int {
	if x < -1 {
		return -x
	}
	return x
}

// Sub subtracts.
func Sub(a, b int) int { return a - b }
`

func fixture(t *testing.T) (r *gitRepo, good, broken, bug string) {
	r = newGitRepo(t)
	good = r.commit("calc: Add and Mul", map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.21\n",
		"calc.go":      calcV1,
		"calc_test.go": calcTest,
	})
	r.commit("README only", map[string]string{"README": "calc\n"})
	broken = r.commit("calc: Div, half done", map[string]string{"div.go": "package calc\n\nfunc Div(a, b int) int { return a / }\n"})
	r.commit("calc: Div", map[string]string{"div.go": "package calc\n\n// Div divides.\nfunc Div(a, b int) int { return a / b }\n"})
	bug = r.commit("calc: a refactoring, Format, Sub", map[string]string{
		"calc.go":  calcBig,
		"names.go": "package calc\n\n// Names are the operations.\nvar Names = []string{\"add\", \"mul\", \"div\"}\n",
		"README":   "calc: add, mul, div\n",
	})
	r.commit("calc: docs", map[string]string{"doc.go": "// Package calc calculates.\npackage calc\n"})
	return r, good, broken, bug
}

// TestFindCommitAndLines: bisection names the large commit (skipping
// the one that does not build), and delta debugging inside it the line
// of the bug; the work tree and the index are untouched.
func TestFindCommitAndLines(t *testing.T) {
	r, good, broken, bug := fixture(t)
	before := r.state()
	res, err := Find(context.Background(), Config{Good: good, Dir: r.dir, Jobs: 2, Env: []string{"GOFLAGS=-mod=mod"}, OnEvent: func(ev Event) {
		if !ev.Cached {
			t.Logf("%s: %d lines: %v %s", ev.Phase, ev.Atoms, ev.Outcome, ev.Why)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if after := r.state(); after != before {
		t.Errorf("the work tree or the index changed")
	}
	if res.Commit == nil || res.Commit.Rev != bug {
		t.Fatalf("commit = %+v, want %s", res.Commit, bug)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Rev != broken {
		t.Errorf("skipped = %+v, want the commit that does not build, %s", res.Skipped, broken)
	}
	lines := res.Change.Lines(res.Set)
	if len(lines) != 1 || lines[0].File != "calc.go" || fmt.Sprint(lines[0].BadLines) != "[[28 28]]" || fmt.Sprint(lines[0].GoodLines) != "[[19 19]]" {
		t.Errorf("lines = %+v, want calc.go's line 19 replaced by line 28", lines)
	}
	if !strings.Contains(res.Failure, "TestMul") {
		t.Errorf("failure = %q, want TestMul's", res.Failure)
	}
	diff := res.Change.Diff(res.Set)
	t.Logf("diff:\n%s", diff)
	// git apply accepts it on the first failing commit's parent.
	work := t.TempDir()
	if err := (&Repo{Root: r.dir}).Export(res.Base.Rev, work); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "apply", "--check", "-")
	cmd.Dir = work
	cmd.Stdin = strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("git apply --check: %v: %s", err, out)
	}
	t.Logf("stats: %+v", res.Stats)
}

// TestFindErrors: bad input is a UsageError, and leaves the repository
// as it was.
func TestFindErrors(t *testing.T) {
	r, good, _, bug := fixture(t)
	readme := r.git("rev-parse", ":/README only")
	env := []string{"GOFLAGS=-mod=mod"}
	for _, c := range []struct {
		reason string
		cfg    Config
		want   error
	}{
		{"an unknown revision", Config{Good: "nosuchrev"}, ErrUnknownRevision},
		{"GOOD fails", Config{Good: bug}, ErrGoodFails},
		{"BAD passes", Config{Good: good, Bad: readme}, ErrBadPasses},
	} {
		c.cfg.Dir, c.cfg.Env = r.dir, env
		_, err := Find(context.Background(), c.cfg)
		var ue *UsageError
		if !errors.As(err, &ue) || !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want a usage error wrapping %v", c.reason, err, c.want)
		}
	}
	// A dirty work tree when BAD is the work tree.
	os.WriteFile(filepath.Join(r.dir, "calc.go"), []byte(calcV1+"\n// dirty\n"), 0o644)
	dirty := r.state()
	if _, err := Find(context.Background(), Config{Good: good, Dir: r.dir, Env: env}); !errors.Is(err, ErrDirty) {
		t.Errorf("dirty tree: err = %v, want %v", err, ErrDirty)
	}
	if r.state() != dirty {
		t.Errorf("the work tree or the index changed")
	}
	os.WriteFile(filepath.Join(r.dir, "calc.go"), []byte(calcBig), 0o644)
	// No git: a revision outside a repository.
	if _, err := Find(context.Background(), Config{Good: "HEAD~1", Dir: t.TempDir()}); !errors.Is(err, ErrNoGit) {
		t.Errorf("no repository: err = %v, want %v", err, ErrNoGit)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFindRange: when the commit before the first failing one does not
// build, bisection cannot tell them apart; the range is reported and
// its combined change searched.
func TestFindRange(t *testing.T) {
	r := newGitRepo(t)
	good := r.commit("calc", map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.21\n",
		"calc.go":      calcV1,
		"calc_test.go": calcTest,
	})
	broken := r.commit("calc: Div, half done", map[string]string{"div.go": "package calc\n\nfunc Div(a, b int) int { return a / }\n"})
	bug := r.commit("calc: Div, abs", map[string]string{
		"div.go":  "package calc\n\n// Div divides.\nfunc Div(a, b int) int { return a / b }\n",
		"calc.go": strings.Replace(calcV1, "if x < 0 {", "if x < -1 {", 1),
	})
	r.commit("README", map[string]string{"README": "calc\n"})
	res, err := Find(context.Background(), Config{Good: good, Dir: r.dir, Jobs: 2, Env: []string{"GOFLAGS=-mod=mod"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit != nil || len(res.Range) != 2 || res.Range[0].Rev != broken || res.Range[1].Rev != bug {
		t.Fatalf("commit %+v, range %+v: want the range of %s and %s", res.Commit, res.Range, broken, bug)
	}
	if res.Base.Rev != good {
		t.Errorf("base = %s, want GOOD", res.Base.Rev)
	}
	if lines := fmt.Sprint(res.Change.Lines(res.Set)); lines != "[{calc.go [[19 19]] [[19 19]] [18]}]" {
		t.Errorf("lines = %s", lines)
	}
}

// TestFindMergeAndOtherFailure: a commit that fails otherwise than BAD
// (a panic instead of a wrong result) is skipped like one that does not
// build, and a merge is tested as one commit: its side branch is not
// bisected.
func TestFindMergeAndOtherFailure(t *testing.T) {
	r := newGitRepo(t)
	good := r.commit("calc", map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.21\n",
		"calc.go":      calcV1,
		"calc_test.go": calcTest,
	})
	r.commit("README", map[string]string{"README": "calc\n"})
	panics := r.commit("calc: Mul panics on -1", map[string]string{
		"calc.go": strings.Replace(calcV1, "\tr := 0\n", "\tif b == -1 {\n\t\tpanic(\"boom\")\n\t}\n\tr := 0\n", 1),
	})
	r.commit("calc: Mul does not panic", map[string]string{"calc.go": calcV1})
	r.git("checkout", "-q", "-b", "side", "HEAD~1")
	side := r.commit("side: Sub", map[string]string{"sub.go": "package calc\n\n// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n", "calc.go": calcV1})
	r.git("checkout", "-q", "main")
	r.git("merge", "-q", "--no-edit", "side")
	bug := r.commit("calc: abs", map[string]string{"calc.go": strings.Replace(calcV1, "if x < 0 {", "if x < -1 {", 1)})
	res, err := Find(context.Background(), Config{Good: good, Dir: r.dir, Jobs: 2, Env: []string{"GOFLAGS=-mod=mod"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commit == nil || res.Commit.Rev != bug {
		t.Fatalf("commit = %+v, want %s", res.Commit, bug)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Rev != panics {
		t.Errorf("skipped = %+v, want the commit that panics, %s", res.Skipped, panics)
	}
	for _, v := range append(res.Skipped, *res.Commit) {
		if v.Rev == side {
			t.Errorf("the side branch's commit %s was bisected", side)
		}
	}
}
